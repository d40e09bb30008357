package planner

import (
	"strings"
	"testing"

	"github.com/strata-retrieval/strata/graphops/linking"
)

// TestWithoutPolite: a word of courtesy goes where it stands as such, with
// the comma that sets it off; a quoted one, one inside a name of more
// than one word and one that is the verb ("Which films please critics?")
// stay.
func TestWithoutPolite(t *testing.T) {
	isVerb := func(w string) bool { return w == "name" || w == "list" || w == "tell" || w == "give" }
	var names []linking.LinkedMention
	find := func(string) []linking.LinkedMention { return names }
	for _, c := range []struct{ in, want string }{
		{"Cast lists, please, for whatever Ann Lee directed in 2000.", "Cast lists for whatever Ann Lee directed in 2000."},
		{"Titles only, please.", "Titles only."},
		{"Their casts, please?", "Their casts?"},
		{"Please, who acted in Ann Lee's films?", "Who acted in Ann Lee's films?"},
		{"Could you please name the directors?", "Could you name the directors?"},
		{"Kindly list the writers of films Ann Lee acted in.", "List the writers of films Ann Lee acted in."},
		{"Please list the cast. Thanks, please, for the help.", "List the cast. Thanks for the help."},
		{"Which films please critics?", "Which films please critics?"},
		{"What does 'please, list' mean?", "What does 'please, list' mean?"},
		{"No courtesy at all here.", "No courtesy at all here."},
	} {
		if got := withoutPolite(c.in, isVerb, find); got != c.want {
			t.Errorf("withoutPolite(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	// A name of more than one word keeps its word.
	const q = "Who directed Please Give, please?"
	at := strings.Index(q, "Please Give")
	names = []linking.LinkedMention{{Text: "Please Give", Start: at, End: at + len("Please Give"), TokStart: 2, TokEnd: 4}}
	if got, want := withoutPolite(q, isVerb, find), "Who directed Please Give?"; got != want {
		t.Errorf("withoutPolite(%q) = %q, want %q", q, got, want)
	}
}

// TestPoliteWords: "please" between "Could you" and the request's verb,
// and "Kindly" before it, hide the request (verbType reads its verb and
// the object's type past "you"): without PoliteWords no type is asked,
// and the ranker's one-hop plan answers (Ann Lee's film, node 1); with it
// the request's object, "directors", asks for people, and the two-hop
// plan answers (Paul Smith, node 0), as it does without the courtesy.
func TestPoliteWords(t *testing.T) {
	set := func(p *LinkingPlanner, on bool) {
		p.Cfg.Anchors.AddressedRequests = true
		p.Cfg.Anchors.PoliteWords = on
	}
	firstOnOff(t, "PoliteWords", set, 1, 0, "Could you please name the directors of the films Ann Lee starred in?", "Kindly name the directors of Ann Lee's films.")
	// Without the courtesy the request asks either way.
	firstOnOff(t, "PoliteWords", set, 0, 0, "Name the directors of Ann Lee's films.")
}
