package data

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-retrieval/strata/checkpoints"
)

func npyBytes(header string, data []byte) []byte {
	for (10+len(header)+1)%64 != 0 {
		header += " "
	}
	header += "\n"
	b := append([]byte("\x93NUMPY\x01\x00"), 0, 0)
	binary.LittleEndian.PutUint16(b[8:], uint16(len(header)))
	b = append(b, header...)
	return append(b, data...)
}

func f32s(vs ...float32) []byte {
	var b []byte
	for _, v := range vs {
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(v))
	}
	return b
}

func TestReadEmbeddingsNPY(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "e.npy")
	os.WriteFile(p, npyBytes("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }", f32s(1, 2, 3, 4, 5, 6)), 0o644)
	e, err := ReadEmbeddings(p, "", 4)
	if err != nil {
		t.Fatal(err)
	}
	if e.M.Rows != 4 || e.M.Dim != 3 || !cmp.Equal(e.M.Data, []float32{1, 2, 3, 4, 5, 6, 0, 0, 0, 0, 0, 0}) || !cmp.Equal(e.Present, []bool{true, true, false, false}) {
		t.Errorf("npy f32: %+v %v", e.M, e.Present)
	}
	// float16 in Fortran order: column-major [[1, 2], [3, 4]] is stored 1 3 2 4.
	var h []byte
	for _, v := range []uint16{0x3c00, 0x4200, 0x4000, 0x4400} {
		h = binary.LittleEndian.AppendUint16(h, v)
	}
	os.WriteFile(p, npyBytes("{'descr': '<f2', 'fortran_order': True, 'shape': (2, 2), }", h), 0o644)
	if e, err = ReadEmbeddings(p, "", 0); err != nil || !cmp.Equal(e.M.Data, []float32{1, 2, 3, 4}) {
		t.Errorf("npy f16 fortran: %v %v", e, err)
	}
	for name, b := range map[string][]byte{
		"1-D":       npyBytes("{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }", f32s(1, 2, 3)),
		"f8":        npyBytes("{'descr': '<f8', 'fortran_order': False, 'shape': (1, 1), }", make([]byte, 8)),
		"truncated": npyBytes("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }", f32s(1, 2, 3)),
		"magic":     []byte("PK\x03\x04 not numpy"),
	} {
		os.WriteFile(p, b, 0o644)
		var pe *ParseError
		if _, err := ReadEmbeddings(p, "", 0); !errors.As(err, &pe) {
			t.Errorf("%s: error %v is not a ParseError", name, err)
		}
	}
}

func TestReadEmbeddingsSafetensorsAndTorch(t *testing.T) {
	p := filepath.Join(t.TempDir(), "e.safetensors")
	checkpoints.WriteFile(p, []checkpoints.Tensor{{Name: "emb", Shape: []int{2, 2}, Data: []float32{1, 2, 3, 4}}, {Name: "other", Shape: []int{1}, Data: []float32{9}}}, nil)
	if _, err := ReadEmbeddings(p, "", 0); err == nil {
		t.Error("ambiguous safetensors accepted")
	}
	e, err := ReadEmbeddings(p, "emb", 0)
	if err != nil || !cmp.Equal(e.M.Data, []float32{1, 2, 3, 4}) {
		t.Errorf("safetensors: %v %v", e, err)
	}
	e, err = ReadEmbeddings(filepath.Join("testdata", "stark", "emb", "candidate_emb_dict.pt"), "", 4)
	if err != nil {
		t.Fatal(err)
	}
	want := []float32{1, 0, 0.25, 0, 0, 0, 0.5, -1, 2, 0, 0, 0}
	if e.M.Rows != 4 || e.M.Dim != 3 || !cmp.Equal(e.M.Data, want) || !cmp.Equal(e.Present, []bool{true, false, true, false}) {
		t.Errorf("torch dict: %+v %v", e.M, e.Present)
	}
	if _, err := ReadEmbeddings(filepath.Join("testdata", "stark", "emb", "candidate_emb_dict.pt"), "", 2); !errors.Is(err, ErrIDRange) {
		t.Errorf("id beyond rows: %v", err)
	}
}

// embDict is a STaRK embedding dictionary .pt: id -> float32 tensor [1, D],
// one storage per id.
func embDict(t *testing.T, vecs map[int64][]float32) []byte {
	p := newPK().op('}', '(')
	st := map[string][]byte{}
	for id, v := range vecs {
		key := fmt.Sprint(id)
		p.int(id).tensor("FloatStorage", key, int64(len(v)), 0, []int64{1, int64(len(v))}, []int64{int64(len(v)), 1}, false)
		st[key] = f32s(v...)
	}
	return torchZip(t, p.op('u').stop(), st)
}

// Hostile embedding files are errors naming the file (and the row or
// field), never a panic, a hang or silently wrong vectors.
func TestReadEmbeddingsHostile(t *testing.T) {
	nan, inf := float32(math.NaN()), float32(math.Inf(-1))
	shortDict := torchZip(t, newPK().op('}').int(0).tensor("FloatStorage", "0", 4, 0, []int64{4}, []int64{1}, false).op('s').stop(), map[string][]byte{"0": f32s(1, 2)})
	hugeST := binary.LittleEndian.AppendUint64(nil, 80)
	hugeST = append(hugeST, fmt.Sprintf("%-80s", `{"emb":{"dtype":"F32","shape":[4,4611686018427387904],"data_offsets":[0,4]}}`)...)
	hugeST = append(hugeST, f32s(1)...)
	for _, c := range []struct {
		name, file string
		content    []byte
		rows       int
		exact      bool
		want       []string
	}{
		{"npy shape (4, 2^62)", "e.npy", npyBytes("{'descr': '<f4', 'fortran_order': False, 'shape': (4, 4611686018427387904), }", f32s(1, 2)), 0, false, []string{`field "shape"`, "does not match"}},
		{"npy shape (2^62, 2^62)", "e.npy", npyBytes("{'descr': '<f4', 'fortran_order': False, 'shape': (4611686018427387904, 4611686018427387904), }", f32s(1, 2)), 0, false, []string{`field "shape"`}},
		{"npy NaN", "e.npy", npyBytes("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 2), }", f32s(1, 2, 3, nan)), 0, false, []string{`field "[1]"`, "NaN at position 1"}},
		{"npy Inf", "e.npy", npyBytes("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 2), }", f32s(inf, 2, 3, 4)), 0, false, []string{`field "[0]"`, "-Inf at position 0"}},
		{"npy zero row", "e.npy", npyBytes("{'descr': '<f4', 'fortran_order': False, 'shape': (3, 2), }", f32s(1, 2, 0, 0, 5, 6)), 0, false, []string{`field "[1]"`, "all zeros"}},
		{"npy transposed", "e.npy", npyBytes("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }", f32s(1, 2, 3, 4, 5, 6)), 3, false, []string{`field "shape"`, "looks transposed"}},
		{"npy too few rows for the nodes", "e.npy", npyBytes("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }", f32s(1, 2, 3, 4, 5, 6)), 5, true, []string{"want one row per node, [5, D]"}},
		{"safetensors shape [4, 2^62]", "e.safetensors", hugeST, 0, false, []string{"e.safetensors", "exceeds the data buffer"}},
		{"empty .pt", "e.pt", nil, 4, false, []string{"empty file"}},
		{"pt storage shorter than declared", "e.pt", shortDict, 4, false, []string{`storage "0" holds 8 bytes`}},
		{"pt Inf vector", "e.pt", embDict(t, map[int64][]float32{0: {1, 2}, 2: {inf, 1}}), 4, false, []string{`field "[2]"`, "-Inf"}},
		{"pt sparse ids without a row count", "e.pt", embDict(t, map[int64][]float32{1 << 40: {1, 2}}), 0, false, []string{"too sparse"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), c.file)
			if err := os.WriteFile(p, c.content, 0o644); err != nil {
				t.Fatal(err)
			}
			var err error
			within(t, 20*time.Second, func() {
				if c.exact {
					_, err = ReadNodeEmbeddings(p, "", c.rows)
				} else {
					_, err = ReadEmbeddings(p, "", c.rows)
				}
			})
			if err == nil {
				t.Fatal("accepted")
			}
			if !strings.Contains(err.Error(), c.file) {
				t.Errorf("error %q does not name %s", err, c.file)
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
		})
	}
	// An empty matrix is still a matrix.
	if e, err := ParseNPY(npyBytes("{'descr': '<f4', 'fortran_order': False, 'shape': (0, 3), }", nil), "e.npy"); err != nil || e.M.Rows != 0 || e.M.Dim != 3 {
		t.Errorf("empty npy: %v %v", e, err)
	}
	// A dictionary may leave ids out; ReadNodeEmbeddings keeps them absent.
	p := filepath.Join(t.TempDir(), "d.pt")
	os.WriteFile(p, embDict(t, map[int64][]float32{0: {1, 2}, 2: {3, 4}}), 0o644)
	e, err := ReadNodeEmbeddings(p, "", 3)
	if err != nil || !cmp.Equal(e.M.Data, []float32{1, 2, 0, 0, 3, 4}) || !cmp.Equal(e.Present, []bool{true, false, true}) {
		t.Errorf("sparse dictionary: %v %v", e, err)
	}
}
