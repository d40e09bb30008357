package index

import (
	"context"
	"fmt"
	"math"
	"runtime"
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
// thread per worker): each worker owns a range of document rows, scores a
// block of rows against every block of queries while the rows are in
// cache, and keeps per-query top-k collectors that are merged at the end,
// so results do not depend on scheduling.
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
	workers := min(cfg.Workers, max(1, (docs.Rows+cfg.RowBlock-1)/cfg.RowBlock))
	// Split document rows into one contiguous range per worker.
	per := (docs.Rows + workers - 1) / workers
	partial := make([][]TopK, workers)
	// floors[q] is the best k-th score any worker holds for query q: no
	// hit below it can be among the k best, so every worker drops such
	// hits (the kept set, and so the result, does not depend on timing).
	floors := make([]floor, nq)
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		lo, hi := w*per, min((w+1)*per, docs.Rows)
		tops := make([]TopK, nq)
		for i := range tops {
			tops[i].Reset(k)
		}
		partial[w] = tops
		if lo >= hi {
			continue
		}
		wg.Add(1)
		go func(w, lo, hi int) {
			defer wg.Done()
			scores := make([]float32, min(cfg.QueryBlock, nq)*cfg.RowBlock)
			one := gemm.Config{Threads: 1}
			dim := docs.Dim
			for r0 := lo; r0 < hi; r0 += cfg.RowBlock {
				r1 := min(r0+cfg.RowBlock, hi)
				for q0 := 0; q0 < nq; q0 += cfg.QueryBlock {
					if ctx.Err() != nil {
						errs[w] = ctx.Err()
						return
					}
					q1 := min(q0+cfg.QueryBlock, nq)
					nr := r1 - r0
					// scores[q, r] = queries[q0+q] · docs[r0+r].
					one.Sgemm(gemm.NoTrans, gemm.Trans, q1-q0, nr, dim, 1,
						queries.Data[q0*dim:q1*dim], dim, docs.Data[r0*dim:r1*dim], dim, 0, scores, nr)
					for qi := 0; qi < q1-q0; qi++ {
						floors[q0+qi].raise(collect(&partial[w][q0+qi], scores[qi*nr:(qi+1)*nr], r0, allow, floors[q0+qi].get()))
					}
				}
			}
		}(w, lo, hi)
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	out := make([][]Hit, nq)
	var merged TopK
	for qi := 0; qi < nq; qi++ {
		merged.Reset(k)
		for w := range partial {
			for _, h := range partial[w][qi].heap {
				merged.Push(h)
			}
		}
		out[qi] = merged.Sorted(nil)
	}
	return out, nil
}

// collect offers row[j] as the hit of document r0+j to top, for the
// documents allow admits and scoring at least min (another worker's k-th
// best). Once top is full only scores at least its worst one can enter, so
// most are rejected by one comparison. It returns top's k-th best score,
// or -Inf while top holds fewer than k hits.
func collect(top *TopK, row []float32, r0 int, allow []bool, min float32) float32 {
	if top.k <= 0 {
		return float32(math.Inf(-1))
	}
	thr := min
	if len(top.heap) == top.k {
		thr = max(thr, top.heap[0].Score)
	}
	for j := 0; j < len(row); j++ {
		j += scanGE(row[j:], thr)
		if j == len(row) {
			break
		}
		if allow != nil && !allow[r0+j] {
			continue
		}
		top.Push(Hit{ID: uint32(r0 + j), Score: row[j]})
		if len(top.heap) == top.k {
			thr = max(min, top.heap[0].Score)
		}
	}
	if len(top.heap) < top.k {
		return float32(math.Inf(-1))
	}
	return top.heap[0].Score
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
