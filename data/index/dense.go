package index

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"gonum.org/v1/gonum/blas/blas32"

	"github.com/strata-retrieval/strata/internal/gemm"
)

// Matrix is a dense row-major float32 matrix: Rows vectors of length Dim.
type Matrix struct {
	Rows, Dim int
	Data      []float32
}

// NewMatrix allocates a zero matrix.
func NewMatrix(rows, dim int) *Matrix {
	return &Matrix{Rows: rows, Dim: dim, Data: make([]float32, rows*dim)}
}

// Row returns row i as a slice aliasing the matrix.
func (m *Matrix) Row(i int) []float32 { return m.Data[i*m.Dim : (i+1)*m.Dim] }

// Validate checks that Data has Rows·Dim values.
func (m *Matrix) Validate() error {
	if m.Rows < 0 || m.Dim <= 0 || len(m.Data) != m.Rows*m.Dim {
		return fmt.Errorf("index: matrix %d×%d has %d values", m.Rows, m.Dim, len(m.Data))
	}
	return nil
}

// NormalizeRows scales every row to unit L2 norm (zero rows stay zero).
func (m *Matrix) NormalizeRows() {
	for i := 0; i < m.Rows; i++ {
		r := m.Row(i)
		var s float64
		for _, v := range r {
			s += float64(v) * float64(v)
		}
		if s == 0 {
			continue
		}
		inv := float32(1 / math.Sqrt(s))
		for j := range r {
			r[j] *= inv
		}
	}
}

// minQueriesPerWorker is the number of queries per worker from which
// SearchDense splits the queries among its workers instead of the documents.
const minQueriesPerWorker = 32

// DenseConfig sizes the blocks of SearchDense. Zero values mean defaults.
type DenseConfig struct {
	QueryBlock int // queries per GEMM block (default 256)
	RowBlock   int // document rows per GEMM block (default 1024)
	Workers    int // goroutines (default all cores)
}

func (c DenseConfig) withDefaults() DenseConfig {
	if c.QueryBlock <= 0 {
		c.QueryBlock = 256
	}
	if c.RowBlock <= 0 {
		c.RowBlock = 1024
	}
	if c.Workers <= 0 {
		c.Workers = runtime.GOMAXPROCS(0)
	}
	return c
}

// SearchDense returns, for every query row, the k document rows with the
// largest dot product, best first, ties broken by ascending row id (exact
// search). When allow is not nil only rows r with allow[r] are considered.
// Scores are computed block by block with float32 GEMM (internal/gemm, one
// thread per worker): each worker owns a range of queries (when there are
// at least minQueriesPerWorker per worker) or a range of document rows,
// scores a block of rows against its blocks of queries while the rows are
// in cache, and keeps per-query top-k collectors that are merged at the
// end, so results do not depend on scheduling.
func SearchDense(ctx context.Context, docs, queries *Matrix, k int, allow []bool, cfg DenseConfig) ([][]Hit, error) {
	if docs.Dim != queries.Dim {
		return nil, fmt.Errorf("index: document dim %d, query dim %d", docs.Dim, queries.Dim)
	}
	if err := docs.Validate(); err != nil {
		return nil, err
	}
	if err := queries.Validate(); err != nil {
		return nil, err
	}
	if allow != nil && len(allow) != docs.Rows {
		return nil, fmt.Errorf("index: allow mask has %d entries for %d rows", len(allow), docs.Rows)
	}
	cfg = cfg.withDefaults()
	nq := queries.Rows
	// Each worker owns a range of queries and a range of document rows.
	// With many queries the queries are split: every query keeps one top-k
	// over all documents (keeping k of n costs about k·(1 + ln(n/k))
	// insertions, so two halves of the documents cost two thirds more).
	// With few queries the documents are split, and the workers share each
	// query's k-th best score.
	type span struct{ q0, q1, r0, r1 int }
	workers := cfg.Workers
	var spans []span
	if nq >= minQueriesPerWorker*workers {
		per := (nq + workers - 1) / workers
		for w := 0; w < workers; w++ {
			spans = append(spans, span{w * per, min((w+1)*per, nq), 0, docs.Rows})
		}
	} else {
		workers = min(workers, max(1, (docs.Rows+cfg.RowBlock-1)/cfg.RowBlock))
		per := (docs.Rows + workers - 1) / workers
		for w := 0; w < workers; w++ {
			spans = append(spans, span{0, nq, w * per, min((w+1)*per, docs.Rows)})
		}
	}
	tops := make([]denseTop, nq*len(spans)) // tops[w*nq+q]: worker w's for query q
	for i := range tops {
		tops[i].reset(k)
	}
	// floors[q] is the best k-th score any worker holds for query q: no
	// hit below it can be among the k best, so every worker drops such
	// hits (the kept set, and so the result, does not depend on timing).
	floors := make([]floor, nq)
	errs := make([]error, len(spans))
	var wg sync.WaitGroup
	for w, sp := range spans {
		if sp.q0 >= sp.q1 || sp.r0 >= sp.r1 {
			continue
		}
		wg.Add(1)
		go func(w int, sp span) {
			defer wg.Done()
			qb := min(cfg.QueryBlock, sp.q1-sp.q0)
			scores := make([]float32, qb*cfg.RowBlock)
			one := gemm.Config{Threads: 1}
			dim := docs.Dim
			for r0 := sp.r0; r0 < sp.r1; r0 += cfg.RowBlock {
				r1 := min(r0+cfg.RowBlock, sp.r1)
				for q0 := sp.q0; q0 < sp.q1; q0 += qb {
					if ctx.Err() != nil {
						errs[w] = ctx.Err()
						return
					}
					q1 := min(q0+qb, sp.q1)
					nr := r1 - r0
					// scores[q, r] = queries[q0+q] · docs[r0+r].
					one.Sgemm(gemm.NoTrans, gemm.Trans, q1-q0, nr, dim, 1,
						queries.Data[q0*dim:q1*dim], dim, docs.Data[r0*dim:r1*dim], dim, 0, scores, nr)
					for qi := 0; qi < q1-q0; qi++ {
						q := q0 + qi
						floors[q].raise(collect(&tops[w*nq+q], scores[qi*nr:(qi+1)*nr], r0, allow, floors[q].get()))
					}
				}
			}
		}(w, sp)
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	out := make([][]Hit, nq)
	var merged denseTop
	for qi := 0; qi < nq; qi++ {
		merged.reset(k)
		for w := range spans {
			for _, key := range tops[w*nq+qi].h {
				merged.push(key)
			}
		}
		out[qi] = merged.sorted()
	}
	return out, nil
}

// collect offers row[j] as the hit of document r0+j to top, for the
// documents allow admits and scoring at least min (another worker's k-th
// best). Once top is full only scores at least its worst one can enter, so
// most are rejected by one comparison (eight at a time). A worker offers
// its documents in ascending id order, so a score equal to the worst kept
// one loses its tie and needs no offer: the scan asks for strictly more
// (which matters where many documents score the same, e.g. the zero
// vectors of a field most nodes lack). It returns top's k-th best score,
// or -Inf while top holds fewer than k hits.
func collect(top *denseTop, row []float32, r0 int, allow []bool, min float32) float32 {
	if top.k <= 0 {
		return float32(math.Inf(-1))
	}
	// threshold: scores must be >= thr, or > thr when strict.
	threshold := func() (float32, bool) {
		if !top.full() {
			return min, false
		}
		if w := top.worst(); w >= min {
			return w, true
		}
		return min, false
	}
	thr, strict := threshold()
	for j := 0; j < len(row); j++ {
		if strict {
			j += scanGT(row[j:], thr)
		} else {
			j += scanGE(row[j:], thr)
		}
		if j == len(row) {
			break
		}
		if allow != nil && !allow[r0+j] {
			continue
		}
		top.push(hitKey(row[j], uint32(r0+j)))
		thr, strict = threshold()
	}
	if !top.full() {
		return float32(math.Inf(-1))
	}
	return top.worst()
}

// denseTop keeps the k best hits of SearchDense as a min-heap of hitKeys:
// one integer comparison orders two hits (TopK's order: the higher score,
// then the lower id), and the sift picks the worse child without a branch,
// where TopK's float-then-id comparisons mispredicted at every level (the
// heap cost more than the GEMM with k = 100).
type denseTop struct {
	k int
	h []uint64
}

// hitKey packs a hit so that a larger key is a better hit: the score's bits
// mapped to unsigned order (−0 as +0) above the complement of the id.
func hitKey(score float32, id uint32) uint64 {
	if score == 0 {
		score = 0 // −0 ties with +0, as in TopK
	}
	return uint64(key(score))<<32 | uint64(^id)
}

// uint64Key is a hitKey; hit unpacks it.
type uint64Key uint64

func (k uint64Key) hit() Hit { return Hit{ID: ^uint32(k), Score: unkey(uint32(k >> 32))} }

// reset empties the collector for the k best hits; the heap is allocated
// at the first offer (a worker splitting the queries never offers the
// others' queries a hit).
func (t *denseTop) reset(k int) {
	t.k = k
	t.h = t.h[:0]
}

func (t *denseTop) full() bool { return len(t.h) == t.k }

// worst is the score of the worst kept hit; the heap is not empty.
func (t *denseTop) worst() float32 { return unkey(uint32(t.h[0] >> 32)) }

func (t *denseTop) push(x uint64) {
	if t.k <= 0 {
		return
	}
	h := t.h
	if len(h) < t.k {
		if h == nil {
			h = make([]uint64, 0, min(t.k, 1024))
		}
		h = append(h, x)
		i := len(h) - 1
		for i > 0 {
			p := (i - 1) / 2
			if h[p] <= x {
				break
			}
			h[i] = h[p]
			i = p
		}
		h[i] = x
		t.h = h
		return
	}
	if x <= h[0] {
		return
	}
	n, i := len(h), 0
	for {
		l := 2*i + 1
		r := l + 1
		if r >= n {
			if l < n && h[l] < x {
				h[i] = h[l]
				i = l
			}
			break
		}
		c, hc := l, h[l]
		if hr := h[r]; hr < hc {
			c, hc = r, hr
		}
		if hc >= x {
			break
		}
		h[i] = hc
		i = c
	}
	h[i] = x
}

// sorted returns the kept hits best first and empties the collector.
func (t *denseTop) sorted() []Hit {
	slices.Sort(t.h)
	out := make([]Hit, len(t.h))
	for i, x := range t.h {
		out[len(t.h)-1-i] = uint64Key(x).hit()
	}
	t.h = t.h[:0]
	return out
}

// scanGE returns the first index j with !(row[j] < thr) (a NaN score
// counts), or len(row): eight scores per compare with AVX2.
func scanGE(row []float32, thr float32) int {
	j, n8 := scanGEVec(row, thr)
	if j < n8 {
		return j
	}
	for j = n8; j < len(row); j++ {
		if !(row[j] < thr) {
			return j
		}
	}
	return len(row)
}

// scanGT returns the first index j with !(row[j] <= thr) (a NaN score
// counts), or len(row): scanGE from the next float32 above thr, the same
// test for any finite thr (at thr = +Inf it also stops at +Inf scores,
// which the heap's key comparison then rejects).
func scanGT(row []float32, thr float32) int {
	return scanGE(row, math.Nextafter32(thr, float32(math.Inf(1))))
}

// floor is a float32 that only rises, shared by SearchDense's workers: the
// bits of an order-preserving uint32 encoding of the score.
type floor struct{ bits atomic.Uint32 }

// key maps float32 order (no NaN) to uint32 order; 0 is below every score.
func key(f float32) uint32 {
	b := math.Float32bits(f)
	if b&(1<<31) != 0 {
		return ^b
	}
	return b | 1<<31
}

func (f *floor) get() float32 {
	k := f.bits.Load()
	if k == 0 {
		return float32(math.Inf(-1))
	}
	return unkey(k)
}

// unkey inverts key.
func unkey(k uint32) float32 {
	if k&(1<<31) != 0 {
		return math.Float32frombits(k &^ (1 << 31))
	}
	return math.Float32frombits(^k)
}

func (f *floor) raise(v float32) {
	k := key(v)
	for {
		old := f.bits.Load()
		if old >= k || f.bits.CompareAndSwap(old, k) {
			return
		}
	}
}

// ScoreRows returns the dot product of query with each listed row.
func ScoreRows(docs *Matrix, query []float32, rows []uint32) []float32 {
	out := make([]float32, len(rows))
	x := blas32.Vector{N: len(query), Inc: 1, Data: query}
	for i, r := range rows {
		out[i] = blas32.Dot(x, blas32.Vector{N: docs.Dim, Inc: 1, Data: docs.Row(int(r))})
	}
	return out
}

// RowSimilarity returns the dot products of rows [lo, hi) of m with every
// row of m, row-major ((hi-lo) × m.Rows), computed by one GEMM into out
// (reallocated when too small).
func RowSimilarity(m *Matrix, lo, hi int, out []float32) []float32 {
	n := (hi - lo) * m.Rows
	if cap(out) < n {
		out = make([]float32, n)
	}
	out = out[:n]
	if n == 0 {
		return out
	}
	gemm.Sgemm(gemm.NoTrans, gemm.Trans, hi-lo, m.Rows, m.Dim, 1, m.Data[lo*m.Dim:hi*m.Dim], m.Dim, m.Data, m.Dim, 0, out, m.Rows)
	return out
}
