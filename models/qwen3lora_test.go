package models

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
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

// A token id outside the base vocabulary (a tokenizer larger than the
// model) is an error naming the id and where it is, not an index panic.
func TestLoRATokenOutsideVocabulary(t *testing.T) {
	l := tinyLoRA(t)
	v := l.Base.Cfg.VocabSize
	const yes, no = 7, 9
	if err := l.CheckGroups(tinyGroups(), yes, no); err != nil {
		t.Fatalf("valid groups: %v", err)
	}
	z, err := l.LogOdds([]int{1, 2, 3}, yes, no)
	if err != nil || z != l.YesNo([]int{1, 2, 3}, yes, no) {
		t.Errorf("LogOdds = %v, %v; YesNo = %v", z, err, l.YesNo([]int{1, 2, 3}, yes, no))
	}
	for _, tc := range []struct {
		ids     []int
		yes, no int
		want    string
	}{
		{[]int{1, v, 3}, yes, no, fmt.Sprintf("token 1 of 3 has id %d, outside the vocabulary of %d", v, v)},
		{[]int{-1}, yes, no, "token 0 of 1 has id -1"},
		{[]int{1}, v + 5, no, fmt.Sprintf("the yes token has id %d", v+5)},
		{[]int{1}, yes, -2, "the no token has id -2"},
		{nil, yes, no, "empty token sequence"},
	} {
		if _, err := l.LogOdds(tc.ids, tc.yes, tc.no); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("LogOdds(%v, %d, %d) = %v, want %q", tc.ids, tc.yes, tc.no, err, tc.want)
		}
	}
	groups := tinyGroups()
	groups[1].Seqs[1] = []int{15, v + 100}
	if err := l.CheckGroups(groups, yes, no); err == nil || !strings.Contains(err.Error(), "group 1, sequence 1") || !strings.Contains(err.Error(), fmt.Sprint(v+100)) {
		t.Errorf("CheckGroups: %v", err)
	}
	groups = tinyGroups()
	groups[0].Positive = 3
	if err := l.CheckGroups(groups, yes, no); err == nil || !strings.Contains(err.Error(), "group 0: positive 3 of 3") {
		t.Errorf("CheckGroups positive: %v", err)
	}
}
