package train

import (
	"fmt"
	"math"

	"github.com/nlpodyssey/spago/mat"
	"github.com/nlpodyssey/spago/nn"

	"github.com/strata-retrieval/strata/internal/vec"
)

// adamW is the trainer's optimizer: spago's optimizers/adam (AdamW when
// λ > 0, Adam otherwise) computed in one pass over each parameter. It runs
// the same float32 operations in the same order as spago's
//
//	m1 = m1·β1 + g·(1−β1)
//	m2 = m2·β2 + (g·g)·(1−β2)
//	w  = w − α·(m1 / (√m2 + ε) + λ·w)
//
// with every constant rounded to float32 first, as spago does, and every
// product rounded before it is added (vec.AdamStep: eight values at a time
// with AVX2), so a step gives bit-identical parameters and moments
// (TestAdamWMatchesSpago), without spago's five whole-parameter temporaries
// per step: on the gate's training step spago's optimizer took more time
// than the gate's forward and backward together.
type adamW struct {
	b1, b2, c1, c2 float32 // β1, β2, 1−β1, 1−β2
	eps, lambda    float32
	decay          bool // λ ≠ 0: spago's AdamW path, which adds λ·w
	// Alpha is the step size of the next update (the trainer sets it from
	// the schedule and the bias corrections); TimeStep counts updates from
	// 1, as spago's.
	Alpha    float64
	TimeStep int
}

// adamState is a parameter's first (m1) and second (m2) moments.
type adamState struct{ m1, m2 []float32 }

func newAdamW(lr, beta1, beta2, eps, lambda float64) *adamW {
	o := &adamW{
		b1: float32(beta1), b2: float32(beta2), c1: float32(1 - beta1), c2: float32(1 - beta2),
		eps: float32(eps), lambda: float32(lambda), decay: lambda != 0,
		TimeStep: 1,
	}
	o.Alpha = lr * math.Sqrt(1-math.Pow(beta2, 1)) / (1 - math.Pow(beta1, 1))
	return o
}

// step updates p from its gradient and clears the gradient.
func (o *adamW) step(p *nn.Param) error {
	w := mat.Data[float32](p)
	g := mat.Data[float32](p.Grad())
	if len(g) != len(w) {
		return fmt.Errorf("train: optimizer: gradient of %d values for a parameter of %d", len(g), len(w))
	}
	s, _ := p.State.(*adamState)
	if s == nil {
		s = &adamState{m1: make([]float32, len(w)), m2: make([]float32, len(w))}
		p.State = s
	}
	vec.AdamStep(w, g, s.m1, s.m2, vec.Adam{B1: o.b1, C1: o.c1, B2: o.b2, C2: o.c2, Eps: o.eps,
		Lambda: o.lambda, Alpha: float32(o.Alpha), Decay: o.decay})
	p.ZeroGrad()
	return nil
}

// inc counts one update.
func (o *adamW) inc() { o.TimeStep++ }
