package models

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/nlpodyssey/spago/mat"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// refGate64 is an independent float64 forward of the gate.
func refGate64(w1, b1, w2, b2, x []float64, B, In, H, K int) []float64 {
	p := make([]float64, B*K)
	for b := 0; b < B; b++ {
		h := make([]float64, H)
		for i := 0; i < H; i++ {
			s := b1[i]
			for j := 0; j < In; j++ {
				s += w1[i*In+j] * x[b*In+j]
			}
			h[i] = math.Max(0, s)
		}
		z := make([]float64, K)
		m := math.Inf(-1)
		for k := 0; k < K; k++ {
			s := b2[k]
			for i := 0; i < H; i++ {
				s += w2[k*H+i] * h[i]
			}
			z[k] = s
			m = math.Max(m, s)
		}
		var sum float64
		for k := range z {
			z[k] = math.Exp(z[k] - m)
			sum += z[k]
		}
		for k := range z {
			p[b*K+k] = z[k] / sum
		}
	}
	return p
}

func f64(xs []float32) []float64 {
	out := make([]float64, len(xs))
	for i, v := range xs {
		out[i] = float64(v)
	}
	return out
}

type gateCase struct {
	g          *Gate
	x, gy      []float32
	B          int
	grads      [][]float32 // analytic, in Params() order
	outForward []float32
}

func newGateCase(t *testing.T, seed uint64, B, In, H, K int) *gateCase {
	r := rand.New(rand.NewPCG(seed, 1))
	g, err := NewGate(GateConfig{In: In, Hidden: H, Out: K}, "gate", r)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []NamedParam{g.B1, g.B2} {
		for i := range p.Data() {
			p.Data()[i] = float32(r.NormFloat64() * 0.3)
		}
	}
	c := &gateCase{g: g, B: B, x: make([]float32, B*In), gy: make([]float32, B*K)}
	for i := range c.x {
		c.x[i] = float32(r.NormFloat64())
	}
	for i := range c.gy {
		c.gy[i] = float32(r.NormFloat64())
	}
	fn := &gateFn{g: g, x: c.x, batch: B}
	out, _ := fn.Forward()
	c.outForward = mat.Data[float32](out)
	if err := fn.Backward(grad(append([]float32(nil), c.gy...), B, K)); err != nil {
		t.Fatal(err)
	}
	for _, p := range g.Params() {
		c.grads = append(c.grads, append([]float32(nil), mat.Data[float32](p.Param.Grad())...))
		p.Param.ZeroGrad()
	}
	return c
}

// TestGateGradientsFiniteDifferences checks the fused backward pass against
// central differences of L = Σ gy ⊙ p computed in float64.
func TestGateGradientsFiniteDifferences(t *testing.T) {
	const B, In, H, K = 5, 7, 6, 4
	c := newGateCase(t, 3, B, In, H, K)
	params := [][]float64{f64(c.g.W1.Data()), f64(c.g.B1.Data()), f64(c.g.W2.Data()), f64(c.g.B2.Data())}
	x, gy := f64(c.x), f64(c.gy)
	loss := func() float64 {
		p := refGate64(params[0], params[1], params[2], params[3], x, B, In, H, K)
		var s float64
		for i := range p {
			s += p[i] * gy[i]
		}
		return s
	}
	ref := refGate64(params[0], params[1], params[2], params[3], x, B, In, H, K)
	for i := range ref {
		if math.Abs(ref[i]-float64(c.outForward[i])) > 1e-6 {
			t.Fatalf("forward[%d] = %v, float64 reference %v", i, c.outForward[i], ref[i])
		}
	}
	const eps = 1e-6
	for pi, p := range params {
		for j := range p {
			orig := p[j]
			p[j] = orig + eps
			up := loss()
			p[j] = orig - eps
			down := loss()
			p[j] = orig
			fd := (up - down) / (2 * eps)
			an := float64(c.grads[pi][j])
			if math.Abs(fd-an) > 1e-4*math.Max(1, math.Abs(fd)) {
				t.Errorf("param %s[%d]: analytic %.7g, finite difference %.7g", c.g.Params()[pi].Name, j, an, fd)
			}
		}
	}
}

// TestGateAgainstGorgonia builds the same network in gorgonia (float64) and
// compares the loss Σ gy ⊙ p and every parameter gradient at 1e-5 relative.
func TestGateAgainstGorgonia(t *testing.T) {
	const B, In, H, K = 8, 10, 12, 3
	c := newGateCase(t, 11, B, In, H, K)
	g := G.NewGraph()
	mk := func(name string, data []float32, r, cols int) *G.Node {
		return G.NewMatrix(g, tensor.Float64, G.WithShape(r, cols), G.WithName(name),
			G.WithValue(tensor.New(tensor.WithShape(r, cols), tensor.WithBacking(f64(data)))))
	}
	x := mk("x", c.x, B, In)
	w1 := mk("w1", c.g.W1.Data(), H, In)
	b1 := mk("b1", c.g.B1.Data(), 1, H)
	w2 := mk("w2", c.g.W2.Data(), K, H)
	b2 := mk("b2", c.g.B2.Data(), 1, K)
	ones := G.NewMatrix(g, tensor.Float64, G.WithShape(B, 1), G.WithName("ones"),
		G.WithValue(tensor.New(tensor.WithShape(B, 1), tensor.WithBacking(f64(onesF(B))))))
	gyN := mk("gy", c.gy, B, K)
	h := G.Must(G.Rectify(G.Must(G.Add(G.Must(G.Mul(x, G.Must(G.Transpose(w1)))), G.Must(G.Mul(ones, b1))))))
	z := G.Must(G.Add(G.Must(G.Mul(h, G.Must(G.Transpose(w2)))), G.Must(G.Mul(ones, b2))))
	p := G.Must(G.SoftMax(z, 1))
	loss := G.Must(G.Sum(G.Must(G.HadamardProd(p, gyN))))
	if _, err := G.Grad(loss, w1, b1, w2, b2); err != nil {
		t.Fatal(err)
	}
	vm := G.NewTapeMachine(g)
	defer vm.Close()
	if err := vm.RunAll(); err != nil {
		t.Fatal(err)
	}
	var ours float64
	for i, v := range c.outForward {
		ours += float64(v) * float64(c.gy[i])
	}
	theirs := loss.Value().Data().(float64)
	if math.Abs(ours-theirs) > 1e-5*math.Abs(theirs)+1e-7 {
		t.Errorf("loss: ours %.9g, gorgonia %.9g", ours, theirs)
	}
	for i, n := range []*G.Node{w1, b1, w2, b2} {
		gv, err := n.Grad()
		if err != nil {
			t.Fatal(err)
		}
		want := gv.Data().([]float64)
		got := c.grads[i]
		if len(want) != len(got) {
			t.Fatalf("%s: %d vs %d gradients", n.Name(), len(got), len(want))
		}
		for j := range want {
			if math.Abs(float64(got[j])-want[j]) > 1e-5*math.Abs(want[j])+1e-7 {
				t.Errorf("%s[%d]: ours %.9g, gorgonia %.9g", n.Name(), j, got[j], want[j])
			}
		}
	}
}

func onesF(n int) []float32 {
	o := make([]float32, n)
	for i := range o {
		o[i] = 1
	}
	return o
}

func TestGateForwardMatchesOp(t *testing.T) {
	c := newGateCase(t, 5, 3, 4, 5, 2)
	got := c.g.Forward(c.x, 3)
	for i := range got {
		if got[i] != c.outForward[i] {
			t.Fatalf("Forward and Op differ at %d: %v vs %v", i, got[i], c.outForward[i])
		}
	}
	for b := 0; b < 3; b++ {
		if s := got[2*b] + got[2*b+1]; math.Abs(float64(s)-1) > 1e-6 {
			t.Errorf("row %d sums to %v", b, s)
		}
	}
}

// TestGateScratchReuse: the step buffers a backward returns to the gate's
// pool give the same outputs and gradients on the next step (same batch,
// then another batch size, then the first again) as a fresh gate; a second
// backward of one forward is an error.
func TestGateScratchReuse(t *testing.T) {
	ref := newGateCase(t, 9, 7, 6, 5, 4)
	other := newGateCase(t, 10, 3, 6, 5, 4)
	g := ref.g // its pool now holds the 7-row buffers of ref's own step
	for _, c := range []*gateCase{ref, other, ref, ref} {
		fn := &gateFn{g: g, x: c.x, batch: c.B}
		out, err := fn.Forward()
		if err != nil {
			t.Fatal(err)
		}
		if c == other {
			continue // other's weights differ: only its buffers of 3 rows pass through the pool
		}
		for i, v := range mat.Data[float32](out) {
			if v != c.outForward[i] {
				t.Fatalf("output %d: %v after reuse, %v fresh", i, v, c.outForward[i])
			}
		}
		if err := fn.Backward(grad(append([]float32(nil), c.gy...), c.B, 4)); err != nil {
			t.Fatal(err)
		}
		for pi, p := range g.Params() {
			for i, v := range mat.Data[float32](p.Param.Grad()) {
				if v != c.grads[pi][i] {
					t.Fatalf("%s[%d]: %v after reuse, %v fresh", p.Name, i, v, c.grads[pi][i])
				}
			}
			p.Param.ZeroGrad()
		}
		if err := fn.Backward(grad(append([]float32(nil), c.gy...), c.B, 4)); err == nil {
			t.Fatal("a second backward of one forward was accepted")
		}
	}
}
