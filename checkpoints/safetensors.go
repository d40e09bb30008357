package checkpoints

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"sort"
	"strconv"
	"unicode/utf8"

	"github.com/strata-retrieval/strata/internal/atomicfile"
)

// ErrFormat reports a malformed, truncated or unsupported safetensors file.
var ErrFormat = errors.New("invalid safetensors file")

// maxHeader bounds the JSON header (the reference implementation uses 100 MB).
const maxHeader = 100 << 20

// Tensor is a named float32 tensor. Data is row-major with len(Data) equal
// to the product of Shape (1 for a scalar with an empty Shape).
type Tensor struct {
	Name  string
	Shape []int
	Data  []float32
	// DType is the dtype the tensor had on disk (F32, F16 or BF16); Write
	// always stores F32.
	DType string
}

// NumElements returns the product of the shape.
func (t *Tensor) NumElements() int {
	n := 1
	for _, d := range t.Shape {
		n *= d
	}
	return n
}

type headerEntry struct {
	DType       string   `json:"dtype"`
	Shape       []int    `json:"shape"`
	DataOffsets [2]int64 `json:"data_offsets"`
}

// Encode writes tensors as safetensors: an 8-byte little-endian header
// length, a JSON header padded with spaces to a multiple of 8, then the F32
// data of every tensor in name order. metadata may be nil.
func Encode(w io.Writer, tensors []Tensor, metadata map[string]string) error {
	ts := append([]Tensor(nil), tensors...)
	sort.Slice(ts, func(i, j int) bool { return ts[i].Name < ts[j].Name })
	hdr := map[string]any{}
	var off int64
	for i := range ts {
		t := &ts[i]
		if t.Name == "" || t.Name == "__metadata__" {
			return fmt.Errorf("safetensors: bad tensor name %q", t.Name)
		}
		if i > 0 && ts[i-1].Name == t.Name {
			return fmt.Errorf("safetensors: tensor %q given twice", t.Name)
		}
		for _, d := range t.Shape {
			if d < 0 {
				return fmt.Errorf("safetensors: tensor %q has negative dimension in shape %v", t.Name, t.Shape)
			}
		}
		if n := t.NumElements(); n != len(t.Data) {
			return fmt.Errorf("safetensors: tensor %q has shape %v (%d elements) but %d values", t.Name, t.Shape, n, len(t.Data))
		}
		shape := t.Shape
		if shape == nil {
			shape = []int{}
		}
		size := int64(len(t.Data)) * 4
		hdr[t.Name] = headerEntry{DType: "F32", Shape: shape, DataOffsets: [2]int64{off, off + size}}
		off += size
	}
	if len(metadata) > 0 {
		hdr["__metadata__"] = metadata
	}
	hb, err := json.Marshal(hdr) // map keys are sorted: deterministic bytes
	if err != nil {
		return err
	}
	for len(hb)%8 != 0 {
		hb = append(hb, ' ')
	}
	var lenb [8]byte
	binary.LittleEndian.PutUint64(lenb[:], uint64(len(hb)))
	if _, err := w.Write(lenb[:]); err != nil {
		return err
	}
	if _, err := w.Write(hb); err != nil {
		return err
	}
	buf := make([]byte, 0, 1<<16)
	for i := range ts {
		for _, v := range ts[i].Data {
			buf = binary.LittleEndian.AppendUint32(buf, math.Float32bits(v))
			if len(buf) >= 1<<16 {
				if _, err := w.Write(buf); err != nil {
					return err
				}
				buf = buf[:0]
			}
		}
	}
	_, err = w.Write(buf)
	return err
}

// WriteFile writes a safetensors file atomically.
func WriteFile(path string, tensors []Tensor, metadata map[string]string) error {
	return atomicfile.WriteFile(path, func(w io.Writer) error { return Encode(w, tensors, metadata) })
}

// File is a decoded safetensors file.
type File struct {
	Tensors  map[string]*Tensor
	Names    []string // tensor names in data order
	Metadata map[string]string
}

// ReadFile reads a safetensors file, converting F32, F16 and BF16 tensors
// to float32.
func ReadFile(path string) (*File, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	f, err := Decode(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return f, nil
}

// Decode parses safetensors bytes. The whole data buffer must be covered by
// the tensors, without holes or overlaps, as the format requires.
func Decode(b []byte) (*File, error) {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: %s", ErrFormat, fmt.Sprintf(format, args...))
	}
	if len(b) < 8 {
		return nil, bad("file is %d bytes, shorter than the 8-byte header length (truncated?)", len(b))
	}
	n := binary.LittleEndian.Uint64(b)
	if n > maxHeader {
		return nil, bad("header length %d exceeds %d", n, maxHeader)
	}
	if 8+n > uint64(len(b)) {
		return nil, bad("header length %d but only %d bytes follow (truncated?)", n, len(b)-8)
	}
	hb := bytes.TrimRight(b[8:8+n], " ")
	if len(hb) == 0 || hb[0] != '{' {
		return nil, bad("header is not a JSON object")
	}
	if !utf8.Valid(hb) {
		return nil, bad("header is not valid UTF-8")
	}
	var raw map[string]json.RawMessage
	dec := json.NewDecoder(bytes.NewReader(hb))
	if err := dec.Decode(&raw); err != nil {
		return nil, bad("header JSON: %v", err)
	}
	data := b[8+n:]
	f := &File{Tensors: map[string]*Tensor{}}
	type span struct {
		name     string
		from, to int64
	}
	var spans []span
	for name, msg := range raw {
		if name == "__metadata__" {
			if err := json.Unmarshal(msg, &f.Metadata); err != nil {
				return nil, bad("__metadata__ must map strings to strings: %v", err)
			}
			continue
		}
		var e headerEntry
		if err := json.Unmarshal(msg, &e); err != nil {
			return nil, bad("tensor %s: %v", quoteClip(name), err)
		}
		elem := 0
		switch e.DType {
		case "F32":
			elem = 4
		case "F16", "BF16":
			elem = 2
		default:
			return nil, bad("tensor %s: dtype %s is not supported (F32, F16, BF16)", quoteClip(name), quoteClip(e.DType))
		}
		count := int64(1)
		for _, d := range e.Shape {
			if d < 0 {
				return nil, bad("tensor %s: negative dimension in shape %v", quoteClip(name), e.Shape)
			}
		}
		for _, d := range e.Shape {
			// Compare before multiplying: count·d may overflow.
			if d != 0 && count > int64(len(data))/int64(d) {
				return nil, bad("tensor %s: shape %v exceeds the data buffer of %d bytes", quoteClip(name), e.Shape, len(data))
			}
			count *= int64(d)
		}
		from, to := e.DataOffsets[0], e.DataOffsets[1]
		if from < 0 || to < from || to > int64(len(data)) {
			return nil, bad("tensor %s: data_offsets [%d, %d] outside the %d-byte data buffer (truncated?)", quoteClip(name), from, to, len(data))
		}
		if to-from != count*int64(elem) {
			return nil, bad("tensor %s: %s shape %v needs %d bytes, data_offsets give %d", quoteClip(name), e.DType, e.Shape, count*int64(elem), to-from)
		}
		t := &Tensor{Name: name, Shape: e.Shape, DType: e.DType, Data: make([]float32, count)}
		src := data[from:to]
		switch e.DType {
		case "F32":
			for i := range t.Data {
				t.Data[i] = math.Float32frombits(binary.LittleEndian.Uint32(src[4*i:]))
			}
		case "F16":
			for i := range t.Data {
				t.Data[i] = HalfToFloat32(binary.LittleEndian.Uint16(src[2*i:]))
			}
		case "BF16":
			for i := range t.Data {
				t.Data[i] = math.Float32frombits(uint32(binary.LittleEndian.Uint16(src[2*i:])) << 16)
			}
		}
		f.Tensors[name] = t
		spans = append(spans, span{name, from, to})
	}
	sort.Slice(spans, func(i, j int) bool {
		if spans[i].from != spans[j].from {
			return spans[i].from < spans[j].from
		}
		return spans[i].to < spans[j].to
	})
	pos := int64(0)
	for _, s := range spans {
		if s.from != pos {
			if s.from < pos {
				return nil, bad("tensor %s overlaps the previous tensor", quoteClip(s.name))
			}
			return nil, bad("hole in the data buffer before tensor %s (bytes %d to %d)", quoteClip(s.name), pos, s.from)
		}
		pos = s.to
		f.Names = append(f.Names, s.name)
	}
	if pos != int64(len(data)) {
		return nil, bad("%d trailing bytes after the last tensor", int64(len(data))-pos)
	}
	return f, nil
}

// HalfToFloat32 converts an IEEE 754 binary16 value to float32, including
// subnormals, infinities and NaN.
func HalfToFloat32(h uint16) float32 {
	sign := uint32(h>>15) << 31
	exp := uint32(h>>10) & 0x1f
	mant := uint32(h) & 0x3ff
	switch {
	case exp == 0 && mant == 0:
		return math.Float32frombits(sign)
	case exp == 0: // subnormal: mant · 2^-24
		v := float32(mant) * (1.0 / (1 << 24))
		if sign != 0 {
			v = -v
		}
		return v
	case exp == 0x1f:
		return math.Float32frombits(sign | 0xff<<23 | mant<<13)
	}
	return math.Float32frombits(sign | (exp+127-15)<<23 | mant<<13)
}

// maxQuoted bounds a name from the input quoted in an error.
const maxQuoted = 200

// quoteClip quotes s as %q does, clipped to about maxQuoted bytes.
func quoteClip(s string) string {
	if len(s) <= maxQuoted {
		return strconv.Quote(s)
	}
	n := maxQuoted
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return fmt.Sprintf("%s... (%d bytes)", strconv.Quote(s[:n]), len(s))
}
