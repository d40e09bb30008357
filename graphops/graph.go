package graphops

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/kelindar/column"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/internal/parallel"
)

// Direction bits of an adjacency entry of node v.
const (
	DirOut uint8 = 1 // an edge v→u was stored
	DirIn  uint8 = 2 // an edge u→v was stored
)

// Graph is an immutable typed graph.
type Graph struct {
	schema data.Schema
	types  []data.TypeID // node type per node: the hot-path copy of the type column
	off    []uint64      // len n+1
	nbr    []uint32
	rel    data.Rels // relation per entry: 1 byte, 3 once the KB has more than 256
	dir    []uint8   // 2 bits per entry, 4 entries per byte
	// typeBlocks[t] = [lo, hi) when the ids of type t are contiguous, else {1, 0}.
	typeBlocks [][2]uint32
	// attrs is the attribute store: the node type as an enum column with
	// one bitmap index per type. Text stays out of it (kelindar/column
	// limits strings to 65,535 bytes and snapshots it with time-based
	// commit ids): names and fields are read from nodes.
	attrs      *column.Collection
	idxMu      sync.Mutex
	indexed    []bool      // per node type: its bitmap index exists (made on first use)
	nodes      []data.Node // the node table the graph was built from (names, fields)
	relsOnce   sync.Once
	relsByPair map[[2]data.TypeID][]data.RelID
	relEnds    map[relEnd][]data.TypeID
}

// relEnd is a relation stepped along in one direction (RelationEnds).
type relEnd struct {
	r   data.RelID
	dir data.RelDir
}

// RelationsBetween returns the relations of the edges that link a node of
// type a with a node of type b, in either stored direction, ascending (the
// schema's relations between two types, as the data has them).
func (g *Graph) RelationsBetween(a, b data.TypeID) []data.RelID {
	g.relsOnce.Do(func() {
		type key struct {
			a, b data.TypeID
			r    data.RelID
		}
		seen := map[key]bool{}
		g.relsByPair = map[[2]data.TypeID][]data.RelID{}
		g.relEnds = map[relEnd][]data.TypeID{}
		end := func(r data.RelID, d data.RelDir, t data.TypeID) {
			k := relEnd{r, d}
			if !slices.Contains(g.relEnds[k], t) {
				g.relEnds[k] = append(g.relEnds[k], t)
			}
		}
		for v := range g.types {
			ta := g.types[v]
			for p := g.off[v]; p < g.off[v+1]; p++ {
				tb, r := g.types[g.nbr[p]], g.rel.At(int(p))
				if k := (key{ta, tb, r}); !seen[k] {
					seen[k] = true
					g.relsByPair[[2]data.TypeID{ta, tb}] = append(g.relsByPair[[2]data.TypeID{ta, tb}], r)
				}
				d := g.dirAt(p)
				if d&DirOut != 0 {
					end(r, data.Forward, tb)
				}
				if d&DirIn != 0 {
					end(r, data.Backward, tb)
				}
			}
		}
		for k, rs := range g.relsByPair {
			slices.Sort(rs)
			g.relsByPair[k] = rs
		}
		for k, ts := range g.relEnds {
			slices.Sort(ts)
			g.relEnds[k] = slices.Clip(ts) // a caller's append copies
		}
	})
	return g.relsByPair[[2]data.TypeID{a, b}]
}

// RelationEnds returns the node types a step along relation r reaches in
// direction dir (data.Forward: from an edge's source to its target;
// data.Backward: the other way; any other: either), ascending: the types
// the data's edges of r end at ("->has_genre": genre).
func (g *Graph) RelationEnds(r data.RelID, dir data.RelDir) []data.TypeID {
	g.RelationsBetween(0, 0) // builds the index once
	switch dir {
	case data.Forward, data.Backward:
		return g.relEnds[relEnd{r, dir}]
	}
	out := slices.Clone(g.relEnds[relEnd{r, data.Forward}])
	for _, t := range g.relEnds[relEnd{r, data.Backward}] {
		if !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	slices.Sort(out)
	return out
}

// Resolver returns the relation resolver of data.PlanToGrasp over this
// graph (type names to the relations RelationsBetween finds).
func (g *Graph) Resolver() data.RelationResolver {
	return func(from, to string) []string {
		a, ok1 := g.schema.NodeTypeID(from)
		b, ok2 := g.schema.NodeTypeID(to)
		if !ok1 || !ok2 {
			return nil
		}
		var out []string
		for _, r := range g.RelationsBetween(a, b) {
			out = append(out, g.schema.RelationTypes[r])
		}
		return out
	}
}

// Build constructs the graph of skb.
func Build(skb *data.SKB) (*Graph, error) {
	if err := skb.Schema.Validate(); err != nil {
		return nil, err
	}
	n := len(skb.Nodes)
	g := &Graph{schema: skb.Schema, types: make([]data.TypeID, n), nodes: skb.Nodes}
	for i := range skb.Nodes {
		g.types[i] = skb.Nodes[i].Type
	}
	if err := g.buildCSR(&skb.Edges, n); err != nil {
		return nil, err
	}
	g.computeTypeBlocks()
	if err := g.buildAttrs(); err != nil {
		return nil, err
	}
	return g, nil
}

// Close stops the attribute collection's background goroutine.
func (g *Graph) Close() error {
	if g.attrs != nil {
		return g.attrs.Close()
	}
	return nil
}

func (g *Graph) buildCSR(e *data.Edges, n int) error {
	m := e.Len()
	for i := 0; i < m; i++ {
		if int(e.Src[i]) >= n || int(e.Dst[i]) >= n {
			return fmt.Errorf("graphops: edge %d (%d-%d): %w with %d nodes", i, e.Src[i], e.Dst[i], data.ErrIDRange, n)
		}
		if r := e.Rel.At(i); int(r) >= len(g.schema.RelationTypes) {
			return fmt.Errorf("graphops: edge %d: %w: %d", i, data.ErrUnknownRelation, r)
		}
	}
	// Pass 1: degree counts of the raw (undeduplicated) union.
	start := make([]uint64, n+1)
	for i := 0; i < m; i++ {
		start[e.Src[i]+1]++
		if e.Src[i] != e.Dst[i] {
			start[e.Dst[i]+1]++
		}
	}
	for v := 0; v < n; v++ {
		start[v+1] += start[v]
	}
	total := start[n]
	// Pass 2: keys rel<<34 | nbr<<2 | dirbits, per node (24 bits of
	// relation, 32 of neighbour, 2 of direction).
	keys := make([]uint64, total)
	fill := make([]uint64, n)
	copy(fill, start[:n])
	for i := 0; i < m; i++ {
		s, r, d := e.Src[i], uint64(e.Rel.At(i)), e.Dst[i]
		if s == d {
			keys[fill[s]] = r<<34 | uint64(d)<<2 | uint64(DirOut|DirIn)
			fill[s]++
			continue
		}
		keys[fill[s]] = r<<34 | uint64(d)<<2 | uint64(DirOut)
		fill[s]++
		keys[fill[d]] = r<<34 | uint64(s)<<2 | uint64(DirIn)
		fill[d]++
	}
	fill = nil
	// Pass 3: sort each node's keys and merge duplicates, in parallel.
	uniq := make([]uint64, n)
	parallelRange(n, func(lo, hi int) {
		for v := lo; v < hi; v++ {
			ks := keys[start[v]:start[v+1]]
			slices.Sort(ks)
			w := 0
			for _, k := range ks {
				if w > 0 && ks[w-1]>>2 == k>>2 {
					ks[w-1] |= k & 3
					continue
				}
				ks[w] = k
				w++
			}
			uniq[v] = uint64(w)
		}
	})
	g.off = make([]uint64, n+1)
	for v := 0; v < n; v++ {
		g.off[v+1] = g.off[v] + uniq[v]
	}
	cnt := g.off[n]
	g.nbr = make([]uint32, cnt)
	var maxRel data.RelID
	if n := len(g.schema.RelationTypes); n > 0 {
		maxRel = data.RelID(n - 1)
	}
	g.rel = data.MakeRels(int(cnt), maxRel)
	g.dir = make([]uint8, (cnt+3)/4)
	parallelRange(n, func(lo, hi int) {
		for v := lo; v < hi; v++ {
			ks := keys[start[v] : start[v]+uniq[v]]
			o := g.off[v]
			for j, k := range ks {
				p := o + uint64(j)
				g.nbr[p] = uint32(k >> 2 & 0xffffffff)
				g.rel.Set(int(p), data.RelID(k>>34))
			}
		}
	})
	// Direction bits are packed 4 per byte; write them sequentially so no
	// two goroutines share a byte.
	for v := 0; v < n; v++ {
		ks := keys[start[v] : start[v]+uniq[v]]
		o := g.off[v]
		for j, k := range ks {
			p := o + uint64(j)
			g.dir[p/4] |= uint8(k&3) << (2 * (p % 4))
		}
	}
	return nil
}

// parallelRange splits [0, n) into one contiguous chunk per core.
func parallelRange(n int, fn func(lo, hi int)) {
	w := runtime.GOMAXPROCS(0)
	if n < 4096 || w == 1 {
		fn(0, n)
		return
	}
	parallel.Chunks(context.Background(), n, (n+w-1)/w, w, fn)
}

func (g *Graph) computeTypeBlocks() {
	nt := len(g.schema.NodeTypes)
	g.typeBlocks = make([][2]uint32, nt)
	first := make([]int64, nt)
	last := make([]int64, nt)
	count := make([]int64, nt)
	for t := range first {
		first[t], last[t] = -1, -1
	}
	for v, t := range g.types {
		if first[t] < 0 {
			first[t] = int64(v)
		}
		last[t] = int64(v)
		count[t]++
	}
	for t := 0; t < nt; t++ {
		switch {
		case count[t] == 0:
			g.typeBlocks[t] = [2]uint32{0, 0}
		case last[t]-first[t]+1 == count[t]:
			g.typeBlocks[t] = [2]uint32{uint32(first[t]), uint32(last[t] + 1)}
		default:
			g.typeBlocks[t] = [2]uint32{1, 0} // not contiguous
		}
	}
}

// typeKey is the enum value stored for type t: its index, never the type's
// own name, which is user data of any length (kelindar/column keeps string
// lengths in 16 bits, so a type name of 64 KiB or more would panic it).
func typeKey(t int) string { return "t" + strconv.Itoa(t) }

func typeIndexName(t int) string { return "type=" + typeKey(t) }

// buildAttrs fills the attribute store from the node types: one enum row
// per node, in id order. A type's bitmap index is made the first time the
// type is queried (typeIndex): kelindar/column evaluates every index of a
// column on each insert, so building all of them up front costs nodes ×
// types (6 s for 100,000 nodes of 3,000 types), where a query uses a few
// types. The store depends on the types alone, so a decoded graph rebuilds
// it instead of storing it.
func (g *Graph) buildAttrs() error {
	c := column.NewCollection(column.Options{Capacity: max(len(g.types), 1024)})
	if err := c.CreateColumn("type", column.ForEnum()); err != nil {
		return err
	}
	g.indexed = make([]bool, len(g.schema.NodeTypes))
	const chunk = 16384
	for lo := 0; lo < len(g.types); lo += chunk {
		hi := min(lo+chunk, len(g.types))
		err := c.Query(func(txn *column.Txn) error {
			for i := lo; i < hi; i++ {
				key := typeKey(int(g.types[i]))
				idx, err := txn.Insert(func(r column.Row) error {
					r.SetEnum("type", key)
					return nil
				})
				if err != nil {
					return err
				}
				if idx != uint32(i) {
					return fmt.Errorf("graphops: attribute row %d got index %d", i, idx)
				}
			}
			return nil
		})
		if err != nil {
			c.Close()
			return err
		}
	}
	g.attrs = c
	return nil
}

// Schema returns the graph's schema.
func (g *Graph) Schema() *data.Schema { return &g.schema }

// NumNodes returns the number of nodes.
func (g *Graph) NumNodes() int { return len(g.types) }

// NumEntries returns the number of adjacency entries (directed, deduplicated).
func (g *Graph) NumEntries() int { return len(g.nbr) }

// AdjacencyBytes returns the memory held by the adjacency arrays.
func (g *Graph) AdjacencyBytes() int {
	return len(g.off)*8 + len(g.nbr)*4 + len(g.rel.Lo) + 2*len(g.rel.Hi) + len(g.dir)
}

// Type returns the type of node v.
func (g *Graph) Type(v uint32) data.TypeID { return g.types[v] }

// Types returns the node type of every node; callers must not modify it.
func (g *Graph) Types() []data.TypeID { return g.types }

// Degree returns the number of distinct (relation, neighbour) entries of v.
func (g *Graph) Degree(v uint32) int { return int(g.off[v+1] - g.off[v]) }

// Neighbors returns the neighbours of v and their relations, sorted by
// (relation, neighbour). Both alias the graph: do not modify them.
func (g *Graph) Neighbors(v uint32) ([]uint32, data.Rels) {
	lo, hi := g.off[v], g.off[v+1]
	return g.nbr[lo:hi], g.rel.Slice(int(lo), int(hi))
}

// Dir returns the direction bits (DirOut, DirIn) of the i-th entry of v.
func (g *Graph) Dir(v uint32, i int) uint8 {
	p := g.off[v] + uint64(i)
	return g.dir[p/4] >> (2 * (p % 4)) & 3
}

// relRange returns the [lo, hi) entry range of v with relation r.
func (g *Graph) relRange(v uint32, r data.RelID) (uint64, uint64) {
	lo, hi := g.off[v], g.off[v+1]
	a := g.relSearch(lo, hi, r)
	return a, g.relSearch(a, hi, r+1)
}

// relSearch returns the first entry p in [lo, hi) with relation >= r (hi
// if none); the entries of a node are sorted by relation.
func (g *Graph) relSearch(lo, hi uint64, r data.RelID) uint64 {
	if g.rel.Hi == nil { // one byte per entry: search the bytes
		if r > 0xff {
			return hi
		}
		rs, b := g.rel.Lo[lo:hi], uint8(r)
		i, j := 0, len(rs)
		for i < j {
			m := int(uint(i+j) >> 1)
			if rs[m] < b {
				i = m + 1
			} else {
				j = m
			}
		}
		return lo + uint64(i)
	}
	for lo < hi {
		m := lo + (hi-lo)/2
		if g.rel.At(int(m)) < r {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// NeighborsByRel returns the neighbours of v by relation r, ascending. The
// slice aliases the graph.
func (g *Graph) NeighborsByRel(v uint32, r data.RelID) []uint32 {
	a, b := g.relRange(v, r)
	return g.nbr[a:b]
}

// Triples returns how many stored triples join a and b by relation r in
// either direction: 0, 1, or 2 when both a→b and b→a were stored (a self
// loop counts once).
func (g *Graph) Triples(a uint32, r data.RelID, b uint32) int {
	lo, hi := g.relRange(a, r)
	i, ok := slices.BinarySearch(g.nbr[lo:hi], b)
	if !ok {
		return 0
	}
	return TripleCount(g.Dir(a, int(lo-g.off[a])+i), a == b)
}

// Stored reports whether the triple a -r-> b is stored in that direction.
func (g *Graph) Stored(a uint32, r data.RelID, b uint32) bool {
	lo, hi := g.relRange(a, r)
	i, ok := slices.BinarySearch(g.nbr[lo:hi], b)
	return ok && g.Dir(a, int(lo-g.off[a])+i)&DirOut != 0
}

// TripleCount is the number of stored triples behind an adjacency entry
// with direction bits d.
func TripleCount(d uint8, selfLoop bool) int {
	if selfLoop || d != DirOut|DirIn {
		return 1
	}
	return 2
}

// NeighborsOfType appends to dst the distinct neighbours of v of node type
// t (over every relation), ascending, and returns it. When the ids of type t
// form one contiguous block (the usual layout) each relation's run is cut by
// binary search, otherwise it is filtered.
func (g *Graph) NeighborsOfType(dst []uint32, v uint32, t data.TypeID) []uint32 {
	base := len(dst)
	blk := g.typeBlocks[t]
	lo, hi := g.off[v], g.off[v+1]
	for p := lo; p < hi; {
		q := g.relSearch(p+1, hi, g.rel.At(int(p))+1) // the end of p's relation run
		run := g.nbr[p:q]
		if blk[0] <= blk[1] {
			a := sort.Search(len(run), func(i int) bool { return run[i] >= blk[0] })
			b := sort.Search(len(run), func(i int) bool { return run[i] >= blk[1] })
			dst = append(dst, run[a:b]...)
		} else {
			for _, u := range run {
				if g.types[u] == t {
					dst = append(dst, u)
				}
			}
		}
		p = q
	}
	out := dst[base:]
	slices.Sort(out)
	return append(dst[:base], slices.Compact(out)...)
}

// typeIndex returns the name of type t's bitmap index, making the index
// over the stored rows on first use.
func (g *Graph) typeIndex(t data.TypeID) string {
	name := typeIndexName(int(t))
	g.idxMu.Lock()
	defer g.idxMu.Unlock()
	if int(t) < len(g.indexed) && !g.indexed[t] {
		key := typeKey(int(t))
		if err := g.attrs.CreateIndex(name, "type", func(r column.Reader) bool { return r.String() == key }); err != nil {
			panic(fmt.Sprintf("graphops: type index %s: %v", name, err)) // only a duplicate name fails, which the flag rules out
		}
		g.indexed[t] = true
	}
	return name
}

// NodesOfType returns the ids of every node of type t, ascending, using the
// type's bitmap index.
func (g *Graph) NodesOfType(t data.TypeID) []uint32 {
	var out []uint32
	name := g.typeIndex(t)
	g.attrs.Query(func(txn *column.Txn) error {
		return txn.With(name).Range(func(idx uint32) {
			out = append(out, idx)
		})
	})
	slices.Sort(out)
	return out
}

// CountOfType returns the number of nodes of type t from its bitmap index.
func (g *Graph) CountOfType(t data.TypeID) int {
	n := 0
	name := g.typeIndex(t)
	g.attrs.Query(func(txn *column.Txn) error {
		n = txn.With(name).Count()
		return nil
	})
	return n
}

// Name returns the name of node v.
func (g *Graph) Name(v uint32) string { return g.nodes[v].Name }

// Field returns the value of text field f (an index into the schema's
// TextFields) of node v. A text field called "name" is the node's name.
func (g *Graph) Field(v uint32, f int) string {
	if g.schema.TextFields[f] == data.NameField {
		return g.nodes[v].Name
	}
	if fs := g.nodes[v].Fields; f < len(fs) {
		return fs[f]
	}
	return ""
}

// TypeName returns the type name of node v, read through the enum column
// (which stores the type's key; the name comes from the schema).
func (g *Graph) TypeName(v uint32) string {
	var s string
	g.attrs.QueryAt(v, func(r column.Row) error {
		s, _ = r.Enum("type")
		return nil
	})
	t, err := strconv.Atoi(strings.TrimPrefix(s, "t"))
	if err != nil || t < 0 || t >= len(g.schema.NodeTypes) {
		return ""
	}
	return g.schema.NodeTypes[t]
}
