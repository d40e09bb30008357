package planner

import "testing"

// TestTitles: over kindWriterPlanner's graph, "writer" read as
// "written", a kind of person before the anchor, names ->written_by as
// the question's answer, so "What did writer Ann Lee star in?" is answered
// with the writer of her film (Kim Ray, node 4). With Titles, a noun in
// the singular with no determiner between an auxiliary verb or a
// preposition and a name is the name's title and is not read: her film
// (First Film, node 1) answers, as the ranker prefers. A plural ("What
// did writers Ann Lee star in?") and a noun after a determiner ("the
// writer Ann Lee") are read all the same.
func TestTitles(t *testing.T) {
	for _, c := range []struct {
		q    string
		on   bool
		want uint32
	}{
		{"What did writer Ann Lee star in?", false, 4},
		{"What did writer Ann Lee star in?", true, 1},
		{"Anything with writer Ann Lee?", false, 4},
		{"Anything with writer Ann Lee?", true, 1},
		{"What did writers Ann Lee star in?", true, 4},
		{"What did the writer Ann Lee star in?", true, 4},
	} {
		p := kindWriterPlanner(t, AnchorConfig{KindAnswerWords: true, Titles: c.on})
		wantReach(t, p, c.q, c.want, "Titles", c.on)
	}
}
