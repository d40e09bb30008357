package planner

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/data/index"
	"github.com/strata-retrieval/strata/data/lexicon"
	"github.com/strata-retrieval/strata/graphops/linking"
	gplan "github.com/strata-retrieval/strata/graphops/plan"
)

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
// the next candidate is executed. They are the candidates the plan ranker
// learns from: the classifier's, without JoinSingles' intersections or
// SlotsPastRuled's slots, which a prediction adds (a ranker trained on the
// intersections too lost 12 movies-skb development questions,
// docs/robustness.md, stops 118 and 119).
func (p *LinkingPlanner) Candidates(ctx context.Context, q data.Query) ([]PlanCandidate, []linking.LinkedMention, error) {
	return p.candidates(ctx, q, nil, 0, nil, false)
}

// candidates is Candidates; with more set, the templates tried are, besides
// the TopTemplates most probable, up to deepest of the others, the most
// probable first, with an anchoring of the question's mentions (chosen:
// one mention index per path; nodes, the nodes each may anchor) for which
// more holds; each such anchoring is a candidate. Mentions overlapping
// one of the spans read (the words read inside a mention: resolveRead)
// are not the question's, nor, with WrittenAnchors, those lying within a
// word read outside every mention. With served, the candidates a
// prediction adds to the classifier's own are tried too: JoinSingles'
// intersections and the slots SlotsPastRuled fills.
func (p *LinkingPlanner) candidates(ctx context.Context, q data.Query, more func(ti int, chosen []int, nodes [][]uint32) bool, deepest int, read []readSpan, served bool) ([]PlanCandidate, []linking.LinkedMention, error) {
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	x, _, err := p.Features(q)
	if err != nil {
		return nil, nil, err
	}
	probs := p.Probs(x)
	// The schema's steps (Config.SchemaSteps) come after every template
	// the classifier scores, at probability 0.
	if n := len(p.Cfg.Templates); len(probs) < n {
		probs = append(make([]float32, 0, n), probs...)[:n]
	}
	ments := p.findMentions(q.Text)
	if len(read) > 0 {
		written := p.Cfg.Anchors.WrittenAnchors
		ments = slices.DeleteFunc(ments, func(m linking.LinkedMention) bool {
			return slices.ContainsFunc(read, func(s readSpan) bool {
				return s.inMention && m.Start < s.end && s.start < m.End || written && s.start <= m.Start && m.End <= s.end
			})
		})
	}
	if len(ments) == 0 {
		return nil, ments, nil
	}
	words := linking.MentionWords(q.Text)
	// With FormSlots, a template slot whose TopMentions best mentions
	// are all ones the question's form rules out as anchors
	// (ruledOutAnchor, afterNonAnchor) also tries the best mention it
	// does not: "Go two levels down from sarcoma in the taxonomy" spent
	// the 3 slots of the two-level template on "two", "down" and
	// "taxonomy", all ruled out, and never tried sarcoma. With
	// SlotsPastRuled (served), a ruled-out mention takes no place among
	// a slot's TopMentions at all: "Moving down from sarcoma through the
	// kind-of links twice" spent them on "down", "links" and the ruled-out
	// "kind", and sarcoma came fourth.
	var formOut []bool
	if p.Cfg.Anchors.FormSlots {
		formOut = make([]bool, len(ments))
		for i := range ments {
			formOut[i] = p.ruledOutAnchor(q.Text, &ments[i]) || p.afterNonAnchor(q.Text, words, &ments[i])
		}
	}
	// A mention in a quoted passage (FormInPassage), where the training
	// never anchored, takes no template's first slot: a gloss's many
	// words would fill the slots the question's own name needs ("To
	// interact in a specific way, "... interact with others"": the first
	// "interact"). A later slot may take one (anchoredInForm).
	var inPassageOut []bool
	if slices.Contains(p.Cfg.Anchors.NonAnchorForms, FormInPassage) {
		inPassageOut = make([]bool, len(ments))
		for i := range ments {
			inPassageOut[i] = inPassage(q.Text, &ments[i])
		}
	}
	order := make([]int, len(probs))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(probs[b], probs[a]) })
	topT := cmp.Or(p.Cfg.Anchors.TopTemplates, defaultTopTemplates)
	topM := cmp.Or(p.Cfg.Anchors.TopMentions, defaultTopMentions)
	if more != nil && p.Cfg.Anchors.NamedFirst && len(order) > topT {
		p.namedFirst(q.Text, read, order[topT:], probs)
	}
	type combo struct {
		ti     int
		ments  []int
		nodes  [][]uint32
		lp, ap float64
		deep   bool
		joined bool // JoinSingles
	}
	var combos []combo
	deeper := 0
	for k, ti := range order {
		if k >= topT && (more == nil || deeper == deepest) {
			break
		}
		// Scoring a template's slots reads every mention against every
		// other: a request that has timed out stops before the next one.
		if err := ctx.Err(); err != nil {
			return nil, nil, err
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
				if len(nd[pi][mi]) > 0 && (inPassageOut == nil || pi > 0 || !inPassageOut[mi]) {
					cand = append(cand, mi)
				}
			}
			slices.SortStableFunc(cand, func(a, b int) int { return cmp.Compare(sc[pi][b], sc[pi][a]) })
			slots[pi] = cand[:min(topM, len(cand))]
			if formOut != nil && served && p.Cfg.Anchors.SlotsPastRuled {
				n, open := 0, 0
				for ; n < len(cand) && open < topM; n++ {
					if !formOut[cand[n]] {
						open++
					}
				}
				slots[pi] = cand[:n]
			}
			if formOut != nil && !slices.ContainsFunc(slots[pi], func(mi int) bool { return !formOut[mi] }) {
				if k := slices.IndexFunc(cand, func(mi int) bool { return !formOut[mi] }); k >= 0 {
					slots[pi] = append(slots[pi], cand[k])
				}
			}
		}
		// Every assignment of distinct, non-overlapping mentions.
		var rec func(pi int, chosen []int, score float64)
		rec = func(pi int, chosen []int, score float64) {
			if pi == len(tmpl) {
				c := combo{ti: ti, ments: slices.Clone(chosen), lp: lp, ap: score, deep: deep}
				for j, mi := range chosen {
					c.nodes = append(c.nodes, nd[j][mi])
				}
				if deep && !more(ti, chosen, c.nodes) {
					return
				}
				// A deeper search spends its templates on anchorings
				// whose first steps the anchors' types may take
				// (DeeperAsked: "Who wrote the script of X?", a film,
				// tries no template that starts from a writer).
				if deep && p.Cfg.Anchors.DeeperAsked && !p.startsFrom(tmpl, c.nodes) {
					return
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
	// With JoinSingles, two one-path anchorings on mentions apart from
	// each other give the two-path template of both paths, if any.
	if served && p.Cfg.Anchors.JoinSingles && p.joins != nil {
		n := len(combos)
		have := map[string]bool{}
		for _, c := range combos {
			have[fmt.Sprint(c.ti, c.ments)] = true
		}
		for i := 0; i < n; i++ {
			a := combos[i]
			if a.deep || p.single[a.ti] == "" {
				continue
			}
			for j := 0; j < n; j++ {
				b := combos[j]
				if j == i || b.deep || p.single[b.ti] == "" || ments[a.ments[0]].TokStart < ments[b.ments[0]].TokEnd && ments[b.ments[0]].TokStart < ments[a.ments[0]].TokEnd {
					continue
				}
				for _, ti := range p.joins[[2]string{p.single[a.ti], p.single[b.ti]}] {
					c := combo{ti: ti, ments: []int{a.ments[0], b.ments[0]}, nodes: [][]uint32{a.nodes[0], b.nodes[0]}, lp: math.Log(math.Max(float64(probs[ti]), 1e-30)), ap: a.ap + b.ap, joined: true}
					if k := fmt.Sprint(c.ti, c.ments); !have[k] {
						have[k] = true
						combos = append(combos, c)
					}
				}
			}
		}
	}
	slices.SortStableFunc(combos, func(a, b combo) int { return cmp.Compare(b.lp+b.ap, a.lp+a.ap) })
	// The 4·TopTemplates most probable anchorings, and every one the
	// deeper search or JoinSingles asked for.
	kept := 0
	combos = slices.DeleteFunc(combos, func(c combo) bool {
		if c.deep || c.joined {
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
			path = path.Clone()
			if path.Anchor() == data.AnyType {
				// The anchors' type when they agree.
				t := p.ws.Graph.Type(c.nodes[pi][0])
				same := true
				for _, v := range c.nodes[pi] {
					same = same && p.ws.Graph.Type(v) == t
				}
				if same {
					path.Nodes[0].Type = p.skb.Schema.NodeTypes[t]
				}
			}
			plan.Paths = append(plan.Paths, path)
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

// namedFirst orders the templates a deeper search may try (order, most
// probable first) so that, among templates as probable as each other, the
// ones that walk fewer relations no word of text names (namedRelations,
// the words read as read says) come first (NamedFirst). The classifier
// gives every schema step and path the same probability, 0, and their
// order was the schema's: "Which films share a screenwriter with X?"
// spent the two templates a deeper search tries on a director and a
// writer before it came to the film's writers' other films.
func (p *LinkingPlanner) namedFirst(text string, read []readSpan, order []int, probs []float32) {
	named := p.namedRelations(text, readWords(text, read))
	unnamed := make(map[int]int, len(order))
	for _, ti := range order {
		for _, r := range PlanRelations(&data.Plan{Paths: p.Cfg.Templates[ti]}) {
			if !slices.ContainsFunc(named, func(rels []string) bool { return slices.Contains(rels, r) }) {
				unnamed[ti]++
			}
		}
	}
	slices.SortStableFunc(order, func(a, b int) int {
		return cmp.Or(cmp.Compare(probs[b], probs[a]), cmp.Compare(unnamed[a], unnamed[b]))
	})
}

// schemaPath reports whether template ti is one of the schema's two-step
// templates (Config.SchemaSteps of two hops), which no training plan is.
func (p *LinkingPlanner) schemaPath(ti int) bool {
	t := p.Cfg.Templates[ti]
	return ti >= p.Cfg.Classified() && len(t) == 1 && t[0].Hops() == 2
}

// candidateKey identifies a candidate's plan: its paths, anchor mentions
// and attributes.
func candidateKey(c *PlanCandidate) string {
	return fmt.Sprint(c.Plan.Template(), c.Mentions, c.Plan.Attributes)
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
	if p.Cfg.Anchors.ReturnedAnchors && onlyReturned(pc.Plan, pc.Reach) {
		pc.Reach, pc.Scores = nil, nil
	}
	return pc
}

// onlyReturned reports whether every node of reach (at least one) is an
// anchor plan walks straight back to (plan.Returned).
func onlyReturned(p data.Plan, reach []uint32) bool {
	back := gplan.Returned(p)
	return len(back) > 0 && len(reach) > 0 && !slices.ContainsFunc(reach, func(v uint32) bool { return !slices.Contains(back, v) })
}

// ReturnedCounts counts the training questions whose mined plans (plans)
// walk straight back to their anchors (plan.Returned), and of those the
// ones with an answer (answers, the gold answers) that is none of those
// anchors. The rest are answered by the anchors alone: the miner anchored
// on a node the question names as its answer ("Which sense of the word
// 'digit' is a kind of integer?" walked from the sense named digit up to
// integer and back), which the named answers put first in a plan of the
// question's own (NamedTop).
func ReturnedCounts(plans []*data.Plan, answers [][]uint32) (int, int) {
	n, beyond := 0, 0
	for i, p := range plans {
		back := gplan.Returned(*p)
		if len(back) == 0 {
			continue
		}
		n++
		if slices.ContainsFunc(answers[i], func(v uint32) bool { return !slices.Contains(back, v) }) {
			beyond++
		}
	}
	return n, beyond
}

// executed is the candidate's scored reach as carried with its query: nil
// when it reaches nothing or its plan failed part-way (a partial reach
// is not the plan's; plan-exec executes such a plan itself
// and falls back). An anchor a path walks straight back to ranks below
// every other node (plan.ReturnedLast), as plan-exec ranks the plan; the
// candidates are compared on their reach as the restriction scores it.
func (c *PlanCandidate) executed() *data.PlanReach {
	if len(c.Reach) == 0 || c.Err != nil {
		return nil
	}
	scores := c.Scores
	if len(gplan.Returned(c.Plan)) > 0 && scores != nil {
		scores = slices.Clone(scores)
		gplan.ReturnedLast(c.Plan, c.Reach, scores)
	}
	return &data.PlanReach{Nodes: c.Reach, Scores: scores}
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

// findMentions is the mention index's Find on text, without the
// mentions that are a request's addressee (Addressee, addressees), nor
// one that is the opening request's verb and its addressee in lower case
// ("Show me more films ...", not the film Show Me; "Remember Me is
// classified under which categories" keeps the film Remember Me).
func (p *LinkingPlanner) findMentions(text string) []linking.LinkedMention {
	ms := p.ments.Find(text)
	if p.Cfg.Anchors.MarkedMentions && strings.ContainsAny(text, spanMarks) {
		ms = slices.DeleteFunc(ms, func(m linking.LinkedMention) bool { return p.markedMention(&m) })
	}
	if p.Cfg.Anchors.PronounVerbs {
		if at := pronounVerbs(text); len(at) > 0 {
			ms = slices.DeleteFunc(ms, func(m linking.LinkedMention) bool { return oneWordAt(&m, at) })
		}
	}
	// The question's words and quotations are found once, and only where a
	// mention the verb rules look at is there.
	a, lex := p.Cfg.Anchors, p.names.lex
	verbs := lex != nil && (a.PhrasalVerbs || a.FiniteVerbs)
	if (verbs || a.PersonPronouns || a.PersonalPronouns) && slices.ContainsFunc(ms, func(m linking.LinkedMention) bool {
		n := m.TokEnd - m.TokStart
		return verbs && (a.PhrasalVerbs && n == 2 || a.FiniteVerbs && n == 1) || a.PersonPronouns && n == 1 && personPronouns[strings.ToLower(m.Text)] ||
			a.PersonalPronouns && n == 1 && personalPronouns[m.Text]
	}) {
		words, quoted := linking.MentionWords(text), quotedSpans(text, false)
		ms = slices.DeleteFunc(ms, func(m linking.LinkedMention) bool {
			return verbs && (a.PhrasalVerbs && phrasalVerb(lex, text, words, quoted, &m) || a.FiniteVerbs && (finiteVerb(lex, text, words, quoted, &m) || a.WhSubjects && whSubjectVerb(lex, text, words, quoted, &m, a.WhPrepositions))) ||
				a.PersonPronouns && personPronoun(text, words, quoted, &m) ||
				a.PersonalPronouns && personalPronoun(text, quoted, &m)
		})
	}
	if !p.Cfg.Anchors.Addressee {
		return ms
	}
	if at := addressees(text); len(at) > 0 {
		ms = slices.DeleteFunc(ms, func(m linking.LinkedMention) bool {
			return oneWordAt(&m, at) ||
				m.TokStart == 0 && m.TokEnd == 2 && slices.Contains(at, 1) && lowerAt(text, 1)
		})
	}
	return ms
}

// oneWordAt reports whether mention m is one word, at one of the word
// positions at.
func oneWordAt(m *linking.LinkedMention, at []int) bool {
	return m.TokEnd == m.TokStart+1 && slices.Contains(at, m.TokStart)
}

// addressees returns the word positions (of linking.MentionWords) of
// the pronouns "me" and "us" that follow a verb's base form the lexicon
// knows ("Tell me ...", "can you give us ..."): the one a request is
// made to, never a node, though the lexicon of names may hold one
// ("ME", Maine; "US"). A pronoun written all in capitals is not one
// ("tour US cities").
func addressees(text string) []int {
	words := linking.MentionWords(text)
	var at []int
	for i := 1; i < len(words); i++ {
		raw := text[words[i].Start:words[i].End]
		if w := strings.ToLower(raw); (w != "me" && w != "us") || raw == strings.ToUpper(raw) {
			continue
		}
		lex, err := lexicon.WordNet()
		if err != nil {
			return nil
		}
		if lex.IsVerb(strings.ToLower(text[words[i-1].Start:words[i-1].End])) {
			at = append(at, i)
		}
	}
	return at
}

// subjectPronouns are the personal pronouns that stand as a clause's
// subject; modals, with the do- and have-auxiliaries (doHave), the words
// that put one before its verb in a question ("would you hear", "do we
// call", "have they seen").
var (
	subjectPronouns = map[string]bool{"you": true, "we": true, "they": true, "i": true, "he": true, "she": true}
	modals          = map[string]bool{"would": true, "could": true, "can": true, "will": true, "should": true, "might": true, "may": true, "must": true, "shall": true}
)

// pronounVerbs returns the word positions (of linking.MentionWords) of
// the words in lower case, verbs' forms the lexicon knows, right after
// an auxiliary and a personal subject pronoun: the clause's verb, never a
// node's name, though WordNet's verbs are nodes ("Which pedlar would you
// hear mainly in Britain?"; AnchorConfig.PronounVerbs).
func pronounVerbs(text string) []int {
	words := linking.MentionWords(text)
	var at []int
	for i := 2; i < len(words); i++ {
		raw := text[words[i].Start:words[i].End]
		w := strings.ToLower(raw)
		aux := strings.ToLower(text[words[i-2].Start:words[i-2].End])
		if raw != w || !subjectPronouns[strings.ToLower(text[words[i-1].Start:words[i-1].End])] || !modals[aux] && !doHave[aux] {
			continue
		}
		lex, err := lexicon.WordNet()
		if err != nil {
			return nil
		}
		if lex.IsVerbForm(w) {
			at = append(at, i)
		}
	}
	return at
}

// phrasalVerb reports whether mention m of text (words and quoted, its
// words and quotations, found once for all its mentions) is a phrasal
// verb used as the clause's own verb (AnchorConfig.PhrasalVerbs): two
// words, the second a particle or preposition in lower case after a
// space, outside quotations, the first a verb in its -s form in lower
// case ("turns up": a verb's name is its base form; a participle may name
// an adjective, "made up", a gerund a noun, "looking at") or the text's
// first word, a verb's base form (an imperative: "Go down two levels from
// X"). A title keeps its capitals ("Step Up"), a quoted verb is named
// ("'go past'"), a hyphened compound is a name ("step-down").
func phrasalVerb(lex *lexicon.Lexicon, text string, words []linking.Word, quoted [][2]int, m *linking.LinkedMention) bool {
	if m.TokEnd-m.TokStart != 2 || m.TokEnd > len(words) {
		return false
	}
	verb, part := text[words[m.TokStart].Start:words[m.TokStart].End], text[words[m.TokStart+1].Start:words[m.TokStart+1].End]
	if p := strings.ToLower(part); p != part || !particles[p] && !directions[p] && !prepositions[p] {
		return false
	}
	if strings.TrimSpace(text[words[m.TokStart].End:words[m.TokStart+1].Start]) != "" || inQuotation(quoted, m) {
		return false
	}
	w := strings.ToLower(verb)
	if m.TokStart == 0 {
		return lex.IsVerb(w)
	}
	return w == verb && strings.HasSuffix(w, "s") && lex.IsVerbForm(w) && !lex.IsVerb(w)
}

// spanMarks are the marks that end a clause or open or close a quotation
// (MarkedMentions): a full stop is left out, as it ends an initial too
// ("Cecil B. DeMille").
const spanMarks = ";:?!\"“”"

// markedMention reports whether mention m spans one of spanMarks that
// the name of none of its nodes holds (AnchorConfig.MarkedMentions): the
// words either side of "; " or of a quotation's edge belong to different
// phrases ("Each kind of X has parts; name them." is no mention of
// WordNet's "part name"), while "Mission: Impossible" names the film whose
// name holds the colon.
func (p *LinkingPlanner) markedMention(m *linking.LinkedMention) bool {
	for _, r := range m.Text {
		if !strings.ContainsRune(spanMarks, r) {
			continue
		}
		if !slices.ContainsFunc(m.Nodes, func(n linking.FormNode) bool { return strings.ContainsRune(p.skb.Nodes[n.Node].Name, r) }) {
			return true
		}
	}
	return false
}

// personPronoun reports whether mention m of text (words and quoted, its
// words and quotations) is one word of personPronouns, in lower case or
// opening the text, not right after a preposition, that no quotation is
// made of alone (AnchorConfig.PersonPronouns): "I heard someone say ...",
// "Somebody glossed a sort of X as ...", "Ask someone who works in X ..."
// speak of a person and name no node, though WordNet names a person
// "someone". After a preposition the word stands as a noun may ("a kind of
// someone", WordNet's questions naming the synset), and "'someone' means
// what?" names the word.
func personPronoun(text string, words []linking.Word, quoted [][2]int, m *linking.LinkedMention) bool {
	if m.TokEnd-m.TokStart != 1 || m.TokStart >= len(words) {
		return false
	}
	w := strings.ToLower(m.Text)
	if !personPronouns[w] || m.Text != w && m.TokStart != 0 {
		return false
	}
	if p, spaced := spacedWordBefore(text, words, m); spaced && preposition(p) {
		return false
	}
	return !slices.ContainsFunc(quoted, func(q [2]int) bool { return strings.TrimFunc(text[q[0]:q[1]], isQuote) == m.Text })
}

// personalPronouns are English's personal and possessive pronouns, in
// lower case: a title may be one ("Her", "Them!", "They"), and in lower
// case a word of a question is the pronoun ("their directors, all of
// them?").
var personalPronouns = map[string]bool{"i": true, "me": true, "my": true, "we": true, "us": true, "our": true, "you": true, "your": true, "he": true, "him": true, "his": true, "she": true, "her": true, "it": true, "its": true, "they": true, "them": true, "their": true}

// personalPronoun reports whether mention m of text (quoted, its
// quotations) is one of personalPronouns, written in lower case, and no
// quotation is made of it alone (AnchorConfig.PersonalPronouns): a
// pronoun refers to something the question says or asks for, and names
// nothing itself ("Pictures with X acting: their directors, all of
// them?" anchored on the film Them!). A quoted one is named ("Resolve
// \"he\" to the chemical element").
func personalPronoun(text string, quoted [][2]int, m *linking.LinkedMention) bool {
	if m.TokEnd-m.TokStart != 1 || !personalPronouns[m.Text] {
		return false
	}
	return !slices.ContainsFunc(quoted, func(q [2]int) bool { return strings.TrimFunc(text[q[0]:q[1]], isQuote) == m.Text })
}

// finiteVerb reports whether mention m of text (words and quoted, its
// words and quotations, found once for all its mentions) is the finite
// verb of its clause (AnchorConfig.FiniteVerbs): one word in lower case,
// outside quotations and not the text's first, that is a verb's -s form
// the lexicon knows as no noun's plural ("Go two generations down from X;
// what sits there?", "'unison' appears in the definition of ...": a
// verb's name is its base form), or a verb's base form right after a
// plural noun, with only a space between (its subject: "Which nouns sit
// two links under X?", "What pieces make up ...", "My notes say ...").
// A word in capitals may be a title, a quoted one is named.
func finiteVerb(lex *lexicon.Lexicon, text string, words []linking.Word, quoted [][2]int, m *linking.LinkedMention) bool {
	if m.TokEnd-m.TokStart != 1 || m.TokStart == 0 || m.TokStart >= len(words) {
		return false
	}
	w := text[m.Start:m.End]
	if w != strings.ToLower(w) || !alphabetic(w) || inQuotation(quoted, m) {
		return false
	}
	if strings.HasSuffix(w, "s") && lex.IsVerbForm(w) && !lex.IsVerb(w) && !lex.IsNoun(w) {
		return true
	}
	subj, spaced := spacedWordBefore(text, words, m)
	if !spaced || !alphabetic(subj) || isStopword(subj) || !lex.IsVerb(w) {
		return false
	}
	return strings.HasSuffix(subj, "s") && lex.IsNoun(subj) && !lex.IsNounLemma(subj)
}

// whSubjects are the question words that stand as their clause's
// subject right before its verb (whSubjectVerb); "which" opens a noun
// phrase as often ("which results?").
var whSubjects = map[string]bool{"what": true, "who": true}

// whSubjectVerb reports whether mention m of text (words and quoted, its
// words and quotations) is a verb whose subject is the question word
// right before it (AnchorConfig.WhSubjects): one word in lower case,
// outside quotations, a verb's -s form (not its base form) that the
// lexicon may read as a noun's plural too, right after one of whSubjects
// with only a space between, and closing its clause (a mark of
// elidedMarks or the text's end after it): "...: what results?", "who
// remains?". A noun there would leave the clause without a verb; "what
// results did X get" goes on. With places (WhPrepositions) a verb
// followed by one of placePrepositions is one too: "What falls under X
// and is defined as ...?" (a noun after "what" is followed by its verb or
// by "of": "what parts of X").
func whSubjectVerb(lex *lexicon.Lexicon, text string, words []linking.Word, quoted [][2]int, m *linking.LinkedMention, places bool) bool {
	if m.TokEnd-m.TokStart != 1 || m.TokStart == 0 || m.TokStart >= len(words) {
		return false
	}
	w := text[m.Start:m.End]
	if w != strings.ToLower(w) || !alphabetic(w) || !strings.HasSuffix(w, "s") || inQuotation(quoted, m) || !lex.IsVerbForm(w) || lex.IsVerb(w) {
		return false
	}
	if subj, spaced := spacedWordBefore(text, words, m); !spaced || !whSubjects[subj] {
		return false
	}
	rest := strings.TrimLeft(text[m.End:], " ")
	if rest == "" {
		return true
	}
	// With places, a preposition of place after a space.
	if next := m.TokEnd; places && next < len(words) && rest != text[m.End:] && words[next].Start == len(text)-len(rest) && placePrepositions[strings.ToLower(text[words[next].Start:words[next].End])] {
		return true
	}
	// A hyphen right after the word joins a compound ("what results-based
	// ..."); one after a space sets a clause apart.
	r, _ := utf8.DecodeRuneInString(rest)
	return strings.ContainsRune(elidedMarks, r) && !(r == '-' && len(rest) == len(text[m.End:]))
}

// placePrepositions are English's prepositions of place and order, which
// a verb of position takes ("what falls under X", "what sits beneath X",
// "what comes after X") and a noun right after "what" does not.
var placePrepositions = map[string]bool{"under": true, "beneath": true, "below": true, "underneath": true, "above": true, "over": true, "after": true, "before": true, "within": true, "inside": true, "beyond": true, "behind": true}

// inQuotation reports whether mention m overlaps one of the quotations
// quoted.
func inQuotation(quoted [][2]int, m *linking.LinkedMention) bool {
	return slices.ContainsFunc(quoted, func(q [2]int) bool { return q[0] < m.End && m.Start < q[1] })
}

// spacedWordBefore is wordBefore where only spaces stand between the
// word and mention m; "", false otherwise.
func spacedWordBefore(text string, words []linking.Word, m *linking.LinkedMention) (string, bool) {
	w, ok := wordBefore(text, words, m)
	if !ok || strings.TrimSpace(text[words[m.TokStart-1].End:m.Start]) != "" {
		return "", false
	}
	return w, true
}

// lowerAt reports whether word i of text (linking.MentionWords) is
// written in lower case throughout.
func lowerAt(text string, i int) bool {
	words := linking.MentionWords(text)
	if i < 0 || i >= len(words) {
		return false
	}
	w := text[words[i].Start:words[i].End]
	return w == strings.ToLower(w)
}
