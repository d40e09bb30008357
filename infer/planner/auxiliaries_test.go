package planner

import "testing"

// TestAuxiliaries: a form of "do" after a question word of its clause and
// before a word is a question's auxiliary (questionAuxiliary); one that
// opens or ends the text, follows "to", is quoted, or has no question word
// before it in its clause is not; and nonAnchorForm rules it out only
// with Auxiliaries.
func TestAuxiliaries(t *testing.T) {
	for _, c := range []struct {
		text, phrase string
		want         bool
	}{
		{"What do you get two rungs down from anticonvulsant?", "do", true},
		{"Which vaccine does the dictionary tag brand name?", "does", true},
		{"Two steps beneath ruiner, what do you find?", "do", true},
		{"I heard someone say \"daze\" for a confusedness; which one did they mean?", "did", true},
		{"Do films by X exist?", "Do", false},
		{"Which verbs are ways to do?", "do", false},
		{"Which verbs name a way to do something?", "do", false},
		{"What is 'do' in music?", "do", false},
		{"They do it. Which one?", "do", false},
		{"Which films does X direct?", "films", false},
		{"Which films did the writer of does write?", "does", true},
	} {
		m := mentionOf(t, c.text, c.phrase)
		if got := questionAuxiliary(c.text, &m); got != c.want {
			t.Errorf("questionAuxiliary(%q, %q) = %v, want %v", c.text, c.phrase, got, c.want)
		}
	}
	p := lexPlanner(t)
	const q = "What do you get two rungs down from anticonvulsant?"
	m := mentionOf(t, q, "do")
	for _, on := range []bool{false, true} {
		p.Cfg.Anchors.Auxiliaries = on
		if got := p.nonAnchorForm(q, &m); got != on {
			t.Errorf("Auxiliaries %v: nonAnchorForm(%q, do) = %v, want %v", on, q, got, on)
		}
	}
}
