package planner

import (
	"slices"
	"testing"

	"github.com/strata-retrieval/strata/data/lexicon"
)

// TestStemRelations: "direction", a noun no training question used,
// names directed_by as "direct", the verb it is formed from
// (lexicon.StemVerbs), does where the training bore "direct" out (10
// questions, all walking it); not without StemRelations, and not where
// "direct" walked it in 6 of 10 questions. (Which nouns have which stems
// is lexicon.TestStemVerbs'.)
func TestStemRelations(t *testing.T) {
	lex, err := lexicon.WordNet()
	if err != nil {
		t.Fatal(err)
	}
	planner := func(on bool, walked int) *LinkingPlanner {
		p := castPlanner(t, false, true)
		p.Cfg.Anchors.NamedRelations, p.Cfg.Anchors.InflectedRelations, p.Cfg.Anchors.StemRelations = true, true, on
		rw := NewRelWords()
		for i := range 10 {
			rels := []string{"starred_actors"}
			if i < walked {
				rels = []string{"directed_by"}
			}
			rw.Add("the direct", rels)
		}
		p.Cfg.Anchors.RelWords = rw
		p.names.setLexicon(lex)
		return p
	}
	for _, c := range []struct {
		name string
		p    *LinkingPlanner
		q    string
		want []string
	}{
		{"a stem", planner(true, 10), "Whose direction was Ann Lee under?", []string{"directed_by"}},
		{"without StemRelations", planner(false, 10), "Whose direction was Ann Lee under?", nil},
		{"6 of 10", planner(true, 6), "Whose direction was Ann Lee under?", nil},
	} {
		got := c.p.namedRelations(c.q, nil)
		if c.want == nil && len(got) != 0 || c.want != nil && (len(got) != 1 || !slices.Equal(got[0], c.want)) {
			t.Errorf("%s: namedRelations = %v, want %v", c.name, got, c.want)
		}
	}
}
