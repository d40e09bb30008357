package plan

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/data/index"
	"github.com/strata-retrieval/strata/graphops"
)

// trail is how MoR's traversal reached a node: by text, or by an edge
// from the node of prev.
type trail struct {
	node    uint32
	textual bool
	prev    *trail
}

// layer is the nodes a traversal position holds, each with its trail.
type layer map[uint32]*trail

func (l layer) sorted() []uint32 {
	out := make([]uint32, 0, len(l))
	for v := range l {
		out = append(out, v)
	}
	slices.Sort(out)
	return out
}

// traverser evaluates a compiled path the way MoR's traversal does: every
// position is the structural step from the previous one unioned with the
// best textual matches of its type.
type traverser struct {
	g     *graphops.Graph
	tm    TextMatcher
	query string
	p     *data.Plan
	cfg   TraversalConfig
	buf   []uint32
}

// matches adds to l, as textual trails, the k best matches of the query
// expanded by restriction among the nodes of type t (nodes l holds keep
// their trail).
func (t *traverser) matches(l layer, restriction []string, typ data.TypeID, k int) {
	for _, h := range t.tm.Match(ExpandQuery(t.query, restriction), typ, k) {
		if _, seen := l[h.ID]; !seen {
			l[h.ID] = &trail{node: h.ID, textual: true}
		}
	}
}

// layerText is MoR's expansion of the query at a position of type typ:
// the target's restriction at the path's end, else the restriction of the
// position's type (none for an untyped one).
func (t *traverser) layerText(typ data.TypeID, last bool) []string {
	if last {
		return t.p.TargetRestriction()
	}
	if typ == AnyType {
		return nil
	}
	return t.p.Restriction[t.g.Schema().NodeTypes[typ]]
}

// walk evaluates e, a path's expression; last marks the path's end.
func (t *traverser) walk(e Expr, last bool) (layer, error) {
	switch e := e.(type) {
	case *Anchor:
		l := layer{}
		if e.Nodes != nil { // linked anchors seed the first position
			for _, v := range e.Nodes {
				if int(v) < t.g.NumNodes() && (e.Type == AnyType || t.g.Type(v) == e.Type) {
					l[v] = &trail{node: v, textual: true}
				}
			}
			return l, nil
		}
		var r []string
		if e.Text != "" {
			r = []string{e.Text}
		}
		t.matches(l, r, e.Type, t.cfg.SeedK)
		return l, nil
	case *Hop:
		return t.position(e.From, e.To, last, func(from, cur layer) {
			gh := graphHop(e.Steps, e.To)
			for _, v := range from.sorted() {
				t.buf = t.g.Step(t.buf[:0], v, gh)
				for _, u := range t.buf {
					if _, seen := cur[u]; !seen {
						cur[u] = &trail{node: u, prev: from[v]}
					}
				}
			}
		})
	case *Every:
		return t.position(e.Members, e.To, last, func(members, cur layer) {
			// first: the first member (by id) related to each node.
			count, first, counted, buf := relatedCounts(t.g, members.sorted(), graphHop(e.Steps, e.To), t.buf)
			t.buf = buf
			for u, c := range count {
				if e.Soft || c == counted {
					cur[u] = &trail{node: u, prev: members[first[u]]}
				}
			}
		})
	case *Restrict: // ranking only: the pool is ordered by the first stage
		return t.walk(e.Of, last)
	case *Filter:
		l, err := t.walk(e.Of, last)
		if err != nil {
			return nil, err
		}
		return t.filter(l, e.Attrs)
	case *Intersect, *Union:
		var args []Expr
		if in, ok := e.(*Intersect); ok {
			args = in.Args
		} else {
			args = e.(*Union).Args
		}
		ls := make([]layer, len(args))
		for i, a := range args {
			var err error
			if ls[i], err = t.walk(a, last); err != nil {
				return nil, err
			}
		}
		_, union := e.(*Union)
		return meet(ls, union), nil
	}
	return nil, fmt.Errorf("%w: %T in a traversed path", graphops.ErrInvalidPlan, e)
}

// position is a later position of a path: the nodes structural adds
// from the position before (src's walk), unless NoStructural, and the
// LayerK best textual matches of type to, unless NoTextual.
func (t *traverser) position(src Expr, to data.TypeID, last bool, structural func(from, cur layer)) (layer, error) {
	from, err := t.walk(src, false)
	if err != nil {
		return nil, err
	}
	cur := layer{}
	if !t.cfg.NoStructural {
		structural(from, cur)
	}
	if !t.cfg.NoTextual {
		t.matches(cur, t.layerText(to, last), to, t.cfg.LayerK)
	}
	return cur, nil
}

// meet is the intersection (or the union) of layers; a node keeps the
// trail of the first layer that holds it.
func meet(ls []layer, union bool) layer {
	out := layer{}
	for i, l := range ls {
		for v, tr := range l {
			if _, seen := out[v]; seen {
				continue
			}
			in := true
			for _, o := range ls[i+1:] {
				if _, ok := o[v]; !ok && !union {
					in = false
					break
				}
			}
			if in && (union || i == 0) {
				out[v] = tr
			}
		}
	}
	return out
}

// filter keeps the nodes of l whose text states every attribute.
func (t *traverser) filter(l layer, attrs []Attr) (layer, error) {
	f := &Filter{Attrs: attrs}
	want, err := f.wanted()
	if err != nil {
		return nil, err
	}
	out := layer{}
	for v, tr := range l {
		if statesAll(words(nodeText(t.g, v)), want) {
			out[v] = tr
		}
	}
	return out, nil
}

// trajectory is the path of tr from where the walk started (a textual
// match or a linked anchor) to its node.
func (t *traverser) trajectory(tr *trail) []TrajectoryStep {
	var rev []TrajectoryStep
	for ; tr != nil; tr = tr.prev {
		rev = append(rev, TrajectoryStep{Node: tr.node, Type: t.g.Type(tr.node), Textual: tr.textual})
	}
	slices.Reverse(rev)
	return rev
}

// MixedTraversal is MoR's mixed traversal (MoR §3.2) of plan, compiled to
// the algebra: each path's first position is seeded with its linked
// anchors, or else with the SeedK best textual matches of the query
// expanded by the path's anchor; each later position takes the nodes a
// step reaches from the previous one (for a universal step, the nodes
// related to every node of the previous position; the soft form, to any),
// unioned with the LayerK best textual matches of its type for the query
// expanded by that type's restriction (the target's at the end). A path of
// the target type alone is the SeedK best textual matches of the query
// expanded by the target's restriction. The paths' ends are intersected
// (their union when the intersection is empty), the plan's attributes cut
// the result (strata's extension: Filter), and the pool is cut or filled
// to PoolSize by the first-stage ranking firstStage (best first;
// candidates it adds have a one-step textual trajectory). Every candidate
// keeps the trajectory of the first path that reached it. MoR's relations
// are undirected and its positions typed; a step here may be directed and
// a position untyped.
func MixedTraversal(g *graphops.Graph, tm TextMatcher, query string, plan data.Plan, cfg TraversalConfig, firstStage []index.Hit) (TraversalResult, error) {
	cfg = cfg.WithDefaults()
	res := TraversalResult{Trajectories: map[uint32][]TrajectoryStep{}}
	paths, target, err := compilePaths(g.Schema(), plan, lenientAnchors)
	if err != nil {
		return res, err
	}
	t := &traverser{g: g, tm: tm, query: query, p: &plan, cfg: cfg}
	ends := make([]layer, len(paths))
	for i, e := range paths {
		if e == nil {
			ends[i] = layer{}
			t.matches(ends[i], plan.TargetRestriction(), target, cfg.SeedK)
			continue
		}
		if ends[i], err = t.walk(e, true); err != nil {
			return res, err
		}
	}
	final := meet(ends, false)
	if len(final) == 0 && len(ends) > 1 {
		res.Union = true
		final = meet(ends, true)
	}
	if len(plan.Attributes) > 0 {
		if final, err = t.filter(final, attrFilter(nil, plan.Attributes).Attrs); err != nil {
			return res, err
		}
	}
	for v, tr := range final {
		res.Trajectories[v] = t.trajectory(tr)
	}
	// Order by the first-stage score (unscored last, by id), cut or fill.
	score := make(map[uint32]float32, len(firstStage))
	rank := make(map[uint32]int, len(firstStage))
	for i, h := range firstStage {
		score[h.ID] = h.Score
		rank[h.ID] = i
	}
	pool := make([]index.Hit, 0, max(len(final), cfg.PoolSize))
	for _, c := range final.sorted() {
		pool = append(pool, index.Hit{ID: c, Score: score[c]})
	}
	sort.SliceStable(pool, func(i, j int) bool {
		ri, oki := rank[pool[i].ID]
		rj, okj := rank[pool[j].ID]
		switch {
		case oki && okj:
			return ri < rj
		case oki != okj:
			return oki
		}
		return pool[i].ID < pool[j].ID
	})
	if len(pool) > cfg.PoolSize {
		for _, h := range pool[cfg.PoolSize:] {
			delete(res.Trajectories, h.ID)
		}
		pool = pool[:cfg.PoolSize]
	}
	for _, h := range firstStage {
		if len(pool) >= cfg.PoolSize {
			break
		}
		if _, in := res.Trajectories[h.ID]; in {
			continue
		}
		pool = append(pool, h)
		res.Trajectories[h.ID] = []TrajectoryStep{{Node: h.ID, Type: g.Type(h.ID), Textual: true}}
		res.Filled++
	}
	res.Pool = pool
	return res, nil
}

// TextMatcher finds the nodes of one type that best match a text (the
// textual half of MoR's mixed traversal).
type TextMatcher interface {
	Match(text string, t data.TypeID, k int) []index.Hit
}

// TraversalConfig holds MoR's traversal sizes; zero values mean MoR's
// defaults.
type TraversalConfig struct {
	SeedK    int `json:"seed_k,omitempty"`    // textual seeds of each path's first layer, default 5
	LayerK   int `json:"layer_k,omitempty"`   // textual matches added at every later layer, default 10
	PoolSize int `json:"pool_size,omitempty"` // candidates after filling by the first-stage score, default 100
	// Ablations: NoTextual adds no textual matches after the seeds (a pure
	// structural walk); NoStructural follows no edges (every layer is its
	// textual matches only).
	NoTextual    bool `json:"no_textual,omitempty"`
	NoStructural bool `json:"no_structural,omitempty"`
}

// WithDefaults fills the zero sizes with MoR's defaults.
func (c TraversalConfig) WithDefaults() TraversalConfig {
	if c.SeedK == 0 {
		c.SeedK = 5
	}
	if c.LayerK == 0 {
		c.LayerK = 10
	}
	if c.PoolSize == 0 {
		c.PoolSize = 100
	}
	return c
}

// TrajectoryStep is one node of a trajectory and how it was reached.
type TrajectoryStep struct {
	Node    uint32
	Type    data.TypeID
	Textual bool // reached by textual matching, not by an edge from the previous step
}

// TraversalResult is the candidate pool of a query with the trajectory
// that reached each candidate.
type TraversalResult struct {
	Pool         []index.Hit // candidates, best first-stage score first
	Trajectories map[uint32][]TrajectoryStep
	Union        bool // the paths' final layers did not intersect: their union was used
	Filled       int  // candidates added from the first-stage ranking
}

// ExpandQuery is MoR's expanded query "[Q : restriction]".
func ExpandQuery(q string, restriction []string) string {
	if len(restriction) == 0 {
		return q
	}
	return q + " : " + strings.Join(restriction, " ")
}
