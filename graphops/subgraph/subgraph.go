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

// SimGRAG's pattern-to-subgraph alignment: a pattern graph (triples over
// known entity mentions and unknowns) is matched onto the graph, edge
// direction ignored, and the k subgraphs with the smallest Graph Semantic
// Distance (GSD) are returned.
//
// A match maps every pattern node to a graph node and every pattern triple
// to a stored triple between the images of its ends, such that no two
// pattern triples that meet at a pattern node take the same stored triple:
// a path never crosses a fact and comes straight back over it (MetaQA: the
// films sharing an actor with a film never include that film through the
// one starred_actors triple that led to the actor; a conjunction's two
// branches are two facts). Otherwise images may repeat. A path may come
// back to its topic over other facts (PathQuestion: shah_shuja -parents->
// Mumtaz Mahal -children-> shah_shuja), and cross a fact again further on
// (PathQuestion 3-hop: the child of the parent of X's child is that child
// too, X -children-> C -parents-> X -children-> C). SimGRAG's paper asks for
// isomorphisms (distinct images), which makes such answers unreachable.
// (Measured on the question types' and paths' relation chains: PathQuestion
// follows directed walks, MetaQA's 3-hop answers exclude what is reached by
// going back over a fact; this rule reproduces both.)

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

type matcher struct {
	ctx      context.Context
	stopped  error // the context's error once it is cancelled
	g        *graphops.Graph
	p        *Pattern
	k        int
	prune    bool
	steps    []step
	nodes    []uint32
	rels     []data.RelID
	load     map[nodeTriple]int // per pattern node, its triples mapped onto each graph entry
	relDist  [][]float32
	nodeDist []map[uint32]float32
	best     worstFirst
	stats    Stats
	complete int
}

// tripleKey names the stored triples between two nodes by one relation,
// direction ignored (lo <= hi).
type tripleKey struct {
	lo, hi uint32
	r      data.RelID
}

func keyOf(a uint32, r data.RelID, b uint32) tripleKey {
	if a > b {
		a, b = b, a
	}
	return tripleKey{a, b, r}
}

// nodeTriple is a graph entry as seen from one pattern node.
type nodeTriple struct {
	p int // pattern node
	k tripleKey
}

// free reports whether pattern node p can take one more pattern triple
// onto entry k, which n stored triples make up.
func (s *matcher) free(p int, k tripleKey, n int) bool {
	return len(s.load) == 0 || s.load[nodeTriple{p, k}] < n
}

// take records pattern triple (a, b)'s use of entry k at both its ends.
func (s *matcher) take(a, b int, k tripleKey) {
	s.load[nodeTriple{a, k}]++
	s.load[nodeTriple{b, k}]++
}

// release undoes take (an unused key leaves the map, so an empty map means
// no triple is in use).
func (s *matcher) release(a, b int, k tripleKey) {
	for _, key := range []nodeTriple{{a, k}, {b, k}} {
		if s.load[key]--; s.load[key] == 0 {
			delete(s.load, key)
		}
	}
}

// bound is the largest partial distance still worth extending; once the
// search is stopped, nothing is (every loop breaks at its bound check).
func (s *matcher) bound() float64 {
	if s.stopped != nil {
		return math.Inf(-1)
	}
	if !s.prune || len(s.best) < s.k {
		return math.Inf(1)
	}
	return s.best[0].GSD + pruneSlack
}

type option struct {
	v    uint32
	r    data.RelID
	cost float64
}

func (s *matcher) run() {
	root := s.steps[0]
	n := s.p.Nodes[root.node]
	var opts []option
	switch {
	case n.Known:
		for v, d := range s.nodeDist[root.node] {
			opts = append(opts, option{v: v, cost: float64(d)})
		}
	case n.Type >= 0:
		for _, v := range s.g.NodesOfType(data.TypeID(n.Type)) {
			opts = append(opts, option{v: v})
		}
	default:
		for v := range s.g.NumNodes() {
			opts = append(opts, option{v: uint32(v)})
		}
	}
	sortOptions(opts)
	for _, o := range opts {
		if o.cost+root.lbClosing+root.lbRest > s.bound() {
			break
		}
		s.assign(0, o, 0)
	}
}

func sortOptions(opts []option) {
	slices.SortFunc(opts, func(a, b option) int {
		if c := cmp.Compare(a.cost, b.cost); c != 0 {
			return c
		}
		if c := cmp.Compare(a.v, b.v); c != 0 {
			return c
		}
		return cmp.Compare(a.r, b.r)
	})
}

// assign places option o at step i (partial distance before it: acc) and
// goes on with the step's closing edges.
func (s *matcher) assign(i int, o option, acc float64) {
	st := s.steps[i]
	s.nodes[st.node] = o.v
	var key tripleKey
	if st.edge >= 0 {
		s.rels[st.edge] = o.r
		key = keyOf(s.nodes[st.from], o.r, o.v)
		s.take(st.from, st.node, key)
	}
	if s.stats.Expanded++; s.stats.Expanded%4096 == 0 && s.stopped == nil {
		s.stopped = s.ctx.Err()
	}
	s.close(i, 0, acc+o.cost)
	if st.edge >= 0 {
		s.release(st.from, st.node, key)
	}
}

// close matches the j-th closing edge of step i, then descends.
func (s *matcher) close(i, j int, acc float64) {
	st := s.steps[i]
	if j == len(st.closing) {
		s.descend(i+1, acc)
		return
	}
	e := st.closing[j]
	pa, pb := s.p.Edges[e].H, s.p.Edges[e].T
	a, b := s.nodes[pa], s.nodes[pb]
	var opts []option
	for r, d := range s.relDist[e] {
		if math.IsInf(float64(d), 1) {
			continue
		}
		k := keyOf(a, data.RelID(r), b)
		if s.p.Edges[e].Directed && !s.g.Stored(a, data.RelID(r), b) {
			continue
		}
		if n := s.g.Triples(a, data.RelID(r), b); n > 0 && s.free(pa, k, n) && s.free(pb, k, n) {
			opts = append(opts, option{r: data.RelID(r), cost: float64(d)})
		}
	}
	sortOptions(opts)
	rest := st.lbRest
	for _, c := range st.closing[j+1:] {
		rest += minRel(s.relDist[c])
	}
	for _, o := range opts {
		if acc+o.cost+rest > s.bound() {
			break
		}
		s.rels[e] = o.r
		key := keyOf(a, o.r, b)
		s.take(pa, pb, key)
		s.close(i, j+1, acc+o.cost)
		s.release(pa, pb, key)
	}
}

func minRel(d []float32) float64 {
	m := math.Inf(1)
	for _, v := range d {
		m = min(m, float64(v))
	}
	return m
}

// descend extends the partial match (distance acc) with step i.
func (s *matcher) descend(i int, acc float64) {
	if i == len(s.steps) {
		s.complete++
		sg := Match{GSD: s.p.GSD(s.nodes, s.rels)}
		if len(s.best) == s.k {
			w := &s.best[0]
			if compareSubgraphs(&Match{GSD: sg.GSD, Nodes: s.nodes, Rels: s.rels}, w) >= 0 {
				return
			}
			heap.Pop(&s.best)
		}
		sg.Nodes = slices.Clone(s.nodes)
		sg.Rels = slices.Clone(s.rels)
		heap.Push(&s.best, sg)
		return
	}
	st := s.steps[i]
	n := s.p.Nodes[st.node]
	from := s.nodes[st.from]
	rd := s.relDist[st.edge]
	nbr, rel := s.g.Neighbors(from)
	// A directed triple runs from H's image: walking from H it must be
	// stored outward, from T inward.
	var want uint8
	if e := s.p.Edges[st.edge]; e.Directed {
		want = graphops.DirIn
		if e.H == st.from {
			want = graphops.DirOut
		}
	}
	var opts []option
	for x, v := range nbr {
		d := rd[rel.At(x)]
		if math.IsInf(float64(d), 1) {
			continue
		}
		if want != 0 && s.g.Dir(from, x)&want == 0 {
			continue
		}
		cost := float64(d)
		switch {
		case n.Known:
			nd, ok := s.nodeDist[st.node][v]
			if !ok {
				continue
			}
			cost += float64(nd)
		case n.Type >= 0:
			if int(s.g.Type(v)) != n.Type {
				continue
			}
		}
		if !s.free(st.from, keyOf(from, rel.At(x), v), graphops.TripleCount(s.g.Dir(from, x), v == from)) {
			continue // the walk would come straight back over a fact
		}
		opts = append(opts, option{v: v, r: rel.At(x), cost: cost})
	}
	sortOptions(opts)
	for _, o := range opts {
		if acc+o.cost+st.lbClosing+st.lbRest > s.bound() {
			break
		}
		s.assign(i, o, acc)
	}
}

// worstFirst is a max-heap of matches under Less.
type worstFirst []Match

func (h worstFirst) Len() int           { return len(h) }
func (h worstFirst) Less(i, j int) bool { return compareSubgraphs(&h[i], &h[j]) > 0 }
func (h worstFirst) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *worstFirst) Push(x any)        { *h = append(*h, x.(Match)) }
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
