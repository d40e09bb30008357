package planner

import "testing"

// TestStatedLeads: titlePlanner's "writers" is an answer word
// (->written_by). In "Good writers include Ann Lee. Anything with her?"
// it stands before Ann Lee in a sentence that states, and read as the
// lead it asks for writers: the deeper search answers with the writer of
// her film (Kim Ray, node 4). With StatedLeads the statement's nouns say
// what Ann Lee is, the last sentence asks for no writers, and the plan
// "writers" names as a relation word answers (the film she wrote, Second
// Film, node 2). Where the
// anchor's sentence asks too, where the last one does not, and in one
// sentence, "writers" leads as before.
func TestStatedLeads(t *testing.T) {
	wantReachCases(t, "StatedLeads", func(on bool) *LinkingPlanner {
		p := titlePlanner(t, false, false)
		p.Cfg.Anchors.StatedLeads = on
		return p
	}, []reachCase{
		{"Good writers include Ann Lee. Anything with her?", false, 4},
		{"Good writers include Ann Lee. Anything with her?", true, 2},
		{"Good writers include Ann Lee! Anything with her?", true, 2},
		{"Good writers include Ann Lee? Anything with her?", true, 4},
		{"Good writers include Ann Lee. Anything with her.", true, 4},
		{"Good writers include Ann Lee, anything with her?", true, 4},
	})
}

// TestStatedLead: statedLead on titlePlanner's mentions, by hand: the
// first anchor must stand in a sentence closed by a full stop or "!"
// before a last sentence closed by "?".
func TestStatedLead(t *testing.T) {
	p := titlePlanner(t, false, false)
	for _, c := range []struct {
		q    string
		want bool
	}{
		{"Good writers include Ann Lee. Anything with her?", true},
		{"Good writers include Ann Lee! Anything with her?", true},
		{"Good writers include Ann Lee? Anything with her?", false},
		{"Good writers include Ann Lee. Anything with her.", false},
		{"Good writers include Ann Lee, anything with her?", false},
		{"Good writers abound. Anything with Ann Lee?", false},
	} {
		ments := p.findMentions(c.q)
		var anchors []int
		for i, m := range ments {
			if c.q[m.Start:m.End] == "Ann Lee" {
				anchors = append(anchors, i)
			}
		}
		if len(anchors) == 0 {
			t.Fatalf("%q: no mention of Ann Lee in %v", c.q, ments)
		}
		if got := statedLead(c.q, ments, anchors); got != c.want {
			t.Errorf("statedLead(%q) = %v, want %v", c.q, got, c.want)
		}
	}
}
