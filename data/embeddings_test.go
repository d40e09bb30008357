package data

import (
	"encoding/binary"
	"errors"
	"math"
	"os"
	"path/filepath"
	"testing"

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
