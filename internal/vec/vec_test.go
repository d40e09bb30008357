package vec

import (
	"math"
	"math/rand/v2"
	"testing"
)

// specials are values whose handling the kernels must keep exactly: signed
// zeros, infinities, NaNs of both signs, subnormals and extremes.
var specials = []float32{0, float32(math.Copysign(0, -1)), float32(math.Inf(1)), float32(math.Inf(-1)),
	math.Float32frombits(0x7fc00000), math.Float32frombits(0xffc00000), math.SmallestNonzeroFloat32,
	-math.SmallestNonzeroFloat32, math.MaxFloat32, -math.MaxFloat32, 1, -1}

func randVals(r *rand.Rand, n int) []float32 {
	x := make([]float32, n)
	for i := range x {
		if r.IntN(10) == 0 {
			x[i] = specials[r.IntN(len(specials))]
		} else {
			x[i] = float32(r.NormFloat64() * math.Pow(10, float64(r.IntN(9)-4)))
		}
	}
	return x
}

func sameBits(t *testing.T, what string, n int, got, want []float32) {
	t.Helper()
	for i := range want {
		if got[i] != got[i] && want[i] != want[i] {
			continue // both NaN: which operand's payload x86 propagates depends on the compiler's operand order
		}
		if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
			t.Fatalf("%s n=%d [%d]: %v (%#x), want %v (%#x)", what, n, i, got[i], math.Float32bits(got[i]), want[i], math.Float32bits(want[i]))
		}
	}
}

func clone(x []float32) []float32 { return append([]float32(nil), x...) }

// TestKernelsMatchGo checks every kernel against its Go reference bit for
// bit (the reference itself is checked by hand below).
func TestKernelsMatchGo(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 5))
	for n := 0; n <= 70; n++ {
		x := randVals(r, n)
		got, want := clone(x), clone(x)
		Relu(got)
		reluGo(want)
		sameBits(t, "Relu", n, got, want)

		h := clone(want) // a ReLU output
		g := randVals(r, n)
		got, want = clone(g), clone(g)
		ReluBackward(got, h)
		reluBackwardGo(want, h)
		sameBits(t, "ReluBackward", n, got, want)

		a, b := randVals(r, n), randVals(r, n)
		got, want = clone(a), clone(a)
		AddTo(got, b)
		for i := range want {
			want[i] += b[i]
		}
		sameBits(t, "AddTo", n, got, want)

		for _, decay := range []bool{false, true} {
			k := Adam{B1: 0.9, C1: float32(1 - 0.9), B2: 0.999, C2: float32(1 - 0.999), Eps: 1e-8, Lambda: 0.01, Alpha: 3e-3, Decay: decay}
			w, gr := randVals(r, n), randVals(r, n)
			m1 := randVals(r, n)
			m2 := randVals(r, n)
			for i := range m2 {
				m2[i] = float32(math.Abs(float64(m2[i])))
			}
			w1, a1, b1 := clone(w), clone(m1), clone(m2)
			w2, a2, b2 := clone(w), clone(m1), clone(m2)
			AdamStep(w1, gr, a1, b1, k)
			adamGo(w2, gr, a2, b2, k)
			sameBits(t, "AdamStep w", n, w1, w2)
			sameBits(t, "AdamStep m1", n, a1, a2)
			sameBits(t, "AdamStep m2", n, b1, b2)
		}
	}
}

// TestReferencesByHand pins the Go references on values worked by hand.
func TestReferencesByHand(t *testing.T) {
	negZero := float32(math.Copysign(0, -1))
	h := []float32{-2, 3, negZero, 0, 0.5, -1e-30, 7, -7, 1}
	Relu(h)
	sameBits(t, "Relu", len(h), h, []float32{0, 3, 0, 0, 0.5, 0, 7, 0, 1})
	g := []float32{1, 2, 3, 4, 5, 6, 7, 8, 9}
	ReluBackward(g, h)
	sameBits(t, "ReluBackward", len(g), g, []float32{0, 2, 0, 0, 5, 0, 7, 0, 9})
	sameBits(t, "ColSums", 3, ColSums([]float32{1, 2, 3, 10, 20, 30}, 2, 3), []float32{11, 22, 33})

	// One AdamW step from zero moments: m1 = 0.1·g, m2 = 0.001·g², and
	// w − α(m1/(√m2 + ε) + λw) with g = 2, w = 1, α = 0.5, λ = 0.1, ε = 0:
	// m1 = 0.2, m2 = 0.004, √m2 = 0.0632456, u = 3.1622777 + 0.1 → w = −0.6311389.
	w, m1, m2 := []float32{1}, []float32{0}, []float32{0}
	AdamStep(w, []float32{2}, m1, m2, Adam{B1: 0.9, C1: 0.1, B2: 0.999, C2: 0.001, Lambda: 0.1, Alpha: 0.5, Decay: true})
	if math.Abs(float64(m1[0])-0.2) > 1e-7 || math.Abs(float64(m2[0])-0.004) > 1e-9 || math.Abs(float64(w[0])+0.6311389) > 1e-6 {
		t.Fatalf("AdamStep: w %v m1 %v m2 %v, want −0.6311389, 0.2, 0.004", w[0], m1[0], m2[0])
	}
}
