package plan

import (
	"fmt"
	"slices"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/graphops"
	"github.com/strata-retrieval/strata/graphops/linking"
)

// errUniversal reports a universal step where only MoR's existential
// paths execute (referencePlan).
var errUniversal = fmt.Errorf("%w: a universal step (%s) executes only in the plan algebra", graphops.ErrInvalidPlan, data.EveryPrefix)

func checkExistential(hops []graphops.Hop) error {
	for _, h := range hops {
		if h.Every {
			return errUniversal
		}
	}
	return nil
}

// referencePlan walks every metapath of plan from its anchor nodes and
// intersects the target nodes reached: MoR's existential paths as strata
// executed them before the algebra (graphops.ExecutePlan), the reference
// Compile is tested against; a universal step fails with errUniversal. A path's anchors are the plan's
// linked nodes (Plan.Anchors) or else the nodes of the path's first type
// named by the plan's restriction for that type. Paths alternate node types
// and relation tokens (see data.ParsePath); a path of one element is
// just the target type. Unknown types, relations or anchors make the plan
// invalid (graphops.ErrInvalidPlan).
func referencePlan(g *graphops.Graph, names *linking.NameIndex, plan data.Plan) (graphops.PlanResult, error) {
	var res graphops.PlanResult
	if len(plan.Paths) == 0 {
		return res, fmt.Errorf("%w: no metapath", graphops.ErrInvalidPlan)
	}
	s := g.Schema()
	used := map[string]int{} // restriction entries consumed per anchor type
	started := false         // a path with structure was walked (its reach may be empty)
	for pi, path := range plan.Paths {
		types, hops, err := graphops.CompilePath(s, pi, path)
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
			return res, fmt.Errorf("%w: paths end at different types", graphops.ErrInvalidPlan)
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
func planAnchors(g *graphops.Graph, names *linking.NameIndex, plan *data.Plan, pi int, t data.TypeID, used map[string]int) ([]uint32, error) {
	if len(plan.Anchors) > 0 {
		if pi >= len(plan.Anchors) {
			return nil, fmt.Errorf("%w: path %d has no anchor", graphops.ErrInvalidPlan, pi)
		}
		var out []uint32
		for _, v := range plan.Anchors[pi].Nodes {
			if int(v) >= g.NumNodes() {
				return nil, fmt.Errorf("%w: path %d: anchor node %d out of range", graphops.ErrInvalidPlan, pi, v)
			}
			if t == graphops.AnyTypeID || g.Type(v) == t {
				out = append(out, v)
			}
		}
		if len(out) == 0 {
			return nil, fmt.Errorf("%w: path %d: no anchor node of type %s", graphops.ErrInvalidPlan, pi, plan.MetapathTokens()[pi][0])
		}
		slices.Sort(out)
		return slices.Compact(out), nil
	}
	name, ok := plan.PathAnchorText(pi, used)
	if !ok {
		return nil, fmt.Errorf("%w: path %d: no anchor named for type %q", graphops.ErrInvalidPlan, pi, plan.MetapathTokens()[pi][0])
	}
	var frontier []uint32
	if t == graphops.AnyTypeID {
		for ti := range g.Schema().NodeTypes {
			frontier = append(frontier, names.Lookup(data.TypeID(ti), name)...)
		}
		slices.Sort(frontier)
	} else {
		frontier = slices.Clone(names.Lookup(t, name))
	}
	if len(frontier) == 0 {
		return nil, fmt.Errorf("%w: path %d: no %s named %q", graphops.ErrInvalidPlan, pi, plan.MetapathTokens()[pi][0], name)
	}
	return frontier, nil
}
