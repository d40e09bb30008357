package train

import (
	"context"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/strata-retrieval/strata/checkpoints"
	"github.com/strata-retrieval/strata/models"
	"github.com/strata-retrieval/strata/reranker"
	"github.com/strata-retrieval/strata/reranker/bpe"
)

func qwen3Tokenizer(t *testing.T) *bpe.Tokenizer {
	p, ok := bpe.Qwen3Path()
	if !ok {
		t.Skip("Qwen3 tokenizer.json absent: run make test")
	}
	tok, err := bpe.Load(p)
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

// TestTrainLLMReranker fine-tunes LoRA adapters of a tiny random
// Qwen3-architecture base (the real Qwen3 vocabulary) on listwise records
// whose positive carries a marker phrase, and checks that the
// training loss falls and that checkpoints hold only the adapters.
func TestTrainLLMReranker(t *testing.T) {
	tok := qwen3Tokenizer(t)
	cfg := models.Qwen3Config{VocabSize: tok.VocabSize(), HiddenSize: 32, IntermediateSize: 64, NumLayers: 2, NumHeads: 4, NumKVHeads: 2,
		HeadDim: 8, RMSNormEps: 1e-6, RopeTheta: 1e6, TieEmbeddings: true, MaxPositions: 256}
	r := rand.New(rand.NewPCG(1, 2))
	base, err := models.RandomQwen3(cfg, r, 0.3, 0.3)
	if err != nil {
		t.Fatal(err)
	}
	colours := []string{"red", "blue", "green", "black", "white", "yellow", "purple", "orange"}
	var recs []reranker.Record
	for i := range 24 {
		c := colours[i%len(colours)]
		rec := reranker.Record{QID: i, Query: "a " + c + " kettle"}
		rec.Positives = []reranker.Doc{{ID: 1, Text: "[product] " + c + " kettle, exactly as asked"}}
		for j, o := range colours {
			if o != c {
				rec.Negatives = append(rec.Negatives, reranker.Doc{ID: uint32(10 + j), Text: "[product] " + o + " kettle"})
			}
		}
		recs = append(recs, rec)
	}
	run := t.TempDir()
	_, res, err := LLMReranker(context.Background(), base, tok, recs, recs[:8], LLMRerankerOptions{
		LoRA: models.LoRAConfig{Rank: 4, Alpha: 8}, Group: 4, MaxLen: 96, Instruction: "Judge the product", // short: a 96-token prompt keeps room for the document
		Train: Config{Epochs: 6, BatchSize: 4, LR: 5e-2, Seed: 3, CheckpointEvery: 12},
		Run:   Options{RunDir: run, Fingerprint: "test"}})
	if err != nil {
		t.Fatal(err)
	}
	first, err := checkpoints.ReadManifest(filepath.Join(run, checkpoints.StepDir(12)))
	if err != nil {
		t.Fatal(err)
	}
	last, err := checkpoints.ReadManifest(filepath.Join(run, checkpoints.StepDir(res.Steps)))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("steps %d: train/loss %.4f -> %.4f, val %v -> %v", res.Steps, first.Metrics["train/loss"], last.Metrics["train/loss"], first.Metrics, last.Metrics)
	if last.Metrics["train/loss"] >= first.Metrics["train/loss"]-0.1 {
		t.Errorf("train/loss %.4f -> %.4f", first.Metrics["train/loss"], last.Metrics["train/loss"])
	}
	ck, err := checkpoints.Load(filepath.Join(run, checkpoints.StepDir(res.Steps)))
	if err != nil {
		t.Fatal(err)
	}
	if want := 2 * 7 * cfg.NumLayers; len(ck.Model) != want {
		t.Errorf("checkpoint holds %d tensors, want the %d adapters", len(ck.Model), want)
	}
	for _, tn := range ck.Model {
		if len(tn.Name) < 5 || tn.Name[:5] != "lora." {
			t.Errorf("checkpoint tensor %s is not an adapter", tn.Name)
		}
	}
}
