package planner

import "testing"

// TestPersonSlots: "List everyone from Ann Lee's films." has a request
// whose verb is an asking word, so its object is that word's slot, and
// "everyone" there names no type: "films" does, and the ranker's one-hop
// plan answers (her film, node 1). With PersonSlots the pronoun asks for
// what "who" asked for opening the training questions (people), and the
// two-hop plan answers (Paul Smith, node 0); so it does in a clause after
// one that states ("Ann Lee starred in some films; list everyone from
// them."). A
// question word's slot ("Which everyone ...") and "everything" name no
// person.
func TestPersonSlots(t *testing.T) {
	set := func(p *LinkingPlanner, on bool) {
		p.Cfg.Anchors.AskWords = []string{"list", "which"}
		p.Cfg.Anchors.PersonObjects, p.Cfg.Anchors.PersonSlots = true, on
	}
	firstOnOff(t, "PersonSlots", set, 1, 0, "List everyone from Ann Lee's films.", "Ann Lee starred in some films; list everyone from them.")
	firstOnOff(t, "PersonSlots (everything)", set, 1, 1, "List everything from Ann Lee's films.")
	p := clausePlanner(t)
	set(p, true)
	for _, c := range []struct{ text, want string }{
		{"list everyone from Ann Lee's films", "person"},
		{"list everybody from Ann Lee's films", "person"},
		{"list everything from Ann Lee's films", ""},
		{"which everyone from Ann Lee's films", ""},
	} {
		if got := p.askedType(c.text); got != "" {
			t.Errorf("askedType(%q) = %q, want \"\" (the ranker's features read no pronoun)", c.text, got)
		}
		if got, _ := p.askedTypeBy(c.text, nil); got != c.want {
			t.Errorf("askedTypeBy(%q) = %q, want %q", c.text, got, c.want)
		}
	}
}
