package onnx

import (
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/advancedclimatesystems/gonnx/onnx"

	"github.com/strata-retrieval/strata/infer/onnxg"
)

// needORT skips when ONNX Runtime's library is absent (make test fetches
// it; a plain go test may not have it).
func needORT(t testing.TB) {
	t.Helper()
	if err := Init(); errors.Is(err, ErrNoRuntime) {
		t.Skip(err)
	} else if err != nil {
		t.Fatal(err)
	}
}

var tinyVocab = []string{"[PAD]", "[UNK]", "[CLS]", "[SEP]", "the", "heat", "movie", "##s", "direct", "##ed", "by", "who", "kg", "graph", "retriev", "##al", "a", "b"}

// writeTinyEncoder writes a WordPiece tokenizer.json and a BERT-shaped
// model.onnx: hidden = tanh(E[input_ids] · W), token_type_ids accepted and
// ignored. It returns E and W.
func writeTinyEncoder(t testing.TB, dir string, hidden int) ([]float32, []float32) {
	t.Helper()
	vocab := map[string]int{}
	for i, w := range tinyVocab {
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
	V := len(tinyVocab)
	E := make([]float32, V*hidden)
	W := make([]float32, hidden*hidden)
	for i := range E {
		E[i] = float32(r.NormFloat64())
	}
	for i := range W {
		W[i] = float32(r.NormFloat64() / math.Sqrt(float64(hidden)))
	}
	g := onnxg.New("tiny-encoder")
	ids := g.Input("input_ids", onnx.TensorProto_INT64, "batch", "tokens")
	g.Input("attention_mask", onnx.TensorProto_INT64, "batch", "tokens")
	g.Input("token_type_ids", onnx.TensorProto_INT64, "batch", "tokens")
	x := g.Op("Gather", []string{g.Float("emb", E, int64(V), int64(hidden)), ids}, onnxg.Attr{Name: "axis", Value: 0})
	h := g.Op("Tanh", []string{g.Op("MatMul", []string{x, g.Float("w", W, int64(hidden), int64(hidden))})})
	g.Rename(h, "last_hidden_state")
	g.Output("last_hidden_state", onnx.TensorProto_FLOAT, "batch", "tokens", hidden)
	if err := g.Save(filepath.Join(dir, "model.onnx")); err != nil {
		t.Fatal(err)
	}
	return E, W
}

// TestONNXEncoder checks the WordPiece ids and that ONNX Runtime's
// pooled vectors equal the same network computed in Go.
func TestONNXEncoder(t *testing.T) {
	needORT(t)
	dir := t.TempDir()
	const H = 6
	E, W := writeTinyEncoder(t, dir, H)
	enc, err := LoadEncoder(dir, EncoderConfig{Batch: 2, MaxLen: 8})
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
