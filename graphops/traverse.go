package graphops

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/data/index"
)

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

func (c TraversalConfig) withDefaults() TraversalConfig {
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

// Step is one node of a trajectory and how it was reached.
type Step struct {
	Node    uint32
	Type    data.TypeID
	Textual bool // reached by textual matching, not by an edge from the previous step
}

// TraversalResult is the candidate pool of a query with the trajectory
// that reached each candidate.
type TraversalResult struct {
	Pool         []index.Hit // candidates, best first-stage score first
	Trajectories map[uint32][]Step
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

type reach struct {
	prev    uint32
	hasPrev bool
	textual bool
}

// MixedTraversal walks every path of plan as MoR does: the first layer is
// seeded with the SeedK best textual matches of the expanded query among
// nodes of its type; each later layer takes the neighbours of the previous
// layer of its type (and relation, unless "*"), unioned with the LayerK best
// textual matches of its type. The final layers of all paths are
// intersected (their union when the intersection is empty), then the pool
// is cut or filled to PoolSize by the first-stage ranking firstStage (best
// first; candidates it adds have a one-step textual trajectory). Every
// candidate keeps the trajectory of the first path that reached it.
func MixedTraversal(g *Graph, tm TextMatcher, query string, plan data.Plan, cfg TraversalConfig, firstStage []index.Hit) (TraversalResult, error) {
	cfg = cfg.withDefaults()
	s := g.Schema()
	res := TraversalResult{Trajectories: map[uint32][]Step{}}
	if len(plan.Metapath) == 0 {
		return res, fmt.Errorf("%w: no metapath", ErrInvalidPlan)
	}
	type pathResult struct {
		final  []uint32
		layers []map[uint32]reach
		types  []data.TypeID
	}
	var paths []pathResult
	var target data.TypeID
	used := map[string]int{}
	for pi, path := range plan.Metapath {
		types, hops, err := CompilePath(s, pi, path)
		if err != nil {
			return res, err
		}
		if err := checkExistential(hops); err != nil {
			return res, err
		}
		if pi == 0 {
			target = types[len(types)-1]
		} else if types[len(types)-1] != target {
			return res, fmt.Errorf("%w: paths end at different types", ErrInvalidPlan)
		}
		restr := func(layer int) []string {
			if layer == 0 && len(types) > 1 {
				// Several paths may start at the same type: each takes the
				// next restriction of that type, as ExecutePlan does.
				if a, ok := plan.PathAnchorText(pi, used); ok {
					return []string{a}
				}
				if types[0] == AnyTypeID || len(plan.Anchors) > 0 {
					return nil
				}
				return plan.Restriction[s.NodeTypes[types[0]]]
			}
			if layer == len(types)-1 {
				return plan.TargetRestriction()
			}
			if types[layer] == AnyTypeID {
				return nil
			}
			return plan.Restriction[s.NodeTypes[types[layer]]]
		}
		layers := make([]map[uint32]reach, len(types))
		layers[0] = map[uint32]reach{}
		if len(plan.Anchors) > 0 && len(types) > 1 {
			// Linked anchors seed the first layer.
			if pi >= len(plan.Anchors) {
				return res, fmt.Errorf("%w: path %d has no anchor", ErrInvalidPlan, pi)
			}
			for _, v := range plan.Anchors[pi].Nodes {
				if int(v) < g.NumNodes() && (types[0] == AnyTypeID || g.types[v] == types[0]) {
					layers[0][v] = reach{textual: true}
				}
			}
		} else {
			for _, h := range tm.Match(ExpandQuery(query, restr(0)), types[0], cfg.SeedK) {
				layers[0][h.ID] = reach{textual: true}
			}
		}
		for l := 1; l < len(types); l++ {
			cur := map[uint32]reach{}
			prev := sortedKeys(layers[l-1])
			var buf []uint32
			if cfg.NoStructural {
				prev = nil
			}
			for _, v := range prev {
				buf = g.Step(buf[:0], v, hops[l-1])
				for _, u := range buf {
					if _, seen := cur[u]; !seen {
						cur[u] = reach{prev: v, hasPrev: true}
					}
				}
			}
			if !cfg.NoTextual {
				for _, h := range tm.Match(ExpandQuery(query, restr(l)), types[l], cfg.LayerK) {
					if _, seen := cur[h.ID]; !seen {
						cur[h.ID] = reach{textual: true}
					}
				}
			}
			layers[l] = cur
		}
		paths = append(paths, pathResult{final: sortedKeys(layers[len(layers)-1]), layers: layers, types: types})
	}
	final := paths[0].final
	for _, p := range paths[1:] {
		final = data.IntersectSorted(final, p.final)
	}
	if len(final) == 0 && len(paths) > 1 {
		res.Union = true
		for _, p := range paths {
			final = append(final, p.final...)
		}
		slices.Sort(final)
		final = slices.Compact(final)
	}
	for _, c := range final {
		for _, p := range paths {
			if _, ok := p.layers[len(p.layers)-1][c]; ok {
				res.Trajectories[c] = trajectory(g, p.layers, c)
				break
			}
		}
	}
	// Order by the first-stage score (unscored last, by id), cut or fill.
	score := make(map[uint32]float32, len(firstStage))
	rank := make(map[uint32]int, len(firstStage))
	for i, h := range firstStage {
		score[h.ID] = h.Score
		rank[h.ID] = i
	}
	pool := make([]index.Hit, 0, max(len(final), cfg.PoolSize))
	for _, c := range final {
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
		res.Trajectories[h.ID] = []Step{{Node: h.ID, Type: g.types[h.ID], Textual: true}}
		res.Filled++
	}
	res.Pool = pool
	return res, nil
}

func sortedKeys(m map[uint32]reach) []uint32 {
	out := make([]uint32, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// trajectory follows back-pointers from c in the last layer to the layer
// where the walk started (a textual match), returning steps in path order.
func trajectory(g *Graph, layers []map[uint32]reach, c uint32) []Step {
	var rev []Step
	v := c
	for l := len(layers) - 1; l >= 0; l-- {
		r := layers[l][v]
		rev = append(rev, Step{Node: v, Type: g.types[v], Textual: r.textual})
		if !r.hasPrev {
			break
		}
		v = r.prev
	}
	slices.Reverse(rev)
	return rev
}
