package models

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/nlpodyssey/spago/mat"
	"github.com/nlpodyssey/spago/nn"
)

// NamedParam is a trainable parameter with its checkpoint name.
type NamedParam struct {
	Name  string
	Shape []int
	Param *nn.Param
}

// Data returns the parameter's values as a float32 slice aliasing it.
func (p NamedParam) Data() []float32 { return mat.Data[float32](p.Param) }

// newParam allocates a float32 parameter of the given shape.
func newParam(shape ...int) *nn.Param {
	n := 1
	for _, d := range shape {
		n *= d
	}
	return nn.NewParam(mat.NewDense[float32](mat.WithShape(shape...), mat.WithBacking(make([]float32, n))))
}

// xavier fills w (fanOut × fanIn) with Glorot-uniform values from r.
func xavier(r *rand.Rand, w []float32, fanIn, fanOut int) {
	a := math.Sqrt(6 / float64(fanIn+fanOut))
	for i := range w {
		w[i] = float32((2*r.Float64() - 1) * a)
	}
}

// LoadParams copies named tensors into params; a missing or misshapen
// tensor is an error naming it.
func LoadParams(params []NamedParam, get func(name string) (shape []int, data []float32, ok bool)) error {
	for _, p := range params {
		shape, data, ok := get(p.Name)
		if !ok {
			return fmt.Errorf("models: checkpoint lacks tensor %q", p.Name)
		}
		if !sameShape(shape, p.Shape) {
			return fmt.Errorf("models: tensor %q has shape %v, the model wants %v", p.Name, shape, p.Shape)
		}
		copy(p.Data(), data)
	}
	return nil
}

// CheckShapes compares the shapes a config implies with a checkpoint's
// tensors before the model is built: a missing or misshapen tensor is an
// error naming it, so a config with absurd sizes is refused instead of
// allocated.
func CheckShapes(want []NamedShape, get func(name string) (shape []int, data []float32, ok bool)) error {
	for _, w := range want {
		shape, _, ok := get(w.Name)
		if !ok {
			return fmt.Errorf("models: checkpoint lacks tensor %q", w.Name)
		}
		if !sameShape(shape, w.Shape) {
			return fmt.Errorf("models: tensor %q has shape %v, the config implies %v", w.Name, shape, w.Shape)
		}
	}
	return nil
}

// paramOf allocates the parameter of a named shape.
func paramOf(s NamedShape) NamedParam { return NamedParam{s.Name, s.Shape, newParam(s.Shape...)} }

func sameShape(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// grad wraps a float32 gradient buffer as a tensor of the given shape.
func grad(data []float32, shape ...int) mat.Tensor {
	return mat.NewDense[float32](mat.WithShape(shape...), mat.WithBacking(data))
}
