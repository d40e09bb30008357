package gating

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/nlpodyssey/spago/ag"
	"github.com/nlpodyssey/spago/mat"
)

func handCandidates() []*Candidates {
	return []*Candidates{
		{IDs: []uint32{1, 2, 3}, Type: []int32{0, 1, 0}, Cos: []float32{0.9, 0.2, -0.3},
			RelOff: []int32{0, 1, 1, 3}, Rel: []int32{2, 0, 1}},
		{IDs: []uint32{5, 6}, Type: []int32{1, -1}, Cos: []float32{0.4, 0.7},
			RelOff: []int32{0, 0, 2}, Rel: []int32{1, 2}},
	}
}

func TestCoRScoreMatchesHandFormula(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	c, err := New(Config{QueryDim: 3, Hidden: 4, Types: []string{"a", "b"}, Relations: []string{"r0", "r1", "r2"}, Textual: true, Relational: true, Hybrid: true}, r)
	if err != nil {
		t.Fatal(err)
	}
	q := []float32{0.3, -0.5, 0.8}
	cands := handCandidates()[0]
	got, contrib := c.Score(q, cands, true)
	gt, gr, h := c.Gates(q)
	want := []float32{
		h[0]*gt[0]*0.9 + h[1]*gr[2]*0.9,
		h[0] * gt[1] * 0.2,
		h[0]*gt[0]*-0.3 + h[1]*(gr[0]+gr[1])*-0.3,
	}
	for i := range want {
		if math.Abs(float64(got[i]-want[i])) > 1e-6 {
			t.Errorf("candidate %d: %v, want %v", i, got[i], want[i])
		}
	}
	if math.Abs(float64(contrib[2].Relational[1]-h[1]*gr[1]*-0.3)) > 1e-6 || contrib[1].Textual != got[1] {
		t.Errorf("contributions %+v", contrib)
	}
	// Ablations: without the hybrid gate h = (½, ½); without relational
	// retrievers only the textual term remains.
	noH, _ := New(Config{QueryDim: 3, Hidden: 4, Types: []string{"a", "b"}, Relations: []string{"r0", "r1", "r2"}, Textual: true, Relational: true}, rand.New(rand.NewPCG(1, 2)))
	if _, _, hh := noH.Gates(q); !slices.Equal(hh, []float32{0.5, 0.5}) {
		t.Errorf("no hybrid gate: h = %v", hh)
	}
	noR, _ := New(Config{QueryDim: 3, Hidden: 4, Types: []string{"a", "b"}, Relations: []string{"r0"}, Textual: true}, rand.New(rand.NewPCG(1, 2)))
	s, _ := noR.Score(q, cands, false)
	gt2, _, _ := noR.Gates(q)
	if math.Abs(float64(s[0]-gt2[0]*0.9)) > 1e-6 {
		t.Errorf("textual only: %v, want %v", s[0], gt2[0]*0.9)
	}
}

// TestCoRGradients checks the gradients of L = Σ gy ⊙ ŝ with respect to
// every gate parameter against central differences.
func TestCoRGradients(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 4))
	c, _ := New(Config{QueryDim: 3, Hidden: 5, Types: []string{"a", "b"}, Relations: []string{"r0", "r1", "r2"}, Textual: true, Relational: true, Hybrid: true}, r)
	batch := handCandidates()
	q := []float32{0.3, -0.5, 0.8, -0.2, 0.1, 0.9}
	gy := []float32{1.5, -0.7, 0.3, 2, -1}
	loss := func() float64 {
		var s float64
		k := 0
		for b, cands := range batch {
			sc, _ := c.Score(q[3*b:3*b+3], cands, false)
			for _, v := range sc {
				s += float64(v) * float64(gy[k])
				k++
			}
		}
		return s
	}
	out := c.ScoreOp(q, batch)
	if got := mat.Data[float32](out.Value()); len(got) != 5 {
		t.Fatalf("%d scores", len(got))
	}
	out.AccGrad(mat.NewDense[float32](mat.WithShape(5), mat.WithBacking(slices.Clone(gy))))
	if err := ag.Backward(out); err != nil {
		t.Fatal(err)
	}
	for _, p := range c.Params() {
		an := slices.Clone(mat.Data[float32](p.Param.Grad()))
		d := p.Data()
		for j := range d {
			orig := d[j]
			d[j] = orig + 1e-3
			up := loss()
			d[j] = orig - 1e-3
			down := loss()
			d[j] = orig
			fd := (up - down) / 2e-3
			if math.Abs(fd-float64(an[j])) > 2e-3*math.Max(1, math.Abs(fd)) {
				t.Errorf("%s[%d]: analytic %.6g, finite difference %.6g", p.Name, j, an[j], fd)
			}
		}
	}
}
