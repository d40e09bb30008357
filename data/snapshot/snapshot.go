// Package snapshot is strata's binary container for workspaces: a
// versioned file of named, 64-byte-aligned sections, each with an xxh3
// checksum, behind a checksummed header. Readers get zero-copy typed views
// ([]uint32, []float32, strings) into one buffer read in a single call.
//
// Layout (little-endian):
//
//	magic "STRATASN" | version u32 | section count u32 | header length u64
//	header: per section: name length u16, name, offset u64, length u64, xxh3 u64
//	header xxh3 u64
//	padding to 64 | section data, each padded to 64
package snapshot

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"unsafe"

	"github.com/zeebo/xxh3"

	"github.com/strata-retrieval/strata/internal/atomicfile"
)

// Magic starts every snapshot file.
const Magic = "STRATASN"

// Version is the container version this package writes and reads.
const Version = 1

const align = 64

// ErrCorrupt reports a damaged or truncated snapshot.
var ErrCorrupt = errors.New("corrupt snapshot")

var littleEndian = func() bool {
	x := uint16(1)
	return *(*byte)(unsafe.Pointer(&x)) == 1
}()

// Writer collects sections and writes them atomically.
type Writer struct {
	names []string
	data  [][]byte
}

// Add appends a raw section. The data is not copied.
func (w *Writer) Add(name string, b []byte) {
	if len(name) == 0 || len(name) > 1<<15 {
		panic("snapshot: bad section name length")
	}
	w.names = append(w.names, name)
	w.data = append(w.data, b)
}

// AddUint16s adds a []uint16 section.
func (w *Writer) AddUint16s(name string, xs []uint16) { w.Add(name, bytesOf(xs)) }

// AddUint32s appends a []uint32 section.
func (w *Writer) AddUint32s(name string, xs []uint32) { w.Add(name, bytesOf(xs)) }

// AddUint64s appends a []uint64 section.
func (w *Writer) AddUint64s(name string, xs []uint64) { w.Add(name, bytesOf(xs)) }

// AddFloat32s appends a []float32 section.
func (w *Writer) AddFloat32s(name string, xs []float32) { w.Add(name, bytesOf(xs)) }

// AddStrings appends two sections: name+".off" (n+1 uint64 offsets) and
// name+".bytes" (the concatenated strings).
func (w *Writer) AddStrings(name string, ss []string) {
	off := make([]uint64, len(ss)+1)
	total := 0
	for i, s := range ss {
		total += len(s)
		off[i+1] = uint64(total)
	}
	blob := make([]byte, 0, total)
	for _, s := range ss {
		blob = append(blob, s...)
	}
	w.AddUint64s(name+".off", off)
	w.Add(name+".bytes", blob)
}

// bytesOf returns the little-endian bytes of a numeric slice.
func bytesOf[T uint16 | uint32 | uint64 | float32](xs []T) []byte {
	if len(xs) == 0 {
		return nil
	}
	size := int(unsafe.Sizeof(xs[0]))
	if littleEndian {
		return unsafe.Slice((*byte)(unsafe.Pointer(&xs[0])), len(xs)*size)
	}
	b := make([]byte, len(xs)*size)
	for i, x := range xs {
		switch v := any(x).(type) {
		case uint16:
			binary.LittleEndian.PutUint16(b[i*2:], v)
		case uint32:
			binary.LittleEndian.PutUint32(b[i*4:], v)
		case uint64:
			binary.LittleEndian.PutUint64(b[i*8:], v)
		case float32:
			binary.LittleEndian.PutUint32(b[i*4:], math.Float32bits(v))
		}
	}
	return b
}

func pad(n uint64) uint64 { return (n + align - 1) / align * align }

// WriteFile writes the snapshot to path atomically.
func (w *Writer) WriteFile(path string) error {
	return atomicfile.WriteFile(path, w.Write)
}

// Write writes the snapshot to out.
func (w *Writer) Write(out io.Writer) error {
	seen := map[string]bool{}
	for _, n := range w.names {
		if seen[n] {
			return fmt.Errorf("snapshot: section %q added twice", n)
		}
		seen[n] = true
	}
	hdrLen := uint64(0)
	for _, n := range w.names {
		hdrLen += 2 + uint64(len(n)) + 24
	}
	start := pad(8 + 4 + 4 + 8 + hdrLen + 8)
	var hdr []byte
	off := start
	for i, n := range w.names {
		hdr = binary.LittleEndian.AppendUint16(hdr, uint16(len(n)))
		hdr = append(hdr, n...)
		hdr = binary.LittleEndian.AppendUint64(hdr, off)
		hdr = binary.LittleEndian.AppendUint64(hdr, uint64(len(w.data[i])))
		hdr = binary.LittleEndian.AppendUint64(hdr, xxh3.Hash(w.data[i]))
		off = pad(off + uint64(len(w.data[i])))
	}
	var pre []byte
	pre = append(pre, Magic...)
	pre = binary.LittleEndian.AppendUint32(pre, Version)
	pre = binary.LittleEndian.AppendUint32(pre, uint32(len(w.names)))
	pre = binary.LittleEndian.AppendUint64(pre, hdrLen)
	pre = append(pre, hdr...)
	pre = binary.LittleEndian.AppendUint64(pre, xxh3.Hash(pre))
	pre = append(pre, make([]byte, start-uint64(len(pre)))...)
	if _, err := out.Write(pre); err != nil {
		return err
	}
	pos := start
	zeros := make([]byte, align)
	for _, d := range w.data {
		if _, err := out.Write(d); err != nil {
			return err
		}
		pos += uint64(len(d))
		if p := pad(pos) - pos; p > 0 {
			if _, err := out.Write(zeros[:p]); err != nil {
				return err
			}
			pos += p
		}
	}
	return nil
}

// Reader gives typed views of a snapshot's sections.
type Reader struct {
	path     string
	buf      []byte
	sections map[string][]byte
	order    []string
}

// Open reads and verifies a snapshot file: magic, version, header checksum,
// section bounds and every section's checksum.
func Open(path string) (*Reader, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	// An 8-byte-aligned buffer so typed views are aligned.
	words := make([]uint64, (st.Size()+7)/8)
	buf := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(words))), len(words)*8)[:st.Size()]
	if _, err := io.ReadFull(f, buf); err != nil {
		return nil, fmt.Errorf("%s: %w: %v", path, ErrCorrupt, err)
	}
	return Parse(path, buf)
}

// Parse verifies and indexes a snapshot held in buf (which must stay
// unmodified while views are in use). path names it in errors.
func Parse(path string, buf []byte) (*Reader, error) {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%s: %w: %s", path, ErrCorrupt, fmt.Sprintf(format, args...))
	}
	if len(buf) < 24 || string(buf[:8]) != Magic {
		return nil, bad("not a strata snapshot (bad magic)")
	}
	if v := binary.LittleEndian.Uint32(buf[8:]); v != Version {
		return nil, fmt.Errorf("%s: snapshot version %d, this strata reads version %d (re-run strata import)", path, v, Version)
	}
	n := binary.LittleEndian.Uint32(buf[12:])
	hdrLen := binary.LittleEndian.Uint64(buf[16:])
	if hdrLen > uint64(len(buf)) || 24+hdrLen+8 > uint64(len(buf)) {
		return nil, bad("header length %d beyond file size %d (truncated?)", hdrLen, len(buf))
	}
	end := 24 + hdrLen
	if xxh3.Hash(buf[:end]) != binary.LittleEndian.Uint64(buf[end:]) {
		return nil, bad("header checksum mismatch")
	}
	r := &Reader{path: path, buf: buf, sections: make(map[string][]byte, n)}
	p := uint64(24)
	for i := uint32(0); i < n; i++ {
		if p+2 > end {
			return nil, bad("header ends inside section %d", i)
		}
		nl := uint64(binary.LittleEndian.Uint16(buf[p:]))
		p += 2
		if p+nl+24 > end {
			return nil, bad("header ends inside section %d", i)
		}
		name := string(buf[p : p+nl])
		p += nl
		off := binary.LittleEndian.Uint64(buf[p:])
		ln := binary.LittleEndian.Uint64(buf[p+8:])
		sum := binary.LittleEndian.Uint64(buf[p+16:])
		p += 24
		if off > uint64(len(buf)) || ln > uint64(len(buf))-off {
			return nil, bad("section %q [%d, +%d) beyond file size %d (truncated?)", name, off, ln, len(buf))
		}
		data := buf[off : off+ln]
		if xxh3.Hash(data) != sum {
			return nil, bad("section %q checksum mismatch", name)
		}
		r.sections[name] = data
		r.order = append(r.order, name)
	}
	return r, nil
}

// Sections returns the section names in file order.
func (r *Reader) Sections() []string { return r.order }

// Size returns the file size in bytes.
func (r *Reader) Size() int { return len(r.buf) }

// Bytes returns a raw section.
func (r *Reader) Bytes(name string) ([]byte, error) {
	b, ok := r.sections[name]
	if !ok {
		return nil, fmt.Errorf("%s: %w: missing section %q", r.path, ErrCorrupt, name)
	}
	return b, nil
}

func view[T uint16 | uint32 | uint64 | float32](r *Reader, name string) ([]T, error) {
	b, err := r.Bytes(name)
	if err != nil {
		return nil, err
	}
	var zero T
	size := int(unsafe.Sizeof(zero))
	if len(b)%size != 0 {
		return nil, fmt.Errorf("%s: %w: section %q has %d bytes, not a multiple of %d", r.path, ErrCorrupt, name, len(b), size)
	}
	if len(b) == 0 {
		return []T{}, nil
	}
	n := len(b) / size
	if littleEndian && uintptr(unsafe.Pointer(&b[0]))%uintptr(size) == 0 {
		return unsafe.Slice((*T)(unsafe.Pointer(&b[0])), n), nil
	}
	out := make([]T, n)
	for i := range out {
		switch any(zero).(type) {
		case uint16:
			out[i] = T(binary.LittleEndian.Uint16(b[i*2:]))
		case uint32:
			out[i] = T(binary.LittleEndian.Uint32(b[i*4:]))
		case uint64:
			out[i] = T(binary.LittleEndian.Uint64(b[i*8:]))
		case float32:
			*(*float32)(unsafe.Pointer(&out[i])) = math.Float32frombits(binary.LittleEndian.Uint32(b[i*4:]))
		}
	}
	return out, nil
}

// Uint16s returns a zero-copy []uint16 view of a section.
func (r *Reader) Uint16s(name string) ([]uint16, error) { return view[uint16](r, name) }

// Has reports whether the snapshot holds a section (an optional one that
// only some snapshots carry).
func (r *Reader) Has(name string) bool {
	_, ok := r.sections[name]
	return ok
}

// Uint32s returns a zero-copy []uint32 view of a section.
func (r *Reader) Uint32s(name string) ([]uint32, error) { return view[uint32](r, name) }

// Uint64s returns a zero-copy []uint64 view of a section.
func (r *Reader) Uint64s(name string) ([]uint64, error) { return view[uint64](r, name) }

// Float32s returns a zero-copy []float32 view of a section.
func (r *Reader) Float32s(name string) ([]float32, error) { return view[float32](r, name) }

// Strings returns the strings written by Writer.AddStrings as zero-copy
// views into the snapshot buffer.
func (r *Reader) Strings(name string) ([]string, error) {
	off, err := r.Uint64s(name + ".off")
	if err != nil {
		return nil, err
	}
	blob, err := r.Bytes(name + ".bytes")
	if err != nil {
		return nil, err
	}
	if len(off) == 0 {
		return nil, fmt.Errorf("%s: %w: section %q.off is empty", r.path, ErrCorrupt, name)
	}
	out := make([]string, len(off)-1)
	for i := range out {
		a, b := off[i], off[i+1]
		if a > b || b > uint64(len(blob)) {
			return nil, fmt.Errorf("%s: %w: string %d of %q out of bounds", r.path, ErrCorrupt, i, name)
		}
		if a < b {
			out[i] = unsafe.String(&blob[a], int(b-a))
		}
	}
	return out, nil
}
