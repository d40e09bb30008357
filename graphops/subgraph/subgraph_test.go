package subgraph

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/graphops"
	"github.com/strata-retrieval/strata/internal/testskb"
)

// randomGraph is a graph of n nodes of two types with about m random edges
// over three relations (duplicates, reverse pairs and self loops included),
// and its SKB.
func randomGraph(t testing.TB, r *rand.Rand, n, m int) (*graphops.Graph, *data.SKB) {
	s := &data.SKB{Schema: data.Schema{
		Format: data.FormatSKBDir, NodeTypes: []string{"a", "b"},
		RelationTypes: []string{"r0", "r1", "r2"}, TextFields: []string{"text"},
	}}
	for i := range n {
		s.Nodes = append(s.Nodes, data.Node{Type: data.TypeID(r.IntN(2)), Name: fmt.Sprint("n", i), Fields: []string{""}})
	}
	for range m {
		s.Edges.Add(uint32(r.IntN(n)), data.RelID(r.IntN(3)), uint32(r.IntN(n)))
	}
	g, err := graphops.Build(s)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { g.Close() })
	return g, s
}

// shapes are the pattern shapes of SimGRAG's evaluation: edges over node
// indexes.
var shapes = map[string][][2]int{
	"1-hop":             {{0, 1}},
	"2-hop path":        {{0, 1}, {1, 2}},
	"3-hop path":        {{0, 1}, {1, 2}, {2, 3}},
	"2-hop conjunction": {{0, 2}, {1, 2}},
	"3-hop conjunction": {{0, 3}, {1, 3}, {3, 2}},
	"3-hop star":        {{0, 1}, {0, 2}, {0, 3}},
	"triangle":          {{0, 1}, {1, 2}, {2, 0}},
}

// randomPattern gives the shape random known nodes (with random candidate
// distances, sometimes tied), typed or untyped unknowns and relation
// candidates.
func randomPattern(r *rand.Rand, g *graphops.Graph, edges [][2]int) *Pattern {
	nn := 0
	for _, e := range edges {
		nn = max(nn, e[0]+1, e[1]+1)
	}
	p := &Pattern{Nodes: make([]PatternNode, nn)}
	dist := func() float32 {
		if r.IntN(4) == 0 {
			return 0.5 // ties
		}
		return r.Float32()
	}
	for i := range p.Nodes {
		n := &p.Nodes[i]
		n.Type = -1
		if i == 0 || r.IntN(3) == 0 {
			n.Known = true
			for _, v := range r.Perm(g.NumNodes())[:1+r.IntN(5)] {
				n.Cands = append(n.Cands, NodeCand{ID: uint32(v), Dist: dist()})
			}
		} else if r.IntN(3) == 0 {
			n.Type = r.IntN(2)
		}
	}
	for _, e := range edges {
		pe := PatternEdge{H: e[0], T: e[1]}
		if r.IntN(2) == 0 {
			pe.H, pe.T = pe.T, pe.H
		}
		for _, rel := range r.Perm(3)[:1+r.IntN(3)] {
			pe.Rels = append(pe.Rels, RelCand{Rel: data.RelID(rel), Dist: dist()})
		}
		p.Edges = append(p.Edges, pe)
	}
	return p
}

// storedTriples counts the distinct stored triples of skb between each
// unordered node pair by each relation.
func storedTriples(skb *data.SKB) map[[3]uint32]int {
	type triple struct {
		h uint32
		r data.RelID
		t uint32
	}
	seen := map[triple]bool{}
	out := map[[3]uint32]int{}
	for i := range skb.Edges.Src {
		tr := triple{skb.Edges.Src[i], skb.Edges.Rel.At(i), skb.Edges.Dst[i]}
		if seen[tr] {
			continue
		}
		seen[tr] = true
		out[[3]uint32{min(tr.h, tr.t), max(tr.h, tr.t), uint32(tr.r)}]++
	}
	return out
}

// bruteForce enumerates every mapping of the pattern's nodes onto their
// candidate sets (images may repeat) and every choice of stored triples for
// its edges such that the edges meeting at any pattern node take distinct
// stored triples, and keeps the k best: the specification TopK
// must meet.
func bruteForce(g *graphops.Graph, stored map[[3]uint32]int, p *Pattern, k int) []Match {
	var all []Match
	nodes := make([]uint32, len(p.Nodes))
	rels := make([]data.RelID, len(p.Edges))
	use := map[[4]uint32]int{} // (pattern node, entry) -> edges at the node on the entry
	var edgesAt func(int)
	edgesAt = func(j int) {
		if j == len(p.Edges) {
			all = append(all, Match{Nodes: slices.Clone(nodes), Rels: slices.Clone(rels), GSD: p.GSD(nodes, rels)})
			return
		}
		e := p.Edges[j]
		for _, rc := range e.Rels {
			a, b := nodes[e.H], nodes[e.T]
			entry := [3]uint32{min(a, b), max(a, b), uint32(rc.Rel)}
			ka := [4]uint32{uint32(e.H), entry[0], entry[1], entry[2]}
			kb := [4]uint32{uint32(e.T), entry[0], entry[1], entry[2]}
			if use[ka] < stored[entry] && use[kb] < stored[entry] {
				rels[j] = rc.Rel
				use[ka]++
				use[kb]++
				edgesAt(j + 1)
				use[ka]--
				use[kb]--
			}
		}
	}
	var nodeAt func(int)
	nodeAt = func(i int) {
		if i == len(p.Nodes) {
			edgesAt(0)
			return
		}
		n := p.Nodes[i]
		for v := range uint32(g.NumNodes()) {
			if n.Known && !slices.ContainsFunc(n.Cands, func(c NodeCand) bool { return c.ID == v }) {
				continue
			}
			if !n.Known && n.Type >= 0 && int(g.Type(v)) != n.Type {
				continue
			}
			nodes[i] = v
			nodeAt(i + 1)
		}
	}
	nodeAt(0)
	slices.SortFunc(all, func(a, b Match) int { return compareSubgraphs(&a, &b) })
	return all[:min(k, len(all))]
}

// TestTopKExact checks the pruned search, and the search without
// pruning, against brute-force enumeration on random graphs and patterns of
// every shape SimGRAG evaluates.
func TestTopKExact(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	names := make([]string, 0, len(shapes))
	for name := range shapes {
		names = append(names, name)
	}
	slices.Sort(names)
	cases, nonEmpty, pruned, shared, recrossed := 0, 0, 0, 0, 0
	for trial := range 60 {
		g, skb := randomGraph(t, r, 8+r.IntN(10), 20+r.IntN(60))
		stored := storedTriples(skb)
		for _, name := range names {
			p := randomPattern(r, g, shapes[name])
			k := 1 + r.IntN(8)
			want := bruteForce(g, stored, p, k)
			for _, w := range want {
				if len(slices.Compact(slices.Sorted(slices.Values(w.Nodes)))) < len(w.Nodes) {
					shared++
				}
				// A stored triple taken by more pattern edges than it has
				// copies: edges that do not meet, crossing a fact again.
				on := map[[3]uint32]int{}
				for i, e := range p.Edges {
					a, b := w.Nodes[e.H], w.Nodes[e.T]
					on[[3]uint32{min(a, b), max(a, b), uint32(w.Rels[i])}]++
				}
				for entry, n := range on {
					if n > stored[entry] {
						recrossed++
					}
				}
			}
			for _, prune := range []bool{true, false} {
				got, st, err := TopK(context.Background(), g, p, k, prune)
				if err != nil {
					t.Fatal(err)
				}
				if len(got) != len(want) {
					t.Fatalf("trial %d %s prune=%v k=%d: %d subgraphs, brute force %d\n got %v\nwant %v", trial, name, prune, k, len(got), len(want), got, want)
				}
				for i := range got {
					if compareSubgraphs(&got[i], &want[i]) != 0 {
						t.Fatalf("trial %d %s prune=%v: subgraph %d = %+v, brute force %+v", trial, name, prune, i, got[i], want[i])
					}
				}
				if prune {
					_, full, _ := TopK(context.Background(), g, p, k, false)
					if st.Expanded < full.Expanded {
						pruned++
					}
				}
			}
			cases++
			if len(want) > 0 {
				nonEmpty++
			}
		}
	}
	// The property must be exercised: most random patterns have matches,
	// pruning must cut work somewhere, and some matches come back to a node
	// over a second stored triple.
	if nonEmpty < cases/3 || pruned == 0 || shared == 0 || recrossed == 0 {
		t.Fatalf("%d of %d patterns had matches, pruning cut work in %d, %d matches share a node, %d cross a fact again", nonEmpty, cases, pruned, shared, recrossed)
	}
	t.Logf("%d patterns, %d with matches, pruning cut work in %d, %d matches share a node, %d cross a fact again", cases, nonEmpty, pruned, shared, recrossed)
}

func TestTopKHand(t *testing.T) {
	g, err := graphops.Build(testskb.Papers())
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	// Ann (close, 0.1) or Bob (0.3) writes ?p, and ?p cites ?q.
	p := &Pattern{
		Nodes: []PatternNode{
			{Known: true, Type: -1, Cands: []NodeCand{{3, 0.1}, {4, 0.3}}},
			{Type: 0}, {Type: -1},
		},
		Edges: []PatternEdge{
			{H: 0, T: 1, Rels: []RelCand{{0, 0}}},
			{H: 1, T: 2, Rels: []RelCand{{1, 0.25}, {0, 0.5}}},
		},
	}
	got, _, err := TopK(context.Background(), g, p, 10, true)
	if err != nil {
		t.Fatal(err)
	}
	// Ann-P0-cites-P1 (0.1+0+0.25), Ann-P1-cites-P0 (0.35; tied, so P0 ranks first as a target),
	// Ann-P0? writes from P0 to Bob: no. Ann-P1-writes-Bob (0.1+0.5),
	// Bob-P1-cites-P0 (0.3+0.25), Bob-P1-writes-Ann (0.3+0.5).
	want := []struct {
		nodes []uint32
		gsd   float64
	}{
		{[]uint32{3, 0, 1}, 0.35}, {[]uint32{3, 1, 0}, 0.35}, {[]uint32{4, 1, 0}, 0.55},
		{[]uint32{3, 1, 4}, 0.6}, {[]uint32{4, 1, 3}, 0.8},
	}
	if len(got) != len(want) {
		t.Fatalf("got %d subgraphs %+v", len(got), got)
	}
	for i, w := range want {
		if !slices.Equal(got[i].Nodes, w.nodes) || got[i].GSD-w.gsd > 1e-6 || w.gsd-got[i].GSD > 1e-6 {
			t.Errorf("subgraph %d = %v %.4f, want %v %.4f", i, got[i].Nodes, got[i].GSD, w.nodes, w.gsd)
		}
	}
	ranked := p.RankTargets(got, 2)
	if ids := []uint32{ranked[0].ID, ranked[1].ID, ranked[2].ID, ranked[3].ID}; !slices.Equal(ids, []uint32{0, 1, 4, 3}) {
		t.Errorf("RankTargets = %v", ranked)
	}
	if _, _, err := TopK(context.Background(), g, &Pattern{Nodes: p.Nodes, Edges: p.Edges[1:]}, 3, true); err == nil {
		t.Error("a disconnected pattern was accepted")
	}
}

// TestTopKReturnToTopic: a path may come back to its known node
// over stored triples other than those it left by (PathQuestion's "the child
// of shah_shuja's parent" is shah_shuja), and cross a fact again further on
// ("the child of the parent of shah_shuja's parent" is his parent's child),
// never by going straight back over one triple (MetaQA's "films sharing an
// actor with [Film]" never include the film).
func TestTopKReturnToTopic(t *testing.T) {
	s := &data.SKB{Schema: data.Schema{
		Format: data.FormatSKBDir, NodeTypes: []string{"entity"},
		RelationTypes: []string{"parents", "children", "spouse", "starred_actors"},
	}}
	for _, n := range []string{"shah_shuja", "mumtaz_mahal", "dara_shikoh", "shah_jahan", "Heat", "Al Pacino", "Scarface", "Ronin"} {
		s.Nodes = append(s.Nodes, data.Node{Name: n, Fields: []string{}})
	}
	s.Edges.Add(0, 0, 1) // shah_shuja parents mumtaz_mahal
	s.Edges.Add(1, 1, 0) // mumtaz_mahal children shah_shuja
	s.Edges.Add(1, 1, 2) // mumtaz_mahal children dara_shikoh
	s.Edges.Add(1, 2, 3) // mumtaz_mahal spouse shah_jahan
	s.Edges.Add(3, 2, 1) // shah_jahan spouse mumtaz_mahal
	s.Edges.Add(4, 3, 5) // Heat starred_actors Al Pacino
	s.Edges.Add(6, 3, 5) // Scarface starred_actors Al Pacino
	s.Edges.Add(7, 3, 5) // Ronin starred_actors Al Pacino
	g, err := graphops.Build(s)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	for _, c := range []struct{ a, r, b, want int }{{0, 0, 1, 1}, {1, 0, 0, 1}, {1, 2, 3, 2}, {3, 2, 1, 2}, {0, 1, 1, 1}, {0, 2, 1, 0}, {4, 3, 5, 1}} {
		if got := g.Triples(uint32(c.a), data.RelID(c.r), uint32(c.b)); got != c.want {
			t.Errorf("Triples(%d, %d, %d) = %d, want %d", c.a, c.r, c.b, got, c.want)
		}
	}
	var ranked []NodeCand
	chain := func(topic uint32, r1, r2 data.RelID) []uint32 {
		p := &Pattern{
			Nodes: []PatternNode{{Known: true, Type: -1, Cands: []NodeCand{{topic, 0}}}, {Type: -1}, {Type: -1}},
			Edges: []PatternEdge{{H: 0, T: 1, Rels: []RelCand{{r1, 0}}}, {H: 1, T: 2, Rels: []RelCand{{r2, 0}}}},
		}
		subs, _, err := TopK(context.Background(), g, p, 10, true)
		if err != nil {
			t.Fatal(err)
		}
		var out []uint32
		ranked = p.RankTargets(subs, 2)
		for _, c := range ranked {
			out = append(out, c.ID)
		}
		return out
	}
	// shah_shuja -parents- ? -children- ?: his brother and himself (by the
	// second triple); at equal GSD the new entity ranks first.
	if got := chain(0, 0, 1); !slices.Equal(got, []uint32{2, 0}) {
		t.Errorf("child of shah_shuja's parent = %v, want [2 0]", got)
	}
	// Both at GSD 0; the topic's distance is one float32 step above, so the
	// order holds where score ties go by id.
	if ranked[0].Dist != 0 || ranked[1].Dist != math.SmallestNonzeroFloat32 {
		t.Errorf("distances %v, want 0 and the smallest float32", ranked)
	}
	// mumtaz_mahal -spouse- ? -spouse- ?: herself, the spouse triple being
	// stored both ways; the only answer, so first.
	if got := chain(1, 2, 2); !slices.Equal(got, []uint32{1}) {
		t.Errorf("spouse of mumtaz_mahal's spouse = %v, want [1]", got)
	}
	// Heat -starred_actors- ? -starred_actors- ?: the other films only.
	if got := chain(4, 3, 3); !slices.Equal(got, []uint32{6, 7}) {
		t.Errorf("films sharing an actor with Heat = %v, want [6 7]", got)
	}
	// shah_shuja -parents- ? -parents- ?: nothing (one parents triple).
	if got := chain(0, 0, 0); len(got) != 0 {
		t.Errorf("parent of shah_shuja's parent = %v, want none", got)
	}
	// shah_shuja -parents- M -children- shah_shuja -parents- M: three
	// hops, the third crossing the first one's fact again (the edges do
	// not meet); and M -children- dara only if via shah_shuja.
	p3 := &Pattern{
		Nodes: []PatternNode{{Known: true, Type: -1, Cands: []NodeCand{{0, 0}}}, {Type: -1}, {Type: -1}, {Type: -1}},
		Edges: []PatternEdge{{H: 0, T: 1, Rels: []RelCand{{0, 0}}}, {H: 1, T: 2, Rels: []RelCand{{1, 0}}}, {H: 2, T: 3, Rels: []RelCand{{0, 0}}}},
	}
	subs, _, err := TopK(context.Background(), g, p3, 10, true)
	if err != nil {
		t.Fatal(err)
	}
	want := []Match{{Nodes: []uint32{0, 1, 0, 1}, Rels: []data.RelID{0, 1, 0}}}
	if !cmp.Equal(subs, want) {
		t.Errorf("parent of the child of shah_shuja's parent: %+v, want %+v", subs, want)
	}
}
