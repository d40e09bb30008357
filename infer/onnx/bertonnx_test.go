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
// exported by ExportBert (BertGraph) and run by ONNX Runtime through Encoder gives the
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
	dir := filepath.Join(t.TempDir(), "onnx")
	if err := onnx.ExportBert(src, dir, false); err != nil {
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

// TestExportBertRefusesCLSPooling: the ONNX encoder pools by the mean, so
// a model that pools by [CLS] is not exported, and nothing is written.
func TestExportBertRefusesCLSPooling(t *testing.T) {
	src := t.TempDir()
	for _, f := range []string{"config.json", "model.safetensors", "tokenizer.json"} {
		b, err := os.ReadFile(filepath.Join("..", "..", "models", "testdata", "bert-tiny", f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(src, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	os.MkdirAll(filepath.Join(src, "1_Pooling"), 0o755)
	if err := os.WriteFile(filepath.Join(src, "1_Pooling", "config.json"), []byte(`{"pooling_mode_cls_token": true}`), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "onnx")
	if err := onnx.ExportBert(src, out, false); err == nil || !strings.Contains(err.Error(), "pools by cls") {
		t.Fatalf("ExportBert of a [CLS] model: %v", err)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("%s exists after a refused export", out)
	}
}
