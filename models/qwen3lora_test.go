package models

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/nlpodyssey/spago/mat"
)

func tinyLoRA(t *testing.T) *LoRA {
	cfg := tinyQwen3Config(true)
	cfg.NumLayers = 2
	m, err := NewQwen3(cfg, getter(cfg, randomQwen3Weights(cfg, 4)))
	if err != nil {
		t.Fatal(err)
	}
	l, err := NewLoRA(m, LoRAConfig{Rank: 2, Alpha: 4}, rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func tinyGroups() []ListwiseGroup {
	return []ListwiseGroup{
		{Seqs: [][]int{{1, 2, 3, 4}, {5, 6, 7}, {8, 9, 10, 11, 12}}, Positive: 1},
		{Seqs: [][]int{{13, 14}, {15, 16, 17, 18}}, Positive: 0},
	}
}

// TestLoRAGradients checks every adapter gradient of the listwise loss
// against central differences (B set non-zero so A's gradients are too).
func TestLoRAGradients(t *testing.T) {
	l := tinyLoRA(t)
	r := rand.New(rand.NewPCG(9, 9))
	for _, p := range l.Params() {
		for i, d := 0, p.Data(); i < len(d); i++ {
			if d[i] == 0 {
				d[i] = float32(r.NormFloat64() * 0.3)
			}
		}
	}
	groups := tinyGroups()
	const yes, no = 7, 9
	op := &loraListwise{l: l, groups: groups, yes: yes, no: no}
	if _, err := op.Forward(); err != nil {
		t.Fatal(err)
	}
	if err := op.Backward(mat.Scalar(float32(1))); err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, p := range l.Params() {
		an := mat.Data[float32](p.Param.Grad())
		d := p.Data()
		for i := 0; i < len(d); i += 7 { // a spread of entries of every adapter
			orig := d[i]
			const eps = 1e-2
			d[i] = orig + eps
			up, _ := l.ListwiseLoss(groups, yes, no)
			d[i] = orig - eps
			down, _ := l.ListwiseLoss(groups, yes, no)
			d[i] = orig
			fd := (up - down) / (2 * eps)
			if math.Abs(fd-float64(an[i])) > 2e-3+2e-2*math.Abs(fd) {
				t.Errorf("%s[%d]: analytic %.6g, finite difference %.6g", p.Name, i, an[i], fd)
			}
			checked++
		}
		p.Param.ZeroGrad()
	}
	if checked < 100 {
		t.Fatalf("checked %d entries", checked)
	}
}

// TestLoRAMerge checks that folding the adapters into the base gives the
// same log-odds as running base plus adapters.
func TestLoRAMerge(t *testing.T) {
	l := tinyLoRA(t)
	r := rand.New(rand.NewPCG(3, 3))
	for _, p := range l.Params() {
		for i, d := 0, p.Data(); i < len(d); i++ {
			d[i] += float32(r.NormFloat64() * 0.2)
		}
	}
	merged := l.Merge()
	ids := []int{4, 8, 15, 16, 23, 42}
	lm, _ := merged.Logits(ids, []int{9, 7})
	z := l.YesNo(ids, 7, 9)
	if d := math.Abs(float64(lm[1]-lm[0]) - float64(z)); d > 1e-4 {
		t.Errorf("merged log-odds %v, adapted %v", lm[1]-lm[0], z)
	}
	// The base is untouched.
	bz, _ := l.Base.Logits(ids, []int{9, 7})
	if bz[1]-bz[0] == lm[1]-lm[0] {
		t.Error("merging changed nothing")
	}
}
