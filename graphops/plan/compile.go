package plan

import (
	"fmt"
	"slices"
	"strings"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/graphops"
	"github.com/strata-retrieval/strata/graphops/linking"
)

// Compile turns a plan in MoR's shape (data.Plan: metapaths, textual
// restrictions keyed by node type, strata's linked anchors) into the
// algebra: each path is its anchor followed by one Hop per relation token,
// a universal token (data.EveryPrefix) an Every over the nodes before it,
// a middle position marked data.RankMark a Restrict by the target's
// restriction (ranking it: the nodes reached from it inherit its best score),
// the paths meet at the target (Intersect), the plan's attributes filter
// the targets (Filter), and the target's restriction ranks the result
// (Restrict). A path's anchor is its linked anchor when
// the plan carries anchors, else the next restriction of its first type
// (MoR's convention, data.Plan.PathAnchorText). A path of one element (the
// target type alone) constrains nothing; a plan made only of such paths
// compiles to nil with no error: it reaches no structural set. Unknown types and relations fail with
// graphops.ErrInvalidPlan, naming the path.
func Compile(s *data.Schema, p data.Plan) (Expr, error) {
	paths, _, err := compilePaths(s, p, strictAnchors)
	if err != nil {
		return nil, err
	}
	return assemble(p, paths), nil
}

// assemble meets the compiled paths (nil: constrains nothing) at the
// target, filters by the plan's attributes and ranks by its target
// restriction; nil when no path constrains anything.
func assemble(p data.Plan, paths []Expr) Expr {
	paths = slices.DeleteFunc(slices.Clone(paths), func(e Expr) bool { return e == nil })
	var root Expr
	switch len(paths) {
	case 0:
		return nil
	case 1:
		root = paths[0]
	default:
		root = &Intersect{Args: paths}
	}
	if f := attrFilter(root, p.Attributes); f != nil {
		root = f
	}
	if restriction := targetText(p); restriction != "" {
		root = &Restrict{Of: root, Text: restriction}
	}
	return root
}

// targetText is the plan's restriction on its target, one string.
func targetText(p data.Plan) string {
	return strings.TrimSpace(strings.Join(p.TargetRestriction(), " "))
}

// attrFilter is the Filter of of by the plan's attributes (nil without
// any).
func attrFilter(of Expr, attrs []data.PlanAttr) *Filter {
	if len(attrs) == 0 {
		return nil
	}
	f := &Filter{Of: of}
	for _, a := range attrs {
		f.Attrs = append(f.Attrs, Attr{Key: a.Key, Value: a.Value})
	}
	return f
}

// anchorMode says what compilePaths does with a path whose anchor is named
// nowhere.
type anchorMode int

const (
	// strictAnchors: the path fails the plan.
	strictAnchors anchorMode = iota
	// lenientAnchors: MoR's traversal seeds the path with the textual
	// matches of the query expanded by every restriction of its first type
	// (none for an untyped one).
	lenientAnchors
	// skipAnchorless: the path is left out (nil), as a pattern graph
	// needs a known node to start from.
	skipAnchorless
)

// compilePaths compiles each metapath of p to its expression, nil for a
// path of the target type alone, and returns the target type. A path
// whose anchor is named nowhere is handled as mode says.
func compilePaths(s *data.Schema, p data.Plan, mode anchorMode) ([]Expr, data.TypeID, error) {
	if len(p.Paths) == 0 {
		return nil, AnyType, fmt.Errorf("%w: no metapath", graphops.ErrInvalidPlan)
	}
	used := map[string]int{}
	var paths []Expr
	var target data.TypeID
	restriction := targetText(p)
	for pi, path := range p.Paths {
		types, hops, err := graphops.CompilePath(s, pi, path)
		if err != nil {
			return nil, AnyType, err
		}
		t := types[len(types)-1]
		if pi == 0 {
			target = t
		} else if t != target {
			return nil, AnyType, fmt.Errorf("%w: paths end at different types", graphops.ErrInvalidPlan)
		}
		if len(types) == 1 {
			paths = append(paths, nil)
			continue
		}
		a := &Anchor{Type: types[0]}
		if len(p.Anchors) > 0 {
			if pi >= len(p.Anchors) && mode == skipAnchorless {
				paths = append(paths, nil)
				continue
			}
			if pi >= len(p.Anchors) {
				return nil, AnyType, fmt.Errorf("%w: path %d has no anchor", graphops.ErrInvalidPlan, pi)
			}
			a.Text, a.Nodes = p.Anchors[pi].Text, p.Anchors[pi].Nodes
			if a.Nodes == nil {
				a.Nodes = []uint32{}
			}
		} else if name, ok := p.PathAnchorText(pi, used); ok {
			a.Text = name
		} else if mode == lenientAnchors {
			if types[0] != AnyType {
				a.Text = strings.Join(p.Restriction[path.Anchor()], " ")
			}
		} else if mode == skipAnchorless {
			paths = append(paths, nil)
			continue
		} else {
			return nil, AnyType, fmt.Errorf("%w: path %d: no anchor named for type %q", graphops.ErrInvalidPlan, pi, path.Anchor())
		}
		var e Expr = a
		for _, h := range hops {
			var steps []Step
			if h.Rels != nil {
				steps = make([]Step, len(h.Rels))
				for i, r := range h.Rels {
					steps[i] = Step{Rel: r, Dir: h.Dirs[i]}
				}
			}
			if h.Every {
				e = &Every{Members: e, Steps: steps, To: h.To}
			} else {
				e = &Hop{From: e, Steps: steps, To: h.To}
			}
			if h.Ranked && restriction != "" {
				e = &Restrict{Of: e, Text: restriction}
			}
		}
		paths = append(paths, e)
	}
	return paths, target, nil
}

// Execute compiles and executes a plan in MoR's shape and reports it as
// graphops.PlanResult (the nodes reached,
// ascending, nil when the plan has no structure or reaches nothing, and
// the target's restriction), with universal steps. It is how strata's
// methods execute plans.
func Execute(g *graphops.Graph, names *linking.NameIndex, p data.Plan) (graphops.PlanResult, error) {
	res, _, err := ExecuteRanked(g, names, p, nil)
	return res, err
}

// ExecuteRanked is Execute with the plan's restrictions scored by text
// (nil: not scored, and no scores returned): it also returns each reached
// node's text score,
// aligned with Reach: the restriction's score on the node's own document
// plus, for a path with a ranked middle position (data.RankMark), the best
// score among the middle nodes it is reached from.
func ExecuteRanked(g *graphops.Graph, names *linking.NameIndex, p data.Plan, text TextScorer) (graphops.PlanResult, []float32, error) {
	res := graphops.PlanResult{Target: AnyType}
	e, err := Compile(g.Schema(), p)
	if err != nil {
		return res, nil, err
	}
	if t, ok := g.Schema().NodeTypeID(p.TargetType()); ok {
		res.Target = t
	}
	res.TargetRestriction = p.TargetRestriction()
	if e == nil {
		return res, nil, nil
	}
	set, err := Exec(Env{Graph: g, Names: names, Text: text}, e)
	if err != nil {
		return res, nil, err
	}
	if len(set.Nodes) == 0 {
		return res, nil, nil
	}
	res.Reach = set.Nodes
	if text == nil {
		return res, nil, nil
	}
	return res, set.Text, nil
}

// Returned is the anchor node of a plan of one path that takes one step
// and straight back along the same relation (->r <-r or <-r ->r, one
// relation each) from an anchor that names one node: such a path reaches
// its own anchor whatever the graph (an actor's co-stars, through the
// actor's films, reach the actor), which answers nothing the question
// asks. An anchor that names several nodes (a word's senses) reaches
// each that has a neighbour along the relation, and the restriction
// chooses among them: WordNet's training plans "Which is the sense of
// 'dory' that is a subclass of small boat?" so. Where another path meets
// it, that path decides whether the anchor answers.
func Returned(p data.Plan) []uint32 {
	var out []uint32
	if len(p.Paths) != 1 {
		return nil
	}
	for pi, path := range p.Paths {
		if pi >= len(p.Anchors) || len(p.Anchors[pi].Nodes) != 1 || len(path.Steps) != 2 {
			continue
		}
		a, b := path.Steps[0], path.Steps[1]
		if len(a.Rels) != 1 || len(b.Rels) != 1 || b.Rels[0] != a.Rels[0].Reverse() {
			continue
		}
		for _, v := range p.Anchors[pi].Nodes {
			if !slices.Contains(out, v) {
				out = append(out, v)
			}
		}
	}
	return out
}

// ReturnedLast ranks the nodes of ids that p returns to (Returned) below
// every other: each gets the lowest score of scores (aligned with ids)
// minus one, so the others keep their order and scores.
func ReturnedLast(p data.Plan, ids []uint32, scores []float32) {
	back := Returned(p)
	if len(back) == 0 || len(scores) == 0 {
		return
	}
	lo := scores[0]
	for _, s := range scores {
		lo = min(lo, s)
	}
	for i, v := range ids {
		if slices.Contains(back, v) {
			scores[i] = lo - 1
		}
	}
}

// NamedFirst ranks the plan's named nodes (data.Plan.Named) first: each
// of them in ids gets the top score of scores (aligned with ids; 0 when
// all are lower) plus one added to its own, so they keep their order
// among themselves and every other node follows in its own.
func NamedFirst(ids []uint32, scores []float32, named []uint32) {
	if len(named) == 0 {
		return
	}
	var top float32
	for _, s := range scores {
		top = max(top, s)
	}
	for i, v := range ids {
		if slices.Contains(named, v) {
			scores[i] += top + 1
		}
	}
}
