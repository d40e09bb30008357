package planner

import (
	"context"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/data/lexicon"
	"github.com/strata-retrieval/strata/graphops/linking"
)

// TestLastSentence: the last sentence starts after a full stop, question
// or exclamation mark that ends a word of two letters or digits or more and that
// white space and a capital letter follow; an initial ("S."), a mark
// with no space after it and a lower-case next word split nothing.
func TestLastSentence(t *testing.T) {
	for text, want := range map[string]int{
		"I like Ann Lee. Which films?":                          16,
		"Wow! Really? Which films did she make?":                13,
		"Which movies written by Peter S. Seaman did she make?": 0,
		"No split.Here":            0,
		"Ann Lee. which films?":    0,
		"Which films?":             0,
		"Ann Lee.  Which one? OK.": 21,
		"In 1999. Which?":          9,
		"Émile Zola. Élan?":        13, // bytes
	} {
		if got := lastSentence(text); got != want {
			t.Errorf("lastSentence(%q) = %d, want %d", text, got, want)
		}
	}
	// In lower-case text a lower-case word may start a sentence too.
	for text, want := range map[string]int{
		"ann lee. which films?":      9,
		"hmm. so. Which films?":      9,
		"peter s. seaman films?":     0,
		"i like émile. élan?":        15,
		"Ann Lee. which? films. ok.": 23,
	} {
		if got := lastSentenceOf(text, true, nil); got != want {
			t.Errorf("lastSentenceOf(%q, true) = %d, want %d", text, got, want)
		}
	}
}

// TestContextSentences: sentences before a last one that asks and names
// every person they name are context, so the planner plans the last
// (and says it read the question so); not when the context names a
// person the last does not, names no person, says a number the last
// does not, or the last does not ask, nor without ContextSentences. With
// CasualContext, a context that names no person is one too when none of
// its words names a type or relation of the schema, the last names a
// person and refers back by no pronoun; and text typed in lower case
// starts its sentences in lower case.
func TestContextSentences(t *testing.T) {
	p := castPlanner(t, false, true)
	p.Cfg.Anchors.AnchorTypes = []string{"person"}
	last := "Which films did Ann Lee star in?"
	remember := "I'm trying to remember something. "
	for _, c := range []struct {
		name, text string
		on, casual bool
		want       string
	}{
		{"no person, casual", remember + last, true, true, last},
		{"no person, not casual", remember + last, true, false, ""},
		{"lower case", "i'm trying to remember something. which films did Ann Lee star in?", true, true, "which films did Ann Lee star in?"},
		{"lower case, not casual", "i'm trying to remember something. which films did Ann Lee star in?", true, false, ""},
		{"a type named, casual", "I like movies. " + last, true, true, ""},
		{"a relation named, casual", "I like actors. " + last, true, true, ""},
		{"a pronoun, casual", remember + "Which films did Ann Lee star in with him?", true, true, ""},
		{"no person in the last, casual", remember + "Which films won?", true, true, ""},
		{"a number, casual", "It was in 1999. " + last, true, true, ""},
		{"context", "I like Ann Lee. " + last, true, false, last},
		{"another person", "I like Paul Smith. " + last, true, false, ""},
		{"no person", "I like films. " + last, true, false, ""},
		{"a number", "Ann Lee made films in 1999. " + last, true, false, ""},
		{"a number the question says", "Ann Lee made films in 1999. Which films did Ann Lee star in in 1999?", true, false, "Which films did Ann Lee star in in 1999?"},
		{"the last does not ask", "I like Ann Lee. Which films did Ann Lee star in.", true, false, ""},
		{"without ContextSentences", "I like Ann Lee. " + last, false, false, ""},
	} {
		p.Cfg.Anchors.ContextSentences, p.Cfg.Anchors.CasualContext = c.on, c.casual
		want := c.want
		if want == "" {
			want = c.text
		}
		if got := p.askingSentence(c.text); got != want {
			t.Errorf("%s: askingSentence(%q) = %q, want %q", c.name, c.text, got, want)
		}
	}
	p.Cfg.Anchors.ContextSentences, p.Cfg.Anchors.CasualContext = true, false
	pred, err := p.PredictUngated(context.Background(), data.Query{Text: "I like Ann Lee. " + last, ID: -1})
	if err != nil || pred.ReadAs != last || len(pred.Plan.Anchors) != 1 || pred.Plan.Anchors[0].Text != "Ann Lee" {
		t.Errorf("planned %+v (read as %q), %v; want Ann Lee's films read as %q", pred.Plan, pred.ReadAs, err, last)
	}
}

// FuzzLastSentence: on any text lastSentence returns 0 or an offset
// inside it where a capital letter starts after white space that follows
// a full stop, question or exclamation mark; lastSentenceOf with lower
// case the same where any letter starts, never before lastSentence's.
func FuzzLastSentence(f *testing.F) {
	for _, s := range []string{"I like Ann Lee. Which films?", "Peter S. Seaman?", "a.B", "É. Élan?", "\xff. \xffA", "In 1999. Which?", "ann lee. which films?"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		upper, lower := lastSentence(text), lastSentenceOf(text, true, nil)
		if lower < upper {
			t.Fatalf("lastSentenceOf(%q, true) = %d, before lastSentence's %d", text, lower, upper)
		}
		for _, c := range []struct {
			at    int
			start func(rune) bool
		}{{upper, unicode.IsUpper}, {lower, unicode.IsLetter}} {
			at := c.at
			if at == 0 {
				continue
			}
			if at < 2 || at >= len(text) {
				t.Fatalf("lastSentence(%q) = %d, out of range", text, at)
			}
			if r, _ := utf8.DecodeRuneInString(text[at:]); !c.start(r) {
				t.Fatalf("lastSentence(%q) = %d: %q starts no capital (or letter)", text, at, text[at:])
			}
			before := strings.TrimRight(text[:at], " \t\n")
			if len(before) == len(text[:at]) || !strings.ContainsAny(before[len(before)-1:], ".?!") {
				t.Fatalf("lastSentence(%q) = %d: no mark and space before it", text, at)
			}
		}
	})
}

// TestFrontedPhrase: the question word after a phrase closed by a comma
// opens the question ("In Hebrew, what has Ann Lee appeared in?": word
// 2), not without FrontedPhrase, nor where a question word opens the
// text, where the phrase has a question word or more than
// maxFrontedWords words, where fewer than two words follow the question
// word, or where the text does not end with "?". The object rule reads
// the fronted question as the plain one: with BareObject, "In 1993,
// what has Paul Smith directed?" rules out the directors of the films he
// starred in with FrontedPhrase, and nothing without it.
func TestFrontedPhrase(t *testing.T) {
	p := lexPlanner(t)
	for q, want := range map[string]int{
		"In Hebrew, what has Ann Lee appeared in?":                                     2,
		"Among the adjectives similar to 'metal', which one is defined with 'sheets'?": 6,
		"What did Ann Lee direct, and in which year?":                                  0,
		"Which year, what film?":                                                       0,
		"In 1993 Ann Lee directed films, which?":                                       0,
		"Of all the many films that were made in 1993 by her, which did she direct?":   0,
		"In Hebrew, what has Ann Lee appeared in.":                                     0,
	} {
		words := linking.MentionWords(q)
		for _, on := range []bool{false, true} {
			p.Cfg.Anchors.FrontedPhrase = on
			w := 0
			if on {
				w = want
			}
			if got := p.opening(q, words); got != w {
				t.Errorf("FrontedPhrase %v: opening(%q) = %d, want %d", on, q, got, w)
			}
		}
	}
	lex, err := lexicon.WordNet()
	if err != nil {
		t.Fatal(err)
	}
	for _, on := range []bool{false, true} {
		fp := smithPlanner(t, lex, AnchorConfig{NamedRelations: true, ObjectVerbs: true, VerbFirst: true, BareObject: true, FrontedPhrase: on})
		if got := smithMisses(t, fp, "In 1993, what has Paul Smith directed?", "<-starred_actors movie ->directed_by person"); got != on {
			t.Errorf("FrontedPhrase %v: the directors of Paul Smith's films ruled out %v, want %v", on, got, on)
		}
	}
}
