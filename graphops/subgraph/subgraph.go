package subgraph

import (
	"cmp"
	"container/heap"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/graphops"
)

// NodeCand is a graph node and its embedding distance to a pattern node.
type NodeCand struct {
	ID   uint32
	Dist float32
}

// RelCand is a relation type and its embedding distance to a pattern
// relation.
type RelCand struct {
	Rel  data.RelID
	Dist float32
}

// PatternNode is one node of a pattern graph being matched. A known node
// maps only to its candidates (the top k(n) nodes by embedding distance)
// and adds that distance to the GSD; an unknown node maps to any node, or
// to any node of Type when Type >= 0, at no cost.
type PatternNode struct {
	Known bool
	Type  int // node type id, or -1 for any
	Cands []NodeCand
}

// PatternEdge is one triple of the pattern between nodes H and T, which
// may map onto any graph edge between their images (either direction, or
// only stored from H's image to T's when Directed) whose relation is one
// of Rels (the top k(r) relation types).
type PatternEdge struct {
	H, T     int
	Rels     []RelCand
	Directed bool
}

// Pattern is a pattern graph with its candidates, ready to match.
type Pattern struct {
	Nodes []PatternNode
	Edges []PatternEdge
}

// Match is one match: the graph node of every pattern node and the
// relation of every pattern edge (both in pattern order), and its GSD.
type Match struct {
	Nodes []uint32
	Rels  []data.RelID
	GSD   float64
}

// Stats counts the work of one search.
type Stats struct {
	Expanded int // partial matches extended
	Complete int // complete matches scored
}

// ErrPattern reports a pattern that cannot be matched as given.
var ErrPattern = errors.New("invalid pattern")

// GSD is the Graph Semantic Distance of a match: the distances of the
// known nodes' images plus those of the edges' relations, summed in
// pattern order (so every search computes the same bits).
func (p *Pattern) GSD(nodes []uint32, rels []data.RelID) float64 {
	var s float64
	for i, n := range p.Nodes {
		if n.Known {
			s += float64(n.dist(nodes[i]))
		}
	}
	for i, e := range p.Edges {
		s += float64(e.dist(rels[i]))
	}
	return s
}

func (n *PatternNode) dist(v uint32) float32 {
	for _, c := range n.Cands {
		if c.ID == v {
			return c.Dist
		}
	}
	return float32(math.Inf(1))
}

func (e *PatternEdge) dist(r data.RelID) float32 {
	for _, c := range e.Rels {
		if c.Rel == r {
			return c.Dist
		}
	}
	return float32(math.Inf(1))
}

// Less is the total order of matches: GSD, then the node images
// and the relations lexicographically.
func Less(a, b *Match) bool { return compareSubgraphs(a, b) < 0 }

func compareSubgraphs(a, b *Match) int {
	if c := cmp.Compare(a.GSD, b.GSD); c != 0 {
		return c
	}
	if c := slices.Compare(a.Nodes, b.Nodes); c != 0 {
		return c
	}
	return slices.Compare(a.Rels, b.Rels)
}

// Validate checks the pattern's shape: node and relation indexes in range,
// no self loops, connected, at least one edge, and candidates for every
// known node.
func (p *Pattern) Validate(g *graphops.Graph) error {
	if len(p.Edges) == 0 {
		return fmt.Errorf("%w: no triples", ErrPattern)
	}
	nt := len(g.Schema().NodeTypes)
	for i, n := range p.Nodes {
		if n.Type >= nt {
			return fmt.Errorf("%w: node %d has type %d, the graph has %d types", ErrPattern, i, n.Type, nt)
		}
	}
	adj := make([][]int, len(p.Nodes))
	for i, e := range p.Edges {
		if e.H < 0 || e.H >= len(p.Nodes) || e.T < 0 || e.T >= len(p.Nodes) {
			return fmt.Errorf("%w: triple %d names node %d or %d of %d", ErrPattern, i, e.H, e.T, len(p.Nodes))
		}
		if e.H == e.T {
			return fmt.Errorf("%w: triple %d is a self loop", ErrPattern, i)
		}
		adj[e.H] = append(adj[e.H], e.T)
		adj[e.T] = append(adj[e.T], e.H)
	}
	seen := make([]bool, len(p.Nodes))
	stack := []int{0}
	seen[0] = true
	for len(stack) > 0 {
		v := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, u := range adj[v] {
			if !seen[u] {
				seen[u] = true
				stack = append(stack, u)
			}
		}
	}
	if i := slices.Index(seen, false); i >= 0 {
		return fmt.Errorf("%w: node %d is not connected to node 0", ErrPattern, i)
	}
	return nil
}

// step is one level of the depth-first search: assign node via edge from
// an assigned node (edge -1 at the root), then check the closing edges
// between node and nodes assigned earlier.
type step struct {
	node, edge, from int
	closing          []int
	lbClosing        float64 // lower bound of the closing edges
	lbRest           float64 // lower bound of everything after this step
}

// searchPlan orders the search: the root is the node with the fewest
// candidates, the rest follow the pattern's triples depth first.
func (p *Pattern) searchPlan(g *graphops.Graph) []step {
	size := func(i int) int {
		n := p.Nodes[i]
		switch {
		case n.Known:
			return len(n.Cands)
		case n.Type >= 0:
			return g.CountOfType(data.TypeID(n.Type))
		}
		return g.NumNodes()
	}
	root := 0
	for i := range p.Nodes {
		if size(i) < size(root) {
			root = i
		}
	}
	placed := make([]bool, len(p.Nodes))
	usedEdge := make([]bool, len(p.Edges))
	var steps []step
	var visit func(v, via, from int)
	visit = func(v, via, from int) {
		placed[v] = true
		st := step{node: v, edge: via, from: from}
		if via >= 0 {
			usedEdge[via] = true
		}
		for i, e := range p.Edges {
			if !usedEdge[i] && (e.H == v && placed[e.T] || e.T == v && placed[e.H]) {
				usedEdge[i] = true
				st.closing = append(st.closing, i)
			}
		}
		steps = append(steps, st)
		for i, e := range p.Edges {
			if usedEdge[i] {
				continue
			}
			switch {
			case e.H == v && !placed[e.T]:
				visit(e.T, i, v)
			case e.T == v && !placed[e.H]:
				visit(e.H, i, v)
			}
		}
	}
	visit(root, -1, -1)
	// Lower bounds: the smallest distance every later node and edge can add.
	minNode := func(i int) float64 {
		n := p.Nodes[i]
		if !n.Known {
			return 0
		}
		m := math.Inf(1)
		for _, c := range n.Cands {
			m = min(m, float64(c.Dist))
		}
		return m
	}
	minEdge := func(i int) float64 {
		m := math.Inf(1)
		for _, c := range p.Edges[i].Rels {
			m = min(m, float64(c.Dist))
		}
		return m
	}
	var rest float64
	for i := len(steps) - 1; i >= 0; i-- {
		steps[i].lbRest = rest
		rest += minNode(steps[i].node)
		if steps[i].edge >= 0 {
			rest += minEdge(steps[i].edge)
		}
		for _, e := range steps[i].closing {
			steps[i].lbClosing += minEdge(e)
		}
		rest += steps[i].lbClosing
	}
	return steps
}

// pruneSlack absorbs the rounding between a partial sum taken in search
// order and the GSD summed in pattern order: a branch is pruned only when
// its bound exceeds the k-th best by more than this, so pruning never
// drops a match that belongs in the top k.
const pruneSlack = 1e-9

// TopK returns the k matches of the pattern with the smallest GSD
// (ties in Less order), best first. With prune, a partial match is
// abandoned as soon as its distance plus the lower bound of the nodes and
// relations still unmatched exceeds the current k-th best; without, every
// match is enumerated (the reference for the speed-up). Both return the
// same subgraphs. A cancelled ctx stops the search (checked every 4,096
// expansions) with its error.
func TopK(ctx context.Context, g *graphops.Graph, p *Pattern, k int, prune bool) ([]Match, Stats, error) {
	var st Stats
	if k <= 0 {
		return nil, st, fmt.Errorf("%w: k = %d", ErrPattern, k)
	}
	if err := p.Validate(g); err != nil {
		return nil, st, err
	}
	if err := ctx.Err(); err != nil {
		return nil, st, err
	}
	s := &matcher{ctx: ctx, g: g, p: p, k: k, prune: prune, steps: p.searchPlan(g)}
	s.nodes = make([]uint32, len(p.Nodes))
	s.rels = make([]data.RelID, len(p.Edges))
	s.load = map[nodeTriple]int{}
	nr := len(g.Schema().RelationTypes)
	s.relDist = make([][]float32, len(p.Edges))
	for i, e := range p.Edges {
		d := make([]float32, nr)
		for j := range d {
			d[j] = float32(math.Inf(1))
		}
		for _, c := range e.Rels {
			if int(c.Rel) < nr {
				d[c.Rel] = min(d[c.Rel], c.Dist)
			}
		}
		s.relDist[i] = d
	}
	s.nodeDist = make([]map[uint32]float32, len(p.Nodes))
	for i, n := range p.Nodes {
		if n.Known {
			m := make(map[uint32]float32, len(n.Cands))
			for _, c := range n.Cands {
				if int(c.ID) < g.NumNodes() {
					if d, ok := m[c.ID]; !ok || c.Dist < d {
						m[c.ID] = c.Dist
					}
				}
			}
			s.nodeDist[i] = m
		}
	}
	s.run()
	if s.stopped != nil {
		return nil, s.stats, s.stopped
	}
	out := make([]Match, len(s.best))
	for i := len(out) - 1; i >= 0; i-- {
		out[i] = heap.Pop(&s.best).(Match)
	}
	s.stats.Complete = s.complete
	return out, s.stats, nil
}

// worstFirst is a max-heap of matches under Less.
type worstFirst []Match

func (h worstFirst) Len() int { return len(h) }

func (h worstFirst) Less(i, j int) bool { return compareSubgraphs(&h[i], &h[j]) > 0 }

func (h worstFirst) Swap(i, j int) { h[i], h[j] = h[j], h[i] }

func (h *worstFirst) Push(x any) { *h = append(*h, x.(Match)) }

func (h *worstFirst) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// RankTargets turns matches into a ranking of the nodes bound to pattern
// node target: each node's best (smallest) GSD, ascending. At equal GSD a
// node that its best match also binds to a known pattern node (an answer
// that is the question's own topic entity, reached back over other triples)
// ranks after the nodes that are new, then ids ascend: a question names
// what it knows and asks for something else unless nothing else fits as
// well; such a node's Dist is its GSD raised by one float32 step, so the
// order survives rankings that break score ties by id. subs must be in
// Less order (as TopK returns them).
func (p *Pattern) RankTargets(subs []Match, target int) []NodeCand {
	type entry struct {
		gsd   float64
		named bool
	}
	best := map[uint32]entry{}
	for _, s := range subs {
		v := s.Nodes[target]
		if e, ok := best[v]; ok && e.gsd <= s.GSD {
			continue
		}
		e := entry{gsd: s.GSD}
		for i, n := range p.Nodes {
			if n.Known && s.Nodes[i] == v {
				e.named = true
			}
		}
		best[v] = e
	}
	out := make([]NodeCand, 0, len(best))
	for v, e := range best {
		d := float32(e.gsd)
		if e.named {
			// One float32 step up keeps the order where rankings break
			// score ties by id (STaRK's evaluation).
			d = math.Nextafter32(d, float32(math.Inf(1)))
		}
		out = append(out, NodeCand{ID: v, Dist: d})
	}
	slices.SortFunc(out, func(a, b NodeCand) int {
		ea, eb := best[a.ID], best[b.ID]
		if c := cmp.Compare(ea.gsd, eb.gsd); c != 0 {
			return c
		}
		if ea.named != eb.named {
			if ea.named {
				return 1
			}
			return -1
		}
		return cmp.Compare(a.ID, b.ID)
	})
	return out
}
