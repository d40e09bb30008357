package onnx

import (
	"fmt"
	"math"
	"os"
	"path/filepath"

	"github.com/advancedclimatesystems/gonnx/onnx"

	"github.com/strata-retrieval/strata/infer/bertenc"
	"github.com/strata-retrieval/strata/infer/onnxg"
	"github.com/strata-retrieval/strata/internal/atomicfile"
	"github.com/strata-retrieval/strata/models"
)

// BertGraph builds an ONNX graph (IR 11, opset 23) of a BERT-family
// encoder with the interface Encoder reads: inputs input_ids,
// attention_mask and token_type_ids (int64 [batch, tokens], right padded),
// output last_hidden_state (float [batch, tokens, hidden]). Padded keys are
// masked out of attention (an additive -1e9 mask), so a sequence's states
// do not depend on its batch; LayerNormalization, Gelu (exact) and
// Attention are the opset's own operators.
func BertGraph(m *models.Bert) (*onnxg.Graph, error) {
	c := m.Cfg
	H, I, nh := c.HiddenSize, c.Intermediate, c.NumHeads
	hd := H / nh
	g := onnxg.New("bert-encoder")
	ids := g.Input("input_ids", onnx.TensorProto_INT64, "batch", "tokens")
	mask := g.Input("attention_mask", onnx.TensorProto_INT64, "batch", "tokens")
	types := g.Input("token_type_ids", onnx.TensorProto_INT64, "batch", "tokens")
	w := func(name string) ([]float32, error) {
		x := m.Weight(name)
		if x == nil {
			return nil, fmt.Errorf("BERT export: no tensor %q", name)
		}
		return x, nil
	}
	var err error
	get := func(name string) []float32 {
		x, e := w(name)
		if e != nil && err == nil {
			err = e
		}
		return x
	}
	shape := func(name string, dims ...int64) string { return g.Int64(name, dims, int64(len(dims))) }
	axis0 := onnxg.Attr{Name: "axis", Value: 0}
	norm := func(x, name string) string {
		return g.Op("LayerNormalization", []string{x, g.Float(name+".weight", get(name+".weight"), int64(H)), g.Float(name+".bias", get(name+".bias"), int64(H))},
			onnxg.Attr{Name: "axis", Value: -1}, onnxg.Attr{Name: "epsilon", Value: float32(c.LayerNormEps)})
	}
	// dense is x·Wᵀ + b for a [out, in] weight, stored transposed.
	dense := func(x, name string, out, in int) string {
		wt := get(name + ".weight")
		t := make([]float32, len(wt))
		for o := range out {
			for i := range in {
				t[i*out+o] = wt[o*in+i]
			}
		}
		return g.Op("Add", []string{g.Op("MatMul", []string{x, g.Float(name+".weight_t", t, int64(in), int64(out))}), g.Float(name+".bias", get(name+".bias"), int64(out))})
	}
	types2 := max(c.TypeVocab, 1)
	T := g.Op("Gather", []string{g.Op("Shape", []string{ids}), g.Int64("tok_axis", []int64{1})}, axis0)
	pos := g.Op("Range", []string{g.Int64("zero", []int64{0}), T, g.Int64("one", []int64{1})})
	x := g.Op("Gather", []string{g.Float("embeddings.word_embeddings.weight", get("embeddings.word_embeddings.weight"), int64(c.VocabSize), int64(H)), ids}, axis0)
	x = g.Op("Add", []string{x, g.Op("Gather", []string{g.Float("embeddings.position_embeddings.weight", get("embeddings.position_embeddings.weight"), int64(c.MaxPositions), int64(H)), pos}, axis0)})
	x = g.Op("Add", []string{x, g.Op("Gather", []string{g.Float("embeddings.token_type_embeddings.weight", get("embeddings.token_type_embeddings.weight"), int64(types2), int64(H)), types}, axis0)})
	x = norm(x, "embeddings.LayerNorm")
	// Additive mask: 0 for real tokens, -1e9 for padding.
	maskF := g.Op("Cast", []string{mask}, onnxg.Attr{Name: "to", Value: int64(onnx.TensorProto_FLOAT)})
	add := g.Op("Mul", []string{g.Op("Sub", []string{g.Float("f_one", []float32{1}), maskF}), g.Float("neg_big", []float32{-1e9})})
	add = g.Op("Unsqueeze", []string{add, g.Int64("mask_axes", []int64{1, 2}, 2)})
	// ONNX Runtime wants the mask's query dimension spelled out: [B, 1, T, T].
	bt := g.Op("Shape", []string{ids})
	bDim := g.Op("Slice", []string{bt, g.Int64("sl0", []int64{0}, 1), g.Int64("sl1", []int64{1}, 1)})
	tDim := g.Op("Slice", []string{bt, g.Int64("sl1b", []int64{1}, 1), g.Int64("sl2", []int64{2}, 1)})
	add = g.Op("Expand", []string{add, g.Op("Concat", []string{bDim, g.Int64("one_1d", []int64{1}, 1), tDim, tDim}, axis0)})
	perm := onnxg.Attr{Name: "perm", Value: []int64{0, 2, 1, 3}}
	heads := func(x, nm string) string {
		return g.Op("Transpose", []string{g.Op("Reshape", []string{x, shape(nm, 0, 0, int64(nh), int64(hd))})}, perm)
	}
	for l := range c.NumLayers {
		p := fmt.Sprintf("encoder.layer.%d.", l)
		q := heads(dense(x, p+"attention.self.query", H, H), p+"q_shape")
		k := heads(dense(x, p+"attention.self.key", H, H), p+"k_shape")
		v := heads(dense(x, p+"attention.self.value", H, H), p+"v_shape")
		att := g.Op("Attention", []string{q, k, v, add}, onnxg.Attr{Name: "scale", Value: float32(1 / math.Sqrt(float64(hd)))})
		att = g.Op("Reshape", []string{g.Op("Transpose", []string{att}, perm), shape(p+"att_shape", 0, 0, int64(H))})
		x = norm(g.Op("Add", []string{dense(att, p+"attention.output.dense", H, H), x}), p+"attention.output.LayerNorm")
		h := g.Op("Gelu", []string{dense(x, p+"intermediate.dense", I, H)}, onnxg.Attr{Name: "approximate", Value: "none"})
		x = norm(g.Op("Add", []string{dense(h, p+"output.dense", H, I), x}), p+"output.LayerNorm")
	}
	if err != nil {
		return nil, err
	}
	g.Rename(x, "last_hidden_state")
	g.Output("last_hidden_state", onnx.TensorProto_FLOAT, "batch", "tokens", H)
	return g, nil
}

// ExportBert writes a Hugging Face BERT-family directory (infer/bertenc)
// as an ONNX encoder directory out (model.onnx, tokenizer.json) that
// LoadEncoder and --onnx-encoder read, atomically; an existing out is
// replaced only with overwrite and when strata made it. The ONNX encoder
// pools by the mean, so a model that pools by [CLS] is refused.
func ExportBert(modelDir, out string, overwrite bool) error {
	e, err := bertenc.Load(modelDir)
	if err != nil {
		return err
	}
	if e.Pooling != models.PoolMean {
		return fmt.Errorf("%s pools by %s; the ONNX encoder pools by the mean, so its vectors would differ (use the directory itself with --onnx-encoder)", modelDir, e.Pooling)
	}
	g, err := BertGraph(e.Model())
	if err != nil {
		return err
	}
	tok, err := os.ReadFile(filepath.Join(modelDir, "tokenizer.json"))
	if err != nil {
		return err
	}
	return atomicfile.WriteDir(out, overwrite, func(dir string) error {
		if err := g.Save(filepath.Join(dir, "model.onnx")); err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dir, "tokenizer.json"), tok, 0o644)
	})
}
