package planner

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/strata-retrieval/strata/models"
)

// TestMembersAverage: the classifier's probabilities are the mean of its
// members' (Config.Members), worked out by hand on two gates of one
// hidden unit whose own choices disagree.
func TestMembersAverage(t *testing.T) {
	cfg := models.GateConfig{In: 2, Hidden: 1, Out: 2}
	gate := func(prefix string, w1, w2 []float32) *models.Gate {
		g, err := models.NewGate(cfg, prefix, rand.New(rand.NewPCG(1, 2)))
		if err != nil {
			t.Fatal(err)
		}
		copy(g.W1.Data(), w1)
		copy(g.W2.Data(), w2)
		return g
	}
	// x = (2, 1). Member 0: h = relu(2 - 1) = 1, logits (1, 0), softmax
	// (e/(e+1), 1/(e+1)) = (0.7311, 0.2689). Member 1: h = relu(1) = 1,
	// logits (0, 2), softmax (1/(1+e²), e²/(1+e²)) = (0.1192, 0.8808).
	a := gate(MemberPrefix(0), []float32{1, -1}, []float32{1, 0})
	b := gate(MemberPrefix(1), []float32{0, 1}, []float32{0, 2})
	x := []float32{2, 1}
	e, e2 := math.E, math.Exp(2)
	one := []float64{e / (e + 1), 1 / (e + 1)}
	want := []float64{(e/(e+1) + 1/(1+e2)) / 2, (1/(e+1) + e2/(1+e2)) / 2}
	check := func(name string, got []float32, want []float64) {
		t.Helper()
		if len(got) != len(want) {
			t.Fatalf("%s: %d probabilities, want %d", name, len(got), len(want))
		}
		for i := range want {
			if math.Abs(float64(got[i])-want[i]) > 1e-6 {
				t.Errorf("%s: probabilities %v, want %v", name, got, want)
				return
			}
		}
	}
	check("one member", (&Classifier{Gate: a}).Probs(x), one)
	c := &Classifier{Gate: a, More: []*models.Gate{b}}
	check("two members", c.Probs(x), want)
	// The first member alone picks template 0, the two together 1.
	if p := c.Probs(x); p[1] <= p[0] {
		t.Errorf("two members %v: want template 1 first", p)
	}
	if ps := c.Params(); len(ps) != 8 || ps[0].Name != "planner.w1" || ps[4].Name != "planner.m1.w1" || ps[7].Name != "planner.m1.b2" {
		t.Errorf("params %d, names %q, %q: want both members' four, member by member", len(ps), ps[0].Name, ps[4].Name)
	}
}

// TestNewGates: the first member is the gate a planner without members
// draws (PCG(seed, 0x91), "planner"), so a checkpoint of one member reads
// as before; the others draw their own weights and names.
func TestNewGates(t *testing.T) {
	cfg := Config{Gate: models.GateConfig{In: 5, Hidden: 3, Out: 4}, Members: 3}
	first, more, err := NewGates(cfg, 7)
	if err != nil {
		t.Fatal(err)
	}
	old, err := models.NewGate(cfg.Gate, "planner", rand.New(rand.NewPCG(7, 0x91)))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(first.W1.Data(), old.W1.Data()) || !slices.Equal(first.W2.Data(), old.W2.Data()) || first.W1.Name != "planner.w1" {
		t.Errorf("first member %q differs from the gate without members", first.W1.Name)
	}
	if len(more) != 2 {
		t.Fatalf("%d more members, want 2", len(more))
	}
	for k, g := range more {
		if want := MemberPrefix(k+1) + ".w1"; g.W1.Name != want {
			t.Errorf("member %d named %q, want %q", k+1, g.W1.Name, want)
		}
		if slices.Equal(g.W1.Data(), first.W1.Data()) {
			t.Errorf("member %d drew the first member's weights", k+1)
		}
	}
	if slices.Equal(more[0].W1.Data(), more[1].W1.Data()) {
		t.Error("members 1 and 2 drew the same weights")
	}
	for _, m := range []int{0, 1} {
		cfg.Members = m
		if _, more, err := NewGates(cfg, 7); err != nil || len(more) != 0 {
			t.Errorf("members %d: %d more gates (%v), want none", m, len(more), err)
		}
	}
}
