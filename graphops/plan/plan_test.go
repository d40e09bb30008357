package plan

import (
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/graphops"
	"github.com/strata-retrieval/strata/graphops/linking"
)

// movies is a hand-built graph. Node ids:
//
//	0 P1, 1 P2 (people), 2 F1, 3 F2, 4 F3, 5 F4 (movies), 6 G1, 7 G2, 8 G3 (genres),
//	9 A1, 10 A2, 11 A3 (people)
//
// F1, F2, F3 are directed by P1, F4 by P2. Genres: F1 {G1, G2}, F2 {G1},
// F3 {G1, G3}, F4 {G2}. Cast: A1 in F1 and F4, A2 in F1 and F2, A3 in F3.
// Details: F1 and F3 "Released in 2007. Language: English.", F2 "Released
// in 1999. Language: French.", F4 "Released long ago in 2007."
func movies(t testing.TB) (*graphops.Graph, *linking.NameIndex) {
	t.Helper()
	s := &data.SKB{Schema: data.Schema{
		Format: data.FormatSKBDir, NodeTypes: []string{"person", "movie", "genre"},
		RelationTypes: []string{"directed_by", "has_genre", "starred_actors"}, TextFields: []string{"name", "details"},
	}}
	node := func(ty data.TypeID, name, details string) {
		s.Nodes = append(s.Nodes, data.Node{Type: ty, Name: name, Fields: []string{"", details}})
	}
	node(0, "P1", "")
	node(0, "P2", "")
	node(1, "F1", "Released in 2007. Language: English.")
	node(1, "F2", "Released in 1999. Language: French.")
	node(1, "F3", "Released in 2007. Language: English.")
	node(1, "F4", "Released long ago in 2007.")
	node(2, "G1", "")
	node(2, "G2", "")
	node(2, "G3", "")
	node(0, "A1", "")
	node(0, "A2", "")
	node(0, "A3", "")
	for _, e := range [][3]uint32{
		{2, 0, 0}, {3, 0, 0}, {4, 0, 0}, {5, 0, 1}, // directed_by
		{2, 1, 6}, {2, 1, 7}, {3, 1, 6}, {4, 1, 6}, {4, 1, 8}, {5, 1, 7}, // has_genre
		{2, 2, 9}, {5, 2, 9}, {2, 2, 10}, {3, 2, 10}, {4, 2, 11}, // starred_actors
	} {
		s.Edges.Add(e[0], data.RelID(e[1]), e[2])
	}
	g, err := graphops.Build(s)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { g.Close() })
	return g, linking.NewNameIndex(s)
}

const (
	person, movie, genre           = data.TypeID(0), data.TypeID(1), data.TypeID(2)
	directedBy, hasGenre, starring = data.RelID(0), data.RelID(1), data.RelID(2)
)

// filmsOf is the movies a person directed (against the stored edge).
func filmsOf(name string) Expr {
	return &Hop{From: &Anchor{Text: name, Type: person}, Steps: []Step{{directedBy, data.Backward}}, To: movie}
}

func run(t *testing.T, env Env, e Expr) Set {
	t.Helper()
	s, err := Exec(env, e)
	if err != nil {
		t.Fatalf("%s: %v", e.Format(env.Graph.Schema()), err)
	}
	return s
}

func TestOperatorsOnHandBuiltGraph(t *testing.T) {
	g, names := movies(t)
	env := Env{Graph: g, Names: names}
	ones := func(n int) []float32 { return slices.Repeat([]float32{1}, n) }
	zeros := func(n int) []float32 { return make([]float32, n) }

	// Hop: P1's films, then their genres (existential: a genre of any film).
	if got := run(t, env, filmsOf("p1")); !cmp.Equal(got, Set{Nodes: []uint32{2, 3, 4}, Support: ones(3), Text: zeros(3)}) {
		t.Errorf("P1's films: %+v", got)
	}
	genres := &Hop{From: filmsOf("P1"), Steps: []Step{{hasGenre, data.Forward}}, To: genre}
	if got := run(t, env, genres); !slices.Equal(got.Nodes, []uint32{6, 7, 8}) {
		t.Errorf("genres of any of P1's films: %v", got.Nodes)
	}
	// Every: the genre all of P1's films have is G1 alone (union: G1, G2,
	// G3); soft, G1 backs 3 of 3 films, G2 (F1) and G3 (F3) 1 of 3.
	every := &Every{Members: filmsOf("P1"), Steps: []Step{{hasGenre, data.Forward}}, To: genre}
	if got := run(t, env, every); !cmp.Equal(got, Set{Nodes: []uint32{6}, Support: ones(1), Text: zeros(1)}) {
		t.Errorf("every: %+v", got)
	}
	every.Soft = true
	got := run(t, env, every)
	if !cmp.Equal(got, Set{Nodes: []uint32{6, 7, 8}, Support: []float32{1, 1.0 / 3, 1.0 / 3}, Text: zeros(3)}) || !slices.Equal(got.Ranked(), []uint32{6, 7, 8}) {
		t.Errorf("most: %+v", got)
	}
	// A middle restriction: the cast of P1's 2007 films is A1 (F1), A2
	// (F1) and A3 (F3), without the restriction also A2 by F2 (the same
	// people here), so restrict to French films instead: F2's cast is A2.
	cast := func(films Expr) Expr {
		return &Hop{From: films, Steps: []Step{{starring, data.Forward}}, To: person}
	}
	if got := run(t, env, cast(&Filter{Of: filmsOf("P1"), Attrs: []Attr{{Key: "released in", Value: "2007"}}})); !slices.Equal(got.Nodes, []uint32{9, 10, 11}) {
		t.Errorf("cast of P1's 2007 films: %v", got.Nodes)
	}
	if got := run(t, env, cast(&Filter{Of: filmsOf("P1"), Attrs: []Attr{{Key: "language", Value: "French"}}})); !slices.Equal(got.Nodes, []uint32{10}) {
		t.Errorf("cast of P1's French films: %v", got.Nodes)
	}
	if got := run(t, env, cast(filmsOf("P1"))); !slices.Equal(got.Nodes, []uint32{9, 10, 11}) {
		t.Errorf("cast of P1's films: %v", got.Nodes)
	}
	// Two attributes, and a key the value does not follow closely: F4 says
	// "Released long ago in 2007" ("long" and "ago" stand between).
	all2007 := &Filter{Of: &Anchor{Text: "F4", Type: movie}, Attrs: []Attr{{Key: "released", Value: "2007"}}}
	if got := run(t, env, all2007); got.Len() != 0 {
		t.Errorf("F4 states 'released 2007': %v", got.Nodes)
	}
	all2007.Attrs = []Attr{{Value: "2007"}, {Key: "ago in", Value: "2007"}}
	if got := run(t, env, all2007); !slices.Equal(got.Nodes, []uint32{5}) {
		t.Errorf("F4 states 2007: %v", got.Nodes)
	}
	// Ranking by anchor count: films of A1 or A2. F1 has both (support 2),
	// F2 (A2) and F4 (A1) one each; an intersection keeps F1 alone.
	filmsWith := func(name string) Expr {
		return &Hop{From: &Anchor{Text: name, Type: person}, Steps: []Step{{starring, data.Backward}}, To: movie}
	}
	u := run(t, env, &Union{Args: []Expr{filmsWith("A1"), filmsWith("A2")}})
	if !cmp.Equal(u, Set{Nodes: []uint32{2, 3, 5}, Support: []float32{2, 1, 1}, Text: zeros(3)}) || !slices.Equal(u.Ranked(), []uint32{2, 3, 5}) {
		t.Errorf("union: %+v ranked %v", u, u.Ranked())
	}
	if got := run(t, env, &Intersect{Args: []Expr{filmsWith("A1"), filmsWith("A2")}}); !cmp.Equal(got, Set{Nodes: []uint32{2}, Support: []float32{2}, Text: zeros(1)}) {
		t.Errorf("intersection: %+v", got)
	}
	// A text restriction ranks within equal support: F4 scores 3, F2 1.
	env.Text = fakeScorer{5: 3, 3: 1}
	r := run(t, env, &Restrict{Of: &Union{Args: []Expr{filmsWith("A1"), filmsWith("A2")}}, Text: "anything"})
	if !cmp.Equal(r.Text, []float32{0, 1, 3}) || !slices.Equal(r.Ranked(), []uint32{2, 5, 3}) {
		t.Errorf("restricted union: %+v ranked %v", r, r.Ranked())
	}
	// A hop keeps the best support and text score of the nodes reaching a
	// node: G2 is reached from F1 (support 2) and F4 (1, text 3).
	h := run(t, env, &Hop{From: &Restrict{Of: &Union{Args: []Expr{filmsWith("A1"), filmsWith("A2")}}, Text: "x"}, Steps: []Step{{hasGenre, data.Forward}}, To: genre})
	if !cmp.Equal(h, Set{Nodes: []uint32{6, 7}, Support: []float32{2, 2}, Text: []float32{0, 0}}) {
		t.Errorf("hop of a ranked set: %+v", h)
	}
}

type fakeScorer map[uint32]float32

func (f fakeScorer) ScoreText(_ string, nodes []uint32) []float32 {
	out := make([]float32, len(nodes))
	for i, v := range nodes {
		out[i] = f[v]
	}
	return out
}

func TestFormat(t *testing.T) {
	g, _ := movies(t)
	e := &Restrict{Of: &Intersect{Args: []Expr{
		&Every{Members: &Filter{Of: filmsOf("P1"), Attrs: []Attr{{Key: "released in", Value: "2007"}}}, Steps: []Step{{hasGenre, data.Forward}}, To: genre, Soft: true},
		&Hop{From: &Anchor{Text: "F4", Type: movie, Nodes: []uint32{5}}, Steps: nil, To: AnyType},
	}}, Text: "drama"}
	want := `(and(most((person "P1" <-directed_by movie) where released in "2007") ->has_genre genre, movie "F4" [1 linked] * *)) ranked by "drama"`
	if got := e.Format(g.Schema()); got != want {
		t.Errorf("Format:\n got %s\nwant %s", got, want)
	}
}

func TestErrors(t *testing.T) {
	g, names := movies(t)
	env := Env{Graph: g, Names: names}
	for _, e := range []Expr{
		&Anchor{Text: "nobody", Type: person},
		&Anchor{Text: "F1", Type: person, Nodes: []uint32{2}},
		&Anchor{Text: "x", Type: person, Nodes: []uint32{99}},
		&Hop{From: &Anchor{Text: "P1", Type: person}, Steps: []Step{{Rel: 9}}, To: movie},
		&Hop{From: &Anchor{Text: "P1", Type: person}, To: 7},
		&Intersect{},
		&Union{},
		&Filter{Of: &Anchor{Text: "F1", Type: movie}, Attrs: []Attr{{Key: "year", Value: " "}}},
	} {
		if _, err := Exec(env, e); !errors.Is(err, graphops.ErrInvalidPlan) {
			t.Errorf("%T: %v, want ErrInvalidPlan", e, err)
		}
	}
}

// TestCompileMatchesExecutePlan compiles random MoR-shaped plans (typed,
// untyped and "*" steps, directions, one to three paths, linked and named
// anchors) and checks that executing them reaches exactly the nodes
// referencePlan reaches, and fails exactly when it fails.
func TestCompileMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	types := []string{"a", "b", "c"}
	rels := []string{"r0", "r1", "r2"}
	for trial := range 30 {
		n := 20 + r.IntN(80)
		s := randomSKB(r, types, rels, n, n*3)
		g, err := graphops.Build(s)
		if err != nil {
			t.Fatal(err)
		}
		names := linking.NewNameIndex(s)
		for range 40 {
			p := randomPlan(r, types, rels, n)
			want, werr := referencePlan(g, names, p)
			e, cerr := Compile(g.Schema(), p)
			var got Set
			var gerr error
			switch {
			case cerr != nil:
				gerr = cerr
			case e != nil:
				got, gerr = Exec(Env{Graph: g, Names: names}, e)
			}
			if (werr != nil) != (gerr != nil) || (werr != nil && !errors.Is(gerr, graphops.ErrInvalidPlan)) {
				t.Fatalf("trial %d plan %+v: ExecutePlan error %v, algebra error %v", trial, p, werr, gerr)
			}
			if werr != nil {
				continue
			}
			// A plan without structure compiles to nil; ExecutePlan's
			// Reach is nil then (and when its walk reaches nothing).
			if (e == nil && want.Reach != nil) || !cmp.Equal(got.Nodes, want.Reach, cmpopts.EquateEmpty()) {
				t.Fatalf("trial %d plan %+v (%v): ExecutePlan %v, algebra %v", trial, p, e, want.Reach, got.Nodes)
			}
		}
		g.Close()
	}
}

// randomSKB is n nodes of random types, named n0, n1, ... (each name
// twice), and edges random triples.
func randomSKB(r *rand.Rand, types, rels []string, n, edges int) *data.SKB {
	s := &data.SKB{Schema: data.Schema{Format: data.FormatSKBDir, NodeTypes: types, RelationTypes: rels, TextFields: []string{"name"}}}
	for i := range n {
		s.Nodes = append(s.Nodes, data.Node{Type: data.TypeID(r.IntN(len(types))), Name: fmt.Sprintf("n%d", i%(n/2)), Fields: []string{""}})
	}
	for range edges {
		s.Edges.Add(uint32(r.IntN(n)), data.RelID(r.IntN(len(rels))), uint32(r.IntN(n)))
	}
	return s
}

func randomPlan(r *rand.Rand, types, rels []string, n int) data.Plan {
	pick := func(xs []string) string { return xs[r.IntN(len(xs))] }
	target := pick(types)
	if r.IntN(6) == 0 {
		target = data.AnyType
	}
	p := data.Plan{Restriction: map[string][]string{}}
	linked := r.IntN(2) == 0
	for range 1 + r.IntN(3) {
		hops := r.IntN(3)
		path := []string{pick(types)}
		if r.IntN(8) == 0 {
			path[0] = data.AnyType
		}
		for h := range hops {
			var tok string
			switch r.IntN(4) {
			case 0:
				tok = data.AnyRelation
			case 1:
				tok = "->" + pick(rels)
			case 2:
				tok = "<-" + pick(rels)
			default:
				tok = pick(rels) + "|->" + pick(rels)
			}
			next := pick(types)
			if h == hops-1 {
				next = target
			}
			path = append(path, tok, next)
		}
		if hops == 0 {
			path = []string{target}
		}
		p.Paths = append(p.Paths, data.MustPaths(path)...)
		name := fmt.Sprintf("n%d", r.IntN(n/2+2))
		if linked {
			var nodes []uint32
			for range r.IntN(3) {
				nodes = append(nodes, uint32(r.IntN(n)))
			}
			p.Anchors = append(p.Anchors, data.PlanAnchor{Text: name, Nodes: nodes})
		} else if r.IntN(6) != 0 {
			p.Restriction[path[0]] = append(p.Restriction[path[0]], name)
		}
	}
	return p
}

// TestCompileUniversal: a "∀" token compiles to Every over the nodes
// before it, and Execute reaches the genre all of P1's films share.
func TestCompileUniversal(t *testing.T) {
	g, names := movies(t)
	p := data.Plan{Paths: data.MustPaths([][]string{{"person", "<-directed_by", "movie", "∀->has_genre", "genre"}}...),
		Restriction: map[string][]string{"person": {"P1"}, "genre": {"P1", "comedy"}}}
	e, err := Compile(g.Schema(), p)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := e.Format(g.Schema()), `(every(person "P1" <-directed_by movie) ->has_genre genre) ranked by "P1 comedy"`; got != want {
		t.Errorf("Format:\n got %s\nwant %s", got, want)
	}
	res, err := Execute(g, names, p)
	if err != nil || !slices.Equal(res.Reach, []uint32{6}) || !slices.Equal(res.TargetRestriction, []string{"P1", "comedy"}) || res.Target != genre {
		t.Errorf("Execute: %+v %v", res, err)
	}
	// Without the mark: every genre of any of the films.
	p.Paths[0].Steps[1] = data.Step("has_genre", data.Forward)
	if res, _ := Execute(g, names, p); !slices.Equal(res.Reach, []uint32{6, 7, 8}) {
		t.Errorf("existential: %v", res.Reach)
	}
}

// TestRankedMiddle: a middle position marked "~" is ranked by the plan's
// restriction and the targets inherit the best score of the films they
// are reached from: with only F2 matching (score 2), A2 (in F1 and F2)
// scores 2, A1 (F1) and A3 (F3) 0; nothing is cut.
func TestRankedMiddle(t *testing.T) {
	g, names := movies(t)
	p := data.Plan{Paths: data.MustPaths([][]string{{"person", "<-directed_by", "movie~", "->starred_actors", "person"}}...),
		Anchors: []data.PlanAnchor{{Text: "P1", Nodes: []uint32{0}}}, Restriction: map[string][]string{"person": {"French cast"}}}
	res, scores, err := ExecuteRanked(g, names, p, fakeScorer{3: 2})
	if err != nil || !slices.Equal(res.Reach, []uint32{9, 10, 11}) || !slices.Equal(scores, []float32{0, 2, 0}) {
		t.Fatalf("ExecuteRanked: %v %v %v", res.Reach, scores, err)
	}
	e, _ := Compile(g.Schema(), p)
	if got, want := e.Format(g.Schema()), `((person "P1" [1 linked] <-directed_by movie) ranked by "French cast" ->starred_actors person) ranked by "French cast"`; got != want {
		t.Errorf("Format:\n got %s\nwant %s", got, want)
	}
	// Unscored (plan-structure, or no scorer): the same reach, no scores.
	if res, scores, _ := ExecuteRanked(g, names, p, nil); !slices.Equal(res.Reach, []uint32{9, 10, 11}) || scores != nil {
		t.Errorf("unscored: %v %v", res.Reach, scores)
	}
	// The mark is refused on an anchor or a target.
	bad := p
	bad.Paths = data.MustPaths([]string{"person~", "<-directed_by", "movie"})
	if _, err := Compile(g.Schema(), bad); !errors.Is(err, graphops.ErrInvalidPlan) {
		t.Errorf("marked anchor: %v", err)
	}
}

// TestCompileAttributes: a plan's attributes compile to a Filter on the
// target before its restriction ranks it. P1's films are F1, F2, F3;
// "released 2007" keeps F1 and F3 (F2 says 1999), with "language French"
// as well nothing is left.
func TestCompileAttributes(t *testing.T) {
	g, names := movies(t)
	p := data.Plan{Paths: data.MustPaths([][]string{{"person", "<-directed_by", "movie"}}...),
		Anchors:     []data.PlanAnchor{{Text: "P1", Nodes: []uint32{0}}},
		Restriction: map[string][]string{"movie": {"2007 films"}}, Attributes: []data.PlanAttr{{Key: "released", Value: "2007"}}}
	e, err := Compile(g.Schema(), p)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := e.Format(g.Schema()), `((person "P1" [1 linked] <-directed_by movie) where released "2007") ranked by "2007 films"`; got != want {
		t.Errorf("Format:\n got %s\nwant %s", got, want)
	}
	if res, err := Execute(g, names, p); err != nil || !slices.Equal(res.Reach, []uint32{2, 4}) {
		t.Errorf("released 2007: %v %v", res.Reach, err)
	}
	p.Attributes = append(p.Attributes, data.PlanAttr{Key: "language", Value: "French"})
	if res, err := Execute(g, names, p); err != nil || res.Reach != nil {
		t.Errorf("released 2007 and French: %v %v", res.Reach, err)
	}
}

// TestKeysBefore: the keys Filter reads before a value word, the word
// before it and, past a word of up to three letters, the one before that.
func TestKeysBefore(t *testing.T) {
	doc := words("Released in 2007. Language: French. Gold Diggers of 1937")
	var got []string
	for i, w := range doc {
		if w == "2007" || w == "french" || w == "1937" || w == "released" {
			KeysBefore(doc, i, func(k string) { got = append(got, w+"<"+k) })
		}
	}
	want := []string{"2007<in", "2007<released", "french<language", "1937<of", "1937<diggers"}
	if !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	if !States(doc, Attr{Key: "released", Value: "2007"}) || States(doc, Attr{Key: "released", Value: "1937"}) || !States(doc, Attr{Key: "diggers", Value: "1937"}) {
		t.Error("States disagrees with KeysBefore")
	}
	// StatedAttrs with "in" and "of" refused as keys.
	got2 := StatedAttrs(doc, map[string]bool{"2007": true, "french": true, "1937": true}, func(k string) bool { return k != "in" && k != "of" })
	want2 := map[Attr]bool{{"released", "2007"}: true, {"language", "french"}: true, {"diggers", "1937"}: true}
	if !maps.Equal(got2, want2) {
		t.Errorf("StatedAttrs: %v, want %v", got2, want2)
	}
}
