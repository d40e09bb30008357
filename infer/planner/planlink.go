package planner

import (
	"cmp"
	"context"
	"fmt"
	"hash/fnv"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/data/index"
	"github.com/strata-retrieval/strata/graphops"
	"github.com/strata-retrieval/strata/graphops/linking"
	gplan "github.com/strata-retrieval/strata/graphops/plan"
	"github.com/strata-retrieval/strata/graphops/workspace"
	"github.com/strata-retrieval/strata/infer"
	"github.com/strata-retrieval/strata/models"
)

// Defaults of AnchorConfig.
const (
	defaultAnchorDim    = 1 << 18
	defaultTopTemplates = 8
	defaultTopMentions  = 3
)

// LinkingPlanner plans from relation paths whose anchors it links (a
// planner trained from mined plans, Cfg.Anchors set): the question's
// mentions (names and alias fields, see linking.MentionIndex) are scored
// for each path of a template by a hashed linear model of their context,
// the template's first hop and how many of their nodes have such an edge;
// the most probable (template, mentions) pairs, each with its ranked or
// unranked twin, are executed on the graph, and the plan ranker chooses
// among those that reach a candidate (plan execution checks the plan, as
// an empty answer set rules it out). The anchors keep every node of the
// mention that has the path's first hop.
type LinkingPlanner struct {
	*Classifier
	Anchor *models.SparseLinear
	Ranker *models.SparseLinear // the plan ranker; nil without Cfg.Anchors.RankDim
	// Fit is the text-fit gate (fit.go); nil without Cfg.Anchors.Fit.
	Fit   *models.SparseLinear
	ments *linking.MentionIndex
	hops  [][]graphops.Hop // per template, the first hop of each path
	names schemaNames
	words *wordResolver // nil without Cfg.Anchors.Lexicon
}

// NewLinkingPlanner binds a linking planner (Cfg.Anchors set) to a
// workspace. Templates must compile against the schema.
func NewLinkingPlanner(ws *workspace.Workspace, d *infer.DenseChannel, cfg Config, gate *models.Gate, anchor, ranker *models.SparseLinear) (*LinkingPlanner, error) {
	if cfg.Anchors == nil || anchor == nil {
		return nil, fmt.Errorf("planner: a linking planner needs its anchor config and scorer")
	}
	if (cfg.Anchors.RankDim > 0) != (ranker != nil) {
		return nil, fmt.Errorf("planner: plan ranker dimension %d but ranker %v", cfg.Anchors.RankDim, ranker != nil)
	}
	p := &LinkingPlanner{Classifier: newClassifier(ws, d, cfg, gate), Anchor: anchor, Ranker: ranker, names: newSchemaNames(&ws.SKB.Schema)}
	if slices.Equal(ws.Mentions().Config().AliasFields, cfg.Anchors.Mentions.AliasFields) && cfg.Anchors.Mentions.MaxTokens == ws.Mentions().Config().MaxTokens {
		p.ments = ws.Mentions()
	} else {
		p.ments = linking.NewMentionIndex(ws.SKB, cfg.Anchors.Mentions)
	}
	for ti, t := range cfg.Templates {
		var hs []graphops.Hop
		for pi, path := range t {
			_, hops, err := graphops.CompilePath(&ws.SKB.Schema, pi, path)
			if err != nil {
				return nil, fmt.Errorf("planner template %d: %w", ti, err)
			}
			if len(hops) == 0 {
				return nil, fmt.Errorf("planner template %d path %d has no hop", ti, pi)
			}
			hs = append(hs, hops[0])
		}
		p.hops = append(p.hops, hs)
	}
	words, err := p.newWordResolver()
	if err != nil {
		return nil, err
	}
	p.words = words
	return p, nil
}

// Resolve is the question as the planner reads it: with Cfg.Anchors.Lexicon,
// each word no training question used that the lexicon relates to a word
// the planner knows, outside the question's mentions and quotes, is
// replaced by that word (lexwords.go); otherwise text itself.
func (p *LinkingPlanner) Resolve(text string) string {
	if p.words == nil {
		return text
	}
	out, _ := p.words.resolve(text, p.ments.Find)
	return out
}

// FitText is the text the text-fit gate reads: with Cfg.Anchors.Lexicon,
// every word no training question used that the lexicon relates to a
// known word is read as it, words that name nodes included (the gate asks
// whether a query is worded like the training questions, not what it
// names: "Tell me which textile forms component of shirt" is worded as
// "... forms part of ..."); otherwise text itself. Training reads its
// questions and passages, and calibrates the threshold, the same way.
func (p *LinkingPlanner) FitText(text string) string {
	if p.words == nil {
		return text
	}
	out, _ := p.words.resolve(text, nil)
	return out
}

// Mentions returns the mention index the planner links with.
func (p *LinkingPlanner) Mentions() *linking.MentionIndex { return p.ments }

// Params implements Predictor: the classifier's, the anchor scorer's and
// the plan ranker's tensors.
func (p *LinkingPlanner) Params() []models.NamedParam {
	ps := append(p.Gate.Params(), p.Anchor.Params()...)
	if p.Ranker != nil {
		ps = append(ps, p.Ranker.Params()...)
	}
	if p.Fit != nil {
		ps = append(ps, p.Fit.Params()...)
	}
	return ps
}

// anchorFeatures hashes the features of mention mi as the anchor of a path
// whose first hop is tok (a relation token): the words around it (alone and
// with tok), its length, whether it is quoted, capitalised, an alias only,
// nested in or around another mention, its position, how many nodes it
// names and how many of them have the hop (compat nodes, with their hop
// neighbour count).
func anchorFeatures(dim int, text string, words []linking.Word, ments []linking.LinkedMention, mi int, tok string, compat, fanout int) []uint32 {
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
func (p *LinkingPlanner) compatNodes(m *linking.LinkedMention, t data.TypeID, h graphops.Hop, buf []uint32) ([]uint32, int, []uint32) {
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
func (p *LinkingPlanner) slotScores(text string, words []linking.Word, ments []linking.LinkedMention, ti, pi int) ([]float64, [][]uint32) {
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

// PlanCandidate is a (template, mentions) pair the linking planner
// considered, with its plan executed.
type PlanCandidate struct {
	Plan       data.Plan
	Template   int
	Mentions   []int   // the anchor mention of each template path
	TemplateLP float64 // log-probability of the template
	AnchorLP   float64 // sum of the anchors' log-probabilities
	Reach      []uint32
	// Scores are the BM25 scores of Reach for the plan's target
	// restriction, aligned with it; set by ScoreCandidates.
	Scores []float32
	Err    error // the plan could not be executed (e.g. no anchor of its type)
	Prior  int   // the (template, mentions) pair's rank by Score
	// Twin: the plan is its template's with the middle positions' ranking
	// switched (data.Plan.WithRankedMiddles), which the classifier did not
	// propose.
	Twin bool
}

// Score is the candidate's prior: template and anchor log-probabilities.
func (c *PlanCandidate) Score() float64 { return c.TemplateLP + c.AnchorLP }

// Candidates returns the (template, mentions) pairs the planner would try
// for q, most probable first (at most 4·TopTemplates), each executed; the
// mentions of q come back too. It returns ctx.Err() when ctx ends before
// the next candidate is executed.
func (p *LinkingPlanner) Candidates(ctx context.Context, q data.Query) ([]PlanCandidate, []linking.LinkedMention, error) {
	return p.candidates(ctx, q, nil)
}

// maxDeeper bounds the templates a deeper search tries beyond
// TopTemplates (candidates' more).
const maxDeeper = 2

// candidates is Candidates; with more set, the templates tried are, besides
// the TopTemplates most probable, up to maxDeeper of the others, the most
// probable first, with an anchoring of the question's mentions (chosen:
// one mention index per path) for which more holds; each such anchoring
// is a candidate.
func (p *LinkingPlanner) candidates(ctx context.Context, q data.Query, more func(ti int, chosen []int) bool) ([]PlanCandidate, []linking.LinkedMention, error) {
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	x, _, err := p.Features(q)
	if err != nil {
		return nil, nil, err
	}
	probs := p.Gate.Forward(x, 1)
	ments := p.ments.Find(q.Text)
	if len(ments) == 0 {
		return nil, ments, nil
	}
	words := linking.MentionWords(q.Text)
	order := make([]int, len(probs))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(probs[b], probs[a]) })
	topT := cmp.Or(p.Cfg.Anchors.TopTemplates, defaultTopTemplates)
	topM := cmp.Or(p.Cfg.Anchors.TopMentions, defaultTopMentions)
	type combo struct {
		ti     int
		ments  []int
		nodes  [][]uint32
		lp, ap float64
		deep   bool
	}
	var combos []combo
	deeper := 0
	for k, ti := range order {
		if k >= topT && (more == nil || deeper == maxDeeper) {
			break
		}
		before := len(combos)
		deep := k >= topT
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
				if deep && !more(ti, chosen) {
					return
				}
				c := combo{ti: ti, ments: slices.Clone(chosen), lp: lp, ap: score, deep: deep}
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
		rec(0, nil, 0)
		if deep && len(combos) > before {
			deeper++
		}
	}
	slices.SortStableFunc(combos, func(a, b combo) int { return cmp.Compare(b.lp+b.ap, a.lp+a.ap) })
	// The 4·TopTemplates most probable anchorings, and every one the
	// deeper search asked for.
	kept := 0
	combos = slices.DeleteFunc(combos, func(c combo) bool {
		if c.deep {
			return false
		}
		kept++
		return kept > 4*topT
	})
	out := make([]PlanCandidate, 0, len(combos))
	seen := map[string]bool{}
	for i, c := range combos {
		// Each candidate is executed on the graph: a request that has
		// timed out stops here, not after every candidate.
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
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
		if r := StripFrameWords(linking.RestrictionText(q.Text, ments, c.ments), p.Cfg.Anchors.FrameWords); r != "" {
			plan.Restriction[plan.TargetType()] = []string{r}
		}
		pc := PlanCandidate{Plan: plan, Template: c.ti, Mentions: c.ments, TemplateLP: c.lp, AnchorLP: c.ap, Prior: i}
		if key := candidateKey(&pc); !seen[key] {
			seen[key] = true
			out = append(out, p.execute(pc))
		}
		// The ranked or unranked twin: whether the restriction ranks the
		// middle nodes is the ranker's choice, from how the restriction
		// scores each (the classifier proposes structures).
		if len(plan.Restriction) == 0 || p.Cfg.Anchors.NoTwins {
			continue
		}
		twin, ok := plan.WithRankedMiddles()
		if !ok {
			continue
		}
		if plan.HasRankMarks() {
			twin = plan.WithoutRankMarks()
		}
		tc := PlanCandidate{Plan: twin, Template: c.ti, Mentions: c.ments, TemplateLP: c.lp, AnchorLP: c.ap, Prior: i, Twin: true}
		if key := candidateKey(&tc); !seen[key] {
			seen[key] = true
			out = append(out, p.execute(tc))
		}
	}
	// Attribute twins: each restricted candidate filtered to the nodes
	// that state an attribute the question names.
	docs := map[uint32][]string{}
	for i, n := 0, len(out); i < n; i++ {
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		tc, ok := p.attrTwin(&out[i], q.Text, ments, docs)
		if !ok || len(tc.Reach) == 0 {
			continue
		}
		if key := candidateKey(&tc); !seen[key] {
			seen[key] = true
			out = append(out, tc)
		}
	}
	return out, ments, nil
}

// candidateKey identifies a candidate's plan: its paths, anchor mentions
// and attributes.
func candidateKey(c *PlanCandidate) string {
	return fmt.Sprint(c.Plan.Metapath, c.Mentions, c.Plan.Attributes)
}

// execute executes a candidate's plan (a ranked middle position scored as
// plan-exec scores it) and keeps the candidates it reaches.
func (p *LinkingPlanner) execute(pc PlanCandidate) PlanCandidate {
	var text gplan.TextScorer
	if pc.Plan.HasRankMarks() {
		text = p.ws
	}
	res, scores, err := gplan.ExecuteRanked(p.ws.Graph, p.ws.Names(), pc.Plan, text)
	if err != nil {
		pc.Err = err
	}
	for j, v := range res.Reach {
		if p.ws.CandMask[v] {
			pc.Reach = append(pc.Reach, v)
			if scores != nil {
				pc.Scores = append(pc.Scores, scores[j])
			}
		}
	}
	return pc
}

// Predict implements Predictor: the candidate the plan ranker scores
// highest among those whose plan reaches a candidate (without a ranker,
// the most probable such candidate). The chosen plan comes back executed
// (infer.PlanPrediction.Reach), so nothing executes it again.
func (p *LinkingPlanner) Predict(ctx context.Context, q data.Query) (infer.PlanPrediction, error) {
	if err := ctx.Err(); err != nil {
		return infer.PlanPrediction{Template: -1}, err
	}
	fit := float32(1)
	below := false
	if f := p.Cfg.Anchors.Fit; f != nil && p.Fit != nil {
		if fit = FitProb(p.Fit, p.FitText(q.Text)); fit < f.Min {
			if f.Rescue <= 0 {
				return infer.PlanPrediction{Template: -1, NoFit: true, Fit: fit}, nil
			}
			below = true
		}
	}
	pred, err := p.PredictUngated(ctx, q)
	pred.Fit = fit
	// Below the gate's threshold, a plan stands only when the planner is
	// more sure of it than FitConfig.Rescue.
	if below && err == nil && pred.Conf < p.Cfg.Anchors.Fit.Rescue {
		return infer.PlanPrediction{Template: -1, NoFit: true, Fit: fit}, nil
	}
	return pred, err
}

// PredictUngated is Predict without the text-fit gate: the plan the
// planner would choose for any text.
func (p *LinkingPlanner) PredictUngated(ctx context.Context, q data.Query) (infer.PlanPrediction, error) {
	if err := ctx.Err(); err != nil {
		return infer.PlanPrediction{Template: -1}, err
	}
	text := q.Text
	q.Text = p.Resolve(q.Text)
	pred, err := p.predict(ctx, q)
	pred.Fit = 1
	if q.Text != text {
		pred.ReadAs = q.Text
	}
	return pred, err
}

func (p *LinkingPlanner) predict(ctx context.Context, q data.Query) (infer.PlanPrediction, error) {
	cs, ments, err := p.Candidates(ctx, q)
	if err != nil || len(cs) == 0 {
		return infer.PlanPrediction{Template: -1}, err
	}
	if p.Ranker != nil {
		key, least, err := p.ruleOut(ctx, q.Text, ments, cs)
		if err != nil {
			return infer.PlanPrediction{Template: -1}, err
		}
		// When the question's words rule out every candidate, the search
		// goes deeper (DeeperSearch) among the templates beyond the top
		// ones: see deeper.
		if more := p.deeper(q.Text, ments, cs, key, least); more != nil {
			deep, dments, err := p.candidates(ctx, q, more)
			if err != nil {
				return infer.PlanPrediction{Template: -1}, err
			}
			if len(deep) > len(cs) {
				cs, ments = deep, dments
				if key, least, err = p.ruleOut(ctx, q.Text, ments, cs); err != nil {
					return infer.PlanPrediction{Template: -1}, err
				}
			}
		}
		feats := p.RankFeatures(q.Text, ments, cs)
		best, bs := -1, float32(0)
		var scores []float32
		for i, c := range cs {
			if len(c.Reach) == 0 || key[i] > least {
				continue
			}
			s := p.Ranker.Score(feats[i])
			scores = append(scores, s)
			if best < 0 || s > bs {
				best, bs = i, s
			}
		}
		if best >= 0 {
			var z float64
			for _, s := range scores {
				z += math.Exp(float64(s - bs))
			}
			c := &cs[best]
			return infer.PlanPrediction{Plan: c.Plan, Prob: float32(math.Exp(c.TemplateLP)), Conf: float32(1 / z), Template: c.Template, Reach: c.executed()}, nil
		}
	}
	for i := range cs {
		if c := &cs[i]; len(c.Reach) > 0 {
			p.ScoreCandidates(q.Text, ments, cs[i:i+1])
			pr := float32(math.Exp(c.TemplateLP))
			return infer.PlanPrediction{Plan: c.Plan, Prob: pr, Conf: pr, Template: c.Template, Reach: c.executed()}, nil
		}
	}
	pr := float32(math.Exp(cs[0].TemplateLP))
	return infer.PlanPrediction{Plan: cs[0].Plan, Prob: pr, Conf: pr, Template: cs[0].Template}, nil
}

// deeper returns which anchorings of templates beyond the top ones a
// deeper search tries (candidates' more), nil for none: when the question
// names a type or relation that rules out every candidate, templates that
// walk a relation for each word naming one ("What person penned pictures
// X appeared in?": the writers-of-an-actor's-films template ranked 13th);
// when every candidate left leaves a mention unexplained (CoverMentions),
// anchorings on every mention one of them leaves unexplained ("Which
// comedy movies featuring X?": the genre-and-actor template ranked 10th). key and least are ruleOut's.
func (p *LinkingPlanner) deeper(text string, ments []linking.LinkedMention, cs []PlanCandidate, key []int, least int) func(ti int, chosen []int) bool {
	if !p.Cfg.Anchors.DeeperSearch || least <= 0 {
		return nil
	}
	if least >= 1<<10 {
		named := p.namedRelations(text)
		if len(named) == 0 {
			return nil
		}
		return func(ti int, _ []int) bool {
			walked := PlanRelations(&data.Plan{Metapath: p.Cfg.Templates[ti]})
			for _, rels := range named {
				if !slices.ContainsFunc(rels, func(r string) bool { return slices.Contains(walked, r) }) {
					return false
				}
			}
			return true
		}
	}
	var open [][]int
	for i := range cs {
		if len(cs[i].Reach) > 0 && key[i] == least {
			for _, span := range p.unexplainedSpans(ments, &cs[i]) {
				if !slices.ContainsFunc(open, func(o []int) bool { return slices.Equal(o, span) }) {
					open = append(open, span)
				}
			}
		}
	}
	return func(_ int, chosen []int) bool {
		for _, span := range open {
			if !slices.ContainsFunc(chosen, func(a int) bool {
				return slices.ContainsFunc(span, func(m int) bool { return explains(&ments[a], &ments[m]) })
			}) {
				return false
			}
		}
		return true
	}
}

// ruleOut scores the candidates (ScoreCandidates) and returns, for each,
// how much what the question names rules it out, and the least of those
// over the candidates that reach something (-1 when none does): one
// answering with another type than the type the question names competes
// only when none answers with that type (typeConflict), then only the
// candidates that walk a relation for the most of its relation-naming
// words compete (relationMisses).
func (p *LinkingPlanner) ruleOut(ctx context.Context, text string, ments []linking.LinkedMention, cs []PlanCandidate) ([]int, int, error) {
	p.ScoreCandidates(text, ments, cs)
	if err := ctx.Err(); err != nil {
		return nil, 0, err
	}
	key := make([]int, len(cs))
	least := -1
	for i := range cs {
		if len(cs[i].Reach) == 0 {
			continue
		}
		if p.typeConflict(text, ments, &cs[i]) {
			key[i] = 1 << 20
		}
		key[i] += p.relationMisses(text, ments, &cs[i])<<10 + p.unexplained(ments, &cs[i])
		if least < 0 || key[i] < least {
			least = key[i]
		}
	}
	return key, least, nil
}

// executed is the candidate's scored reach as carried with its query: nil
// when it reaches nothing or its plan failed part-way (a partial reach
// is not the plan's; plan-exec executes such a plan itself
// and falls back).
func (c *PlanCandidate) executed() *data.PlanReach {
	if len(c.Reach) == 0 || c.Err != nil {
		return nil
	}
	return &data.PlanReach{Nodes: c.Reach, Scores: c.Scores}
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
func (p *LinkingPlanner) AnchorGroup(text string, ments []linking.LinkedMention, ti, pi, gold int) (AnchorGroup, bool) {
	path := p.Cfg.Templates[ti][pi]
	t := graphops.AnyTypeID
	if id, ok := p.skb.Schema.NodeTypeID(path[0]); ok {
		t = id
	}
	words := linking.MentionWords(text)
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

// rankedReach returns the k best of a candidate's reach by its
// restriction's BM25 (descending, ties by id) with their scores: the head
// of the whole reach so ordered, without sorting all of it.
func rankedReach(reach []uint32, scores []float32, k int) ([]uint32, []float32) {
	t := index.NewTopK(min(k, len(reach)))
	for i, v := range reach {
		t.Push(index.Hit{ID: v, Score: scores[i]})
	}
	hs := t.Sorted(nil)
	ids := make([]uint32, len(hs))
	out := make([]float32, len(hs))
	for i, h := range hs {
		ids[i], out[i] = h.ID, h.Score
	}
	return ids, out
}

// ScoreCandidates sets each candidate's Scores: the BM25 of its target
// restriction over the documents of its reach (a scorer shared between
// candidates with the same text), with the nodes that a restriction
// mention names moved up or down as NamedAnswers learned (text and ments
// are the question's and its mentions). It scores each candidate once:
// candidates that already have scores keep them.
func (p *LinkingPlanner) ScoreCandidates(text string, ments []linking.LinkedMention, cs []PlanCandidate) {
	cache := map[string]func(uint32) float32{}
	for i := range cs {
		c := &cs[i]
		if c.Scores != nil || len(c.Reach) == 0 {
			continue
		}
		// The restriction's text scores the reach; the question's text
		// (whose word positions the mentions index) decides named nodes.
		rtext := strings.Join(c.Plan.TargetRestriction(), " ")
		f, ok := cache[rtext]
		if !ok {
			if rtext == "" {
				f = func(uint32) float32 { return 0 }
			} else {
				f = p.ws.TextScorer(rtext)
			}
			cache[rtext] = f
		}
		c.Scores = make([]float32, len(c.Reach))
		for j, v := range c.Reach {
			c.Scores[j] = f(v)
		}
		p.adjustNamed(text, ments, c)
	}
}

// CandidateQuality is how well a candidate answers a question whose gold
// answers are known: the F1 against them of its reach ranked by the
// restriction (ScoreCandidates first) and cut at the number of answers (0
// for an empty reach).
func CandidateQuality(c *PlanCandidate, gold []uint32) float64 {
	if len(c.Reach) == 0 || len(gold) == 0 {
		return 0
	}
	k := min(len(c.Reach), len(gold))
	ids, _ := rankedReach(c.Reach, c.Scores, k)
	hits := 0
	for _, v := range ids[:k] {
		if slices.Contains(gold, v) {
			hits++
		}
	}
	if hits == 0 {
		return 0
	}
	pr, rc := float64(hits)/float64(k), float64(hits)/float64(len(gold))
	return 2 * pr * rc / (pr + rc)
}

// RankFeatures hashes the plan ranker's features of every candidate: its
// template's and anchors' log-probabilities and ranks, its shape, how many
// candidates it reaches, how its reach nests with the other candidates'
// (a plan whose answers other plans also reach is corroborated), how
// sharply the restriction ranks its reach (ScoreCandidates first), whether
// it ranks its middle nodes and is the twin the classifier did not propose,
// how probable the type it reaches is after the question's lead words
// (LeadTypes), how its best restriction score compares with the best of
// all candidates, whether it filters by an attribute, and whether its
// relations' names are words of the question (RelationWordMatch). text and ments are the question's and its mentions.
func (p *LinkingPlanner) RankFeatures(text string, ments []linking.LinkedMention, cs []PlanCandidate) [][]uint32 {
	dim := p.Cfg.Anchors.RankDim
	out := make([][]uint32, len(cs))
	trank := map[int]int{}
	for _, c := range cs {
		if _, ok := trank[c.Template]; !ok {
			trank[c.Template] = len(trank)
		}
	}
	// Each candidate's best restriction score, and the best of all: how
	// well a plan's answers fit the question's other words, against the
	// other plans' (a quoted definition or a stated attribute lifts the
	// plan that reaches the node stating it).
	top := make([]float32, len(cs))
	var best float32
	for i := range cs {
		for _, s := range cs[i].Scores {
			top[i] = max(top[i], s)
		}
		best = max(best, top[i])
	}
	// How well the question's words support each candidate's relations
	// (RelWords.MinLift), and the best support of all candidates.
	var lifts []float64
	bestLift := 0.0
	if rw := p.Cfg.Anchors.RelWords; rw != nil {
		lifts = make([]float64, len(cs))
		for i := range cs {
			lifts[i] = rw.MinLift(linking.RestrictionText(text, ments, cs[i].Mentions), &cs[i].Plan)
			if len(cs[i].Reach) > 0 {
				bestLift = max(bestLift, lifts[i])
			}
		}
	}
	words := linking.MentionWords(text)
	h := fnv.New32a()
	for i := range cs {
		c := &cs[i]
		var fs []uint32
		add := func(parts ...string) {
			h.Reset()
			for _, s := range parts {
				h.Write([]byte(s))
				h.Write([]byte{0})
			}
			fs = append(fs, h.Sum32()%uint32(dim))
		}
		hops := 0
		for _, path := range c.Plan.Metapath {
			hops += len(path) / 2
		}
		paths := "paths" + strconv.Itoa(len(c.Plan.Metapath))
		reach := "reach" + strconv.Itoa(bucket(len(c.Reach)))
		tlp := "tlp" + strconv.Itoa(min(10, int(-2*c.TemplateLP)))
		alp := "alp" + strconv.Itoa(min(10, int(-2*c.AnchorLP)))
		margin := "nomargin"
		if len(c.Reach) > 0 {
			_, sc := rankedReach(c.Reach, c.Scores, 2)
			switch {
			case sc[0] <= 0:
				margin = "margin0"
			case len(sc) == 1:
				margin = "margin-single"
			default:
				margin = "margin" + strconv.Itoa(min(4, int(5*(sc[0]-sc[1])/sc[0])))
			}
		}
		sub, sup := 0, 0
		if len(c.Reach) > 0 {
			for j := range cs {
				if j == i || len(cs[j].Reach) == 0 {
					continue
				}
				if isSubset(c.Reach, cs[j].Reach) {
					sub++
				}
				if isSubset(cs[j].Reach, c.Reach) {
					sup++
				}
			}
		}
		add("bias")
		add(paths)
		add("hops" + strconv.Itoa(hops))
		add(reach)
		add(tlp)
		add(alp)
		add("trank" + strconv.Itoa(min(9, trank[c.Template])))
		add("crank" + strconv.Itoa(min(9, c.Prior)))
		add(margin)
		add("sub" + strconv.Itoa(min(3, sub)))
		add("sup" + strconv.Itoa(min(3, sup)))
		if c.Err != nil {
			add("err")
		}
		rm := "unranked"
		if c.Plan.HasRankMarks() {
			rm = "ranked"
		}
		twin := "proposed"
		if c.Twin {
			twin = "twin"
		}
		add(rm, twin)
		attr := "noattr"
		if len(c.Plan.Attributes) > 0 {
			attr = "attr"
		}
		add(attr)
		add(attr, reach)
		add(attr, margin)
		// Whether the relations' names are words of the question.
		relw := "relw-none"
		switch m, n := RelationWordMatch(&c.Plan, linking.RestrictionText(text, ments, c.Mentions)); {
		case n == 0:
			relw = "relw-norel"
		case m == n:
			relw = "relw-all"
		case m > 0:
			relw = "relw-some"
		}
		add(relw)
		add(relw, paths)
		add(relw, tlp)
		if lifts != nil {
			rwl := "rwl" + strconv.Itoa(min(12, int(4*math.Log2(lifts[i]))))
			rwb := "rw-below"
			if lifts[i] >= bestLift {
				rwb = "rw-best"
			}
			add(rwl)
			add(rwb)
			add(rwb, paths)
			add(rwb, tlp)
		}
		if l := p.Cfg.Anchors.Lead; l != nil && len(c.Reach) > 0 {
			// How probable the type reached is after the question's lead
			// words (the type of its first node: a plan's reach has one).
			pr := l.Prob(LeadWords(text, ments, c.Mentions), p.skb.Schema.NodeTypes[p.ws.Graph.Type(c.Reach[0])])
			add("ltp" + strconv.Itoa(min(8, int(-math.Log2(pr)))))
		}
		if p.Cfg.Anchors.NamedTop && len(c.Reach) > 0 {
			nt := namedTop(p.Cfg.Anchors.Named, words, ments, c)
			add(nt)
			add(nt, paths)
		}
		fit := "fit-none"
		if best > 0 {
			fit = "fit" + strconv.Itoa(int(4*top[i]/best))
		}
		add(fit)
		add(paths, fit)
		add(rm, margin)
		add(rm, reach)
		add(paths, reach)
		add(paths, tlp)
		add(paths, margin)
		add(reach, margin)
		add(paths, "sub"+strconv.Itoa(min(3, sub)))
		add(tlp, alp)
		if p.Cfg.Anchors.Compose {
			p.composeFeatures(add, text, ments, c, paths)
		}
		out[i] = fs
	}
	return out
}

// isSubset reports whether sorted a ⊆ sorted b.
func isSubset(a, b []uint32) bool {
	if len(a) > len(b) {
		return false
	}
	j := 0
	for _, v := range a {
		for j < len(b) && b[j] < v {
			j++
		}
		if j == len(b) || b[j] != v {
			return false
		}
	}
	return true
}

// LeadTypes counts, over training questions, the node type of the answers
// after the question's lead words (its first two words, anchor mentions
// masked): "who ..." asks for a person. The plan ranker sees how probable
// the type a candidate reaches is after the question's lead words, which
// carries over to phrasings the training never showed better than the
// words themselves.
type LeadTypes struct {
	Pairs  map[string]map[string]int `json:"pairs"`  // "w1 w2" -> type -> questions
	Firsts map[string]map[string]int `json:"firsts"` // "w1" -> type -> questions
	Types  map[string]int            `json:"types"`  // type -> questions
}

// NewLeadTypes returns empty counts.
func NewLeadTypes() *LeadTypes {
	return &LeadTypes{Pairs: map[string]map[string]int{}, Firsts: map[string]map[string]int{}, Types: map[string]int{}}
}

// Add counts one question.
func (l *LeadTypes) Add(lead [2]string, typ string) {
	inc := func(m map[string]map[string]int, k string) {
		if m[k] == nil {
			m[k] = map[string]int{}
		}
		m[k][typ]++
	}
	inc(l.Pairs, lead[0]+" "+lead[1])
	inc(l.Firsts, lead[0])
	l.Types[typ]++
}

// Prob is the smoothed probability of typ after lead: the pair's counts
// backed off to the first word's, backed off to the type's share.
func (l *LeadTypes) Prob(lead [2]string, typ string) float64 {
	const alpha = 2
	total := 0
	for _, n := range l.Types {
		total += n
	}
	p := (float64(l.Types[typ]) + 1) / float64(total+len(l.Types)+1)
	for _, c := range []map[string]int{l.Firsts[lead[0]], l.Pairs[lead[0]+" "+lead[1]]} {
		n := 0
		for _, v := range c {
			n += v
		}
		p = (float64(c[typ]) + alpha*p) / (float64(n) + alpha)
	}
	return p
}

// LeadWords are the first two words of text, a run of words inside the
// mentions anchors counting as one word "<m>" ("<s>" past the end).
func LeadWords(text string, ments []linking.LinkedMention, anchors []int) [2]string {
	words := linking.MentionWords(text)
	lead := [2]string{"<s>", "<s>"}
	for wi, k := 0, 0; wi < len(words) && k < 2; wi++ {
		w := words[wi].Norm
		for _, mi := range anchors {
			if wi >= ments[mi].TokStart && wi < ments[mi].TokEnd {
				w = "<m>"
			}
		}
		if w == "<m>" && k > 0 && lead[k-1] == "<m>" {
			continue
		}
		lead[k] = w
		k++
	}
	return lead
}
