package planner

import (
	"strings"
	"testing"

	"github.com/strata-retrieval/strata/data"
)

// TestQuoteLabels: over a schema with a part holonym, the lexicon reads
// "fragment", a word no training question used, as "part" (a fragment is
// a piece, a part). Right before a quotation that names no node, the word
// labels the quoted text, and with QuoteLabels planning leaves it as
// written; before a quoted node's name ("the fragment 'fine arts'") and
// away from quotations it is read as before, and the text-fit gate's
// reading (FitText) is the same either way.
func TestQuoteLabels(t *testing.T) {
	s := nounTree([]string{"hypernym", "part holonym"}, "watercolor", 1)
	rw := NewRelWords()
	for range 10 {
		rw.Add("the parts of", []string{"part holonym"})
		rw.Add("the kinds of", []string{"hypernym"})
	}
	tmpls := [][]data.Path{data.MustPaths([]string{"*", "<-hypernym", "*"})}
	for _, rule := range []bool{false, true} {
		p := testPlanner(t, s, tmpls, 0, 0, AnchorConfig{Lexicon: true, QuoteLabels: rule, RelWords: rw})
		if p.words == nil {
			t.Fatal("no word resolver")
		}
		for text, label := range map[string]bool{
			`Which kinds of painting are defined with the fragment "oil on paper"?`: true,
			`Which kinds of painting have the fragment 'fine arts'?`:                false,
			`Which fragment of painting is defined as "oil on paper"?`:              false,
		} {
			got, _ := p.resolveRead(text)
			want := text
			if !label || !rule {
				want = strings.Replace(text, "fragment", "part", 1)
			}
			if got != want {
				t.Errorf("QuoteLabels %v: %q read as %q, want %q", rule, text, got, want)
			}
			if fit, wantFit := p.FitText(text), strings.Replace(text, "fragment", "part", 1); fit != wantFit {
				t.Errorf("QuoteLabels %v: the gate reads %q as %q, want %q", rule, text, fit, wantFit)
			}
		}
	}
}
