package models

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/nlpodyssey/spago/mat"
)

// TestKVCacheAgainstReference feeds a sequence to the KV cache in pieces
// (a prompt, one token, the rest) and checks every position's logits
// against the independent float64 forward of the whole sequence.
func TestKVCacheAgainstReference(t *testing.T) {
	cfg := tinyQwen3Config(false)
	w := randomQwen3Weights(cfg, 5)
	m, err := NewQwen3(cfg, getter(cfg, w))
	if err != nil {
		t.Fatal(err)
	}
	ids := []int{3, 14, 15, 9, 26, 53, 58, 9, 7, 9, 32}
	ref := refQwen3(cfg, w, ids)
	c := m.NewKVCache(2) // grows past its capacity
	H := cfg.HiddenSize
	pos := 0
	for _, n := range []int{4, 1, len(ids) - 5} {
		x, err := c.Append(ids[pos : pos+n])
		if err != nil {
			t.Fatal(err)
		}
		for t0 := range n {
			for v := range cfg.VocabSize {
				var s float64
				for i := range H {
					s += float64(m.LMHead[v*H+i]) * float64(x[t0*H+i])
				}
				if want := ref[pos+t0][v]; math.Abs(s-want) > 1e-4*math.Max(1, math.Abs(want)) {
					t.Fatalf("position %d logit %d: %v, reference %v", pos+t0, v, s, want)
				}
			}
		}
		pos += n
	}
	if c.Len() != len(ids) {
		t.Errorf("cache holds %d positions, want %d", c.Len(), len(ids))
	}
	if _, err := c.Append([]int{cfg.VocabSize}); err == nil {
		t.Error("a token outside the vocabulary was accepted")
	}
}

// TestGenerateGreedy checks each generated token is the arg-max of the
// reference logits of the prompt plus the tokens before it, and that a
// stop token ends generation.
func TestGenerateGreedy(t *testing.T) {
	cfg := tinyQwen3Config(true)
	w := randomQwen3Weights(cfg, 6)
	m, err := NewQwen3(cfg, getter(cfg, w))
	if err != nil {
		t.Fatal(err)
	}
	prompt := []int{1, 2, 3, 5, 8}
	got, err := m.Generate(prompt, 6)
	if err != nil || len(got) != 6 {
		t.Fatalf("Generate = %v, %v", got, err)
	}
	seq := append([]int(nil), prompt...)
	for i, tok := range got {
		ref := refQwen3(cfg, w, seq)
		last := ref[len(seq)-1]
		best := 0
		for v := range last {
			if last[v] > last[best] {
				best = v
			}
		}
		if tok != best {
			t.Fatalf("token %d: generated %d, reference arg-max %d (%v vs %v)", i, tok, best, last[tok], last[best])
		}
		seq = append(seq, tok)
	}
	stopped, _ := m.Generate(prompt, 6, got[2])
	if len(stopped) != 3 || stopped[2] != got[2] {
		t.Errorf("stopping at %d: %v", got[2], stopped)
	}
}

// loraGrads runs one listwise forward and backward on Threads threads and
// returns every adapter gradient, in Params order.
func loraGradsWith(t *testing.T, threads int) [][]float32 {
	l := tinyLoRA(t)
	l.Cfg.Threads = threads
	r := rand.New(rand.NewPCG(9, 9))
	for _, p := range l.Params() {
		for i, d := 0, p.Data(); i < len(d); i++ {
			d[i] += float32(r.NormFloat64() * 0.3)
		}
	}
	groups := append(tinyGroups(), ListwiseGroup{Seqs: [][]int{{20, 21, 22}, {23}, {24, 25, 26, 27, 28, 29}}, Positive: 2})
	op := &loraListwise{l: l, groups: groups, yes: 7, no: 9}
	if _, err := op.Forward(); err != nil {
		t.Fatal(err)
	}
	if err := op.Backward(mat.Scalar(float32(1))); err != nil {
		t.Fatal(err)
	}
	var out [][]float32
	for _, p := range l.Params() {
		out = append(out, append([]float32(nil), mat.Data[float32](p.Param.Grad())...))
	}
	return out
}

// TestLoRAGradientsDeterministic runs the same step twice per thread
// count: the gradients are bit-identical; across thread counts they
// differ only by rounding.
func TestLoRAGradientsDeterministic(t *testing.T) {
	base := loraGradsWith(t, 1)
	for _, threads := range []int{1, 2, 3, 8} {
		a, b := loraGradsWith(t, threads), loraGradsWith(t, threads)
		for pi := range a {
			for i := range a[pi] {
				if math.Float32bits(a[pi][i]) != math.Float32bits(b[pi][i]) {
					t.Fatalf("threads=%d: param %d[%d] is %v then %v", threads, pi, i, a[pi][i], b[pi][i])
				}
				if d := math.Abs(float64(a[pi][i] - base[pi][i])); d > 1e-5*math.Max(1, math.Abs(float64(base[pi][i]))) {
					t.Fatalf("threads=%d: param %d[%d] is %v, %v on one thread", threads, pi, i, a[pi][i], base[pi][i])
				}
			}
		}
	}
}
