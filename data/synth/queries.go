package synth

import (
	"fmt"
	"slices"
	"strings"

	"github.com/strata-retrieval/strata/data"
)

// compiled is a template with its path elements resolved to ids.
type compiled struct {
	t     *template
	types [][]data.TypeID // per path: node types, anchor first
	rels  [][]data.RelID  // per path: relations between consecutive types
}

func (g *gen) compile(t *template) compiled {
	c := compiled{t: t}
	for _, path := range t.paths {
		var ts []data.TypeID
		var rs []data.RelID
		for i, el := range path {
			if i%2 == 0 {
				ts = append(ts, data.TypeID(g.typeIndex(el)))
				continue
			}
			ok := false
			for ri, r := range g.p.rels {
				if r.name == el {
					rs = append(rs, data.RelID(ri))
					ok = true
					break
				}
			}
			if !ok {
				panic("synth: preset names unknown relation " + el)
			}
		}
		c.types = append(c.types, ts)
		c.rels = append(c.rels, rs)
	}
	return c
}

// reach returns the nodes reached from anchor along one path, ascending.
func (g *gen) reach(anchor uint32, types []data.TypeID, rels []data.RelID) []uint32 {
	frontier := []uint32{anchor}
	var next []uint32
	for step, rel := range rels {
		g.stamp++
		next = next[:0]
		for _, v := range frontier {
			for _, e := range g.adj[g.off[v]:g.off[v+1]] {
				u := uint32(e)
				if data.RelID(e>>32) != rel || g.nodes[u].Type != types[step+1] || g.mark[u] == g.stamp {
					continue
				}
				g.mark[u] = g.stamp
				next = append(next, u)
			}
		}
		frontier, next = append(frontier[:0:0], next...), frontier
		if len(frontier) > 200000 {
			break
		}
	}
	slices.Sort(frontier)
	return frontier
}

// walkBack walks a path backwards from the target c to a random anchor.
func (g *gen) walkBack(c uint32, types []data.TypeID, rels []data.RelID) (uint32, bool) {
	v := c
	var buf []uint32
	for step := len(rels) - 1; step >= 0; step-- {
		buf = g.neighbors(buf[:0], v, rels[step], types[step])
		if len(buf) == 0 {
			return 0, false
		}
		v = buf[g.r.IntN(len(buf))]
	}
	return v, true
}

func hasAll(have []int32, want []int32) bool {
	for _, w := range want {
		if _, ok := slices.BinarySearch(have, w); !ok {
			return false
		}
	}
	return true
}

// makeQueries draws queries from the templates: pick a target node, walk
// each path back to an anchor, compute the reach set exactly, restrict it by
// one or two of the target's properties, and keep the query when it has 1–20
// answers and the structure alone does not decide it.
func (g *gen) makeQueries() (*data.QA, []data.PlanRecord) {
	var comp []compiled
	var weights []float64
	total := 0.0
	for i := range g.p.templates {
		comp = append(comp, g.compile(&g.p.templates[i]))
		total += g.p.templates[i].weight
		weights = append(weights, total)
	}
	qa := &data.QA{Splits: map[string][]int{}}
	var plans []data.PlanRecord
	seen := map[string]bool{}
	maxAttempts := g.cfg.Queries * 200
	for attempt := 0; len(qa.Queries) < g.cfg.Queries && attempt < maxAttempts; attempt++ {
		x := g.r.Float64() * total
		ti := 0
		for weights[ti] < x {
			ti++
		}
		c := comp[ti]
		targetType := c.types[0][len(c.types[0])-1]
		targets := g.byType[targetType]
		tgt := targets[g.r.IntN(len(targets))]
		if len(g.props[tgt]) == 0 {
			continue
		}
		anchors := make([]uint32, len(c.types))
		var R []uint32
		ok := true
		for pi := range c.types {
			a, found := g.walkBack(tgt, c.types[pi], c.rels[pi])
			if !found {
				ok = false
				break
			}
			anchors[pi] = a
			r := g.reach(a, c.types[pi], c.rels[pi])
			if pi == 0 {
				R = r
			} else {
				R = data.IntersectSorted(R, r)
			}
		}
		if !ok || len(R) < 2 {
			continue
		}
		// Restriction: one or two properties of the target.
		own := g.props[tgt]
		var chosen []int32
		if len(own) >= 2 && g.r.Float64() < g.p.twoPropRate {
			i := g.r.IntN(len(own))
			j := (i + 1 + g.r.IntN(len(own)-1)) % len(own)
			chosen = []int32{own[i], own[j]}
			slices.Sort(chosen)
		} else {
			chosen = []int32{own[g.r.IntN(len(own))]}
		}
		var gold []uint32
		for _, v := range R {
			if hasAll(g.props[v], chosen) {
				gold = append(gold, v)
			}
		}
		if len(gold) < 1 || len(gold) > 20 || len(gold) == len(R) {
			continue
		}
		key := fmt.Sprint(ti, anchors, chosen)
		if seen[key] {
			continue
		}
		seen[key] = true
		words := make([]string, len(chosen))
		for i, p := range chosen {
			words[i] = g.v.props[p]
		}
		restr := strings.Join(words, " and ")
		text := pick(g.r, c.t.phrasings)
		for i, a := range anchors {
			text = strings.ReplaceAll(text, fmt.Sprintf("{a%d}", i), g.nodes[a].Name)
		}
		text = strings.ReplaceAll(text, "{r}", restr)
		id := len(qa.Queries)
		qa.Queries = append(qa.Queries, data.Query{ID: id, Text: text, Answers: gold})
		plan := data.Plan{Restriction: map[string][]string{}}
		for pi, path := range c.t.paths {
			plan.Paths = append(plan.Paths, data.MustPaths(path)...) // the preset's table is written in plan tokens
			at := g.schema.NodeTypes[c.types[pi][0]]
			plan.Restriction[at] = append(plan.Restriction[at], g.nodes[anchors[pi]].Name)
		}
		plan.Restriction[g.schema.NodeTypes[targetType]] = words
		plans = append(plans, data.PlanRecord{QID: id, Query: text, AnswerIDs: gold, Plan: plan})
	}
	// Splits 60/20/20 over a seeded permutation; each split sorted.
	perm := g.r.Perm(len(qa.Queries))
	nTrain := len(perm) * 6 / 10
	nVal := len(perm) * 2 / 10
	for i, p := range perm {
		s := data.SplitTest
		switch {
		case i < nTrain:
			s = data.SplitTrain
		case i < nTrain+nVal:
			s = data.SplitVal
		}
		qa.Splits[s] = append(qa.Splits[s], p)
	}
	for _, s := range []string{data.SplitTrain, data.SplitVal, data.SplitTest} {
		slices.Sort(qa.Splits[s])
		if qa.Splits[s] == nil {
			qa.Splits[s] = []int{}
		}
	}
	qa.Index()
	return qa, plans
}
