package planner

import "testing"

// TestClauseCompounds: in the asking clause "which movie directors made
// them?" the slot's word "movie" names a type, and it is asked for (her
// film, node 1); with ClauseCompounds the compound's head, "directors",
// names it as it does in the question's own slot (CompoundHeads), and
// the two-hop plan answers (Paul Smith, node 0). A head that may be a
// verb's form ("movie stars") leaves the slot's word.
func TestClauseCompounds(t *testing.T) {
	const q = "Ann Lee starred in some films: which movie directors made them?"
	firstOnOff(t, "ClauseCompounds", func(p *LinkingPlanner, on bool) {
		p.Cfg.Anchors.CompoundHeads, p.Cfg.Anchors.ClauseSlots, p.Cfg.Anchors.ClauseCompounds = true, true, on
	}, 1, 0, q)
	p := clausePlanner(t)
	p.Cfg.Anchors.CompoundHeads, p.Cfg.Anchors.ClauseSlots, p.Cfg.Anchors.ClauseCompounds = true, true, true
	for clause, want := range map[string]string{
		"which movie directors made them?": "person",
		"which movie stars are there?":     "movie",
		"which directors made them?":       "person",
	} {
		if got := p.clauseType(clause, "Ann Lee starred in some films: ", nil); got != want {
			t.Errorf("clauseType(%q) = %q, want %q", clause, got, want)
		}
	}
}
