package train

import (
	"bytes"
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/strata-retrieval/strata/checkpoints"
	"github.com/strata-retrieval/strata/data/synth"
	"github.com/strata-retrieval/strata/infer"
	"github.com/strata-retrieval/strata/infer/mfar"
	"github.com/strata-retrieval/strata/infer/registry"
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
	m, r, err := MFAR(context.Background(), ws, te, MFAROptions{Train: Config{Epochs: 3, BatchSize: 32, LR: 1e-2, Seed: 3},
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

// TestTrainMFARFineTuned trains mFAR with its encoder fine-tuned together
// with the weights (a small hashed encoder): the encoder it was given is
// left alone, its copy moves, two runs write identical checkpoints, and
// the best checkpoint loaded through the registry (encoder weights from
// the checkpoint, fields re-encoded) scores the val split exactly as the
// run recorded.
func TestTrainMFARFineTuned(t *testing.T) {
	ws := testws.Build(t, synth.Config{Preset: "prime", Nodes: 800, Queries: 200, Seed: 4})
	enc, err := models.NewEncoder(models.EncoderConfig{Buckets: 4096, EmbDim: 16, OutDim: 16}, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	orig := slices.Clone(enc.Emb.Data())
	train := func() (string, *Result) {
		run := t.TempDir()
		_, r, err := MFAR(context.Background(), ws, nil, MFAROptions{Train: Config{Epochs: 2, BatchSize: 16, LR: 1e-2, Seed: 3},
			Run: Options{RunDir: run, Fingerprint: ws.Fingerprint}, Tune: enc})
		if err != nil {
			t.Fatal(err)
		}
		return run, r
	}
	run, r := train()
	if !slices.Equal(enc.Emb.Data(), orig) {
		t.Error("the given encoder was trained in place")
	}
	run2, _ := train()
	a, _ := os.ReadFile(filepath.Join(run, r.Best, checkpoints.ModelFile))
	b, _ := os.ReadFile(filepath.Join(run2, r.Best, checkpoints.ModelFile))
	if len(a) == 0 || !bytes.Equal(a, b) {
		t.Fatalf("two runs differ (%d and %d bytes)", len(a), len(b))
	}
	env := infer.NewEnv(context.Background(), ws) // no dense channel: the encoder is the checkpoint's
	loaded, err := registry.Load(env, filepath.Join(run, r.Best))
	if err != nil {
		t.Fatal(err)
	}
	mf := loaded.(*mfar.Method)
	if mf.Tuned == nil || slices.Equal(mf.Tuned.Emb.Data(), orig) {
		t.Fatal("the loaded model has no fine-tuned encoder, or an untrained one")
	}
	got, err := SplitMetrics(context.Background(), ws, loaded, "val")
	if err != nil {
		t.Fatal(err)
	}
	if got["val/mrr"] != r.BestValue {
		t.Errorf("reloaded val mrr %.6f, the run recorded %.6f", got["val/mrr"], r.BestValue)
	}
}
