package train

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/strata-retrieval/strata/models"
	"github.com/strata-retrieval/strata/reranker"
)

// TestLLMRerankerTaskChecksTokens: prompts whose token ids lie outside the
// base model's vocabulary (a tokenizer that does not belong to the model)
// make Loss return an error naming the group and the id; they used to
// reach the listwise operator, where spago ends the process.
func TestLLMRerankerTaskChecksTokens(t *testing.T) {
	tok := qwen3Tokenizer(t)
	cfg := models.Qwen3Config{VocabSize: 1000, HiddenSize: 16, IntermediateSize: 32, NumLayers: 1, NumHeads: 2, NumKVHeads: 1,
		HeadDim: 8, RMSNormEps: 1e-6, RopeTheta: 1e6, TieEmbeddings: true, MaxPositions: 256}
	base, err := models.RandomQwen3(cfg, rand.New(rand.NewPCG(1, 2)), 0.3, 0.3)
	if err != nil {
		t.Fatal(err)
	}
	l, err := models.NewLoRA(base, models.LoRAConfig{Rank: 2, Alpha: 4}, rand.New(rand.NewPCG(3, 4)))
	if err != nil {
		t.Fatal(err)
	}
	p, err := reranker.NewPromptTokenizer(tok, "Judge the product", 96)
	if err != nil {
		t.Fatal(err)
	}
	rec := reranker.Record{QID: 1, Query: "a red kettle",
		Positives: []reranker.Doc{{ID: 1, Text: "[product] red kettle"}},
		Negatives: []reranker.Doc{{ID: 2, Text: "[product] blue kettle"}}}
	task := &LLMRerankerTask{L: l, P: p, Records: []reranker.Record{rec}, G: 2, Yes: 10, No: 11}
	_, err = task.Loss([]int{0}, rand.New(rand.NewPCG(5, 6)))
	if err == nil || !strings.HasPrefix(err.Error(), "group 0, sequence 0: models: LoRA: token 0 of ") || !strings.Contains(err.Error(), "outside the vocabulary of 1000") {
		t.Errorf("Loss: %v, want an error naming the token outside the vocabulary of 1000", err)
	}
}
