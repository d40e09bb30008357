package models

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// The Shapes functions list exactly the parameters the constructors
// allocate, in Params order.
func TestShapesMatchParams(t *testing.T) {
	shapesOf := func(ps []NamedParam) string {
		var b strings.Builder
		for _, p := range ps {
			fmt.Fprintf(&b, "%s%v ", p.Name, p.Shape)
		}
		return b.String()
	}
	named := func(ns []NamedShape) string {
		var b strings.Builder
		for _, s := range ns {
			fmt.Fprintf(&b, "%s%v ", s.Name, s.Shape)
		}
		return b.String()
	}
	r := rand.New(rand.NewPCG(1, 2))
	g, _ := NewGate(GateConfig{In: 7, Hidden: 5, Out: 3}, "planner", r)
	tr, _ := NewTrajectoryReranker(TrajectoryConfig{NodeTypes: 4, UseTF: true}, r)
	sp, _ := NewSparseLinear(11, "planner.anchor")
	cfg := tinyQwen3Config(true)
	base, err := NewQwen3(cfg, getter(cfg, randomQwen3Weights(cfg, 1)))
	if err != nil {
		t.Fatal(err)
	}
	l, _ := NewLoRA(base, LoRAConfig{Rank: 3, Alpha: 6}, r)
	fw, _ := NewFieldWeights(FieldWeightsConfig{QueryDim: 6, Pairs: []string{"a/bm25", "a/dense"}})
	ecfg := EncoderConfig{Buckets: 9, EmbDim: 4, OutDim: 5}
	enc, _ := NewEncoder(ecfg, nil)
	for _, c := range []struct {
		name       string
		got, want  string
		wantPrefix string
	}{
		{"gate", named(GateShapes(GateConfig{In: 7, Hidden: 5, Out: 3}, "planner")), shapesOf(g.Params()), "planner.w1[5 7] planner.b1[5] planner.w2[3 5] planner.b2[3] "},
		{"trajectory", named(TrajectoryShapes(TrajectoryConfig{NodeTypes: 4})), shapesOf(tr.Params()), "mor.tf.w[256 4] mor.tf.b[256] mor.sf.emb[15 256] "},
		{"sparse", named(SparseLinearShapes(11, "planner.anchor")), shapesOf(sp.Params()), "planner.anchor[11] "},
		{"lora", named(LoRAShapes(base, LoRAConfig{Rank: 3})), shapesOf(l.Params()), "lora.0.q.A[3 24] lora.0.q.B[32 3] lora.0.k.A[3 24] lora.0.k.B[16 3] "},
		{"field weights", named(FieldWeightsShapes(fw.Cfg)), shapesOf(fw.Params()), "mfar.w[6 2] "},
		{"encoder", named(EncoderShapes(ecfg)), shapesOf(enc.Params()), "encoder.emb[9 4] encoder.proj[5 4] encoder.weight[9] "},
	} {
		if c.got != c.want || !strings.HasPrefix(c.got, c.wantPrefix) {
			t.Errorf("%s: shapes %s\nparams %s\nwant prefix %s", c.name, c.got, c.want, c.wantPrefix)
		}
	}
}

// A config whose sizes do not match the checkpoint's tensors is an error
// before anything of its size is allocated (these would ask for terabytes).
func TestAbsurdConfigsAreRefusedBeforeAllocating(t *testing.T) {
	cfg := tinyQwen3Config(true)
	w := randomQwen3Weights(cfg, 1)
	get := getter(cfg, w)
	for _, c := range []struct {
		mod  func(*Qwen3Config)
		want string
	}{
		{func(c *Qwen3Config) { c.NumLayers = 1 << 30 }, "models: Qwen3: the config has 1073741824 layers, the checkpoint's model.layers.N.input_layernorm.weight tensors do not end at N = 1073741823"},
		{func(c *Qwen3Config) { c.NumLayers = 1 }, "the config has 1 layers"},
		{func(c *Qwen3Config) { c.VocabSize = 1 << 30 }, `models: Qwen3: models: tensor "model.embed_tokens.weight" has shape [61 24], the config implies [1073741824 24]`},
		{func(c *Qwen3Config) { c.IntermediateSize = 1 << 30 }, "models: Qwen3: tensor model.layers.0.mlp.gate_proj.weight has shape [40 24], the config implies [1073741824 24]"},
	} {
		bad := cfg
		c.mod(&bad)
		if _, err := NewQwen3(bad, get); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v\nwant %s", bad, err, c.want)
		}
	}
	base, err := NewQwen3(cfg, get)
	if err != nil {
		t.Fatal(err)
	}
	l, _ := NewLoRA(base, LoRAConfig{Rank: 3, Alpha: 6}, nil)
	tensors := map[string]NamedParam{}
	for _, p := range l.Params() {
		tensors[p.Name] = p
	}
	loraGet := func(n string) ([]int, []float32, bool) {
		p, ok := tensors[n]
		if !ok {
			return nil, nil, false
		}
		return p.Shape, p.Data(), true
	}
	if err := CheckShapes(LoRAShapes(base, LoRAConfig{Rank: 1 << 30}), loraGet); err == nil || err.Error() != `models: tensor "lora.0.q.A" has shape [3 24], the config implies [1073741824 24]` {
		t.Errorf("LoRA rank 2^30: %v", err)
	}
	if err := CheckShapes(LoRAShapes(base, LoRAConfig{Rank: 3}), loraGet); err != nil {
		t.Errorf("LoRA rank 3: %v", err)
	}
	if err := CheckShapes(GateShapes(GateConfig{In: 1 << 30, Hidden: 1 << 30, Out: 2}, "g"), loraGet); err == nil || err.Error() != `models: checkpoint lacks tensor "g.w1"` {
		t.Errorf("gate: %v", err)
	}
}
