package train

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/infer/planner"
	"github.com/strata-retrieval/strata/models"
)

// rankGroup is one question's plan candidates for the ranker: features,
// and the candidates that answer it best.
type rankGroup struct {
	feats [][]uint32
	gold  []int
}

// planRankGroup builds the ranker example of a training question: ok is
// false when no candidate reaches an answer or all candidates tie.
func planRankGroup(p *planner.LinkingPlanner, q data.Query, cand []bool) (rankGroup, bool, error) {
	cs, ments, err := p.Candidates(context.Background(), q)
	if err != nil || len(cs) < 2 {
		return rankGroup{}, false, err
	}
	gold := candidateAnswers(q, cand)
	p.ScoreCandidates(q.Text, ments, cs)
	qual := make([]float64, len(cs))
	best := 0.0
	for i := range cs {
		qual[i] = planner.CandidateQuality(&cs[i], gold)
		best = max(best, qual[i])
	}
	if best == 0 {
		return rankGroup{}, false, nil
	}
	g := rankGroup{feats: p.RankFeatures(q.Text, ments, cs)}
	for i, v := range qual {
		if v == best {
			g.gold = append(g.gold, i)
		}
	}
	return g, len(g.gold) < len(cs), nil
}

// candidateAnswers are q's answers that are candidates (cand).
func candidateAnswers(q data.Query, cand []bool) []uint32 {
	var gold []uint32
	for _, a := range q.Answers {
		if int(a) < len(cand) && cand[a] {
			gold = append(gold, a)
		}
	}
	return gold
}

// candidateNamed are the NamedExamples of a training question over the
// candidates the planner tries, each (mention, anchors, answer) once.
func candidateNamed(p *planner.LinkingPlanner, q data.Query, cand []bool) ([]planner.NamedExample, error) {
	cs, ments, err := p.Candidates(context.Background(), q)
	if err != nil {
		return nil, err
	}
	gold := candidateAnswers(q, cand)
	seen := map[string]bool{}
	var out []planner.NamedExample
	for i := range cs {
		for _, x := range planner.NamedExamples(q.Text, ments, cs[i].Mentions, cs[i].Reach, gold) {
			k := fmt.Sprint(x.Keys, x.Answer)
			if !seen[k] {
				seen[k] = true
				out = append(out, x)
			}
		}
	}
	return out, nil
}

// trainRanker fits the plan ranker by AdaGrad on the listwise softmax
// loss towards the best candidates; it returns the last epoch's mean loss.
func trainRanker(m *models.SparseLinear, groups []rankGroup, epochs int, lr float64, seed uint64) float64 {
	w := m.W.Data()
	acc := make([]float32, len(w))
	g := make([]float32, len(w))
	var last float64
	for ep := range epochs {
		perm := rand.New(rand.NewPCG(seed, 0x5a1e^uint64(ep))).Perm(len(groups))
		var sum float64
		for _, i := range perm {
			gr := &groups[i]
			sum += m.ListwiseGradSet(gr.feats, gr.gold, g)
			adagrad(w, acc, g, gr.feats, lr)
		}
		last = sum / float64(max(1, len(groups)))
	}
	return last
}

// adagrad applies and clears the gradient g on the features touched.
func adagrad(w, acc, g []float32, feats [][]uint32, lr float64) {
	for _, f := range feats {
		for _, k := range f {
			if g[k] == 0 {
				continue
			}
			acc[k] += g[k] * g[k]
			w[k] -= float32(lr) * g[k] / float32(math.Sqrt(float64(acc[k]))+1e-6)
			g[k] = 0
		}
	}
}

// trainAnchorScorer fits the scorer by AdaGrad on the listwise softmax
// loss, one group at a time in a seeded order; it returns the last
// epoch's mean loss.
func trainAnchorScorer(m *models.SparseLinear, groups []planner.AnchorGroup, epochs int, lr float64, seed uint64) float64 {
	w := m.W.Data()
	acc := make([]float32, len(w))
	g := make([]float32, len(w))
	var last float64
	for ep := range epochs {
		perm := rand.New(rand.NewPCG(seed, 0xa7c4^uint64(ep))).Perm(len(groups))
		var sum float64
		for _, i := range perm {
			gr := &groups[i]
			sum += m.ListwiseGrad(gr.Feats, gr.Gold, g)
			adagrad(w, acc, g, gr.Feats, lr)
		}
		last = sum / float64(max(1, len(groups)))
	}
	return last
}
