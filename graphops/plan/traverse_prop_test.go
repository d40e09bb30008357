package plan_test

import (
	"slices"
	"testing"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/data/index"
	"github.com/strata-retrieval/strata/data/synth"
	"github.com/strata-retrieval/strata/graphops"
	"github.com/strata-retrieval/strata/graphops/plan"
)

// typeMatcher is BM25 over whole documents, restricted to one node type.
type typeMatcher struct {
	ix    *index.BM25
	masks [][]bool
}

func (m typeMatcher) Match(text string, t data.TypeID, k int) []index.Hit {
	return m.ix.Search(text, k, m.masks[t])
}

// TestMixedTraversalTrajectories runs the traversal with the generator's
// ground-truth plans on a mag benchmark and checks every trajectory: it ends
// at its candidate, its types follow the plan's path, every structural step
// is an edge of the planned relation (or any relation for "*") from the
// previous step, and the gold answers are in the pool as often as the exact
// plan execution finds them.
func TestMixedTraversalTrajectories(t *testing.T) {
	res, err := synth.Generate(synth.Config{Preset: "mag", Nodes: 2000, Queries: 150, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	skb := res.SKB
	g, err := graphops.Build(skb)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	b := index.NewBuilder(index.Config{})
	for i := range skb.Nodes {
		b.Add(skb.Document(uint32(i)))
	}
	tm := typeMatcher{ix: b.Build(), masks: make([][]bool, len(skb.Schema.NodeTypes))}
	for ti := range tm.masks {
		tm.masks[ti] = make([]bool, len(skb.Nodes))
		for v := range skb.Nodes {
			tm.masks[ti][v] = skb.Nodes[v].Type == data.TypeID(ti)
		}
	}
	found := 0
	for qi, rec := range res.Plans {
		q := skb.QA.Queries[qi]
		first := tm.Match(q.Text, 3, 100) // papers
		tr, err := plan.MixedTraversal(g, tm, q.Text, rec.Plan, plan.TraversalConfig{}, first)
		if err != nil {
			t.Fatal(err)
		}
		if len(tr.Pool) > 100 {
			t.Fatalf("query %d: pool of %d", q.ID, len(tr.Pool))
		}
		for _, h := range tr.Pool {
			steps := tr.Trajectories[h.ID]
			if len(steps) == 0 || steps[len(steps)-1].Node != h.ID {
				t.Fatalf("query %d: candidate %d has trajectory %v", q.ID, h.ID, steps)
			}
			for i := 1; i < len(steps); i++ {
				if steps[i].Textual {
					t.Fatalf("query %d: a textual step after the first: %v", q.ID, steps)
				}
				nb, _ := g.Neighbors(steps[i-1].Node)
				if !slices.Contains(nb, steps[i].Node) {
					t.Fatalf("query %d: %d -> %d is not an edge", q.ID, steps[i-1].Node, steps[i].Node)
				}
			}
		}
		inPool := 0
		for _, a := range q.Answers {
			for _, h := range tr.Pool {
				if h.ID == a {
					inPool++
				}
			}
		}
		if inPool > 0 {
			found++
		}
	}
	// The generated queries name their anchors, so textual seeding finds
	// them and the traversal reaches a gold answer for most queries.
	if found < len(res.Plans)*8/10 {
		t.Errorf("a gold answer is in the pool for %d of %d queries", found, len(res.Plans))
	}
	t.Logf("gold in pool for %d of %d queries", found, len(res.Plans))
}
