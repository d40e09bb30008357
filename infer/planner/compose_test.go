package planner

import (
	"slices"
	"strings"
	"testing"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/data/lexicon"
	"github.com/strata-retrieval/strata/graphops/linking"
)

// TestPlanElements: a plan's answer type, its relations (once each,
// sorted, without direction or universal mark), a universal step, an
// intersection, the longest path's hops and an attribute filter.
func TestPlanElements(t *testing.T) {
	for _, c := range []struct {
		plan data.Plan
		want []string
	}{
		{data.Plan{Paths: data.MustPaths([][]string{{"person", "<-directed_by", "movie"}}...)}, []string{"A:movie", "R:directed_by", "H1"}},
		{data.Plan{Paths: data.MustPaths([][]string{
			{"person", "<-starred_actors", "movie", "∀->has_genre", "genre"},
			{"person", "<-directed_by", "movie", "->has_genre", "genre"},
		}...), Attributes: []data.PlanAttr{{}}}, []string{"A:genre", "R:directed_by", "R:has_genre", "R:starred_actors", "U", "I", "H2", "T"}},
	} {
		if got := PlanElements(&c.plan, c.plan.TargetType()); !slices.Equal(got, c.want) {
			t.Errorf("PlanElements(%v) = %q, want %q", c.plan.MetapathTokens(), got, c.want)
		}
	}
}

// TestNames: a question word names a schema word when a reading of it as
// a singular is a reading of the schema word, in either number.
func TestNames(t *testing.T) {
	if got := forms("movies"); !slices.Equal(got, []string{"movies", "movie", "movi", "movy"}) {
		t.Errorf("forms(movies) = %q", got)
	}
	if got := forms("class"); !slices.Equal(got, []string{"class"}) {
		t.Errorf("forms(class) = %q", got)
	}
	if got := forms("bus"); !slices.Equal(got, []string{"bus"}) {
		t.Errorf("forms(bus) = %q", got)
	}
	n := newSchemaNames(&data.Schema{NodeTypes: []string{"movie", "person", "Genre"}, RelationTypes: []string{"starred_actors", "has_genre", "in"}})
	for _, c := range []struct {
		word, in string
		want     bool
	}{
		{"movies", "movie", true}, {"movie", "movie", true}, {"film", "movie", false},
		{"genres", "Genre", true}, {"people", "person", false}, {"persons", "person", true},
		{"actor", "starred_actors", true}, {"actors", "starred_actors", true}, {"star", "starred_actors", false},
		{"genre", "has_genre", true}, {"has", "has_genre", true},
		{"in", "in", false}, // words under three letters name nothing
	} {
		ws := n.types[c.in]
		if ws == nil {
			ws = n.rels[c.in]
		}
		if got := n.names(c.word, ws); got != c.want {
			t.Errorf("names(%q, %s %q) = %v, want %v", c.word, c.in, ws, got, c.want)
		}
	}
	// With the lexicon a word also names a schema word it shares a base
	// form with: "star" and "starring" are inflections of star, as
	// "starred" is; "stars" too; "actress" is another word.
	lex, err := lexicon.WordNet()
	if err != nil {
		t.Fatal(err)
	}
	nl := n
	nl.lex = lex
	for _, c := range []struct {
		word string
		want bool
	}{{"star", true}, {"starring", true}, {"stars", true}, {"actress", false}, {"in", false}} {
		if got := nl.names(c.word, n.rels["starred_actors"]); got != c.want {
			t.Errorf("with the lexicon names(%q, starred_actors) = %v, want %v", c.word, got, c.want)
		}
	}
	// The roles of the named types in "the genres of the movies X
	// starred in" against a plan from a person through starred_actors
	// to movies: genre is another type than the answer, movie the
	// answer; has_genre is named and not walked, starred_actors walked.
	plan := data.Plan{Paths: data.MustPaths([][]string{{"person", "<-starred_actors", "movie"}}...)}
	roles, out := n.nameRoles([]string{"genres", "movies", "starred"}, &plan, "movie")
	if !slices.Equal(roles, []string{"answer", "other"}) || out != 1 {
		t.Errorf("nameRoles = %q, %d relations named and not walked; want [answer other], 1", roles, out)
	}
	roles, out = n.nameRoles([]string{"person", "actors"}, &plan, "movie")
	if !slices.Equal(roles, []string{"anchor"}) || out != 0 {
		t.Errorf("nameRoles = %q, %d; want [anchor], 0", roles, out)
	}
}

// composePlanner is a linking planner over the director-films SKB whose
// training questions asked "somebody directed" eight times for a person
// and "films released" twice for a film.
func composePlanner(t *testing.T) *LinkingPlanner {
	t.Helper()
	p := directorFilmsPlanner(t)
	p.Cfg.Anchors.Compose = true
	el := NewRelWords()
	for range 2 {
		el.Add("films released", []string{"A:movie"})
	}
	for range 8 {
		el.Add("somebody directed", []string{"A:person"})
	}
	p.Cfg.Anchors.Elements = el
	return p
}

// TestAskedType: the first word that names a type, or whose lift towards
// an answer type is at least 2: "films" came with films in 2 of 2
// questions against 2 of 10 overall, lift (2+2*0.2)/(2+2)/0.2 = 3;
// "directed" with people in 8 of 8 against 8 of 10, lift
// (8+2*0.8)/(8+2)/0.8 = 1.2; "somebody" 1.2 too.
func TestAskedType(t *testing.T) {
	p := composePlanner(t)
	for _, c := range []struct{ restr, want string }{
		{"directed films", "movie"},
		{"directed somebody", ""},
		{"directed persons films", "person"},
		{"which movies has persons", "movie"},
		{"", ""},
	} {
		if got := p.askedType(c.restr); got != c.want {
			t.Errorf("askedType(%q) = %q, want %q", c.restr, got, c.want)
		}
	}
}

// TestComposeFeatures: the features of one question against a plan with
// and without a universal step, worked out by hand.
func TestComposeFeatures(t *testing.T) {
	p := composePlanner(t)
	p.Cfg.Anchors.FrameWords = []string{"every", "which"}
	text := "Which persons directed every film of Paul Smith?"
	ments := p.ments.Find(text)
	mi := slices.IndexFunc(ments, func(m linking.LinkedMention) bool { return m.Text == "Paul Smith" })
	if mi < 0 {
		t.Fatalf("no mention of Paul Smith in %+v", ments)
	}
	for _, c := range []struct {
		path []string
		want []string
	}{
		// Elements A:movie R:directed_by H1; "persons" names person, the
		// anchor's type, not the answer's; "directed" names directed_by,
		// which the plan walks.
		{[]string{"person", "<-directed_by", "movie"}, []string{
			"we every H1", "we which H1", "asked-other", "asked-other paths1", "tn anchor", "rn-out 0"}},
		{[]string{"person", "∀<-directed_by", "movie"}, []string{
			"we every U", "we every H1", "we which U", "we which H1", "asked-other", "asked-other paths1", "tn anchor", "rn-out 0"}},
	} {
		cand := PlanCandidate{Plan: data.Plan{Paths: data.MustPaths([][]string{c.path}...)}, Mentions: []int{mi}}
		var got []string
		p.composeFeatures(func(parts ...string) { got = append(got, strings.Join(parts, " ")) }, text, ments, &cand, "paths1")
		if !slices.Equal(got, c.want) {
			t.Errorf("%q: features %q, want %q", c.path, got, c.want)
		}
	}
}

// TestNamedByMemo: what a word names is what names says, for every type
// and relation; a word is looked up once and then remembered, up to
// maxNamedMemo words (beyond, it is computed each time and not kept).
func TestNamedByMemo(t *testing.T) {
	s := &data.Schema{NodeTypes: []string{"person", "movie", "genre"}, RelationTypes: []string{"directed_by", "starred_actors", "has_genre"}}
	n := newSchemaNames(s)
	for _, w := range []string{"movies", "actors", "directed", "genres", "films", "the"} {
		nb := n.namedBy(w)
		for ty, ws := range n.types {
			if nb.types[ty] != n.names(w, ws) {
				t.Errorf("%q names type %s: %v, names says %v", w, ty, nb.types[ty], n.names(w, ws))
			}
		}
		for r, ws := range n.rels {
			if nb.rels[r] != n.names(w, ws) {
				t.Errorf("%q names relation %s: %v, names says %v", w, r, nb.rels[r], n.names(w, ws))
			}
		}
		if n.namedBy(w) != nb {
			t.Errorf("%q looked up again", w)
		}
	}
	if !n.namedBy("movies").types["movie"] || !n.namedBy("actors").rels["starred_actors"] || len(n.namedBy("the").types) != 0 {
		t.Error("movies, actors, the: wrong names")
	}
	n.nmemo.Store(maxNamedMemo)
	if a, b := n.namedBy("pictures"), n.namedBy("pictures"); a == b {
		t.Error("a word past the bound was remembered")
	}
}

// TestRepeatWords: a question that says a word twice (singular forms,
// outside quotations; stop words and numbers aside) gets the repeat
// features, with the candidate's hops and whether it walks one relation
// twice in a row; without RepeatWords, or without a repeated word, none.
func TestRepeatWords(t *testing.T) {
	for _, c := range []struct {
		text string
		want bool
	}{
		{"What are the varieties of the varieties of X?", true},
		{"Which concepts are a specific kind of some specific kind of X?", true},
		{"Name a subtype of subtypes of X", true},
		{"Which is the kind of X described as 'a kind of tree'?", false}, // the second is quoted
		{"Which of the films of the 2001 releases of 2001?", false},      // stop words and numbers
		{"What are the kinds of X?", false},
	} {
		if got := repeatsWord(c.text); got != c.want {
			t.Errorf("repeatsWord(%q) = %v, want %v", c.text, got, c.want)
		}
	}
	p := composePlanner(t)
	text := "Which movies of the movies of Paul Smith?"
	ments := p.ments.Find(text)
	mi := slices.IndexFunc(ments, func(m linking.LinkedMention) bool { return m.Text == "Paul Smith" })
	if mi < 0 {
		t.Fatalf("no mention of Paul Smith in %+v", ments)
	}
	for _, c := range []struct {
		on   bool
		path []string
		want []string
	}{
		{true, []string{"person", "<-directed_by", "movie", "->directed_by", "person"}, []string{"rep H2", "rep once"}},
		{true, []string{"person", "<-directed_by", "movie", "<-directed_by", "movie"}, []string{"rep H2", "rep twice"}},
		{true, []string{"person", "<-directed_by", "movie"}, []string{"rep H1", "rep once"}},
		{false, []string{"person", "<-directed_by", "movie", "<-directed_by", "movie"}, nil},
	} {
		p.Cfg.Anchors.RepeatWords = c.on
		cand := PlanCandidate{Plan: data.Plan{Paths: data.MustPaths([][]string{c.path}...)}, Mentions: []int{mi}}
		var got []string
		p.composeFeatures(func(parts ...string) {
			if parts[0] == "rep" {
				got = append(got, strings.Join(parts, " "))
			}
		}, text, ments, &cand, "paths1")
		if !slices.Equal(got, c.want) {
			t.Errorf("%v %q: repeat features %q, want %q", c.on, c.path, got, c.want)
		}
	}
}
