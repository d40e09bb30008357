package planner

import (
	"testing"

	"github.com/strata-retrieval/strata/graphops/linking"
)

// TestQuantifierTails: with NounClauses, "Ann Lee starred in some films:
// their directors, all of them?" asks nothing (the phrase holds a comma,
// "all" and "them", no nouns), and "films", the first word naming a type,
// is asked for (her film, node 1); with QuantifierTails the quantifier set
// apart by the comma adds nothing, and the phrase asks for the directors
// (Paul Smith, node 0). A tail with no quantifier, one with another word,
// or one no comma sets apart asks nothing.
func TestQuantifierTails(t *testing.T) {
	const q = "Ann Lee starred in some films: their directors, all of them?"
	clauseRule(t, "QuantifierTails", func(p *LinkingPlanner, on bool) {
		p.Cfg.Anchors.NounClauses, p.Cfg.Anchors.QuantifierTails = true, on
	}, []string{q, "Ann Lee starred in some films; the directors, every one?"}, []askCase{
		{q, true},
		{"Ann Lee starred in some films: their directors, if any?", true},
		{"Ann Lee starred in some films: their directors, each of them?", true},
		{"Ann Lee starred in some films: their directors, of them?", false},
		{"Ann Lee starred in some films: their directors, all of the films?", false},
		{"Ann Lee starred in some films: their directors all of them?", false},
		{"Ann Lee starred in some films; their directors, all of them.", false},
	})
	words := linking.MentionWords("their directors, all of them?")
	if got := quantifierTail("their directors, all of them?", words); got != 2 {
		t.Errorf("quantifierTail = %d, want 2 (the words before the tail)", got)
	}
}
