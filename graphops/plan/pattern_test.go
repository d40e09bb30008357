package plan

import (
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/graphops"
)

// TestCompilePatternMatchesStrings compiles random plans (typed and
// untyped nodes, "*" steps, directions, mixed alternatives, one to three
// paths, linked and named anchors) to pattern graphs through the typed plan
// and checks that they are the patterns MoR's strings give
// (data.PlanPatternResolved), node for node, triple for triple, linked
// nodes included, and that both refuse the same plans. A universal step
// is written as its existential triple: the same pattern as the plan
// without the mark.
func TestCompilePatternMatchesStrings(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	types := []string{"a", "b", "c"}
	rels := []string{"r0", "r1", "r2"}
	compared, universal := 0, 0
	for trial := range 30 {
		n := 20 + r.IntN(80)
		// Few edges: some type pairs stay unlinked, so "*" between them
		// has no relation.
		g, err := graphops.Build(randomSKB(r, types, rels, n, n/2))
		if err != nil {
			t.Fatal(err)
		}
		for range 60 {
			p := randomPlan(r, types, rels, n)
			existential := p
			if r.IntN(3) == 0 { // mark one step of a path universal
				p = clonePlan(p)
				path := p.MetapathTokens()[r.IntN(len(p.MetapathTokens()))]
				if len(path) >= 3 {
					i := 1 + 2*r.IntN(len(path)/2)
					path[i] = data.EveryPrefix + path[i]
					universal++
				}
			}
			want, wok := data.PlanPatternResolved(existential, g.Resolver())
			e, got, err := CompilePattern(g.Schema(), p, g.Resolver())
			if wok != (err == nil) {
				t.Fatalf("trial %d plan %+v: strings ok %v, typed error %v", trial, p, wok, err)
			}
			if err != nil {
				if !errors.Is(err, ErrNoPattern) {
					t.Fatalf("trial %d plan %+v: error %v, want ErrNoPattern", trial, p, err)
				}
				continue
			}
			if e == nil {
				t.Fatalf("trial %d plan %+v: a pattern without an expression", trial, p)
			}
			if !cmp.Equal(got.Triples3(), want.Triples3()) || got.Target != want.Target || !cmp.Equal(got.Nodes, want.Nodes, cmpopts.EquateEmpty()) {
				t.Fatalf("trial %d plan %+v:\n typed   %v %+v\n strings %v %+v", trial, p, got.Triples3(), got.Nodes, want.Triples3(), want.Nodes)
			}
			compared++
		}
		g.Close()
	}
	t.Logf("%d patterns compared, %d plans with a universal step", compared, universal)
	if compared < 500 || universal < 200 {
		t.Errorf("compared %d patterns (%d plans with a universal step): the generator drifted", compared, universal)
	}
}

func clonePlan(p data.Plan) data.Plan {
	q := p
	q.Paths = make([]data.Path, len(p.Paths))
	for i, path := range p.Paths {
		q.Paths[i] = path.Clone()
	}
	return q
}

// TestCompilePatternOperators: on the hand-built movies graph, the genre
// every film of P1 has is the existential pattern (P1 <-directed_by
// UNKNOWN movie, UNKNOWN movie ->has_genre UNKNOWN genre 0: stored from
// the film to its director and genres) and an expression that keeps the
// universal step, the ranked middle and the restriction; executed with
// SoftEvery, every genre of P1's films is kept with the fraction of the
// three films it belongs to (G1 3/3, G2 and G3 1/3). A union has no
// pattern form.
func TestCompilePatternOperators(t *testing.T) {
	g, names := movies(t)
	p := data.Plan{Paths: data.MustPaths([][]string{{"person", "<-directed_by", "movie~", "∀->has_genre", "genre"}}...),
		Anchors: []data.PlanAnchor{{Text: "P1", Nodes: []uint32{0}}}, Restriction: map[string][]string{"genre": {"comedy"}}}
	e, pat, err := CompilePattern(g.Schema(), p, g.Resolver())
	if err != nil {
		t.Fatal(err)
	}
	wantTriples := [][3]string{{"UNKNOWN movie 101", "->directed_by", "P1"}, {"UNKNOWN movie 101", "->has_genre", "UNKNOWN genre 0"}}
	if !cmp.Equal(pat.Triples3(), wantTriples) || pat.Nodes[pat.Target].Text != "UNKNOWN genre 0" || !slices.Equal(pat.Nodes[1].Nodes, []uint32{0}) {
		t.Errorf("pattern %v target %d nodes %+v, want %v", pat.Triples3(), pat.Target, pat.Nodes, wantTriples)
	}
	if got, want := e.Format(g.Schema()), `(every((person "P1" [1 linked] <-directed_by movie) ranked by "comedy") ->has_genre genre) ranked by "comedy"`; got != want {
		t.Errorf("expression:\n got %s\nwant %s", got, want)
	}
	strict := run(t, Env{Graph: g, Names: names}, e)
	soft := run(t, Env{Graph: g, Names: names, SoftEvery: true}, e)
	if !slices.Equal(strict.Nodes, []uint32{6}) {
		t.Errorf("strict: %v, want [6] (G1)", strict.Nodes)
	}
	if !slices.Equal(soft.Nodes, []uint32{6, 7, 8}) || !slices.Equal(soft.Support, []float32{1, float32(1) / 3, float32(1) / 3}) {
		t.Errorf("soft: %v support %v, want [6 7 8] support [1 1/3 1/3]", soft.Nodes, soft.Support)
	}
	if _, _, err := CompilePattern(g.Schema(), data.Plan{Paths: data.MustPaths([][]string{{"genre"}}...)}, nil); !errors.Is(err, ErrNoPattern) {
		t.Errorf("target type alone: %v, want ErrNoPattern", err)
	}
	if _, err := (&patternWriter{s: g.Schema()}).path(0, &Union{Args: []Expr{filmsOf("P1")}}); err == nil || !strings.Contains(err.Error(), "Union") {
		t.Errorf("union: %v, want an error naming it", err)
	}
	// Unknown relations are the typed plan's error (SimGRAG then writes
	// the pattern from the strings).
	if _, _, err := CompilePattern(g.Schema(), data.Plan{Paths: data.MustPaths([][]string{{"person", "acted in", "movie"}}...), Restriction: map[string][]string{"person": {"P1"}}}, nil); !errors.Is(err, graphops.ErrInvalidPlan) {
		t.Errorf("unknown relation: %v, want ErrInvalidPlan", err)
	}
}
