package mine

import (
	"cmp"
	"math/bits"
	"slices"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/graphops"
	"github.com/strata-retrieval/strata/graphops/linking"
)

// Config bounds plan mining; zero values mean defaults.
type Config struct {
	MaxHops int `json:"max_hops,omitempty"` // hops of a single-anchor path, default 3
	// IntersectHops bounds each branch of a two-anchor intersection,
	// default 2 (and the two branches together take at most MaxHops+1).
	IntersectHops int `json:"intersect_hops,omitempty"`
	// MaxFrontier: a path whose end set is larger is scored but not
	// extended, default 5,000 nodes.
	MaxFrontier int `json:"max_frontier,omitempty"`
	// MaxAnchorNodes: a mention naming more nodes tries only this many,
	// default 32 (those closest to an answer first).
	MaxAnchorNodes int `json:"max_anchor_nodes,omitempty"`
	// MaxBranches: branches kept per answer node for intersections,
	// default 48 (smallest end sets first).
	MaxBranches int `json:"max_branches,omitempty"`
	// MaxVisit bounds the breadth-first search around the answers that
	// prunes the enumeration, default 500,000 nodes.
	MaxVisit int `json:"max_visit,omitempty"`
	// Keep is the number of best plans returned, default 8.
	Keep int `json:"keep,omitempty"`
	// NoUniversal mines existential paths only (no universal steps), for
	// consumers that cannot execute them (SimGRAG's pattern graphs).
	NoUniversal bool `json:"no_universal,omitempty"`
	// NoRankMiddle scores the restriction on the target only (no ranked
	// middle positions, data.RankMark).
	NoRankMiddle bool `json:"no_rank_middle,omitempty"`
}

func (c Config) withDefaults() Config {
	if c.MaxHops == 0 {
		c.MaxHops = 3
	}
	if c.IntersectHops == 0 {
		c.IntersectHops = 2
	}
	if c.MaxFrontier == 0 {
		c.MaxFrontier = 5000
	}
	if c.MaxAnchorNodes == 0 {
		c.MaxAnchorNodes = 32
	}
	if c.MaxBranches == 0 {
		c.MaxBranches = 48
	}
	if c.MaxVisit == 0 {
		c.MaxVisit = 500000
	}
	if c.Keep == 0 {
		c.Keep = 8
	}
	return c
}

// Step is one hop of a mined path: a relation and its direction.
// Every marks a universal last step: the nodes that every node the path
// reached before it relates to (data.EveryPrefix), not any.
type Step struct {
	Rel   data.RelID
	Dir   data.RelDir
	Every bool
}

// compareSteps orders steps by relation, then direction, an existential
// step before its universal form.
func compareSteps(s, t Step) int {
	if c := cmp.Compare(s.Rel, t.Rel); c != 0 {
		return c
	}
	if c := cmp.Compare(s.Dir, t.Dir); c != 0 {
		return c
	}
	if s.Every != t.Every {
		if s.Every {
			return 1
		}
		return -1
	}
	return 0
}

// Branch is one anchored path of a mined plan.
type Branch struct {
	Mention int    // index into the question's mentions
	Anchor  uint32 // the node the path starts at
	Steps   []Step
}

// Plan is a plan that explains a question's answers.
type Plan struct {
	Branches []Branch // one path, or two meeting at the target
	// Target is the target's node type when typing it raised the
	// structural F1, else graphops.AnyTypeID.
	Target     data.TypeID
	Reach      int     // candidates the structure reaches
	Hits       int     // answers among them
	StructF1   float64 // F1 of the reached set against the answers
	F1         float64 // the plan's score: StructF1, or the F1 after the restriction when that is higher
	Restricted bool    // the textual restriction raised the F1
	// RankMiddle: the restriction also ranks the nodes before the last step
	// (data.RankMark), each end inheriting the best score among them, and
	// that raised the F1 further.
	RankMiddle bool
}

// Hops is the number of relation steps of the plan.
func (p *Plan) Hops() int {
	n := 0
	for _, b := range p.Branches {
		n += len(b.Steps)
	}
	return n
}

// universal reports whether a branch ends with a universal step.
func (b *Branch) universal() bool {
	return len(b.Steps) > 0 && b.Steps[len(b.Steps)-1].Every
}

// Universal reports whether the plan has a universal step.
func (p *Plan) Universal() bool {
	for i := range p.Branches {
		if p.Branches[i].universal() {
			return true
		}
	}
	return false
}

// Shape names the plan's structure: "1-hop", "2-hop", "3-hop", "2-hop ∀"
// (a universal last step), or for an intersection "1-hop ∩ 2-hop" (shorter
// branch first).
func (p *Plan) Shape() string {
	name := func(n int) string { return string(rune('0'+n)) + "-hop" }
	if len(p.Branches) == 1 {
		switch {
		case p.Branches[0].universal():
			return name(len(p.Branches[0].Steps)) + " " + data.EveryPrefix
		case p.RankMiddle:
			return name(len(p.Branches[0].Steps)) + " " + data.RankMark
		}
		return name(len(p.Branches[0].Steps))
	}
	a, b := len(p.Branches[0].Steps), len(p.Branches[1].Steps)
	if a > b {
		a, b = b, a
	}
	return name(a) + " ∩ " + name(b)
}

// Input is one question to mine.
type Input struct {
	Mentions []linking.LinkedMention
	Answers  []uint32 // gold answers (candidates only), any order
	Cand     []bool   // candidate mask over nodes; nil: every node
	// Restrict returns the textual-restriction score of node v when the
	// given mentions are the anchors (the rest of the question is the
	// target's restriction); nil: plans are scored by structure alone.
	Restrict func(anchors []int) func(v uint32) float32
}

// Miner mines plans over one graph. It keeps scratch space: use one Miner
// per goroutine.
type Miner struct {
	g     *graphops.Graph
	types []data.TypeID // g.Types(), the hot-path copy
	cfg   Config
	dist  []uint8 // hops to the nearest answer (255: farther or unvisited)
	seen  []uint32
	// lastLevel: markDistances stopped before its last level, which
	// anchorNodes completes for the anchors.
	lastLevel bool
	count     []uint32      // enumerate's per-node counts, zero between steps
	bits      []uint64      // sortIDs's bitmap, zero between calls
	mid       []float32     // middleScores's, zero between calls
	midSet    []uint32      // the nodes of mid set
	levels    []*stepGroups // enumerate's scratch per depth
}

// NewMiner returns a miner over g.
func NewMiner(g *graphops.Graph, cfg Config) *Miner {
	m := &Miner{g: g, types: g.Types(), cfg: cfg.withDefaults(), dist: make([]uint8, g.NumNodes()), count: make([]uint32, g.NumNodes())}
	for i := range m.dist {
		m.dist[i] = 255
	}
	return m
}

// branchSet is an enumerated branch with its end set.
type branchSet struct {
	b    Branch
	ends []uint32 // sorted, distinct
	hits int
}

type scored struct {
	Plan
	ends []uint32
	ub   float64 // upper bound of F1 after any restriction
	ment []int
}

// Mine returns up to Keep plans for the question, best first: by F1 (after
// the textual restriction where it helps), then fewer hops, then fewer
// anchors, then the higher structural F1, then the smaller reached set.
// It returns nil when no plan reaches an answer.
func (m *Miner) Mine(in Input) []Plan {
	gold := slices.Clone(in.Answers)
	slices.Sort(gold)
	gold = slices.Compact(gold)
	if len(gold) == 0 || len(in.Mentions) == 0 {
		return nil
	}
	m.markDistances(gold)
	defer m.clearDistances()
	isCand := func(v uint32) bool { return in.Cand == nil || in.Cand[v] }
	var cands []scored
	var branches []branchSet
	addCand := func(bs []branchSet, ends []uint32) {
		var r []uint32
		for _, v := range ends {
			if isCand(v) {
				r = append(r, v)
			}
		}
		hits := len(data.IntersectSorted(r, gold))
		if hits == 0 {
			return
		}
		p := Plan{Target: graphops.AnyTypeID, Reach: len(r), Hits: hits}
		for _, b := range bs {
			p.Branches = append(p.Branches, b.b)
		}
		p.StructF1 = f1(hits, len(r), len(gold))
		// Typing the target by the answers' most common type.
		if t, ok := m.commonType(gold, r); ok {
			var rt []uint32
			for _, v := range r {
				if m.types[v] == t {
					rt = append(rt, v)
				}
			}
			ht := len(data.IntersectSorted(rt, gold))
			if len(rt) < len(r) && f1(ht, len(rt), len(gold)) > p.StructF1 {
				p.Target, r, p.Reach, p.Hits, p.StructF1 = t, rt, len(rt), ht, f1(ht, len(rt), len(gold))
			}
		}
		p.F1 = p.StructF1
		ment := make([]int, len(bs))
		for i, b := range bs {
			ment[i] = b.b.Mention
		}
		k := min(len(gold), p.Reach)
		ub := f1(p.Hits, k, len(gold))
		cands = append(cands, scored{Plan: p, ends: r, ub: max(ub, p.StructF1), ment: ment})
	}
	for mi := range in.Mentions {
		for _, a := range m.anchorNodes(in.Mentions[mi].Nodes) {
			m.enumerate(mi, a, func(bs branchSet) {
				addCand([]branchSet{bs}, bs.ends)
				if len(bs.b.Steps) <= m.cfg.IntersectHops && !bs.b.universal() {
					branches = append(branches, bs)
				}
			})
		}
	}
	m.intersect(in.Mentions, branches, gold, addCand)
	if len(cands) == 0 {
		return nil
	}
	// Restricted F1, lazily: best upper bound first, until no candidate
	// can reach the best score found.
	if in.Restrict != nil {
		slices.SortStableFunc(cands, func(a, b scored) int { return cmp.Compare(b.ub, a.ub) })
		best := 0.0
		for _, c := range cands {
			best = max(best, c.StructF1)
		}
		cache := map[string]func(uint32) float32{}
		for i := range cands {
			c := &cands[i]
			if c.ub < best-1e-12 {
				break
			}
			if c.ub <= c.StructF1+1e-12 {
				continue
			}
			key := mentionKey(c.ment)
			score, ok := cache[key]
			if !ok {
				score = memo(in.Restrict(c.ment))
				cache[key] = score
			}
			rf := restrictedF1(c.ends, gold, score)
			if rf > c.StructF1+1e-12 {
				c.F1, c.Restricted = rf, true
				best = max(best, rf)
			}
			if m.cfg.NoRankMiddle {
				continue
			}
			if m.middleScores(&c.Plan, score) {
				own := score
				both := func(v uint32) float32 { return own(v) + m.mid[v] }
				if rm := restrictedF1(c.ends, gold, both); rm > c.F1+1e-12 {
					c.F1, c.Restricted, c.RankMiddle = rm, true, true
					best = max(best, rm)
				}
				m.clearMiddle()
			}
		}
	}
	slices.SortStableFunc(cands, func(a, b scored) int { return comparePlans(&a.Plan, &b.Plan) })
	out := make([]Plan, 0, m.cfg.Keep)
	for _, c := range cands {
		if len(out) == m.cfg.Keep {
			break
		}
		out = append(out, c.Plan)
	}
	return out
}

// comparePlans orders plans best first (see Mine).
func comparePlans(a, b *Plan) int {
	if c := cmp.Compare(b.F1, a.F1); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Hops(), b.Hops()); c != 0 {
		return c
	}
	if c := cmp.Compare(len(a.Branches), len(b.Branches)); c != 0 {
		return c
	}
	if a.Universal() != b.Universal() { // at equal F1, "any" before "every"
		if a.Universal() {
			return 1
		}
		return -1
	}
	if a.RankMiddle != b.RankMiddle { // and the target's restriction alone first
		if a.RankMiddle {
			return 1
		}
		return -1
	}
	if c := cmp.Compare(b.StructF1, a.StructF1); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Reach, b.Reach); c != 0 {
		return c
	}
	for i := range a.Branches {
		x, y := a.Branches[i], b.Branches[i]
		if c := cmp.Compare(x.Mention, y.Mention); c != 0 {
			return c
		}
		if c := cmp.Compare(x.Anchor, y.Anchor); c != 0 {
			return c
		}
		if c := slices.CompareFunc(x.Steps, y.Steps, compareSteps); c != 0 {
			return c
		}
	}
	return 0
}

func mentionKey(ms []int) string {
	b := make([]byte, 0, 8*len(ms))
	for _, m := range ms {
		b = append(b, byte(m), byte(m>>8), byte(m>>16), ',')
	}
	return string(b)
}

func f1(hits, reach, gold int) float64 {
	if hits == 0 {
		return 0
	}
	p, r := float64(hits)/float64(reach), float64(hits)/float64(gold)
	return 2 * p * r / (p + r)
}

// restrictedF1 ranks ends by score (descending, ties by ascending id) and
// returns the F1 of the first min(|gold|, |ends|) against gold.
func restrictedF1(ends, gold []uint32, score func(uint32) float32) float64 {
	k := min(len(gold), len(ends))
	if k == 0 {
		return 0
	}
	// The k best ends (score descending, then id ascending) in a min-heap
	// whose root is the worst kept.
	type sv struct {
		v uint32
		s float32
	}
	better := func(a, b sv) bool { return a.s > b.s || a.s == b.s && a.v < b.v }
	heap := make([]sv, 0, k)
	down := func(i int) {
		for {
			w, l, r := i, 2*i+1, 2*i+2
			if l < len(heap) && better(heap[w], heap[l]) {
				w = l
			}
			if r < len(heap) && better(heap[w], heap[r]) {
				w = r
			}
			if w == i {
				return
			}
			heap[i], heap[w] = heap[w], heap[i]
			i = w
		}
	}
	for _, v := range ends {
		x := sv{v, score(v)}
		if len(heap) < k {
			heap = append(heap, x)
			for i := len(heap) - 1; i > 0; {
				p := (i - 1) / 2
				if !better(heap[p], heap[i]) {
					break
				}
				heap[p], heap[i] = heap[i], heap[p]
				i = p
			}
			continue
		}
		if better(x, heap[0]) {
			heap[0] = x
			down(0)
		}
	}
	hits := 0
	for _, x := range heap {
		if _, ok := slices.BinarySearch(gold, x.v); ok {
			hits++
		}
	}
	return f1(hits, k, len(gold))
}

// memo remembers score's values: candidates of one question share most
// of their ends.
func memo(score func(uint32) float32) func(uint32) float32 {
	seen := map[uint32]float32{}
	return func(v uint32) float32 {
		s, ok := seen[v]
		if !ok {
			s = score(v)
			seen[v] = s
		}
		return s
	}
}

// commonType is the most common node type among the answers reached
// (ties: the smaller type id).
func (m *Miner) commonType(gold, reach []uint32) (data.TypeID, bool) {
	counts := map[data.TypeID]int{}
	for _, v := range data.IntersectSorted(reach, gold) {
		counts[m.types[v]]++
	}
	best, bn := data.TypeID(0), 0
	for t, n := range counts {
		if n > bn || n == bn && t < best {
			best, bn = t, n
		}
	}
	return best, bn > 0
}

// markDistances records, for every node within MaxHops of an answer
// (along any relation, either way), its distance.
func (m *Miner) markDistances(gold []uint32) {
	frontier := slices.Clone(gold)
	for _, v := range gold {
		m.dist[v] = 0
		m.seen = append(m.seen, v)
	}
	// Paths use distances below MaxHops; the last level, which would
	// cover most of a dense graph, only tells which anchors are MaxHops
	// away, and anchorNodes asks their neighbours instead.
	for d := 1; d < m.cfg.MaxHops && len(frontier) > 0 && len(m.seen) < m.cfg.MaxVisit; d++ {
		var next []uint32
		for _, v := range frontier {
			nb, _ := m.g.Neighbors(v)
			for _, u := range nb {
				if m.dist[u] == 255 {
					m.dist[u] = uint8(d)
					m.seen = append(m.seen, u)
					next = append(next, u)
				}
			}
		}
		frontier = next
	}
	m.lastLevel = len(frontier) > 0 && len(m.seen) < m.cfg.MaxVisit
}

func (m *Miner) clearDistances() {
	for _, v := range m.seen {
		m.dist[v] = 255
	}
	m.seen = m.seen[:0]
}

// anchorNodes returns the nodes of a mention worth starting from: within
// MaxHops of an answer, closest first, at most MaxAnchorNodes.
func (m *Miner) anchorNodes(ns []linking.FormNode) []uint32 {
	var out []uint32
	for _, n := range ns {
		if m.dist[n.Node] == 255 && m.lastLevel {
			// MaxHops away when a neighbour is one hop less.
			nb, _ := m.g.Neighbors(n.Node)
			for _, u := range nb {
				if int(m.dist[u]) == m.cfg.MaxHops-1 {
					m.dist[n.Node] = uint8(m.cfg.MaxHops)
					m.seen = append(m.seen, n.Node)
					break
				}
			}
		}
		if int(m.dist[n.Node]) <= m.cfg.MaxHops {
			out = append(out, n.Node)
		}
	}
	slices.SortStableFunc(out, func(a, b uint32) int {
		if c := cmp.Compare(m.dist[a], m.dist[b]); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	if len(out) > m.cfg.MaxAnchorNodes {
		out = out[:m.cfg.MaxAnchorNodes]
	}
	return out
}

// enumerate calls emit for every typed-direction relation path of at most
// MaxHops steps from anchor a whose end set holds an answer, extending
// only paths that can still reach one. From a set of two or more nodes (a
// path of one or more steps) each step is also tried as a universal step:
// the nodes every member with that step relates to, emitted (never
// extended) when that is fewer nodes than the existential step's and
// still holds an answer.
func (m *Miner) enumerate(mention int, a uint32, emit func(branchSet)) {
	var rec func(frontier []uint32, steps []Step)
	rec = func(frontier []uint32, steps []Step) {
		d := len(steps)
		if d == m.cfg.MaxHops {
			return
		}
		lv := m.level(d)
		// Group the frontier's neighbours by step. A node's entries are
		// sorted by relation, so a step is looked up once per run of one
		// relation, and counts the node as one of its members there.
		for _, v := range frontier {
			nbr, rels := m.g.Neighbors(v)
			for p := 0; p < len(nbr); {
				r := rels.At(p)
				fi, bi := -1, -1
				for ; p < len(nbr) && rels.At(p) == r; p++ {
					u, dir := nbr[p], m.g.Dir(v, p)
					if dir&graphops.DirOut != 0 {
						if fi < 0 {
							fi = lv.key(Step{Rel: r, Dir: data.Forward})
							lv.members[fi]++
						}
						lv.raw[fi] = append(lv.raw[fi], u)
					}
					if dir&graphops.DirIn != 0 {
						if bi < 0 {
							bi = lv.key(Step{Rel: r, Dir: data.Backward})
							lv.members[bi]++
						}
						lv.raw[bi] = append(lv.raw[bi], u)
					}
				}
			}
		}
		order := make([]int, len(lv.keys))
		for i := range order {
			order[i] = i
		}
		slices.SortFunc(order, func(x, y int) int { return compareSteps(lv.keys[x], lv.keys[y]) })
		rem := uint8(m.cfg.MaxHops - d - 1)
		for _, ki := range order {
			k, raw := lv.keys[ki], lv.raw[ki]
			// The distinct ends, sorted, and how often each was reached.
			var s []uint32
			for _, u := range raw {
				if m.count[u] == 0 {
					s = append(s, u)
				}
				m.count[u]++
			}
			m.sortIDs(s)
			if n := lv.members[ki]; d > 0 && n > 1 && !m.cfg.NoUniversal {
				m.emitUniversal(mention, a, steps, k, s, uint32(n), emit)
			}
			for _, u := range s {
				m.count[u] = 0
			}
			path := append(slices.Clone(steps), k)
			hits, near := 0, false
			for _, v := range s {
				switch dv := m.dist[v]; {
				case dv == 0:
					hits++
				case dv <= rem:
					near = true
				}
			}
			if hits > 0 {
				emit(branchSet{b: Branch{Mention: mention, Anchor: a, Steps: path}, ends: s, hits: hits})
			}
			if (near || hits > 0) && rem > 0 && len(s) <= m.cfg.MaxFrontier {
				rec(s, path)
			}
		}
	}
	rec([]uint32{a}, nil)
}

// sortIDs sorts distinct node ids: through a bitmap of the id range when
// scanning its words costs less than comparison sorting, else pdqsort.
func (m *Miner) sortIDs(s []uint32) {
	if len(s) < 64 {
		slices.Sort(s)
		return
	}
	lo, hi := s[0], s[0]
	for _, v := range s {
		lo, hi = min(lo, v), max(hi, v)
	}
	w0, w1 := int(lo>>6), int(hi>>6)
	if w1-w0+1 > 2*len(s)*bits.Len(uint(len(s))) {
		slices.Sort(s)
		return
	}
	if len(m.bits) < w1+1 {
		m.bits = make([]uint64, (len(m.types)+63)/64)
	}
	for _, v := range s {
		m.bits[v>>6] |= 1 << (v & 63)
	}
	n := 0
	for w := w0; w <= w1; w++ {
		for x := m.bits[w]; x != 0; x &= x - 1 {
			s[n] = uint32(w<<6 | bits.TrailingZeros64(x))
			n++
		}
		m.bits[w] = 0
	}
}

// stepGroups is enumerate's scratch for one depth: the frontier's
// neighbours grouped by step (raw, with repeats), each step's members
// (frontier nodes that have it), reused from question to question.
type stepGroups struct {
	index   map[Step]int
	keys    []Step
	raw     [][]uint32
	members []int
}

// level returns depth d's scratch, emptied.
func (m *Miner) level(d int) *stepGroups {
	for len(m.levels) <= d {
		m.levels = append(m.levels, &stepGroups{index: map[Step]int{}})
	}
	lv := m.levels[d]
	clear(lv.index)
	lv.keys, lv.members = lv.keys[:0], lv.members[:0]
	return lv
}

// key returns the index of step k, adding it empty when new.
func (lv *stepGroups) key(k Step) int {
	i, ok := lv.index[k]
	if ok {
		return i
	}
	i = len(lv.keys)
	lv.index[k] = i
	lv.keys = append(lv.keys, k)
	lv.members = append(lv.members, 0)
	if i == len(lv.raw) {
		lv.raw = append(lv.raw, nil)
	}
	lv.raw[i] = lv.raw[i][:0]
	return i
}

// middleScores sets m.mid, for a one-branch existential plan of two or
// more steps, to the best score among the nodes before its last step that
// reach each end (the ranking a data.RankMark on that position gives); it
// reports false, setting nothing, for other plans or when no such node
// scores. clearMiddle empties m.mid again.
func (m *Miner) middleScores(p *Plan, score func(uint32) float32) bool {
	if len(p.Branches) != 1 || p.Universal() || len(p.Branches[0].Steps) < 2 {
		return false
	}
	steps := p.Branches[0].Steps
	hop := func(st Step) graphops.Hop {
		return graphops.Hop{Rels: []data.RelID{st.Rel}, Dirs: []data.RelDir{st.Dir}, To: graphops.AnyTypeID}
	}
	var hops []graphops.Hop
	for _, st := range steps[:len(steps)-1] {
		hops = append(hops, hop(st))
	}
	middle := m.g.Walk([]uint32{p.Branches[0].Anchor}, hops)
	last := hop(steps[len(steps)-1])
	if m.mid == nil {
		m.mid = make([]float32, m.g.NumNodes())
	}
	var buf []uint32
	for _, v := range middle {
		s := score(v)
		if s <= 0 {
			continue
		}
		buf = m.g.Step(buf[:0], v, last)
		for _, u := range buf {
			if m.mid[u] == 0 {
				m.midSet = append(m.midSet, u)
			}
			m.mid[u] = max(m.mid[u], s)
		}
	}
	return len(m.midSet) > 0
}

// clearMiddle empties m.mid.
func (m *Miner) clearMiddle() {
	for _, u := range m.midSet {
		m.mid[u] = 0
	}
	m.midSet = m.midSet[:0]
}

// emitUniversal emits the universal form of step k after steps: the
// nodes of ends (sorted, distinct; m.count says how often the n members
// reached each) that all n members reach, when that is a strict subset
// holding an answer.
func (m *Miner) emitUniversal(mention int, a uint32, steps []Step, k Step, ends []uint32, n uint32, emit func(branchSet)) {
	var all []uint32
	hits := 0
	for _, v := range ends {
		if m.count[v] == n {
			all = append(all, v)
			if m.dist[v] == 0 {
				hits++
			}
		}
	}
	if len(all) == 0 || len(all) == len(ends) || hits == 0 {
		return
	}
	k.Every = true
	emit(branchSet{b: Branch{Mention: mention, Anchor: a, Steps: append(slices.Clone(steps), k)}, ends: all, hits: hits})
}

// intersect scores pairs of branches from different, non-overlapping
// mentions whose end sets share an answer.
func (m *Miner) intersect(ments []linking.LinkedMention, bs []branchSet, gold []uint32, add func([]branchSet, []uint32)) {
	if len(bs) < 2 {
		return
	}
	byGold := map[uint32][]int{}
	for i, b := range bs {
		for _, v := range data.IntersectSorted(b.ends, gold) {
			byGold[v] = append(byGold[v], i)
		}
	}
	done := map[[2]int]bool{}
	for _, g := range gold {
		idx := byGold[g]
		slices.SortStableFunc(idx, func(x, y int) int { return cmp.Compare(len(bs[x].ends), len(bs[y].ends)) })
		if len(idx) > m.cfg.MaxBranches {
			idx = idx[:m.cfg.MaxBranches]
		}
		slices.Sort(idx)
		for xi, x := range idx {
			for _, y := range idx[xi+1:] {
				a, b := &bs[x], &bs[y]
				if a.b.Mention == b.b.Mention || done[[2]int{x, y}] {
					continue
				}
				ma, mb := &ments[a.b.Mention], &ments[b.b.Mention]
				if ma.TokStart < mb.TokEnd && mb.TokStart < ma.TokEnd {
					continue
				}
				if len(a.b.Steps)+len(b.b.Steps) > m.cfg.MaxHops+1 {
					continue
				}
				done[[2]int{x, y}] = true
				// The branch of the earlier mention first.
				first, second := *a, *b
				if mb.TokStart < ma.TokStart {
					first, second = second, first
				}
				add([]branchSet{first, second}, data.IntersectSorted(a.ends, b.ends))
			}
		}
	}
}
