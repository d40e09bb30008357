package gemm

//go:generate go run gen_kernels.go

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"unsafe"
)

// Transpose says whether an operand is used as stored or transposed.
type Transpose bool

const (
	NoTrans Transpose = false
	Trans   Transpose = true
)

func (t Transpose) String() string {
	if t {
		return "T"
	}
	return "N"
}

// Config holds the GEMM's tunables. The zero value is the default.
type Config struct {
	// Threads is the most goroutines one call uses (0: GOMAXPROCS). The
	// results are bit-identical for every value.
	Threads int
}

// Sgemm computes C = alpha·op(A)·op(B) + beta·C on GOMAXPROCS goroutines;
// see Config.Sgemm.
func Sgemm(tA, tB Transpose, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	Config{}.Sgemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// Sgemm computes C = alpha·op(A)·op(B) + beta·C for row-major matrices:
// op(A) is m×k, op(B) is k×n, C is m×n; op(X) is X (NoTrans) or Xᵀ (Trans).
// Row i of the stored A starts at a[i*lda] (A is m×k stored when NoTrans,
// k×m when Trans), likewise B with ldb and C with ldc. With beta = 0, C is
// not read (NaNs in it do not propagate); with alpha = 0 or k = 0, A and B
// are not read. Shapes that do not fit the slices panic.
func (cfg Config) Sgemm(tA, tB Transpose, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	sgemm(active, cfg.Threads, tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

func sgemm(kn *kernel, threads int, tA, tB Transpose, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	check(tA, tB, m, n, k, a, lda, b, ldb, c, ldc)
	if m == 0 || n == 0 {
		return
	}
	if k == 0 || alpha == 0 {
		scale(m, n, beta, c, ldc)
		return
	}
	if threads <= 0 {
		threads = runtime.GOMAXPROCS(0)
	}
	kn.run(threads, &problem{tA: bool(tA), tB: bool(tB), m: m, n: n, k: k, alpha: alpha, a: a, lda: lda, b: b, ldb: ldb, beta: beta, c: c, ldc: ldc})
}

// Impl names the micro-kernel Sgemm uses: "avx512", "avx2" or "go".
func Impl() string { return active.name }

func check(tA, tB Transpose, m, n, k int, a []float32, lda int, b []float32, ldb int, c []float32, ldc int) {
	bad := func(what string) {
		panic(fmt.Sprintf("gemm: Sgemm(%v, %v, m=%d, n=%d, k=%d, len(a)=%d, lda=%d, len(b)=%d, ldb=%d, len(c)=%d, ldc=%d): %s",
			tA, tB, m, n, k, len(a), lda, len(b), ldb, len(c), ldc, what))
	}
	if m < 0 || n < 0 || k < 0 {
		bad("negative dimension")
	}
	// fits reports whether a rows×cols matrix with stride ld fits in size values.
	fits := func(rows, cols, ld, size int) bool {
		if ld < max(1, cols) {
			return false
		}
		return rows == 0 || cols == 0 || (rows-1)*ld+cols <= size
	}
	ar, ac := m, k
	if tA {
		ar, ac = k, m
	}
	br, bc := k, n
	if tB {
		br, bc = n, k
	}
	if !fits(ar, ac, lda, len(a)) {
		bad("A does not fit (lda < its width or slice too short)")
	}
	if !fits(br, bc, ldb, len(b)) {
		bad("B does not fit (ldb < its width or slice too short)")
	}
	if !fits(m, n, ldc, len(c)) {
		bad("C does not fit (ldc < n or slice too short)")
	}
}

// scale sets C = beta·C (C = 0 when beta = 0, whatever C held).
func scale(m, n int, beta float32, c []float32, ldc int) {
	for i := 0; i < m; i++ {
		row := c[i*ldc : i*ldc+n]
		if beta == 0 {
			clear(row)
			continue
		}
		if beta == 1 {
			continue
		}
		for j := range row {
			row[j] *= beta
		}
	}
}

type problem struct {
	tA, tB      bool
	m, n, k     int
	alpha, beta float32
	a, b, c     []float32
	lda, ldb    int
	ldc         int
}

// microFn computes one MR×NR tile: acc = Σ_p a[p*MR+i]·b[p*NR+j] over
// p = 0..kc-1 in order, then C = alpha·acc, plus beta·C when flags&1, the
// two products rounded separately before the addition.
type microFn func(kc int, a, b, c *float32, ldc int, alpha, beta float32, flags int)

// kernel is a micro-kernel with the blocking that suits it.
type kernel struct {
	name   string
	mr, nr int
	kc     int // k per packed block: a B micro-panel kc×nr stays in L1
	mc     int // rows per task at most: a packed A block mc×kc stays in L2
	micro  microFn
	// trans8, when set, transposes 8 rows into a panel (see packT).
	trans8 func(dst *float32, ldd int, src *float32, lds int, kc int)
	pool   sync.Pool // *workspace
}

// minTaskFlops is the least work worth a goroutine of its own.
const minTaskFlops = 1 << 19

// smallFlops is the size under which a product gets one task per thread.
const smallFlops = 1 << 25

// workspace holds one worker's packed blocks, 64-byte aligned.
type workspace struct {
	a, b, tile []float32
}

func aligned(n int) []float32 {
	buf := make([]float32, n+16)
	off := (64 - int(uintptr(unsafe.Pointer(&buf[0]))%64)) % 64 / 4
	return buf[off : off+n : off+n]
}

func (kn *kernel) workspace() *workspace {
	if ws, ok := kn.pool.Get().(*workspace); ok {
		return ws
	}
	return &workspace{a: aligned(kn.mc * kn.kc), b: aligned(kn.kc * kn.nr), tile: aligned(kn.mr * kn.nr)}
}

// run splits C into a grid of tasks and works through them on up to
// threads goroutines. Every C element is computed by exactly one task, with
// the same k blocks in the same order whatever the grid, so the result does
// not depend on threads or on scheduling.
func (kn *kernel) run(threads int, p *problem) {
	// Rows per task: at most mc (L2); columns: all. Then split the larger
	// side of a task in two (multiples of MR and NR) until there are enough
	// tasks for the threads, or tasks would get too small.
	rowTasks, colTasks := ceilDiv(p.m, kn.mc), 1
	flops := 2 * float64(p.m) * float64(p.n) * float64(p.k)
	target := 1
	if threads > 1 {
		// Three tasks per thread balance the load of large products; a
		// small one gets one task per thread, as each task packs its own
		// copy of the operand it does not split (six copies of a gate's
		// weights cost more than the imbalance of two tasks).
		per := 3
		if flops < smallFlops {
			per = 1
		}
		target = max(1, min(per*threads, int(flops/minTaskFlops)))
	}
	for rowTasks*colTasks < target {
		h := roundUp(ceilDiv(p.m, rowTasks), kn.mr)
		w := roundUp(ceilDiv(p.n, colTasks), kn.nr)
		canRows, canCols := h >= 2*kn.mr, w >= 2*kn.nr
		switch {
		case canRows && (h >= w || !canCols):
			rowTasks++
		case canCols:
			colTasks++
		default:
			target = 0
		}
	}
	h := roundUp(ceilDiv(p.m, rowTasks), kn.mr)
	w := roundUp(ceilDiv(p.n, colTasks), kn.nr)
	rowTasks, colTasks = ceilDiv(p.m, h), ceilDiv(p.n, w)
	tasks := rowTasks * colTasks
	do := func(ws *workspace, t int) {
		i0, j0 := (t/colTasks)*h, (t%colTasks)*w
		kn.task(ws, p, i0, min(i0+h, p.m), j0, min(j0+w, p.n))
	}
	workers := min(threads, tasks)
	if workers <= 1 {
		ws := kn.workspace()
		for t := 0; t < tasks; t++ {
			do(ws, t)
		}
		kn.pool.Put(ws)
		return
	}
	// Tasks are claimed from a counter; the caller works too and waits only
	// for tasks a worker has claimed. A worker that starts late (waking a
	// goroutine costs microseconds, a small product's whole task) finds
	// nothing left and leaves without being waited for.
	var next, done atomic.Int64
	finished := make(chan struct{})
	work := func() {
		var ws *workspace
		for {
			t := int(next.Add(1)) - 1
			if t >= tasks {
				break
			}
			if ws == nil {
				ws = kn.workspace()
			}
			do(ws, t)
			if int(done.Add(1)) == tasks {
				close(finished)
			}
		}
		if ws != nil {
			kn.pool.Put(ws)
		}
	}
	for range workers - 1 {
		go work()
	}
	work()
	<-finished
}

// task computes C[i0:i1, j0:j1] (i1-i0 <= mc): for each k block, pack the
// A rows once, then for each NR-column panel pack B and run the micro-kernel
// down the rows.
func (kn *kernel) task(ws *workspace, p *problem, i0, i1, j0, j1 int) {
	mr, nr := kn.mr, kn.nr
	rows := i1 - i0
	for pc := 0; pc < p.k; pc += kn.kc {
		kc := min(kn.kc, p.k-pc)
		beta, flags := p.beta, 1
		if pc > 0 {
			beta = 1
		} else if p.beta == 0 {
			flags = 0
		}
		kn.packA(ws.a, p, i0, i1, pc, kc)
		for j := j0; j < j1; j += nr {
			cols := min(nr, j1-j)
			kn.packB(ws.b, p, j, j+cols, pc, kc)
			for i := 0; i < rows; i += mr {
				ap := &ws.a[i*kc]
				if i+mr <= rows && cols == nr {
					kn.micro(kc, ap, &ws.b[0], &p.c[(i0+i)*p.ldc+j], p.ldc, p.alpha, beta, flags)
					continue
				}
				// Partial tile: the full tile into scratch, then the
				// same epilogue in Go (products rounded, then added).
				kn.micro(kc, ap, &ws.b[0], &ws.tile[0], nr, 1, 0, 0)
				for ii := 0; ii < min(mr, rows-i); ii++ {
					crow := p.c[(i0+i+ii)*p.ldc+j : (i0+i+ii)*p.ldc+j+cols]
					trow := ws.tile[ii*nr : ii*nr+cols]
					if flags&1 == 0 {
						for jj, t := range trow {
							crow[jj] = float32(p.alpha * t)
						}
					} else {
						for jj, t := range trow {
							crow[jj] = float32(p.alpha*t) + float32(beta*crow[jj])
						}
					}
				}
			}
		}
	}
}

// packA writes op(A)[i0:i1, pc:pc+kc] as MR-row panels: panel q holds
// dst[q*MR*kc + p*MR + i] = op(A)[i0+q*MR+i, pc+p], rows past i1 zero.
func (kn *kernel) packA(dst []float32, p *problem, i0, i1, pc, kc int) {
	mr := kn.mr
	for q := i0; q < i1; q += mr {
		panel := dst[(q-i0)*kc : (q-i0+mr)*kc]
		rows := min(mr, i1-q)
		if p.tA {
			// Stored k×m: op(A)[i, p] = a[p*lda + i], MR contiguous values per p.
			for pp := 0; pp < kc; pp++ {
				src := p.a[(pc+pp)*p.lda+q : (pc+pp)*p.lda+q+rows]
				d := panel[pp*mr : pp*mr+mr]
				copy(d, src)
				clear(d[rows:])
			}
			continue
		}
		kn.packT(panel, mr, p.a[q*p.lda+pc:], p.lda, rows, kc)
	}
}

// packB writes op(B)[pc:pc+kc, j0:j1] (j1-j0 <= NR) as one NR-column
// panel: dst[p*NR + j] = op(B)[pc+p, j0+j], columns past j1 zero.
func (kn *kernel) packB(dst []float32, p *problem, j0, j1, pc, kc int) {
	nr, cols := kn.nr, j1-j0
	if p.tB {
		// Stored n×k: op(B)[p, j] = b[j*ldb + p].
		kn.packT(dst, nr, p.b[j0*p.ldb+pc:], p.ldb, cols, kc)
		return
	}
	for pp := 0; pp < kc; pp++ {
		src := p.b[(pc+pp)*p.ldb+j0 : (pc+pp)*p.ldb+j1]
		d := dst[pp*nr : pp*nr+nr]
		copy(d, src)
		clear(d[cols:])
	}
}

// packT transposes rows×kc values of src (row r at src[r*lds:]) into a
// panel of width w: dst[p*w + r] = src[r*lds + p], rows past rows zero.
// Groups of eight rows go through the kernel's assembly transpose.
func (kn *kernel) packT(dst []float32, w int, src []float32, lds, rows, kc int) {
	dst = dst[:kc*w]
	r := 0
	if kn.trans8 != nil && kc >= 8 {
		kc8 := kc &^ 7
		for ; r+8 <= rows; r += 8 {
			// The assembly reads src[r*lds : (r+7)*lds+kc8] and writes
			// dst[r : (kc8-1)*w+r+8]; slicing checks both bounds first.
			s := src[r*lds : (r+7)*lds+kc8]
			d := dst[r : (kc8-1)*w+r+8]
			kn.trans8(&d[0], w, &s[0], lds, kc8)
			for i := range 8 {
				row := s[i*lds+kc8 : i*lds+kc]
				for pp, v := range row {
					dst[(kc8+pp)*w+r+i] = v
				}
			}
		}
	}
	for ; r+4 <= rows; r += 4 {
		s0 := src[r*lds : r*lds+kc]
		s1 := src[(r+1)*lds : (r+1)*lds+kc]
		s2 := src[(r+2)*lds : (r+2)*lds+kc]
		s3 := src[(r+3)*lds : (r+3)*lds+kc]
		for pp := range kc {
			d := dst[pp*w+r : pp*w+r+4 : pp*w+r+4]
			d[0], d[1], d[2], d[3] = s0[pp], s1[pp], s2[pp], s3[pp]
		}
	}
	for ; r < rows; r++ {
		for pp, v := range src[r*lds : r*lds+kc] {
			dst[pp*w+r] = v
		}
	}
	if rows < w {
		for pp := range kc {
			clear(dst[pp*w+rows : pp*w+w])
		}
	}
}

func ceilDiv(a, b int) int { return (a + b - 1) / b }

func roundUp(a, b int) int { return ceilDiv(a, b) * b }
