package gemm

import "unsafe"

// goKernel is the portable micro-kernel: plain Go, 2×4 tiles (eight scalar
// accumulators stay in registers; bigger tiles spill and run slower).
func goKernel() *kernel {
	return &kernel{name: "go", mr: 2, nr: 4, kc: 256, mc: 256, micro: microGo}
}

// microGo is the 2×4 micro-kernel in Go (see microFn). Each product is
// rounded before it is added (the explicit float32 conversions keep the
// compiler from fusing them), so the result does not depend on GOAMD64.
func microGo(kc int, ap, bp, cp *float32, ldc int, alpha, beta float32, flags int) {
	a := unsafe.Slice(ap, 2*kc)
	b := unsafe.Slice(bp, 4*kc)
	var c00, c01, c02, c03, c10, c11, c12, c13 float32
	for p := 0; p < kc; p++ {
		av := a[2*p : 2*p+2 : 2*p+2]
		bv := b[4*p : 4*p+4 : 4*p+4]
		a0, a1 := av[0], av[1]
		b0, b1, b2, b3 := bv[0], bv[1], bv[2], bv[3]
		c00 += float32(a0 * b0)
		c01 += float32(a0 * b1)
		c02 += float32(a0 * b2)
		c03 += float32(a0 * b3)
		c10 += float32(a1 * b0)
		c11 += float32(a1 * b1)
		c12 += float32(a1 * b2)
		c13 += float32(a1 * b3)
	}
	c := unsafe.Slice(cp, ldc+4)
	acc := [2][4]float32{{c00, c01, c02, c03}, {c10, c11, c12, c13}}
	for i := range 2 {
		row := c[i*ldc : i*ldc+4 : i*ldc+4]
		for j, v := range acc[i] {
			if flags&1 == 0 {
				row[j] = float32(alpha * v)
			} else {
				row[j] = float32(alpha*v) + float32(beta*row[j])
			}
		}
	}
}
