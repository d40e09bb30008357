package infer

import (
	"context"
	"fmt"
	"sync"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/data/index"
	"github.com/strata-retrieval/strata/infer/bertenc"
)

// TextSpace is one embedding space for the methods that embed new text
// against nodes (GRASP's anchor linking and relevance rescoring, SimGRAG's
// matching): a text encoder, every node's document vector and, built on
// first use, every node's name vector, all from one model. It is the
// dense channel's (its hashed encoder, or imported vectors, which cannot
// encode new text unless their model is given), or a sentence encoder's
// (an ONNX export, or a BERT-family directory run natively).
type TextSpace struct {
	// Source says where the space comes from, for messages.
	Source string
	// Enc encodes new text; nil when the space cannot (imported vectors
	// without an encoder).
	Enc  TextEncoder
	Docs *index.Matrix

	dense *DenseChannel // the channel, when Docs are its vectors
	skb   *data.SKB

	namesOnce sync.Once
	names     *index.Matrix
	namesErr  error
}

// Encode encodes texts (ErrNoEncoder when the space cannot).
func (s *TextSpace) Encode(texts []string) ([]float32, error) {
	if s.Enc == nil {
		return nil, fmt.Errorf("%s: %w", s.Source, ErrNoEncoder)
	}
	return s.Enc.EncodeTexts(texts)
}

// Dim is the space's dimension.
func (s *TextSpace) Dim() int { return s.Docs.Dim }

// QueryVector is a query's vector: its text encoded, or the dense
// channel's imported vector when the space cannot encode.
func (s *TextSpace) QueryVector(q data.Query) ([]float32, error) {
	if s.Enc != nil {
		return s.Enc.EncodeTexts([]string{q.Text})
	}
	if s.dense != nil {
		return s.dense.QueryVector(q)
	}
	return nil, fmt.Errorf("%s: %w", s.Source, ErrNoEncoder)
}

// Names returns every node's name vector, encoded on first use (ctx stops
// it between batches).
func (s *TextSpace) Names(ctx context.Context) (*index.Matrix, error) {
	s.namesOnce.Do(func() {
		if s.Enc == nil {
			s.namesErr = fmt.Errorf("%s: node names: %w", s.Source, ErrNoEncoder)
			return
		}
		s.names, s.namesErr = encodeAll(ctx, s.Enc, len(s.skb.Nodes), func(v int) string { return s.skb.Nodes[v].Name })
	})
	return s.names, s.namesErr
}

// encodeAll encodes n texts in batches of 1024.
func encodeAll(ctx context.Context, enc TextEncoder, n int, text func(int) string) (*index.Matrix, error) {
	m := index.NewMatrix(n, enc.Dim())
	for lo := 0; lo < n; lo += 1024 {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		hi := min(lo+1024, n)
		texts := make([]string, hi-lo)
		for i := range texts {
			texts[i] = text(lo + i)
		}
		v, err := enc.EncodeTexts(texts)
		if err != nil {
			return nil, err
		}
		copy(m.Data[lo*m.Dim:hi*m.Dim], v)
	}
	return m, nil
}

// NewTextSpace is the space of an encoder (nil: none) with document
// vectors docs of skb's nodes.
func NewTextSpace(source string, enc TextEncoder, docs *index.Matrix, skb *data.SKB) *TextSpace {
	return &TextSpace{Source: source, Enc: enc, Docs: docs, skb: skb}
}

// DenseSpace is the text space of a dense channel over skb's nodes: its
// encoder (none for imported vectors) and its document vectors.
func DenseSpace(d *DenseChannel, skb *data.SKB) *TextSpace {
	s := &TextSpace{Source: "the dense channel (" + d.Meta.Source + ")", Docs: d.Docs, dense: d, skb: skb}
	if d.Encoder != nil {
		s.Enc = hashedEncoder{d.Encoder}
	}
	return s
}

// probeNodes is how many documents are re-encoded to tell whether a
// channel's vectors come from an ONNX encoder.
const probeNodes = 8

// TextSpace returns the space of a sentence encoder directory: an ONNX
// export (tokenizer.json, model.onnx; needs infer/onnx linked) or a
// Hugging Face BERT-family directory (config.json, model.safetensors,
// tokenizer.json; run natively, infer/bertenc), or with "" the dense
// channel's; spaces are
// built once per environment. An ONNX encoder's document vectors are the
// dense channel's when the channel holds this model's vectors (imported:
// a few documents re-encoded agree to cosine 0.99), else every node's
// document encoded once.
func (e *Env) TextSpace(onnxDir string) (*TextSpace, error) {
	e.spacesMu.Lock()
	defer e.spacesMu.Unlock()
	if s, ok := e.spaces[onnxDir]; ok {
		return s, nil
	}
	s, err := e.openTextSpace(onnxDir)
	if err != nil {
		return nil, err
	}
	if e.spaces == nil {
		e.spaces = map[string]*TextSpace{}
	}
	e.spaces[onnxDir] = s
	return s, nil
}

// onnxEncoder loads an ONNX sentence encoder directory; infer/onnx sets
// it when a program links ONNX Runtime, so the infer core links no cgo.
var onnxEncoder func(dir string) (TextEncoder, error)

// RegisterONNXEncoder sets how TextSpace loads an ONNX sentence encoder
// directory (infer/onnx calls it when it is linked).
func RegisterONNXEncoder(load func(dir string) (TextEncoder, error)) { onnxEncoder = load }

func (e *Env) openTextSpace(onnxDir string) (*TextSpace, error) {
	d, derr := e.Dense()
	if onnxDir == "" {
		if derr != nil {
			return nil, derr
		}
		return DenseSpace(d, e.WS.SKB), nil
	}
	onnxDir, err := e.Path(onnxDir)
	if err != nil {
		return nil, err
	}
	var enc TextEncoder
	source := "ONNX encoder " + onnxDir
	switch {
	case bertenc.Is(onnxDir):
		if enc, err = bertenc.Load(onnxDir); err != nil {
			return nil, err
		}
		source = "BERT encoder " + onnxDir
	case onnxEncoder == nil:
		return nil, fmt.Errorf("%s: this program links no ONNX Runtime to load an ONNX encoder with (import github.com/strata-retrieval/strata/infer/onnx)", onnxDir)
	default:
		if enc, err = onnxEncoder(onnxDir); err != nil {
			return nil, err
		}
	}
	s := &TextSpace{Source: source, Enc: enc, skb: e.WS.SKB}
	if derr == nil && d.Docs.Dim == enc.Dim() {
		same, err := sameSpace(enc, e.WS.SKB, d.Docs)
		if err != nil {
			return nil, err
		}
		if same {
			s.Docs, s.dense = d.Docs, d
			return s, nil
		}
	}
	n := len(e.WS.SKB.Nodes)
	if s.Docs, err = encodeAll(e.Ctx, enc, n, func(v int) string { return e.WS.SKB.Document(uint32(v)) }); err != nil {
		return nil, fmt.Errorf("%s: encoding %d node documents: %w", s.Source, n, err)
	}
	return s, nil
}

// sameSpace tells whether docs hold enc's vectors of the nodes' documents.
func sameSpace(enc TextEncoder, skb *data.SKB, docs *index.Matrix) (bool, error) {
	n := len(skb.Nodes)
	if n == 0 {
		return false, nil
	}
	var texts []string
	var rows []int
	for i := range min(probeNodes, n) {
		v := i * n / min(probeNodes, n)
		texts = append(texts, skb.Document(uint32(v)))
		rows = append(rows, v)
	}
	vec, err := enc.EncodeTexts(texts)
	if err != nil {
		return false, err
	}
	dim := enc.Dim()
	for i, v := range rows {
		var c float32
		for j, x := range docs.Row(v) {
			c += x * vec[i*dim+j]
		}
		if c < 0.99 {
			return false, nil
		}
	}
	return true, nil
}
