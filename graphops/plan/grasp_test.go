package plan

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/data/synth"
	"github.com/strata-retrieval/strata/graphops"
	"github.com/strata-retrieval/strata/internal/testskb"
)

// graspPapers is testskb.Papers' graph.
func graspPapers(t testing.TB) *graphops.Graph {
	t.Helper()
	g, err := graphops.Build(testskb.Papers())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { g.Close() })
	return g
}

// grasp executes a GRASP plan through the algebra as infer/grasp does:
// its target nodes with their scores.
func grasp(g *graphops.Graph, p *data.GraspPlan, anchors map[string][]Binding) (map[uint32]float32, error) {
	e, err := CompileGrasp(g.Schema(), p, anchors)
	if err != nil {
		return nil, err
	}
	set, err := Exec(Env{Graph: g}, e)
	if err != nil {
		return nil, err
	}
	nodes, scores := GraspTargets(g, set, p.Target.Labels)
	out := make(map[uint32]float32, len(nodes))
	for i, v := range nodes {
		out[v] = scores[i]
	}
	return out, nil
}

// TestCompileGrasp: GRASP's semantics, scores worked out by hand.
func TestCompileGrasp(t *testing.T) {
	g := graspPapers(t)
	p := &data.GraspPlan{
		Anchors: []data.GraspAnchor{{Var: "a", Label: "author"}, {Var: "b", Label: "author"}},
		Hops: []data.GraspHop{
			{From: "a", Rel: "writes", ToVar: "t", ToLabel: "paper"},
			{From: "b", Rel: "writes", ToVar: "t", ToLabel: "paper"},
		},
		Target: data.GraspTarget{Var: "t", Labels: []string{"paper"}},
	}
	// Both anchors bind Ann (0.9) and Bob (0.6, 0.8 for a); the target must
	// be written by an a-author and a b-author. P1: best a-path Ann 0.9 +
	// b-path Bob 0.6 = 1.5; P0 has no b-author.
	got, err := grasp(g, p, map[string][]Binding{"a": {{3, 0.9}, {4, 0.8}}, "b": {{4, 0.6}}})
	if err != nil || !cmp.Equal(got, map[uint32]float32{1: 1.5}) {
		t.Errorf("conjunction: %v %v", got, err)
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
	if got, err := grasp(g, p2, map[string][]Binding{"a": {{3, 0.9}, {4, 0.7}}}); err != nil || !cmp.Equal(got, map[uint32]float32{0: 0.9, 1: 0.9}) {
		t.Errorf("chain: %v %v", got, err)
	}
	// A universal step: the authors of every bound paper. P2 has no author
	// and does not count; Ann wrote P0 and P1, Bob only P1. Ann keeps the
	// best member's score.
	p3 := &data.GraspPlan{
		Anchors: []data.GraspAnchor{{Var: "p", Label: "paper"}},
		Hops:    []data.GraspHop{{From: "p", Rel: "∀<-writes", ToVar: "t", ToLabel: "author"}},
		Target:  data.GraspTarget{Var: "t"},
	}
	bound := map[string][]Binding{"p": {{0, 0.5}, {1, 0.7}, {2, 0.9}}}
	if got, err := grasp(g, p3, bound); err != nil || !cmp.Equal(got, map[uint32]float32{3: 0.7}) {
		t.Errorf("universal: %v %v", got, err)
	}
	p3.Hops[0].Rel = "<-writes"
	if got, _ := grasp(g, p3, bound); !cmp.Equal(got, map[uint32]float32{3: 0.7, 4: 0.7}) {
		t.Errorf("existential: %v", got)
	}
	// Directions: Ann's papers are along writes, none against it.
	p3.Anchors[0] = data.GraspAnchor{Var: "p", Label: "author"}
	p3.Hops[0] = data.GraspHop{From: "p", Rel: "->writes", ToVar: "t", ToLabel: "*"}
	if got, _ := grasp(g, p3, map[string][]Binding{"p": {{3, 0.25}}}); !cmp.Equal(got, map[uint32]float32{0: 0.25, 1: 0.25}) {
		t.Errorf("->writes from Ann: %v", got)
	}
	p3.Hops[0].Rel = "<-writes"
	if got, _ := grasp(g, p3, map[string][]Binding{"p": {{3, 0.25}}}); len(got) != 0 {
		t.Errorf("<-writes from Ann reached %v", got)
	}
	// An anchor bound to nothing reaches nothing; an unbound source fails.
	if got, err := grasp(g, p2, nil); err != nil || len(got) != 0 {
		t.Errorf("no bindings: %v %v", got, err)
	}
	p2.Hops[1].From = "x"
	if _, err := grasp(g, p2, nil); err == nil {
		t.Error("a hop from an unbound variable compiled")
	}
}

// TestCompileGraspMatchesReference: on random GRASP plans over a generated
// graph (chains, meeting paths, universal, directed, alternative and "*"
// relations, typed and untyped labels, repeated bindings), the algebra
// returns exactly the nodes and scores, bit for bit, of the executor it
// replaced (referenceGrasp).
func TestCompileGraspMatchesReference(t *testing.T) {
	res, err := synth.Generate(synth.Config{Preset: "mag", Nodes: 600, Queries: 1, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	g, err := graphops.Build(res.SKB)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	s := g.Schema()
	r := rand.New(rand.NewPCG(7, 11))
	label := func() string {
		if r.IntN(3) == 0 {
			return data.AnyType
		}
		return s.NodeTypes[r.IntN(len(s.NodeTypes))]
	}
	rel := func() string {
		switch r.IntN(6) {
		case 0:
			return data.AnyType
		case 1:
			return s.RelationTypes[r.IntN(len(s.RelationTypes))] + "|" + s.RelationTypes[r.IntN(len(s.RelationTypes))]
		}
		tok := s.RelationTypes[r.IntN(len(s.RelationTypes))]
		switch r.IntN(4) {
		case 0:
			tok = "->" + tok
		case 1:
			tok = "<-" + tok
		case 2:
			tok = "∀->" + tok
		}
		return tok
	}
	nonEmpty := 0
	for trial := range 2000 {
		p := &data.GraspPlan{RiskLevel: data.RiskNormal}
		anchors := map[string][]Binding{}
		vars := []string{}
		for a := range 1 + r.IntN(2) {
			v := string(rune('a' + a))
			p.Anchors = append(p.Anchors, data.GraspAnchor{Var: v, Label: label()})
			for range r.IntN(16) {
				anchors[v] = append(anchors[v], Binding{Node: uint32(r.IntN(g.NumNodes())), Cos: float32(r.IntN(1000)) / 997})
			}
			vars = append(vars, v)
		}
		for range 1 + r.IntN(4) {
			to := "t" + string(rune('0'+r.IntN(3)))
			p.Hops = append(p.Hops, data.GraspHop{From: vars[r.IntN(len(vars))], Rel: rel(), ToVar: to, ToLabel: label()})
			vars = append(vars, to)
		}
		p.Target = data.GraspTarget{Var: vars[len(vars)-1]}
		for range r.IntN(3) {
			p.Target.Labels = append(p.Target.Labels, label())
		}
		want, werr := referenceGrasp(g, p, anchors)
		got, gerr := grasp(g, p, anchors)
		if (werr != nil) != (gerr != nil) {
			t.Fatalf("trial %d: %+v: error %v, reference %v", trial, p, gerr, werr)
		}
		if len(want) == 0 && len(got) == 0 {
			continue
		}
		nonEmpty++
		if len(got) != len(want) {
			t.Fatalf("trial %d: %+v: %d nodes, reference %d", trial, p, len(got), len(want))
		}
		for v, w := range want {
			if x, ok := got[v]; !ok || math.Float32bits(x) != math.Float32bits(w) {
				t.Fatalf("trial %d: %+v: node %d scores %v (present %v), reference %v", trial, p, v, x, ok, w)
			}
		}
	}
	if nonEmpty < 300 {
		t.Errorf("only %d of 2000 random plans reached anything", nonEmpty)
	}
}
