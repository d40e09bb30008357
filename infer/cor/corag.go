package cor

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/data/index"
	"github.com/strata-retrieval/strata/infer"
	"github.com/strata-retrieval/strata/infer/registry"
)

// CandidateScorer is a reranker that scores given candidates of a query
// (an LLM's relevance of each). A reranker without it is asked for its
// ranking, and its score of each candidate is looked up there.
type CandidateScorer interface {
	ScoreCandidates(ctx context.Context, q data.Query, ids []uint32) ([]float32, error)
}

// S′ modes: how a reranker's score becomes CoRAG's s′.
const (
	// SPrimeBinary is CoRAG's eq. 12: s′ = 1 when the reranker's score is
	// at least Threshold, else 0.
	SPrimeBinary = "binary"
	// SPrimeScore takes the reranker's score as s′ (a probability, say).
	SPrimeScore = "score"
)

// Rerank is CoRAG's external reranker (§3.4): the top K of CoR's ranking
// get s′ from the reranker, and every candidate scores ŝ* = ŝ + s′
// (eq. 13; s′ = 0 outside the top K). With binary s′ and ŝ ≤ 1, the
// candidates the reranker accepts rank first, in CoR's order.
type Rerank struct {
	Reranker  infer.Method
	K         int     // CoR's candidates judged, default 25 (CoRAG §4.2)
	Mode      string  // SPrimeBinary (default) or SPrimeScore
	Threshold float64 // binary s′: the lowest accepted score
}

// SPrime returns s′ for ids (CoR's top K).
func (r *Rerank) SPrime(ctx context.Context, q data.Query, ids []uint32) ([]float32, error) {
	var scores []float32
	if cs, ok := r.Reranker.(CandidateScorer); ok {
		var err error
		if scores, err = cs.ScoreCandidates(ctx, q, ids); err != nil {
			return nil, err
		}
		if len(scores) != len(ids) {
			return nil, fmt.Errorf("CoRAG: the reranker scored %d of %d candidates", len(scores), len(ids))
		}
	} else {
		hits, err := r.Reranker.Rank(ctx, q)
		if err != nil {
			return nil, err
		}
		of := make(map[uint32]float32, len(hits))
		for _, h := range hits {
			of[h.ID] = h.Score
		}
		scores = make([]float32, len(ids))
		for i, v := range ids {
			s, ok := of[v]
			if !ok {
				s = float32(math.Inf(-1)) // not ranked: not relevant
			}
			scores[i] = s
		}
	}
	out := make([]float32, len(ids))
	for i, s := range scores {
		switch {
		case r.Mode == SPrimeScore:
			if !math.IsInf(float64(s), -1) {
				out[i] = s
			}
		case float64(s) >= r.Threshold:
			out[i] = 1
		}
	}
	return out, nil
}

// apply adds s′ to the scores of the top K candidates of (ids, scores).
func (r *Rerank) apply(ctx context.Context, q data.Query, ids []uint32, scores []float32) error {
	k := r.K
	if k <= 0 {
		k = 25
	}
	top := infer.Top(scores, ids, k)
	judged := make([]uint32, len(top))
	for i, t := range top {
		judged[i] = t.Hit.ID
	}
	sp, err := r.SPrime(ctx, q, judged)
	if err != nil {
		return err
	}
	for i, t := range top {
		scores[t.Index] += sp[i]
	}
	return nil
}

// CoRAGSpecFile names the spec of a CoRAG model directory, which the
// registry loads as a method (eval --model DIR, pipelines' "model").
const CoRAGSpecFile = "corag.json"

// CoRAGSpec is a CoRAG model directory's corag.json: a CoR model and an
// external reranker combined by eq. 13. Paths are relative to the
// directory, or absolute.
type CoRAGSpec struct {
	CoR       string  `json:"cor"`      // CoR checkpoint or run directory
	Reranker  string  `json:"reranker"` // a method name, or a model directory or checkpoint
	TopK      int     `json:"top_k,omitempty"`
	SPrime    string  `json:"s_prime,omitempty"` // binary (default) or score
	Threshold float64 `json:"threshold,omitempty"`
}

func init() {
	registry.RegisterDir(CoRAGSpecFile, func(env *infer.Env, dir string) (infer.Method, error) { return LoadCoRAG(env, dir) })
}

// LoadCoRAG opens a CoRAG model directory: its CoR model and its reranker
// load through the registry.
func LoadCoRAG(env *infer.Env, dir string) (*Method, error) {
	file := filepath.Join(dir, CoRAGSpecFile)
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	var spec CoRAGSpec
	if err := json.Unmarshal(b, &spec); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	switch {
	case spec.CoR == "":
		return nil, fmt.Errorf("%s: key \"cor\": the CoR model is missing", file)
	case spec.Reranker == "":
		return nil, fmt.Errorf("%s: key \"reranker\": the reranker is missing", file)
	case spec.SPrime != "" && spec.SPrime != SPrimeBinary && spec.SPrime != SPrimeScore:
		return nil, fmt.Errorf("%s: key \"s_prime\": want %s or %s, got %q", file, SPrimeBinary, SPrimeScore, spec.SPrime)
	case spec.TopK < 0:
		return nil, fmt.Errorf("%s: key \"top_k\": %d is negative", file, spec.TopK)
	}
	resolve := func(p string) string {
		if registry.IsMethod(p) || filepath.IsAbs(p) {
			return p
		}
		return filepath.Join(dir, p)
	}
	base, err := registry.Load(env, resolve(spec.CoR))
	if err != nil {
		return nil, fmt.Errorf("%s: key \"cor\": %w", file, err)
	}
	m, ok := base.(*Method)
	if !ok {
		return nil, fmt.Errorf("%s: key \"cor\": %s is a %s model, not CoR", file, spec.CoR, base.Name())
	}
	rr, err := registry.Ranker(env, resolve(spec.Reranker))
	if err != nil {
		return nil, fmt.Errorf("%s: key \"reranker\": %w", file, err)
	}
	mode := spec.SPrime
	if mode == "" {
		mode = SPrimeBinary
	}
	m.Rerank = &Rerank{Reranker: rr, K: spec.TopK, Mode: mode, Threshold: spec.Threshold}
	return m, nil
}

var _ infer.Method = (*Method)(nil)

// hitsOf pairs ids with scores.
func hitsOf(ids []uint32, scores []float32) []index.Hit {
	out := make([]index.Hit, len(scores))
	for i, s := range scores {
		out[i] = index.Hit{ID: ids[i], Score: s}
	}
	return out
}
