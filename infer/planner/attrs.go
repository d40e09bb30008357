package planner

import (
	"cmp"
	"slices"
	"strings"
	"unicode"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/data/index"
	"github.com/strata-retrieval/strata/graphops"
	"github.com/strata-retrieval/strata/graphops/linking"
	gplan "github.com/strata-retrieval/strata/graphops/plan"
)

// Attributes written in the text of nodes ("Released in 2007. Language:
// French.", "chromosome: 19") are learned as keys: a word that, in the
// text of a training question's answers, stands right before a word of the
// question's restriction (graphops/plan.KeysBefore), for every answer of
// the question. The keys of enough training questions are the planner's
// (AnchorConfig.AttrKeys); at prediction, each restricted candidate whose
// reach states (key, word of the question) for some nodes is tried as its
// attribute twin too: the plan filtered to those nodes
// (data.Plan.Attributes, graphops/plan.Filter), and the plan ranker
// chooses.

// AttrExample is a training question for attribute keys: its restriction
// (the question without its anchors) and its answers.
type AttrExample struct {
	Restriction string
	Answers     []uint32
}

// valueWords are the words of a restriction that can be attribute values:
// BM25's tokens (lower case, two or more characters, no stop words).
func valueWords(restriction string) map[string]bool {
	out := map[string]bool{}
	for _, w := range index.Tokenize(nil, restriction) {
		out[w] = true
	}
	return out
}

// isStopword reports whether w is one of BM25's English stop words.
func isStopword(w string) bool { return slices.Contains(index.StopwordsEN, w) }

// MinAttrKeyLift is how much more often a key must stand before a
// restriction word than before any word of the same answers' text.
const MinAttrKeyLift = 1.5

// LearnAttrKeys returns the attribute keys of exs, sorted: the keys that
// stand before a restriction word in the text of every answer of at least
// minQuestions questions (stop words and words of one letter are never
// keys), and that stand before the restriction words of those answers'
// text at least MinAttrKeyLift times as often as before its words at
// large ("released" before "2007" in "Released in 2007", not a filler
// word that precedes every kind of word alike).
func LearnAttrKeys(g *graphops.Graph, exs []AttrExample, minQuestions int) []string {
	keep := func(k string) bool { return len([]rune(k)) > 1 && !isStopword(k) }
	count := map[string]int{}
	// Key occurrences before value words and before any word, and the
	// number of each kind of position, over the answers' text.
	atValue, atAny := map[string]int{}, map[string]int{}
	nValue, nAny := 0, 0
	for _, e := range exs {
		vals := valueWords(e.Restriction)
		if len(vals) == 0 || len(e.Answers) == 0 {
			continue
		}
		var common map[string]bool
		for _, a := range e.Answers {
			if int(a) >= g.NumNodes() {
				continue
			}
			doc := gplan.NodeWords(g, a)
			keys := map[string]bool{}
			for i, w := range doc {
				if !keep(w) {
					continue // a stop word is never a value
				}
				isVal := vals[w]
				if isVal {
					nValue++
				}
				nAny++
				gplan.KeysBefore(doc, i, func(k string) {
					if !keep(k) {
						return
					}
					atAny[k]++
					if isVal {
						atValue[k]++
						keys[k] = true
					}
				})
			}
			if common == nil {
				common = keys
				continue
			}
			for k := range common {
				if !keys[k] {
					delete(common, k)
				}
			}
		}
		for k := range common {
			count[k]++
		}
	}
	var out []string
	for k, n := range count {
		lift := float64(atValue[k]) * float64(nAny) / (float64(nValue) * float64(atAny[k]))
		if n >= minQuestions && lift >= MinAttrKeyLift {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}

// attrTwin returns c's attribute twin: c's plan keeping only the targets
// that state each (key, question word) attribute some of c's reach states
// (all of them, possibly: the twin then reaches what c reaches, and says
// why); ok is false when there is no such attribute or c has no
// restriction. docs caches node words across a question's candidates.
func (p *LinkingPlanner) attrTwin(c *PlanCandidate, text string, ments []linking.LinkedMention, docs map[uint32][]string) (PlanCandidate, bool) {
	keys := p.Cfg.Anchors.AttrKeys
	if len(keys) == 0 || len(c.Reach) == 0 || len(c.Plan.Attributes) > 0 || len(c.Plan.TargetRestriction()) == 0 {
		return PlanCandidate{}, false
	}
	vals := valueWords(linking.RestrictionText(text, ments, c.Mentions))
	// Only a node whose document holds a value word and a key (BM25's
	// postings) can state an attribute: the others are not read.
	var valDocs, keyDocs [][]uint32
	for w := range vals {
		if d := p.ws.Doc.Postings(w); d != nil {
			valDocs = append(valDocs, d)
		}
	}
	for _, k := range keys {
		if d := p.ws.Doc.Postings(k); d != nil {
			keyDocs = append(keyDocs, d)
		}
	}
	if len(valDocs) == 0 || len(keyDocs) == 0 {
		return PlanCandidate{}, false
	}
	count := map[data.PlanAttr]int{}
	statedAt := make([]map[data.PlanAttr]bool, len(c.Reach))
	for j, v := range c.Reach {
		if d, ok := p.ws.DocOf(v); !ok || !anyHolds(valDocs, d) || !anyHolds(keyDocs, d) {
			continue
		}
		doc, ok := docs[v]
		if !ok {
			doc = gplan.NodeWords(p.ws.Graph, v)
			docs[v] = doc
		}
		stated := map[data.PlanAttr]bool{}
		for at := range gplan.StatedAttrs(doc, vals, func(k string) bool { _, found := slices.BinarySearch(keys, k); return found }) {
			stated[data.PlanAttr(at)] = true
		}
		for a := range stated {
			count[a]++
		}
		statedAt[j] = stated
	}
	attrs := make([]data.PlanAttr, 0, len(count))
	for a := range count {
		attrs = append(attrs, a)
	}
	if len(attrs) == 0 {
		return PlanCandidate{}, false
	}
	slices.SortFunc(attrs, func(a, b data.PlanAttr) int { return cmp.Or(cmp.Compare(a.Key, b.Key), cmp.Compare(a.Value, b.Value)) })
	// The twin's reach: the nodes of c's reach that state every attribute
	// (what executing the filtered plan gives, without reading every
	// node's text again), with their scores.
	tc := *c
	tc.Plan.Attributes = attrs
	tc.Reach, tc.Scores = nil, nil
	for j, v := range c.Reach {
		all := statedAt[j] != nil
		for _, a := range attrs {
			all = all && statedAt[j][a]
		}
		if !all {
			continue
		}
		tc.Reach = append(tc.Reach, v)
		if c.Scores != nil {
			tc.Scores = append(tc.Scores, c.Scores[j])
		}
	}
	return tc, true
}

// relPrefix is how a relation's words and a question's words are
// compared: their first four letters (whole when shorter), so "directed"
// meets "director" and "starring" meets "starred_actors".
func relPrefix(w string) string {
	r := []rune(w)
	return string(r[:min(4, len(r))])
}

// RelationWordMatch counts the relations of a plan whose name shares a
// word (relPrefix, words of three or more letters) with the question
// outside its anchors (restriction, the question without the anchor
// mentions), and returns it with the number of relations.
func RelationWordMatch(p *data.Plan, restriction string) (matched, total int) {
	q := map[string]bool{}
	for _, w := range index.Tokenize(nil, restriction) {
		if len([]rune(w)) >= 3 {
			q[relPrefix(w)] = true
		}
	}
	seen := map[string]bool{}
	for _, path := range p.Paths {
		for _, st := range path.Steps {
			for _, r := range st.Rels {
				rel := r.Rel
				if seen[rel] {
					continue
				}
				seen[rel] = true
				total++
				for _, w := range strings.FieldsFunc(strings.ToLower(rel), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
					if len([]rune(w)) >= 3 && q[relPrefix(w)] {
						matched++
						break
					}
				}
			}
		}
	}
	return matched, total
}

// anyHolds reports whether one of the sorted document lists holds d.
func anyHolds(lists [][]uint32, d uint32) bool {
	for _, l := range lists {
		if _, ok := slices.BinarySearch(l, d); ok {
			return true
		}
	}
	return false
}
