package sage

import (
	"slices"
	"testing"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/graphops"
	"github.com/strata-retrieval/strata/graphops/simgraph"
	"github.com/strata-retrieval/strata/internal/testskb"
)

func TestExpand(t *testing.T) {
	g, err := graphops.Build(testskb.Papers())
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	// P1's neighbours: Ann, Bob (writes), P0 (cites); P0 is a seed.
	if got := Expand(g, []uint32{1, 0}, ExpandOptions{}); !slices.Equal(got, []uint32{3, 4}) {
		t.Errorf("Expand = %v", got)
	}
	if got := Expand(g, []uint32{1}, ExpandOptions{Relations: []data.RelID{1}}); !slices.Equal(got, []uint32{0}) {
		t.Errorf("Expand(cites) = %v", got)
	}
	sim := simgraph.FromLists(5, [][]uint32{nil, {2}, {1}})
	if got := Expand(g, []uint32{1}, ExpandOptions{NoGraph: true, Sim: sim}); !slices.Equal(got, []uint32{2}) {
		t.Errorf("Expand(sim) = %v", got)
	}
}
