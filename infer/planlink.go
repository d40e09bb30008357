package infer

import (
	"cmp"
	"hash/fnv"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/graphops"
)

// Defaults of AnchorConfig.
const (
	defaultAnchorDim    = 1 << 18
	defaultTopTemplates = 5
	defaultTopMentions  = 3
)

// PlanPrediction is a linking planner's answer for one question.
type PlanPrediction struct {
	Plan     data.Plan
	Prob     float32 // the template's probability
	Template int     // index into Cfg.Templates; -1 without a plan
	// Reach is the number of candidates the plan reaches (0: no
	// (template, mentions) pair tried reached one, and Plan is the most
	// probable of them, or empty when the question names no node).
	Reach int
}

// anchorFeatures hashes the features of mention mi as the anchor of a path
// whose first hop is tok (a relation token): the words around it (alone and
// with tok), its length, whether it is quoted, capitalised, an alias only,
// nested in or around another mention, its position, how many nodes it
// names and how many of them have the hop (compat nodes, with their hop
// neighbour count).
func anchorFeatures(dim int, text string, words []graphops.Word, ments []graphops.LinkedMention, mi int, tok string, compat, fanout int) []uint32 {
	m := &ments[mi]
	var out []uint32
	h := fnv.New32a()
	add := func(parts ...string) {
		h.Reset()
		for _, p := range parts {
			h.Write([]byte(p))
			h.Write([]byte{0})
		}
		out = append(out, h.Sum32()%uint32(dim))
	}
	both := func(parts ...string) {
		add(parts...)
		add(append([]string{tok}, parts...)...)
	}
	word := func(i int) string {
		if i < 0 {
			return "<s>"
		}
		if i >= len(words) {
			return "</s>"
		}
		return words[i].Norm
	}
	both("bias")
	both("self", strings.ToLower(m.Text))
	both("l1", word(m.TokStart-1))
	both("l2", word(m.TokStart-2), word(m.TokStart-1))
	both("r1", word(m.TokEnd))
	both("r2", word(m.TokEnd), word(m.TokEnd+1))
	for i := max(0, m.TokStart-4); i < m.TokStart-1; i++ {
		both("lw", word(i))
	}
	for i := m.TokEnd + 1; i < min(len(words), m.TokEnd+4); i++ {
		both("rw", word(i))
	}
	both("len", strconv.Itoa(min(m.TokEnd-m.TokStart, 5)))
	quoted := false
	if m.Start > 0 {
		r, _ := utf8.DecodeLastRuneInString(text[:m.Start])
		quoted = strings.ContainsRune(`'"‘“`, r)
	}
	if m.End < len(text) {
		r, _ := utf8.DecodeRuneInString(text[m.End:])
		quoted = quoted || strings.ContainsRune(`'"’”`, r)
	}
	if quoted {
		both("quoted")
	}
	if r, _ := utf8.DecodeRuneInString(m.Text); r >= 'A' && r <= 'Z' && m.TokStart > 0 {
		both("cap")
	}
	alias := true
	for _, n := range m.Nodes {
		if !n.Alias {
			alias = false
		}
	}
	if alias {
		both("alias")
	}
	for j := range ments {
		o := &ments[j]
		if j == mi || o.TokEnd <= m.TokStart || o.TokStart >= m.TokEnd {
			continue
		}
		if o.TokEnd-o.TokStart > m.TokEnd-m.TokStart {
			both("inner")
		} else {
			both("outer")
		}
	}
	both("pos", strconv.Itoa(4*m.TokStart/max(1, len(words))))
	both("nodes", strconv.Itoa(bucket(len(m.Nodes))))
	if compat == 0 {
		both("nocompat")
	} else {
		both("compat", strconv.Itoa(bucket(compat)))
		both("fanout", strconv.Itoa(bucket(fanout)))
	}
	return out
}

// bucket is ⌊log2(n)⌋+1 for n > 0, capped at 12.
func bucket(n int) int {
	if n <= 0 {
		return 0
	}
	return min(12, 1+int(math.Log2(float64(n))))
}

// compatNodes returns the nodes of mention m of type t (AnyTypeID: any)
// that have hop h, and their hop neighbours in total.
func (p *Planner) compatNodes(m *graphops.LinkedMention, t data.TypeID, h graphops.Hop, buf []uint32) ([]uint32, int, []uint32) {
	var out []uint32
	fan := 0
	g := p.ws.Graph
	for _, n := range m.Nodes {
		if t != graphops.AnyTypeID && g.Type(n.Node) != t {
			continue
		}
		buf = g.Step(buf[:0], n.Node, h)
		if len(buf) > 0 {
			out = append(out, n.Node)
			fan += len(buf)
		}
	}
	return out, fan, buf
}

// slotScores scores every mention as the anchor of path pi of template
// ti: log-softmax over the mentions, and the compatible nodes of each.
func (p *Planner) slotScores(text string, words []graphops.Word, ments []graphops.LinkedMention, ti, pi int) ([]float64, [][]uint32) {
	path := p.Cfg.Templates[ti][pi]
	t := graphops.AnyTypeID
	if id, ok := p.skb.Schema.NodeTypeID(path[0]); ok {
		t = id
	}
	h := p.hops[ti][pi]
	scores := make([]float64, len(ments))
	nodes := make([][]uint32, len(ments))
	var buf []uint32
	for mi := range ments {
		var fan int
		nodes[mi], fan, buf = p.compatNodes(&ments[mi], t, h, buf)
		scores[mi] = float64(p.Anchor.Score(anchorFeatures(p.Cfg.Anchors.Dim, text, words, ments, mi, path[1], len(nodes[mi]), fan)))
	}
	logSoftmax(scores)
	return scores, nodes
}

func logSoftmax(s []float64) {
	mx := math.Inf(-1)
	for _, v := range s {
		mx = math.Max(mx, v)
	}
	var z float64
	for _, v := range s {
		z += math.Exp(v - mx)
	}
	lz := mx + math.Log(z)
	for i := range s {
		s[i] -= lz
	}
}

// PredictLinked plans a question with linked anchors (see Planner).
func (p *Planner) PredictLinked(q data.Query) (PlanPrediction, error) {
	none := PlanPrediction{Template: -1}
	x, _, err := p.Features(q)
	if err != nil {
		return none, err
	}
	probs := p.Gate.Forward(x, 1)
	ments := p.ments.Find(q.Text)
	if len(ments) == 0 {
		return none, nil
	}
	words := graphops.MentionWords(q.Text)
	order := make([]int, len(probs))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(probs[b], probs[a]) })
	topT := cmp.Or(p.Cfg.Anchors.TopTemplates, defaultTopTemplates)
	topM := cmp.Or(p.Cfg.Anchors.TopMentions, defaultTopMentions)
	type combo struct {
		ti    int
		ments []int
		nodes [][]uint32
		score float64
	}
	var combos []combo
	for _, ti := range order[:min(topT, len(order))] {
		tmpl := p.Cfg.Templates[ti]
		lp := math.Log(math.Max(float64(probs[ti]), 1e-30))
		slots := make([][]int, len(tmpl))
		sc := make([][]float64, len(tmpl))
		nd := make([][][]uint32, len(tmpl))
		for pi := range tmpl {
			sc[pi], nd[pi] = p.slotScores(q.Text, words, ments, ti, pi)
			var cand []int
			for mi := range ments {
				if len(nd[pi][mi]) > 0 {
					cand = append(cand, mi)
				}
			}
			slices.SortStableFunc(cand, func(a, b int) int { return cmp.Compare(sc[pi][b], sc[pi][a]) })
			slots[pi] = cand[:min(topM, len(cand))]
		}
		// Every assignment of distinct, non-overlapping mentions.
		var rec func(pi int, chosen []int, score float64)
		rec = func(pi int, chosen []int, score float64) {
			if pi == len(tmpl) {
				c := combo{ti: ti, ments: slices.Clone(chosen), score: score}
				for j, mi := range chosen {
					c.nodes = append(c.nodes, nd[j][mi])
				}
				combos = append(combos, c)
				return
			}
			for _, mi := range slots[pi] {
				ok := true
				for _, o := range chosen {
					if ments[o].TokStart < ments[mi].TokEnd && ments[mi].TokStart < ments[o].TokEnd {
						ok = false
					}
				}
				if ok {
					rec(pi+1, append(chosen, mi), score+sc[pi][mi])
				}
			}
		}
		rec(0, nil, lp)
	}
	if len(combos) == 0 {
		return none, nil
	}
	slices.SortStableFunc(combos, func(a, b combo) int { return cmp.Compare(b.score, a.score) })
	build := func(c combo) data.Plan {
		tmpl := p.Cfg.Templates[c.ti]
		plan := data.Plan{Restriction: map[string][]string{}}
		for pi, path := range tmpl {
			path = slices.Clone(path)
			if path[0] == data.AnyType {
				// The anchors' type when they agree.
				t := p.ws.Graph.Type(c.nodes[pi][0])
				same := true
				for _, v := range c.nodes[pi] {
					same = same && p.ws.Graph.Type(v) == t
				}
				if same {
					path[0] = p.skb.Schema.NodeTypes[t]
				}
			}
			plan.Metapath = append(plan.Metapath, path)
			plan.Anchors = append(plan.Anchors, data.PlanAnchor{Text: ments[c.ments[pi]].Text, Nodes: c.nodes[pi]})
		}
		if r := RestrictionText(q.Text, ments, c.ments); r != "" {
			plan.Restriction[plan.TargetType()] = []string{r}
		}
		return plan
	}
	for _, c := range combos[:min(len(combos), 4*topT)] {
		plan := build(c)
		res, err := graphops.ExecutePlan(p.ws.Graph, p.ws.Names(), plan)
		if err != nil {
			continue
		}
		n := 0
		for _, v := range res.Reach {
			if p.ws.CandMask[v] {
				n++
			}
		}
		if n > 0 {
			return PlanPrediction{Plan: plan, Prob: probs[c.ti], Template: c.ti, Reach: n}, nil
		}
	}
	return PlanPrediction{Plan: build(combos[0]), Prob: probs[combos[0].ti], Template: combos[0].ti}, nil
}

// AnchorGroup is one training example of the anchor scorer: the features
// of every mention that could anchor a template path (it has the path's
// first hop) and which of them the mined plan used.
type AnchorGroup struct {
	Feats [][]uint32
	Gold  int
}

// AnchorGroup builds the example of path pi of template ti whose mined
// anchor is mention gold; ok is false when fewer than two mentions could
// anchor the path or gold cannot.
func (p *Planner) AnchorGroup(text string, ments []graphops.LinkedMention, ti, pi, gold int) (AnchorGroup, bool) {
	path := p.Cfg.Templates[ti][pi]
	t := graphops.AnyTypeID
	if id, ok := p.skb.Schema.NodeTypeID(path[0]); ok {
		t = id
	}
	words := graphops.MentionWords(text)
	var g AnchorGroup
	g.Gold = -1
	var buf []uint32
	for mi := range ments {
		var nodes []uint32
		var fan int
		nodes, fan, buf = p.compatNodes(&ments[mi], t, p.hops[ti][pi], buf)
		if len(nodes) == 0 {
			continue
		}
		if mi == gold {
			g.Gold = len(g.Feats)
		}
		g.Feats = append(g.Feats, anchorFeatures(p.Cfg.Anchors.Dim, text, words, ments, mi, path[1], len(nodes), fan))
	}
	return g, g.Gold >= 0 && len(g.Feats) > 1
}
