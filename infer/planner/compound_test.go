package planner

import (
	"slices"
	"testing"

	"github.com/strata-retrieval/strata/data/lexicon"
)

// TestInCompoundForm: a mention joined by a hyphen to a letter or digit
// on either side is a part of a hyphened word; one that is the whole
// hyphened name, one after a spaced dash or a hyphen at the text's start,
// and a quoted one are not.
func TestInCompoundForm(t *testing.T) {
	lex, err := lexicon.WordNet()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		text, w string
		want    bool
	}{
		{"Show me near-synonyms of fruitful.", "near", true},
		{"Show me near-synonyms of fruitful.", "synonyms", true},
		{"Show me near-synonyms of fruitful.", "fruitful", false},
		{"Give me real-world examples of a lunar crater.", "real", true},
		{"Films by Jean-Luc Godard?", "Luc Godard", true},
		{"Films by Jean-Luc Godard?", "Jean-Luc Godard", false},
		{"Cities in Guinea-Bissau?", "Guinea", true},
		{"A 3-door car?", "door", true},
		{"Near - synonyms of fruitful?", "Near", false},
		{"-near synonyms?", "near", false},
		{"Which near-'synonyms'?", "synonyms", false},
		{"Name a near-", "near", false},
	} {
		m := fixtureMention(t, c.text, c.w)
		if got := slices.Contains(mentionForms(lex, c.text, &m), FormInCompound); got != c.want {
			t.Errorf("%q: %q in compound = %v, want %v", c.text, c.w, got, c.want)
		}
	}
}

// TestLearnInCompound: "near" in "near-synonym" stood in 5 training
// questions, never anchored: a non-anchor form; one more question that
// anchors a part of a hyphened word ("Paris" in "Paris-based", 1 of 6,
// above 2%) takes it off.
func TestLearnInCompound(t *testing.T) {
	lex, err := lexicon.WordNet()
	if err != nil {
		t.Fatal(err)
	}
	var f anchorFixture
	for range 5 {
		f.add(t, "Which word, a near-synonym of 'tidy', is neat?", "tidy", "near", "tidy")
	}
	if got, want := LearnNonAnchorForms(lex, f.texts, f.ments, f.anchors), []string{FormInCompound}; !slices.Equal(got, want) {
		t.Errorf("LearnNonAnchorForms = %v, want %v", got, want)
	}
	f.add(t, "Which Paris-based firms?", "Paris", "Paris")
	if got := LearnNonAnchorForms(lex, f.texts, f.ments, f.anchors); len(got) != 0 {
		t.Errorf("with a part of a hyphened word anchored: LearnNonAnchorForms = %v, want none", got)
	}
}

// TestInCompoundRulesOut: the planner trusts its most probable template
// (the kinds of its anchor); in "Name the real-world members of Solea."
// it anchors it on "real" (a node here, with a kind, object), unless a
// part of a hyphened word is a non-anchor form: then the members of Solea
// (fish one) answer.
func TestInCompoundRulesOut(t *testing.T) {
	formRulesOut(t, "Name the real-world members of Solea.", "Real", FormInCompound)
}

// TestAppositive: the planner trusts its most probable template (the
// kinds of its anchor). With "adjective" a word no anchor follows, the
// candidate anchored on "Tell" right after it is ruled out and the members
// of Solea (fish one) answer. In "the adjective Tell" the word names
// Tell's kind, an appositive: with Appositive that candidate stands and
// the kinds of Tell (object) answer; "an adjective Tell" is no appositive.
func TestAppositive(t *testing.T) {
	for _, c := range []struct {
		q     string
		appos bool
		want  uint32
	}{
		{"Name the adjective Tell among the members of Solea.", true, 3},
		{"Name the adjective Tell among the members of Solea.", false, 2},
		{"Name an adjective Tell among the members of Solea.", true, 2},
	} {
		p := trustingPlanner(t, []string{"Tell", "Solea", "fish one", "object"}, AnchorConfig{NonAnchorAfter: []string{"adjective"}, Appositive: c.appos})
		wantReach(t, p, c.q, c.want, "appositive", c.appos)
	}
}
