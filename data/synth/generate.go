// Package synth generates STaRK-like semi-structured benchmarks: typed
// graphs whose candidate nodes carry topic-dependent text that expresses
// their properties, and queries built from metapath templates (anchor
// entities named in the query plus a textual restriction drawn from an
// answer's properties), with gold answers computed exactly from the graph
// and a ground-truth plan per query.
//
// The presets amazon, mag and prime use the node and relation types of the
// real STaRK knowledge bases. Generation is deterministic per seed.
package synth

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"

	"github.com/strata-retrieval/strata/data"
)

// Config controls generation. Zero values mean the defaults.
type Config struct {
	Preset  string // amazon, mag or prime (default amazon)
	Nodes   int    // total number of nodes (default 5000, at least 200)
	Queries int    // number of queries (default 1000)
	Seed    uint64 // random seed (default 0 is a valid seed)
	// Edges, when > 0, scales the relation densities so that the number of
	// stored edges is close to it (used to build large benchmark graphs).
	Edges int
	// Skew, when > 0, gives the graph hubs as real knowledge graphs have
	// them: the k-th node of a type (in the generator's random order) is
	// weighted (k+1)^-Skew, and both a source's number of edges (scaled to
	// keep the relation's mean degree) and the choice of destinations
	// follow these weights. 0 keeps degrees Poisson around the mean.
	Skew float64
}

// Presets returns the preset names.
func Presets() []string {
	out := make([]string, 0, len(presets))
	for k := range presets {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Result is a generated benchmark.
type Result struct {
	SKB   *data.SKB
	Plans []data.PlanRecord // ground-truth plan per query, in query order
}

// PlanMap returns the ground-truth plans keyed by query id.
func (r *Result) PlanMap() map[int]data.Plan {
	m := make(map[int]data.Plan, len(r.Plans))
	for _, p := range r.Plans {
		m[p.QID] = p.Plan
	}
	return m
}

func (c Config) withDefaults() Config {
	if c.Preset == "" {
		c.Preset = "amazon"
	}
	if c.Nodes == 0 {
		c.Nodes = 5000
	}
	if c.Queries == 0 {
		c.Queries = 1000
	}
	return c
}

// Validate checks the configuration.
func (c Config) Validate() error {
	c = c.withDefaults()
	if _, ok := presets[c.Preset]; !ok {
		return fmt.Errorf("synth: unknown preset %q (have %s)", c.Preset, strings.Join(Presets(), ", "))
	}
	if c.Nodes < 200 {
		return fmt.Errorf("synth: nodes = %d, want at least 200", c.Nodes)
	}
	if c.Nodes > 1<<31 {
		return fmt.Errorf("synth: nodes = %d is too many", c.Nodes)
	}
	if c.Queries < 1 {
		return fmt.Errorf("synth: queries = %d, want at least 1", c.Queries)
	}
	if c.Edges < 0 {
		return fmt.Errorf("synth: edges = %d, want >= 0", c.Edges)
	}
	if !(c.Skew >= 0 && c.Skew <= 3) {
		return fmt.Errorf("synth: skew = %v, want a number in [0, 3]", c.Skew)
	}
	return nil
}

type gen struct {
	cfg    Config
	p      *preset
	r      *rand.Rand
	v      *vocab
	schema data.Schema
	nodes  []data.Node
	topic  []int32
	props  [][]int32 // per node, sorted property ids (candidates only)
	// ids per type, and per (type, topic)
	byType      [][]uint32
	byTypeTopic [][][]uint32
	topics      int
	edges       data.Edges
	// CSR over the undirected union, for query generation
	off []uint64
	adj []uint64 // rel<<32 | nbr
	// mentions[v] collects (field, text) sentences naming neighbours
	mentions map[uint32][][2]string
	mark     []uint32
	stamp    uint32
}

// Generate builds a benchmark.
func Generate(cfg Config) (*Result, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	cfg = cfg.withDefaults()
	g := &gen{cfg: cfg, p: presets[cfg.Preset], r: rand.New(rand.NewPCG(cfg.Seed, 0x5eed5eed))}
	g.schema = data.Schema{Format: data.FormatSKBDir, Name: "synth-" + cfg.Preset, TextFields: g.p.fields}
	for _, t := range g.p.types {
		g.schema.NodeTypes = append(g.schema.NodeTypes, t.name)
		if t.candidate {
			g.schema.CandidateTypes = append(g.schema.CandidateTypes, t.name)
		}
	}
	for _, rs := range g.p.rels {
		g.schema.RelationTypes = append(g.schema.RelationTypes, rs.name)
	}
	nCand := 0
	for _, t := range g.p.types {
		if t.candidate {
			nCand += int(t.frac * float64(cfg.Nodes))
		}
	}
	g.topics = clampInt(int(math.Sqrt(float64(cfg.Nodes))/3), 8, 400)
	nProps := clampInt(nCand/30, 40, 20000)
	g.v = newVocab(g.r, g.topics, 40, 300, nProps, 14, clampInt(cfg.Nodes/40, 30, 50000))
	g.makeNodes()
	g.makeEdges()
	g.buildAdjacency()
	g.writeText()
	skb := &data.SKB{Schema: g.schema, Nodes: g.nodes, Edges: g.edges}
	qa, plans := g.makeQueries()
	skb.QA = qa
	if err := skb.Validate(); err != nil {
		return nil, fmt.Errorf("synth: generated an invalid SKB (a bug): %w", err)
	}
	return &Result{SKB: skb, Plans: plans}, nil
}

func clampInt(x, lo, hi int) int { return max(lo, min(hi, x)) }

func ln(x float64) float64    { return math.Log(x) }
func expm1(x float64) float64 { return math.Expm1(x) }

// poisson draws from a Poisson distribution (Knuth's method for small
// means, a rounded normal approximation above 30).
func poisson(r *rand.Rand, mean float64) int {
	if mean <= 0 {
		return 0
	}
	if mean > 30 {
		return max(0, int(math.Round(mean+math.Sqrt(mean)*r.NormFloat64())))
	}
	l := math.Exp(-mean)
	k, p := 0, 1.0
	for {
		p *= r.Float64()
		if p <= l {
			return k
		}
		k++
	}
}

func (g *gen) makeNodes() {
	n := g.cfg.Nodes
	counts := make([]int, len(g.p.types))
	total := 0
	for i, t := range g.p.types {
		counts[i] = max(3, int(t.frac*float64(n)))
		total += counts[i]
	}
	counts[0] += n - total // the first type absorbs rounding
	if counts[0] < 3 {
		counts[0] = 3
	}
	g.byType = make([][]uint32, len(g.p.types))
	g.byTypeTopic = make([][][]uint32, len(g.p.types))
	for ti, t := range g.p.types {
		g.byTypeTopic[ti] = make([][]uint32, g.topics)
		seen := map[string]bool{}
		for j := 0; j < counts[ti]; j++ {
			id := uint32(len(g.nodes))
			topic := g.r.IntN(g.topics)
			name := t.naming(g.r, g.v, topic)
			for try := 2; seen[name]; try++ {
				base := t.naming(g.r, g.v, topic)
				if try > 5 {
					base = fmt.Sprintf("%s %d", base, try)
				}
				name = base
			}
			seen[name] = true
			g.nodes = append(g.nodes, data.Node{Type: data.TypeID(ti), Name: name, Fields: make([]string, len(g.p.fields))})
			g.topic = append(g.topic, int32(topic))
			g.byType[ti] = append(g.byType[ti], id)
			g.byTypeTopic[ti][topic] = append(g.byTypeTopic[ti][topic], id)
		}
	}
	// Properties of candidates: mostly from the topic's pool.
	g.props = make([][]int32, len(g.nodes))
	lo, hi := g.p.propsPerNode[0], g.p.propsPerNode[1]
	for id := range g.nodes {
		if !g.p.types[g.nodes[id].Type].candidate {
			continue
		}
		k := lo + g.r.IntN(hi-lo+1)
		set := map[int32]bool{}
		for len(set) < k {
			var p int
			if g.r.Float64() < g.p.topicPropShare {
				tp := g.v.topicProps[g.topic[id]]
				p = tp[zipf(g.r, len(tp))]
			} else {
				p = g.r.IntN(len(g.v.props))
			}
			set[int32(p)] = true
		}
		ps := make([]int32, 0, k)
		for p := range set {
			ps = append(ps, p)
		}
		slices.Sort(ps)
		g.props[id] = ps
	}
}

func (g *gen) typeIndex(name string) int {
	for i, t := range g.p.types {
		if t.name == name {
			return i
		}
	}
	panic("synth: preset names unknown type " + name)
}

func (g *gen) makeEdges() {
	scale := 1.0
	if g.cfg.Edges > 0 {
		natural := 0.0
		for _, rs := range g.p.rels {
			natural += rs.deg * float64(len(g.byType[g.typeIndex(rs.src)]))
		}
		scale = float64(g.cfg.Edges) / natural
	}
	sk := g.newSkew()
	type pair struct{ a, b uint32 }
	for ri, rs := range g.p.rels {
		st, dt := g.typeIndex(rs.src), g.typeIndex(rs.dst)
		dsts := g.byType[dt]
		seen := map[pair]bool{}
		exactlyOne := rs.deg == 1 && scale == 1 && sk == nil
		for _, s := range g.byType[st] {
			mean := rs.deg * scale
			if sk != nil {
				mean *= sk.mult[s]
			}
			var k int
			switch {
			case exactlyOne:
				k = 1
			case mean >= 1:
				k = 1 + poisson(g.r, mean-1)
			default:
				k = poisson(g.r, mean)
			}
			// With hubs a source redraws duplicates (up to 4k draws, and k
			// at most half the other type) so the edge count stays near its
			// target; without, duplicates are skipped.
			draws := k
			if sk != nil {
				k = min(k, max(1, len(dsts)/2))
				draws = 4 * k
			}
			for j, added := 0, 0; j < draws && added < k; j++ {
				var d uint32
				bucket := g.byTypeTopic[dt][g.topic[s]]
				inTopic := len(bucket) > 0 && g.r.Float64() < rs.homophily
				switch {
				case sk != nil && inTopic:
					d = sk.draw(g.r, dt, int(g.topic[s]), bucket)
				case sk != nil:
					d = sk.draw(g.r, dt, -1, dsts)
				case inTopic:
					d = bucket[g.r.IntN(len(bucket))]
				default:
					d = dsts[g.r.IntN(len(dsts))]
				}
				if d == s || seen[pair{s, d}] || (st == dt && seen[pair{d, s}]) {
					continue
				}
				seen[pair{s, d}] = true
				g.edges.Add(s, data.RelID(ri), d)
				added++
			}
		}
	}
}

// skew holds the hub weights of Config.Skew: mult[v] is node v's weight
// over its type's mean weight, and cum the cumulative weights of each type
// (index -1 of topics) and each (type, topic) bucket, in bucket order.
type skew struct {
	w    []float64
	mult []float64
	cum  map[[2]int][]float64
}

func (g *gen) newSkew() *skew {
	if g.cfg.Skew <= 0 {
		return nil
	}
	sk := &skew{w: make([]float64, len(g.nodes)), mult: make([]float64, len(g.nodes)), cum: map[[2]int][]float64{}}
	for _, ids := range g.byType {
		sum := 0.0
		for k, v := range ids {
			sk.w[v] = math.Pow(float64(k+1), -g.cfg.Skew)
			sum += sk.w[v]
		}
		for _, v := range ids {
			sk.mult[v] = sk.w[v] * float64(len(ids)) / sum
		}
	}
	return sk
}

// draw picks a member of ids (the nodes of type t, or of its topic bucket)
// with probability proportional to its weight.
func (sk *skew) draw(r *rand.Rand, t, topic int, ids []uint32) uint32 {
	key := [2]int{t, topic}
	cum, ok := sk.cum[key]
	if !ok {
		cum = make([]float64, len(ids))
		acc := 0.0
		for i, v := range ids {
			acc += sk.w[v]
			cum[i] = acc
		}
		sk.cum[key] = cum
	}
	x := r.Float64() * cum[len(cum)-1]
	i, _ := slices.BinarySearch(cum, x)
	return ids[min(i, len(ids)-1)]
}

func (g *gen) buildAdjacency() {
	n := len(g.nodes)
	g.off = make([]uint64, n+1)
	for i := range g.edges.Src {
		g.off[g.edges.Src[i]+1]++
		g.off[g.edges.Dst[i]+1]++
	}
	for v := 0; v < n; v++ {
		g.off[v+1] += g.off[v]
	}
	g.adj = make([]uint64, g.off[n])
	fill := append([]uint64(nil), g.off[:n]...)
	for i := range g.edges.Src {
		s, r, d := g.edges.Src[i], uint64(g.edges.Rel.At(i)), g.edges.Dst[i]
		g.adj[fill[s]] = r<<32 | uint64(d)
		fill[s]++
		g.adj[fill[d]] = r<<32 | uint64(s)
		fill[d]++
	}
	g.mark = make([]uint32, n)
}

// neighbors appends the neighbours of v by relation rel with node type t.
func (g *gen) neighbors(dst []uint32, v uint32, rel data.RelID, t data.TypeID) []uint32 {
	for _, e := range g.adj[g.off[v]:g.off[v+1]] {
		if data.RelID(e>>32) == rel {
			u := uint32(e)
			if g.nodes[u].Type == t {
				dst = append(dst, u)
			}
		}
	}
	return dst
}

func (g *gen) fieldIndex(name string) int {
	for i, f := range g.p.fields {
		if f == name {
			return i
		}
	}
	return -1
}

// writeText fills the text fields of every candidate node.
func (g *gen) writeText() {
	p := g.p
	title, body, list, noise := g.fieldIndex(p.titleField), g.fieldIndex(p.bodyField), g.fieldIndex(p.listField), g.fieldIndex(p.noiseField)
	// Mentions of neighbours, by relation, written into the relation's field.
	mention := make(map[uint32][]string) // node -> sentences, keyed per field below
	mentionField := make(map[uint32][]int)
	for i := range g.edges.Src {
		rs := p.rels[g.edges.Rel.At(i)]
		if rs.mention == 0 {
			continue
		}
		for _, end := range [2][2]uint32{{g.edges.Src[i], g.edges.Dst[i]}, {g.edges.Dst[i], g.edges.Src[i]}} {
			c, other := end[0], end[1]
			if !p.types[g.nodes[c].Type].candidate || g.nodes[c].Type == g.nodes[other].Type {
				continue
			}
			if g.r.Float64() < rs.mention {
				mention[c] = append(mention[c], g.nodes[other].Name)
				mentionField[c] = append(mentionField[c], g.fieldIndex(rs.mentionFld))
			}
		}
	}
	var sb strings.Builder
	for id := range g.nodes {
		nd := &g.nodes[id]
		t := p.types[nd.Type]
		if !t.candidate {
			continue
		}
		topic := int(g.topic[id])
		props := g.props[id]
		if title >= 0 {
			sb.Reset()
			sb.WriteString(nd.Name)
			if g.r.IntN(2) == 0 {
				sb.WriteString(", ")
				sb.WriteString(g.v.props[props[g.r.IntN(len(props))]])
			}
			nd.Fields[title] = sb.String()
		}
		// Body: topic words, common words, glue, and every property.
		nw := p.bodyWords[0] + g.r.IntN(p.bodyWords[1]-p.bodyWords[0]+1)
		words := make([]string, 0, nw+2*len(props))
		for i := 0; i < nw; i++ {
			x := g.r.Float64()
			switch {
			case x < 0.5:
				words = append(words, g.v.topicWord(g.r, topic))
			case x < 0.75:
				words = append(words, g.v.common[zipf(g.r, len(g.v.common))])
			default:
				words = append(words, pick(g.r, p.glue))
			}
		}
		for _, pr := range props {
			for c := 0; c < 1+g.r.IntN(2); c++ {
				pos := g.r.IntN(len(words) + 1)
				words = slices.Insert(words, pos, g.v.props[pr])
			}
		}
		if p.noiseField != "review" {
			// No free-text noise field: distractors go into the body.
			for d := poisson(g.r, p.distractRate); d > 0; d-- {
				if pr, ok := g.distractor(topic, props); ok {
					pos := g.r.IntN(len(words) + 1)
					words = slices.Insert(words, pos, "unlike", g.v.props[pr])
				}
			}
		}
		nd.Fields[body] = sentence(words)
		if list >= 0 {
			ps := make([]string, len(props))
			for i, pr := range props {
				ps[i] = g.v.props[pr]
			}
			nd.Fields[list] = strings.Join(ps, "; ")
		}
		if noise >= 0 {
			nd.Fields[noise] = g.noiseText(t.name, topic, props)
		}
		for i, m := range mention[uint32(id)] {
			f := mentionField[uint32(id)][i]
			if f < 0 {
				f = body
			}
			if nd.Fields[f] == "" {
				nd.Fields[f] = m
			} else if f == body {
				nd.Fields[f] += " Related to " + m + "."
			} else {
				nd.Fields[f] += "; " + m
			}
		}
	}
}

// noiseText makes the extra field: reviews, venues or sources, with
// distractor mentions of properties the node does not have.
func (g *gen) noiseText(typeName string, topic int, own []int32) string {
	p := g.p
	switch p.noiseField {
	case "venue":
		return "Journal of " + capitalize(g.v.topicWord(g.r, topic)) + " " + capitalize(g.v.common[g.r.IntN(len(g.v.common))])
	case "source":
		return pick(g.r, sources[typeName])
	}
	var words []string
	for i := 0; i < 8+g.r.IntN(12); i++ {
		if g.r.IntN(2) == 0 {
			words = append(words, pick(g.r, p.glue))
		} else {
			words = append(words, g.v.common[zipf(g.r, len(g.v.common))])
		}
	}
	for d := poisson(g.r, p.distractRate); d > 0; d-- {
		if pr, ok := g.distractor(topic, own); ok {
			words = append(words, "wish", "it", "were", g.v.props[pr])
		}
	}
	return sentence(words)
}

// distractor draws a property of the node's topic that the node does not
// have; its mention makes text-only matching ambiguous.
func (g *gen) distractor(topic int, own []int32) (int32, bool) {
	tp := g.v.topicProps[topic]
	pr := int32(tp[g.r.IntN(len(tp))])
	if _, owned := slices.BinarySearch(own, pr); owned {
		return 0, false
	}
	return pr, true
}

func sentence(words []string) string {
	if len(words) == 0 {
		return ""
	}
	s := strings.Join(words, " ")
	return strings.ToUpper(s[:1]) + s[1:] + "."
}
