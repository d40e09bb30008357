package mfar

import (
	"bufio"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"

	"github.com/strata-retrieval/strata/data/index"
	"github.com/strata-retrieval/strata/internal/atomicfile"
)

// CacheDir is where a workspace keeps mFAR's field vectors, one file per
// (encoder, fields) pair: WORKSPACE/cache/mfar/KEY.fields. Deleting it
// costs one re-encoding.
const CacheDir = "cache/mfar"

// cacheMagic opens a field-vector file; the version changes with the layout.
const cacheMagic = "strata-mfar-fields/1\n"

// cacheKey names the field vectors of m's encoder over its workspace, or
// "" when they cannot be named: a fine-tuned encoder (its vectors change
// with every checkpoint), or a workspace that was never saved.
func (m *Method) cacheKey() string {
	if m.Cfg.Encoder != nil || m.ws.Dir == "" || (m.Cfg.Dense == "" && m.Cfg.ONNXEncoder == "") {
		return ""
	}
	id := struct {
		Format, Data, Dense, ONNX string
		Model                     [2]int64 // model.onnx size and modification time
		Fields                    []Field
		// Absent when empty: the key of a cache written before either was read.
		Aliases            []string `json:",omitempty"`
		ReadingNeighbours  int      `json:",omitempty"`
		Neighbours, Dim, N int
	}{Format: cacheMagic, Data: m.ws.Fingerprint, Dense: m.Cfg.Dense, ONNX: m.Cfg.ONNXEncoder,
		Fields: m.Cfg.Fields, Aliases: m.Cfg.Aliases, ReadingNeighbours: m.Cfg.ReadingNeighbours, Neighbours: m.Cfg.Neighbours, Dim: m.Enc.Dim(), N: len(m.ws.Candidates)}
	if id.ONNX != "" {
		fi, err := os.Stat(filepath.Join(id.ONNX, "model.onnx"))
		if err != nil {
			return ""
		}
		id.Model = [2]int64{fi.Size(), fi.ModTime().UnixNano()}
	}
	b, _ := json.Marshal(id)
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:12])
}

func (m *Method) cachePath(key string) string {
	return filepath.Join(m.ws.Dir, filepath.FromSlash(CacheDir), key+".fields")
}

// loadCache fills m.emb from the cache; false when there is no usable file
// (absent, another layout, truncated), in which case m.emb is left zero.
func (m *Method) loadCache(key string) bool {
	f, err := os.Open(m.cachePath(key))
	if err != nil {
		return false
	}
	defer f.Close()
	if err := readFields(bufio.NewReaderSize(f, 1<<20), m.emb); err != nil {
		for _, x := range m.emb {
			clear(x.Data)
		}
		return false
	}
	return true
}

// saveCache writes m.emb atomically. A workspace that cannot be written
// (read-only, full) only loses the saving, so the error is returned for
// the caller to ignore.
func (m *Method) saveCache(key string) error {
	path := m.cachePath(key)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return atomicfile.WriteFile(path, func(w io.Writer) error { return writeFields(w, m.emb) })
}

// writeFields writes, per field, its non-zero rows: the count, their
// indices, then their values (little-endian uint32 and float32).
func writeFields(w io.Writer, emb []*index.Matrix) error {
	if _, err := io.WriteString(w, cacheMagic); err != nil {
		return err
	}
	le := binary.LittleEndian
	put := func(v uint32) error { return binary.Write(w, le, v) }
	for _, x := range emb {
		var rows []uint32
		for i := range x.Rows {
			for _, v := range x.Row(i) {
				if v != 0 {
					rows = append(rows, uint32(i))
					break
				}
			}
		}
		for _, v := range []uint32{uint32(x.Rows), uint32(x.Dim), uint32(len(rows))} {
			if err := put(v); err != nil {
				return err
			}
		}
		if err := binary.Write(w, le, rows); err != nil {
			return err
		}
		buf := make([]byte, 4*x.Dim)
		for _, r := range rows {
			for j, v := range x.Row(int(r)) {
				le.PutUint32(buf[4*j:], math.Float32bits(v))
			}
			if _, err := w.Write(buf); err != nil {
				return err
			}
		}
	}
	return nil
}

var errCacheLayout = errors.New("mFAR: field-vector cache does not match")

// readFields reads writeFields' layout into emb, whose shapes it must match.
func readFields(r io.Reader, emb []*index.Matrix) error {
	magic := make([]byte, len(cacheMagic))
	if _, err := io.ReadFull(r, magic); err != nil || string(magic) != cacheMagic {
		return errCacheLayout
	}
	le := binary.LittleEndian
	for _, x := range emb {
		var hdr [3]uint32
		if err := binary.Read(r, le, &hdr); err != nil {
			return err
		}
		if int(hdr[0]) != x.Rows || int(hdr[1]) != x.Dim || int(hdr[2]) > x.Rows {
			return fmt.Errorf("%w: %d x %d with %d rows, want %d x %d", errCacheLayout, hdr[0], hdr[1], hdr[2], x.Rows, x.Dim)
		}
		rows := make([]uint32, hdr[2])
		if err := binary.Read(r, le, rows); err != nil {
			return err
		}
		buf := make([]byte, 4*x.Dim)
		prev := -1
		for _, row := range rows {
			if int(row) <= prev || int(row) >= x.Rows {
				return fmt.Errorf("%w: row %d after %d", errCacheLayout, row, prev)
			}
			prev = int(row)
			if _, err := io.ReadFull(r, buf); err != nil {
				return err
			}
			dst := x.Row(int(row))
			for j := range dst {
				dst[j] = math.Float32frombits(le.Uint32(buf[4*j:]))
			}
		}
	}
	var extra [1]byte
	if n, _ := r.Read(extra[:]); n != 0 {
		return fmt.Errorf("%w: trailing bytes", errCacheLayout)
	}
	return nil
}
