package train

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/nlpodyssey/spago/mat"
	"github.com/nlpodyssey/spago/nn"
	"github.com/nlpodyssey/spago/optimizers/adam"
)

// TestAdamWMatchesSpago runs the trainer's optimizer and spago's
// optimizers/adam side by side for several steps on the same parameters and
// gradients (with and without weight decay, a learning rate changed every
// step as the schedule does, sizes not a multiple of 8) and requires
// bit-identical parameters and moments.
func TestAdamWMatchesSpago(t *testing.T) {
	for _, lambda := range []float64{0.01, 0} {
		r := rand.New(rand.NewPCG(7, uint64(lambda*100)))
		sizes := []int{1, 7, 33, 300}
		var mine, ref []*nn.Param
		for _, n := range sizes {
			w := make([]float32, n)
			for i := range w {
				w[i] = float32(r.NormFloat64())
			}
			mine = append(mine, nn.NewParam(mat.NewDense[float32](mat.WithShape(n), mat.WithBacking(append([]float32(nil), w...)))))
			ref = append(ref, nn.NewParam(mat.NewDense[float32](mat.WithShape(n), mat.WithBacking(append([]float32(nil), w...)))))
		}
		const lr, b1, b2, eps = 3e-3, 0.9, 0.999, 1e-8
		o := newAdamW(lr, b1, b2, eps, lambda)
		sp := adam.New(adam.NewAdamWConfig(lr, b1, b2, eps, lambda))
		for step := 0; step < 9; step++ {
			for k, n := range sizes {
				g := make([]float32, n)
				for i := range g {
					g[i] = float32(r.NormFloat64() * math.Pow(10, float64(r.IntN(7)-4)))
				}
				mine[k].AccGrad(mat.NewDense[float32](mat.WithShape(n), mat.WithBacking(append([]float32(nil), g...))))
				ref[k].AccGrad(mat.NewDense[float32](mat.WithShape(n), mat.WithBacking(g)))
			}
			lrNow := lr * (1 - float64(step)/12)
			ts := float64(o.TimeStep)
			if o.TimeStep != sp.TimeStep {
				t.Fatalf("time steps %d vs spago %d", o.TimeStep, sp.TimeStep)
			}
			o.Alpha = lrNow * math.Sqrt(1-math.Pow(b2, ts)) / (1 - math.Pow(b1, ts))
			sp.Alpha = o.Alpha
			for k := range sizes {
				if err := o.step(mine[k]); err != nil {
					t.Fatal(err)
				}
				if err := sp.OptimizeParams(ref[k]); err != nil {
					t.Fatal(err)
				}
				if mine[k].HasGrad() {
					t.Fatal("the gradient was not cleared")
				}
			}
			o.inc()
			sp.IncExample()
			for k := range sizes {
				st := ref[k].State.(*adam.State)
				ms := mine[k].State.(*adamState)
				for name, pair := range map[string][2][]float32{
					"w":  {mat.Data[float32](mine[k]), mat.Data[float32](ref[k])},
					"m1": {ms.m1, mat.Data[float32](st.V)},
					"m2": {ms.m2, mat.Data[float32](st.M)},
				} {
					for i := range pair[0] {
						if math.Float32bits(pair[0][i]) != math.Float32bits(pair[1][i]) {
							t.Fatalf("λ=%g step %d param %d %s[%d]: %v, spago %v", lambda, step, k, name, i, pair[0][i], pair[1][i])
						}
					}
				}
			}
		}
	}
}
