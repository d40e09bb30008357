package mine

import (
	"cmp"
	"math/bits"
	"slices"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/graphops"
	"github.com/strata-retrieval/strata/graphops/linking"
)

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
