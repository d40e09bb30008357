package planner

import "testing"

// TestHeldSlots: in "Someone would pick which Ann Lee?" the anchor fills
// the slot of "which" and ends the clause. Without HeldSlots the words
// around the anchors name the type asked for all the same: "someone" (a
// person in the lexicon's most frequent sense) rules out Ann Lee's films
// and her film's director answers (Paul Smith, node 0); with it no type is
// named and the ranker's one-hop plan stands (her film, node 1). Where
// the anchor does not end the clause ("Which Ann Lee would someone
// pick?"), or no asking determiner comes before it ("Someone would pick
// Ann Lee?"), "someone" still asks for a person.
func TestHeldSlots(t *testing.T) {
	for _, on := range []bool{false, true} {
		p := clausePlanner(t)
		p.Cfg.Anchors.SynonymTypes = true
		p.Cfg.Anchors.HeldSlots = on
		want := uint32(0)
		if on {
			want = 1
		}
		for _, q := range []string{"Someone would pick which Ann Lee?", "Someone would pick which Ann Lee, then?"} {
			if pred, got, err := answered(p, q); err != nil || len(got) == 0 || got[0] != want {
				t.Errorf("HeldSlots %v: %q planned %v reaching %v (%v), want %d first", on, q, pred.Plan.MetapathTokens(), got, err, want)
			}
		}
		for _, q := range []string{"Which Ann Lee would someone pick?", "Someone would pick Ann Lee?"} {
			if pred, got, err := answered(p, q); err != nil || len(got) == 0 || got[0] != 0 {
				t.Errorf("HeldSlots %v: %q planned %v reaching %v (%v), want 0 first", on, q, pred.Plan.MetapathTokens(), got, err)
			}
		}
	}
}
