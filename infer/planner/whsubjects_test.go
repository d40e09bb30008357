package planner

import "testing"

// TestFindMentionsWhSubjects: over an SKB whose nodes are named
// "result", "remain" and "process", a verb's -s form right after "what"
// or "who", its subject, that closes its clause names nothing with
// WhSubjects ("...: what results?", "Who remains, then?"), where the
// linker reads it as the plural of the noun "result" otherwise. The
// word anchors either way where the clause goes on ("What results did
// ..."), after "which", which opens a noun phrase, as a verb's base form
// ("What process?"), joined by a hyphen to the next word, quoted (alone or
// with its subject), in capitals, and with the rule off (checkpoints saved before it).
func TestFindMentionsWhSubjects(t *testing.T) {
	p := plannerOverNamed(t, true, "result", "remain", "process")
	checkMentionsWith(t, "WhSubjects", p, func(on bool) {
		p.Cfg.Anchors.FiniteVerbs = true
		p.Cfg.Anchors.WhSubjects = on
	}, []mentionCase{
		{"Films of Paul Smith, twice: what results?", []string{"Paul Smith"}, []string{"Paul Smith", "results"}},
		{"Paul Smith left; who remains, then?", []string{"Paul Smith"}, []string{"Paul Smith", "remains"}},
		{"What results did Paul Smith get?", []string{"results", "Paul Smith"}, []string{"results", "Paul Smith"}},
		{"Paul Smith's films: which results?", []string{"Paul Smith's", "results"}, []string{"Paul Smith's", "results"}},
		{"Paul Smith's films: what process?", []string{"Paul Smith's", "process"}, []string{"Paul Smith's", "process"}},
		{"What results-based films did Paul Smith make?", []string{"results", "Paul Smith"}, []string{"results", "Paul Smith"}},
		{"Paul Smith's films: what 'results'?", []string{"Paul Smith's", "results"}, []string{"Paul Smith's", "results"}},
		{"Paul Smith's film is called 'what results?'", []string{"Paul Smith's", "results"}, []string{"Paul Smith's", "results"}},
		{"Paul Smith's films: what Results?", []string{"Paul Smith's", "Results"}, []string{"Paul Smith's", "Results"}},
	})
}

// TestFindMentionsWhPrepositions: with WhSubjects, "What falls under
// Paul Smith?" anchors on the node "fall" (the clause goes on after
// "falls"); with WhPrepositions a preposition of place right after the
// verb's -s form makes it the verb too, and it names nothing. Another
// preposition ("of": "what falls of ..."), "which" before it, a word in
// capitals and a word no space sets apart from the preposition keep it.
func TestFindMentionsWhPrepositions(t *testing.T) {
	p := plannerOverNamed(t, true, "fall", "result")
	checkMentionsWith(t, "WhPrepositions", p, func(on bool) {
		p.Cfg.Anchors.FiniteVerbs, p.Cfg.Anchors.WhSubjects = true, true
		p.Cfg.Anchors.WhPrepositions = on
	}, []mentionCase{
		{"What falls under Paul Smith?", []string{"Paul Smith"}, []string{"falls", "Paul Smith"}},
		{"What results after Paul Smith?", []string{"Paul Smith"}, []string{"results", "Paul Smith"}},
		{"What falls of Paul Smith?", []string{"falls", "Paul Smith"}, []string{"falls", "Paul Smith"}},
		{"Which falls under Paul Smith?", []string{"falls", "Paul Smith"}, []string{"falls", "Paul Smith"}},
		{"What Falls under Paul Smith?", []string{"Falls", "Paul Smith"}, []string{"Falls", "Paul Smith"}},
		{"What falls/under Paul Smith?", []string{"falls", "Paul Smith"}, []string{"falls", "Paul Smith"}},
	})
}
