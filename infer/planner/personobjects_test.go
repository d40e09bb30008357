package planner

import "testing"

// TestPersonObjects: "Name everyone from Ann Lee's films." has a request
// whose object is "everyone", which the lexicon does not have (it has
// "someone", a person), so "films" names the type asked for and the
// ranker's one-hop plan answers (her film, node 1). With PersonObjects
// the request asks for what "who" asked for opening the training
// questions (people here), and the two-hop plan answers (Paul Smith, node
// 0). "everything" is no person's pronoun, and where "who" asked for no
// one type in the training, "everyone" names none.
func TestPersonObjects(t *testing.T) {
	for _, c := range []struct {
		q       string
		on, who bool
		want    uint32
	}{
		{"Name everyone from Ann Lee's films.", false, true, 1},
		{"Name everyone from Ann Lee's films.", true, true, 0},
		{"Give me anybody from Ann Lee's films.", true, true, 0},
		{"Name everything from Ann Lee's films.", true, true, 1},
		{"Name everyone from Ann Lee's films.", true, false, 1},
	} {
		p := clausePlanner(t)
		p.Cfg.Anchors.PersonObjects = c.on
		if !c.who {
			p.Cfg.Anchors.Lead.Firsts["who"] = map[string]int{"person": 5, "movie": 5}
		}
		if pred, got, err := answered(p, c.q); err != nil || len(got) == 0 || got[0] != c.want {
			t.Errorf("PersonObjects %v (who %v): %q planned %v reaching %v (%v), want %d first", c.on, c.who, c.q, pred.Plan.MetapathTokens(), got, err, c.want)
		}
	}
}
