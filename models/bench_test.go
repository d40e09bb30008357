package models

import (
	"fmt"
	"math/rand/v2"
	"os"
	"syscall"
	"testing"
	"time"

	"github.com/nlpodyssey/spago/ag"

	"github.com/strata-retrieval/strata/internal/gemm/gemmbench"
)

// benchQwen3 is BenchmarkQwen3Throughput's model (infer/onnx, where the
// ONNX Runtime side runs): 4 layers, hidden 256, 8/4 heads of 32, MLP
// 768, vocabulary 8,192.
var benchQwen3 = Qwen3Config{VocabSize: 8192, HiddenSize: 256, IntermediateSize: 768, NumLayers: 4, NumHeads: 8, NumKVHeads: 4,
	HeadDim: 32, RMSNormEps: 1e-6, RopeTheta: 1e6, TieEmbeddings: true, MaxPositions: 4096}

// qwen3Dims is Qwen3-0.6B's architecture (random weights stand in).
var qwen3Dims = Qwen3Config{VocabSize: 151669, HiddenSize: 1024, IntermediateSize: 3072, NumLayers: 28, NumHeads: 16, NumKVHeads: 8,
	HeadDim: 128, RMSNormEps: 1e-6, RopeTheta: 1e6, TieEmbeddings: true, MaxPositions: 40960}

func benchSeqs(r *rand.Rand, vocab, n, T int) [][]int {
	seqs := make([][]int, n)
	for i := range seqs {
		seqs[i] = make([]int, T)
		for j := range seqs[i] {
			seqs[i][j] = r.IntN(vocab)
		}
	}
	return seqs
}

// qwen3Flops counts a forward pass's GEMM flops over one sequence of T
// tokens, the LoRA adapters of rank r included (r = 0: none); attention
// counts the causal pairs only. The lm-head's two rows are left out.
func qwen3Flops(c Qwen3Config, r, T int) (linear, lora, attn float64) {
	m := &Qwen3{Cfg: c}
	for _, s := range m.linearShapes() {
		linear += float64(s[0] * s[1])
		lora += float64(r * (s[0] + s[1]))
	}
	L, t := float64(c.NumLayers), float64(T)
	pairs := float64(c.NumHeads*c.HeadDim) * t * (t + 1) / 2
	return 2 * L * t * linear, 2 * L * t * lora, 2 * L * pairs
}

// loraStepFlops counts one listwise step's GEMM flops over seqs sequences
// of T tokens: the loss's forward, the backward's recomputed forward, and
// the backward (dx = dy·W, four adapter products per linear layer, five
// attention products).
func loraStepFlops(c Qwen3Config, r, seqs, T int) float64 {
	lin, lora, attn := qwen3Flops(c, r, T)
	fwd := lin + lora + 2*attn
	bwd := lin + 2*lora + 5*attn
	return float64(seqs) * (2*fwd + bwd)
}

// BenchmarkQwen3Forward measures the native forward (RerankScore, every
// position through the decoder) on 8 sequences of 256 tokens, reporting
// tokens/s and GFLOP/s against OpenBLAS's peak. The ONNX Runtime ratio is
// infer/onnx's BenchmarkQwen3Throughput, on the same model and batch.
func BenchmarkQwen3Forward(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 1))
	m, err := RandomQwen3(benchQwen3, r, 0.05, 0)
	if err != nil {
		b.Fatal(err)
	}
	seqs := benchSeqs(r, benchQwen3.VocabSize, 8, 256)
	gemmbench.Peak()
	b.ResetTimer()
	for range b.N {
		for _, q := range seqs {
			if _, err := m.RerankScore(q, 5, 6); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.StopTimer()
	lin, _, attn := qwen3Flops(benchQwen3, 0, 256)
	b.ReportMetric(float64(8*256*b.N)/b.Elapsed().Seconds(), "tokens/s")
	gemmbench.Report(b, 8*(lin+2*attn), nil)
}

// loraStep runs one listwise step (loss, backward) of l on groups.
func loraStep(b *testing.B, l *LoRA, groups []ListwiseGroup) {
	loss := l.ListwiseOp(groups, 5, 6)
	if err := ag.Backward(loss); err != nil {
		b.Fatal(err)
	}
	for _, p := range l.Params() {
		if !p.Param.HasGrad() {
			b.Fatalf("%s: no gradient", p.Name)
		}
		p.Param.ZeroGrad()
	}
}

func benchLoRA(b *testing.B, c Qwen3Config, rank, seqs, T int) (*LoRA, []ListwiseGroup) {
	r := rand.New(rand.NewPCG(2, 2))
	m, err := RandomQwen3(c, r, 0.02, 0)
	if err != nil {
		b.Fatal(err)
	}
	l, err := NewLoRA(m, LoRAConfig{Rank: rank, Alpha: 2 * float64(rank)}, r)
	if err != nil {
		b.Fatal(err)
	}
	for _, p := range l.Params() { // B non-zero, as after a few steps
		for i, d := 0, p.Data(); i < len(d); i++ {
			if d[i] == 0 {
				d[i] = float32(r.NormFloat64() * 0.01)
			}
		}
	}
	return l, []ListwiseGroup{{Seqs: benchSeqs(r, c.VocabSize, seqs, T), Positive: 0}}
}

// BenchmarkLoRAStep is the LoRA configuration (BenchmarkQwen3
// Forward's model, rank 32, one group of 8 prompts of 128 and of 256
// tokens): seconds per step and GFLOP/s against OpenBLAS's peak.
// scripts/lora_step_torch.py runs the same step in PyTorch.
func BenchmarkLoRAStep(b *testing.B) {
	for _, T := range []int{128, 256} {
		b.Run(fmt.Sprintf("seqs=8/T=%d/rank=32", T), func(b *testing.B) {
			l, groups := benchLoRA(b, benchQwen3, 32, 8, T)
			gemmbench.Peak()
			b.ResetTimer()
			for range b.N {
				loraStep(b, l, groups)
			}
			b.StopTimer()
			b.ReportMetric(b.Elapsed().Seconds()/float64(b.N), "s/step")
			gemmbench.Report(b, loraStepFlops(benchQwen3, 32, 8, T), nil)
		})
	}
}

// BenchmarkGateStep measures the gate's fused forward and backward
// (BenchmarkGateTrainStep's shapes, without the optimizer) as a fraction
// of OpenBLAS's peak: forward 2·B·(In·H + H·K), backward twice that.
func BenchmarkGateStep(b *testing.B) {
	const in, hidden, out = 128, 256, 16
	for _, batch := range []int{64, 256, 1024} {
		b.Run(fmt.Sprintf("batch=%d", batch), func(b *testing.B) {
			r := rand.New(rand.NewPCG(1, 1))
			g, _ := NewGate(GateConfig{In: in, Hidden: hidden, Out: out}, "g", r)
			x := randVec(r, batch*in, 1)
			gy := randVec(r, batch*out, 1)
			gemmbench.Peak()
			b.ResetTimer()
			for range b.N {
				p := g.Op(x, batch)
				// The output is not a scalar: ag.Backward needs its gradient
				// given, or it returns an error and runs no backward at all.
				p.AccGrad(grad(append([]float32(nil), gy...), batch, out))
				if err := ag.Backward(p); err != nil {
					b.Fatal(err)
				}
				for _, q := range g.Params() {
					if !q.Param.HasGrad() {
						b.Fatalf("%s: no gradient", q.Name)
					}
					q.Param.ZeroGrad()
				}
			}
			b.StopTimer()
			gemmbench.Report(b, 3*2*float64(batch)*float64(in*hidden+hidden*out), nil)
		})
	}
}

// BenchmarkQwen3Dims runs Qwen3-0.6B's dimensions (random weights): the
// forward's tokens/s on 2 prompts of 512 tokens, and one LoRA step (rank
// 32) on a group of 24 prompts of 512 tokens with its peak RSS. Minutes
// on 2 cores and several GiB: it runs only with STRATA_BENCH_BIG=1.
func BenchmarkQwen3Dims(b *testing.B) {
	if os.Getenv("STRATA_BENCH_BIG") != "1" {
		b.Skip("set STRATA_BENCH_BIG=1 to run Qwen3-0.6B's dimensions")
	}
	l, groups := benchLoRA(b, qwen3Dims, 32, 24, 512)
	b.Run("forward/seqs=2/T=512", func(b *testing.B) {
		for range b.N {
			for _, q := range groups[0].Seqs[:2] {
				if _, err := l.Base.RerankScore(q, 5, 6); err != nil {
					b.Fatal(err)
				}
			}
		}
		lin, _, attn := qwen3Flops(qwen3Dims, 0, 512)
		b.ReportMetric(float64(2*512*b.N)/b.Elapsed().Seconds(), "tokens/s")
		gemmbench.Report(b, 2*(lin+2*attn), nil)
	})
	b.Run("lora-step/seqs=24/T=512/rank=32", func(b *testing.B) {
		start := time.Now()
		for range b.N {
			loraStep(b, l, groups)
		}
		b.ReportMetric(time.Since(start).Seconds()/float64(b.N), "s/step")
		var ru syscall.Rusage
		if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) == nil {
			b.ReportMetric(float64(ru.Maxrss)/1024, "maxrss-MiB")
		}
		gemmbench.Report(b, loraStepFlops(qwen3Dims, 32, 24, 512), nil)
	})
}
