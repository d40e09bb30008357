package planner

import (
	"slices"
	"testing"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/data/lexicon"
)

// TestSharesAlong: a path walking the relation from its anchor into a
// node and back out, or two paths starting along it the same way, share
// a neighbour with their anchors; a walk back further on, a turn along
// another relation, or two paths along different relations do not.
func TestSharesAlong(t *testing.T) {
	rels := []string{"starred_actors"}
	for _, c := range []struct {
		paths [][]string
		want  bool
	}{
		{[][]string{{"*", "<-starred_actors", "movie", "->starred_actors", "person"}}, true},
		{[][]string{{"*", "<-directed_by", "movie", "->starred_actors", "person"}}, false},
		{[][]string{{"*", "<-directed_by", "movie", "->starred_actors", "person", "<-starred_actors", "movie"}}, false},
		{[][]string{{"*", "<-starred_actors", "movie"}, {"*", "<-starred_actors", "movie"}}, true},
		{[][]string{{"*", "<-starred_actors", "movie"}, {"*", "<-directed_by", "movie"}}, false},
		{[][]string{{"*", "<-starred_actors", "movie"}}, false},
	} {
		if got := sharesAlong(&data.Plan{Paths: data.MustPaths(c.paths...)}, rels); got != c.want {
			t.Errorf("sharesAlong(%v) = %v, want %v", c.paths, got, c.want)
		}
	}
}

// TestCoWords: over filmPlanner's graph (Ann Lee starred in First Film
// with Bob Day and directed Second Film, starring Kim Ray), "Who were the
// co-stars of Ann Lee?" asks for the cast of the films she starred in:
// with CoWords, Bob Day (and Ann Lee, who shares her own films) where the
// classifier prefers the cast of her films as director, Kim Ray, which
// stands without the rule. "costars" in one word is a co-word too; "cost"
// and a quoted "co-stars" are none.
func TestCoWords(t *testing.T) {
	lex, err := lexicon.WordNet()
	if err != nil {
		t.Fatal(err)
	}
	planner := func(co bool) *LinkingPlanner {
		return castTwoHops(t, lex, AnchorConfig{NamedRelations: true, CoWords: co}, [2]string{"stars", "starred_actors"})
	}
	for _, c := range []struct {
		q    string
		co   bool
		want []uint32 // the reach, the first answer first
	}{
		{"Who were the co-stars of Ann Lee?", true, []uint32{5, 3}},
		{"Who are Ann Lee's costars?", true, []uint32{5, 3}},
		{"Who were the co-stars of Ann Lee?", false, []uint32{4}},
	} {
		pred, got, err := answered(planner(c.co), c.q)
		if !slices.Equal(got, c.want) {
			t.Errorf("CoWords %v: %q planned %v reaching %v (%v), want %v", c.co, c.q, pred.Plan.MetapathTokens(), got, err, c.want)
		}
	}
	p := planner(true)
	for q, want := range map[string]int{
		"Who were the co-stars of":        1,
		"the costars of":                  1,
		"What did it cost":                0,
		"Which film is titled 'co-stars'": 0,
	} {
		if got := len(p.coRelations(q, nil)); got != want {
			t.Errorf("coRelations(%q): %d co-words, want %d", q, got, want)
		}
	}
	if got := len(planner(false).coRelations("Who were the co-stars of", nil)); got != 0 {
		t.Errorf("without CoWords: %d co-words, want none", got)
	}
}

// TestSharedWith: over TestCoWords's graph, "Who has shared the screen
// with Ann Lee?" names no relation, and asks, as a co-word does, for the
// nodes that share a neighbour with her: with SharedWith, Bob Day (and
// Ann Lee) where the classifier prefers the cast of her films as
// director (Kim Ray), which stands without the rule. Words between
// "share" and "with" that name a relation narrow it ("shared a movie cast
// with": starred_actors); "share" with no "with" after it ("Which genres
// do her films share?"), a word that is no form of the verb ("sharer")
// and "with" before "share" are none.
func TestSharedWith(t *testing.T) {
	lex, err := lexicon.WordNet()
	if err != nil {
		t.Fatal(err)
	}
	planner := func(shared bool) *LinkingPlanner {
		return castTwoHops(t, lex, AnchorConfig{NamedRelations: true, CoWords: true, SharedWith: shared},
			[2]string{"stars", "starred_actors"}, [2]string{"directed", "directed_by"})
	}
	for _, c := range []struct {
		q      string
		shared bool
		want   []uint32 // the reach, the first answer first
	}{
		{"Who has shared the screen with Ann Lee?", true, []uint32{5, 3}},
		{"Who shares a film with Ann Lee?", true, []uint32{5, 3}},
		{"Who has shared the screen with Ann Lee?", false, []uint32{4}},
	} {
		pred, got, err := answered(planner(c.shared), c.q)
		if !slices.Equal(got, c.want) {
			t.Errorf("SharedWith %v: %q planned %v reaching %v (%v), want %v", c.shared, c.q, pred.Plan.MetapathTokens(), got, err, c.want)
		}
	}
	p := planner(true)
	for q, want := range map[string][][]string{
		"Who has shared the screen with":         {{"directed_by", "starred_actors"}},
		"Who shared the stars of a film with":    {{"starred_actors"}},
		"Which genres do her films share":        nil,
		"The sharer of a film with":              nil,
		"Who with a film shared":                 nil,
		"Who has 'shared the screen with' in it": nil,
	} {
		if got := p.coRelations(q, nil); !slices.EqualFunc(got, want, slices.Equal) {
			t.Errorf("coRelations(%q) = %v, want %v", q, got, want)
		}
	}
}

// castTwoHops is the co-word tests' planner: Ann Lee starred in First
// Film (directed by Paul Smith, with Bob Day) and directed Second Film
// (starring Kim Ray); two templates, the cast of a person's films as
// director (the classifier's first, 2 against 1) and as actor; relation
// words phrases borne out as trainedLike has it.
func castTwoHops(t *testing.T, lex *lexicon.Lexicon, a AnchorConfig, phrases ...[2]string) *LinkingPlanner {
	t.Helper()
	p := filmPlanner(t, []string{"directed_by", "starred_actors"}, []string{"Paul Smith", "First Film", "Second Film", "Ann Lee", "Kim Ray", "Bob Day"},
		[][3]int{{1, 0, 0}, {1, 1, 3}, {1, 1, 5}, {2, 0, 3}, {2, 1, 4}},
		[][][]string{
			{{"*", "<-directed_by", "movie", "->starred_actors", "person"}},
			{{"*", "<-starred_actors", "movie", "->starred_actors", "person"}},
		}, a)
	trainedLike(p, lex, []float32{2, 1}, phrases)
	return p
}
