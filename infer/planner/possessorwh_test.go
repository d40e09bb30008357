package planner

import "testing"

// TestPossessorWh: no training question opened with "whose", so "Whose
// faces are seen in the films Ann Lee starred in?" names no type ("films"
// names what Ann Lee is in, right before her) and the ranker's one-hop
// plan answers (her film, node 1). With PossessorWh "whose" asks for what
// "who" asked for opening the training questions (people): her film's
// director answers (Paul Smith, node 0), also where "whose" opens an
// asking clause after a colon ("Ann Lee starred in some films: whose
// direction were they under?"). Where the training opened enough
// questions with "whose" to say, they decide.
func TestPossessorWh(t *testing.T) {
	whFormOnOff(t, "PossessorWh", "whose", func(a *AnchorConfig, on bool) { a.PossessorWh = on }, "Whose faces are seen in the films Ann Lee starred in?", "Ann Lee starred in some films: whose direction were they under?")
}

// whFormOnOff asks qs of a clausePlanner whose training opened no question
// with question word w ("who" opened them, asking for people), with a
// rule (set) off and on: the one-hop plan answers with the rule off (Ann
// Lee's film, node 1), her film's director (node 0) with it on. Where the
// training opened minAskQuestions questions with w, asking for films, they
// decide: node 1 either way.
func whFormOnOff(t *testing.T, rule, w string, set func(a *AnchorConfig, on bool), qs ...string) {
	t.Helper()
	plain := func(p *LinkingPlanner, on bool) {
		p.Cfg.Anchors.WhAsks = true
		p.Cfg.Anchors.ClauseSlots = true
		set(p.Cfg.Anchors, on)
	}
	firstOnOff(t, rule, plain, 1, 0, qs...)
	trained := func(p *LinkingPlanner, on bool) {
		plain(p, on)
		p.Cfg.Anchors.Lead.Firsts[w] = map[string]int{"movie": minAskQuestions}
	}
	firstOnOff(t, rule+" ("+w+" trained)", trained, 1, 1, qs[0])
}
