package graphops

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/data/index"
)

func TestExpand(t *testing.T) {
	g, err := Build(smallSKB())
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	// P1's neighbours: Ann, Bob (writes), P0 (cites); P0 is a seed.
	if got := Expand(g, []uint32{1, 0}, ExpandOptions{}); !slices.Equal(got, []uint32{3, 4}) {
		t.Errorf("Expand = %v", got)
	}
	if got := Expand(g, []uint32{1}, ExpandOptions{Relations: []data.RelID{1}}); !slices.Equal(got, []uint32{0}) {
		t.Errorf("Expand(cites) = %v", got)
	}
	sim := &SimGraph{off: []uint64{0, 0, 1, 2, 2, 2}, nbr: []uint32{2, 1}}
	if got := Expand(g, []uint32{1}, ExpandOptions{NoGraph: true, Sim: sim}); !slices.Equal(got, []uint32{2}) {
		t.Errorf("Expand(sim) = %v", got)
	}
}

// TestBuildSimGraph checks edges and degrees against a direct count over
// all pairs with the thresholds the build reports.
func TestBuildSimGraph(t *testing.T) {
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
	sg, stats, err := BuildSimGraph(context.Background(), 2*m+1, nodes, fields, present, SimGraphConfig{Seed: 1, Sample: 20000})
	if err != nil {
		t.Fatal(err)
	}
	if len(stats) != 5 || stats[3].Percentile != 95 {
		t.Fatalf("stats %+v", stats)
	}
	for _, st := range stats {
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
	if d := stats[3].Mean / float64(m); d < 0.05 || d > 0.12 {
		t.Errorf("95th percentile density %.3f", d)
	}
	if len(sg.Neighbors(0)) != 0 || sg.NumEdges() != stats[3].Edges {
		t.Errorf("edges %d vs %d", sg.NumEdges(), stats[3].Edges)
	}
}
