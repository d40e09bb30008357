package planner

import "testing"

// TestOpeningLift: "people" names no type by the schema's word or the
// lexicon (a people is a group), only by a training lift towards persons
// ("people who directed ..." asked for persons), so "People behind the
// camera for the films Ann Lee starred in?" names nothing the rules read
// and the ranker's one-hop plan answers (her film, node 1). With
// OpeningLift the noun the question opens with names the type its lift
// does: her film's director answers (Paul Smith, node 0). An auxiliary
// opening a question names nothing, though "have" lifts towards persons
// here: "Have Ann Lee's films been released?" is answered with her film
// either way. Nor does a lift the training does not bear out: "crew"
// came in 10 training questions here, 8 of them asking for persons (a
// lift above 3, a share below 90%). Nor does a label a colon sets apart
// ("People: behind the camera ...").
func TestOpeningLift(t *testing.T) {
	set := func(p *LinkingPlanner, on bool) {
		el := NewRelWords()
		for range 10 {
			el.Add("people who directed", []string{"A:person"})
			el.Add("who have directed", []string{"A:person"})
		}
		for range 100 {
			el.Add("which movies did star in", []string{"A:movie"})
		}
		for i := range 10 {
			el.Add("crew", []string{"A:" + map[bool]string{true: "person", false: "movie"}[i < 8]})
		}
		p.Cfg.Anchors.Elements = el
		p.Cfg.Anchors.OpeningNoun = true
		p.Cfg.Anchors.ImperativeOpenings = true
		p.Cfg.Anchors.OpeningLift = on
	}
	firstOnOff(t, "OpeningLift", set, 1, 0, "People behind the camera for the films Ann Lee starred in?")
	firstOnOff(t, "OpeningLift (auxiliary)", set, 1, 1, "Have Ann Lee's films been released?")
	firstOnOff(t, "OpeningLift (not borne out)", set, 1, 1, "Crew behind the camera for the films Ann Lee starred in?")
	firstOnOff(t, "OpeningLift (label)", set, 1, 1, "People: behind the camera for the films Ann Lee starred in?")
}
