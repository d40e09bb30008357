package index

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-retrieval/strata/internal/gemm/gemmbench"
)

func randMatrix(r *rand.Rand, rows, dim int) *Matrix {
	m := NewMatrix(rows, dim)
	for i := range m.Data {
		m.Data[i] = float32(r.NormFloat64())
	}
	return m
}

// brute ranks every allowed row by a float64 dot product.
func brute(docs *Matrix, q []float32, k int, allow []bool) []Hit {
	var hs []Hit
	for i := 0; i < docs.Rows; i++ {
		if allow != nil && !allow[i] {
			continue
		}
		var s float64
		for j, v := range docs.Row(i) {
			s += float64(v) * float64(q[j])
		}
		hs = append(hs, Hit{ID: uint32(i), Score: float32(s)})
	}
	sort.Slice(hs, func(a, b int) bool { return better(hs[a], hs[b]) })
	if len(hs) > k {
		hs = hs[:k]
	}
	return hs
}

func TestSearchDenseMatchesBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, c := range []struct{ rows, dim, nq, k int }{{1, 3, 1, 1}, {37, 8, 5, 4}, {1000, 33, 70, 10}, {2500, 64, 9, 100}} {
		docs := randMatrix(r, c.rows, c.dim)
		qs := randMatrix(r, c.nq, c.dim)
		allow := make([]bool, c.rows)
		for i := range allow {
			allow[i] = r.IntN(3) > 0
		}
		for _, mask := range [][]bool{nil, allow} {
			got, err := SearchDense(context.Background(), docs, qs, c.k, mask, DenseConfig{QueryBlock: 16, RowBlock: 128})
			if err != nil {
				t.Fatal(err)
			}
			for qi := 0; qi < c.nq; qi++ {
				want := brute(docs, qs.Row(qi), c.k, mask)
				if len(got[qi]) != len(want) {
					t.Fatalf("%+v q%d: %d hits, want %d", c, qi, len(got[qi]), len(want))
				}
				for i := range want {
					d := got[qi][i].Score - want[i].Score
					if got[qi][i].ID != want[i].ID && (d > 1e-4 || d < -1e-4) {
						t.Fatalf("%+v q%d rank %d: %v, want %v", c, qi, i, got[qi][i], want[i])
					}
					if d > 1e-4 || d < -1e-4 {
						t.Fatalf("%+v q%d rank %d: score %v, want %v", c, qi, i, got[qi][i].Score, want[i].Score)
					}
				}
			}
		}
	}
}

// Results are identical whatever the blocking and the number of workers.
func TestSearchDenseDeterministic(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	docs := randMatrix(r, 3000, 48)
	// 50 queries split the documents among 2 or 3 workers; 200 split the
	// queries.
	for _, nq := range []int{50, 200} {
		qs := randMatrix(r, nq, 48)
		ref, _ := SearchDense(context.Background(), docs, qs, 20, nil, DenseConfig{Workers: 1, QueryBlock: 64, RowBlock: 1024})
		for _, cfg := range []DenseConfig{{Workers: 2, QueryBlock: 7, RowBlock: 100}, {Workers: 3, QueryBlock: 50, RowBlock: 3000}} {
			got, err := SearchDense(context.Background(), docs, qs, 20, nil, cfg)
			if err != nil {
				t.Fatal(err)
			}
			if !cmp.Equal(got, ref) {
				t.Fatalf("%d queries: config %+v changed the results", nq, cfg)
			}
		}
	}
	qs := randMatrix(r, 50, 48)
	if _, err := SearchDense(context.Background(), docs, randMatrix(r, 2, 47), 5, nil, DenseConfig{}); err == nil {
		t.Error("dimension mismatch accepted")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := SearchDense(ctx, docs, qs, 5, nil, DenseConfig{}); err == nil {
		t.Error("cancelled search returned no error")
	}
}

func TestNormalizeRows(t *testing.T) {
	m := &Matrix{Rows: 2, Dim: 2, Data: []float32{3, 4, 0, 0}}
	m.NormalizeRows()
	if !cmp.Equal(m.Data, []float32{0.6, 0.8, 0, 0}) {
		t.Errorf("normalized %v", m.Data)
	}
}

// Ties (duplicate rows) and k beyond the allowed rows: the threshold fast
// path of collect must keep the ascending-id tie-break and drop nothing.
func TestSearchDenseTies(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	base := randMatrix(r, 5, 16)
	docs := NewMatrix(2000, 16)
	for i := 0; i < docs.Rows; i++ {
		copy(docs.Row(i), base.Row(r.IntN(base.Rows)))
	}
	qs := randMatrix(r, 100, 16) // 3 workers split these queries; the first 9 alone split the documents
	allow := make([]bool, docs.Rows)
	for i := range allow {
		allow[i] = i%7 == 0
	}
	for _, k := range []int{0, 1, 10, 300, 5000} {
		for _, mask := range [][]bool{nil, allow} {
			got, err := SearchDense(context.Background(), docs, qs, k, mask, DenseConfig{QueryBlock: 4, RowBlock: 96, Workers: 3})
			if err != nil {
				t.Fatal(err)
			}
			few, err := SearchDense(context.Background(), docs, &Matrix{Rows: 9, Dim: 16, Data: qs.Data[:9*16]}, k, mask, DenseConfig{QueryBlock: 4, RowBlock: 96, Workers: 3})
			if err != nil {
				t.Fatal(err)
			}
			if !cmp.Equal(few, got[:9]) {
				t.Fatalf("k=%d mask=%v: 9 queries (documents split) differ from the same 9 among 100 (queries split)", k, mask != nil)
			}
			if err != nil {
				t.Fatal(err)
			}
			for qi := range qs.Rows {
				want := brute(docs, qs.Row(qi), k, mask)
				ids := func(hs []Hit) []uint32 {
					out := []uint32{}
					for _, h := range hs {
						out = append(out, h.ID)
					}
					return out
				}
				if d := cmp.Diff(ids(want), ids(got[qi])); d != "" {
					t.Fatalf("k=%d mask=%v q%d: ids (-want +got):\n%s", k, mask != nil, qi, d)
				}
			}
		}
	}
}

// BenchmarkDenseVsGEMMPeak reports the GFLOP/s of exact dense top-k search
// (scores by internal/gemm, top-k collection included) as a fraction of the
// machine's float32 GEMM peak, OpenBLAS's sgemm measured in the same process
// (gemmbench), with gonum blas32's and OpenBLAS's GFLOP/s for the bare
// product of the same shape beside it, and the queries ranked per second
// (117,659 rows: the WordNet SKB's nodes; 128 and 256 dimensions: the
// hashed encoder's widths).
func BenchmarkDenseVsGEMMPeak(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 1))
	for _, shape := range [][2]int{{20_000, 128}, {100_000, 128}, {117_659, 128}, {117_659, 256}} {
		rows, dim := shape[0], shape[1]
		const nq, k = 256, 100
		docs := randMatrix(r, rows, dim)
		qs := randMatrix(r, nq, dim)
		b.Run(fmt.Sprintf("rows=%d/dim=%d", rows, dim), func(b *testing.B) {
			flops := 2.0 * float64(nq) * float64(rows) * float64(dim)
			gemmbench.Peak()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := SearchDense(context.Background(), docs, qs, k, nil, DenseConfig{}); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			refs := map[string]float64{"gonum-gemm": gemmbench.Gonum(false, true, nq, rows, dim)}
			if g, err := gemmbench.OpenBLAS(false, true, nq, rows, dim); err == nil {
				refs["openblas-gemm"] = g
			}
			gemmbench.Report(b, flops, refs)
			b.ReportMetric(float64(nq)*float64(b.N)/b.Elapsed().Seconds(), "queries/s")
		})
	}
}

// BenchmarkSearchDenseOneQuery is one query against 100k × 128 documents,
// the shape of a served request or a method ranking one query at a time:
// memory-bound, so it reports the document bytes streamed per second.
func BenchmarkSearchDenseOneQuery(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 1))
	const rows, dim, k = 100_000, 128, 100
	docs := randMatrix(r, rows, dim)
	q := randMatrix(r, 1, dim)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := SearchDense(context.Background(), docs, q, k, nil, DenseConfig{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(rows*dim*4)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GB/s")
}

// TestScanGE: the first index whose score is not below the threshold (NaN
// counts), at every length and position around the 8-wide vector steps.
func TestScanGE(t *testing.T) {
	nan := float32(math.NaN())
	for n := 0; n <= 35; n++ {
		for at := -1; at < n; at++ {
			row := make([]float32, n)
			for i := range row {
				row[i] = -float32(i%5) - 1 // below 0
			}
			for _, v := range []float32{0, 7, nan} {
				want := n
				if at >= 0 {
					row[at] = v
					want = at
				}
				if got := scanGE(row, 0); got != want {
					t.Fatalf("n %d, %v at %d: scanGE %d, want %d", n, v, at, got, want)
				}
			}
		}
		row := make([]float32, n)
		if got := scanGE(row, float32(math.Inf(-1))); n > 0 && got != 0 {
			t.Fatalf("n %d, threshold -Inf: %d", n, got)
		}
	}
}

// TestScanGT: scanGT against the plain loop on rows full of ties with
// the threshold, at every length around the 8-wide steps, thresholds of
// both signs, zero and subnormal included.
func TestScanGT(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 3))
	vals := []float32{-2, -1, float32(math.Copysign(0, -1)), 0, math.SmallestNonzeroFloat32, 0.5, 1, float32(math.NaN())}
	for n := 0; n <= 35; n++ {
		for range 20 {
			row := make([]float32, n)
			for i := range row {
				row[i] = vals[r.IntN(len(vals))]
			}
			thr := vals[r.IntN(len(vals)-1)]
			want := n
			for j, v := range row {
				if !(v <= thr) {
					want = j
					break
				}
			}
			if got := scanGT(row, thr); got != want {
				t.Fatalf("%v above %v: scanGT %d, want %d", row, thr, got, want)
			}
		}
	}
}

// TestFloorOrder: a floor only rises, and reads back the largest score
// raised, negative, zero and infinite scores included.
func TestFloorOrder(t *testing.T) {
	var f floor
	if got := f.get(); !math.IsInf(float64(got), -1) {
		t.Fatalf("empty floor %v", got)
	}
	for _, c := range []struct{ raise, want float32 }{
		{float32(math.Inf(-1)), float32(math.Inf(-1))}, {-3.5, -3.5}, {-7, -3.5}, {-0.25, -0.25},
		{0, 0}, {2.5, 2.5}, {1, 2.5}, {float32(math.Inf(1)), float32(math.Inf(1))}, {9, float32(math.Inf(1))},
	} {
		f.raise(c.raise)
		if got := f.get(); got != c.want {
			t.Fatalf("after raising %v: %v, want %v", c.raise, got, c.want)
		}
	}
}

// TestHitKeyOrder: hitKey orders hits as Compare does (higher score, then
// lower id; −0 ties with +0), and hit() gives the hit back.
func TestHitKeyOrder(t *testing.T) {
	scores := []float32{float32(math.Inf(-1)), -3.5, -1, float32(math.Copysign(0, -1)), 0, 1e-40, 0.25, 2, float32(math.Inf(1))}
	var hs []Hit
	for _, s := range scores {
		for _, id := range []uint32{0, 1, 7, math.MaxUint32} {
			hs = append(hs, Hit{ID: id, Score: s})
		}
	}
	for _, a := range hs {
		for _, b := range hs {
			want := -Compare(a, b) // Compare < 0: a ranks first, so a's key is larger
			got := cmpKeys(hitKey(a.Score, a.ID), hitKey(b.Score, b.ID))
			if got != want {
				t.Fatalf("%v vs %v: keys compare %d, want %d", a, b, got, want)
			}
		}
		if back := uint64Key(hitKey(a.Score, a.ID)).hit(); back.ID != a.ID || back.Score != a.Score {
			t.Fatalf("%v came back as %v", a, back)
		}
	}
}

func cmpKeys(a, b uint64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
