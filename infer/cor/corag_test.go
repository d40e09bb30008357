package cor

import (
	"context"
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/strata-retrieval/strata/checkpoints"
	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/data/index"
	"github.com/strata-retrieval/strata/gating"
	"github.com/strata-retrieval/strata/infer"
	_ "github.com/strata-retrieval/strata/infer/baseline" // bm25, the reranker of the pipeline test
	"github.com/strata-retrieval/strata/infer/infertest"
	"github.com/strata-retrieval/strata/infer/pipeline"
	"github.com/strata-retrieval/strata/internal/testws"
)

// fixedRanker ranks with fixed scores; with pairs it is a CandidateScorer.
type fixedRanker struct {
	scores map[uint32]float32
	pairs  bool
	asked  []uint32
}

func (f *fixedRanker) Name() string { return "fixed" }

func (f *fixedRanker) Rank(context.Context, data.Query) ([]index.Hit, error) {
	var out []index.Hit
	for id, s := range f.scores {
		out = append(out, index.Hit{ID: id, Score: s})
	}
	return out, nil
}

type pairRanker struct{ *fixedRanker }

func (p pairRanker) ScoreCandidates(_ context.Context, _ data.Query, ids []uint32) ([]float32, error) {
	p.asked = append(p.asked[:0], ids...)
	out := make([]float32, len(ids))
	for i, v := range ids {
		out[i] = p.scores[v]
	}
	return out, nil
}

// TestRerankHandWorked pins CoRAG's eq. 12-13 on numbers worked by hand.
// CoR scores ŝ = (.9, .2, .7, .4, .6) for nodes 1..5; its top K = 3 are
// 1, 3, 5. The reranker scores 1 → .1, 3 → .8, 5 → .3 and 2 → .99 (2 is
// outside CoR's top 3, so it is never judged). Binary s′ with threshold
// .5 is (0, 1, 0): ŝ* = (.9, .2, 1.7, .4, .6), ranking 3 1 5 4 2. Score
// s′ is (.1, .8, .3): ŝ* = (1.0, .2, 1.5, .4, .9), ranking 3 1 5 4 2.
func TestRerankHandWorked(t *testing.T) {
	ids := []uint32{1, 2, 3, 4, 5}
	rr := &fixedRanker{scores: map[uint32]float32{1: .1, 3: .8, 5: .3, 2: .99}}
	for _, c := range []struct {
		name   string
		method infer.Method
		mode   string
		want   []float32
	}{
		{"binary, ranking", rr, SPrimeBinary, []float32{.9, .2, 1.7, .4, .6}},
		{"score, ranking", rr, SPrimeScore, []float32{1.0, .2, 1.5, .4, .9}},
		{"binary, candidate scorer", pairRanker{rr}, SPrimeBinary, []float32{.9, .2, 1.7, .4, .6}},
	} {
		scores := []float32{.9, .2, .7, .4, .6}
		r := &Rerank{Reranker: c.method, K: 3, Mode: c.mode, Threshold: .5}
		if err := r.apply(context.Background(), data.Query{}, ids, scores); err != nil {
			t.Fatal(err)
		}
		for i := range scores {
			if math.Abs(float64(scores[i]-c.want[i])) > 1e-6 {
				t.Errorf("%s: ŝ* = %v, want %v", c.name, scores, c.want)
				break
			}
		}
		hits := hitsOf(ids, scores)
		index.Sort(hits)
		var order []uint32
		for _, h := range hits {
			order = append(order, h.ID)
		}
		if !slices.Equal(order, []uint32{3, 1, 5, 4, 2}) {
			t.Errorf("%s: ranking %v", c.name, order)
		}
	}
	if !slices.Equal(rr.asked, []uint32{1, 3, 5}) {
		t.Errorf("the candidate scorer was asked for %v, want CoR's top 3 [1 3 5]", rr.asked)
	}
}

// TestCoRAGFromPipeline: a corag.json directory (a saved CoR checkpoint and
// BM25 as the reranker) loads through the registry and a pipeline file, and
// ranks as CoR plus s′ = [BM25 ≥ threshold] on CoR's top K.
func TestCoRAGFromPipeline(t *testing.T) {
	ws := testws.Preset(t, "prime", 1200, 40)
	d := infertest.LexicalDense(t, ws)
	cfg := gating.DefaultConfig(&ws.SKB.Schema, d.Docs.Dim)
	model, err := gating.New(cfg, rand.New(rand.NewPCG(5, 6)))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	mc, _ := json.Marshal(map[string]any{"model": cfg})
	ck := &checkpoints.Checkpoint{Manifest: checkpoints.Manifest{Kind: Kind, Config: mc, DataFingerprint: ws.Fingerprint}}
	for _, p := range model.Params() {
		ck.Model = append(ck.Model, checkpoints.Tensor{Name: p.Name, Shape: p.Shape, Data: p.Data()})
	}
	if err := checkpoints.Save(filepath.Join(dir, "cor"), ck); err != nil {
		t.Fatal(err)
	}
	spec := `{"cor": "../cor", "reranker": "bm25", "top_k": 10, "threshold": 3}`
	if err := os.MkdirAll(filepath.Join(dir, "corag"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "corag", CoRAGSpecFile), []byte(spec), 0o644); err != nil {
		t.Fatal(err)
	}
	pf := filepath.Join(dir, "p.json")
	if err := os.WriteFile(pf, []byte(`{"format": "strata-pipeline/1", "scorers": [{"model": "corag"}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	env := infer.NewEnv(context.Background(), ws)
	env.SetDense(d)
	p, err := pipeline.ReadPipeline(pf)
	if err != nil {
		t.Fatal(err)
	}
	run, err := p.Compile(env)
	if err != nil {
		t.Fatal(err)
	}
	if names := run.StageNames(); !slices.Equal(names, []string{"corag"}) {
		t.Fatalf("stages %v", names)
	}
	plain, err := New(ws, d, model)
	if err != nil {
		t.Fatal(err)
	}
	moved := 0
	for _, q := range ws.SKB.QA.Queries[:20] {
		got, err := run.Rank(context.Background(), q)
		if err != nil {
			t.Fatal(err)
		}
		base, _ := plain.Rank(context.Background(), q)
		want := slices.Clone(base)
		infer.SortHits(want)
		bm := map[uint32]float32{}
		for _, h := range ws.Doc.ScoreAll(q.Text, nil) {
			bm[ws.Candidates[h.ID]] = h.Score
		}
		accepted := map[uint32]bool{}
		for _, h := range want[:10] {
			if s, ok := bm[h.ID]; ok && s >= 3 {
				accepted[h.ID] = true
			}
		}
		for i := range want {
			if accepted[want[i].ID] {
				want[i].Score++
			}
		}
		infer.SortHits(want)
		for i := range want {
			if got[i].ID != want[i].ID || math.Abs(float64(got[i].Score-want[i].Score)) > 1e-6 {
				t.Fatalf("query %d rank %d: %+v, want %+v", q.ID, i, got[i], want[i])
			}
		}
		if len(accepted) > 0 && len(accepted) < 10 {
			moved++
		}
	}
	if moved < 3 {
		t.Errorf("only %d queries had some but not all of CoR's top 10 accepted", moved)
	}
}
