package onnx

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sync"

	"github.com/sugarme/tokenizer"
	"github.com/sugarme/tokenizer/pretrained"
	ort "github.com/yalue/onnxruntime_go"

	"github.com/strata-retrieval/strata/infer/bertenc"
)

// EncoderConfig sets up an ONNX sentence encoder.
type EncoderConfig struct {
	MaxLen int // tokens per text, [CLS] and [SEP] included; default 256
	Batch  int // texts per run; default 32
	ORT    Options
}

// Encoder is a BERT-family sentence encoder exported by the user (for
// example contriever): tokenizer.json (WordPiece, through
// sugarme/tokenizer) and model.onnx (inputs input_ids, attention_mask and
// optionally token_type_ids, int64 [batch, tokens]; first output the last
// hidden state [batch, tokens, hidden]) run by ONNX Runtime, mean-pooled
// over the attention mask and L2-normalised.
type Encoder struct {
	Dir       string
	cfg       EncoderConfig
	tok       *tokenizer.Tokenizer
	sess      *Session
	typeIDs   bool
	dim       int
	mu        sync.Mutex
	inputKind []string
}

// LoadEncoder opens DIR/tokenizer.json and DIR/model.onnx.
func LoadEncoder(dir string, cfg EncoderConfig) (*Encoder, error) {
	if cfg.MaxLen <= 0 {
		cfg.MaxLen = 256
	}
	if cfg.Batch <= 0 {
		cfg.Batch = 32
	}
	tf := filepath.Join(dir, "tokenizer.json")
	if _, err := os.Stat(tf); err != nil {
		return nil, fmt.Errorf("ONNX encoder: %w", err)
	}
	tok, err := pretrained.FromFile(tf)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", tf, err)
	}
	mf := filepath.Join(dir, "model.onnx")
	if err := Init(); err != nil {
		return nil, err
	}
	in, out, err := ort.GetInputOutputInfo(mf)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", mf, err)
	}
	e := &Encoder{Dir: dir, cfg: cfg, tok: tok}
	var names []string
	for _, i := range in {
		switch i.Name {
		case "input_ids", "attention_mask", "token_type_ids":
			names = append(names, i.Name)
			e.inputKind = append(e.inputKind, i.Name)
		default:
			return nil, fmt.Errorf("%s: unexpected input %q (want input_ids, attention_mask, token_type_ids)", mf, i.Name)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no outputs", mf)
	}
	if d := out[0].Dimensions; len(d) != 3 || d[2] <= 0 {
		return nil, fmt.Errorf("%s: output %q has shape %v, want [batch, tokens, hidden]", mf, out[0].Name, d)
	} else {
		e.dim = int(d[2])
	}
	if e.sess, err = NewSession(mf, names, []string{out[0].Name}, cfg.ORT); err != nil {
		return nil, err
	}
	return e, nil
}

// Dim is the hidden size.
func (e *Encoder) Dim() int { return e.dim }

// Close releases the session.
func (e *Encoder) Close() error { return e.sess.Close() }

// Tokenize returns a text's ids, truncated to MaxLen keeping the final
// special token.
func (e *Encoder) Tokenize(text string) ([]int, error) {
	enc, err := e.tok.EncodeSingle(text, true)
	if err != nil {
		return nil, err
	}
	return bertenc.Truncate(enc.Ids, e.cfg.MaxLen), nil
}

// EncodeTexts encodes texts in batches.
func (e *Encoder) EncodeTexts(texts []string) ([]float32, error) {
	out := make([]float32, len(texts)*e.dim)
	for lo := 0; lo < len(texts); lo += e.cfg.Batch {
		hi := min(lo+e.cfg.Batch, len(texts))
		if err := e.batch(texts[lo:hi], out[lo*e.dim:hi*e.dim]); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func (e *Encoder) batch(texts []string, out []float32) error {
	ids := make([][]int, len(texts))
	T := 1
	for i, t := range texts {
		var err error
		if ids[i], err = e.Tokenize(t); err != nil {
			return err
		}
		T = max(T, len(ids[i]))
	}
	B := len(texts)
	inIDs := make([]int64, B*T)
	mask := make([]int64, B*T)
	types := make([]int64, B*T)
	for i, s := range ids {
		for j, id := range s {
			inIDs[i*T+j] = int64(id)
			mask[i*T+j] = 1
		}
	}
	shape := ort.NewShape(int64(B), int64(T))
	var vals []ort.Value
	defer func() {
		for _, v := range vals {
			v.Destroy()
		}
	}()
	for _, k := range e.inputKind {
		src := inIDs
		switch k {
		case "attention_mask":
			src = mask
		case "token_type_ids":
			src = types
		}
		t, err := ort.NewTensor(shape, src)
		if err != nil {
			return err
		}
		vals = append(vals, t)
	}
	e.mu.Lock()
	outs, err := e.sess.Run(vals...)
	e.mu.Unlock()
	if err != nil {
		return fmt.Errorf("%s: %w", e.Dir, err)
	}
	defer outs[0].Destroy()
	h, ok := outs[0].(*ort.Tensor[float32])
	if !ok {
		return fmt.Errorf("%s: the hidden state is not float32", e.Dir)
	}
	if s := h.GetShape(); len(s) != 3 || s[0] != int64(B) || s[1] != int64(T) || s[2] != int64(e.dim) {
		return fmt.Errorf("%s: hidden state of shape %v, want [%d %d %d]", e.Dir, s, B, T, e.dim)
	}
	MeanPool(h.GetData(), mask, B, T, e.dim, out)
	return nil
}

// MeanPool averages hidden [B, T, H] over the positions where mask is 1
// and L2-normalises each row into out [B, H].
func MeanPool(hidden []float32, mask []int64, B, T, H int, out []float32) {
	for b := range B {
		row := out[b*H : (b+1)*H]
		clear(row)
		n := 0
		for t := range T {
			if mask[b*T+t] == 0 {
				continue
			}
			n++
			for k, v := range hidden[(b*T+t)*H : (b*T+t+1)*H] {
				row[k] += v
			}
		}
		var ss float64
		for k := range row {
			if n > 0 {
				row[k] /= float32(n)
			}
			ss += float64(row[k]) * float64(row[k])
		}
		if ss > 0 {
			inv := float32(1 / math.Sqrt(ss))
			for k := range row {
				row[k] *= inv
			}
		}
	}
}
