package planner

import (
	"context"
	"slices"
	"testing"

	"github.com/strata-retrieval/strata/data"
)

// TestWrittenAnchors: "helmed", a word no training question used, is read
// as "directed", which names a node here ("Directed", of no edge). With
// WrittenAnchors the mention of the word read is not the question's, and
// only "Paul Smith", which the question writes, is left to anchor a plan;
// without it the word read is a mention too, capitalised or not.
func TestWrittenAnchors(t *testing.T) {
	for _, c := range []struct {
		text, readAs string
		on           bool
		want         []string
	}{
		{"Which films were helmed by Paul Smith?", "Which films were directed by Paul Smith?", false, []string{"directed", "Paul Smith"}},
		{"Which films were helmed by Paul Smith?", "Which films were directed by Paul Smith?", true, []string{"Paul Smith"}},
		{"Helmed by Helm: which films?", "Directed by Helm: which films?", true, []string{"Helm"}},
		{"Helmed by Helm: which films?", "Directed by Helm: which films?", false, []string{"Directed", "Helm"}},
	} {
		p := helmPlannerWith(t, AnchorConfig{Lexicon: true}, "Directed")
		p.Cfg.Anchors.WrittenAnchors = c.on
		resolved, read := p.resolveRead(c.text)
		if resolved != c.readAs {
			t.Fatalf("%q read as %q, want %q", c.text, resolved, c.readAs)
		}
		_, ments, err := p.candidates(context.Background(), data.Query{Text: resolved, ID: -1}, nil, 0, read, false)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, m := range ments {
			got = append(got, m.Text)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("WrittenAnchors %v, %q: mentions %q, want %q", c.on, c.text, got, c.want)
		}
	}
}
