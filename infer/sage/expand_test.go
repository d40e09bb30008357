package sage

import (
	"slices"
	"testing"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/graphops"
	"github.com/strata-retrieval/strata/graphops/simgraph"
)

func TestExpand(t *testing.T) {
	g, err := graphops.Build(papersSKB())
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

// papersSKB: papers 0, 1, 2 and authors Ann (3), Bob (4); Ann writes P0
// and P1, Bob writes P1; P0 and P1 cite each other, P2 cites itself.
func papersSKB() *data.SKB {
	s := &data.SKB{Schema: data.Schema{
		Format: data.FormatSKBDir, NodeTypes: []string{"paper", "author"},
		RelationTypes: []string{"writes", "cites"}, TextFields: []string{"title"},
	}}
	for i, name := range []string{"P0", "P1", "P2", "Ann", "Bob"} {
		s.Nodes = append(s.Nodes, data.Node{Type: data.TypeID(i / 3), Name: name, Fields: []string{"title " + name}})
	}
	for _, e := range [][3]uint32{{3, 0, 0}, {3, 0, 1}, {4, 0, 1}, {0, 1, 1}, {1, 1, 0}, {2, 1, 2}} {
		s.Edges.Add(e[0], data.RelID(e[1]), e[2])
	}
	return s
}
