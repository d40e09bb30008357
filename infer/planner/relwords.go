package planner

import (
	"math"
	"slices"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/data/index"
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
		p := (float64(r.Pairs[w][rel]) + alpha*p0) / (float64(n) + alpha)
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
