package bertenc

import (
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/strata-retrieval/strata/models"
)

// tinyDir copies models/testdata/bert-tiny (a random BERT PyTorch wrote,
// with a WordPiece tokenizer.json) into a temporary directory, with
// 1_Pooling/config.json when pooling is set.
func tinyDir(t *testing.T, pooling string) string {
	t.Helper()
	dir := t.TempDir()
	for _, f := range []string{"config.json", "model.safetensors", "tokenizer.json"} {
		b, err := os.ReadFile(filepath.Join("..", "..", "models", "testdata", "bert-tiny", f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if pooling != "" {
		if err := os.MkdirAll(filepath.Join(dir, "1_Pooling"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "1_Pooling", "config.json"), []byte(pooling), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestEncoderTokenizesPoolsAndNormalises: WordPiece ids as worked out by
// hand from the vocabulary, and each text's vector is the model's hidden
// states (tested against PyTorch in models) pooled as 1_Pooling says and
// L2-normalised, in order, whatever the cores.
func TestEncoderTokenizesPoolsAndNormalises(t *testing.T) {
	for _, c := range []struct {
		pooling string
		want    models.Pooling
	}{
		{"", models.PoolMean},
		{`{"word_embedding_dimension": 32, "pooling_mode_cls_token": true}`, models.PoolCLS},
		{`{"pooling_mode_mean_tokens": true}`, models.PoolMean},
	} {
		dir := tinyDir(t, c.pooling)
		if !Is(dir) {
			t.Fatalf("Is(%s) = false", dir)
		}
		e, err := Load(dir)
		if err != nil {
			t.Fatal(err)
		}
		if e.Pooling != c.want || e.Dim() != 32 || e.MaxLen != 16 {
			t.Fatalf("pooling %q, dim %d, max len %d; want %q, 32, 16", e.Pooling, e.Dim(), e.MaxLen, c.want)
		}
		ids, err := e.Tokenize("Who directed the movies? zzz")
		if err != nil {
			t.Fatal(err)
		}
		// [CLS] who direct ##ed the movie ##s [UNK](?) [UNK](zzz) [SEP]
		if want := []int{2, 11, 8, 9, 4, 6, 7, 1, 1, 3}; !slices.Equal(ids, want) {
			t.Fatalf("ids %v, want %v", ids, want)
		}
		long, _ := e.Tokenize(strings.Repeat("heat ", 40))
		if len(long) != 16 || long[0] != 2 || long[15] != 3 {
			t.Fatalf("a long text gives %v, want 16 ids from [CLS] to [SEP]", long)
		}
		texts := []string{"who directed heat", "the movies", "kg graph retrieval by a b", "heat", strings.Repeat("the heat ", 30)}
		got, err := e.EncodeTexts(texts)
		if err != nil {
			t.Fatal(err)
		}
		for i, text := range texts {
			ids, _ := e.Tokenize(text)
			h, err := e.bert.Hidden(ids, nil)
			if err != nil {
				t.Fatal(err)
			}
			v := models.Pool(h, 32, c.want)
			var ss float64
			for _, x := range v {
				ss += float64(x) * float64(x)
			}
			for j, x := range v {
				if d := math.Abs(float64(got[i*32+j]) - float64(x)/math.Sqrt(ss)); d > 1e-6 {
					t.Fatalf("%q [%d]: %v, want %v", text, j, got[i*32+j], float64(x)/math.Sqrt(ss))
				}
			}
		}
	}
}

func TestLoadErrors(t *testing.T) {
	for _, c := range []struct {
		edit func(dir string) error
		want string
	}{
		{func(d string) error { return os.Remove(filepath.Join(d, "tokenizer.json")) }, "neither tokenizer.json nor vocab.txt"},
		{func(d string) error { return os.WriteFile(filepath.Join(d, "config.json"), []byte("{"), 0o644) }, "config.json"},
		{func(d string) error {
			return os.WriteFile(filepath.Join(d, "config.json"), []byte(`{"model_type": "bert", "hidden_act": "gelu_new", "vocab_size": 40, "hidden_size": 32, "num_hidden_layers": 2, "num_attention_heads": 4, "intermediate_size": 64, "max_position_embeddings": 16}`), 0o644)
		}, "hidden_act"},
		{func(d string) error {
			return os.WriteFile(filepath.Join(d, "model.safetensors"), []byte("12345678"), 0o644)
		}, "model.safetensors"},
		{func(d string) error {
			os.MkdirAll(filepath.Join(d, "1_Pooling"), 0o755)
			return os.WriteFile(filepath.Join(d, "1_Pooling", "config.json"), []byte(`{"pooling_mode_max_tokens": true}`), 0o644)
		}, "only mean or [CLS]"},
	} {
		dir := tinyDir(t, "")
		if err := c.edit(dir); err != nil {
			t.Fatal(err)
		}
		if _, err := Load(dir); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Load: %v, want an error with %q", err, c.want)
		}
	}
	dir := tinyDir(t, "")
	os.WriteFile(filepath.Join(dir, "model.onnx"), nil, 0o644)
	if Is(dir) {
		t.Error("a directory with model.onnx is ONNX Runtime's, not this package's")
	}
	// A Qwen3 directory has config.json and model.safetensors too.
	dir = tinyDir(t, "")
	os.WriteFile(filepath.Join(dir, "config.json"), []byte(`{"model_type": "qwen3"}`), 0o644)
	if Is(dir) {
		t.Error("a qwen3 directory is not a BERT directory")
	}
}

// TestVocabTxt: a directory with vocab.txt instead of tokenizer.json (the
// tiny model's 18 tokens, one per line in id order) tokenizes as its
// tokenizer.json does (ids by hand; the same vectors), lower-cases and
// strips accents by default, keeps case when tokenizer_config.json's
// do_lower_case is false, and a vocabulary without [CLS] is an error
// naming the file.
func TestVocabTxt(t *testing.T) {
	vocab := "[PAD]\n[UNK]\n[CLS]\n[SEP]\nthe\nheat\nmovie\n##s\ndirect\n##ed\nby\nwho\nkg\ngraph\nretriev\n##al\na\nb\n"
	vocabDir := func(config string) string {
		dir := tinyDir(t, "")
		if err := os.Remove(filepath.Join(dir, "tokenizer.json")); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "vocab.txt"), []byte(vocab), 0o644); err != nil {
			t.Fatal(err)
		}
		if config != "" {
			if err := os.WriteFile(filepath.Join(dir, "tokenizer_config.json"), []byte(config), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return dir
	}
	v, err := Load(vocabDir(""))
	if err != nil {
		t.Fatal(err)
	}
	j, err := Load(tinyDir(t, ""))
	if err != nil {
		t.Fatal(err)
	}
	for text, want := range map[string][]int{
		"Who directed the movies? zzz": {2, 11, 8, 9, 4, 6, 7, 1, 1, 3},
		"Whó DIRECTED":                 {2, 11, 8, 9, 3},
		"graph retrieval by kg":        {2, 13, 14, 15, 10, 12, 3},
	} {
		ids, err := v.Tokenize(text)
		if err != nil || !slices.Equal(ids, want) {
			t.Errorf("vocab.txt: %q ids %v (%v), want %v", text, ids, err, want)
		}
		if jids, _ := j.Tokenize(text); !slices.Equal(jids, ids) {
			t.Errorf("%q: tokenizer.json ids %v, vocab.txt %v", text, jids, ids)
		}
	}
	texts := []string{"who directed heat", "the movies", "kg graph retrieval by a b"}
	a, err := v.EncodeTexts(texts)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := j.EncodeTexts(texts)
	if !slices.Equal(a, b) {
		t.Error("vocab.txt and tokenizer.json give different vectors")
	}
	cased, err := Load(vocabDir(`{"do_lower_case": false}`))
	if err != nil {
		t.Fatal(err)
	}
	if ids, _ := cased.Tokenize("Who directed"); !slices.Equal(ids, []int{2, 1, 8, 9, 3}) {
		t.Errorf("do_lower_case false: ids %v, want [2 1 8 9 3] (Who unknown)", ids)
	}
	dir := vocabDir("")
	os.WriteFile(filepath.Join(dir, "vocab.txt"), []byte(strings.Replace(vocab, "[CLS]", "[CLX]", 1)), 0o644)
	if _, err := Load(dir); err == nil || !strings.Contains(err.Error(), "vocab.txt: no [CLS] token") {
		t.Errorf("a vocabulary without [CLS]: %v", err)
	}
}
