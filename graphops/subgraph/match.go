package subgraph

import (
	"cmp"
	"container/heap"
	"context"
	"math"
	"slices"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/graphops"
)

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
