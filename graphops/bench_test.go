package graphops

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/strata-retrieval/strata/data"
)

func randomSKB(n, m int) *data.SKB {
	r := rand.New(rand.NewPCG(9, 9))
	s := &data.SKB{Schema: data.Schema{NodeTypes: []string{"a", "b"}, RelationTypes: []string{"r0", "r1", "r2"}}}
	for i := 0; i < n; i++ {
		s.Nodes = append(s.Nodes, data.Node{Type: data.TypeID(i * 2 / n), Fields: []string{}})
	}
	for i := 0; i < m; i++ {
		s.Edges.Add(uint32(r.IntN(n)), data.RelID(r.IntN(3)), uint32(r.IntN(n)))
	}
	return s
}

func BenchmarkBuildCSR(b *testing.B) {
	for _, size := range [][2]int{{10_000, 200_000}, {100_000, 2_000_000}} {
		s := randomSKB(size[0], size[1])
		b.Run(fmt.Sprintf("nodes=%d/edges=%d", size[0], size[1]), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				g := &Graph{schema: s.Schema}
				if err := g.buildCSR(&s.Edges, size[0]); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkNeighborsOfType(b *testing.B) {
	s := randomSKB(100_000, 2_000_000)
	g, err := Build(s)
	if err != nil {
		b.Fatal(err)
	}
	defer g.Close()
	var dst []uint32
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		dst = g.NeighborsOfType(dst[:0], uint32(i%100_000), data.TypeID(i%2))
	}
}

// BenchmarkWalk times plan execution's inner loop: two typed hops by one
// relation each, from 64 start nodes (Step's relation search and
// direction test, then Walk's dedup).
func BenchmarkWalk(b *testing.B) {
	s := randomSKB(100_000, 2_000_000)
	g, err := Build(s)
	if err != nil {
		b.Fatal(err)
	}
	defer g.Close()
	hops := []Hop{
		{Rels: []data.RelID{1}, Dirs: []data.RelDir{data.Forward}, To: 1},
		{Rels: []data.RelID{2, 0}, Dirs: []data.RelDir{data.Backward, data.Undirected}, To: AnyTypeID},
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		start := make([]uint32, 64)
		for j := range start {
			start[j] = uint32((i*64 + j) * 7919 % 100_000)
		}
		slices.Sort(start)
		g.Walk(slices.Compact(start), hops)
	}
}
