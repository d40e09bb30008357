package graphops

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/data/index"
)

// SAGE's seed → expand → prune retrieval: this file holds the graph side,
// the 1-hop expansion of seeds along relations or along the offline
// similarity graph of text-rich nodes.

// SimGraph is an undirected graph over node ids (CSR).
type SimGraph struct {
	off []uint64
	nbr []uint32
}

// Neighbors returns v's neighbours, ascending.
func (s *SimGraph) Neighbors(v uint32) []uint32 {
	if int(v)+1 >= len(s.off) {
		return nil
	}
	return s.nbr[s.off[v]:s.off[v+1]]
}

// NumEdges is the number of undirected edges.
func (s *SimGraph) NumEdges() int { return len(s.nbr) / 2 }

// ExpandOptions sets what a seed's neighbours are.
type ExpandOptions struct {
	Relations []data.RelID // relations to follow; nil: every relation
	NoGraph   bool         // do not follow the graph's relations
	Sim       *SimGraph    // also follow similarity edges
}

// Expand returns the distinct 1-hop neighbours of the seeds that are not
// seeds themselves, ascending.
func Expand(g *Graph, seeds []uint32, o ExpandOptions) []uint32 {
	var out []uint32
	for _, v := range seeds {
		if !o.NoGraph {
			if o.Relations == nil {
				nb, _ := g.Neighbors(v)
				out = append(out, nb...)
			} else {
				for _, r := range o.Relations {
					out = append(out, g.NeighborsByRel(v, r)...)
				}
			}
		}
		if o.Sim != nil {
			out = append(out, o.Sim.Neighbors(v)...)
		}
	}
	slices.Sort(out)
	out = slices.Compact(out)
	s := slices.Clone(seeds)
	slices.Sort(s)
	return slices.DeleteFunc(out, func(v uint32) bool { _, in := slices.BinarySearch(s, v); return in })
}

// SimGraphConfig sets how the similarity graph is built.
type SimGraphConfig struct {
	Percentile float64   // edge threshold per field, default 95
	Report     []float64 // percentiles to report degrees for, default 80, 85, 90, 95, 99
	Sample     int       // random pairs per field for the thresholds, default 200,000
	Seed       uint64
}

// SimDegrees describes the similarity graph at one percentile.
type SimDegrees struct {
	Percentile float64   `json:"percentile"`
	Thresholds []float32 `json:"thresholds"` // per field
	Edges      int       `json:"edges"`
	Mean       float64   `json:"mean_degree"`
	Median     int       `json:"median_degree"`
	P90        int       `json:"p90_degree"`
	Max        int       `json:"max_degree"`
	Isolated   int       `json:"isolated"`
}

// BuildSimGraph links text-rich nodes whose metadata is alike, as SAGE's
// offline step: for every field, the similarity of two nodes is the cosine
// of that field's vectors (fields[f] row i belongs to nodes[i]; rows with
// present[f][i] false take no part), its threshold is the given percentile
// of the similarity of randomly sampled pairs, and two nodes are linked
// when any field's similarity exceeds its threshold. n is the number of
// graph nodes. The degree statistics at every reported percentile come
// from the same exact all-pairs pass.
func BuildSimGraph(ctx context.Context, n int, nodes []uint32, fields []*index.Matrix, present [][]bool, cfg SimGraphConfig) (*SimGraph, []SimDegrees, error) {
	if cfg.Percentile == 0 {
		cfg.Percentile = 95
	}
	if cfg.Report == nil {
		cfg.Report = []float64{80, 85, 90, 95, 99}
	}
	if cfg.Sample == 0 {
		cfg.Sample = 200000
	}
	report := slices.Clone(cfg.Report)
	if !slices.Contains(report, cfg.Percentile) {
		report = append(report, cfg.Percentile)
	}
	slices.Sort(report)
	m := len(nodes)
	for f, x := range fields {
		if x.Rows != m || len(present[f]) != m {
			return nil, nil, fmt.Errorf("graphops: field %d has %d rows for %d nodes", f, x.Rows, m)
		}
	}
	// Thresholds from sampled pairs.
	r := rand.New(rand.NewPCG(cfg.Seed, 0x5a6e))
	thr := make([][]float32, len(report)) // [percentile][field]
	for p := range thr {
		thr[p] = make([]float32, len(fields))
	}
	for f, x := range fields {
		var sims []float32
		if m >= 2 {
			for range cfg.Sample {
				i, j := r.IntN(m), r.IntN(m)
				if i == j || !present[f][i] || !present[f][j] {
					continue
				}
				var s float32
				a, b := x.Row(i), x.Row(j)
				for d := range a {
					s += a[d] * b[d]
				}
				sims = append(sims, s)
			}
		}
		slices.Sort(sims)
		for p, pc := range report {
			if len(sims) == 0 {
				thr[p][f] = float32(math.Inf(1))
				continue
			}
			thr[p][f] = sims[min(len(sims)-1, int(pc/100*float64(len(sims))))]
		}
	}
	// Exact degrees: for every pair, the highest percentile whose OR over
	// fields still links it.
	deg := make([][]int32, len(report))
	for p := range deg {
		deg[p] = make([]int32, m)
	}
	keep := slices.Index(report, cfg.Percentile)
	adj := make([][]uint32, m)
	level := make([]int8, 0, 256*m) // per pair of the block: highest linking percentile index, -1 none
	blockSims := make([][]float32, len(fields))
	const block = 256
	for lo := 0; lo < m; lo += block {
		hi := min(lo+block, m)
		level = level[:(hi-lo)*m]
		for i := range level {
			level[i] = -1
		}
		for f, x := range fields {
			blockSims[f] = index.RowSimilarity(x, lo, hi, blockSims[f])
			for i := lo; i < hi; i++ {
				if !present[f][i] {
					continue
				}
				row := blockSims[f][(i-lo)*m : (i-lo+1)*m]
				lv := level[(i-lo)*m : (i-lo+1)*m]
				for j, s := range row {
					// Each pair once (j > i), so the graph is symmetric
					// whatever the rounding of the two products.
					if j <= i || !present[f][j] {
						continue
					}
					// Percentile thresholds ascend: find the highest passed.
					for p := len(report) - 1; p > int(lv[j]); p-- {
						if s > thr[p][f] {
							lv[j] = int8(p)
							break
						}
					}
				}
			}
		}
		for i := lo; i < hi; i++ {
			lv := level[(i-lo)*m : (i-lo+1)*m]
			for j, l := range lv {
				if l < 0 {
					continue
				}
				for p := 0; p <= int(l); p++ {
					deg[p][i]++
					deg[p][j]++
				}
				if int(l) >= keep {
					adj[i] = append(adj[i], nodes[j])
					adj[j] = append(adj[j], nodes[i])
				}
			}
		}
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
	}
	sg := &SimGraph{off: make([]uint64, n+1)}
	byNode := make(map[uint32][]uint32, m)
	for i, v := range nodes {
		byNode[v] = adj[i]
	}
	for v := range n {
		sg.off[v+1] = sg.off[v] + uint64(len(byNode[uint32(v)]))
	}
	sg.nbr = make([]uint32, sg.off[n])
	for v, nb := range byNode {
		slices.Sort(nb)
		copy(sg.nbr[sg.off[v]:], nb)
	}
	var stats []SimDegrees
	for p, pc := range report {
		if !slices.Contains(cfg.Report, pc) {
			continue
		}
		d := slices.Clone(deg[p])
		slices.Sort(d)
		st := SimDegrees{Percentile: pc, Thresholds: thr[p]}
		var sum int
		for _, x := range d {
			sum += int(x)
			if x == 0 {
				st.Isolated++
			}
		}
		if m > 0 {
			st.Edges = sum / 2
			st.Mean = float64(sum) / float64(m)
			st.Median = int(d[m/2])
			st.P90 = int(d[min(m-1, m*9/10)])
			st.Max = int(d[m-1])
		}
		stats = append(stats, st)
	}
	return sg, stats, nil
}
