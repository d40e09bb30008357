package plan

import (
	"fmt"
	"slices"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/graphops"
)

// referenceGrasp is GRASP's graph stage as strata executed it before the
// algebra did (graphops.ExecuteGrasp, kept here as the reference that
// CompileGrasp must match): anchors bind to their linked nodes, hops are
// typed steps (undirected unless the relation token gives a direction; a
// universal token, "∀->rel", reaches only the nodes related to every node
// of its source variable that has such a neighbour), and each node bound
// to a variable keeps the best (maximum over paths) sum of anchor cosines
// along a matched path. A variable reached by several hops keeps only
// nodes every hop reaches, scored by the sum. It returns the target's
// nodes (restricted to the target labels when given) and scores.
func referenceGrasp(g *graphops.Graph, p *data.GraspPlan, anchors map[string][]Binding) (map[uint32]float32, error) {
	s := g.Schema()
	vars := map[string]map[uint32]float32{}
	for _, a := range p.Anchors {
		m := map[uint32]float32{}
		for _, b := range anchors[a.Var] {
			if c, ok := m[b.Node]; !ok || b.Cos > c {
				m[b.Node] = b.Cos
			}
		}
		vars[a.Var] = m
	}
	var buf []uint32
	for i, h := range p.Hops {
		from, ok := vars[h.From]
		if !ok {
			return nil, fmt.Errorf("hop %d: %q unbound", i, h.From)
		}
		_, hops, err := graphops.CompilePath(s, i, h.Path())
		if err != nil {
			return nil, fmt.Errorf("hop %d: %w", i, err)
		}
		reached := map[uint32]float32{}
		count := map[uint32]int{} // members each node relates to (universal hops)
		counted := 0              // members related to any node
		for v, sc := range from {
			buf = g.Step(buf[:0], v, hops[0])
			if len(buf) > 0 {
				counted++
			}
			if hops[0].Every {
				slices.Sort(buf)
				buf = slices.Compact(buf)
			}
			for _, u := range buf {
				count[u]++
				if c, ok := reached[u]; !ok || sc > c {
					reached[u] = sc
				}
			}
		}
		if hops[0].Every { // the nodes related to every member (strata's "∀" step)
			for u, c := range count {
				if c < counted {
					delete(reached, u)
				}
			}
		}
		if prev, ok := vars[h.ToVar]; ok {
			both := map[uint32]float32{}
			for u, sc := range reached {
				if c, ok := prev[u]; ok {
					both[u] = sc + c
				}
			}
			reached = both
		}
		vars[h.ToVar] = reached
	}
	out := vars[p.Target.Var]
	if len(p.Target.Labels) > 0 {
		allowed := map[data.TypeID]bool{}
		for _, l := range p.Target.Labels {
			if l == data.AnyType {
				return out, nil
			}
			if t, ok := s.NodeTypeID(l); ok {
				allowed[t] = true
			}
		}
		for v := range out {
			if !allowed[g.Type(v)] {
				delete(out, v)
			}
		}
	}
	return out, nil
}
