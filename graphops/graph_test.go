package graphops

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/data/snapshot"
)

func smallSKB() *data.SKB {
	s := &data.SKB{Schema: data.Schema{
		Format: data.FormatSKBDir, NodeTypes: []string{"paper", "author"},
		RelationTypes: []string{"writes", "cites"}, TextFields: []string{"title"},
	}}
	// papers 0,1,2 ; authors 3,4
	for i, n := range []struct {
		t    data.TypeID
		name string
	}{{0, "P0"}, {0, "P1"}, {0, "P2"}, {1, "Ann"}, {1, "Bob"}} {
		s.Nodes = append(s.Nodes, data.Node{Type: n.t, Name: n.name, Fields: []string{"title " + n.name}})
		_ = i
	}
	s.Edges.Add(3, 0, 0) // Ann writes P0
	s.Edges.Add(3, 0, 1) // Ann writes P1
	s.Edges.Add(4, 0, 1) // Bob writes P1
	s.Edges.Add(0, 1, 1) // P0 cites P1
	s.Edges.Add(1, 1, 0) // P1 cites P0 (reverse exists too)
	s.Edges.Add(0, 1, 1) // duplicate
	s.Edges.Add(2, 1, 2) // self-citation
	return s
}

func TestGraphSmall(t *testing.T) {
	g, err := Build(smallSKB())
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	nb, rel := g.Neighbors(1)
	if !cmp.Equal(nb, []uint32{3, 4, 0}) || !cmp.Equal(rel.IDs(), []data.RelID{0, 0, 1}) {
		t.Errorf("Neighbors(1) = %v %v", nb, rel)
	}
	// P1's entry to P0 by cites was stored both ways.
	if d := g.Dir(1, 2); d != DirOut|DirIn {
		t.Errorf("Dir(1, cites P0) = %b", d)
	}
	if d := g.Dir(1, 0); d != DirIn { // Ann -> P1
		t.Errorf("Dir(1, writes Ann) = %b", d)
	}
	if got := g.NeighborsByRel(0, 1); !cmp.Equal(got, []uint32{1}) {
		t.Errorf("NeighborsByRel(0, cites) = %v", got)
	}
	if got := g.NeighborsByRel(3, 1); len(got) != 0 {
		t.Errorf("NeighborsByRel(Ann, cites) = %v", got)
	}
	if got := g.NeighborsOfType(nil, 1, 1); !cmp.Equal(got, []uint32{3, 4}) {
		t.Errorf("NeighborsOfType(P1, author) = %v", got)
	}
	if got := g.NeighborsOfType(nil, 2, 0); !cmp.Equal(got, []uint32{2}) {
		t.Errorf("self loop: %v", got)
	}
	if g.Degree(2) != 1 || g.Dir(2, 0) != DirOut|DirIn {
		t.Errorf("self loop degree %d dir %b", g.Degree(2), g.Dir(2, 0))
	}
	if got := g.NodesOfType(1); !cmp.Equal(got, []uint32{3, 4}) {
		t.Errorf("NodesOfType(author) = %v", got)
	}
	if g.CountOfType(0) != 3 {
		t.Errorf("CountOfType(paper) = %d", g.CountOfType(0))
	}
	if g.Name(4) != "Bob" || g.Field(4, 0) != "title Bob" || g.TypeName(4) != "author" {
		t.Errorf("attrs of 4: %q %q %q", g.Name(4), g.Field(4, 0), g.TypeName(4))
	}
	if g.NumEntries() != 9 {
		t.Errorf("entries = %d, want 9", g.NumEntries())
	}
}

// TestGraphRandom checks every query against a brute-force reference on
// random graphs with interleaved (non-contiguous) and contiguous types, with
// few types and with wide ids (300 node types, 70,000 relation types, ids
// chosen on both sides of each byte boundary), before and after a snapshot
// round trip.
func TestGraphRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for trial := 0; trial < 24; trial++ {
		n := 2 + r.IntN(200)
		contiguous := trial%2 == 0
		wide := trial%4 >= 2
		s := &data.SKB{Schema: data.Schema{NodeTypes: []string{"a", "b", "c"}, RelationTypes: []string{"r0", "r1", "r2", "r3"}}}
		typePool := []data.TypeID{0, 1, 2}
		relPool := []data.RelID{0, 1, 2, 3}
		if wide {
			s.Schema.NodeTypes, s.Schema.RelationTypes = nil, nil
			for i := range 300 {
				s.Schema.NodeTypes = append(s.Schema.NodeTypes, fmt.Sprintf("t%d", i))
			}
			for i := range 70_000 {
				s.Schema.RelationTypes = append(s.Schema.RelationTypes, fmt.Sprintf("r%d", i))
			}
			typePool = []data.TypeID{0, 255, 299}
			relPool = []data.RelID{0, 1, 255, 256, 65_535, 65_536, 69_999}
		}
		for i := 0; i < n; i++ {
			ty := typePool[r.IntN(len(typePool))]
			if contiguous {
				ty = typePool[i*len(typePool)/n]
			}
			s.Nodes = append(s.Nodes, data.Node{Type: ty, Fields: []string{}})
		}
		m := r.IntN(n * 6)
		type key struct {
			v, u uint32
			r    data.RelID
		}
		ref := map[key]uint8{}
		for i := 0; i < m; i++ {
			a, b, rel := uint32(r.IntN(n)), uint32(r.IntN(n)), relPool[r.IntN(len(relPool))]
			s.Edges.Add(a, rel, b)
			ref[key{a, b, rel}] |= DirOut
			ref[key{b, a, rel}] |= DirIn
		}
		built, err := Build(s)
		if err != nil {
			t.Fatal(err)
		}
		if wide != (built.rel.Hi != nil) {
			t.Fatalf("wide %v: relation column has high bits %v", wide, built.rel.Hi != nil)
		}
		var w snapshot.Writer
		if err := built.Encode(&w); err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := w.Write(&buf); err != nil {
			t.Fatal(err)
		}
		sr, err := snapshot.Parse("graph.snap", buf.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		types16 := slices.ContainsFunc(s.Nodes, func(n data.Node) bool { return n.Type > 255 })
		if sr.Has("graph.types16") != types16 || sr.Has("graph.types") == types16 || sr.Has("graph.relhi") != wide {
			t.Fatalf("wide %v: sections %v", wide, sr.Sections())
		}
		decoded, err := Decode(sr, s.Schema, s.Nodes)
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range []*Graph{built, decoded} {
			total := 0
			for v := uint32(0); v < uint32(n); v++ {
				nb, rels := g.Neighbors(v)
				rl := rels.IDs()
				total += len(nb)
				for i := range nb {
					if i > 0 && (rl[i-1] > rl[i] || (rl[i-1] == rl[i] && nb[i-1] >= nb[i])) {
						t.Fatalf("node %d not sorted by (rel, nbr)", v)
					}
					if want := ref[key{v, nb[i], rl[i]}]; want == 0 || g.Dir(v, i) != want {
						t.Fatalf("node %d entry %d: dir %b, want %b", v, i, g.Dir(v, i), want)
					}
				}
				for _, ty := range typePool {
					var want []uint32
					for u := uint32(0); u < uint32(n); u++ {
						if s.Nodes[u].Type != ty {
							continue
						}
						for _, rel := range relPool {
							if ref[key{v, u, rel}] != 0 {
								want = append(want, u)
								break
							}
						}
					}
					if got := g.NeighborsOfType(nil, v, ty); !cmp.Equal(got, want, cmpopts.EquateEmpty()) {
						t.Fatalf("NeighborsOfType(%d, %d) = %v, want %v", v, ty, got, want)
					}
				}
				for _, rel := range relPool {
					var want []uint32
					for u := uint32(0); u < uint32(n); u++ {
						if ref[key{v, u, rel}] != 0 {
							want = append(want, u)
						}
					}
					if got := g.NeighborsByRel(v, rel); !cmp.Equal(got, want, cmpopts.EquateEmpty()) {
						t.Fatalf("NeighborsByRel(%d, %d) = %v, want %v", v, rel, got, want)
					}
				}
			}
			if total != len(ref) {
				t.Fatalf("entries %d, want %d", total, len(ref))
			}
			for _, ty := range typePool {
				var want []uint32
				for u := range s.Nodes {
					if s.Nodes[u].Type == ty {
						want = append(want, uint32(u))
					}
				}
				if got := g.NodesOfType(ty); !slices.Equal(got, want) {
					t.Fatalf("NodesOfType(%d) = %v, want %v", ty, got, want)
				}
			}
			g.Close()
		}
	}
}

// Names and fields of 64 KiB and more (real STaRK documents are longer)
// used to panic inside the attribute store, which keeps string lengths in 16
// bits; the graph reads text from its node table instead.
func TestGraphLongText(t *testing.T) {
	s := smallSKB()
	long := strings.Repeat("abcdefghij", 10_000) // 100,000 bytes
	s.Nodes[1].Name = long + "N"
	s.Nodes[3].Fields[0] = long + "F"
	g, err := Build(s)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	if got := g.Name(1); got != long+"N" {
		t.Errorf("Name(1) has %d bytes, want %d", len(got), len(long)+1)
	}
	if got := g.Field(3, 0); got != long+"F" {
		t.Errorf("Field(3, 0) has %d bytes, want %d", len(got), len(long)+1)
	}
	if g.Name(4) != "Bob" || g.TypeName(1) != "paper" || g.TypeName(3) != "author" {
		t.Errorf("other attributes: %q %q %q", g.Name(4), g.TypeName(1), g.TypeName(3))
	}
}
