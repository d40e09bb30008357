package planner

import (
	"cmp"
	"slices"
	"strings"
	"unicode"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/data/index"
	"github.com/strata-retrieval/strata/graphops/linking"
)

// English says how an anchor is related next to it: "the films X wrote",
// "movies directed by X", "pictures starring X", "X is starring in". The
// classifier and the ranker read a question's relation words as a bag, so
// "Who appears in the films X wrote?" may walk X's films as an actor and
// then their writers: both relations named, in the wrong order, because X
// acted more than he wrote. Anchor words tie the word next to an anchor to
// the first step of the path from it, learned from the training plans and
// nothing else; the lexicon has already read a word no training question
// used as one that did ("penned" as "wrote", lexwords.go).

// Anchor words are learned from at least minAnchorWordQuestions training
// anchors; the steps the word allows start anchorWordCover of their paths
// (the most frequent steps first).
const (
	minAnchorWordQuestions = 5
	anchorWordCover        = 0.98
	// anchorWordReach: how many words away from the anchor the nearest
	// word that is no stop word may be ("X is starring", "directed by X").
	anchorWordReach = 2
)

// firstSteps are the steps (one direction each, RelStep.String) that start
// path, each once, sorted: how the anchor is related to the nodes it
// reaches first.
func firstSteps(path *data.Path) []string {
	if len(path.Steps) == 0 {
		return nil
	}
	var out []string
	for _, r := range path.Steps[0].Rels {
		if s := r.String(); !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	slices.Sort(out)
	return out
}

// anchorWords are the keys of the words next to mention m of text: "b:"
// and the nearest word before it, "a:" and the nearest after it, each the
// nearest that is no stop word within anchorWordReach words, alphabetic,
// unquoted, with nothing but spaces between it and the mention ("X,
// directed" has a comma), in its singular form (linking.Word.Norm: "the
// various types of X" as "the kinds of X" is read, "b:type"); none where
// the nearest such word is farther or punctuation comes first, and, with
// clauses, where a relative word comes first (relativeWords: "X's script
// that Y acted in", where "script" says nothing of how Y is related).
func anchorWords(text string, words []linking.Word, quoted [][2]int, m *linking.LinkedMention, clauses bool) []string {
	var out []string
	look := func(key string, from, step int) {
		edge := m.Start
		if step > 0 {
			edge = m.End
		}
		for k, i := 0, from; k < anchorWordReach && i >= 0 && i < len(words); k, i = k+1, i+step {
			w := words[i]
			var gap string
			if step > 0 {
				gap = text[edge:w.Start]
			} else {
				gap = text[w.End:edge]
			}
			if strings.TrimFunc(gap, unicode.IsSpace) != "" {
				return
			}
			if slices.ContainsFunc(quoted, func(q [2]int) bool { return w.Start >= q[0] && w.Start < q[1] }) {
				return
			}
			n := strings.ToLower(text[w.Start:w.End])
			if !alphabetic(n) {
				return
			}
			if !index.IsStopword(n) {
				out = append(out, key+w.Norm)
				return
			}
			if clauses && relativeWords[n] {
				return
			}
			if step > 0 {
				edge = w.End
			} else {
				edge = w.Start
			}
		}
	}
	look("b:", m.TokStart-1, -1)
	look("a:", m.TokEnd, 1)
	return out
}

// relativeWords open a relative clause: a word on the clause's other side
// says nothing of a mention's relation (anchorWords with clauses;
// AnchorConfig.ClauseBounds).
var relativeWords = map[string]bool{"that": true, "which": true, "who": true, "whom": true, "whose": true}

// LearnAnchorWords returns the anchor words of the training questions
// (their texts, mentions, the mentions their plans anchor and their
// plans), each with the steps it allows, sorted: the words next to an
// anchor (anchorWords) at at least minAnchorWordQuestions anchors, with the
// steps that start anchorWordCover of those anchors' paths, the most
// frequent first, where the word names the most frequent step's relation
// by the training questions' counts (rw: the plans of minRelWordShare of
// the minRelWordQuestions or more questions with the word walk it):
// "wrote" allows <-written_by, "type" <-hypernym and <-instance hypernym
// (WordNet types its proper nouns' senses as instances); "which" and
// "films", which stand next to a genre's anchor in "Which comedy films
// ...", name no relation. Nil when none is, or without rw.
func LearnAnchorWords(texts []string, ments [][]linking.LinkedMention, anchors [][]int, plans []*data.Plan, rw *RelWords, clauses bool) map[string][]string {
	if rw == nil {
		return nil
	}
	n := map[string]int{}
	steps := map[string]map[string]int{}
	rel := map[string]string{} // a step -> its relation
	for qi, text := range texts {
		words := linking.MentionWords(text)
		quoted := quotedSpans(text, false)
		for pi, a := range anchors[qi] {
			if a < 0 || a >= len(ments[qi]) || pi >= len(plans[qi].Paths) {
				continue
			}
			path := &plans[qi].Paths[pi]
			fs := firstSteps(path)
			if len(fs) == 0 {
				continue
			}
			for _, r := range path.Steps[0].Rels {
				rel[r.String()] = r.Rel
			}
			for _, k := range anchorWords(text, words, quoted, &ments[qi][a], clauses) {
				n[k]++
				if steps[k] == nil {
					steps[k] = map[string]int{}
				}
				for _, s := range fs {
					steps[k][s]++
				}
			}
		}
	}
	out := map[string][]string{}
	for k, c := range n {
		if c < minAnchorWordQuestions {
			continue
		}
		var ss []string
		for s := range steps[k] {
			ss = append(ss, s)
		}
		slices.SortFunc(ss, func(a, b string) int { return cmp.Or(cmp.Compare(steps[k][b], steps[k][a]), cmp.Compare(a, b)) })
		ws := questionWords(k[2:])
		if len(ws) != 1 || rw.Words[ws[0]] < minRelWordQuestions || float64(rw.Pairs[ws[0]][rel[ss[0]]]) < minRelWordShare*float64(rw.Words[ws[0]]) {
			continue
		}
		var allow []string
		for cum := 0; float64(cum) < anchorWordCover*float64(c); {
			cum += steps[k][ss[len(allow)]]
			allow = append(allow, ss[len(allow)])
		}
		slices.Sort(allow)
		out[k] = allow
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// anchorWordMisses reports, for each candidate of cs, whether a word next
// to one of its anchors allows none of the steps that start the path from
// it (AnchorConfig.AnchorWords) while another candidate that reaches a
// node, anchored on the same mention, starts with one the word allows: a
// word says how its anchor is related where the graph lets it ("the
// different kinds of principality" allows the hypernym step, but
// principality has instances, no kinds, and the question its instances).
func (p *LinkingPlanner) anchorWordMisses(text string, ments []linking.LinkedMention, cs []PlanCandidate) []bool {
	out := make([]bool, len(cs))
	aw := p.Cfg.Anchors.AnchorWords
	if len(aw) == 0 {
		return out
	}
	words := linking.MentionWords(text)
	quoted := quotedSpans(text, false)
	near := map[int][]string{} // a mention -> the keys of its anchor words
	allows := func(k string, path *data.Path) bool {
		return slices.ContainsFunc(firstSteps(path), func(s string) bool { return slices.Contains(aw[k], s) })
	}
	type use struct {
		m int
		k string
	}
	can := map[use]bool{} // some candidate that reaches a node starts from m as k allows
	each := func(c *PlanCandidate, f func(pi, a int, k string)) {
		for pi, a := range c.Mentions {
			if a < 0 || a >= len(ments) || pi >= len(c.Plan.Paths) {
				continue
			}
			ks, ok := near[a]
			if !ok {
				ks = anchorWords(text, words, quoted, &ments[a], p.Cfg.Anchors.ClauseBounds)
				ks = slices.DeleteFunc(ks, func(k string) bool { return aw[k] == nil })
				near[a] = ks
			}
			for _, k := range ks {
				f(pi, a, k)
			}
		}
	}
	for i := range cs {
		if len(cs[i].Reach) == 0 {
			continue
		}
		each(&cs[i], func(pi, a int, k string) {
			if allows(k, &cs[i].Plan.Paths[pi]) {
				can[use{a, k}] = true
			}
		})
	}
	for i := range cs {
		each(&cs[i], func(pi, a int, k string) {
			if can[use{a, k}] && !allows(k, &cs[i].Plan.Paths[pi]) {
				out[i] = true
			}
		})
	}
	return out
}
