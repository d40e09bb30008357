package planner

import "testing"

// TestPersonOpenings: "everyone behind the films Ann Lee starred in"
// names films with its first word naming a type, and the ranker's
// one-hop plan answers (her film, node 1); with PersonOpenings
// "everyone" opening the text asks for what "who" asked for opening the
// training questions (people), and the two-hop plan to her film's
// director answers (Paul Smith, node 0), also for "Everybody". "someone"
// opens statements too, and asks for nothing.
func TestPersonOpenings(t *testing.T) {
	set := func(p *LinkingPlanner, on bool) { p.Cfg.Anchors.PersonOpenings = on }
	firstOnOff(t, "PersonOpenings", set, 1, 0, "everyone behind the films Ann Lee starred in", "Everybody behind the films Ann Lee starred in")
	firstOnOff(t, "PersonOpenings", set, 1, 1, "someone behind the films Ann Lee starred in")
}
