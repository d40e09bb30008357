package planner

import "testing"

// TestFrontedClause: "For films Ann Lee starred in, name the directors."
// fronts a phrase that states before a comma, and its clause after the
// comma asks. Read as a whole, "films" is the first word naming a type,
// and the ranker's one-hop plan (her film, node 1) stands; with
// FrontedClause the request's object, "directors" (a kind of person), is
// what it asks for, and the two-hop plan answers (Paul Smith, node 0). A
// question word right after a noun or a preposition in the phrase opens a
// relative clause ("films whose star", "films of which"), and a question
// word that opens it makes a question of the phrase (the whole is read); a
// clause after the comma that opens with neither a question word nor a
// request's verb asks nothing.
func TestFrontedClause(t *testing.T) {
	for _, on := range []bool{false, true} {
		p := clausePlanner(t)
		p.Cfg.Anchors.FrontedClause = on
		want := uint32(1)
		if on {
			want = 0
		}
		for _, q := range []string{"For movies Ann Lee starred in, name the directors.", "For movies whose star was Ann Lee, name the directors.",
			"For movies of which Ann Lee was a star, name the directors.", "Among the movies Ann Lee starred in, who directed them?"} {
			if pred, got, err := answered(p, q); err != nil || len(got) == 0 || got[0] != want {
				t.Errorf("FrontedClause %v: %q planned %v reaching %v (%v), want %d first", on, q, pred.Plan.MetapathTokens(), got, err, want)
			}
		}
		for _, q := range []string{"Which movies did Ann Lee star in, name the directors.", "For movies Ann Lee starred in, the directors matter."} {
			if pred, got, err := answered(p, q); err != nil || len(got) == 0 || got[0] != 1 {
				t.Errorf("FrontedClause %v: %q planned %v reaching %v (%v), want 1 first", on, q, pred.Plan.MetapathTokens(), got, err)
			}
		}
	}
}

// TestClauseSlots: "Ann Lee starred in some films; name the personnel."
// asks in its last clause, and "personnel" names person only through a
// training lift (the 10 questions with it asked for people, 30 of 120
// did): the lexicon's personnel are a group. Without ClauseSlots the
// clause names no type, the whole is read and the one-hop plan stands (her
// film, node 1); with it the clause asks for people (Paul Smith, node 0).
// So does a compound's head where its first word names none ("list the
// cast members": a member is a person). A lifted word that may be a verb's
// form or an adjective names nothing ("name the one": the training's "one"
// asked for people here), and so does one lifted towards two types
// ("personages" asked for people and films). A clause opening with "whose"
// asks for what has the thing it names, not for that thing: "...; whose
// director was Paul Smith?" names no type with ClauseSlots (the whole is
// read, her film), while without it "director" named the type asked for.
func TestClauseSlots(t *testing.T) {
	el := NewRelWords()
	for range 10 {
		el.Add("who were the personnel of", []string{"A:person"})
		el.Add("who was the one", []string{"A:person"})
	}
	for range 30 {
		el.Add("which movies did star in", []string{"A:movie"})
	}
	// "personages" asked for people and films alike.
	for range 10 {
		el.Add("name the personages", []string{"A:person", "A:movie"})
	}
	for range 60 {
		el.Add("what else is there", []string{"A:other"})
	}
	for _, on := range []bool{false, true} {
		p := clausePlanner(t)
		p.Cfg.Anchors.CompoundHeads = true
		p.Cfg.Anchors.Elements = el
		p.Cfg.Anchors.ClauseSlots = on
		want := uint32(1)
		if on {
			want = 0
		}
		for _, q := range []string{"Ann Lee starred in some films; name the personnel.", "Ann Lee starred in some films; list the cast members."} {
			if pred, got, err := answered(p, q); err != nil || len(got) == 0 || got[0] != want {
				t.Errorf("ClauseSlots %v: %q planned %v reaching %v (%v), want %d first", on, q, pred.Plan.MetapathTokens(), got, err, want)
			}
		}
		// "one" may be an adjective, and "personages" lifted towards
		// two types: neither names one.
		for _, q := range []string{"Ann Lee starred in some films; name the one.", "Ann Lee starred in some films; name the personages."} {
			if pred, got, err := answered(p, q); err != nil || len(got) == 0 || got[0] != 1 {
				t.Errorf("ClauseSlots %v: %q planned %v reaching %v (%v), want 1 first", on, q, pred.Plan.MetapathTokens(), got, err)
			}
		}
		q := "Ann Lee starred in some films; whose director was Paul Smith?"
		if pred, got, err := answered(p, q); err != nil || len(got) == 0 || got[0] != 1-want {
			t.Errorf("ClauseSlots %v: %q planned %v reaching %v (%v), want %d first", on, q, pred.Plan.MetapathTokens(), got, err, 1-want)
		}
	}
}

// TestSlotHeads: "Which of the 2007 releases did Ann Lee appear in?" and
// "Which new releases did Ann Lee appear in?" ask as "Which 2007 releases
// did Ann Lee appear in?" does: for films (First Film, node 1), "releases"
// being a type word of theirs, where the ranker prefers two hops (her
// film's director, Paul Smith, node 0). Without SlotHeads the asking
// word's slot is "of" or "new", which name nothing, and the ranker's plan
// stands. "of" and its determiners are passed over only after "which",
// "what" or "whose": "Name the directors of the 2007 releases Ann Lee
// appeared in." asks for directors either way, and so does "Directors of
// the 2007 releases Ann Lee appeared in?", though "directors" is an asking
// word here (as movies-skb's training taught "genre" to be one: "the genre
// of all their films").
func TestSlotHeads(t *testing.T) {
	for _, on := range []bool{false, true} {
		p := lexPlanner(t)
		preferTwoHops(p)
		p.Cfg.Anchors.AskWords = []string{"directors", "which"}
		p.Cfg.Anchors.TypeWords = map[string][]string{"movie": {"released"}}
		p.Cfg.Anchors.SlotHeads = on
		want := uint32(0)
		if on {
			want = 1
		}
		for _, c := range []struct {
			q    string
			want uint32
		}{
			{"Which 2007 releases did Ann Lee appear in?", 1},
			{"Which of the 2007 releases did Ann Lee appear in?", want},
			{"Which of these releases did Ann Lee appear in?", want},
			{"Which new releases did Ann Lee appear in?", want},
			{"Name the directors of the 2007 releases Ann Lee appeared in.", 0},
			{"Directors of the 2007 releases Ann Lee appeared in?", 0},
		} {
			if pred, got, err := answered(p, c.q); err != nil || len(got) == 0 || got[0] != c.want {
				t.Errorf("SlotHeads %v: %q planned %v reaching %v (%v), want %d first", on, c.q, pred.Plan.MetapathTokens(), got, err, c.want)
			}
		}
	}
}

// TestHyphenedLeads: a first word joined by a hyphen to the next is a
// compound's modifier, no request's verb. "star" is a verb in the lexicon,
// so without HyphenedLeads "Star-actors of Ann Lee's films" reads as the
// request "Star actors ..." asking for people; with it the request asks
// for nothing. WordNet's "Second-generation hyponyms of X, please." asked
// for a generation (a group) so. A hyphen the first word does not join to
// a word after it changes nothing.
func TestHyphenedLeads(t *testing.T) {
	for text, want := range map[string]bool{
		"Second-generation hyponyms of X, please.": true, "\"Well-known\" films": true, "X-Men films": true,
		"Star -- actors of X": false, "Star- actors": false, "Name the well-known films": false, "-based films": false,
	} {
		if got := hyphenedFirst(text); got != want {
			t.Errorf("hyphenedFirst(%q) = %v, want %v", text, got, want)
		}
	}
	for _, on := range []bool{false, true} {
		p := lexPlanner(t)
		p.Cfg.Anchors.LeadVerbAsks = true
		p.Cfg.Anchors.KindTypes = true
		p.Cfg.Anchors.HyphenedLeads = on
		want := "person"
		if on {
			want = ""
		}
		if got, named := p.verbType("Star-actors of Ann Lee's films", nil); got != want || named != !on {
			t.Errorf("HyphenedLeads %v: \"Star-actors ...\" asks for %q (named %v), want %q", on, got, named, want)
		}
		if got, _ := p.verbType("Star actors of Ann Lee's films", nil); got != "person" {
			t.Errorf("HyphenedLeads %v: \"Star actors ...\" asks for %q, want person", on, got)
		}
	}
}
