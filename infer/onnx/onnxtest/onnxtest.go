// Package onnxtest builds tiny ONNX models for tests: a BERT-shaped
// sentence encoder that ONNX Runtime runs in milliseconds.
package onnxtest

import (
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	gonnx "github.com/advancedclimatesystems/gonnx/onnx"

	"github.com/strata-retrieval/strata/infer/onnx"
	"github.com/strata-retrieval/strata/infer/onnxg"
)

// NeedORT skips when ONNX Runtime's library is absent (make test fetches
// it; a plain go test may not have it).
func NeedORT(t testing.TB) {
	t.Helper()
	if err := onnx.Init(); errors.Is(err, onnx.ErrNoRuntime) {
		t.Skip(err)
	} else if err != nil {
		t.Fatal(err)
	}
}

// TinyVocab is the tiny encoder's WordPiece vocabulary.
var TinyVocab = []string{"[PAD]", "[UNK]", "[CLS]", "[SEP]", "the", "heat", "movie", "##s", "direct", "##ed", "by", "who", "kg", "graph", "retriev", "##al", "a", "b"}

// WriteTinyEncoder writes a WordPiece tokenizer.json and a BERT-shaped
// model.onnx: hidden = tanh(E[input_ids] · W), token_type_ids accepted and
// ignored. It returns E and W.
func WriteTinyEncoder(t testing.TB, dir string, hidden int) ([]float32, []float32) {
	t.Helper()
	vocab := map[string]int{}
	for i, w := range TinyVocab {
		vocab[w] = i
	}
	tok := map[string]any{
		"version": "1.0", "truncation": nil, "padding": nil,
		"added_tokens": []map[string]any{
			{"id": 0, "content": "[PAD]", "single_word": false, "lstrip": false, "rstrip": false, "normalized": false, "special": true},
			{"id": 1, "content": "[UNK]", "single_word": false, "lstrip": false, "rstrip": false, "normalized": false, "special": true},
			{"id": 2, "content": "[CLS]", "single_word": false, "lstrip": false, "rstrip": false, "normalized": false, "special": true},
			{"id": 3, "content": "[SEP]", "single_word": false, "lstrip": false, "rstrip": false, "normalized": false, "special": true},
		},
		"normalizer":     map[string]any{"type": "BertNormalizer", "clean_text": true, "handle_chinese_chars": true, "strip_accents": nil, "lowercase": true},
		"pre_tokenizer":  map[string]any{"type": "BertPreTokenizer"},
		"post_processor": map[string]any{"type": "BertProcessing", "sep": []any{"[SEP]", 3}, "cls": []any{"[CLS]", 2}},
		"decoder":        map[string]any{"type": "WordPiece", "prefix": "##", "cleanup": true},
		"model":          map[string]any{"type": "WordPiece", "unk_token": "[UNK]", "continuing_subword_prefix": "##", "max_input_chars_per_word": 100, "vocab": vocab},
	}
	b, _ := json.Marshal(tok)
	if err := os.WriteFile(filepath.Join(dir, "tokenizer.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(5, 6))
	V := len(TinyVocab)
	E := make([]float32, V*hidden)
	W := make([]float32, hidden*hidden)
	for i := range E {
		E[i] = float32(r.NormFloat64())
	}
	for i := range W {
		W[i] = float32(r.NormFloat64() / math.Sqrt(float64(hidden)))
	}
	g := onnxg.New("tiny-encoder")
	ids := g.Input("input_ids", gonnx.TensorProto_INT64, "batch", "tokens")
	g.Input("attention_mask", gonnx.TensorProto_INT64, "batch", "tokens")
	g.Input("token_type_ids", gonnx.TensorProto_INT64, "batch", "tokens")
	x := g.Op("Gather", []string{g.Float("emb", E, int64(V), int64(hidden)), ids}, onnxg.Attr{Name: "axis", Value: 0})
	h := g.Op("Tanh", []string{g.Op("MatMul", []string{x, g.Float("w", W, int64(hidden), int64(hidden))})})
	g.Rename(h, "last_hidden_state")
	g.Output("last_hidden_state", gonnx.TensorProto_FLOAT, "batch", "tokens", hidden)
	if err := g.Save(filepath.Join(dir, "model.onnx")); err != nil {
		t.Fatal(err)
	}
	return E, W
}
