package planner

import "testing"

// TestOpeningFirst: "to" is an asking word here, as movies-skb's training
// questions made it one, so "Directors attached to movies that Ann Lee
// starred in?" is read as asking for movies (the slot after "to") and the
// ranker's one-hop plan answers (her film, node 1). With OpeningFirst the
// noun the question opens with, "Directors" (a kind of person), is what a
// question no question word occurs in asks for: her film's director
// answers (Paul Smith, node 0), also where "which" is quoted. A question
// word anywhere ("...: which ones?") leaves the slots first.
func TestOpeningFirst(t *testing.T) {
	set := func(p *LinkingPlanner, on bool) {
		p.Cfg.Anchors.AskWords = []string{"to", "which"}
		p.Cfg.Anchors.OpeningNoun = true
		p.Cfg.Anchors.OpeningFirst = on
	}
	firstOnOff(t, "OpeningFirst", set, 1, 0, "Directors attached to movies that Ann Lee starred in?", "Directors attached to movies that Ann Lee starred in, \"which\" being no question.")
	firstOnOff(t, "OpeningFirst (question word)", set, 1, 1, "Directors attached to movies that Ann Lee starred in: which ones?")
}
