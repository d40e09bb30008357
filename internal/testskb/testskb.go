// Package testskb holds small hand-built SKBs that tests of several
// packages work numbers out on.
package testskb

import (
	"context"
	"testing"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/graphops/workspace"
)

// DirectorFilms is a person, Paul Smith (node 0), who directed three
// candidate films: First Film (1; "Released in 2007. Language: English."),
// Second Film (2; 1999, French) and Third Film (3; 2007, French).
func DirectorFilms() *data.SKB {
	s := &data.SKB{Schema: data.Schema{Format: data.FormatSKBDir, NodeTypes: []string{"person", "movie"},
		RelationTypes: []string{"directed_by"}, CandidateTypes: []string{"movie"}, TextFields: []string{"name", "details"}}}
	s.Nodes = []data.Node{
		{Type: 0, Name: "Paul Smith", Fields: []string{"", ""}},
		{Type: 1, Name: "First Film", Fields: []string{"", "Released in 2007. Language: English."}},
		{Type: 1, Name: "Second Film", Fields: []string{"", "Released in 1999. Language: French."}},
		{Type: 1, Name: "Third Film", Fields: []string{"", "Released in 2007. Language: French."}},
	}
	for _, f := range []uint32{1, 2, 3} {
		s.Edges.Add(f, 0, 0)
	}
	return s
}

// Taxonomy is a small lexical graph. Types: plant (0), group (1),
// act (2). Relations: hypernym (child -> parent), member holonym (member
// -> group). Field "lemmas" lists other names; "definition" is free text.
//
//	0 fern            <- 1 wood fern, 2 tree fern, 3 water fern, 10 royal fern (hypernym)
//	4 genus Dryopteris (group)  <- 1 wood fern, 5 shield fern (member holonym)
//	5 shield fern     -> 6 polypody (hypernym)
//	7 drawing (act)   <- 8 draw, 9 derivation, 11 sketching (hypernym)
//	10 royal fern     <- 12 osmund (hypernym)
func Taxonomy() *data.SKB {
	s := &data.SKB{Schema: data.Schema{Format: data.FormatSKBDir,
		NodeTypes: []string{"plant", "group", "act"}, RelationTypes: []string{"hypernym", "member holonym"},
		TextFields: []string{"lemmas", "definition"}}}
	add := func(t data.TypeID, name, lemmas, def string) {
		s.Nodes = append(s.Nodes, data.Node{Type: t, Name: name, Fields: []string{lemmas, def}})
	}
	add(0, "fern", "fern", "a flowerless plant")
	add(0, "wood fern", "wood fern; wood-fern; woodfern", "a fern of the genus Dryopteris")
	add(0, "tree fern", "tree fern", "a large fern")
	add(0, "water fern", "water fern", "a floating fern")
	add(1, "Dryopteris", "Dryopteris; genus Dryopteris", "a genus of ferns")
	add(0, "shield fern", "shield fern; buckler fern", "a fern with shield-shaped covers")
	add(0, "polypody", "polypody", "a fern of the family Polypodiaceae")
	add(2, "drawing", "drawing; drawing off", "the act of drawing")
	add(2, "draw", "draw", "the act of drawing a card")
	add(2, "derivation", "derivation", "drawing of fluid away from a diseased part")
	add(0, "royal fern (plant)", "royal fern; royal osmund", "a large fern")
	add(2, "sketching", "sketching", "preliminary drawing")
	add(0, "osmund", "osmund", "a fern of genus Osmunda")
	for _, e := range [][3]uint32{{1, 0, 0}, {2, 0, 0}, {3, 0, 0}, {10, 0, 0}, {1, 1, 4}, {5, 1, 4}, {5, 0, 6},
		{8, 0, 7}, {9, 0, 7}, {11, 0, 7}, {12, 0, 10}} {
		s.Edges.Add(e[0], data.RelID(e[1]), e[2])
	}
	return s
}

// Papers is papers P0, P1, P2 (nodes 0-2) and authors Ann (3) and Bob
// (4): Ann writes P0 and P1, Bob writes P1 (relation 0, writes); P0 and P1
// cite each other, the P0 -> P1 citation stored twice, and P2 cites itself
// (relation 1, cites). Each node's one text field is "title NAME".
func Papers() *data.SKB {
	s := &data.SKB{Schema: data.Schema{
		Format: data.FormatSKBDir, NodeTypes: []string{"paper", "author"},
		RelationTypes: []string{"writes", "cites"}, TextFields: []string{"title"},
	}}
	for i, name := range []string{"P0", "P1", "P2", "Ann", "Bob"} {
		s.Nodes = append(s.Nodes, data.Node{Type: data.TypeID(i / 3), Name: name, Fields: []string{"title " + name}})
	}
	for _, e := range [][3]uint32{{3, 0, 0}, {3, 0, 1}, {4, 0, 1}, {0, 1, 1}, {1, 1, 0}, {0, 1, 1}, {2, 1, 2}} {
		s.Edges.Add(e[0], data.RelID(e[1]), e[2])
	}
	return s
}

// Workspace builds a workspace of s, closed when the test ends.
func Workspace(t testing.TB, s *data.SKB) *workspace.Workspace {
	t.Helper()
	ws, err := workspace.Build(context.Background(), s, nil, workspace.Config{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	return ws
}
