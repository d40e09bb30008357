package train

import (
	"context"
	"github.com/strata-retrieval/strata/infer/registry"
	"math/rand/v2"
	"testing"

	"github.com/strata-retrieval/strata/data/synth"
	"github.com/strata-retrieval/strata/infer"
	"github.com/strata-retrieval/strata/internal/testws"
	"github.com/strata-retrieval/strata/models"
)

// TestTrainMFAR trains mFAR's weights on prime, whose answers are named by
// their neighbours (the relation fields carry them), over an untrained
// hashed encoder, and checks that the weights moved off uniform, that
// the training loss fell, and that mFAR beats BM25 on the test split.
func TestTrainMFAR(t *testing.T) {
	ws := testws.Build(t, synth.Config{Preset: "prime", Nodes: 1500, Queries: 500, Seed: 4})
	enc, err := models.NewEncoder(models.EncoderConfig{}, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	te, _ := infer.DenseTextEncoder(&infer.DenseChannel{Encoder: enc})
	run := t.TempDir()
	m, r, err := TrainMFAR(context.Background(), ws, te, MFAROptions{Train: Config{Epochs: 3, BatchSize: 32, LR: 1e-2, Seed: 3},
		Run: Options{RunDir: run, Fingerprint: ws.Fingerprint}})
	if err != nil {
		t.Fatal(err)
	}
	mf, _ := SplitMetrics(context.Background(), ws, m, "test")
	bm, _ := registry.NewMethod(infer.NewEnv(context.Background(), ws), "bm25")
	base, _ := SplitMetrics(context.Background(), ws, bm, "test")
	t.Logf("best %s; mfar %v; bm25 %v", r.Best, mf, base)
	if mf["test/mrr"] < base["test/mrr"]+0.05 {
		t.Errorf("mFAR mrr %.4f, BM25 %.4f", mf["test/mrr"], base["test/mrr"])
	}
	w, _ := m.Weights(ws.SKB.QA.Queries[0].Text)
	if w[0].Weight < 2.0/float32(len(w)) {
		t.Errorf("weights stayed near uniform: %v", w[:3])
	}
}
