package train

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/nlpodyssey/spago/ag"
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas32"

	"github.com/strata-retrieval/strata/internal/gemm/gemmbench"
	"github.com/strata-retrieval/strata/models"
)

// gemmPeak measures float32 GEMM GFLOP/s with gonum's blas32 on an n×n×n
// product, reported beside the machine's peak (OpenBLAS, gemmbench).
func gemmPeak(n int) float64 {
	a := make([]float32, n*n)
	for i := range a {
		a[i] = float32(i%7) * 0.1
	}
	A := blas32.General{Rows: n, Cols: n, Stride: n, Data: a}
	C := blas32.General{Rows: n, Cols: n, Stride: n, Data: make([]float32, n*n)}
	best := 0.0
	for rep := 0; rep < 3; rep++ {
		t := time.Now()
		blas32.Gemm(blas.NoTrans, blas.NoTrans, 1, A, A, 0, C)
		best = max(best, 2*float64(n)*float64(n)*float64(n)/time.Since(t).Seconds()/1e9)
	}
	return best
}

// BenchmarkGateTrainStep measures one full training step of a gate (fused
// forward, MSE, backward, AdamW on every parameter) at several batch sizes,
// reporting examples/s and the achieved GFLOP/s (forward 2·B·(In·H + H·K),
// backward twice that) as a fraction of the machine's float32 GEMM peak,
// OpenBLAS's sgemm measured in the same process (gemmbench), with gonum's
// square GEMM beside it.
func BenchmarkGateTrainStep(b *testing.B) {
	const in, hidden, out = 128, 256, 16
	peak := gemmPeak(1024) // gonum blas32's square GEMM, beside OpenBLAS's peak
	for _, batch := range []int{64, 256, 1024} {
		b.Run(fmt.Sprintf("batch=%d", batch), func(b *testing.B) {
			r := rand.New(rand.NewPCG(1, 1))
			g, _ := models.NewGate(models.GateConfig{In: in, Hidden: hidden, Out: out}, "g", r)
			x := make([]float32, batch*in)
			y := make([]float32, batch*out)
			for i := range x {
				x[i] = float32(r.NormFloat64())
			}
			for i := 0; i < batch; i++ {
				y[i*out+r.IntN(out)] = 1
			}
			opt := newAdamW(1e-3, 0.9, 0.999, 1e-8, 0.01) // the trainer's optimizer
			gemmbench.Peak()                              // measured once per process, outside the timer
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				loss, _ := MSE(g.Op(x, batch), y)
				if err := ag.Backward(loss); err != nil {
					b.Fatal(err)
				}
				for _, p := range g.Params() {
					if err := opt.step(p.Param); err != nil {
						b.Fatal(err)
					}
				}
				opt.inc()
			}
			b.StopTimer()
			flops := 3 * 2 * float64(batch) * float64(in*hidden+hidden*out)
			b.ReportMetric(float64(batch*b.N)/b.Elapsed().Seconds(), "examples/s")
			gemmbench.Report(b, flops, map[string]float64{"gonum-gemm": peak})
		})
	}
}
