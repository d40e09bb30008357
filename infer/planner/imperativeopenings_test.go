package planner

import "testing"

// TestImperativeOpenings: castPlanner's ranker turned to prefer two hops
// answers with her film's director (Paul Smith, node 0) where nothing
// names a type asked for. "Release", a noun and a verb in the lexicon,
// opens "Release the Ann Lee titles, please"; as a noun it is a type word
// of movies (OpeningNoun), and her film (First Film, node 1) answers.
// With ImperativeOpenings a verb followed by a determiner opens a request
// and names nothing, so the two hops answer. Followed by no determiner
// ("Release with Ann Lee, please"), by a relative word ("Release that Ann
// Lee made, please"), or in a form no verb's lemma has ("Releases the Ann
// Lee titles, please"), it still names films.
func TestImperativeOpenings(t *testing.T) {
	build := func(on bool) *LinkingPlanner {
		p := lexPlanner(t)
		preferTwoHops(p)
		p.Cfg.Anchors.TypeWords = map[string][]string{"movie": {"released"}}
		p.Cfg.Anchors.OpeningNoun = true
		p.Cfg.Anchors.ImperativeOpenings = on
		return p
	}
	wantReachCases(t, "ImperativeOpenings", build, []reachCase{
		{"Release the Ann Lee titles, please", false, 1},
		{"Release the Ann Lee titles, please", true, 0},
		{"Release with Ann Lee, please", true, 1},
		{"Release that Ann Lee made, please", true, 1},
		{"Releases the Ann Lee titles, please", true, 1},
	})
}
