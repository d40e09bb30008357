package planner

import "testing"

// TestFindMentionsMarkedMentions: over an SKB whose nodes are named "part
// name", "word meaning" and "Mission: Impossible", a mention whose words
// span a clause's end or a quotation's edge names nothing with
// MarkedMentions ("parts; name", "word \"meaning"), unless the node's
// name holds that mark ("Mission: Impossible"; not "Mission? Impossible",
// a mark the name lacks). Without the rule (checkpoints saved before it)
// every one anchors.
func TestFindMentionsMarkedMentions(t *testing.T) {
	p := plannerOverNamed(t, false, "part name", "word meaning", "Mission: Impossible")
	checkMentionsWith(t, "MarkedMentions", p, func(on bool) { p.Cfg.Anchors.MarkedMentions = on }, []mentionCase{
		{"Each film of Paul Smith has parts; name them.", []string{"Paul Smith"}, []string{"Paul Smith", "parts; name"}},
		{"Which film of Paul Smith has the word \"meaning\" in it?", []string{"Paul Smith"}, []string{"Paul Smith", "word \"meaning"}},
		{"Is Mission: Impossible a film of Paul Smith?", []string{"Mission: Impossible", "Paul Smith"}, []string{"Mission: Impossible", "Paul Smith"}},
		{"Which film is it, Mission? Impossible.", []string{}, []string{"Mission? Impossible"}},
		{"Which film did Paul Smith direct: part name?", []string{"Paul Smith", "part name"}, []string{"Paul Smith", "part name"}},
	})
}
