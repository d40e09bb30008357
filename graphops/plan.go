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

// ErrUniversal reports a universal step where only MoR's existential
// paths execute (this package's ExecutePlan, the reference the plan
// algebra is tested against).
var ErrUniversal = fmt.Errorf("%w: a universal step (%s) executes only in the plan algebra", ErrInvalidPlan, data.EveryPrefix)

func checkExistential(hops []Hop) error {
	for _, h := range hops {
		if h.Every {
			return ErrUniversal
		}
	}
	return nil
}

// ExecutePlan walks every metapath of plan from its anchor nodes and
// intersects the target nodes reached. It is the reference for MoR's
// existential paths that the plan algebra (graphops/plan, which strata's
// methods execute plans with) is tested against; a universal step fails
// with ErrUniversal here. A path's anchors are the plan's
// linked nodes (Plan.Anchors) or else the nodes of the path's first type
// named by the plan's restriction for that type. Paths alternate node types
// and relation tokens (see data.ParseRelToken); a path of one element is
// just the target type. Unknown types, relations or anchors make the plan
// invalid (ErrInvalidPlan).
func ExecutePlan(g *Graph, names *NameIndex, plan data.Plan) (PlanResult, error) {
	var res PlanResult
	if len(plan.Metapath) == 0 {
		return res, fmt.Errorf("%w: no metapath", ErrInvalidPlan)
	}
	s := g.Schema()
	used := map[string]int{} // restriction entries consumed per anchor type
	started := false         // a path with structure was walked (its reach may be empty)
	for pi, path := range plan.Metapath {
		types, hops, err := CompilePath(s, pi, path)
		if err != nil {
			return res, err
		}
		if err := checkExistential(hops); err != nil {
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
		frontier, err := planAnchors(g, names, &plan, pi, types[0], used)
		if err != nil {
			return res, err
		}
		frontier = g.Walk(frontier, hops)
		if !started {
			res.Reach, started = frontier, true
		} else {
			res.Reach = data.IntersectSorted(res.Reach, frontier)
		}
	}
	res.TargetRestriction = plan.TargetRestriction()
	return res, nil
}

// planAnchors returns the sorted start nodes of path pi.
func planAnchors(g *Graph, names *NameIndex, plan *data.Plan, pi int, t data.TypeID, used map[string]int) ([]uint32, error) {
	if len(plan.Anchors) > 0 {
		if pi >= len(plan.Anchors) {
			return nil, fmt.Errorf("%w: path %d has no anchor", ErrInvalidPlan, pi)
		}
		var out []uint32
		for _, v := range plan.Anchors[pi].Nodes {
			if int(v) >= g.NumNodes() {
				return nil, fmt.Errorf("%w: path %d: anchor node %d out of range", ErrInvalidPlan, pi, v)
			}
			if t == AnyTypeID || g.types[v] == t {
				out = append(out, v)
			}
		}
		if len(out) == 0 {
			return nil, fmt.Errorf("%w: path %d: no anchor node of type %s", ErrInvalidPlan, pi, plan.Metapath[pi][0])
		}
		slices.Sort(out)
		return slices.Compact(out), nil
	}
	name, ok := plan.PathAnchorText(pi, used)
	if !ok {
		return nil, fmt.Errorf("%w: path %d: no anchor named for type %q", ErrInvalidPlan, pi, plan.Metapath[pi][0])
	}
	var frontier []uint32
	if t == AnyTypeID {
		for ti := range g.Schema().NodeTypes {
			frontier = append(frontier, names.Lookup(data.TypeID(ti), name)...)
		}
		slices.Sort(frontier)
	} else {
		frontier = slices.Clone(names.Lookup(t, name))
	}
	if len(frontier) == 0 {
		return nil, fmt.Errorf("%w: path %d: no %s named %q", ErrInvalidPlan, pi, plan.Metapath[pi][0], name)
	}
	return frontier, nil
}

// CompilePath resolves the names of path pi (node types, or data.AnyType,
// alternating with relation tokens) to ids.
func CompilePath(s *data.Schema, pi int, path []string) ([]data.TypeID, []Hop, error) {
	if len(path)%2 == 0 {
		return nil, nil, fmt.Errorf("%w: path %d has even length %d", ErrInvalidPlan, pi, len(path))
	}
	types := make([]data.TypeID, 0, len(path)/2+1)
	var hops []Hop
	for i, el := range path {
		if i%2 == 0 {
			ranked := false
			if _, isType := s.NodeTypeID(el); !isType { // a type's own name is that type, whatever it ends with
				el, ranked = data.SplitRanked(el)
			}
			if ranked && (i == 0 || i == len(path)-1) {
				return nil, nil, fmt.Errorf("%w: path %d: %s marks an anchor or a target; only middle positions are ranked by mark", ErrInvalidPlan, pi, data.RankMark)
			}
			t := AnyTypeID
			if el != data.AnyType {
				var ok bool
				if t, ok = s.NodeTypeID(el); !ok {
					return nil, nil, fmt.Errorf("%w: path %d: unknown node type %q", ErrInvalidPlan, pi, el)
				}
			}
			types = append(types, t)
			if i > 0 {
				hops[len(hops)-1].To = t
				hops[len(hops)-1].Ranked = ranked
			}
			continue
		}
		tok, every := data.SplitEvery(el)
		steps, err := data.ParseRelToken(s, tok)
		if err != nil {
			return nil, nil, fmt.Errorf("%w: path %d: %v", ErrInvalidPlan, pi, err)
		}
		h := Hop{Every: every}
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
