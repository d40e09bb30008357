package planner

import "testing"

// TestWhoseRelatives: in titlePlanner's graph "writers" is an answer word
// (->written_by, from films to their writers). "Anything whose writers
// include Ann Lee?" reads it as asked for, and the deeper search answers
// with the writer of the film she starred in (Kim Ray, node 4). With
// WhoseRelatives an answer word right after a "whose" that opens a
// relative clause says what the antecedent has, not what is asked for,
// and is passed over: the films Ann Lee wrote answer (Second Film, node
// 2). A "whose" opening the question, or a phrase after a mark, asks for
// the owner itself, and the word is read as before.
func TestWhoseRelatives(t *testing.T) {
	wantReachCases(t, "WhoseRelatives", func(on bool) *LinkingPlanner {
		p := titlePlanner(t, false, false)
		p.Cfg.Anchors.WhoseRelatives = on
		return p
	}, []reachCase{
		{"Anything whose writers include Ann Lee?", false, 4},
		{"Anything whose writers include Ann Lee?", true, 2},
		{"Whose writers include Ann Lee?", true, 4},
		{"Anything at all: whose writers include Ann Lee?", true, 4},
	})
	for q, want := range map[string]bool{
		"Films from 2000 whose cast includes X?": true,
		"Whose cast includes X?":                 false,
		"Films, whose cast includes X?":          false,
		"Films whose directors' cast is X?":      false,
		"Cast whose cast includes X?":            false,
	} {
		if got := relativeWhose(q, "cast"); got != want {
			t.Errorf("relativeWhose(%q, cast) = %v, want %v", q, got, want)
		}
	}
}
