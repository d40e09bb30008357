package graphops

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-retrieval/strata/data"
)

func TestExecuteGrasp(t *testing.T) {
	g, err := Build(smallSKB()) // Ann(3) writes P0, P1; Bob(4) writes P1; P0 <-> P1 cite; P2 cites P2
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	p := &data.GraspPlan{
		Anchors: []data.GraspAnchor{{Var: "a", Label: "author"}, {Var: "b", Label: "author"}},
		Hops: []data.GraspHop{
			{From: "a", Rel: "writes", ToVar: "t", ToLabel: "paper"},
			{From: "b", Rel: "writes", ToVar: "t", ToLabel: "paper"},
		},
		Target: data.GraspTarget{Var: "t", Labels: []string{"paper"}},
	}
	// Both anchors bind Ann (0.9) and Bob (0.6, 0.8 for a); the target must
	// be written by an a-author and a b-author.
	got, err := ExecuteGrasp(g, p, map[string][]GraspBinding{
		"a": {{3, 0.9}, {4, 0.8}},
		"b": {{4, 0.6}},
	})
	if err != nil {
		t.Fatal(err)
	}
	// P1: best a-path Ann 0.9 + b-path Bob 0.6 = 1.5; P0 has no b-author.
	if !cmp.Equal(got, map[uint32]float32{1: 1.5}) {
		t.Errorf("conjunction: %v", got)
	}
	// One chain, then a citation hop: Ann's papers (0.9) and what they cite.
	p2 := &data.GraspPlan{
		Anchors: []data.GraspAnchor{{Var: "a", Label: "author"}},
		Hops: []data.GraspHop{
			{From: "a", Rel: "writes", ToVar: "p", ToLabel: "paper"},
			{From: "p", Rel: "cites", ToVar: "t", ToLabel: "paper"},
		},
		Target: data.GraspTarget{Var: "t"},
	}
	got, _ = ExecuteGrasp(g, p2, map[string][]GraspBinding{"a": {{3, 0.9}, {4, 0.7}}})
	if !cmp.Equal(got, map[uint32]float32{0: 0.9, 1: 0.9}) {
		t.Errorf("chain: %v", got)
	}
	// A universal step: the authors of every bound paper. P2 has no author
	// and does not count; Ann wrote P0 and P1, Bob only P1. Ann keeps the
	// best member's score.
	p3 := &data.GraspPlan{
		Anchors: []data.GraspAnchor{{Var: "p", Label: "paper"}},
		Hops:    []data.GraspHop{{From: "p", Rel: "∀<-writes", ToVar: "t", ToLabel: "author"}},
		Target:  data.GraspTarget{Var: "t"},
	}
	papers := map[string][]GraspBinding{"p": {{0, 0.5}, {1, 0.7}, {2, 0.9}}}
	if got, err := ExecuteGrasp(g, p3, papers); err != nil || !cmp.Equal(got, map[uint32]float32{3: 0.7}) {
		t.Errorf("universal: %v %v", got, err)
	}
	p3.Hops[0].Rel = "<-writes"
	if got, _ := ExecuteGrasp(g, p3, papers); !cmp.Equal(got, map[uint32]float32{3: 0.7, 4: 0.7}) {
		t.Errorf("existential: %v", got)
	}
}
