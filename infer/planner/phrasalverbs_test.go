package planner

import "testing"

// TestFindMentionsPhrasalVerbs: over an SKB whose nodes are named "turn
// up", "go down", "made up", "step-down", "go past" and "Step Up", a
// verb and its particle that are the clause's own verb name nothing with
// PhrasalVerbs: written in the -s form ("turns up") or opening the
// question (an imperative, "Go down ..."). A participle may name an
// adjective ("made up"), a hyphened compound, a title in capitals and a
// quoted verb are names, and the base form after "to" names the verb; all
// anchor either way, as everything does without the rule (checkpoints
// saved before it).
func TestFindMentionsPhrasalVerbs(t *testing.T) {
	p := plannerOverNamed(t, true, "turn up", "go down", "made up", "step-down", "go past", "Step Up")
	checkMentionsWith(t, "PhrasalVerbs", p, func(on bool) { p.Cfg.Anchors.PhrasalVerbs = on }, []mentionCase{
		{"Which film of Paul Smith turns up?", []string{"Paul Smith"}, []string{"Paul Smith", "turns up"}},
		{"Go down two levels from Paul Smith.", []string{"Paul Smith"}, []string{"Go down", "Paul Smith"}},
		{"What is Paul Smith made up of?", []string{"Paul Smith", "made up"}, []string{"Paul Smith", "made up"}},
		{"step-down: which film?", []string{"step-down"}, []string{"step-down"}},
		{"Step Up was directed by whom?", []string{"Step Up"}, []string{"Step Up"}},
		{"What does 'go past' mean?", []string{"go past"}, []string{"go past"}},
		{"Which films are ways to go down?", []string{"go down"}, []string{"go down"}},
	})
}
