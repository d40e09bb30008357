package planner

import (
	"testing"

	"github.com/strata-retrieval/strata/data/lexicon"
	"github.com/strata-retrieval/strata/graphops/linking"
)

// TestMarkedSlots: "which" right after a noun opens a relative clause
// ("films which type X"), where the next word may be a verb, so nounSlots
// leaves it the readings of all its senses: "type" is read "wrote" (to
// type is to write). With a mark between the noun and "which" ("Her film
// output; which type is it?", and after a comma), "which" asks, and with
// markedSlots "type" is read through its noun senses alone, which name
// nothing here: the text stays as written. Without the mark it is read
// as before.
func TestMarkedSlots(t *testing.T) {
	lex, err := lexicon.WordNet()
	if err != nil {
		t.Fatal(err)
	}
	targets := []string{"wrote", "directed", "actors", "genre"}
	r := &wordResolver{lex: lex, match: lex.NewMatcher(targets), known: map[string]bool{"write": true}, memo: map[string][]string{}, names: map[string]string{"wrote": "written_by", "directed": "directed_by", "actors": "starred_actors", "genre": "genre"}, nounSlots: true}
	find := func(string) []linking.LinkedMention { return nil }
	for _, c := range []struct {
		text    string
		on, off string
	}{
		{"Her film output; which type is it?", "Her film output; which type is it?", "Her film output; which wrote is it?"},
		{"Her film output, which type is it?", "Her film output, which type is it?", "Her film output, which wrote is it?"},
		{"films which type X", "films which wrote X", "films which wrote X"},
	} {
		for _, on := range []bool{true, false} {
			r.markedSlots = on
			want := c.off
			if on {
				want = c.on
			}
			if got, _ := r.resolve(c.text, find); got != want {
				t.Errorf("markedSlots %v: %q read as %q, want %q", on, c.text, got, want)
			}
		}
	}
}
