package data

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/nlpodyssey/gopickle/pytorch"

	"github.com/strata-retrieval/strata/checkpoints"
	"github.com/strata-retrieval/strata/data/index"
)

// Embeddings is a matrix of vectors indexed by node (or query) id. Present
// marks the rows the source actually held; the others are zero.
type Embeddings struct {
	M       *index.Matrix
	Present []bool
}

// ReadEmbeddings reads precomputed vectors:
//   - .npy: a 2-D float32 or float16 array, row i for id i;
//   - .safetensors: the 2-D tensor named tensor (or the only tensor);
//   - .pt: STaRK's embedding dictionary (id -> tensor of shape [D] or
//     [1, D]), as saved by torch.save.
//
// rows, when > 0, fixes the number of rows (ids must be below it); otherwise
// it is taken from the file (max id + 1 for dictionaries).
func ReadEmbeddings(path, tensor string, rows int) (*Embeddings, error) {
	var e *Embeddings
	var err error
	switch strings.ToLower(filepath.Ext(path)) {
	case ".npy":
		e, err = readNPY(path)
	case ".safetensors":
		e, err = readSafetensorsMatrix(path, tensor)
	case ".pt", ".pth":
		e, err = readTorchEmbDict(path, rows)
	default:
		return nil, fmt.Errorf("%s: unknown embedding format (want .npy, .safetensors or .pt)", path)
	}
	if err != nil {
		return nil, err
	}
	if rows > 0 && e.M.Rows != rows {
		if e.M.Rows > rows {
			return nil, perrf(path, 0, "shape", ErrIDRange, "%d rows for %d ids", e.M.Rows, rows)
		}
		// Pad with absent rows.
		grown := index.NewMatrix(rows, e.M.Dim)
		copy(grown.Data, e.M.Data)
		present := make([]bool, rows)
		copy(present, e.Present)
		e = &Embeddings{M: grown, Present: present}
	}
	return e, nil
}

var (
	npyDescr   = regexp.MustCompile(`'descr':\s*'([^']*)'`)
	npyFortran = regexp.MustCompile(`'fortran_order':\s*(True|False)`)
	npyShape   = regexp.MustCompile(`'shape':\s*\(([^)]*)\)`)
)

func readNPY(path string) (*Embeddings, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return ParseNPY(b, path)
}

// ParseNPY parses a .npy file held in b; path names it in errors.
func ParseNPY(b []byte, path string) (*Embeddings, error) {
	if len(b) < 10 || !bytes.Equal(b[:6], []byte("\x93NUMPY")) {
		return nil, perrf(path, 0, "", ErrSyntax, "not a .npy file (bad magic)")
	}
	var hlen, start int
	switch b[6] {
	case 1:
		hlen, start = int(binary.LittleEndian.Uint16(b[8:])), 10
	case 2, 3:
		if len(b) < 12 {
			return nil, perrf(path, 0, "", ErrSyntax, "truncated header")
		}
		hlen, start = int(binary.LittleEndian.Uint32(b[8:])), 12
	default:
		return nil, perrf(path, 0, "", ErrSyntax, ".npy version %d.%d not supported", b[6], b[7])
	}
	if start+hlen > len(b) {
		return nil, perrf(path, 0, "", ErrSyntax, "header of %d bytes runs past the end (truncated?)", hlen)
	}
	h := string(b[start : start+hlen])
	d, f, s := npyDescr.FindStringSubmatch(h), npyFortran.FindStringSubmatch(h), npyShape.FindStringSubmatch(h)
	if d == nil || f == nil || s == nil {
		return nil, perrf(path, 0, "", ErrSyntax, "header %q lacks descr, fortran_order or shape", h)
	}
	var dims []int
	for _, p := range strings.Split(s[1], ",") {
		if p = strings.TrimSpace(p); p == "" {
			continue
		}
		v, err := strconv.Atoi(p)
		if err != nil || v < 0 {
			return nil, perrf(path, 0, "shape", ErrSyntax, "bad dimension %q", p)
		}
		dims = append(dims, v)
	}
	if len(dims) != 2 {
		return nil, perrf(path, 0, "shape", ErrSyntax, "want a 2-D array, got shape %v", dims)
	}
	elem := 0
	switch d[1] {
	case "<f4", "=f4":
		elem = 4
	case "<f2", "=f2":
		elem = 2
	default:
		return nil, perrf(path, 0, "descr", ErrSyntax, "dtype %q not supported (little-endian float32 or float16)", d[1])
	}
	rows, dim := dims[0], dims[1]
	if dim == 0 {
		return nil, perrf(path, 0, "shape", ErrSyntax, "zero-width vectors")
	}
	body := b[start+hlen:]
	if len(body) != rows*dim*elem {
		return nil, perrf(path, 0, "", ErrSyntax, "shape %v needs %d data bytes, file has %d (truncated?)", dims, rows*dim*elem, len(body))
	}
	m := index.NewMatrix(rows, dim)
	for i := range m.Data {
		var v float32
		if elem == 4 {
			v = math.Float32frombits(binary.LittleEndian.Uint32(body[4*i:]))
		} else {
			v = checkpoints.HalfToFloat32(binary.LittleEndian.Uint16(body[2*i:]))
		}
		if f[1] == "True" { // column-major: element i is (i % rows, i / rows)
			m.Data[(i%rows)*dim+i/rows] = v
		} else {
			m.Data[i] = v
		}
	}
	return allPresent(m), nil
}

func allPresent(m *index.Matrix) *Embeddings {
	p := make([]bool, m.Rows)
	for i := range p {
		p[i] = true
	}
	return &Embeddings{M: m, Present: p}
}

func readSafetensorsMatrix(path, name string) (*Embeddings, error) {
	f, err := checkpoints.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var t *checkpoints.Tensor
	if name != "" {
		t = f.Tensors[name]
		if t == nil {
			return nil, fmt.Errorf("%s: no tensor %q (have %s)", path, name, strings.Join(f.Names, ", "))
		}
	} else if len(f.Names) == 1 {
		t = f.Tensors[f.Names[0]]
	} else {
		return nil, fmt.Errorf("%s: %d tensors; name the embedding tensor (have %s)", path, len(f.Names), strings.Join(f.Names, ", "))
	}
	if len(t.Shape) != 2 || t.Shape[1] == 0 {
		return nil, perrf(path, 0, t.Name, ErrSyntax, "want a 2-D tensor, got shape %v", t.Shape)
	}
	return allPresent(&index.Matrix{Rows: t.Shape[0], Dim: t.Shape[1], Data: t.Data}), nil
}

func readTorchEmbDict(path string, rows int) (*Embeddings, error) {
	v, err := pytorch.Load(path)
	if err != nil {
		return nil, perrf(path, 0, "", ErrSyntax, "torch file: %v", err)
	}
	entries, err := dictEntries(v)
	if err != nil {
		return nil, perr(path, 0, "", err)
	}
	type row struct {
		id  int64
		vec []float32
	}
	var rs []row
	dim := -1
	for _, e := range entries {
		id, ok := toInt(e.Key)
		if !ok || id < 0 {
			return nil, perrf(path, 0, fmt.Sprintf("[%v]", e.Key), ErrSyntax, "key is not a non-negative integer id")
		}
		t, ok := e.Value.(*pytorch.Tensor)
		if !ok {
			return nil, perrf(path, 0, fmt.Sprintf("[%d]", id), ErrSyntax, "want a tensor, got %T", e.Value)
		}
		vec, err := floatTensor(t)
		if err != nil {
			return nil, perrf(path, 0, fmt.Sprintf("[%d]", id), ErrSyntax, "%v", err)
		}
		if dim < 0 {
			dim = len(vec)
		} else if len(vec) != dim {
			return nil, perrf(path, 0, fmt.Sprintf("[%d]", id), ErrSyntax, "vector of %d values, others have %d", len(vec), dim)
		}
		rs = append(rs, row{id, vec})
	}
	if len(rs) == 0 || dim == 0 {
		return nil, perrf(path, 0, "", ErrSyntax, "empty embedding dictionary")
	}
	sort.Slice(rs, func(i, j int) bool { return rs[i].id < rs[j].id })
	n := int(rs[len(rs)-1].id) + 1
	if rows > 0 {
		if n > rows {
			return nil, perrf(path, 0, fmt.Sprintf("[%d]", rs[len(rs)-1].id), ErrIDRange, "id %d with %d rows", rs[len(rs)-1].id, rows)
		}
		n = rows
	}
	e := &Embeddings{M: index.NewMatrix(n, dim), Present: make([]bool, n)}
	for i, r := range rs {
		if i > 0 && rs[i-1].id == r.id {
			return nil, perrf(path, 0, fmt.Sprintf("[%d]", r.id), ErrDuplicateID, "id %d twice", r.id)
		}
		copy(e.M.Row(int(r.id)), r.vec)
		e.Present[r.id] = true
	}
	return e, nil
}

// floatTensor flattens a float tensor of shape [D] or [1, D].
func floatTensor(t *pytorch.Tensor) ([]float32, error) {
	var src []float32
	switch s := t.Source.(type) {
	case *pytorch.FloatStorage:
		src = s.Data
	case *pytorch.HalfStorage:
		src = s.Data
	case *pytorch.BFloat16Storage:
		src = s.Data
	case *pytorch.DoubleStorage:
		src = make([]float32, len(s.Data))
		for i, v := range s.Data {
			src[i] = float32(v)
		}
	default:
		return nil, fmt.Errorf("want a float tensor, got %T", t.Source)
	}
	var n, stride int
	switch {
	case len(t.Size) == 1:
		n, stride = t.Size[0], t.Stride[0]
	case len(t.Size) == 2 && t.Size[0] == 1:
		n, stride = t.Size[1], t.Stride[1]
	default:
		return nil, fmt.Errorf("want shape [D] or [1, D], got %v", t.Size)
	}
	out := make([]float32, n)
	for i := range out {
		p := t.StorageOffset + i*stride
		if p < 0 || p >= len(src) {
			return nil, fmt.Errorf("tensor view exceeds its storage")
		}
		out[i] = src[p]
	}
	return out, nil
}
