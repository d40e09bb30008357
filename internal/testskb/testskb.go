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
