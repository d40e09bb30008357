package models

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

func tinyQwen3Config(tied bool) Qwen3Config {
	return Qwen3Config{VocabSize: 61, HiddenSize: 24, IntermediateSize: 40, NumLayers: 2, NumHeads: 4, NumKVHeads: 2,
		HeadDim: 8, RMSNormEps: 1e-6, RopeTheta: 10000, TieEmbeddings: tied, MaxPositions: 64}
}

// RandomQwen3Weights draws weights for cfg by Hugging Face name.
func randomQwen3Weights(cfg Qwen3Config, seed uint64) map[string][]float32 {
	r := rand.New(rand.NewPCG(seed, 1))
	w := map[string][]float32{}
	for _, ns := range Qwen3Shapes(cfg) {
		n := 1
		for _, d := range ns.Shape {
			n *= d
		}
		d := make([]float32, n)
		norm := strings.HasSuffix(ns.Name, "norm.weight")
		for i := range d {
			if norm {
				d[i] = float32(1 + 0.1*r.NormFloat64())
			} else {
				d[i] = float32(r.NormFloat64() * 0.2)
			}
		}
		w[ns.Name] = d
	}
	return w
}

func getter(cfg Qwen3Config, w map[string][]float32) func(string) ([]int, []float32, bool) {
	shapes := map[string][]int{}
	for _, ns := range Qwen3Shapes(cfg) {
		shapes[ns.Name] = ns.Shape
	}
	return func(n string) ([]int, []float32, bool) {
		d, ok := w[n]
		return shapes[n], d, ok
	}
}

// refQwen3 is an independent float64 Qwen3 forward (plain loops, no
// shared helpers) returning the logits of every position.
func refQwen3(c Qwen3Config, w map[string][]float32, ids []int) [][]float64 {
	H, hd, nh, nkv, I := c.HiddenSize, c.HeadDim, c.NumHeads, c.NumKVHeads, c.IntermediateSize
	T := len(ids)
	f := func(name string) []float64 {
		out := make([]float64, len(w[name]))
		for i, v := range w[name] {
			out[i] = float64(v)
		}
		return out
	}
	norm := func(x []float64, g []float64) []float64 {
		var ss float64
		for _, v := range x {
			ss += v * v
		}
		inv := 1 / math.Sqrt(ss/float64(len(x))+c.RMSNormEps)
		out := make([]float64, len(x))
		for i := range x {
			out[i] = x[i] * inv * g[i]
		}
		return out
	}
	mat := func(W []float64, x []float64, out int) []float64 {
		y := make([]float64, out)
		for o := range out {
			for i := range x {
				y[o] += W[o*len(x)+i] * x[i]
			}
		}
		return y
	}
	ropeV := func(v []float64, pos int) []float64 {
		out := make([]float64, hd)
		half := hd / 2
		for i := range half {
			ang := float64(pos) * math.Pow(c.RopeTheta, -float64(2*i)/float64(hd))
			out[i] = v[i]*math.Cos(ang) - v[i+half]*math.Sin(ang)
			out[i+half] = v[i+half]*math.Cos(ang) + v[i]*math.Sin(ang)
		}
		return out
	}
	emb := f("model.embed_tokens.weight")
	x := make([][]float64, T)
	for t, id := range ids {
		x[t] = append([]float64(nil), emb[id*H:(id+1)*H]...)
	}
	for l := range c.NumLayers {
		p := "model.layers." + string(rune('0'+l)) + "."
		Q, K, V, O := f(p+"self_attn.q_proj.weight"), f(p+"self_attn.k_proj.weight"), f(p+"self_attn.v_proj.weight"), f(p+"self_attn.o_proj.weight")
		qn, kn := f(p+"self_attn.q_norm.weight"), f(p+"self_attn.k_norm.weight")
		qs, ks, vs := make([][][]float64, T), make([][][]float64, T), make([][][]float64, T)
		for t := range T {
			h := norm(x[t], f(p+"input_layernorm.weight"))
			q, k, v := mat(Q, h, nh*hd), mat(K, h, nkv*hd), mat(V, h, nkv*hd)
			for a := range nh {
				qs[t] = append(qs[t], ropeV(norm(q[a*hd:(a+1)*hd], qn), t))
			}
			for a := range nkv {
				ks[t] = append(ks[t], ropeV(norm(k[a*hd:(a+1)*hd], kn), t))
				vs[t] = append(vs[t], v[a*hd:(a+1)*hd])
			}
		}
		for t := range T {
			att := make([]float64, nh*hd)
			for a := range nh {
				kv := a / (nh / nkv)
				sc := make([]float64, t+1)
				mx := math.Inf(-1)
				for s := 0; s <= t; s++ {
					for i := range hd {
						sc[s] += qs[t][a][i] * ks[s][kv][i]
					}
					sc[s] /= math.Sqrt(float64(hd))
					mx = math.Max(mx, sc[s])
				}
				var z float64
				for s := range sc {
					sc[s] = math.Exp(sc[s] - mx)
					z += sc[s]
				}
				for s := range sc {
					for i := range hd {
						att[a*hd+i] += sc[s] / z * vs[s][kv][i]
					}
				}
			}
			o := mat(O, att, H)
			for i := range H {
				x[t][i] += o[i]
			}
			h := norm(x[t], f(p+"post_attention_layernorm.weight"))
			g, u := mat(f(p+"mlp.gate_proj.weight"), h, I), mat(f(p+"mlp.up_proj.weight"), h, I)
			for i := range g {
				g[i] = g[i] / (1 + math.Exp(-g[i])) * u[i]
			}
			d := mat(f(p+"mlp.down_proj.weight"), g, H)
			for i := range H {
				x[t][i] += d[i]
			}
		}
	}
	head := emb
	if !c.TieEmbeddings {
		head = f("lm_head.weight")
	}
	out := make([][]float64, T)
	for t := range T {
		out[t] = mat(head, norm(x[t], f("model.norm.weight")), c.VocabSize)
	}
	return out
}

func TestQwen3ForwardAgainstReference(t *testing.T) {
	for _, tied := range []bool{true, false} {
		cfg := tinyQwen3Config(tied)
		w := randomQwen3Weights(cfg, 3)
		m, err := NewQwen3(cfg, getter(cfg, w))
		if err != nil {
			t.Fatal(err)
		}
		ids := []int{5, 17, 60, 0, 33, 33, 8, 41, 2}
		ref := refQwen3(cfg, w, ids)
		rows := make([]int, cfg.VocabSize)
		for i := range rows {
			rows[i] = i
		}
		for T := 1; T <= len(ids); T++ {
			got, err := m.Logits(ids[:T], rows)
			if err != nil {
				t.Fatal(err)
			}
			for j, v := range got {
				if d := math.Abs(float64(v) - ref[T-1][j]); d > 1e-4*math.Max(1, math.Abs(ref[T-1][j])) {
					t.Fatalf("tied=%v position %d logit %d: %v, reference %v", tied, T-1, j, v, ref[T-1][j])
				}
			}
		}
		s, _ := m.RerankScore(ids, 7, 9)
		want := 1 / (1 + math.Exp(ref[len(ids)-1][9]-ref[len(ids)-1][7]))
		if math.Abs(float64(s)-want) > 1e-5 {
			t.Errorf("rerank score %v, reference %v", s, want)
		}
	}
}

func TestQwen3Errors(t *testing.T) {
	cfg := tinyQwen3Config(true)
	w := randomQwen3Weights(cfg, 1)
	delete(w, "model.layers.1.self_attn.k_norm.weight")
	if _, err := NewQwen3(cfg, getter(cfg, w)); err == nil || !strings.Contains(err.Error(), "model.layers.1.self_attn.k_norm.weight is missing") {
		t.Errorf("missing tensor: %v", err)
	}
	w = randomQwen3Weights(cfg, 1)
	bad := func(n string) ([]int, []float32, bool) {
		s, d, ok := getter(cfg, w)(n)
		if n == "model.layers.0.mlp.up_proj.weight" {
			s = []int{s[1], s[0]}
		}
		return s, d, ok
	}
	if _, err := NewQwen3(cfg, bad); err == nil || !strings.Contains(err.Error(), "mlp.up_proj.weight has shape [24 40]") {
		t.Errorf("misshapen tensor: %v", err)
	}
	cfg.NumKVHeads = 3
	if err := cfg.Validate(); err == nil {
		t.Error("4 heads over 3 kv heads accepted")
	}
}
