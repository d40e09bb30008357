package plan

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/graphops"
	"github.com/strata-retrieval/strata/graphops/linking"
	"github.com/strata-retrieval/strata/internal/testskb"
)

// TestExecute: MoR-shaped plans executed through the algebra, reaches
// worked out by hand on testskb.Papers.
func TestExecute(t *testing.T) {
	s := testskb.Papers() // papers P0 P1 P2, authors Ann Bob; Ann writes P0 P1, Bob writes P1
	g, err := graphops.Build(s)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	names := linking.NewNameIndex(s)
	run := func(p data.Plan) ([]uint32, error) {
		r, err := Execute(g, names, p)
		return r.Reach, err
	}
	got, err := run(data.Plan{Paths: data.MustPaths([][]string{{"author", "writes", "paper"}}...), Restriction: map[string][]string{"author": {"ann"}}})
	if err != nil || !cmp.Equal(got, []uint32{0, 1}) {
		t.Errorf("Ann's papers: %v %v", got, err)
	}
	// MoR's untyped edge "author -> paper" reaches the same papers.
	got, _ = run(data.Plan{Paths: data.MustPaths([][]string{{"author", data.AnyRelation, "paper"}}...), Restriction: map[string][]string{"author": {"Ann"}}})
	if !cmp.Equal(got, []uint32{0, 1}) {
		t.Errorf("Ann's papers by any relation: %v", got)
	}
	// Two paths meet at the target: papers by Ann and by Bob.
	got, _ = run(data.Plan{Paths: data.MustPaths([][]string{{"author", "*", "paper"}, {"author", "*", "paper"}}...), Restriction: map[string][]string{"author": {"Ann", "Bob"}}})
	if !cmp.Equal(got, []uint32{1}) {
		t.Errorf("papers by Ann and Bob: %v", got)
	}
	// Two hops: papers cited by (or citing) Ann's papers, any relation.
	got, _ = run(data.Plan{Paths: data.MustPaths([][]string{{"author", "writes", "paper", "cites", "paper"}}...), Restriction: map[string][]string{"author": {"Ann"}}})
	if !cmp.Equal(got, []uint32{0, 1}) {
		t.Errorf("cited by Ann's papers: %v", got)
	}
	// A path that reaches nothing empties the intersection, whichever
	// position it has (no stored edge runs paper -writes-> author, so
	// "<-writes" from Ann reaches nothing; Bob's papers are P1).
	for _, mp := range [][][]string{
		{{"author", "<-writes", "paper"}, {"author", "->writes", "paper"}},
		{{"author", "->writes", "paper"}, {"author", "<-writes", "paper"}},
	} {
		names := map[string][]string{"author": {"Ann", "Bob"}}
		if mp[0][1] == "->writes" {
			names["author"] = []string{"Bob", "Ann"}
		}
		if got, err := run(data.Plan{Paths: data.MustPaths(mp...), Restriction: names}); err != nil || len(got) != 0 {
			t.Errorf("%v: %v %v, want nothing", mp, got, err)
		}
	}
	for _, bad := range []data.Plan{
		{},
		{Paths: []data.Path{{Nodes: []data.PathNode{{Type: "author"}}, Steps: []data.PathStep{data.Step("writes", data.Undirected)}}}}, // a step to nowhere
		{Paths: data.MustPaths([][]string{{"venue", "*", "paper"}}...), Restriction: map[string][]string{"venue": {"x"}}},
		{Paths: data.MustPaths([][]string{{"author", "edits", "paper"}}...), Restriction: map[string][]string{"author": {"Ann"}}},
		{Paths: data.MustPaths([][]string{{"author", "*", "paper"}}...), Restriction: map[string][]string{"author": {"Zed"}}},
		{Paths: data.MustPaths([][]string{{"author", "*", "paper"}}...)},
	} {
		if _, err := run(bad); !errors.Is(err, graphops.ErrInvalidPlan) {
			t.Errorf("plan %+v: error %v", bad, err)
		}
	}
}
