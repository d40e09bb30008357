package models

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// refAttend is causal attention in float64 with plain loops: out[t, h] and
// the gradients of Σ dout ⊙ out with respect to q, k and v.
func refAttend(s attnShape, q, k, v, dout []float32) (out, dq, dk, dv []float64) {
	hd, qd, kd := s.hd, s.nh*s.hd, s.nkv*s.hd
	nk := s.pos0 + s.T
	out, dq = make([]float64, s.T*qd), make([]float64, s.T*qd)
	dk, dv = make([]float64, nk*kd), make([]float64, nk*kd)
	for h := range s.nh {
		kh := h / (s.nh / s.nkv)
		for t := range s.T {
			qo := t*qd + h*hd
			n := s.pos0 + t + 1
			p := make([]float64, n)
			mx := math.Inf(-1)
			for j := range n {
				for i := range hd {
					p[j] += float64(q[qo+i]) * float64(k[j*kd+kh*hd+i])
				}
				p[j] /= math.Sqrt(float64(hd))
				mx = math.Max(mx, p[j])
			}
			var z float64
			for j := range p {
				p[j] = math.Exp(p[j] - mx)
				z += p[j]
			}
			dp := make([]float64, n)
			var dot float64
			for j := range p {
				p[j] /= z
				for i := range hd {
					out[qo+i] += p[j] * float64(v[j*kd+kh*hd+i])
					dp[j] += float64(dout[qo+i]) * float64(v[j*kd+kh*hd+i])
					dv[j*kd+kh*hd+i] += p[j] * float64(dout[qo+i])
				}
				dot += p[j] * dp[j]
			}
			for j := range p {
				ds := p[j] * (dp[j] - dot) / math.Sqrt(float64(hd))
				for i := range hd {
					dq[qo+i] += ds * float64(k[j*kd+kh*hd+i])
					dk[j*kd+kh*hd+i] += ds * float64(q[qo+i])
				}
			}
		}
	}
	return out, dq, dk, dv
}

func randVec(r *rand.Rand, n int, std float64) []float32 {
	x := make([]float32, n)
	for i := range x {
		x[i] = float32(r.NormFloat64() * std)
	}
	return x
}

func closeTo(t *testing.T, what string, got []float32, want []float64, tol float64) {
	t.Helper()
	for i, w := range want {
		if d := math.Abs(float64(got[i]) - w); d > tol*math.Max(1, math.Abs(w)) || math.IsNaN(float64(got[i])) {
			t.Fatalf("%s[%d] = %v, reference %v", what, i, got[i], w)
		}
	}
}

// TestAttendAgainstReference checks the blocked causal kernel and its
// backward pass against plain loops: one query, sizes around the block,
// GQA (16 heads over 8, 8 over 1) and plain multi-head, with and without
// cached positions before the queries, on 1 and 3 threads.
func TestAttendAgainstReference(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	for _, c := range []attnShape{
		{T: 1, nh: 16, nkv: 8, hd: 16},
		{T: 1, pos0: 9, nh: 16, nkv: 8, hd: 16},
		{T: 5, nh: 4, nkv: 4, hd: 8},
		{T: attnBlock - 1, nh: 16, nkv: 8, hd: 8},
		{T: attnBlock, nh: 2, nkv: 1, hd: 32},
		{T: attnBlock + 1, nh: 8, nkv: 1, hd: 8},
		{T: 2*attnBlock + 7, nh: 16, nkv: 8, hd: 4},
		{T: 3, pos0: attnBlock + 2, nh: 4, nkv: 2, hd: 8},
		{T: 70, pos0: 30, nh: 16, nkv: 8, hd: 128},
	} {
		for _, threads := range []int{1, 3} {
			t.Run(fmt.Sprintf("%+v/threads=%d", c, threads), func(t *testing.T) {
				qd, kd, nk := c.nh*c.hd, c.nkv*c.hd, c.pos0+c.T
				q, k, v := randVec(r, c.T*qd, 1), randVec(r, nk*kd, 1), randVec(r, nk*kd, 1)
				dout := randVec(r, c.T*qd, 1)
				wantOut, wantDq, wantDk, wantDv := refAttend(c, q, k, v, dout)
				out, lse := make([]float32, c.T*qd), make([]float32, c.T*c.nh)
				attend(threads, c, q, k, v, out, lse)
				closeTo(t, "out", out, wantOut, 1e-5)
				if c.pos0 > 0 {
					return // the backward pass is for whole sequences
				}
				dq, dk, dv := randVec(r, len(q), 1), randVec(r, len(k), 1), randVec(r, len(v), 1) // overwritten
				attendBack(threads, c, q, k, v, out, lse, dout, dq, dk, dv)
				closeTo(t, "dq", dq, wantDq, 1e-4)
				closeTo(t, "dk", dk, wantDk, 1e-4)
				closeTo(t, "dv", dv, wantDv, 1e-4)
			})
		}
	}
}

// TestExpf compares the float32 exponential with math.Exp across its
// range, the limits and NaN.
func TestExpf(t *testing.T) {
	for x := -87.3; x < 88.7; x += 0.0137 {
		got, want := float64(expf(float32(x))), math.Exp(float64(float32(x)))
		if math.Abs(got-want) > 3e-7*want {
			t.Fatalf("expf(%v) = %v, math.Exp %v", x, got, want)
		}
	}
	for _, c := range []struct{ x, want float32 }{{0, 1}, {-100, 0}, {-88, 0}, {100, float32(math.Inf(1))}} {
		if got := expf(c.x); got != c.want {
			t.Errorf("expf(%v) = %v, want %v", c.x, got, c.want)
		}
	}
	big := float32(88.7)
	if got, want := float64(expf(big)), math.Exp(float64(big)); math.IsInf(got, 0) || math.Abs(got-want) > 3e-7*want {
		t.Errorf("expf(88.7) = %v", got)
	}
	for x := -87.3; x <= 0; x += 0.0071 {
		got, want := float64(expNeg(float32(x))), math.Exp(float64(float32(x)))
		if math.Abs(got-want) > 3e-7*want {
			t.Fatalf("expNeg(%v) = %v, math.Exp %v", x, got, want)
		}
	}
	if nan := float32(math.NaN()); !math.IsNaN(float64(expf(nan))) {
		t.Error("expf(NaN) is not NaN")
	}
}

// TestExpNegSub: the vector path gives exactly expNeg's values (the same
// float32 operations, no FMA) at every length around the 8-lane width, in
// place and not, over the softmax's range (and below the clamp); the sum
// is the values' sum to float32 rounding.
func TestExpNegSub(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for _, n := range []int{0, 1, 7, 8, 9, 15, 16, 17, 64, 131} {
		src := make([]float32, n)
		for i := range src {
			src[i] = float32(r.Float64()*120 - 110)
		}
		mx := float32(r.Float64()*4 - 2)
		dst := make([]float32, n)
		z := expNegSub(dst, src, mx)
		var want float64
		for i, x := range src {
			e := expNeg(x - mx)
			if dst[i] != e {
				t.Fatalf("n %d, value %d: %v, expNeg %v", n, i, dst[i], e)
			}
			want += float64(e)
		}
		if math.Abs(float64(z)-want) > 1e-6*math.Max(want, 1e-30) {
			t.Errorf("n %d: sum %v, want %v", n, z, want)
		}
		in := slices.Clone(src)
		if expNegSub(in, in, mx) != z || !slices.Equal(in, dst) {
			t.Errorf("n %d: in place differs", n)
		}
	}
}
