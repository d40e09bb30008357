package planner

import "testing"

// TestNamedSteps: castPlanner's ranker turned to two-hop plans
// (preferTwoHops) answers "Tell me what Ann Lee starred in." with the
// director of her film (Paul Smith, node 0), though no word names
// directing or a person. With NamedSteps the two-hop plan, which walks
// the one-hop plan's starring and directing more, to answer with people
// and not films, gives way to it (First Film, node 1). The two-hop plan
// stands where a word names its more, an answer word ("the directors of
// ..."), or the type it answers with, an asking word ("Who made ...":
// "who" opened the training's questions about people). Where both answer
// with films (the films remade from Paul Smith's, against his films),
// the two-hop plan stands too: the question's type does not tell them
// apart.
func TestNamedSteps(t *testing.T) {
	for _, on := range []bool{false, true} {
		p := castPlanner(t, true, true)
		preferTwoHops(p)
		p.Cfg.Anchors.AnswerWords = map[string]string{"directors": "->directed_by"}
		p.Cfg.Anchors.Lead = NewLeadTypes()
		p.Cfg.Anchors.Lead.Firsts["who"] = map[string]int{"person": 10}
		p.Cfg.Anchors.NamedSteps = on
		for _, c := range []struct {
			q       string
			off, on uint32
		}{
			{"Tell me what Ann Lee starred in.", 0, 1},
			{"Tell me the directors of what Ann Lee starred in.", 0, 0},
			{"Who made what Ann Lee starred in?", 0, 0},
		} {
			want := c.off
			if on {
				want = c.on
			}
			if pred, got, err := answered(p, c.q); err != nil || len(got) == 0 || got[0] != want {
				t.Errorf("NamedSteps %v: %q planned %v reaching %v (%v), want %d first", on, c.q, pred.Plan.MetapathTokens(), got, err, want)
			}
		}
	}
	for _, on := range []bool{false, true} {
		p := filmPlanner(t, []string{"directed_by", "remake_of"}, []string{"Paul Smith", "First Film", "Second Film"},
			[][3]int{{1, 0, 0}, {2, 1, 1}}, [][][]string{{{"*", "<-directed_by", "movie"}}, {{"*", "<-directed_by", "movie", "<-remake_of", "movie"}}}, AnchorConfig{})
		preferTwoHops(p)
		p.Cfg.Anchors.NamedSteps = on
		if pred, got, err := answered(p, "Tell me what Paul Smith directed."); err != nil || len(got) == 0 || got[0] != 2 {
			t.Errorf("NamedSteps %v: remakes planned %v reaching %v (%v), want 2 first", on, pred.Plan.MetapathTokens(), got, err)
		}
	}
}
