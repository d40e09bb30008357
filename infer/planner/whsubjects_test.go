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
