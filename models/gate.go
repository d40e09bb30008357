package models

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"sync"

	"github.com/nlpodyssey/spago/ag"
	"github.com/nlpodyssey/spago/mat"

	"github.com/strata-retrieval/strata/internal/gemm"
	"github.com/strata-retrieval/strata/internal/parallel"
	"github.com/strata-retrieval/strata/internal/vec"
)

// GateConfig shapes a gate: In inputs, Hidden units, Out softmax outputs.
type GateConfig struct {
	In     int `json:"in"`
	Hidden int `json:"hidden"`
	Out    int `json:"out"`
}

// Gate is a two-layer MLP with a softmax output, as CoRAG's gates:
// p = softmax(W2 · relu(W1 · x + b1) + b2).
type Gate struct {
	Config GateConfig
	W1     NamedParam // [Hidden, In]
	B1     NamedParam // [Hidden]
	W2     NamedParam // [Out, Hidden]
	B2     NamedParam // [Out]

	pool sync.Pool // *gateScratch of Op's training steps
}

// NewGate returns a gate with Glorot-uniform weights drawn from r and zero
// biases; prefix names its parameters in checkpoints.
func NewGate(cfg GateConfig, prefix string, r *rand.Rand) (*Gate, error) {
	if cfg.In <= 0 || cfg.Hidden <= 0 || cfg.Out <= 0 {
		return nil, fmt.Errorf("models: gate shape %+v must be positive", cfg)
	}
	s := GateShapes(cfg, prefix)
	g := &Gate{Config: cfg, W1: paramOf(s[0]), B1: paramOf(s[1]), W2: paramOf(s[2]), B2: paramOf(s[3])}
	xavier(r, g.W1.Data(), cfg.In, cfg.Hidden)
	xavier(r, g.W2.Data(), cfg.Hidden, cfg.Out)
	return g, nil
}

// GateShapes lists the parameters of a gate with config cfg, as Params
// orders them (for CheckShapes before NewGate).
func GateShapes(cfg GateConfig, prefix string) []NamedShape {
	return []NamedShape{
		{prefix + ".w1", []int{cfg.Hidden, cfg.In}},
		{prefix + ".b1", []int{cfg.Hidden}},
		{prefix + ".w2", []int{cfg.Out, cfg.Hidden}},
		{prefix + ".b2", []int{cfg.Out}},
	}
}

// Params lists the gate's parameters in a fixed order.
func (g *Gate) Params() []NamedParam { return []NamedParam{g.W1, g.B1, g.W2, g.B2} }

// forward computes the hidden activations h [batch, Hidden] and the softmax
// outputs p [batch, Out] of x [batch, In].
func (g *Gate) forward(x []float32, batch int, h, p []float32) {
	c := g.Config
	for b := 0; b < batch; b++ {
		copy(h[b*c.Hidden:(b+1)*c.Hidden], g.B1.Data())
		copy(p[b*c.Out:(b+1)*c.Out], g.B2.Data())
	}
	gemm.Sgemm(gemm.NoTrans, gemm.Trans, batch, c.Hidden, c.In, 1, x, c.In, g.W1.Data(), c.In, 1, h, c.Hidden)
	vec.Relu(h)
	gemm.Sgemm(gemm.NoTrans, gemm.Trans, batch, c.Out, c.Hidden, 1, h, c.Hidden, g.W2.Data(), c.Hidden, 1, p, c.Out)
	softmaxRows(p, batch, c.Out)
}

// softmaxRows applies softmaxInPlace to each row of p [rows, cols]; large
// batches split the rows in two halves run by internal/parallel (each
// row's values do not depend on the split).
func softmaxRows(p []float32, rows, cols int) {
	rowsOf := func(lo, hi int) {
		for b := lo; b < hi; b++ {
			softmaxInPlace(p[b*cols : (b+1)*cols])
		}
	}
	if rows*cols < 2048 {
		rowsOf(0, rows)
		return
	}
	_ = parallel.Chunks(context.Background(), rows, (rows+1)/2, 0, rowsOf)
}

// Forward returns the gate's softmax outputs for x [batch, In], row-major.
func (g *Gate) Forward(x []float32, batch int) []float32 {
	if len(x) != batch*g.Config.In {
		panic(fmt.Sprintf("models: Gate.Forward: x has %d values, want %d×%d", len(x), batch, g.Config.In))
	}
	h := make([]float32, batch*g.Config.Hidden)
	p := make([]float32, batch*g.Config.Out)
	g.forward(x, batch, h, p)
	return p
}

func softmaxInPlace(z []float32) {
	m := z[0]
	for _, v := range z {
		if v > m {
			m = v
		}
	}
	var s float64
	for i, v := range z {
		e := math.Exp(float64(v - m))
		z[i] = float32(e)
		s += e
	}
	inv := float32(1 / s)
	for i := range z {
		z[i] *= inv
	}
}

// Op returns a differentiable node computing the gate's softmax outputs
// [batch, Out] for the constant input x [batch, In]: one fused operator whose
// backward pass writes every parameter gradient itself, in a fixed order.
func (g *Gate) Op(x []float32, batch int) mat.Tensor {
	if len(x) != batch*g.Config.In {
		panic(fmt.Sprintf("models: Gate.Op: x has %d values, want %d×%d", len(x), batch, g.Config.In))
	}
	return ag.NewOperator(&gateFn{g: g, x: x, batch: batch}).Run()
}

type gateFn struct {
	g     *Gate
	x     []float32
	batch int
	s     *gateScratch
}

// gateScratch holds one training step's buffers; the backward pass returns
// it to the gate's pool, so steps of one batch size allocate only their
// output and spago's gradient copies.
type gateScratch struct {
	batch                  int
	h, p, gz, gh, gW1, gW2 []float32
}

func (g *Gate) scratch(batch int) *gateScratch {
	if s, ok := g.pool.Get().(*gateScratch); ok && s.batch == batch {
		return s
	}
	c := g.Config
	return &gateScratch{batch: batch,
		h: make([]float32, batch*c.Hidden), p: make([]float32, batch*c.Out),
		gz: make([]float32, batch*c.Out), gh: make([]float32, batch*c.Hidden),
		gW1: make([]float32, c.Hidden*c.In), gW2: make([]float32, c.Out*c.Hidden)}
}

func (f *gateFn) Operands() []mat.Tensor {
	return []mat.Tensor{f.g.W1.Param, f.g.B1.Param, f.g.W2.Param, f.g.B2.Param}
}

func (f *gateFn) Forward() (mat.Tensor, error) {
	c := f.g.Config
	f.s = f.g.scratch(f.batch)
	f.g.forward(f.x, f.batch, f.s.h, f.s.p)
	return mat.NewDense[float32](mat.WithShape(f.batch, c.Out), mat.WithBacking(append([]float32(nil), f.s.p...))), nil
}

func (f *gateFn) Backward(gy mat.Tensor) error {
	c := f.g.Config
	B := f.batch
	gp := mat.Data[float32](gy)
	if len(gp) != B*c.Out {
		return fmt.Errorf("models: gate backward: gradient has %d values, want %d", len(gp), B*c.Out)
	}
	s := f.s
	if s == nil {
		return fmt.Errorf("models: gate backward: run twice on one forward")
	}
	// Softmax: gz = p ⊙ (gp − Σ gp⊙p), per row.
	gz := s.gz
	for b := 0; b < B; b++ {
		p, g := s.p[b*c.Out:(b+1)*c.Out], gp[b*c.Out:(b+1)*c.Out]
		var dot float32
		for k := range p {
			dot += g[k] * p[k]
		}
		for k := range p {
			gz[b*c.Out+k] = p[k] * (g[k] - dot)
		}
	}
	gemm.Sgemm(gemm.Trans, gemm.NoTrans, c.Out, c.Hidden, B, 1, gz, c.Out, s.h, c.Hidden, 0, s.gW2, c.Hidden)
	gB2 := vec.ColSums(gz, B, c.Out)
	gemm.Sgemm(gemm.NoTrans, gemm.NoTrans, B, c.Hidden, c.Out, 1, gz, c.Out, f.g.W2.Data(), c.Hidden, 0, s.gh, c.Hidden)
	vec.ReluBackward(s.gh, s.h)
	gemm.Sgemm(gemm.Trans, gemm.NoTrans, c.Hidden, c.In, B, 1, s.gh, c.Hidden, f.x, c.In, 0, s.gW1, c.In)
	gB1 := vec.ColSums(s.gh, B, c.Hidden)
	// AccGrad copies (or adds) what it is given, so the buffers go back to
	// the pool after it.
	f.g.W1.Param.AccGrad(grad(s.gW1, c.Hidden, c.In))
	f.g.B1.Param.AccGrad(grad(gB1, c.Hidden))
	f.g.W2.Param.AccGrad(grad(s.gW2, c.Out, c.Hidden))
	f.g.B2.Param.AccGrad(grad(gB2, c.Out))
	f.s = nil
	f.g.pool.Put(s)
	return nil
}
