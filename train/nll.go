package train

import (
	"fmt"
	"math"

	"github.com/nlpodyssey/spago/ag"
	"github.com/nlpodyssey/spago/mat"
)

// NLL is the mean negative log-likelihood −log p[b][label[b]] of
// probabilities probs [rows, cols] (a softmax output, such as a gate's).
func NLL(probs mat.Tensor, cols int, labels []int) (mat.Tensor, error) {
	n := probs.Value().Size()
	if cols <= 0 || n != len(labels)*cols || n == 0 {
		return nil, fmt.Errorf("train: NLL: %d probabilities for %d rows of %d", n, len(labels), cols)
	}
	for r, l := range labels {
		if l < 0 || l >= cols {
			return nil, fmt.Errorf("train: NLL: row %d label %d outside [0, %d)", r, l, cols)
		}
	}
	return ag.NewOperator(&nllFn{p: probs, cols: cols, labels: labels}).Run(), nil
}

type nllFn struct {
	p      mat.Tensor
	cols   int
	labels []int
}

// floor keeps log finite when a probability underflows.
const nllFloor = 1e-12

func (f *nllFn) Operands() []mat.Tensor { return []mat.Tensor{f.p} }

func (f *nllFn) Forward() (mat.Tensor, error) {
	p := dataOf(f.p)
	var s float64
	for r, l := range f.labels {
		s -= math.Log(math.Max(float64(p[r*f.cols+l]), nllFloor))
	}
	return scalar(s / float64(len(f.labels))), nil
}

func (f *nllFn) Backward(gy mat.Tensor) error {
	if !f.p.RequiresGrad() {
		return nil
	}
	g := float64(mat.Data[float32](gy)[0]) / float64(len(f.labels))
	p := dataOf(f.p)
	out := make([]float32, len(p))
	for r, l := range f.labels {
		out[r*f.cols+l] = float32(-g / math.Max(float64(p[r*f.cols+l]), nllFloor))
	}
	f.p.AccGrad(gradOf(out, f.p.Value().Shape()))
	return nil
}
