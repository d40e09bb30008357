package simgraph

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/strata-retrieval/strata/data/index"
)

// Graph is an undirected graph over node ids (CSR).
type Graph struct {
	off []uint64
	nbr []uint32
}

// Neighbors returns v's neighbours, ascending.
func (s *Graph) Neighbors(v uint32) []uint32 {
	if int(v)+1 >= len(s.off) {
		return nil
	}
	return s.nbr[s.off[v]:s.off[v+1]]
}

// NumEdges is the number of undirected edges.
func (s *Graph) NumEdges() int { return len(s.nbr) / 2 }

// Config sets how the similarity graph is built.
type Config struct {
	Percentile float64   // edge threshold per field, default 95
	Report     []float64 // percentiles to report degrees for, default 80, 85, 90, 95, 99
	// Sample is the number of random pairs per field the thresholds come
	// from, default 200,000; a field with at most that many pairs uses
	// every pair.
	Sample int
	Seed   uint64
	// KNN: the candidate edges of a node are its K nearest neighbours in
	// each field (exact, or an inverted file on large fields).
	KNN KNNConfig
}

// Degrees describes the similarity graph at one percentile.
type Degrees struct {
	Percentile float64   `json:"percentile"`
	Thresholds []float32 `json:"thresholds"` // per field
	Edges      int       `json:"edges"`
	Mean       float64   `json:"mean_degree"`
	Median     int       `json:"median_degree"`
	P90        int       `json:"p90_degree"`
	Max        int       `json:"max_degree"`
	Isolated   int       `json:"isolated"`
}

// Stats describes a built similarity graph: its degrees at every
// reported percentile and how each field's neighbours were found.
type Stats struct {
	Degrees []Degrees  `json:"percentiles"`
	K       int        `json:"k"`
	Fields  []KNNStats `json:"fields"`
}

// Build links text-rich nodes whose metadata is alike, as SAGE's
// offline step: for every field, the similarity of two nodes is the cosine
// of that field's vectors (fields[f] row i belongs to nodes[i]; rows with
// present[f][i] false take no part), its threshold is the given percentile
// of the similarity of randomly sampled pairs (SAGE's percentile rule),
// and two nodes are linked when, in any field (SAGE's OR), one is among
// the other's K nearest neighbours and their similarity exceeds the
// threshold. n is the number of graph nodes. Keeping each node's K nearest
// instead of comparing all pairs bounds the degree by K per field (plus
// the nodes that chose it) and the memory by K edges per node and field;
// SAGE builds its graph on an ANN index (HNSW) in the same way. The
// degree statistics at every reported percentile come from the same
// nearest-neighbour lists.
func Build(ctx context.Context, n int, nodes []uint32, fields []*index.Matrix, present [][]bool, cfg Config) (*Graph, *Stats, error) {
	if cfg.Percentile == 0 {
		cfg.Percentile = 95
	}
	if cfg.Report == nil {
		cfg.Report = []float64{80, 85, 90, 95, 99}
	}
	if cfg.Sample == 0 {
		cfg.Sample = 200000
	}
	if err := cfg.KNN.check(); err != nil {
		return nil, nil, err
	}
	cfg.KNN = cfg.KNN.withDefaults()
	report := slices.Clone(cfg.Report)
	if !slices.Contains(report, cfg.Percentile) {
		report = append(report, cfg.Percentile)
	}
	slices.Sort(report)
	if len(report) > 127 {
		return nil, nil, fmt.Errorf("simgraph: %d percentiles to report, at most 127", len(report))
	}
	m := len(nodes)
	for f, x := range fields {
		if x.Rows != m || len(present[f]) != m {
			return nil, nil, fmt.Errorf("simgraph: field %d has %d rows for %d nodes", f, x.Rows, m)
		}
	}
	thr := simThresholds(fields, present, report, cfg.Sample, cfg.Seed) // [percentile][field]
	keep := slices.Index(report, cfg.Percentile)
	stats := &Stats{K: cfg.KNN.K}
	// pairs[i]: (j<<8 | level) for j > i linked at percentile index level.
	pairs := make([][]uint64, m)
	for f, x := range fields {
		rows := make([]int, 0, m) // compact row -> node position
		for i, p := range present[f] {
			if p {
				rows = append(rows, i)
			}
		}
		cx := index.NewMatrix(len(rows), x.Dim)
		for c, i := range rows {
			copy(cx.Row(c), x.Row(i))
		}
		nn, st, err := nearest(ctx, cx, cfg.KNN, cfg.Seed+uint64(f))
		if err != nil {
			return nil, nil, err
		}
		stats.Fields = append(stats.Fields, st)
		for c, i := range rows {
			for _, h := range nn.of(c) {
				lv := -1
				for p := len(report) - 1; p >= 0; p-- {
					if h.Score > thr[p][f] {
						lv = p
						break
					}
				}
				if lv < 0 {
					continue // ranked best first: the rest are no more similar
				}
				a, b := i, rows[h.ID]
				if a > b {
					a, b = b, a
				}
				pairs[a] = append(pairs[a], uint64(b)<<8|uint64(lv))
			}
		}
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
	}
	// One edge per pair at the highest level any field or direction gave.
	deg := make([][]int32, len(report))
	for p := range deg {
		deg[p] = make([]int32, m)
	}
	adj := make([][]uint32, m)
	for i, ps := range pairs {
		slices.Sort(ps)
		for t, e := range ps {
			if t+1 < len(ps) && ps[t+1]>>8 == e>>8 {
				continue // a higher level of the same pair follows
			}
			j, lv := int(e>>8), int(e&0xff)
			for p := 0; p <= lv; p++ {
				deg[p][i]++
				deg[p][j]++
			}
			if lv >= keep {
				adj[i] = append(adj[i], nodes[j])
				adj[j] = append(adj[j], nodes[i])
			}
		}
		pairs[i] = nil
	}
	sg := &Graph{off: make([]uint64, n+1)}
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
	for p, pc := range report {
		if !slices.Contains(cfg.Report, pc) {
			continue
		}
		d := slices.Clone(deg[p])
		slices.Sort(d)
		st := Degrees{Percentile: pc, Thresholds: thr[p]}
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
		stats.Degrees = append(stats.Degrees, st)
	}
	return sg, stats, nil
}

// simThresholds returns, per percentile (ascending) and field, the
// percentile of the cosine of pairs of present rows: of every pair when a
// field has at most sample of them, else of sample random pairs. The
// percentile p of the sorted similarities s is s[min(len−1, ⌊p/100·len⌋)];
// a field with no pair gets +Inf (no edges).
func simThresholds(fields []*index.Matrix, present [][]bool, report []float64, sample int, seed uint64) [][]float32 {
	r := rand.New(rand.NewPCG(seed, 0x5a6e))
	thr := make([][]float32, len(report))
	for p := range thr {
		thr[p] = make([]float32, len(fields))
	}
	for f, x := range fields {
		var rows []int
		for i, p := range present[f] {
			if p {
				rows = append(rows, i)
			}
		}
		var sims []float32
		if np := len(rows) * (len(rows) - 1) / 2; np <= sample {
			for a, i := range rows {
				for _, j := range rows[a+1:] {
					sims = append(sims, dot(x.Row(i), x.Row(j)))
				}
			}
		} else {
			for range sample {
				i, j := r.IntN(len(rows)), r.IntN(len(rows))
				if i != j {
					sims = append(sims, dot(x.Row(rows[i]), x.Row(rows[j])))
				}
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
	return thr
}

// FromLists returns the graph over n nodes whose node v has the neighbours
// lists[v] (v < len(lists); the lists should be symmetric: u in lists[v]
// when v is in lists[u]).
func FromLists(n int, lists [][]uint32) *Graph {
	g := &Graph{off: make([]uint64, n+1)}
	for v := range n {
		d := 0
		if v < len(lists) {
			d = len(lists[v])
		}
		g.off[v+1] = g.off[v] + uint64(d)
	}
	g.nbr = make([]uint32, 0, g.off[n])
	for v := range min(n, len(lists)) {
		nb := slices.Clone(lists[v])
		slices.Sort(nb)
		g.nbr = append(g.nbr, nb...)
	}
	return g
}
