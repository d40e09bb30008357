package train

import (
	"context"
	"testing"

	"github.com/strata-retrieval/strata/data/synth"
	"github.com/strata-retrieval/strata/infer"
	"github.com/strata-retrieval/strata/internal/testws"
	"github.com/strata-retrieval/strata/models"
)

// TestTrainPlanner learns the generator's templates without a dense channel
// (types of linked entities and words only) and checks the predicted plans
// on the test split: the metapath and the anchor names are the generator's.
func TestTrainPlanner(t *testing.T) {
	ws := testws.Build(t, synth.Config{Preset: "prime", Nodes: 2000, Queries: 400, Seed: 5})
	p, r, err := TrainPlanner(context.Background(), ws, nil, PlannerOptions{Train: Config{Epochs: 15, BatchSize: 32, LR: 3e-3, Seed: 2},
		Run: Options{RunDir: t.TempDir(), Fingerprint: ws.Fingerprint}})
	if err != nil {
		t.Fatal(err)
	}
	trainQs, _ := ws.SKB.QA.Split("train")
	distinct := map[string]bool{}
	for _, q := range trainQs {
		distinct[infer.TemplateKey(ws.Plans[q.ID].Metapath)] = true
	}
	if len(p.Cfg.Templates) != len(distinct) || len(distinct) < 4 {
		t.Errorf("%d templates, the training plans have %d", len(p.Cfg.Templates), len(distinct))
	}
	qs, _ := ws.SKB.QA.Split("test")
	acc, n, err := PlanAccuracy(p, ws.Plans, qs)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("best %s val %.4f, test accuracy %.4f over %d", r.Best, r.BestValue, acc, n)
	if n != len(qs) || acc < 0.9 {
		t.Errorf("test plan accuracy %.4f over %d queries, want >= 0.9 over %d", acc, n, len(qs))
	}
	anchors, right := 0, 0
	for _, q := range qs {
		got, _, _ := p.Predict(q)
		ref := ws.Plans[q.ID]
		if infer.TemplateKey(got.Metapath) != infer.TemplateKey(ref.Metapath) {
			continue
		}
		for _, path := range ref.Metapath {
			anchors++
			if len(got.Restriction[path[0]]) > 0 && len(ref.Restriction[path[0]]) > 0 && got.Restriction[path[0]][0] == ref.Restriction[path[0]][0] {
				right++
			}
		}
	}
	if float64(right) < 0.9*float64(anchors) {
		t.Errorf("anchor names right for %d of %d paths", right, anchors)
	}
}

// TestTrainMoR trains the trajectory reranker on a generated benchmark
// (ground-truth plans, no dense channel) and checks that it beats the
// traversal pool ranked by BM25 (MoR without its reranker) on test Hit@1.
func TestTrainMoR(t *testing.T) {
	ws := testws.Build(t, synth.Config{Preset: "mag", Nodes: 2000, Queries: 400, Seed: 6})
	m, r, err := TrainMoR(context.Background(), ws, nil, nil, MoROptions{Model: models.TrajectoryConfig{UseTF: true, UseSF: true, UseTI: true},
		Negatives: 30, Train: Config{Epochs: 4, BatchSize: 16, LR: 1e-3, Seed: 3}, Run: Options{RunDir: t.TempDir(), Fingerprint: ws.Fingerprint}})
	if err != nil {
		t.Fatal(err)
	}
	mor, _ := SplitMetrics(context.Background(), ws, m, "test")
	tr, _ := infer.NewMethod(ws, "mor-traversal")
	base, _ := SplitMetrics(context.Background(), ws, tr, "test")
	t.Logf("best %s; mor %v; traversal %v", r.Best, mor, base)
	if mor["test/hit@1"] < base["test/hit@1"]+0.2 {
		t.Errorf("MoR hit@1 %.4f, traversal alone %.4f", mor["test/hit@1"], base["test/hit@1"])
	}
}
