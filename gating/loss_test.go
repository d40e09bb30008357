package gating

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/nlpodyssey/spago/ag"
	"github.com/nlpodyssey/spago/mat"

	"github.com/strata-retrieval/strata/infer/infertest"
	"github.com/strata-retrieval/strata/internal/testws"
	"github.com/strata-retrieval/strata/models"
)

// constGates makes every gate output softmax of its output bias (W2 = 0).
func constGates(t *testing.T, c *CoR, bt, br, bh []float32) {
	t.Helper()
	for _, x := range []struct {
		g *models.Gate
		b []float32
	}{{c.Textual, bt}, {c.Relational, br}, {c.H, bh}} {
		clear(x.g.W2.Data())
		copy(x.g.B2.Data(), x.b)
	}
}

// TestLossHandWorked pins CoRAG's eq. 11 on numbers worked by hand. The
// gates are constant: g⁽ᵗ⁾ = softmax(ln 3, 0) = (.75, .25) over types A, B,
// g⁽ʳ⁾ = (1) for the one relation r, h = softmax(0, 0) = (.5, .5). C_q has
// four candidates:
//
//	v1 A cos .8  reached by r, gold: ŝ = .5·.75·.8 + .5·1·.8    = .7     (ŝ−1)² = .09
//	v2 B cos .4                       ŝ = .5·.25·.4              = .05    ŝ² = .0025
//	v3 A cos .2                       ŝ = .5·.75·.2              = .075   ŝ² = .005625
//	v4 B cos −.2 reached by r:        ŝ = .5·.25·(−.2) + .5·(−.2) = −.125  ŝ² = .015625
//
// L = (.09 + .0025 + .005625 + .015625) / 4 = .0284375. v2 and v3 enter
// only through RestSq = (A: .2², B: .4²) = (.04, .16):
// h₀²(.75²·.04 + .25²·.16) = .25·.0325 = .008125 = .0025 + .005625.
func TestLossHandWorked(t *testing.T) {
	c, err := New(Config{QueryDim: 2, Hidden: 3, Types: []string{"A", "B"}, Relations: []string{"r"}, Textual: true, Relational: true, Hybrid: true}, rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	constGates(t, c, []float32{float32(math.Log(3)), 0}, []float32{0}, []float32{0, 0})
	in := &LossInputs{
		Cands: &Candidates{IDs: []uint32{1, 4}, Type: []int32{0, 1}, Cos: []float32{.8, -.2},
			RelOff: []int32{0, 1, 2}, Rel: []int32{0, 0}},
		Labels: []float32{1, 0},
		RestSq: []float64{.04, .16},
		N:      4,
	}
	q := []float32{.3, -.7}
	got := float64(mat.Data[float32](c.LossOp(q, []*LossInputs{in}).Value())[0])
	if math.Abs(got-0.0284375) > 1e-6 {
		t.Errorf("loss %.7f, want 0.0284375", got)
	}
	// The same loss with every candidate scored explicitly.
	all := &Candidates{IDs: []uint32{1, 2, 3, 4}, Type: []int32{0, 1, 0, 1}, Cos: []float32{.8, .4, .2, -.2},
		RelOff: []int32{0, 1, 1, 1, 2}, Rel: []int32{0, 0}}
	s, _ := c.Score(q, all, false)
	want := []float32{.7, .05, .075, -.125}
	for i := range want {
		if math.Abs(float64(s[i]-want[i])) > 1e-6 {
			t.Errorf("ŝ(v%d) = %v, want %v", i+1, s[i], want[i])
		}
	}
	// Two queries: the batch loss is the mean of the per-query losses.
	in2 := &LossInputs{Cands: &Candidates{IDs: []uint32{7}, Type: []int32{1}, Cos: []float32{.6}, RelOff: []int32{0, 0}},
		Labels: []float32{1}, RestSq: []float64{0, 0}, N: 2}
	// Query 2: ŝ = .5·.25·.6 = .075, (ŝ−1)² = .855625 over N = 2.
	got2 := float64(mat.Data[float32](c.LossOp([]float32{.3, -.7, 1, 1}, []*LossInputs{in, in2}).Value())[0])
	if w := (0.0284375 + 0.855625/2) / 2; math.Abs(got2-w) > 1e-6 {
		t.Errorf("batch loss %.7f, want %.7f", got2, w)
	}
}

// TestLossGradients checks LossOp's gradient with respect to every gate
// parameter against central differences, with random gates, candidates
// on several relations and a type without a textual retriever.
func TestLossGradients(t *testing.T) {
	c, _ := New(Config{QueryDim: 3, Hidden: 5, Types: []string{"a", "b"}, Relations: []string{"r0", "r1", "r2"}, Textual: true, Relational: true, Hybrid: true}, rand.New(rand.NewPCG(4, 4)))
	cands := handCandidates()
	batch := []*LossInputs{
		{Cands: cands[0], Labels: []float32{1, 0, 0}, RestSq: []float64{.3, 1.7}, N: 40},
		{Cands: cands[1], Labels: []float32{0, 1}, RestSq: []float64{2.5, .2}, N: 25},
	}
	q := []float32{0.3, -0.5, 0.8, -0.2, 0.1, 0.9}
	loss := func() float64 {
		return float64(mat.Data[float32](c.LossOp(q, batch).Value())[0])
	}
	out := c.LossOp(q, batch)
	if err := ag.Backward(out); err != nil {
		t.Fatal(err)
	}
	for _, p := range c.Params() {
		an := slices.Clone(mat.Data[float32](p.Param.Grad()))
		d := p.Data()
		for j := range d {
			orig := d[j]
			d[j] = orig + 1e-2
			up := loss()
			d[j] = orig - 1e-2
			down := loss()
			d[j] = orig
			fd := (up - down) / 2e-2
			if math.Abs(fd-float64(an[j])) > 1e-4+1e-2*math.Abs(fd) {
				t.Errorf("%s[%d]: analytic %.6g, finite difference %.6g", p.Name, j, an[j], fd)
			}
		}
	}
}

// TestFullInputsEqualsEveryCandidate: on a generated benchmark, the loss
// from FullInputs equals the MSE over every candidate that is not a topic
// entity, each scored explicitly by Score.
func TestFullInputsEqualsEveryCandidate(t *testing.T) {
	ws := testws.Preset(t, "prime", 1500, 60)
	d := infertest.LexicalDense(t, ws)
	cfg := DefaultConfig(&ws.SKB.Schema, d.Docs.Dim)
	c, err := New(cfg, rand.New(rand.NewPCG(2, 3)))
	if err != nil {
		t.Fatal(err)
	}
	ret, err := NewRetrievers(ws.Graph, ws.Linker(), d.Docs, ws.Candidates, cfg)
	if err != nil {
		t.Fatal(err)
	}
	checked, reached := 0, 0
	for _, q := range ws.SKB.QA.Queries {
		qv := d.Encoder.EncodeTexts([]string{q.Text})
		in := ret.FullInputs(qv, q.Text, q.Answers)
		if in == nil {
			continue
		}
		all, _ := ret.Inputs(qv, q.Text, 0, nil)
		s, _ := c.Score(qv, all, false)
		var want float64
		for i, v := range all.IDs {
			y := 0.0
			if slices.Contains(q.Answers, v) {
				y = 1
			}
			want += (float64(s[i]) - y) * (float64(s[i]) - y)
		}
		want /= float64(all.Len())
		got := float64(mat.Data[float32](c.LossOp(qv, []*LossInputs{in}).Value())[0])
		if in.N != all.Len() || math.Abs(got-want) > 1e-6*math.Max(1, want) {
			t.Fatalf("query %d: loss %.8g over N=%d, every candidate %.8g over %d", q.ID, got, in.N, want, all.Len())
		}
		checked++
		if in.Cands.Len() > len(q.Answers) {
			reached++
		}
		if checked == 20 {
			break
		}
	}
	if checked < 20 || reached < 5 {
		t.Errorf("checked %d queries, %d with relational candidates", checked, reached)
	}
}

// TestShapesMatchParams: Shapes lists exactly the tensors New allocates, in
// Params order, for the full model and its ablations (Hidden defaulting to
// 64).
func TestShapesMatchParams(t *testing.T) {
	for _, cfg := range []Config{
		{QueryDim: 4, Types: []string{"A", "B"}, Relations: []string{"r", "s", "u"}, Textual: true, Relational: true, Hybrid: true},
		{QueryDim: 4, Hidden: 3, Types: []string{"A"}, Relations: []string{"r"}, Textual: true, Relational: true},
		{QueryDim: 4, Hidden: 3, Relations: []string{"r"}, Relational: true, Hybrid: true},
	} {
		c, err := New(cfg, rand.New(rand.NewPCG(1, 1)))
		if err != nil {
			t.Fatal(err)
		}
		var got, want []string
		for _, s := range Shapes(cfg) {
			got = append(got, fmt.Sprint(s.Name, s.Shape))
		}
		for _, p := range c.Params() {
			want = append(want, fmt.Sprint(p.Name, p.Shape))
		}
		if !slices.Equal(got, want) {
			t.Errorf("shapes %v, params %v", got, want)
		}
	}
	if got := fmt.Sprint(Shapes(Config{QueryDim: 4, Types: []string{"A", "B"}, Textual: true})); got != "[{gate.textual.w1 [64 4]} {gate.textual.b1 [64]} {gate.textual.w2 [2 64]} {gate.textual.b2 [2]}]" {
		t.Errorf("textual-only shapes %s", got)
	}
}
