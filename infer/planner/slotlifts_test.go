package planner

import "testing"

// TestSlotLifts: "people" names no type by the schema's word or the
// lexicon (a people is a group), only by a training lift towards persons
// ("people who directed ..." asked for persons), and no training
// question wrote "which people". Without SlotLifts, "Which people were
// behind the camera for the films Ann Lee starred in?" names nothing the
// rules read, and the ranker's one-hop plan answers (her film, node 1);
// with it the noun after "which" names the type its lift does, her film
// is ruled out, and its director answers (Paul Smith, node 0). A lift
// the training does not bear out names nothing ("crew": 8 of 10 training
// questions asked for persons), nor does a verb after "which" ("films in
// which appeared": "appeared" lifts towards persons as often as "people"
// does), nor a word the lexicon read an unseen word as. A lift below 2
// still names the type where the training bears it out: "feature" asked
// for films in all of its 10 training questions, but films are what most
// questions ask for (a lift of 1.25), so "Which feature did Ann Lee
// star in" names films only with SlotLifts.
func TestSlotLifts(t *testing.T) {
	set := func(p *LinkingPlanner, on bool) {
		el := NewRelWords()
		for range 10 {
			el.Add("people who directed", []string{"A:person"})
			el.Add("who appeared", []string{"A:person"})
		}
		for range 100 {
			el.Add("which movies did star in", []string{"A:movie"})
		}
		for range 10 {
			el.Add("feature", []string{"A:movie"})
		}
		for i := range 10 {
			el.Add("crew", []string{"A:" + map[bool]string{true: "person", false: "movie"}[i < 8]})
		}
		p.Cfg.Anchors.Elements = el
		p.Cfg.Anchors.SlotLifts = on
	}
	firstOnOff(t, "SlotLifts", set, 1, 0, "Which people were behind the camera for the films Ann Lee starred in?")
	firstOnOff(t, "SlotLifts (not borne out)", set, 1, 1, "Which crew were behind the camera for the films Ann Lee starred in?")

	p := clausePlanner(t)
	set(p, true)
	for _, c := range []struct {
		restr string
		read  map[string]bool
		want  string
		named bool
	}{
		{"Which people were behind the camera for the films", nil, "person", true},
		{"Which people were behind the camera for the films", map[string]bool{"people": true}, "person", false},
		{"Which crew were behind the camera for the films", nil, "person", false},
		{"films in which appeared", nil, "person", false},
		{"Which feature did star in", nil, "movie", true},
	} {
		if got, named := p.askedTypeRead(c.restr, nil, c.read); got != c.want || named != c.named {
			t.Errorf("askedTypeRead(%q, read %v) = %q, %v; want %q, %v", c.restr, c.read, got, named, c.want, c.named)
		}
	}
	p.Cfg.Anchors.SlotLifts = false
	if got, named := p.askedTypeRead("Which feature did star in", nil, nil); got == "movie" && named {
		t.Errorf("without SlotLifts askedTypeRead(%q) = %q, named", "Which feature did star in", got)
	}
}
