package planner

import "testing"

// TestFindMentionsFiniteVerbs: over an SKB whose nodes are named "sit",
// "appear", "make", "fall", "come" and "Sit", a one-word verb that is its
// clause's finite verb names nothing with FiniteVerbs: an -s form that is
// no noun's plural ("sits", "appears"), or a base form right after a
// plural noun, its subject ("nouns sit", "pieces make"). An -s form that
// may be a plural ("falls", "comes"), a base form after a singular noun
// ending in s ("class sit") or after "to", a word in capitals and a quoted
// word anchor either way, as everything does without the rule
// (checkpoints saved before it).
func TestFindMentionsFiniteVerbs(t *testing.T) {
	p := plannerOverNamed(t, true, "sit", "appear", "make", "fall", "come", "Sit")
	checkMentionsWith(t, "FiniteVerbs", p, func(on bool) { p.Cfg.Anchors.FiniteVerbs = on }, []mentionCase{
		{"Go two films down from Paul Smith; what sits there?", []string{"Paul Smith"}, []string{"Paul Smith", "sits"}},
		{"'unison' appears in which film of Paul Smith?", []string{"Paul Smith"}, []string{"appears", "Paul Smith"}},
		{"Which nouns sit two films under Paul Smith?", []string{"Paul Smith"}, []string{"sit", "Paul Smith"}},
		{"What pieces make Paul Smith's films?", []string{"Paul Smith's"}, []string{"make", "Paul Smith's"}},
		{"What falls under Paul Smith?", []string{"falls", "Paul Smith"}, []string{"falls", "Paul Smith"}},
		{"Which film comes after Paul Smith?", []string{"comes", "Paul Smith"}, []string{"comes", "Paul Smith"}},
		{"Does the class sit with Paul Smith?", []string{"sit", "Paul Smith"}, []string{"sit", "Paul Smith"}},
		{"Which film is a way to sit?", []string{"sit"}, []string{"sit"}},
		{"Is Sits a film of Paul Smith?", []string{"Sits", "Paul Smith"}, []string{"Sits", "Paul Smith"}},
		{"Which film of Paul Smith is 'sits'?", []string{"Paul Smith", "sits"}, []string{"Paul Smith", "sits"}},
	})
}
