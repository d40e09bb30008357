package onnx_test

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strata-retrieval/strata/infer/bertenc"
	"github.com/strata-retrieval/strata/infer/onnx"
	"github.com/strata-retrieval/strata/models"
)

// TestBertONNXMatchesNative: the tiny BERT of models/testdata (PyTorch's
// random weights, whose native forward pass models tests against PyTorch)
// exported with BertGraph and run by ONNX Runtime through Encoder gives the
// native encoder's mean-pooled, normalised vectors within 1e-5, also for
// texts padded in one batch with longer ones.
func TestBertONNXMatchesNative(t *testing.T) {
	needORT(t)
	src := filepath.Join("..", "..", "models", "testdata", "bert-tiny")
	native, err := bertenc.Load(src)
	if err != nil {
		t.Fatal(err)
	}
	if native.Pooling != models.PoolMean {
		t.Fatalf("pooling %q, want mean (the ONNX encoder's)", native.Pooling)
	}
	dir := t.TempDir()
	g, err := onnx.BertGraph(native.Model())
	if err != nil {
		t.Fatal(err)
	}
	if err := g.Save(filepath.Join(dir, "model.onnx")); err != nil {
		t.Fatal(err)
	}
	tok, err := os.ReadFile(filepath.Join(src, "tokenizer.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "tokenizer.json"), tok, 0o644); err != nil {
		t.Fatal(err)
	}
	enc, err := onnx.LoadEncoder(dir, onnx.EncoderConfig{Batch: 3, MaxLen: 16})
	if err != nil {
		t.Fatal(err)
	}
	defer enc.Close()
	texts := []string{"who directed heat", "the movies", "kg graph retrieval by a b", "heat", strings.Repeat("the heat ", 30), "a"}
	got, err := enc.EncodeTexts(texts)
	if err != nil {
		t.Fatal(err)
	}
	want, err := native.EncodeTexts(texts)
	if err != nil {
		t.Fatal(err)
	}
	worst := 0.0
	for i := range want {
		worst = max(worst, math.Abs(float64(got[i]-want[i])))
	}
	if worst > 1e-5 {
		t.Errorf("ONNX Runtime and the native encoder differ by up to %.3g", worst)
	}
}
