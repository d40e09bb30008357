package data

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

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
// rows, when > 0, fixes the number of rows (ids must be below it; a
// matrix with fewer rows is padded with absent rows, unless it looks
// transposed: rows columns); otherwise it is taken from the file (max id +
// 1 for dictionaries). Every vector the file holds must be finite and not
// all zeros: anything else is an error naming the file and the row.
func ReadEmbeddings(path, tensor string, rows int) (*Embeddings, error) {
	return readEmbeddings(path, tensor, rows, false)
}

// ReadNodeEmbeddings reads one vector per node of an SKB with n nodes: a
// matrix (.npy, .safetensors) must have exactly n rows, a dictionary (.pt)
// ids below n (the others are absent). Otherwise it is ReadEmbeddings.
func ReadNodeEmbeddings(path, tensor string, n int) (*Embeddings, error) {
	if n <= 0 {
		return nil, fmt.Errorf("%s: no nodes to read vectors for", path)
	}
	return readEmbeddings(path, tensor, n, true)
}

func readEmbeddings(path, tensor string, rows int, exact bool) (*Embeddings, error) {
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
	if err := checkVectors(path, e); err != nil {
		return nil, err
	}
	isDict := strings.EqualFold(filepath.Ext(path), ".pt") || strings.EqualFold(filepath.Ext(path), ".pth")
	if rows > 0 && e.M.Rows != rows {
		if e.M.Rows > rows {
			return nil, perrf(path, 0, "shape", ErrIDRange, "%d rows for %d ids", e.M.Rows, rows)
		}
		if !isDict && e.M.Dim == rows {
			return nil, perrf(path, 0, "shape", ErrSyntax, "shape [%d, %d] for %d ids: the matrix looks transposed (want [%d, D])", e.M.Rows, e.M.Dim, rows, rows)
		}
		if !isDict && exact {
			return nil, perrf(path, 0, "shape", ErrSyntax, "shape [%d, %d]: want one row per node, [%d, D]", e.M.Rows, e.M.Dim, rows)
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

// checkVectors rejects NaN, infinite and all-zero vectors among the rows
// e holds.
func checkVectors(path string, e *Embeddings) error {
	for r := 0; r < e.M.Rows; r++ {
		if !e.Present[r] {
			continue
		}
		zero := true
		for j, v := range e.M.Row(r) {
			if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
				return perrf(path, 0, fmt.Sprintf("[%d]", r), ErrSyntax, "vector %d holds %v at position %d", r, v, j)
			}
			if v != 0 {
				zero = false
			}
		}
		if zero {
			return perrf(path, 0, fmt.Sprintf("[%d]", r), ErrSyntax, "vector %d is all zeros (a missing vector? a .pt dictionary may leave ids out)", r)
		}
	}
	return nil
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
		return nil, perrf(path, 0, "", ErrSyntax, "header %s lacks descr, fortran_order or shape", quoteClip(h))
	}
	var dims []int
	for _, p := range strings.Split(s[1], ",") {
		if p = strings.TrimSpace(p); p == "" {
			continue
		}
		v, err := strconv.Atoi(p)
		if err != nil || v < 0 {
			return nil, perrf(path, 0, "shape", ErrSyntax, "bad dimension %s", quoteClip(p))
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
		return nil, perrf(path, 0, "descr", ErrSyntax, "dtype %s not supported (little-endian float32 or float16)", quoteClip(d[1]))
	}
	rows, dim := dims[0], dims[1]
	if dim == 0 {
		return nil, perrf(path, 0, "shape", ErrSyntax, "zero-width vectors")
	}
	body := b[start+hlen:]
	// rows·dim·elem in 128 bits: a crafted shape may overflow 64.
	hi1, n := bits.Mul64(uint64(rows), uint64(dim))
	hi2, n := bits.Mul64(n, uint64(elem))
	if hi1 != 0 || hi2 != 0 || n != uint64(len(body)) {
		return nil, perrf(path, 0, "shape", ErrSyntax, "shape %v of %d-byte values does not match the %d data bytes of the file (truncated?)", dims, elem, len(body))
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
			return nil, fmt.Errorf("%s: no tensor %s (have %s)", path, quoteClip(name), clip(strings.Join(f.Names, ", ")))
		}
	} else if len(f.Names) == 1 {
		t = f.Tensors[f.Names[0]]
	} else {
		return nil, fmt.Errorf("%s: %d tensors; name the embedding tensor (have %s)", path, len(f.Names), clip(strings.Join(f.Names, ", ")))
	}
	if len(t.Shape) != 2 || t.Shape[1] == 0 {
		return nil, perrf(path, 0, t.Name, ErrSyntax, "want a 2-D tensor, got shape %v", t.Shape)
	}
	return allPresent(&index.Matrix{Rows: t.Shape[0], Dim: t.Shape[1], Data: t.Data}), nil
}

func readTorchEmbDict(path string, rows int) (*Embeddings, error) {
	v, err := readTorchFile(path)
	if err != nil {
		return nil, err
	}
	return torchEmbDict(path, v, rows)
}

// torchEmbDict is readTorchEmbDict over the loaded value v.
func torchEmbDict(path string, v any, rows int) (*Embeddings, error) {
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
		t, ok := e.Value.(*torchTensor)
		if !ok {
			return nil, perrf(path, 0, fmt.Sprintf("[%d]", id), ErrSyntax, "want a tensor, got %s", pyTypeName(e.Value))
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
	top := rs[len(rs)-1].id
	if rows <= 0 && top >= int64(16*len(rs)+1<<20) {
		return nil, perrf(path, 0, fmt.Sprintf("[%d]", top), ErrIDRange, "id %d among %d vectors: too sparse to size the matrix from (give the number of rows)", top, len(rs))
	}
	n := int(top) + 1
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
func floatTensor(t *torchTensor) ([]float32, error) {
	if _, ok := t.storage.float32At(0); !ok && t.storage.numel > 0 {
		return nil, fmt.Errorf("want a float tensor, got %s", t.storage.dtype.name)
	}
	if !(len(t.size) == 1 || len(t.size) == 2 && t.size[0] == 1) {
		return nil, fmt.Errorf("want shape [D] or [1, D], got %v", t.size)
	}
	n, err := torchView(t)
	if err != nil {
		return nil, err
	}
	out := make([]float32, n)
	t.forEach(func(i, off int) { out[i], _ = t.storage.float32At(off) })
	return out, nil
}
