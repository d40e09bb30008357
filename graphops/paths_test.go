package graphops_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/graphops"
	"github.com/strata-retrieval/strata/internal/testskb"
)

func TestDirectedSteps(t *testing.T) {
	s := testskb.Taxonomy()
	g, err := graphops.Build(s)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	reach := func(path []string, anchor uint32) []uint32 {
		t.Helper()
		_, hops, err := graphops.CompilePath(&s.Schema, 0, data.MustPaths(path)[0])
		if err != nil {
			t.Fatalf("%v: %v", path, err)
		}
		return g.Walk([]uint32{anchor}, hops)
	}
	for _, c := range []struct {
		path   []string
		anchor uint32
		want   []uint32
	}{
		{[]string{"plant", "<-hypernym", "*"}, 0, []uint32{1, 2, 3, 10}},                        // kinds of fern
		{[]string{"plant", "->hypernym", "*"}, 0, nil},                                          // fern has no parent
		{[]string{"plant", "hypernym", "*"}, 5, []uint32{6}},                                    // undirected: shield fern's parent
		{[]string{"plant", "->hypernym", "plant", "<-hypernym", "*"}, 1, []uint32{1, 2, 3, 10}}, // siblings and itself
		{[]string{"plant", "<-hypernym", "*", "<-hypernym", "*"}, 0, []uint32{12}},              // two levels below fern
		{[]string{"plant", "<-hypernym", "*", "<-hypernym", "act"}, 0, nil},                     // typed target
		{[]string{"group", "<-member holonym|->hypernym", "*"}, 4, []uint32{1, 5}},              // alternatives
		{[]string{"plant", "<-member holonym|->hypernym", "*"}, 5, []uint32{6}},
		{[]string{"plant", "*", "*"}, 1, []uint32{0, 4}}, // any relation, any type
	} {
		if got := reach(c.path, c.anchor); !cmp.Equal(got, c.want) {
			t.Errorf("%v from %d: got %v, want %v", c.path, c.anchor, got, c.want)
		}
	}
	// The relation token round trip.
	p := data.MustPaths([]string{"*", "<-member holonym|->hypernym", "*", "<-meronym", "*"})[0]
	steps, err := p.Steps[0].ResolveRelations(&s.Schema)
	if err != nil || data.RelToken(steps) != "<-member holonym|->hypernym" || steps[0].Dir != data.Backward || steps[1].Dir != data.Forward {
		t.Errorf("ResolveRelations: %+v %v", steps, err)
	}
	if _, err := p.Steps[1].ResolveRelations(&s.Schema); err == nil {
		t.Error("unknown relation accepted")
	}
}

func TestRelationsBetween(t *testing.T) {
	s := testskb.Taxonomy()
	g, err := graphops.Build(s)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	if got := g.RelationsBetween(0, 0); !cmp.Equal(got, []data.RelID{0}) {
		t.Errorf("plant-plant relations %v", got)
	}
	if got := g.RelationsBetween(1, 0); !cmp.Equal(got, []data.RelID{1}) {
		t.Errorf("group-plant relations %v", got)
	}
	if got := g.RelationsBetween(1, 2); got != nil {
		t.Errorf("group-act relations %v", got)
	}
	if got := g.Resolver()("plant", "group"); !cmp.Equal(got, []string{"member holonym"}) {
		t.Errorf("resolver %v", got)
	}
	// Member holonym links plants (1, 5) to a group (4): forward it ends at
	// groups, backward at plants; hypernym links plants to plants and acts
	// to acts.
	for _, c := range []struct {
		r    data.RelID
		dir  data.RelDir
		want []data.TypeID
	}{{1, data.Forward, []data.TypeID{1}}, {1, data.Backward, []data.TypeID{0}}, {1, data.Undirected, []data.TypeID{0, 1}}, {0, data.Forward, []data.TypeID{0, 2}}, {0, data.Backward, []data.TypeID{0, 2}}} {
		if got := g.RelationEnds(c.r, c.dir); !cmp.Equal(got, c.want) {
			t.Errorf("RelationEnds(%d, %d) = %v, want %v", c.r, c.dir, got, c.want)
		}
	}
}
