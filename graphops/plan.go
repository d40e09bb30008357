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
	Target data.TypeID
	Reach  []uint32 // nodes of the target type satisfying every path, ascending
	// TargetRestriction is the textual restriction on the target type.
	TargetRestriction []string
}

// ExecutePlan walks every metapath of plan from its anchor nodes (nodes of
// the path's first type named by the plan's restriction for that type) and
// intersects the target nodes reached. Paths alternate node types and
// relation types; a path of one element is just the target type. Unknown
// types, relations or anchors make the plan invalid (ErrInvalidPlan).
func ExecutePlan(g *Graph, names *NameIndex, plan data.Plan) (PlanResult, error) {
	var res PlanResult
	if len(plan.Metapath) == 0 {
		return res, fmt.Errorf("%w: no metapath", ErrInvalidPlan)
	}
	s := g.Schema()
	used := map[string]int{} // restriction entries consumed per anchor type
	for pi, path := range plan.Metapath {
		types, rels, err := compilePath(s, pi, path)
		if err != nil {
			return res, err
		}
		target := types[len(types)-1]
		if pi == 0 {
			res.Target = target
		} else if target != res.Target {
			return res, fmt.Errorf("%w: paths end at different types", ErrInvalidPlan)
		}
		if len(types) == 1 {
			continue // the target type alone: no structural constraint
		}
		anchorType := path[0]
		k := used[anchorType]
		rs := plan.Restriction[anchorType]
		if k >= len(rs) {
			return res, fmt.Errorf("%w: path %d: no anchor named for type %q", ErrInvalidPlan, pi, anchorType)
		}
		used[anchorType] = k + 1
		frontier := slices.Clone(names.Lookup(types[0], rs[k]))
		if len(frontier) == 0 {
			return res, fmt.Errorf("%w: path %d: no %s named %q", ErrInvalidPlan, pi, anchorType, rs[k])
		}
		frontier = g.walk(frontier, types, rels)
		if res.Reach == nil {
			res.Reach = frontier
		} else {
			res.Reach = data.IntersectSorted(res.Reach, frontier)
		}
	}
	res.TargetRestriction = plan.Restriction[s.NodeTypes[res.Target]]
	return res, nil
}

// compilePath resolves the names of a path (node types alternating with
// relations, "*" for any relation) to ids.
func compilePath(s *data.Schema, pi int, path []string) ([]data.TypeID, []data.RelID, error) {
	if len(path)%2 == 0 {
		return nil, nil, fmt.Errorf("%w: path %d has even length %d", ErrInvalidPlan, pi, len(path))
	}
	types := make([]data.TypeID, 0, len(path)/2+1)
	rels := make([]data.RelID, 0, len(path)/2)
	for i, el := range path {
		switch {
		case i%2 == 0:
			t, ok := s.NodeTypeID(el)
			if !ok {
				return nil, nil, fmt.Errorf("%w: path %d: unknown node type %q", ErrInvalidPlan, pi, el)
			}
			types = append(types, t)
		case el == data.AnyRelation:
			rels = append(rels, anyRel)
		default:
			r, ok := s.RelationID(el)
			if !ok {
				return nil, nil, fmt.Errorf("%w: path %d: unknown relation %q", ErrInvalidPlan, pi, el)
			}
			rels = append(rels, r)
		}
	}
	return types, rels, nil
}

// anyRel stands for data.AnyRelation in a compiled path.
const anyRel = data.RelID(255)

// walk follows rels from frontier, keeping nodes of the next type at each
// step; the result is sorted and distinct.
func (g *Graph) walk(frontier []uint32, types []data.TypeID, rels []data.RelID) []uint32 {
	seen := map[uint32]struct{}{}
	for step, r := range rels {
		clear(seen)
		var next []uint32
		want := types[step+1]
		var buf []uint32
		for _, v := range frontier {
			nbrs := buf[:0]
			if r == anyRel {
				nbrs = g.NeighborsOfType(nbrs, v, want)
			} else {
				nbrs = append(nbrs, g.NeighborsByRel(v, r)...)
			}
			buf = nbrs
			for _, u := range nbrs {
				if g.types[u] != want {
					continue
				}
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
