package sage

import (
	"slices"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/graphops"
	"github.com/strata-retrieval/strata/graphops/simgraph"
)

// SAGE's expansion: the 1-hop neighbours of the seeds along the KB's
// relations or along the offline similarity graph of text-rich nodes.

// ExpandOptions sets what a seed's neighbours are.
type ExpandOptions struct {
	Relations []data.RelID    // relations to follow; nil: every relation
	NoGraph   bool            // do not follow the graph's relations
	Sim       *simgraph.Graph // also follow similarity edges
}

// Expand returns the distinct 1-hop neighbours of the seeds that are not
// seeds themselves, ascending.
func Expand(g *graphops.Graph, seeds []uint32, o ExpandOptions) []uint32 {
	var out []uint32
	for _, v := range seeds {
		if !o.NoGraph {
			if o.Relations == nil {
				nb, _ := g.Neighbors(v)
				out = append(out, nb...)
			} else {
				for _, r := range o.Relations {
					out = append(out, g.NeighborsByRel(v, r)...)
				}
			}
		}
		if o.Sim != nil {
			out = append(out, o.Sim.Neighbors(v)...)
		}
	}
	slices.Sort(out)
	out = slices.Compact(out)
	s := slices.Clone(seeds)
	slices.Sort(s)
	return slices.DeleteFunc(out, func(v uint32) bool { _, in := slices.BinarySearch(s, v); return in })
}
