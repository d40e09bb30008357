package onnx

import (
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/strata-retrieval/strata/infer/onnxg"
	"github.com/strata-retrieval/strata/models"
)

func tinyQwen3(t testing.TB, tied bool, seed uint64) *models.Qwen3 {
	t.Helper()
	cfg := models.Qwen3Config{VocabSize: 97, HiddenSize: 32, IntermediateSize: 48, NumLayers: 2, NumHeads: 4, NumKVHeads: 2,
		HeadDim: 8, RMSNormEps: 1e-6, RopeTheta: 1e6, TieEmbeddings: tied, MaxPositions: 64}
	m, err := models.RandomQwen3(cfg, rand.New(rand.NewPCG(seed, 5)), 0.3, 0.3)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// runQwen3ONNX scores right-padded sequences with ONNX Runtime.
func runQwen3ONNX(t testing.TB, path string, seqs [][]int) (logits, scores []float32) {
	t.Helper()
	s, err := NewSession(path, []string{"input_ids", "position_ids", "last_index"}, []string{"logits", "score"}, Options{Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	outs, err := RunQwen3Session(s, seqs)
	if err != nil {
		t.Fatal(err)
	}
	return outs[0], outs[1]
}

// TestQwen3ONNXParity exports tiny random Qwen3 rerankers (GQA 4/2, tied
// and separate heads) and checks ONNX Runtime's yes/no logits and scores
// against the native forward on a right-padded batch.
func TestQwen3ONNXParity(t *testing.T) {
	needORT(t)
	seqs := [][]int{{3, 14, 15, 92, 65, 35, 89, 79}, {2, 71}, {8, 28, 18, 28, 45, 90, 45, 23, 53, 60, 28}}
	const yes, no = 11, 13
	for _, tied := range []bool{true, false} {
		// The separate-head model is written with external data (as models
		// over 2 GB are), the tied one inline.
		save := onnxg.SaveOptions{}
		if !tied {
			save.ExternalThreshold = -1
		}
		m := tinyQwen3(t, tied, 7)
		g, err := Qwen3Graph(m, yes, no, 0)
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(t.TempDir(), "model.onnx")
		if err := g.SaveWith(path, save); err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(path + ".data"); tied == (err == nil) {
			t.Fatalf("tied=%v: external data file present = %v", tied, err == nil)
		}
		logits, scores := runQwen3ONNX(t, path, seqs)
		for b, q := range seqs {
			ref, err := m.Logits(q, []int{no, yes})
			if err != nil {
				t.Fatal(err)
			}
			for j := range 2 {
				if d := math.Abs(float64(logits[2*b+j] - ref[j])); d > 1e-4*math.Max(1, math.Abs(float64(ref[j]))) {
					t.Errorf("tied=%v seq %d logit %d: ONNX %v, native %v", tied, b, j, logits[2*b+j], ref[j])
				}
			}
			s, _ := m.RerankScore(q, yes, no)
			if math.Abs(float64(scores[b]-s)) > 1e-5 {
				t.Errorf("tied=%v seq %d: score ONNX %v, native %v", tied, b, scores[b], s)
			}
		}
	}
}
