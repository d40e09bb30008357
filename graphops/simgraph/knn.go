package simgraph

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/strata-retrieval/strata/data/index"
	"github.com/strata-retrieval/strata/internal/parallel"
)

// KNNConfig chooses how SAGE's similarity graph finds each node's nearest
// neighbours within a field. Zero values mean the defaults.
type KNNConfig struct {
	// K is the number of nearest neighbours kept per node and field,
	// default 10.
	K int `json:"k"`
	// ExactBelow: fields with at most this many present rows compare all
	// pairs exactly; larger ones search an inverted file. Default 20,000.
	ExactBelow int `json:"exact_below"`
	// Lists is the number of k-means lists of the inverted file, default
	// 2·√m for m present rows.
	Lists int `json:"lists"`
	// Probe is the number of lists a row searches, default 16.
	Probe int `json:"probe"`
	// Refine is the number of neighbour-of-neighbour rounds that improve
	// the inverted file's lists (NN-descent's local join), default 2;
	// negative: none.
	Refine int `json:"refine"`
	// RecallSample is the number of rows whose approximate neighbours are
	// checked against an exact scan (KNNStats.Recall), default 200.
	RecallSample int `json:"recall_sample"`
}

func (c KNNConfig) withDefaults() KNNConfig {
	if c.K <= 0 {
		c.K = 10
	}
	if c.ExactBelow == 0 {
		c.ExactBelow = 20000
	}
	if c.Probe <= 0 {
		c.Probe = 16
	}
	if c.RecallSample == 0 {
		c.RecallSample = 200
	}
	if c.Refine == 0 {
		c.Refine = 2
	}
	return c
}

// KNNStats says how one field's neighbours were found.
type KNNStats struct {
	Rows   int     `json:"rows"`   // present rows
	Exact  bool    `json:"exact"`  // all pairs compared
	Lists  int     `json:"lists"`  // inverted-file lists (0 when exact)
	Probe  int     `json:"probe"`  // lists searched per row
	Rounds int     `json:"rounds"` // refinement rounds run
	Recall float64 `json:"recall"` // share of the exact K nearest found, on a row sample (1 when exact)
}

// knnLists holds each row's nearest rows, best first: hits[i*k : i*k+n[i]],
// IDs being row indices of the matrix searched.
type knnLists struct {
	k    int
	hits []index.Hit
	n    []int32
}

func (l *knnLists) of(i int) []index.Hit { return l.hits[i*l.k : i*l.k+int(l.n[i])] }

// dot is the dot product of two equal-length vectors, summed in a fixed
// order (four interleaved partial sums).
func dot(a, b []float32) float32 {
	b = b[:len(a)]
	var s0, s1, s2, s3 float32
	i := 0
	for ; i+4 <= len(a); i += 4 {
		s0 += a[i] * b[i]
		s1 += a[i+1] * b[i+1]
		s2 += a[i+2] * b[i+2]
		s3 += a[i+3] * b[i+3]
	}
	for ; i < len(a); i++ {
		s0 += a[i] * b[i]
	}
	return (s0 + s1) + (s2 + s3)
}

// nearest returns the K nearest rows of every row of x (largest dot
// product, ties to the lower row, the row itself excluded): exact for at
// most cfg.ExactBelow distinct vectors, else by an inverted file
// (spherical k-means lists, each row searching its cfg.Probe nearest
// lists). Identical rows are searched once: fields such as a part of
// speech or a brand repeat one text over thousands of nodes, which would
// otherwise fill one list with them all. The result does not depend on
// scheduling.
func nearest(ctx context.Context, x *index.Matrix, cfg KNNConfig, seed uint64) (*knnLists, KNNStats, error) {
	cfg = cfg.withDefaults()
	g := groupRows(x)
	if len(g.rep) == x.Rows {
		return nearestDistinct(ctx, x, cfg, seed)
	}
	ux := index.NewMatrix(len(g.rep), x.Dim)
	for u, i := range g.rep {
		copy(ux.Row(u), x.Row(int(i)))
	}
	un, st, err := nearestDistinct(ctx, ux, cfg, seed)
	if err != nil {
		return nil, st, err
	}
	st.Rows = x.Rows
	out := &knnLists{k: cfg.K, hits: make([]index.Hit, x.Rows*cfg.K), n: make([]int32, x.Rows)}
	err = parallel.Chunks(ctx, x.Rows, 256, 0, func(lo, hi int) {
		var top index.TopK
		buf := make([]index.Hit, 0, cfg.K)
		for i := lo; i < hi; i++ {
			top.Reset(cfg.K)
			u := g.of[i]
			self := dot(x.Row(i), x.Row(i))
			// Within a group every score is the same, so only its K+1
			// lowest rows can be among the K nearest.
			mem := g.members(u)
			for _, j := range mem[:min(len(mem), cfg.K+1)] {
				if int(j) != i {
					top.Push(index.Hit{ID: uint32(j), Score: self})
				}
			}
			for _, h := range un.of(int(u)) {
				mem := g.members(int32(h.ID))
				for _, j := range mem[:min(len(mem), cfg.K)] {
					top.Push(index.Hit{ID: uint32(j), Score: h.Score})
				}
			}
			buf = top.Sorted(buf[:0])
			out.n[i] = int32(copy(out.hits[i*cfg.K:], buf))
		}
	})
	return out, st, err
}

// rowGroups groups identical rows: of[i] is row i's group, rep[u] the
// first row of group u, and the rows of group u, ascending, are
// rows[off[u]:off[u+1]].
type rowGroups struct {
	of   []int32
	rep  []int32
	off  []int32
	rows []int32
}

func (g *rowGroups) members(u int32) []int32 { return g.rows[g.off[u]:g.off[u+1]] }

func groupRows(x *index.Matrix) *rowGroups {
	g := &rowGroups{of: make([]int32, x.Rows)}
	byHash := map[uint64][]int32{} // hash -> groups with it
	for i := range x.Rows {
		row := x.Row(i)
		h := uint64(14695981039346656037)
		for _, v := range row {
			h = (h ^ uint64(math.Float32bits(v))) * 1099511628211
		}
		u := int32(-1)
		for _, c := range byHash[h] {
			if slices.Equal(x.Row(int(g.rep[c])), row) {
				u = c
				break
			}
		}
		if u < 0 {
			u = int32(len(g.rep))
			g.rep = append(g.rep, int32(i))
			byHash[h] = append(byHash[h], u)
		}
		g.of[i] = u
	}
	g.off = make([]int32, len(g.rep)+1)
	for _, u := range g.of {
		g.off[u+1]++
	}
	for u := range g.rep {
		g.off[u+1] += g.off[u]
	}
	g.rows = make([]int32, x.Rows)
	fill := slices.Clone(g.off[:len(g.rep)])
	for i, u := range g.of {
		g.rows[fill[u]] = int32(i)
		fill[u]++
	}
	return g
}

// nearestDistinct is nearest over rows that are all distinct.
func nearestDistinct(ctx context.Context, x *index.Matrix, cfg KNNConfig, seed uint64) (*knnLists, KNNStats, error) {
	m := x.Rows
	out := &knnLists{k: cfg.K, hits: make([]index.Hit, m*cfg.K), n: make([]int32, m)}
	st := KNNStats{Rows: m, Exact: m <= cfg.ExactBelow, Recall: 1}
	if m < 2 {
		return out, st, nil
	}
	if st.Exact {
		err := parallel.Chunks(ctx, m, 64, 0, func(lo, hi int) {
			sims := index.RowSimilarity(x, lo, hi, nil)
			var top index.TopK
			buf := make([]index.Hit, 0, cfg.K)
			for i := lo; i < hi; i++ {
				top.Reset(cfg.K)
				for j, s := range sims[(i-lo)*m : (i-lo+1)*m] {
					if j != i {
						top.Push(index.Hit{ID: uint32(j), Score: s})
					}
				}
				buf = top.Sorted(buf[:0])
				out.n[i] = int32(copy(out.hits[i*cfg.K:], buf))
			}
		})
		return out, st, err
	}
	lists := cfg.Lists
	if lists <= 0 {
		lists = int(math.Round(2 * math.Sqrt(float64(m))))
	}
	lists = max(1, min(lists, m))
	probe := min(cfg.Probe, lists)
	st.Lists, st.Probe = lists, probe
	r := rand.New(rand.NewPCG(seed, 0x6b6e6e))
	cent, err := sphericalKMeans(ctx, x, lists, r)
	if err != nil {
		return nil, st, err
	}
	// Every row's probe lists (nearest centroids, best first); a row is a
	// member of its nearest list.
	probes := make([]int32, m*probe)
	err = parallel.Chunks(ctx, m, 256, 0, func(lo, hi int) {
		var top index.TopK
		buf := make([]index.Hit, 0, probe)
		for i := lo; i < hi; i++ {
			top.Reset(probe)
			xi := x.Row(i)
			for c := range lists {
				top.Push(index.Hit{ID: uint32(c), Score: dot(xi, cent.Row(c))})
			}
			buf = top.Sorted(buf[:0])
			for p, h := range buf {
				probes[i*probe+p] = int32(h.ID)
			}
		}
	})
	if err != nil {
		return nil, st, err
	}
	off := make([]int32, lists+1)
	for i := range m {
		off[probes[i*probe]+1]++
	}
	for c := range lists {
		off[c+1] += off[c]
	}
	members := make([]int32, m)
	fill := append([]int32(nil), off[:lists]...)
	for i := range m { // ascending rows within a list
		c := probes[i*probe]
		members[fill[c]] = int32(i)
		fill[c]++
	}
	// The rows in list order, so a list's vectors are contiguous.
	sorted := index.NewMatrix(m, x.Dim)
	for t, i := range members {
		copy(sorted.Row(t), x.Row(int(i)))
	}
	err = parallel.Chunks(ctx, m, 128, 0, func(lo, hi int) {
		var top index.TopK
		buf := make([]index.Hit, 0, cfg.K)
		for i := lo; i < hi; i++ {
			top.Reset(cfg.K)
			xi := x.Row(i)
			for _, c := range probes[i*probe : (i+1)*probe] {
				for t := off[c]; t < off[c+1]; t++ {
					if j := members[t]; int(j) != i {
						top.Push(index.Hit{ID: uint32(j), Score: dot(xi, sorted.Row(int(t)))})
					}
				}
			}
			buf = top.Sorted(buf[:0])
			out.n[i] = int32(copy(out.hits[i*cfg.K:], buf))
		}
	})
	if err != nil {
		return nil, st, err
	}
	for range max(0, cfg.Refine) {
		changed, err := refine(ctx, x, out)
		if err != nil {
			return nil, st, err
		}
		st.Rounds++
		if changed*1000 < m { // under 0.1% of the rows improved
			break
		}
	}
	st.Recall, err = knnRecall(ctx, x, out, cfg.RecallSample, r)
	return out, st, err
}

// refine runs one round of NN-descent's local join over the lists: every
// row compares itself with the neighbours and reverse neighbours of its
// neighbours and reverse neighbours (a row's reverse neighbours are the K
// most similar rows that list it), keeping the K best. It reads the lists
// of the round before and writes new ones, so the result does not depend
// on scheduling, and returns how many rows changed.
func refine(ctx context.Context, x *index.Matrix, l *knnLists) (int, error) {
	m, k := x.Rows, l.k
	rev := make([][]index.Hit, m)
	for i := range m {
		for _, h := range l.of(i) {
			rev[h.ID] = append(rev[h.ID], index.Hit{ID: uint32(i), Score: h.Score})
		}
	}
	for j := range rev {
		if len(rev[j]) > k {
			index.Sort(rev[j])
			rev[j] = rev[j][:k]
		}
	}
	next := &knnLists{k: k, hits: make([]index.Hit, len(l.hits)), n: make([]int32, m)}
	changed := make([]bool, m)
	err := parallel.Chunks(ctx, m, 256, 0, func(lo, hi int) {
		var top index.TopK
		buf := make([]index.Hit, 0, k)
		seen := make(map[uint32]bool, 4*k*k)
		for i := lo; i < hi; i++ {
			clear(seen)
			seen[uint32(i)] = true
			top.Reset(k)
			for _, h := range l.of(i) {
				seen[h.ID] = true
				top.Push(h)
			}
			xi := x.Row(i)
			try := func(c uint32) {
				if !seen[c] {
					seen[c] = true
					top.Push(index.Hit{ID: c, Score: dot(xi, x.Row(int(c)))})
				}
			}
			near := func(u uint32, fn func(uint32)) {
				for _, h := range l.of(int(u)) {
					fn(h.ID)
				}
				for _, h := range rev[u] {
					fn(h.ID)
				}
			}
			near(uint32(i), func(u uint32) {
				try(u)
				near(u, try)
			})
			buf = top.Sorted(buf[:0])
			n := copy(next.hits[i*k:], buf)
			next.n[i] = int32(n)
			if n != int(l.n[i]) || !slices.Equal(buf, l.of(i)) {
				changed[i] = true
			}
		}
	})
	if err != nil {
		return 0, err
	}
	*l = *next
	c := 0
	for _, ch := range changed {
		if ch {
			c++
		}
	}
	return c, nil
}

// knnRecall compares the neighbours of a random sample of rows with an
// exact scan: the share of the exact K nearest that were found.
func knnRecall(ctx context.Context, x *index.Matrix, got *knnLists, sample int, r *rand.Rand) (float64, error) {
	m := x.Rows
	rows := r.Perm(m)[:min(sample, m)]
	var found, total int
	var top index.TopK
	for n, i := range rows {
		if n%16 == 0 && ctx.Err() != nil {
			return 0, ctx.Err()
		}
		top.Reset(got.k)
		xi := x.Row(i)
		for j := range m {
			if j != i {
				top.Push(index.Hit{ID: uint32(j), Score: dot(xi, x.Row(j))})
			}
		}
		have := map[uint32]bool{}
		for _, h := range got.of(i) {
			have[h.ID] = true
		}
		for _, h := range top.Sorted(nil) {
			total++
			if have[h.ID] {
				found++
			}
		}
	}
	if total == 0 {
		return 1, nil
	}
	return float64(found) / float64(total), nil
}

// sphericalKMeans clusters the rows of x (unit vectors) into k lists by
// cosine: centroids start at k random rows of a sample of at most 64·k
// rows, then 10 rounds assign every sample row to its nearest centroid and
// replace each centroid by the normalised mean of its rows (an empty list
// takes a sample row of its own).
func sphericalKMeans(ctx context.Context, x *index.Matrix, k int, r *rand.Rand) (*index.Matrix, error) {
	perm := r.Perm(x.Rows)
	sample := perm[:min(len(perm), 64*k)]
	cent := index.NewMatrix(k, x.Dim)
	for c := range k {
		copy(cent.Row(c), x.Row(sample[c]))
	}
	assign := make([]int32, len(sample))
	for round := range 10 {
		if err := parallel.Chunks(ctx, len(sample), 256, 0, func(lo, hi int) {
			for s := lo; s < hi; s++ {
				xi := x.Row(sample[s])
				best, bs := 0, float32(math.Inf(-1))
				for c := range k {
					if d := dot(xi, cent.Row(c)); d > bs {
						best, bs = c, d
					}
				}
				assign[s] = int32(best)
			}
		}); err != nil {
			return nil, err
		}
		clear(cent.Data)
		count := make([]int, k)
		for s, c := range assign {
			count[c]++
			row := cent.Row(int(c))
			for d, v := range x.Row(sample[s]) {
				row[d] += v
			}
		}
		for c := range k {
			if count[c] == 0 {
				copy(cent.Row(c), x.Row(sample[(round*k+c)%len(sample)]))
			}
		}
		cent.NormalizeRows()
	}
	return cent, nil
}

// checkKNN validates a configuration.
func (c KNNConfig) check() error {
	if c.K < 0 || c.Lists < 0 || c.Probe < 0 || c.ExactBelow < 0 {
		return fmt.Errorf("graphops: negative kNN setting %+v", c)
	}
	return nil
}
