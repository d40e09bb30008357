package gemm

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// refGemm is the plain triple loop in float64.
func refGemm(tA, tB Transpose, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) (want, bound []float64) {
	want, bound = make([]float64, m*n), make([]float64, m*n)
	for i := 0; i < m; i++ {
		for j := 0; j < n; j++ {
			var s, abs float64
			for p := 0; p < k; p++ {
				var av, bv float32
				if tA {
					av = a[p*lda+i]
				} else {
					av = a[i*lda+p]
				}
				if tB {
					bv = b[j*ldb+p]
				} else {
					bv = b[p*ldb+j]
				}
				s += float64(av) * float64(bv)
				abs += math.Abs(float64(av) * float64(bv))
			}
			w := float64(alpha) * s
			bd := math.Abs(float64(alpha)) * abs
			if beta != 0 {
				w += float64(beta) * float64(c[i*ldc+j])
				bd += math.Abs(float64(beta) * float64(c[i*ldc+j]))
			}
			want[i*n+j], bound[i*n+j] = w, bd
		}
	}
	return want, bound
}

type gemmCase struct {
	tA, tB           Transpose
	m, n, k          int
	alpha, beta      float32
	padA, padB, padC int
}

func (tc gemmCase) String() string {
	return fmt.Sprintf("%v%v m=%d n=%d k=%d alpha=%g beta=%g pad=%d,%d,%d", tc.tA, tc.tB, tc.m, tc.n, tc.k, tc.alpha, tc.beta, tc.padA, tc.padB, tc.padC)
}

// operands returns random A, B and C (C's padding and, with beta = 0, all
// of C hold NaN: the padding must stay NaN, the rest must be overwritten).
func (tc gemmCase) operands(r *rand.Rand) (a []float32, lda int, b []float32, ldb int, c []float32, ldc int) {
	ar, ac := tc.m, tc.k
	if tc.tA {
		ar, ac = tc.k, tc.m
	}
	br, bc := tc.k, tc.n
	if tc.tB {
		br, bc = tc.n, tc.k
	}
	lda, ldb, ldc = ac+tc.padA, bc+tc.padB, tc.n+tc.padC
	a, b, c = make([]float32, ar*lda), make([]float32, br*ldb), make([]float32, tc.m*ldc)
	for i := range a {
		a[i] = float32(r.NormFloat64())
	}
	for i := range b {
		b[i] = float32(r.NormFloat64())
	}
	nan := float32(math.NaN())
	for i := range c {
		if tc.beta == 0 || i%ldc >= tc.n {
			c[i] = nan
		} else {
			c[i] = float32(r.NormFloat64())
		}
	}
	return
}

// run computes the case with kernel kn on threads goroutines and checks it
// against the float64 triple loop; it returns C.
func (tc gemmCase) run(t *testing.T, kn *kernel, threads int, r *rand.Rand) []float32 {
	t.Helper()
	a, lda, b, ldb, c, ldc := tc.operands(r)
	want, bound := refGemm(tc.tA, tc.tB, tc.m, tc.n, tc.k, tc.alpha, a, lda, b, ldb, tc.beta, c, ldc)
	sgemm(kn, threads, tc.tA, tc.tB, tc.m, tc.n, tc.k, tc.alpha, a, lda, b, ldb, tc.beta, c, ldc)
	// float32 accumulation over k terms: a relative error of about k·eps
	// of Σ|terms|, plus the rounding of the result.
	eps := float64(tc.k+4) * 0x1p-23
	for i := 0; i < tc.m; i++ {
		for j := 0; j < ldc; j++ {
			got := c[i*ldc+j]
			if j >= tc.n {
				if !math.IsNaN(float64(got)) {
					t.Fatalf("%s %s threads=%d: C[%d][%d] beyond n was written: %g", kn.name, tc, threads, i, j, got)
				}
				continue
			}
			w, bd := want[i*tc.n+j], bound[i*tc.n+j]
			if d := math.Abs(float64(got) - w); !(d <= eps*bd+1e-30) {
				t.Fatalf("%s %s threads=%d: C[%d][%d] = %g, want %g (|diff| %g > %g)", kn.name, tc, threads, i, j, got, w, d, eps*bd)
			}
		}
	}
	return c
}

var (
	edgeSizes  = []int{1, 2, 3, 7, 15, 16, 17, 31, 33, 63, 65, 127, 129, 255, 257}
	smallSizes = []int{1, 2, 3, 7, 15, 16, 17, 31, 33}
	alphas     = []float32{1, -0.5, 2.5, 0}
	betas      = []float32{0, 1, -1.5, 0.5}
)

func randCase(r *rand.Rand, m, n, k int) gemmCase {
	return gemmCase{
		tA: r.IntN(2) == 1, tB: r.IntN(2) == 1, m: m, n: n, k: k,
		alpha: alphas[r.IntN(len(alphas))], beta: betas[r.IntN(len(betas))],
		padA: r.IntN(3) * r.IntN(7), padB: r.IntN(3) * r.IntN(7), padC: r.IntN(3) * r.IntN(7),
	}
}

// TestSgemmAgainstLoop checks every kernel this machine runs (assembly
// ones and the Go fallback) against the triple loop: every small m, n, k
// combination, each edge size on each side with the others random, both
// transposes, alpha and beta variants (beta = 0 over NaN garbage), leading
// dimensions wider than the rows, and k spanning several k blocks.
func TestSgemmAgainstLoop(t *testing.T) {
	for _, kn := range kernels {
		t.Run(kn.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(1, 2))
			var cases []gemmCase
			for _, m := range smallSizes {
				for _, n := range smallSizes {
					for _, k := range smallSizes {
						cases = append(cases, randCase(r, m, n, k))
					}
				}
			}
			pick := func() int { return edgeSizes[r.IntN(len(edgeSizes))] }
			for _, s := range edgeSizes {
				for _, ta := range []Transpose{NoTrans, Trans} {
					for _, tb := range []Transpose{NoTrans, Trans} {
						for _, tc := range []gemmCase{randCase(r, s, pick(), pick()), randCase(r, pick(), s, pick()), randCase(r, pick(), pick(), s)} {
							tc.tA, tc.tB = ta, tb
							cases = append(cases, tc)
						}
					}
				}
			}
			// Past one k block, one row block (mc), and non-square shapes.
			for _, sh := range [][3]int{{kn.mc + 5, 40, 3}, {3, 70, 2*kn.kc + 9}, {kn.mc + kn.mr + 1, 2*kn.nr + 3, kn.kc + 1}, {1, 300, 513}, {300, 1, 513}, {130, 97, 600}} {
				for _, ta := range []Transpose{NoTrans, Trans} {
					for _, tb := range []Transpose{NoTrans, Trans} {
						tc := randCase(r, sh[0], sh[1], sh[2])
						tc.tA, tc.tB = ta, tb
						cases = append(cases, tc)
					}
				}
			}
			for i, tc := range cases {
				tc.run(t, kn, 1+i%3, r)
			}
			// Every alpha/beta pair on one shape with two transposes each.
			for _, al := range alphas {
				for _, be := range betas {
					tc := gemmCase{tA: Trans, tB: NoTrans, m: 37, n: 45, k: 29, alpha: al, beta: be, padA: 3, padB: 1, padC: 2}
					tc.run(t, kn, 2, r)
					tc.tA, tc.tB = NoTrans, Trans
					tc.run(t, kn, 2, r)
				}
			}
		})
	}
}

// TestSgemmBitIdenticalAcrossThreads: each C element's k reduction order is
// fixed by the k blocks alone, so 1, 2, 3 and 8 threads give the same bits.
func TestSgemmBitIdenticalAcrossThreads(t *testing.T) {
	shapes := []gemmCase{
		{m: 300, n: 200, k: 600, alpha: 1, beta: 0, tB: Trans},
		{m: 64, n: 1000, k: 128, alpha: 1, beta: 0, tB: Trans},
		{m: 1000, n: 16, k: 256, alpha: 0.5, beta: 1, tA: Trans},
		{m: 517, n: 333, k: 300, alpha: -1, beta: 0.25, tA: Trans, tB: Trans, padA: 3, padC: 5},
		{m: 2, n: 4000, k: 700, alpha: 1, beta: 0},
	}
	for _, kn := range kernels {
		for _, tc := range shapes {
			var first []float32
			for _, threads := range []int{1, 2, 3, 8} {
				got := tc.run(t, kn, threads, rand.New(rand.NewPCG(7, 7)))
				if first == nil {
					first = got
					continue
				}
				for i := range got {
					if math.Float32bits(got[i]) != math.Float32bits(first[i]) {
						t.Fatalf("%s %s: threads=%d differs from threads=1 at %d: %g vs %g", kn.name, tc, threads, i, got[i], first[i])
					}
				}
			}
		}
	}
}

func TestSgemmDegenerate(t *testing.T) {
	nan := float32(math.NaN())
	// k = 0 and alpha = 0 scale C by beta without reading A or B; beta = 0 clears NaNs.
	c := []float32{1, 2, nan, 3, 4, nan}
	Sgemm(NoTrans, NoTrans, 2, 2, 0, 1, nil, 1, nil, 2, 2, c, 3)
	if c[0] != 2 || c[1] != 4 || c[3] != 6 || c[4] != 8 || !math.IsNaN(float64(c[2])) {
		t.Errorf("k=0, beta=2: %v", c)
	}
	c = []float32{nan, nan, nan, nan}
	a := []float32{nan, nan, nan, nan}
	Sgemm(NoTrans, NoTrans, 2, 2, 2, 0, a, 2, a, 2, 0, c, 2)
	for _, v := range c {
		if v != 0 {
			t.Fatalf("alpha=0, beta=0: %v", c)
		}
	}
	Sgemm(NoTrans, NoTrans, 0, 5, 5, 1, nil, 5, make([]float32, 25), 5, 0, nil, 5)
}

func TestSgemmPanicsOnBadShapes(t *testing.T) {
	for _, f := range []func(){
		func() {
			Sgemm(NoTrans, NoTrans, 2, 2, 2, 1, make([]float32, 3), 2, make([]float32, 4), 2, 0, make([]float32, 4), 2)
		},
		func() {
			Sgemm(NoTrans, NoTrans, 2, 2, 2, 1, make([]float32, 4), 1, make([]float32, 4), 2, 0, make([]float32, 4), 2)
		},
		func() {
			Sgemm(Trans, NoTrans, 2, 3, 2, 1, make([]float32, 4), 2, make([]float32, 6), 3, 0, make([]float32, 5), 3)
		},
		func() {
			Sgemm(NoTrans, Trans, 2, 3, 2, 1, make([]float32, 4), 2, make([]float32, 6), 3, 0, make([]float32, 6), 3)
		},
		func() { Sgemm(NoTrans, NoTrans, -1, 2, 2, 1, nil, 2, nil, 2, 0, nil, 2) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Error("no panic")
				}
			}()
			f()
		}()
	}
}

func TestChoose(t *testing.T) {
	if choose("").name != kernels[0].name || choose("go").name != "go" {
		t.Fatal("choose")
	}
	defer func() {
		if recover() == nil {
			t.Error("unknown kernel accepted")
		}
	}()
	choose("sse9")
}

// TestAssemblyKernelsAgree: the AVX-512 and AVX2 kernels share KC and the
// reduction order, so they give the same bits (edge tiles, several k
// blocks, both transposes, alpha and beta included).
func TestAssemblyKernelsAgree(t *testing.T) {
	var asm []*kernel
	for _, kn := range kernels {
		if kn.name != "go" {
			asm = append(asm, kn)
		}
	}
	if len(asm) < 2 {
		t.Skipf("this CPU runs %d assembly kernel(s)", len(asm))
	}
	r := rand.New(rand.NewPCG(11, 12))
	for _, sh := range [][3]int{{256, 16, 256}, {16, 256, 256}, {256, 256, 16}, {100, 70, 600}, {37, 45, 29}, {13, 33, 513}} {
		for _, ta := range []Transpose{NoTrans, Trans} {
			for _, tb := range []Transpose{NoTrans, Trans} {
				tc := gemmCase{tA: ta, tB: tb, m: sh[0], n: sh[1], k: sh[2], alpha: 0.7, beta: 1.3, padA: 1, padC: 2}
				seed := r.Uint64()
				ref := tc.run(t, asm[0], 2, rand.New(rand.NewPCG(seed, 1)))
				for _, kn := range asm[1:] {
					got := tc.run(t, kn, 2, rand.New(rand.NewPCG(seed, 1)))
					for i := range got {
						if math.Float32bits(got[i]) != math.Float32bits(ref[i]) {
							t.Fatalf("%s vs %s, %s: C[%d] %g vs %g", kn.name, asm[0].name, tc, i, got[i], ref[i])
						}
					}
				}
			}
		}
	}
}
