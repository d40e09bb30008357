package subgraph_test

import (
	"context"
	"errors"
	"testing"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/data/synth"
	"github.com/strata-retrieval/strata/graphops/subgraph"
	"github.com/strata-retrieval/strata/internal/testws"
)

// TestTopKStopsWhenCancelled: SimGRAG's search checks its
// context every 4,096 expansions, so a Ctrl-C (or a server's deadline)
// ends a large search early with the context's error.
func TestTopKStopsWhenCancelled(t *testing.T) {
	ws := testws.Build(t, synth.Config{Preset: "amazon", Nodes: 3000, Queries: 20, Seed: 2})
	g := ws.Graph
	var cands []subgraph.NodeCand
	for v := range uint32(g.NumNodes()) {
		cands = append(cands, subgraph.NodeCand{ID: v, Dist: float32(v%7) / 7})
	}
	var rels []subgraph.RelCand
	for r := range ws.SKB.Schema.RelationTypes {
		rels = append(rels, subgraph.RelCand{Rel: data.RelID(r)})
	}
	p := &subgraph.Pattern{Nodes: []subgraph.PatternNode{{Known: true, Type: -1, Cands: cands}, {Type: -1}, {Type: -1}},
		Edges: []subgraph.PatternEdge{{H: 0, T: 1, Rels: rels}, {H: 1, T: 2, Rels: rels}}}
	_, full, err := subgraph.TopK(context.Background(), g, p, 100000, false)
	if err != nil {
		t.Fatal(err)
	}
	if full.Expanded < 3*4096 {
		t.Fatalf("%d expansions: the case does not bite", full.Expanded)
	}
	// One check passes at the start, the next (expansion 4,096) cancels.
	subs, st, err := subgraph.TopK(testws.CancelAfterChecks(1), g, p, 100000, false)
	if !errors.Is(err, context.Canceled) || subs != nil || st.Expanded >= full.Expanded {
		t.Errorf("cancelled search: %v, %d subgraphs, %d of %d expansions", err, len(subs), st.Expanded, full.Expanded)
	}
}
