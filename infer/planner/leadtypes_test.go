package planner

import (
	"math"
	"testing"

	"github.com/strata-retrieval/strata/graphops/linking"
)

// TestLeadTypes: the smoothed answer-type probabilities after the lead
// words, worked by hand (alpha 2; the type prior is add-one over the
// types seen plus one unseen).
func TestLeadTypes(t *testing.T) {
	l := NewLeadTypes()
	l.Add([2]string{"who", "directed"}, "person")
	l.Add([2]string{"who", "directed"}, "person")
	l.Add([2]string{"who", "wrote"}, "person")
	l.Add([2]string{"what", "films"}, "movie")
	for _, c := range []struct {
		lead [2]string
		typ  string
		want float64
	}{
		// p0 = 4/7; after "who" (3 of 3 person): (3+2·4/7)/5 = 29/35;
		// after "who directed" (2 of 2): (2+2·29/35)/4 = 32/35.
		{[2]string{"who", "directed"}, "person", 32.0 / 35},
		// p0 = 2/7; after "who" (0 of 3): (2·2/7)/5 = 4/35; "who sang"
		// unseen: (0+2·4/35)/2 = 4/35.
		{[2]string{"who", "sang"}, "movie", 4.0 / 35},
		// An unseen type: p0 = 1/7, after "who": (2/7)/5 = 2/35.
		{[2]string{"who", "sang"}, "genre", 2.0 / 35},
		// An unseen first word keeps the prior: 4/7.
		{[2]string{"list", "films"}, "person", 4.0 / 7},
	} {
		if got := l.Prob(c.lead, c.typ); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("Prob(%v, %s) = %.6f, want %.6f", c.lead, c.typ, got, c.want)
		}
	}
}

// TestLeadWords: anchor mentions count as one word "<m>"; other mentions
// are words like any other.
func TestLeadWords(t *testing.T) {
	ments := []linking.LinkedMention{{TokStart: 0, TokEnd: 2, Text: "Tom Hanks"}, {TokStart: 4, TokEnd: 5, Text: "films"}}
	for _, c := range []struct {
		text    string
		anchors []int
		want    [2]string
	}{
		{"Tom Hanks starred in which films", []int{0}, [2]string{"<m>", "starred"}},
		{"Tom Hanks starred in which films", nil, [2]string{"tom", "hank"}}, // MentionWords' normalised forms,
		{"Tom Hanks", []int{0}, [2]string{"<m>", "<s>"}},
	} {
		if got := LeadWords(c.text, ments, c.anchors); got != c.want {
			t.Errorf("LeadWords(%q, %v) = %v, want %v", c.text, c.anchors, got, c.want)
		}
	}
	two := []linking.LinkedMention{{TokStart: 0, TokEnd: 1}, {TokStart: 1, TokEnd: 2}}
	if got := LeadWords("Hanks Spielberg films", two, []int{0, 1}); got != [2]string{"<m>", "film"} {
		t.Errorf("adjacent anchors: %v, want [<m> film]", got)
	}
}
