package onnx_test

import (
	"math"
	"testing"

	"github.com/strata-retrieval/strata/infer/onnx"
	"github.com/strata-retrieval/strata/infer/onnx/onnxtest"
)

func needORT(t testing.TB) { onnxtest.NeedORT(t) }

func writeTinyEncoder(t testing.TB, dir string, hidden int) ([]float32, []float32) {
	return onnxtest.WriteTinyEncoder(t, dir, hidden)
}

// TestONNXEncoder checks the WordPiece ids and that ONNX Runtime's
// pooled vectors equal the same network computed in Go.
func TestONNXEncoder(t *testing.T) {
	needORT(t)
	dir := t.TempDir()
	const H = 6
	E, W := writeTinyEncoder(t, dir, H)
	enc, err := onnx.LoadEncoder(dir, onnx.EncoderConfig{Batch: 2, MaxLen: 8})
	if err != nil {
		t.Fatal(err)
	}
	defer enc.Close()
	ids, err := enc.Tokenize("Who directed the movies? zzz")
	if err != nil {
		t.Fatal(err)
	}
	want := []int{2, 11, 8, 9, 4, 6, 7, 1} // [CLS] who direct ##ed the movie ##s [UNK]... truncated, [SEP] kept
	want[len(want)-1] = 3
	if len(ids) != len(want) {
		t.Fatalf("ids %v, want %v", ids, want)
	}
	for i := range ids {
		if ids[i] != want[i] {
			t.Fatalf("ids %v, want %v", ids, want)
		}
	}
	texts := []string{"who directed heat", "the movies", "kg graph retrieval by a b", "heat"}
	got, err := enc.EncodeTexts(texts)
	if err != nil {
		t.Fatal(err)
	}
	for i, text := range texts {
		ids, _ := enc.Tokenize(text)
		ref := make([]float32, H)
		for _, id := range ids {
			for k := range H {
				var s float32
				for j := range H {
					s += E[id*H+j] * W[j*H+k]
				}
				ref[k] += float32(math.Tanh(float64(s)))
			}
		}
		var ss float64
		for _, v := range ref {
			ss += float64(v) * float64(v)
		}
		for k := range H {
			r := ref[k] / float32(math.Sqrt(ss))
			if d := math.Abs(float64(r - got[i*H+k])); d > 1e-5 {
				t.Fatalf("text %q dim %d: ORT %.6f, Go %.6f", text, k, got[i*H+k], r)
			}
		}
	}
}
