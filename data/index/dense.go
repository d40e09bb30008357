package index

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"sync"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas32"
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

func (m *Matrix) general() blas32.General {
	return blas32.General{Rows: m.Rows, Cols: m.Dim, Stride: m.Dim, Data: m.Data}
}

// DenseConfig sizes the blocks of SearchDense. Zero values mean defaults.
type DenseConfig struct {
	QueryBlock int // queries per GEMM block (default 64)
	RowBlock   int // document rows per GEMM block (default 1024)
	Workers    int // goroutines (default all cores)
}

func (c DenseConfig) withDefaults() DenseConfig {
	if c.QueryBlock <= 0 {
		c.QueryBlock = 64
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
// Scores are computed block by block with float32 GEMM (gonum blas32):
// each worker owns a range of document rows and keeps per-query top-k
// collectors that are merged at the end, so results do not depend on
// scheduling.
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
			scores := make([]float32, cfg.QueryBlock*cfg.RowBlock)
			for q0 := 0; q0 < nq; q0 += cfg.QueryBlock {
				q1 := min(q0+cfg.QueryBlock, nq)
				qb := blas32.General{Rows: q1 - q0, Cols: queries.Dim, Stride: queries.Dim, Data: queries.Data[q0*queries.Dim : q1*queries.Dim]}
				for r0 := lo; r0 < hi; r0 += cfg.RowBlock {
					if ctx.Err() != nil {
						errs[w] = ctx.Err()
						return
					}
					r1 := min(r0+cfg.RowBlock, hi)
					db := blas32.General{Rows: r1 - r0, Cols: docs.Dim, Stride: docs.Dim, Data: docs.Data[r0*docs.Dim : r1*docs.Dim]}
					sb := blas32.General{Rows: q1 - q0, Cols: r1 - r0, Stride: r1 - r0, Data: scores[:(q1-q0)*(r1-r0)]}
					blas32.Gemm(blas.NoTrans, blas.Trans, 1, qb, db, 0, sb)
					for qi := 0; qi < q1-q0; qi++ {
						row := sb.Data[qi*sb.Stride : (qi+1)*sb.Stride]
						top := &partial[w][q0+qi]
						for j, s := range row {
							id := r0 + j
							if allow != nil && !allow[id] {
								continue
							}
							top.Push(Hit{ID: uint32(id), Score: s})
						}
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
	a := blas32.General{Rows: hi - lo, Cols: m.Dim, Stride: m.Dim, Data: m.Data[lo*m.Dim : hi*m.Dim]}
	c := blas32.General{Rows: hi - lo, Cols: m.Rows, Stride: m.Rows, Data: out}
	blas32.Gemm(blas.NoTrans, blas.Trans, 1, a, m.general(), 0, c)
	return out
}
