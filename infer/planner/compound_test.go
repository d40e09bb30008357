package planner

import (
	"context"
	"slices"
	"testing"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/data/lexicon"
)

// TestInCompoundForm: a mention joined by a hyphen to a letter or digit
// on either side is a part of a hyphened word; one that is the whole
// hyphened name, one after a spaced dash or a hyphen at the text's start,
// and a quoted one are not.
func TestInCompoundForm(t *testing.T) {
	formCases(t, FormInCompound, []formCase{
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
	})
}

// formCase: whether mention w of text is written in a form.
type formCase struct {
	text, w string
	want    bool
}

// formCases checks each case's mention against form (mentionForms).
func formCases(t *testing.T, form string, cases []formCase) {
	t.Helper()
	lex, err := lexicon.WordNet()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		m := fixtureMention(t, c.text, c.w)
		if got := slices.Contains(mentionForms(lex, c.text, &m, nil), form); got != c.want {
			t.Errorf("%q: %q %s = %v, want %v", c.text, c.w, form, got, c.want)
		}
	}
}

// learnForm checks that f's questions teach form alone as a non-anchor
// form, and that one more question, text anchored on anchor, takes it
// off.
func learnForm(t *testing.T, f *anchorFixture, form, text, anchor string) {
	t.Helper()
	lex, err := lexicon.WordNet()
	if err != nil {
		t.Fatal(err)
	}
	if got, want := LearnNonAnchorForms(lex, f.texts, f.ments, f.anchors), []string{form}; !slices.Equal(got, want) {
		t.Errorf("LearnNonAnchorForms = %v, want %v", got, want)
	}
	f.add(t, text, anchor, anchor)
	if got := LearnNonAnchorForms(lex, f.texts, f.ments, f.anchors); len(got) != 0 {
		t.Errorf("with %q anchored in %q: LearnNonAnchorForms = %v, want none", anchor, text, got)
	}
}

// TestLearnInCompound: "near" in "near-synonym" stood in 5 training
// questions, never anchored: a non-anchor form; one more question that
// anchors a part of a hyphened word ("Paris" in "Paris-based", 1 of 6,
// above 2%) takes it off.
func TestLearnInCompound(t *testing.T) {
	var f anchorFixture
	for range 5 {
		f.add(t, "Which word, a near-synonym of 'tidy', is neat?", "tidy", "near", "tidy")
	}
	learnForm(t, &f, FormInCompound, "Which Paris-based firms?", "Paris")
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

// TestPassiveForm: a one-word mention right after a form of "be" that is
// an inflection of a verb is a passive's participle; a verb's base form
// after "be", an adjective that is no verb's inflection, a participle
// after another word, a quoted one and a two-word mention are not.
func TestPassiveForm(t *testing.T) {
	formCases(t, FormPassive, []formCase{
		{"What vocabulary is used in virology?", "used", true},
		{"Which films were Directed by X?", "Directed", true},
		{"What does it mean when it is   used for a way to walk?", "used", true},
		{"Which adjectives are similar to tidy?", "similar", false},
		{"Which words are used?", "words", false},
		{"Which words can be use here?", "use", false},
		{"What vocabulary, used in virology?", "used", false},
		{"What vocabulary is 'used' in virology?", "used", false},
		{"What is used car dealer slang?", "used car", false},
		{"His used car?", "used", false},
	})
}

// TestLearnPassive: "used" after "is" stood in 5 training questions,
// never anchored: a non-anchor form; a sixth question anchoring a
// participle after "are" (1 of 6, above 2%) takes it off.
func TestLearnPassive(t *testing.T) {
	var f anchorFixture
	for range 5 {
		f.add(t, "What does 'tidy' mean when it is used for a way to clean?", "clean", "used", "clean")
	}
	learnForm(t, &f, FormPassive, "Which words are inebriated in meaning?", "inebriated")
}

// TestPassiveRulesOut: the planner trusts its most probable template (the
// kinds of its anchor); in "Which members of Solea are used?" it anchors
// it on "used" (a node here, with a kind, object), unless a passive's
// participle is a non-anchor form: then the members of Solea (fish one)
// answer.
func TestPassiveRulesOut(t *testing.T) {
	formRulesOut(t, "Which members of Solea are used?", "Used", FormPassive)
}

// TestRelativeVerbForm: a mention right after "that", "which" or "who"
// whose first word is an inflection of a verb is a relative clause's
// verb; a verb's base form there, a noun that is no verb's inflection, an
// inflection after another word, after a pronoun that opens the question
// (which asks) and a quoted one are not.
func TestRelativeVerbForm(t *testing.T) {
	formCases(t, FormRelativeVerb, []formCase{
		{"Pick the sense of 'drought' that falls under time period.", "falls", true},
		{"Pick the sense of 'drought' that falls under time period.", "falls under", true},
		{"Find a particle which belongs to microbiology.", "belongs", true},
		{"Name the man who directed it.", "directed", true},
		{"Which looking at is a word from X?", "looking at", false},
		{"Who directed it?", "directed", false},
		{"Pick the sense that fall under time period.", "fall", false},
		{"the films that Harrison Ford starred in", "Harrison Ford", false},
		{"Pick the sense and falls under time period.", "falls", false},
		{"Pick the sense that 'falls' under time period.", "falls", false},
	})
}

// TestLearnRelativeVerb: "belongs" after "that" stood in 5 training
// questions, never anchored: a non-anchor form; a sixth question
// anchoring an inflection after "which" (1 of 6, above 2%) takes it off.
func TestLearnRelativeVerb(t *testing.T) {
	var f anchorFixture
	for range 5 {
		f.add(t, "Find a particle that belongs to the subject area microbiology.", "microbiology", "belongs", "microbiology")
	}
	learnForm(t, &f, FormRelativeVerb, "Which film, which Opened in 1990?", "Opened")
}

// TestRelativeVerbRulesOut: the planner trusts its most probable
// template (the kinds of its anchor); in "Which members of Solea that
// Falls?" it anchors it on "Falls" (a node here, with a kind, object),
// unless a relative clause's verb is a non-anchor form: then the members
// of Solea (fish one) answer.
func TestRelativeVerbRulesOut(t *testing.T) {
	formRulesOut(t, "Which members of Solea that Falls?", "Falls", FormRelativeVerb)
}

// TestArgumentCompounds: with args (AnchorConfig.ArgumentCompounds), a
// mention joined by a hyphen to "like" or to a verb's inflection after it
// is in no compound; one joined to a noun or a verb's base form, one
// after a hyphen and one inside a longer compound still are; without
// args every one is.
func TestArgumentCompounds(t *testing.T) {
	lex, err := lexicon.WordNet()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		text, w string
		arg     bool // an argument compound's argument
	}{
		{"Which geared-like adjectives are defined using engaged?", "geared", true},
		{"Peter Mullan-directed titles released in 2002", "Peter Mullan", true},
		{"Name some Spielberg-produced films.", "Spielberg", true},
		{"Show me near-synonyms of fruitful.", "near", false},
		{"Give me real-world examples of a lunar crater.", "real", false},
		{"Films by Jean-Luc Godard?", "Luc Godard", false},
		{"Which cat-like-ish animals?", "cat", false},
		{"Anything cat-act related?", "cat", false},
	} {
		m := fixtureMention(t, c.text, c.w)
		for _, args := range []bool{false, true} {
			want := !(args && c.arg)
			if got := slices.Contains(mentionForms(lex, c.text, &m, &AnchorConfig{ArgumentCompounds: args}), FormInCompound); got != want {
				t.Errorf("%q: %q in compound with args %v = %v, want %v", c.text, c.w, args, got, want)
			}
		}
	}
	// The planner reads it so only with ArgumentCompounds: "geared" is
	// no anchor in a compound without it.
	p := lexPlanner(t)
	p.Cfg.Anchors.NonAnchorForms = []string{FormInCompound}
	const q = "Which geared-like adjectives are defined using engaged?"
	m := fixtureMention(t, q, "geared")
	for _, on := range []bool{false, true} {
		p.Cfg.Anchors.ArgumentCompounds = on
		if got := p.nonAnchorForm(q, &m); got == on {
			t.Errorf("ArgumentCompounds %v: nonAnchorForm(%q, geared) = %v, want %v", on, q, got, !on)
		}
	}
}

// TestRelativeAntecedents: with RelativeAntecedents a pronoun right after
// a stop word ("of which", "to which") asks, so a verb's form after it is
// no relative verb ("baked goods" in "... the name of which baked
// goods?"); after a noun it still is; without it both are.
func TestRelativeAntecedents(t *testing.T) {
	lex, err := lexicon.WordNet()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		text, w string
		after   bool // after a stop word
	}{
		{"\"cake\" is the name of which baked goods?", "baked goods", true},
		{"Ice belongs to which frozen thing?", "frozen thing", true},
		{"Pick the sense of 'drought' that falls under time period.", "falls", false},
		{"Find a particle which belongs to microbiology.", "belongs", false},
	} {
		m := fixtureMention(t, c.text, c.w)
		for _, on := range []bool{false, true} {
			want := !(on && c.after)
			if got := slices.Contains(mentionForms(lex, c.text, &m, &AnchorConfig{RelativeAntecedents: on}), FormRelativeVerb); got != want {
				t.Errorf("%q: %q relative verb with RelativeAntecedents %v = %v, want %v", c.text, c.w, on, got, want)
			}
		}
	}
}

// TestNounAntecedents: with NounAntecedents (and RelativeAntecedents) a
// pronoun right after a word the lexicon has only as a verb ("denotes
// which") asks too, so a verb's form after it is no relative verb; after
// a noun ("a particle which", "the films that") it still is, and so it
// is after a word that may be a noun or a verb ("sense that").
func TestNounAntecedents(t *testing.T) {
	lex, err := lexicon.WordNet()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		text, w string
		verb    bool // after a verb alone
	}{
		{"The word \"cake\" denotes which baked goods?", "baked goods", true},
		{"The gloss describes which frozen thing?", "frozen thing", true},
		{"Pick the sense of 'drought' that falls under time period.", "falls", false},
		{"Find a particle which belongs to microbiology.", "belongs", false},
	} {
		m := fixtureMention(t, c.text, c.w)
		for _, on := range []bool{false, true} {
			want := !(on && c.verb)
			if got := slices.Contains(mentionForms(lex, c.text, &m, &AnchorConfig{RelativeAntecedents: true, NounAntecedents: on}), FormRelativeVerb); got != want {
				t.Errorf("%q: %q relative verb with NounAntecedents %v = %v, want %v", c.text, c.w, on, got, want)
			}
		}
	}
}

// TestInPassageForm: a mention inside a quotation that holds more words
// than it is in a passage, at the quotation's first word or inside it; a
// mention that is the whole quotation (a quoted name), one outside every
// quotation and one in a word with an apostrophe are not.
func TestInPassageForm(t *testing.T) {
	formCases(t, FormInPassage, []formCase{
		{`To live on, glossed "resist or withstand wear": which verb?`, "resist", true},
		{`To live on, glossed "resist or withstand wear": which verb?`, "withstand", true},
		{`To live on, glossed "resist or withstand wear": which verb?`, "wear", true},
		{`Which kind of counsel is 'force or impel in an indicated'?`, "impel", true},
		{`To live on, glossed "resist or withstand wear": which verb?`, "live on", false},
		{`Of the meanings of "live on", which is a verb?`, "live on", false},
		{`Of the meanings of 'wolf', which is a composer?`, "wolf", false},
		{`Which of Ann Lee's films won?`, "Ann Lee", false},
	})
}

// TestLearnInPassage: glossed questions quoted a passage in 5 training
// questions and never anchored in it: a non-anchor form; a sixth
// question anchoring a word of a quoted title (1 of 6, above 2%) takes
// it off.
func TestLearnInPassage(t *testing.T) {
	var f anchorFixture
	for range 5 {
		f.add(t, `Which kind of counsel is "force or impel in a way"?`, "counsel", "counsel", "impel")
	}
	learnForm(t, &f, FormInPassage, `Who starred in "Paris at night"?`, "Paris")
}

// TestInPassageRulesOut: the planner trusts its most probable template
// (the kinds of its anchor); in `Which members of Solea, "not Paris"?`
// it anchors it on "Paris" (a node here, with a kind, object), unless a
// word of a passage is a non-anchor form: then the members of Solea
// (fish one) answer.
func TestInPassageRulesOut(t *testing.T) {
	formRulesOut(t, `Which members of Solea, "not Paris"?`, "Paris", FormInPassage)
}

// TestInPassageSlots: with one mention a template slot, the first in the
// question takes it where every mention scores alike; in `"not Paris",
// which kinds of Solea?` that is "Paris" (a node with a kind here,
// object), in a quoted passage. Where the training never anchored in a
// passage the passage's mentions take no slot, and Solea's kind (fish
// one) answers; where it did, "Paris" stands and its kind answers.
func TestInPassageSlots(t *testing.T) {
	q := `"not Paris", which kinds of Solea?`
	for _, c := range []struct {
		forms []string
		want  uint32
	}{{[]string{FormInPassage}, 2}, {nil, 3}} {
		p := filmPlanner(t, []string{"kind_of", "member_of"}, []string{"Paris", "Solea", "fish one", "object"},
			[][3]int{{3, 0, 0}, {2, 0, 1}},
			[][][]string{{{"*", "<-kind_of", "person"}}, {{"*", "<-member_of", "person"}}}, AnchorConfig{NonAnchorForms: c.forms, TopMentions: 1})
		trustFirstTemplate(p)
		pred, err := p.Predict(context.Background(), data.Query{Text: q, ID: -1})
		if err != nil || pred.Reach == nil || !slices.Equal(pred.Reach.Nodes, []uint32{c.want}) {
			t.Errorf("forms %q: %q planned %v reaching %v (%v), want [%d]", c.forms, q, pred.Plan.MetapathTokens(), pred.Reach, err, c.want)
		}
	}
}

// TestInPassageCoAnchor: the planner trusts its most probable template,
// the kinds of Solea that are members of another anchor; in `Which kind
// of Solea is "a fish of Paris"?` that anchor is "Paris", in a quoted
// passage, and fish one (a kind of Solea and a member of Paris) answers
// alone: a passage may name a later path's anchor. Ruled out there too,
// the trusted template would give way to one that reaches object as well.
func TestInPassageCoAnchor(t *testing.T) {
	q := `Which kind of Solea is "a fish of Paris"?`
	p := filmPlanner(t, []string{"kind_of", "member_of"}, []string{"Solea", "Paris", "fish one", "object"},
		[][3]int{{2, 0, 0}, {3, 0, 0}, {2, 1, 1}},
		[][][]string{{{"*", "<-kind_of", "person"}, {"*", "<-member_of", "person"}}, {{"*", "<-kind_of", "person"}}}, AnchorConfig{NonAnchorForms: []string{FormInPassage}})
	trustFirstTemplate(p)
	pred, err := p.Predict(context.Background(), data.Query{Text: q, ID: -1})
	if err != nil || pred.Reach == nil || !slices.Equal(pred.Reach.Nodes, []uint32{2}) {
		t.Errorf("%q planned %v reaching %v (%v), want [2]", q, pred.Plan.MetapathTokens(), pred.Reach, err)
	}
}
