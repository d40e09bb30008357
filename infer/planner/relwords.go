package planner

import (
	"math"
	"slices"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/data/index"
	"github.com/strata-retrieval/strata/data/lexicon"
)

// RelWords counts, over training questions, which words (outside the
// anchors) come with which relations of the question's mined plan: "wrote"
// with written_by, "kind" with hypernym. The plan ranker sees how well the
// question's words support the least supported relation of a candidate,
// which carries over to sentence frames the training never showed (the
// words of a relation recur across frames where the frames do not), where
// the template classifier's bag of words is tied to whole templates.
type RelWords struct {
	N     int                       `json:"n"`     // questions
	Rels  map[string]int            `json:"rels"`  // relation -> questions
	Words map[string]int            `json:"words"` // word -> questions
	Pairs map[string]map[string]int `json:"pairs"` // word -> relation -> questions
	// Next counts adjacent words of the restrictions, stop words kept
	// (AddContext, pairs seen in at least two questions): which inflection
	// the training used where ("wrote the", "written by"), for reading an
	// unseen word in its place (lexwords.go).
	Next map[string]map[string]int `json:"next,omitempty"`
	// Explained holds, for a word whose questions bear out two or more
	// relations (the plans of minRelWordShare of at least
	// minRelWordQuestions of them walk each), the relations left to it
	// once the question's other words have explained theirs (Explain);
	// set only where that narrows what the word names. Lift reads it in
	// place of Pairs.
	Explained map[string]map[string]int `json:"explained,omitempty"`
}

// NewRelWords returns empty counts.
func NewRelWords() *RelWords {
	return &RelWords{Rels: map[string]int{}, Words: map[string]int{}, Pairs: map[string]map[string]int{}}
}

// PlanRelations are the relation names of a plan's steps, without
// direction or universal mark, each once, sorted.
func PlanRelations(p *data.Plan) []string {
	var out []string
	for _, path := range p.Paths {
		for _, st := range path.Steps {
			for _, r := range st.Rels {
				if !slices.Contains(out, r.Rel) {
					out = append(out, r.Rel)
				}
			}
		}
	}
	slices.Sort(out)
	return out
}

// questionWords are a restriction's BM25 tokens, each once.
func questionWords(restriction string) []string {
	ws := index.Tokenize(nil, restriction)
	slices.Sort(ws)
	return slices.Compact(ws)
}

// Add counts one question: its restriction (the question without its
// anchors) and its plan's relations (PlanRelations).
func (r *RelWords) Add(restriction string, rels []string) {
	r.N++
	for _, rel := range rels {
		r.Rels[rel]++
	}
	for _, w := range questionWords(restriction) {
		r.Words[w]++
		if r.Pairs[w] == nil {
			r.Pairs[w] = map[string]int{}
		}
		for _, rel := range rels {
			r.Pairs[w][rel]++
		}
	}
}

// Explain fills Explained from the questions Add counted (their
// restrictions and plans' relations, in any order). A frame's words all
// come with all of its plan's relations: movies-skb's training says "Which
// actors appeared in the films directed by X?" and never "Who appeared in
// X?", so "appeared" comes with starred_actors and directed_by in every
// question, as "directed" does. But "directed" also comes without
// starred_actors elsewhere: it names directed_by alone (the one relation
// the plans of minRelWordShare of its questions walk). Explaining away
// credits each relation of a question to a word naming it alone, where
// one stands, and counts for every other word only the relations no
// other word of its question names alone. "appeared" keeps
// starred_actors and "directors" directed_by; "actors", which also comes
// with "starred", keeps its counts, as explaining away leaves it no
// relation borne out.
//
// With the lexicon (nil: none), a word is narrowed only where it may name
// a relation and its other forms agree. An adjective names no relation:
// WordNet's training asks "What different kinds of parts belong to X?",
// where "different" would keep the part holonym. And a form the training
// used in at least minRelWordQuestions questions must name the relation
// too (before explaining away): "belong" keeps the part holonym in that
// frame, but "belongs" comes with the member holonym, the domain topic and
// the hypernym elsewhere, so "Which terms belong to the field of X?" is no
// question about parts. "acted" keeps starred_actors, which "act" names.
func (r *RelWords) Explain(restrictions []string, rels [][]string, lex *lexicon.Lexicon) {
	alone := map[string]string{}
	for w, n := range r.Words {
		if named := r.named(w, r.Pairs[w]); len(named) == 1 && n >= minRelWordQuestions {
			alone[w] = named[0]
		}
	}
	left := map[string]map[string]int{}
	for i, s := range restrictions {
		ws := questionWords(s)
		for _, w := range ws {
			if r.Words[w] < minRelWordQuestions {
				continue
			}
			if left[w] == nil {
				left[w] = map[string]int{}
			}
			for _, rel := range rels[i] {
				if !slices.ContainsFunc(ws, func(x string) bool { return x != w && alone[x] == rel }) {
					left[w][rel]++
				}
			}
		}
	}
	for w, m := range left {
		before, after := r.named(w, r.Pairs[w]), r.named(w, m)
		strong := slices.ContainsFunc(after, func(rel string) bool { return float64(m[rel]) >= minExplainedShare*float64(r.Words[w]) })
		if len(before) > 1 && len(after) > 0 && len(after) < len(before) && strong && (lex == nil || r.formsAgree(lex, w, after)) {
			if r.Explained == nil {
				r.Explained = map[string]map[string]int{}
			}
			r.Explained[w] = m
		}
	}
}

// formsAgree reports whether w may name the relations after (Explain's
// narrowing): w is a noun or verb of lex, and every other form the
// training used in at least minRelWordQuestions questions (one sharing a
// base form) names one of them by Pairs.
func (r *RelWords) formsAgree(lex *lexicon.Lexicon, w string, after []string) bool {
	if !lex.IsNoun(w) && !lex.IsVerbForm(w) {
		return false
	}
	bases := lex.Bases(w)
	for f, n := range r.Words {
		if f == w || n < minRelWordQuestions || !lexicon.SameBases(w, bases, f, lex.Bases(f)) {
			continue
		}
		if !slices.ContainsFunc(r.named(f, r.Pairs[f]), func(rel string) bool { return slices.Contains(after, rel) }) {
			return false
		}
	}
	return true
}

// minExplainedShare: explaining away narrows a word's relations only
// where it leaves one to at least this share of the word's questions
// ("appeared" and "acted" keep starred_actors in all of theirs).
const minExplainedShare = 0.9

// named are the relations that the plans of at least minRelWordShare of
// w's questions walk, by counts (Pairs or Explained), sorted.
func (r *RelWords) named(w string, counts map[string]int) []string {
	var out []string
	for rel, k := range counts {
		if float64(k) >= minRelWordShare*float64(r.Words[w]) {
			out = append(out, rel)
		}
	}
	slices.Sort(out)
	return out
}

// mostWalked reports whether rel is the relation the plans of w's
// questions walk most often, more often than any other (Pairs).
func (r *RelWords) mostWalked(w, rel string) bool {
	k := r.Pairs[w][rel]
	for other, n := range r.Pairs[w] {
		if other != rel && n >= k {
			return false
		}
	}
	return k > 0
}

// explainedNames reports whether explaining away left rel to w
// (Explained): the plans of at least minRelWordShare of w's questions walk
// it once the question's other words have explained theirs.
func (r *RelWords) explainedNames(w, rel string) bool {
	m, ok := r.Explained[w]
	return ok && float64(m[rel]) >= minRelWordShare*float64(r.Words[w])
}

// aloneNames reports whether the training bears out rel for w alone: the
// plans of at least minExplainedShare of w's questions (at least
// minRelWordQuestions) walk it, and those of minRelWordShare walk no
// other relation.
func (r *RelWords) aloneNames(w, rel string) bool {
	n := r.Words[w]
	if n < minRelWordQuestions || float64(r.Pairs[w][rel]) < minExplainedShare*float64(n) {
		return false
	}
	named := r.named(w, r.Pairs[w])
	return len(named) == 1 && named[0] == rel
}

// pairs are w's relation counts: Explained's where Explain narrowed
// them, else Pairs.
func (r *RelWords) pairs(w string) map[string]int {
	if m, ok := r.Explained[w]; ok {
		return m
	}
	return r.Pairs[w]
}

// AddContext counts the adjacent word pairs of one restriction (Next),
// each pair once per question.
func (r *RelWords) AddContext(restriction string) {
	if r.Next == nil {
		r.Next = map[string]map[string]int{}
	}
	toks := index.TokenizeAll(nil, restriction)
	seen := map[[2]string]bool{}
	for i := 1; i < len(toks); i++ {
		p := [2]string{toks[i-1], toks[i]}
		if seen[p] {
			continue
		}
		seen[p] = true
		if r.Next[p[0]] == nil {
			r.Next[p[0]] = map[string]int{}
		}
		r.Next[p[0]][p[1]]++
	}
}

// PruneContext drops the pairs of Next seen in fewer than min questions.
func (r *RelWords) PruneContext(min int) {
	for a, m := range r.Next {
		for b, n := range m {
			if n < min {
				delete(m, b)
			}
		}
		if len(m) == 0 {
			delete(r.Next, a)
		}
	}
}

// Lift is how much more often rel comes with the question's best word for
// it than with any question: max over the words of the restriction of
// P(rel | word) / P(rel), P(rel | word) smoothed towards P(rel) with
// weight alpha = 2 (a word seen in few questions says little). An unseen
// relation, or no word, gives 1.
func (r *RelWords) Lift(restriction, rel string) float64 {
	return r.lift(questionWords(restriction), rel)
}

// lift is Lift given the restriction's words (questionWords).
func (r *RelWords) lift(words []string, rel string) float64 {
	const alpha = 2
	if r.N == 0 || r.Rels[rel] == 0 {
		return 1
	}
	p0 := float64(r.Rels[rel]) / float64(r.N)
	best := 1.0
	for _, w := range words {
		n := r.Words[w]
		if n == 0 {
			continue
		}
		p := (float64(r.pairs(w)[rel]) + alpha*p0) / (float64(n) + alpha)
		best = max(best, p/p0)
	}
	return best
}

// MinLift is the least Lift over a plan's relations (1 without relations):
// a plan is as supported by the question's words as its least supported
// relation.
func (r *RelWords) MinLift(restriction string, p *data.Plan) float64 {
	out := math.Inf(1)
	words := questionWords(restriction)
	for _, rel := range PlanRelations(p) {
		out = min(out, r.lift(words, rel))
	}
	if math.IsInf(out, 1) {
		return 1
	}
	return out
}
