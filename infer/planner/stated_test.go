package planner

import (
	"context"
	"strings"
	"testing"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/graphops/linking"
)

// statedPlanner is filmPlanner over Paul Smith, who directed First Film
// and Second Film, and Ann Lee, who starred in First Film, with two
// templates: the directors of an actor's films, and the films a
// director and an actor share; its plan ranker prefers two hops by 5.
// Each node's document holds its name, as movies-skb's do.
func statedPlanner(t *testing.T, stated bool) *LinkingPlanner {
	t.Helper()
	s := &data.SKB{Schema: data.Schema{Format: data.FormatSKBDir, NodeTypes: []string{"person", "movie"},
		RelationTypes: []string{"directed_by", "starred_actors"}, CandidateTypes: []string{"person", "movie"}, TextFields: []string{"name", "details"}}}
	for _, n := range []string{"Paul Smith", "First Film", "Second Film", "Ann Lee"} {
		typ := data.TypeID(0)
		if strings.HasSuffix(n, "Film") {
			typ = 1
		}
		s.Nodes = append(s.Nodes, data.Node{Type: typ, Name: n, Fields: []string{n, ""}})
	}
	for _, e := range [][3]int{{1, 0, 0}, {2, 0, 0}, {1, 1, 3}} {
		s.Edges.Add(uint32(e[0]), data.RelID(e[1]), uint32(e[2]))
	}
	tmpls := [][]data.Path{
		data.MustPaths([]string{"*", "<-starred_actors", "movie", "->directed_by", "person"}),
		data.MustPaths([]string{"*", "<-directed_by", "movie"}, []string{"*", "<-starred_actors", "movie"}),
	}
	p := testPlanner(t, s, tmpls, 0, 0, AnchorConfig{CoverMentions: true, AnchorTypes: []string{"person"}, StatedNames: stated})
	rankTemplates(p, []float32{2, 1})
	preferTwoHops(p)
	return p
}

// TestStatedNames: "Paul Smith was the director and Ann Lee had a part.
// Tell me where." states both names. The directors of Ann Lee's films
// reach Paul Smith, whose reach (and his own document) explains his
// mention without StatedNames, so nothing rules that plan out and the
// ranker's two hops answer with Paul Smith (node 0), a name the question
// states; with StatedNames it leaves him unexplained, and the films both
// share answer (First Film, node 1).
func TestStatedNames(t *testing.T) {
	const q = "Paul Smith was the director and Ann Lee had a part. Tell me where."
	for _, on := range []bool{false, true} {
		p := statedPlanner(t, on)
		want := uint32(0)
		if on {
			want = 1
		}
		pred, err := p.Predict(context.Background(), data.Query{Text: q, ID: -1})
		if err != nil || pred.Reach == nil || len(pred.Reach.Nodes) == 0 || byScore(pred.Reach)[0] != want {
			t.Errorf("StatedNames %v: %q planned %v reaching %v (%v), want %d first", on, q, pred.Plan.MetapathTokens(), pred.Reach, err, want)
		}
	}
}

// TestLearnStatedNames: a question states an answer when a mention
// outside its anchors names one; the training bears StatedNames out where
// at most one in a hundred questions does (counted by hand: 1 of 100 and
// 2 of 100).
func TestLearnStatedNames(t *testing.T) {
	named := func(start, end int, nodes ...uint32) linking.LinkedMention {
		m := linking.LinkedMention{Start: start, End: end, TokStart: start, TokEnd: end}
		for _, n := range nodes {
			m.Nodes = append(m.Nodes, linking.FormNode{Node: n})
		}
		return m
	}
	build := func(stating int) ([][]linking.LinkedMention, [][]int, [][]uint32) {
		var ms [][]linking.LinkedMention
		var as [][]int
		var ans [][]uint32
		for i := range 100 {
			// Every question anchors on its first mention, which names
			// node 7 (an answer of its own: anchors state nothing).
			q := []linking.LinkedMention{named(0, 1, 7), named(3, 4, 9)}
			a := []uint32{7, 1}
			if i < stating {
				a = append(a, 9) // the second mention names an answer
			}
			if i == 99 {
				// Overlapping the anchor: no statement.
				q = append(q, named(0, 2, 5))
				a = append(a, 5)
			}
			ms, as, ans = append(ms, q), append(as, []int{0}), append(ans, a)
		}
		return ms, as, ans
	}
	for _, c := range []struct {
		stating int
		ok      bool
	}{{0, true}, {1, true}, {2, false}} {
		ms, as, ans := build(c.stating)
		ok, n, stated := LearnStatedNames(ms, as, ans)
		if ok != c.ok || n != 100 || stated != c.stating {
			t.Errorf("%d stating: LearnStatedNames = %v, %d, %d; want %v, 100, %d", c.stating, ok, n, stated, c.ok, c.stating)
		}
	}
	if ok, _, _ := LearnStatedNames(nil, nil, nil); ok {
		t.Errorf("LearnStatedNames of no questions = true, want false")
	}
}
