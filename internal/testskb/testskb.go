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
