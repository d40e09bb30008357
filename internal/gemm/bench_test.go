package gemm

import (
	"fmt"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/strata-retrieval/strata/internal/gemm/gemmbench"
)

// benchShape is one GEMM of strata's, C[m×n] = op(A)·op(B) over k.
type benchShape struct {
	name    string
	tA, tB  Transpose
	m, n, k int
}

// strataShapes are the products strata's hot loops run (row-major, as the
// call sites pass them).
var strataShapes = []benchShape{
	{"square-1024", NoTrans, NoTrans, 1024, 1024, 1024},
	// data/index.SearchDense: 256 queries × a 1024-row document block, dim 128.
	{"dense-topk-block", NoTrans, Trans, 256, 1024, 128},
	// models.Qwen3, BenchmarkQwen3Throughput's model (hidden 256, MLP 768,
	// 8/4 heads of 32), 8 × 256 tokens: q/o, k/v, gate/up, down projections.
	{"qwen3-tiny-q", NoTrans, Trans, 2048, 256, 256},
	{"qwen3-tiny-kv", NoTrans, Trans, 2048, 128, 256},
	{"qwen3-tiny-up", NoTrans, Trans, 2048, 768, 256},
	{"qwen3-tiny-down", NoTrans, Trans, 2048, 256, 768},
	// models.LoRA's backward dx = dy·W (hidden 256 -> MLP 768).
	{"lora-tiny-dx", NoTrans, NoTrans, 2048, 256, 768},
	// Qwen3-0.6B (hidden 1024, 16/8 heads of 128, MLP 3072), 512 tokens.
	{"qwen3-0.6b-q", NoTrans, Trans, 512, 2048, 1024},
	{"qwen3-0.6b-kv", NoTrans, Trans, 512, 1024, 1024},
	{"qwen3-0.6b-o", NoTrans, Trans, 512, 1024, 2048},
	{"qwen3-0.6b-up", NoTrans, Trans, 512, 3072, 1024},
	{"qwen3-0.6b-down", NoTrans, Trans, 512, 1024, 3072},
	// models.Gate (BenchmarkGateTrainStep: in 128, hidden 256, out 16, batch
	// 256): forward x·W1ᵀ, h·W2ᵀ; backward gzᵀ·h, gz·W2, ghᵀ·x.
	{"gate-fwd1", NoTrans, Trans, 256, 256, 128},
	{"gate-fwd2", NoTrans, Trans, 256, 16, 256},
	{"gate-gW2", Trans, NoTrans, 16, 256, 256},
	{"gate-gh", NoTrans, NoTrans, 256, 256, 16},
	{"gate-gW1", Trans, NoTrans, 256, 128, 256},
	// CoR's gates (hidden 64) on 128-dimensional queries, batch 256.
	{"cor-gate-fwd1", NoTrans, Trans, 256, 64, 128},
	{"cor-gate-gW1", Trans, NoTrans, 64, 128, 256},
	// models.Encoder (emb 128 -> out 128), a batch of 256 and of 4096 texts:
	// forward pooled·Projᵀ, backward gyᵀ·pooled and gy·Proj.
	{"encoder-fwd-256", NoTrans, Trans, 256, 128, 128},
	{"encoder-gProj-256", Trans, NoTrans, 128, 128, 256},
	{"encoder-gp-256", NoTrans, NoTrans, 256, 128, 128},
	{"encoder-fwd-4096", NoTrans, Trans, 4096, 128, 128},
}

func (s benchShape) operands() (a []float32, lda int, b []float32, ldb int, c []float32) {
	r := rand.New(rand.NewPCG(1, 1))
	lda, ldb = s.k, s.n
	if s.tA {
		lda = s.m
	}
	if s.tB {
		ldb = s.k
	}
	a, b, c = make([]float32, s.m*s.k), make([]float32, s.k*s.n), make([]float32, s.m*s.n)
	for i := range a {
		a[i] = r.Float32() - 0.5
	}
	for i := range b {
		b[i] = r.Float32() - 0.5
	}
	return
}

// BenchmarkSgemm runs the active kernel (Impl) on every strata shape, on
// all cores, and reports GFLOP/s beside OpenBLAS's peak (of-peak),
// OpenBLAS at the same shape and gonum blas32 at the same shape.
// STRATA_BENCH_REFS=0 skips the per-shape references (a quicker run).
func BenchmarkSgemm(b *testing.B) {
	refs := os.Getenv("STRATA_BENCH_REFS") != "0"
	for _, s := range strataShapes {
		b.Run(fmt.Sprintf("%s/%v%v-m=%d-n=%d-k=%d", s.name, s.tA, s.tB, s.m, s.n, s.k), func(b *testing.B) {
			a, lda, bb, ldb, c := s.operands()
			flops := 2 * float64(s.m) * float64(s.n) * float64(s.k)
			gemmbench.Peak() // measured before the timed loop, once per process
			b.ResetTimer()
			for range b.N {
				Sgemm(s.tA, s.tB, s.m, s.n, s.k, 1, a, lda, bb, ldb, 0, c, s.n)
			}
			b.StopTimer()
			ref := map[string]float64{}
			if refs {
				if g, err := gemmbench.OpenBLAS(bool(s.tA), bool(s.tB), s.m, s.n, s.k); err == nil {
					ref["openblas"] = g
				}
				ref["gonum"] = gemmbench.Gonum(bool(s.tA), bool(s.tB), s.m, s.n, s.k)
			}
			gemmbench.Report(b, flops, ref)
		})
	}
}

// BenchmarkKernels compares the micro-kernels this CPU runs (AVX-512,
// AVX2, Go) on one core and on all, at a square and a dense top-k shape.
func BenchmarkKernels(b *testing.B) {
	for _, s := range []benchShape{strataShapes[0], strataShapes[1], strataShapes[7]} {
		for _, kn := range kernels {
			for _, threads := range []int{1, 0} {
				b.Run(fmt.Sprintf("%s/%s/threads=%d", s.name, kn.name, threads), func(b *testing.B) {
					a, lda, bb, ldb, c := s.operands()
					gemmbench.Peak()
					b.ResetTimer()
					for range b.N {
						sgemm(kn, threads, s.tA, s.tB, s.m, s.n, s.k, 1, a, lda, bb, ldb, 0, c, s.n)
					}
					b.StopTimer()
					gemmbench.Report(b, 2*float64(s.m)*float64(s.n)*float64(s.k), nil)
				})
			}
		}
	}
}
