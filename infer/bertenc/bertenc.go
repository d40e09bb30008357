// Package bertenc opens a Hugging Face BERT-family sentence encoder
// directory natively: config.json, model.safetensors and tokenizer.json or
// vocab.txt (WordPiece, through sugarme/tokenizer), pooled as
// 1_Pooling/config.json says (sentence-transformers; mean when absent) and
// L2-normalised. The forward pass is models.Bert on strata's own kernels,
// so no ONNX Runtime and no cgo is needed. A directory with model.onnx
// goes to ONNX Runtime instead (infer/onnx).
package bertenc

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"unicode"

	"github.com/sugarme/tokenizer"
	"github.com/sugarme/tokenizer/model/wordpiece"
	"github.com/sugarme/tokenizer/normalizer"
	"github.com/sugarme/tokenizer/pretokenizer"
	"github.com/sugarme/tokenizer/pretrained"
	"github.com/sugarme/tokenizer/processor"
	"golang.org/x/text/unicode/norm"

	"github.com/strata-retrieval/strata/checkpoints"
	"github.com/strata-retrieval/strata/internal/parallel"
	"github.com/strata-retrieval/strata/models"
)

// DefaultMaxLen caps the tokens per text ([CLS] and [SEP] included) below
// the model's positions.
const DefaultMaxLen = 256

// Encoder is a loaded BERT-family sentence encoder.
type Encoder struct {
	Dir     string
	Pooling models.Pooling
	MaxLen  int
	bert    *models.Bert
	tok     *tokenizer.Tokenizer
	// strip: accents are stripped before the tokenizer reads a text (the
	// text decomposed, its combining marks dropped), as Hugging Face's
	// BERT normaliser does; sugarme/tokenizer drops combining marks
	// without decomposing ("ó" stayed).
	strip bool
	mu    sync.Mutex
}

// Is reports whether dir looks like a Hugging Face BERT-family directory
// this package opens: model.safetensors, no model.onnx, and a config.json
// whose model_type is "bert" (a Qwen3 directory has the same files).
func Is(dir string) bool {
	has := func(name string) bool {
		_, err := os.Stat(filepath.Join(dir, name))
		return err == nil
	}
	if !has("model.safetensors") || has("model.onnx") {
		return false
	}
	b, err := os.ReadFile(filepath.Join(dir, "config.json"))
	if err != nil {
		return false
	}
	var c struct {
		ModelType string `json:"model_type"`
	}
	return json.Unmarshal(b, &c) == nil && c.ModelType == "bert"
}

// Load opens dir.
func Load(dir string) (*Encoder, error) {
	cf := filepath.Join(dir, "config.json")
	b, err := os.ReadFile(cf)
	if err != nil {
		return nil, fmt.Errorf("BERT encoder: %w", err)
	}
	var cfg models.BertConfig
	if err := json.Unmarshal(b, &cfg); err != nil {
		return nil, fmt.Errorf("%s: %w", cf, err)
	}
	if cfg.TypeVocab == 0 {
		cfg.TypeVocab = 1
	}
	wf := filepath.Join(dir, "model.safetensors")
	f, err := checkpoints.ReadFile(wf)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", wf, err)
	}
	m, err := models.NewBert(cfg, func(name string) ([]int, []float32, bool) {
		if t, ok := f.Tensors[name]; ok {
			return t.Shape, t.Data, true
		}
		return nil, nil, false
	})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", dir, err)
	}
	tok, strip, err := loadTokenizer(dir)
	if err != nil {
		return nil, err
	}
	pool, err := readPooling(dir)
	if err != nil {
		return nil, err
	}
	return &Encoder{Dir: dir, Pooling: pool, MaxLen: min(DefaultMaxLen, cfg.MaxPositions), bert: m, tok: tok, strip: strip}, nil
}

// loadTokenizer reads dir's tokenizer.json or, without one, builds BERT's
// WordPiece tokenizer from its vocab.txt (vocabTokenizer); strip reports
// whether its normaliser strips accents (BERT's: strip_accents, or when
// that is null, lowercase).
func loadTokenizer(dir string) (tok *tokenizer.Tokenizer, strip bool, err error) {
	tf := filepath.Join(dir, "tokenizer.json")
	if b, err := os.ReadFile(tf); err == nil {
		tok, err := pretrained.FromFile(tf)
		if err != nil {
			return nil, false, fmt.Errorf("%s: %w", tf, err)
		}
		var j struct {
			Normalizer *struct {
				Type         string `json:"type"`
				StripAccents *bool  `json:"strip_accents"`
				Lowercase    bool   `json:"lowercase"`
			} `json:"normalizer"`
		}
		if err := json.Unmarshal(b, &j); err != nil {
			return nil, false, fmt.Errorf("%s: %w", tf, err)
		}
		if n := j.Normalizer; n != nil && n.Type == "BertNormalizer" {
			strip = n.Lowercase
			if n.StripAccents != nil {
				strip = *n.StripAccents
			}
		}
		return tok, strip, nil
	}
	vf := filepath.Join(dir, "vocab.txt")
	if _, err := os.Stat(vf); err != nil {
		return nil, false, fmt.Errorf("BERT encoder: %s holds neither tokenizer.json nor vocab.txt", dir)
	}
	return vocabTokenizer(dir)
}

// stripAccents is text decomposed (NFD) without its combining marks.
func stripAccents(text string) string {
	var b strings.Builder
	for _, r := range norm.NFD.String(text) {
		if !unicode.Is(unicode.Mn, r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// vocabTokenizer is the tokenizer Hugging Face's BertTokenizerFast builds
// from a vocab.txt (one WordPiece token per line, its id the line number):
// BERT's normaliser (clean text, Chinese characters split, lower case and
// accents stripped as tokenizer_config.json's do_lower_case and
// strip_accents say: lower case by default, accents stripped when lower
// case unless strip_accents says otherwise), BERT's pre-tokenizer
// (whitespace and punctuation), WordPiece with "##" continuations and
// [UNK], and [CLS] ... [SEP] around the text.
func vocabTokenizer(dir string) (*tokenizer.Tokenizer, bool, error) {
	vf := filepath.Join(dir, "vocab.txt")
	lower, strip := true, (*bool)(nil)
	cf := filepath.Join(dir, "tokenizer_config.json")
	if b, err := os.ReadFile(cf); err == nil {
		var c struct {
			DoLowerCase  *bool `json:"do_lower_case"`
			StripAccents *bool `json:"strip_accents"`
		}
		if err := json.Unmarshal(b, &c); err != nil {
			return nil, false, fmt.Errorf("%s: %w", cf, err)
		}
		if c.DoLowerCase != nil {
			lower = *c.DoLowerCase
		}
		strip = c.StripAccents
	} else if !errors.Is(err, os.ErrNotExist) {
		return nil, false, err
	}
	stripMarks := lower
	if strip != nil {
		stripMarks = *strip
	}
	wp, err := wordpiece.NewWordPieceFromFile(vf, "[UNK]")
	if err != nil {
		return nil, false, fmt.Errorf("%s: %w", vf, err)
	}
	tok := tokenizer.NewTokenizer(wp)
	tok.WithNormalizer(normalizer.NewBertNormalizer(true, lower, true, stripMarks))
	tok.WithPreTokenizer(pretokenizer.NewBertPreTokenizer())
	var specials []tokenizer.AddedToken
	ids := map[string]int{}
	for _, s := range []string{"[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"} {
		if id, ok := tok.TokenToId(s); ok {
			ids[s] = id
			specials = append(specials, tokenizer.NewAddedToken(s, true))
		}
	}
	for _, s := range []string{"[UNK]", "[CLS]", "[SEP]"} {
		if _, ok := ids[s]; !ok {
			return nil, false, fmt.Errorf("%s: no %s token", vf, s)
		}
	}
	tok.WithPostProcessor(processor.NewBertProcessing(processor.PostToken{Id: ids["[SEP]"], Value: "[SEP]"}, processor.PostToken{Id: ids["[CLS]"], Value: "[CLS]"}))
	tok.AddSpecialTokens(specials)
	return tok, stripMarks, nil
}

// readPooling reads sentence-transformers' 1_Pooling/config.json: mean or
// [CLS] pooling; mean when the file is absent.
func readPooling(dir string) (models.Pooling, error) {
	pf := filepath.Join(dir, "1_Pooling", "config.json")
	b, err := os.ReadFile(pf)
	if errors.Is(err, os.ErrNotExist) {
		return models.PoolMean, nil
	}
	if err != nil {
		return "", err
	}
	var pc struct {
		Mean bool `json:"pooling_mode_mean_tokens"`
		CLS  bool `json:"pooling_mode_cls_token"`
		Max  bool `json:"pooling_mode_max_tokens"`
		Sqrt bool `json:"pooling_mode_mean_sqrt_len_tokens"`
	}
	if err := json.Unmarshal(b, &pc); err != nil {
		return "", fmt.Errorf("%s: %w", pf, err)
	}
	switch {
	case pc.Max || pc.Sqrt || pc.Mean && pc.CLS:
		return "", fmt.Errorf("%s: only mean or [CLS] pooling alone is supported", pf)
	case pc.CLS:
		return models.PoolCLS, nil
	case pc.Mean:
		return models.PoolMean, nil
	}
	return "", fmt.Errorf("%s: no pooling mode set", pf)
}

// Model is the encoder's network.
func (e *Encoder) Model() *models.Bert { return e.bert }

// Dim is the hidden size.
func (e *Encoder) Dim() int { return e.bert.Cfg.HiddenSize }

// Tokenize returns a text's ids, truncated to MaxLen keeping the final
// special token.
func (e *Encoder) Tokenize(text string) ([]int, error) {
	if e.strip {
		text = stripAccents(text)
	}
	e.mu.Lock() // sugarme/tokenizer promises no concurrent use
	enc, err := e.tok.EncodeSingle(text, true)
	e.mu.Unlock()
	if err != nil {
		return nil, err
	}
	return Truncate(enc.Ids, e.MaxLen), nil
}

// Truncate cuts a tokenized text to maxLen ids keeping its last one (the
// closing [SEP]); the ONNX encoder cuts the same way.
func Truncate(ids []int, maxLen int) []int {
	if len(ids) > maxLen {
		ids = append(append([]int(nil), ids[:maxLen-1]...), ids[len(ids)-1])
	}
	return ids
}

// EncodeTexts encodes texts on all cores: one L2-normalised vector of Dim
// values per text, in order.
func (e *Encoder) EncodeTexts(texts []string) ([]float32, error) {
	dim := e.Dim()
	out := make([]float32, len(texts)*dim)
	errs := make([]error, len(texts))
	_ = parallel.Chunks(context.Background(), len(texts), 1, 0, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			errs[i] = e.encode(texts[i], out[i*dim:(i+1)*dim])
		}
	})
	return out, errors.Join(errs...)
}

func (e *Encoder) encode(text string, dst []float32) error {
	ids, err := e.Tokenize(text)
	if err != nil {
		return err
	}
	h, err := e.bert.Hidden(ids, nil)
	if err != nil {
		return err
	}
	v := models.Pool(h, e.Dim(), e.Pooling)
	var ss float64
	for _, x := range v {
		ss += float64(x) * float64(x)
	}
	inv := 1 / math.Max(math.Sqrt(ss), 1e-12)
	for j, x := range v {
		dst[j] = float32(float64(x) * inv)
	}
	return nil
}
