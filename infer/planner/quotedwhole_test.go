package planner

import (
	"context"
	"slices"
	"testing"

	"github.com/strata-retrieval/strata/data"
)

// TestQuotedWhole: a mention inside a quotation that is not all of it,
// marks and the spaces and marks inside them aside, is part of it
// (partOfQuotation); one that is all of it or outside every quotation is
// not. With QuotedWhole the candidates' mentions leave out "Paul Smith"
// quoted inside a gloss, and keep it quoted whole; without it both stay.
func TestQuotedWhole(t *testing.T) {
	for _, c := range []struct {
		text string
		part bool
	}{
		{`Films glossed "made by Paul Smith and friends"?`, true},
		{`Films of "Paul Smith"?`, false},
		{`Films of " Paul Smith. "?`, false},
		{`Films of Paul Smith, "the helmer"?`, false},
		{`Films of 'a friend of Paul Smith'?`, true},
	} {
		p := helmPlannerWith(t, AnchorConfig{})
		quoted := quotedSpans(c.text, false)
		var got []bool
		for _, m := range p.findMentions(c.text) {
			if m.Text == "Paul Smith" {
				got = append(got, partOfQuotation(c.text, quoted, &m))
			}
		}
		if !slices.Equal(got, []bool{c.part}) {
			t.Errorf("%q: Paul Smith part of a quotation %v, want [%v]", c.text, got, c.part)
		}
	}
	for _, c := range []struct {
		text string
		on   bool
		want []string
	}{
		{`Which films were directed as "Paul Smith and friends" put it?`, true, nil},
		{`Which films were directed as "Paul Smith and friends" put it?`, false, []string{"Paul Smith"}},
		{`Which films were directed by "Paul Smith"?`, true, []string{"Paul Smith"}},
	} {
		p := helmPlannerWith(t, AnchorConfig{})
		p.Cfg.Anchors.QuotedWhole = c.on
		_, ments, err := p.candidates(context.Background(), data.Query{Text: c.text, ID: -1}, nil, 0, nil)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, m := range ments {
			got = append(got, m.Text)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("QuotedWhole %v, %q: mentions %q, want %q", c.on, c.text, got, c.want)
		}
	}
}
