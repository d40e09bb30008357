package planner

import (
	"slices"
	"strconv"

	"github.com/strata-retrieval/strata/graphops/linking"
	gplan "github.com/strata-retrieval/strata/graphops/plan"
)

// NamedAnswers learns, from the training questions' answers, whether a
// question asks for a node it names itself. A mention the plan leaves in
// its restriction can link to nodes of the plan's reach: "which sense of
// the word 'root' is a kind of plant organ" asks for one of them, and the
// restriction's BM25 may still put another node of the reach first (its
// text holds more of the question's other words).
//
// The counts are kept by the mention's context words: the word before it,
// the two and the three before it, and the three before with the one
// after ("<s>" past the text's ends, "<m>" for a word of an anchor
// mention), each level smoothed towards the one before it, the first
// towards the share over all mentions (as LeadTypes). They are learned
// from the candidates that planners trained on the other folds try on the
// training questions (the plans the planner chooses among, wrong ones
// included). ScoreCandidates puts a reached node named by a restriction
// mention above the others when that probability is at least
// NamedPromote, and leaves the restriction's order otherwise.
//
// It never moves a named node down. Demoting one at a probability of
// 0.25 or less fixed questions whose plan leaves a second anchor in the
// restriction ("which gempylid is a member of family Gempylidae" ranks
// the node "gempylid" first) but broke as many whose quoted definition
// names the answer itself: WordNet test 0.9642 / 0.9567 / 0.9500 with
// it, 0.9633 / 0.9550 / 0.9583 without (seeds 1 / 2 / 4).
type NamedAnswers struct {
	// Counts: context key -> [mentions whose reached nodes hold an
	// answer, mentions whose reached nodes hold none].
	Counts map[string][2]int `json:"counts"`
}

// NamedPromote is the probability (NamedAnswers.Prob) from which a named
// node goes first.
const NamedPromote = 0.75

// NewNamedAnswers returns empty counts.
func NewNamedAnswers() *NamedAnswers { return &NamedAnswers{Counts: map[string][2]int{}} }

// Add counts one mention of a training question: keys from NamedKeys,
// answer whether a node it names (of the plan's reach) is an answer.
func (n *NamedAnswers) Add(keys []string, answer bool) {
	for _, k := range append([]string{""}, keys...) {
		c := n.Counts[k]
		if answer {
			c[0]++
		} else {
			c[1]++
		}
		n.Counts[k] = c
	}
}

// Prob is the smoothed probability that a mention with these context keys
// names an answer.
func (n *NamedAnswers) Prob(keys []string) float64 {
	const alpha = 2
	all := n.Counts[""]
	p := (float64(all[0]) + 1) / float64(all[0]+all[1]+2)
	for _, k := range keys {
		c := n.Counts[k]
		p = (float64(c[0]) + alpha*p) / float64(c[0]+c[1]+alpha)
	}
	return p
}

// NamedKeys are the context keys of mention mi of text, most general
// first; words of the anchors' mentions read "<m>".
func NamedKeys(words []linking.Word, ments []linking.LinkedMention, anchors []int, mi int) []string {
	word := func(i int) string {
		if i < 0 || i >= len(words) {
			return "<s>"
		}
		for _, a := range anchors {
			if i >= ments[a].TokStart && i < ments[a].TokEnd {
				return "<m>"
			}
		}
		return words[i].Norm
	}
	m := ments[mi]
	l1, l2, l3 := word(m.TokStart-1), word(m.TokStart-2), word(m.TokStart-3)
	r1 := word(m.TokEnd)
	return []string{"l1 " + l1, "l2 " + l2 + " " + l1, "l3 " + l3 + " " + l2 + " " + l1, "l3r1 " + l3 + " " + l2 + " " + l1 + " | " + r1}
}

// restrictionMentions are the mentions a plan anchored on anchors leaves
// in its restriction: the others, less those that overlap an anchor's.
func restrictionMentions(ments []linking.LinkedMention, anchors []int) []int {
	var out []int
	for mi, m := range ments {
		free := true
		for _, a := range anchors {
			if m.TokStart < ments[a].TokEnd && ments[a].TokStart < m.TokEnd {
				free = false
				break
			}
		}
		if free {
			out = append(out, mi)
		}
	}
	return out
}

// namedIn returns, for each node of reach that a restriction mention
// names, the longest such mention (the most specific).
func namedIn(reach []uint32, ments []linking.LinkedMention, anchors []int) map[uint32]int {
	in := make(map[uint32]bool, len(reach))
	for _, v := range reach {
		in[v] = true
	}
	out := map[uint32]int{}
	for _, mi := range restrictionMentions(ments, anchors) {
		m := &ments[mi]
		for _, n := range m.Nodes {
			if !in[n.Node] {
				continue
			}
			if prev, ok := out[n.Node]; !ok || m.TokEnd-m.TokStart > ments[prev].TokEnd-ments[prev].TokStart {
				out[n.Node] = mi
			}
		}
	}
	return out
}

// NamedExample is one training mention: its context keys and whether
// the nodes of the plan's reach it names hold an answer.
type NamedExample struct {
	Keys   []string
	Answer bool
}

// NamedExamples are the training mentions of a question whose plan,
// anchored on the mentions anchors, reaches reach: the restriction
// mentions that name a node of it.
func NamedExamples(text string, ments []linking.LinkedMention, anchors []int, reach, answers []uint32) []NamedExample {
	named := namedIn(reach, ments, anchors)
	if len(named) == 0 {
		return nil
	}
	gold := make(map[uint32]bool, len(answers))
	for _, a := range answers {
		gold[a] = true
	}
	hit := map[int]bool{}
	for v, mi := range named {
		hit[mi] = hit[mi] || gold[v]
	}
	words := linking.MentionWords(text)
	var out []NamedExample
	for mi := range ments { // in mention order: reproducible
		if h, ok := hit[mi]; ok {
			out = append(out, NamedExample{Keys: NamedKeys(words, ments, anchors, mi), Answer: h})
		}
	}
	return out
}

// adjustNamed puts first the reached nodes that a restriction mention
// names when the mention's context says the question asks for them
// (NamedAnswers): the plan lists them (data.Plan.Named), so that whoever
// executes it again ranks it as the planner did.
func (p *LinkingPlanner) adjustNamed(text string, ments []linking.LinkedMention, c *PlanCandidate) {
	na := p.Cfg.Anchors.Named
	if na == nil || len(c.Reach) == 0 {
		return
	}
	named := namedIn(c.Reach, ments, c.Mentions)
	if len(named) == 0 {
		return
	}
	words := linking.MentionWords(text)
	probs := map[int]float64{}
	var first []uint32
	for _, v := range c.Reach {
		mi, ok := named[v]
		if !ok {
			continue
		}
		pr, ok := probs[mi]
		if !ok {
			pr = na.Prob(NamedKeys(words, ments, c.Mentions, mi))
			probs[mi] = pr
		}
		if pr >= NamedPromote {
			first = append(first, v)
		}
	}
	if len(first) > 0 {
		slices.Sort(first)
		c.Plan.Named = first
		gplan.NamedFirst(c.Reach, c.Scores, first)
	}
}

// namedTop is the plan ranker's feature of whether candidate c's first
// node (by its scores) is one that a mention left in its restriction
// names, with how probable na makes it that the question asks for it (in
// quarters; "nomodel" without na).
func namedTop(na *NamedAnswers, words []linking.Word, ments []linking.LinkedMention, c *PlanCandidate) string {
	top := 0
	for j := range c.Reach {
		if c.Scores != nil && (c.Scores[j] > c.Scores[top] || c.Scores[j] == c.Scores[top] && c.Reach[j] < c.Reach[top]) {
			top = j
		}
	}
	mi, ok := namedIn(c.Reach[top:top+1], ments, c.Mentions)[c.Reach[top]]
	if !ok {
		return "top-unnamed"
	}
	if na == nil {
		return "top-named-nomodel"
	}
	return "top-named" + strconv.Itoa(min(3, int(4*na.Prob(NamedKeys(words, ments, c.Mentions, mi)))))
}
