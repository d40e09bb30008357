package onnx

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/strata-retrieval/strata/models"
)

// BenchmarkQwen3Throughput measures tokens/s of the native forward and of
// ONNX Runtime (CPU, all cores) on the same random Qwen3-architecture
// model (4 layers, hidden 256, 8/4 heads of 32, MLP 768, vocabulary 8,192)
// and the same batch (8 sequences of 256 tokens), scoring the last token.
func BenchmarkQwen3Throughput(b *testing.B) {
	needORT(b)
	cfg := models.Qwen3Config{VocabSize: 8192, HiddenSize: 256, IntermediateSize: 768, NumLayers: 4, NumHeads: 8, NumKVHeads: 4,
		HeadDim: 32, RMSNormEps: 1e-6, RopeTheta: 1e6, TieEmbeddings: true, MaxPositions: 512}
	qwen3Throughput(b, cfg, 8, 256)
}

// BenchmarkQwen3ThroughputBig is the same at Qwen3-0.6B's dimensions
// (random weights: 28 layers, hidden 1024, 16/8 heads of 128, MLP 3072,
// vocabulary 151,669; the ONNX weights go to an external data file) on 2
// sequences of 512 tokens. Minutes and about 8 GB: only with
// STRATA_BENCH_BIG=1.
func BenchmarkQwen3ThroughputBig(b *testing.B) {
	if os.Getenv("STRATA_BENCH_BIG") != "1" {
		b.Skip("set STRATA_BENCH_BIG=1 to run Qwen3-0.6B's dimensions")
	}
	needORT(b)
	cfg := models.Qwen3Config{VocabSize: 151669, HiddenSize: 1024, IntermediateSize: 3072, NumLayers: 28, NumHeads: 16, NumKVHeads: 8,
		HeadDim: 128, RMSNormEps: 1e-6, RopeTheta: 1e6, TieEmbeddings: true, MaxPositions: 1024}
	qwen3Throughput(b, cfg, 2, 512)
}

func qwen3Throughput(b *testing.B, cfg models.Qwen3Config, nseq, T int) {
	r := rand.New(rand.NewPCG(1, 1))
	m, err := models.RandomQwen3(cfg, r, 0.05, 0)
	if err != nil {
		b.Fatal(err)
	}
	seqs := make([][]int, nseq)
	for i := range seqs {
		seqs[i] = make([]int, T)
		for j := range seqs[i] {
			seqs[i][j] = r.IntN(cfg.VocabSize)
		}
	}
	tokens := float64(nseq * T)
	g, err := Qwen3Graph(m, 5, 6, 0)
	if err != nil {
		b.Fatal(err)
	}
	path := filepath.Join(b.TempDir(), "model.onnx")
	if err := g.Save(path); err != nil {
		b.Fatal(err)
	}
	s, err := NewSession(path, []string{"input_ids", "position_ids", "last_index"}, []string{"score"}, Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	var native, onnx time.Duration
	for b.Loop() {
		t0 := time.Now()
		for _, q := range seqs {
			if _, err := m.RerankScore(q, 5, 6); err != nil {
				b.Fatal(err)
			}
		}
		native += time.Since(t0)
		t0 = time.Now()
		if _, err := RunQwen3Session(s, seqs); err != nil {
			b.Fatal(err)
		}
		onnx += time.Since(t0)
	}
	n := float64(b.N)
	b.ReportMetric(tokens*n/native.Seconds(), "native-tok/s")
	b.ReportMetric(tokens*n/onnx.Seconds(), "ort-tok/s")
	b.ReportMetric(native.Seconds()/onnx.Seconds(), "ort-speedup")
}
