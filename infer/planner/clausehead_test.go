package planner

import (
	"testing"

	"github.com/strata-retrieval/strata/graphops/linking"
)

// TestRelativeThat: "that" or "which" right after a word that may be a
// noun, or after a word blanked out of the text (answerStep blanks a
// type word after a mention), opens a relative clause, and the word after
// it is the clause's verb (relativeVerbAt); after a verb, a preposition,
// a comma or at the start it is a determiner. With RelativeThat, "cast"
// in "Show me productions that cast Ann Lee." is no answer word (here it names
// ->directed_by, as "the cast" would): the ranker's one-hop plan stands
// (her film, node 1); without it "cast" reads as a noun after a
// determiner and the two-hop plan answers (Paul Smith, node 0).
func TestRelativeThat(t *testing.T) {
	p := lexPlanner(t)
	for _, c := range []struct {
		text string
		i    int
		want bool
	}{
		{"Show me movies that cast Ann Lee.", 4, true},
		{"Show me movies which cast Ann Lee.", 4, true},
		{"I'm after        that cast Ann Lee.", 3, true},
		{"Find that cast of Heat.", 2, false},
		{"In which cast is Ann Lee?", 2, false},
		{"Show me movies, that cast Ann Lee.", 4, false},
		{"Which cast has Ann Lee?", 1, false},
		{"Name all that cast Ann Lee.", 3, false},
	} {
		words := linking.MentionWords(c.text)
		if got := relativeVerbAt(c.text, words, c.i, p.names.lex.IsNoun, p.names.lex.IsVerb); got != c.want {
			t.Errorf("relativeVerbAt(%q, %q) = %v, want %v", c.text, c.text[words[c.i].Start:words[c.i].End], got, c.want)
		}
	}
	const q = "Show me productions that cast Ann Lee."
	for _, on := range []bool{false, true} {
		p := lexPlanner(t)
		p.Cfg.Anchors.AnswerWords = map[string]string{"cast": "->directed_by"}
		p.Cfg.Anchors.RelativeThat = on
		want := uint32(0)
		if on {
			want = 1
		}
		if pred, got, err := answered(p, q); err != nil || len(got) == 0 || got[0] != want {
			t.Errorf("RelativeThat %v: %q planned %v reaching %v (%v), want %d first", on, q, pred.Plan.MetapathTokens(), got, err, want)
		}
	}
}

// TestFrontedRoles: "As a boss, what movies was Ann Lee in?" fronts a
// capacity before its comma ("as", a determiner, a word naming a type
// loosely: "boss" names people by a training lift, which slotType reads
// before the lexicon, so not by the schema's word), and its clause after
// the comma asks for movies (her film, node 1). Without FrontedRoles the
// fronted phrase names no type by the schema's word, so the whole is
// read, and "boss",
// its first answer word (->directed_by here), asks for the films'
// directors (Paul Smith, node 0). "As of 2007" and "Like a director"
// state no capacity, nor does "As a rule", which names no type.
func TestFrontedRoles(t *testing.T) {
	planner := func() *LinkingPlanner {
		p := clausePlanner(t)
		el := NewRelWords()
		for range 10 {
			el.Add("which boss directed", []string{"A:person"})
		}
		for range 30 {
			el.Add("which movies did star in", []string{"A:movie"})
		}
		p.Cfg.Anchors.Elements = el
		p.Cfg.Anchors.AnswerWords = map[string]string{"boss": "->directed_by"}
		p.Cfg.Anchors.FrontedClause = true
		return p
	}
	p := planner()
	for _, c := range []struct {
		text string
		want bool
	}{
		{"As a boss", true},
		{"As the directors", true},
		{"As of 2007", false},
		{"Like a director", false},
		{"As a rule", false},
	} {
		if got := p.capacityPhrase(c.text, nil); got != c.want {
			t.Errorf("capacityPhrase(%q) = %v, want %v", c.text, got, c.want)
		}
	}
	const q = "As a boss, what movies was Ann Lee in?"
	for _, on := range []bool{false, true} {
		p := planner()
		p.Cfg.Anchors.FrontedRoles = on
		want := uint32(0)
		if on {
			want = 1
		}
		if pred, got, err := answered(p, q); err != nil || len(got) == 0 || got[0] != want {
			t.Errorf("FrontedRoles %v: %q planned %v reaching %v (%v), want %d first", on, q, pred.Plan.MetapathTokens(), got, err, want)
		}
	}
}

// TestOfHeads: in "Ann Lee starred with one director of movies; name
// him." the pronoun refers back to the phrase "one director of movies",
// whose head, before "of", is a director: with OfHeads the clause asks
// for people (Paul Smith, node 0); without it the last word naming a
// type, "movies", gives the type (her film, node 1). A word before "of"
// that names no type leaves the last one standing: "a number of movies;
// name them." asks for movies either way.
func TestOfHeads(t *testing.T) {
	for _, on := range []bool{false, true} {
		p := clausePlanner(t)
		p.Cfg.Anchors.OfHeads = on
		want := uint32(1)
		if on {
			want = 0
		}
		q := "Ann Lee starred with one director of movies; name him."
		if pred, got, err := answered(p, q); err != nil || len(got) == 0 || got[0] != want {
			t.Errorf("OfHeads %v: %q planned %v reaching %v (%v), want %d first", on, q, pred.Plan.MetapathTokens(), got, err, want)
		}
		q = "Ann Lee starred in a number of movies; name them."
		if pred, got, err := answered(p, q); err != nil || len(got) == 0 || got[0] != 1 {
			t.Errorf("OfHeads %v: %q planned %v reaching %v (%v), want 1 first", on, q, pred.Plan.MetapathTokens(), got, err)
		}
	}
}
