package planner

import (
	"hash/fnv"
	"math"
	"strconv"

	"github.com/strata-retrieval/strata/graphops/linking"
)

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
		for _, path := range c.Plan.Paths {
			hops += path.Hops()
		}
		paths := "paths" + strconv.Itoa(len(c.Plan.Paths))
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
