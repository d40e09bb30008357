package mine

import (
	"cmp"
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
