package planner

import (
	"context"
	"maps"
	"testing"

	"github.com/strata-retrieval/strata/data"
)

// TestSlotKinds: the training said "written" of writers, "directed" of
// directors and "worked" of actors, and "authors", a word it never used,
// is read "written" in the slot after "which" (to author is to write).
// "Which authors worked with Ann Lee?" then named no type: "to author" is
// a verb too, and a verb's form names no kind outside a slot, so
// writerPlanner's classifier answered with her film (First Film, node 1).
// With SlotKinds the word read in a noun slot keeps the type its noun
// sense names as a kind (person): the films are ruled out and the
// classifier's next plan, her film's director, answers (Paul Smith, node
// 0). A word read outside a noun slot ("Films Ann Lee authors") keeps no
// kind either way.
func TestSlotKinds(t *testing.T) {
	rw := NewRelWords()
	for range 10 {
		for _, c := range [][2]string{{"Which films were written by", "written_by"}, {"Which films were directed by", "directed_by"}, {"Which films had she worked in", "starred_actors"}} {
			rw.Add(c[0], []string{c[1]})
			rw.AddContext(c[0])
		}
	}
	rw.PruneContext(2)
	q := "Which authors worked with Ann Lee?"
	for _, on := range []bool{false, true} {
		p := writerPlanner(t, AnchorConfig{RelWords: rw, Lexicon: true, NamedType: true, KindTypes: true, NounSlots: true, SlotKinds: on, TopTemplates: 3, AskWords: []string{"which"}})
		read, spans := p.resolveRead(q)
		if read != "Which written worked with Ann Lee?" {
			t.Fatalf("SlotKinds %v: %q read as %q, want \"Which written worked with Ann Lee?\"", on, q, read)
		}
		kinds, want := readKinds(read, spans), map[string]string(nil)
		if on {
			want = map[string]string{"written": "person"}
		}
		if !maps.Equal(kinds, want) {
			t.Errorf("SlotKinds %v: kinds of %q = %v, want %v", on, read, kinds, want)
		}
		node := uint32(1)
		if on {
			node = 0
		}
		pred, err := p.Predict(context.Background(), data.Query{Text: q, ID: -1})
		if err != nil || pred.Reach == nil || len(pred.Reach.Nodes) == 0 || pred.Reach.Nodes[0] != node {
			t.Errorf("SlotKinds %v: %q planned %v reaching %v (%v), want %d first", on, q, pred.Plan.MetapathTokens(), pred.Reach, err, node)
		}
		other := "Films Ann Lee authors"
		if read, spans := p.resolveRead(other); readKinds(read, spans) != nil {
			t.Errorf("SlotKinds %v: %q read as %q keeps kinds %v, want none", on, other, read, readKinds(read, spans))
		}
	}
}
