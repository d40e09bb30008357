package planner

import "testing"

// TestBackPastTypeWords: in "Films of the Ann Lee person: name them." the
// last clause asks ("Films", a verb's form too, opens no request before
// "of": PrepositionOpenings), and the pronoun closing it refers back to the last word before
// it that names a type, "person", so the question asked for people and
// the director of her film answered (Paul Smith, node 0). "person" says
// what the mention before it is (TypeAfterMention); with
// BackPastTypeWords the pronoun refers back past it, to "films", and her
// film answers (node 1). A type word after no mention of its type is
// still referred to ("Films and one person: name them.").
func TestBackPastTypeWords(t *testing.T) {
	set := func(p *LinkingPlanner, on bool) {
		p.Cfg.Anchors.TypeAfterMention = true
		p.Cfg.Anchors.PrepositionOpenings = true
		p.Cfg.Anchors.BackPastTypeWords = on
	}
	firstOnOff(t, "BackPastTypeWords", set, 0, 1, "Films of the Ann Lee person: name them.")
	firstOnOff(t, "BackPastTypeWords", set, 0, 0, "Films of Ann Lee and one person: name them.")
}
