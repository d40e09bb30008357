package planner

import (
	"context"
	"testing"

	"github.com/strata-retrieval/strata/data"
)

// TestClosesAsked: a text ends with a question mark when only spaces,
// closing quotes and closing brackets follow it; a question mark inside
// the text or a closing full stop is none.
func TestClosesAsked(t *testing.T) {
	for text, want := range map[string]bool{
		"A sandwich used chiefly in the UK?":  true,
		"Films of X? ":                        true,
		"Is it \u201cWho?\u201d":              true,
		"(films of X?)":                       true,
		"Films of X.":                         false,
		"Why? Films of X":                     false,
		"a sandwich used chiefly in the UK":   false,
		"":                                    false,
		"?":                                   true,
		"what do they call it?\u00a0is wrong": false,
	} {
		if got := closesAsked(text); got != want {
			t.Errorf("closesAsked(%q) = %v, want %v", text, got, want)
		}
	}
}

// TestQuestionMarks: with FitConfig.QuestionMarks a query the gate
// rejects (its bias puts every text at FitProb 0.0067, below Min 0.5)
// keeps its plan when it closes with a question mark, and falls back
// when it does not; without it, both fall back.
func TestQuestionMarks(t *testing.T) {
	p := rejectingCastPlanner(t)
	for _, c := range []struct {
		on    bool
		text  string
		noFit bool
	}{
		{true, "Which films star Ann Lee?", false},
		{true, "Which films star Ann Lee", true},
		{false, "Which films star Ann Lee?", true},
		{false, "Which films star Ann Lee", true},
	} {
		p.Cfg.Anchors.Fit = &FitConfig{Dim: 64, Min: 0.5, QuestionMarks: c.on}
		pred, err := p.Predict(context.Background(), data.Query{Text: c.text, ID: -1})
		if err != nil {
			t.Fatal(err)
		}
		if pred.NoFit != c.noFit || pred.Fit > 0.01 {
			t.Errorf("QuestionMarks %v, %q: NoFit %v (fit %v), want %v", c.on, c.text, pred.NoFit, pred.Fit, c.noFit)
		}
		if !c.noFit && (pred.Conf != 1 || len(pred.Plan.MetapathTokens()) != 1) {
			t.Errorf("QuestionMarks %v, %q: plan %v confidence %v, want the one-hop plan at 1", c.on, c.text, pred.Plan.MetapathTokens(), pred.Conf)
		}
	}
}

// TestAsksSentence: a question mark outside quotations followed by a
// space and a capital letter closes an asked sentence; one inside a
// quotation, in a year ("518?-438"), before a comma or closing the text
// does not (closesAsked reads that one).
func TestAsksSentence(t *testing.T) {
	for text, want := range map[string]bool{
		"Did X act in 2008? Name them.":                     true,
		"Why?  Films of X":                                  true,
		"an action \"how could you do such a thing?\" Noun": false,
		"a reply \"is it you? Yes it is\" noun":             false,
		"Tags: biography?, england":                         false,
		"Greek lyric poet (518?-438 BC)":                    false,
		"Did X act in 2008? name them":                      false,
		"Films of X?":                                       false,
		"Is it \u201cWho?\u201d Tell me.":                   false,
		"Is it \u201cWho\u201d? Tell me.":                   true,
	} {
		if got := asksSentence(text); got != want {
			t.Errorf("asksSentence(%q) = %v, want %v", text, got, want)
		}
	}
}

// TestAskedBelowGate: a query the gate rejects keeps its plan when a
// sentence of it closes with a question mark, with FitConfig.
// AskedSentences (and QuestionMarks), or when a later sentence of it opens
// with a request, with FitConfig.AskedRequests; without the flag it falls
// back.
func TestAskedBelowGate(t *testing.T) {
	p := rejectingCastPlanner(t)
	for _, c := range []struct {
		name string
		fit  func(on bool) *FitConfig
		text string
	}{
		{"AskedSentences", func(on bool) *FitConfig {
			return &FitConfig{Dim: 64, Min: 0.5, QuestionMarks: true, AskedSentences: on}
		}, "Which films star Ann Lee? Name them."},
		{"AskedRequests", func(on bool) *FitConfig { return &FitConfig{Dim: 64, Min: 0.5, AskedRequests: on} }, "Ann Lee stars in films. Name them."},
		{"ReaderRequests", func(on bool) *FitConfig { return &FitConfig{Dim: 64, Min: 0.5, ReaderRequests: on} }, "Ann Lee stars in films; list them."},
	} {
		for _, on := range []bool{true, false} {
			p.Cfg.Anchors.Fit = c.fit(on)
			pred, err := p.Predict(context.Background(), data.Query{Text: c.text, ID: -1})
			if err != nil {
				t.Fatal(err)
			}
			if pred.NoFit == on {
				t.Errorf("%s %v: NoFit %v, want %v", c.name, on, pred.NoFit, !on)
			}
		}
	}
}

// TestRequestSentence: a later sentence opening with a capitalised verb's
// base form, a clause after ; or : opening with a lower-case one before
// "me", and "I" with a verb are requests; the text's own first words, an
// initial's full stop ("S. Grant"), a quotation, and a lower-case verb
// with no "me" or "us" after it are not.
func TestRequestSentence(t *testing.T) {
	for text, want := range map[string]bool{
		"mountain chain has components. Tell me the geological formation among them.": true,
		"Glossed \"the dynasty\" and filed below swayer: give me that entry.":         true,
		"rock has senses; I want the one that is a genre.":                            true,
		"Films of Ann Lee. Name them.":                                                true,
		"Tell me the films.":                                                          false,
		"under the command of Ulysses S. Grant won a decisive victory":                false,
		"undergo passive experience of: \"We felt the effects of inflation\"":         false,
		"undergo passive experience of: \"Name the effects of inflation\"":            false,
		"a reply \"yes. Name it\" noun":                                               false,
		"rock has parts. tell the story":                                              false,
		"a reply; give a sign":                                                        false,
	} {
		if got := requestSentence(text); got != want {
			t.Errorf("requestSentence(%q) = %v, want %v", text, got, want)
		}
	}
}

// TestReaderRequest: "please" closing a sentence, "and" with a verb and
// "me", and a closing clause of a verb and "it" or "them" address the
// reader; the same words quoted, "please" as the verb ("eager to
// please", "please the senses"), a verb and "it" that do not close the
// text (WordNet's "sit back; take it easy settle into ..."), "and" with
// a verb and no "me" or "us" are not.
func TestReaderRequest(t *testing.T) {
	for text, want := range map[string]bool{
		"\"cupflower\" has many senses; the shrub one, please.":                         true,
		"Subkinds of the subkinds of armorial bearing, please":                          true,
		"Please. The shrub one.":                                                        true,
		"Go two generations down from isopod and tell me who lives there.":              true,
		"There's a shrub that people also refer to as \"cupflower\"; pick it out.":      true,
		"Some cards has the gloss \"a card game\"; identify it.":                        true,
		"rock has parts: name them":                                                     true,
		"a waiter eager to please.":                                                     false,
		"give pleasure to \"These colors please the senses\"; \"a pleasing sensation\"": false,
		"a reply \"the shrub one, please.\" noun":                                       false,
		"sit back; take it easy settle into a comfortable sitting position":             false,
		"cosmetic surgery to remove wrinkles and tighten the skin":                      false,
		"go; pick it out of the box":                                                    false,
		"pick it out":                                                                   false,
	} {
		if got := readerRequest(text); got != want {
			t.Errorf("readerRequest(%q) = %v, want %v", text, got, want)
		}
	}
}
