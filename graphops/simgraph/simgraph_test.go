package simgraph

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/strata-retrieval/strata/data/index"
)

// TestBuildAllPairs: with K at least the number of nodes every
// pair is a nearest-neighbour pair, so the graph must be SAGE's all-pairs
// threshold graph; edges and degrees are checked against a direct count
// over all pairs with the thresholds the build reports.
func TestBuildAllPairs(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	m, dim := 300, 8
	nodes := make([]uint32, m)
	for i := range nodes {
		nodes[i] = uint32(2*i + 1) // every other graph node
	}
	fields := make([]*index.Matrix, 2)
	present := make([][]bool, 2)
	for f := range fields {
		x := index.NewMatrix(m, dim)
		for i := range x.Data {
			x.Data[i] = float32(r.NormFloat64())
		}
		x.NormalizeRows()
		fields[f] = x
		present[f] = make([]bool, m)
		for i := range present[f] {
			present[f][i] = r.IntN(10) > 0
		}
	}
	sg, stats, err := Build(context.Background(), 2*m+1, nodes, fields, present, Config{Seed: 1, Sample: 20000, KNN: KNNConfig{K: m}})
	if err != nil {
		t.Fatal(err)
	}
	if len(stats.Degrees) != 5 || stats.Degrees[3].Percentile != 95 || !stats.Fields[0].Exact {
		t.Fatalf("stats %+v", stats)
	}
	for _, st := range stats.Degrees {
		want := make([]int, m)
		slack := make([]int, m) // pairs within rounding of a threshold
		for i := range m {
			for j := range m {
				if i == j {
					continue
				}
				for f, x := range fields {
					if !present[f][i] || !present[f][j] {
						continue
					}
					var s float32
					for d := range dim {
						s += x.Row(i)[d] * x.Row(j)[d]
					}
					if math.Abs(float64(s-st.Thresholds[f])) < 1e-5 {
						slack[i]++
					}
					if s > st.Thresholds[f] {
						want[i]++
						break
					}
				}
			}
			if got := len(sg.Neighbors(nodes[i])); st.Percentile == 95 && (got < want[i]-slack[i] || got > want[i]+slack[i]) {
				t.Fatalf("node %d: %d similarity neighbours, want %d", nodes[i], len(sg.Neighbors(nodes[i])), want[i])
			}
		}
		sum, sl := 0, 0
		for i, d := range want {
			sum += d
			sl += slack[i]
		}
		if math.Abs(st.Mean-float64(sum)/float64(m)) > float64(sl)/float64(m)+1e-9 || st.Edges < (sum-sl)/2 || st.Edges > (sum+sl)/2 {
			t.Errorf("p%.0f: mean %.3f edges %d, want %.3f %d", st.Percentile, st.Mean, st.Edges, float64(sum)/float64(m), sum/2)
		}
	}
	// About 5% of pairs pass one field's 95th percentile; with two fields
	// (OR) somewhat under 10%.
	if d := stats.Degrees[3].Mean / float64(m); d < 0.05 || d > 0.12 {
		t.Errorf("95th percentile density %.3f", d)
	}
	if len(sg.Neighbors(0)) != 0 || sg.NumEdges() != stats.Degrees[3].Edges {
		t.Errorf("edges %d vs %d", sg.NumEdges(), stats.Degrees[3].Edges)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := Build(ctx, 2*m+1, nodes, fields, present, Config{}); err != context.Canceled {
		t.Errorf("cancelled build: %v", err)
	}
}

// TestBuildHandWorked pins the kNN graph and the percentile rule on
// four unit vectors worked by hand (node 4 has no text):
//
//	h = (1, 0, 0), a = (.8, .6, 0), b = (.8, 0, .6), c = (.8, −.6, 0)
//	h·a = h·b = h·c = .8, a·b = b·c = .64, a·c = .28
//
// All six pairs are compared (6 ≤ Sample), sorted .28 .64 .64 .8 .8 .8;
// percentile p takes element ⌊p/100·6⌋: p10 → .28, p50 → .8. An edge needs
// a cosine strictly above the threshold, so at p50 there is none. At p10
// the threshold graph has h–a h–b h–c a–b b–c; with K = 1 each node keeps
// its nearest (ties to the lower id): h→a, a→h, b→h, c→h, so only the
// three h edges remain; with K = 2 (h→a,b; a→h,b; b→h,a; c→h,b) all five.
func TestBuildHandWorked(t *testing.T) {
	x := index.NewMatrix(5, 3)
	copy(x.Data, []float32{1, 0, 0, .8, .6, 0, .8, 0, .6, .8, -.6, 0, 0, 0, 0})
	present := [][]bool{{true, true, true, true, false}}
	nodes := []uint32{10, 11, 12, 13, 14}
	type want struct {
		k     int
		nbrs  map[uint32][]uint32
		edges int
		mean  float64
	}
	for _, w := range []want{
		{1, map[uint32][]uint32{10: {11, 12, 13}, 11: {10}, 12: {10}, 13: {10}, 14: nil}, 3, 6.0 / 5},
		{2, map[uint32][]uint32{10: {11, 12, 13}, 11: {10, 12}, 12: {10, 11, 13}, 13: {10, 12}, 14: nil}, 5, 10.0 / 5},
	} {
		sg, st, err := Build(context.Background(), 15, nodes, []*index.Matrix{x}, present,
			Config{Percentile: 10, Report: []float64{10, 50}, KNN: KNNConfig{K: w.k}})
		if err != nil {
			t.Fatal(err)
		}
		for v, nb := range w.nbrs {
			if got := sg.Neighbors(v); !slices.Equal(got, nb) {
				t.Errorf("K=%d: neighbours of %d = %v, want %v", w.k, v, got, nb)
			}
		}
		p10, p50 := st.Degrees[0], st.Degrees[1]
		if p10.Thresholds[0] != dot(x.Row(1), x.Row(3)) || math.Abs(float64(p10.Thresholds[0])-0.28) > 1e-6 || p50.Thresholds[0] != float32(0.8) {
			t.Errorf("K=%d: thresholds %v %v, want .28 .8", w.k, p10.Thresholds, p50.Thresholds)
		}
		if p10.Edges != w.edges || math.Abs(p10.Mean-w.mean) > 1e-12 || p10.Max != 3 || p10.Isolated != 1 || sg.NumEdges() != w.edges {
			t.Errorf("K=%d: p10 %+v, want %d edges, mean %.2f", w.k, p10, w.edges, w.mean)
		}
		if p50.Edges != 0 || p50.Isolated != 5 {
			t.Errorf("K=%d: p50 %+v, want no edge", w.k, p50)
		}
	}
}

// clustered returns m unit vectors around c random centres.
func clustered(r *rand.Rand, m, c, dim int) *index.Matrix {
	cent := make([]float64, c*dim)
	for i := range cent {
		cent[i] = r.NormFloat64()
	}
	x := index.NewMatrix(m, dim)
	for i := range m {
		k := r.IntN(c)
		for d := range dim {
			x.Row(i)[d] = float32(cent[k*dim+d] + 1.5*r.NormFloat64())
		}
	}
	x.NormalizeRows()
	return x
}

// TestNearestInvertedFile checks the inverted file against the exact
// search on loosely clustered vectors: the lists alone (default 2·√m
// lists, 16 probes) find 0.91 of the exact neighbours, two rounds of
// neighbour-of-neighbour refinement 0.97; the recall it reports for
// itself from a sample of rows is close to the measured one; two builds
// are identical; cancelling stops it.
func TestNearestInvertedFile(t *testing.T) {
	x := clustered(rand.New(rand.NewPCG(7, 8)), 3000, 40, 32)
	ctx := context.Background()
	exact, est, err := nearest(ctx, x, KNNConfig{K: 10}, 1)
	if err != nil || !est.Exact {
		t.Fatal(err, est)
	}
	// The exact lists against a brute-force scan of a few rows.
	for _, i := range []int{0, 1234, 2999} {
		var top index.TopK
		top.Reset(10)
		for j := range x.Rows {
			if j != i {
				var s float32
				for d := range x.Dim {
					s += x.Row(i)[d] * x.Row(j)[d]
				}
				top.Push(index.Hit{ID: uint32(j), Score: s})
			}
		}
		want := top.Sorted(nil)
		for k, h := range exact.of(i) {
			if h.ID != want[k].ID || math.Abs(float64(h.Score-want[k].Score)) > 1e-5 {
				t.Fatalf("row %d: exact neighbour %d is %+v, want %+v", i, k, h, want[k])
			}
		}
	}
	recall := func(l *knnLists) float64 {
		found := 0
		for i := range x.Rows {
			have := map[uint32]bool{}
			for _, h := range l.of(i) {
				have[h.ID] = true
			}
			for _, h := range exact.of(i) {
				if have[h.ID] {
					found++
				}
			}
		}
		return float64(found) / float64(10*x.Rows)
	}
	lists, lst, err := nearest(ctx, x, KNNConfig{K: 10, ExactBelow: 1, Refine: -1}, 1)
	if err != nil {
		t.Fatal(err)
	}
	ivf, st, err := nearest(ctx, x, KNNConfig{K: 10, ExactBelow: 1}, 1)
	if err != nil {
		t.Fatal(err)
	}
	if st.Exact || st.Lists != 110 || st.Probe != 16 || st.Rounds != 2 || lst.Rounds != 0 {
		t.Fatalf("stats %+v, without refinement %+v", st, lst)
	}
	r0, r2 := recall(lists), recall(ivf)
	if r0 < 0.9 || r2 < r0+0.04 || math.Abs(r0-lst.Recall) > 0.03 || math.Abs(r2-st.Recall) > 0.03 {
		t.Errorf("recall %.4f (reported %.4f), refined %.4f (reported %.4f)", r0, lst.Recall, r2, st.Recall)
	}
	again, _, _ := nearest(ctx, x, KNNConfig{K: 10, ExactBelow: 1}, 1)
	if !slices.Equal(again.hits, ivf.hits) || !slices.Equal(again.n, ivf.n) {
		t.Error("two builds differ")
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, _, err := nearest(cctx, x, KNNConfig{K: 10, ExactBelow: 1}, 1); err != context.Canceled {
		t.Errorf("cancelled: %v", err)
	}
}

// TestNearestDuplicates: rows that repeat one vector (a part-of-speech
// field) are searched once and expanded, with the same neighbours as a
// brute-force scan over every row (ties to the lower row).
func TestNearestDuplicates(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	base := clustered(r, 30, 5, 8)
	x := index.NewMatrix(400, 8)
	for i := range x.Rows {
		src := r.IntN(base.Rows)
		if i%7 == 0 {
			src = 0 // one big group
		}
		copy(x.Row(i), base.Row(src))
	}
	g := groupRows(x)
	if len(g.rep) > 30 || len(g.members(g.of[0])) < 400/7 {
		t.Fatalf("%d groups, %d rows like row 0", len(g.rep), len(g.members(g.of[0])))
	}
	got, st, err := nearest(context.Background(), x, KNNConfig{K: 12}, 1)
	if err != nil || !st.Exact || st.Rows != 400 {
		t.Fatal(err, st)
	}
	for i := range x.Rows {
		var top index.TopK
		top.Reset(12)
		for j := range x.Rows {
			if j != i {
				top.Push(index.Hit{ID: uint32(j), Score: dot(x.Row(i), x.Row(j))})
			}
		}
		want := top.Sorted(nil)
		for k, h := range got.of(i) {
			if h.ID != want[k].ID || math.Abs(float64(h.Score-want[k].Score)) > 1e-5 {
				t.Fatalf("row %d: neighbour %d is %+v, want %+v", i, k, h, want[k])
			}
		}
	}
}
