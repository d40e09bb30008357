package graphops

import (
	"errors"
	"fmt"
	"slices"

	"github.com/strata-retrieval/strata/data"
)

// ErrInvalidPlan reports a plan that cannot be executed on the graph.
var ErrInvalidPlan = errors.New("invalid plan")

// PlanResult is the outcome of executing a plan's structure.
type PlanResult struct {
	Target data.TypeID // AnyTypeID when the plan leaves the target untyped
	Reach  []uint32    // nodes of the target type satisfying every path, ascending
	// TargetRestriction is the textual restriction on the target type.
	TargetRestriction []string
}

// AnyTypeID stands for data.AnyType in a compiled path.
const AnyTypeID = data.TypeID(data.MaxNodeTypes)

// Hop is one compiled relation step of a path: the relations it may
// follow (nil: any) with their directions, and the node type it reaches
// (AnyTypeID: any). Every marks a universal step (data.EveryPrefix): the
// nodes every node of the previous position reaches, which only the plan
// algebra (graphops/plan) executes. Ranked marks a middle position ranked
// by the plan's restriction (data.RankMark), which only the algebra's
// ranking reads; reaching ignores it.
type Hop struct {
	Rels   []data.RelID
	Dirs   []data.RelDir
	To     data.TypeID
	Every  bool
	Ranked bool
}

// CompilePath resolves the names of path pi (node types, or data.AnyType,
// joined by relation steps) to ids.
func CompilePath(s *data.Schema, pi int, path data.Path) ([]data.TypeID, []Hop, error) {
	if len(path.Nodes) != len(path.Steps)+1 {
		return nil, nil, fmt.Errorf("%w: path %d has %d positions for %d steps", ErrInvalidPlan, pi, len(path.Nodes), len(path.Steps))
	}
	types := make([]data.TypeID, 0, len(path.Nodes))
	hops := make([]Hop, 0, len(path.Steps))
	for i, n := range path.Nodes {
		n = n.ResolveType(s)
		if n.Ranked && (i == 0 || i == len(path.Nodes)-1) {
			return nil, nil, fmt.Errorf("%w: path %d: %s marks an anchor or a target; only middle positions are ranked by mark", ErrInvalidPlan, pi, data.RankMark)
		}
		t := AnyTypeID
		if n.Type != data.AnyType {
			var ok bool
			if t, ok = s.NodeTypeID(n.Type); !ok {
				return nil, nil, fmt.Errorf("%w: path %d: unknown node type %q", ErrInvalidPlan, pi, n.Type)
			}
		}
		types = append(types, t)
		if i == 0 {
			continue
		}
		st := path.Steps[i-1]
		steps, err := st.ResolveRelations(s)
		if err != nil {
			return nil, nil, fmt.Errorf("%w: path %d: %v", ErrInvalidPlan, pi, err)
		}
		h := Hop{Every: st.Every, To: t, Ranked: n.Ranked}
		for _, st := range steps {
			r, _ := s.RelationID(st.Rel)
			h.Rels = append(h.Rels, r)
			h.Dirs = append(h.Dirs, st.Dir)
		}
		hops = append(hops, h)
	}
	return types, hops, nil
}

// Step appends to dst the neighbours of v that hop h reaches (possibly
// repeated, in no particular order) and returns it.
func (g *Graph) Step(dst []uint32, v uint32, h Hop) []uint32 {
	if h.Rels == nil {
		if h.To == AnyTypeID {
			nb, _ := g.Neighbors(v)
			return append(dst, nb...)
		}
		return g.NeighborsOfType(dst, v, h.To)
	}
	for i, r := range h.Rels {
		a, b := g.relRange(v, r)
		for p := a; p < b; p++ {
			u := g.nbr[p]
			if h.To != AnyTypeID && g.types[u] != h.To {
				continue
			}
			switch h.Dirs[i] {
			case data.Forward:
				if g.dirAt(p)&DirOut == 0 {
					continue
				}
			case data.Backward:
				if g.dirAt(p)&DirIn == 0 {
					continue
				}
			}
			dst = append(dst, u)
		}
	}
	return dst
}

// dirAt returns the direction bits of adjacency entry p.
func (g *Graph) dirAt(p uint64) uint8 { return g.dir[p/4] >> (2 * (p % 4)) & 3 }

// Walk follows hops from frontier; the result is sorted and distinct.
func (g *Graph) Walk(frontier []uint32, hops []Hop) []uint32 {
	seen := map[uint32]struct{}{}
	var buf []uint32
	for _, h := range hops {
		clear(seen)
		var next []uint32
		for _, v := range frontier {
			buf = g.Step(buf[:0], v, h)
			for _, u := range buf {
				if _, ok := seen[u]; ok {
					continue
				}
				seen[u] = struct{}{}
				next = append(next, u)
			}
		}
		frontier = next
	}
	slices.Sort(frontier)
	return frontier
}
