package models

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/nlpodyssey/spago/mat"
)

func TestTrajectoryGradients(t *testing.T) {
	r := rand.New(rand.NewPCG(6, 6))
	m, err := NewTrajectoryReranker(TrajectoryConfig{NodeTypes: 3, UseTF: true, UseSF: true, UseTI: true}, r)
	if err != nil {
		t.Fatal(err)
	}
	for i, d := 0, m.Bt.Data(); i < len(d); i++ {
		d[i] = float32(r.NormFloat64() * 0.3)
	}
	in := []TrajectoryInput{
		{TF: [4]float32{0, 1.5, 0.2, 0.7}, Types: [3]int32{-1, 2, 0}, Codes: [3]int8{0, 1, 2}},
		{TF: [4]float32{0, 0, 0, 0.4}, Types: [3]int32{-1, -1, 1}, Codes: [3]int8{0, 0, 1}},
		{TF: [4]float32{0.3, 0.9, 1.1, -0.2}, Types: [3]int32{1, 2, 0}, Codes: [3]int8{1, 2, 2}},
	}
	gy := []float32{0.7, -1.2, 0.4}
	fn := &trajFn{m: m, in: in}
	fn.Forward()
	fn.Backward(grad(slices.Clone(gy), 3))
	loss := func() float64 {
		s := m.Score(in)
		var l float64
		for i := range s {
			l += float64(s[i]) * float64(gy[i])
		}
		return l
	}
	for _, p := range m.Params() {
		an := slices.Clone(mat.Data[float32](p.Param.Grad()))
		d := p.Data()
		// every row touched by the inputs, and a sample of the others
		base := loss()
		for j := 0; j < len(d); j += 1 + len(d)/300 {
			orig := d[j]
			d[j] = orig + 1e-3
			up := loss()
			d[j] = orig - 1e-3
			down := loss()
			d[j] = orig
			fd := (up - down) / 2e-3
			// Skip a ReLU kink: the one-sided slopes disagree there.
			if math.Abs((up-base)-(base-down))/1e-3 > 1e-3+1e-2*math.Abs(fd) {
				continue
			}
			if math.Abs(fd-float64(an[j])) > 3e-3*math.Max(1, math.Abs(fd)) {
				t.Errorf("%s[%d]: analytic %.6g, finite difference %.6g", p.Name, j, an[j], fd)
			}
		}
	}
	// Feature ablations zero their block: without TF the score ignores TF.
	noTF, _ := NewTrajectoryReranker(TrajectoryConfig{NodeTypes: 3, UseSF: true, UseTI: true}, rand.New(rand.NewPCG(1, 1)))
	a := noTF.Score(in[:1])
	in2 := slices.Clone(in[:1])
	in2[0].TF = [4]float32{9, 9, 9, 9}
	if b := noTF.Score(in2); a[0] != b[0] {
		t.Errorf("TF ablation still reads TF: %v vs %v", a, b)
	}
}
