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
	set := func(p *LinkingPlanner, on bool) {
		p.Cfg.Anchors.SynonymTypes = true
		p.Cfg.Anchors.HeldSlots = on
	}
	firstOnOff(t, "HeldSlots", set, 0, 1, "Someone would pick which Ann Lee?", "Someone would pick which Ann Lee, then?")
	firstOnOff(t, "HeldSlots", set, 0, 0, "Which Ann Lee would someone pick?", "Someone would pick Ann Lee?")
}
