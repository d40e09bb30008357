package infer

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/graphops/workspace"
	"github.com/strata-retrieval/strata/models"
)

// TestTypeFeatures: every token stemmed, stop words kept, and the
// opening one and two marked.
func TestTypeFeatures(t *testing.T) {
	for _, c := range []struct {
		text string
		want []string
	}{
		{"One who praises", []string{"one", "who", "prais", "^one", "^one who"}},
		{"To conquer; to subdue", []string{"to", "conquer", "to", "subdu", "^to", "^to conquer"}},
		{"Eagerness", []string{"eager", "^eager", "^eager"}},
		{"", []string{"^", "^"}},
	} {
		if got := TypeFeatures(c.text); !slices.Equal(got, c.want) {
			t.Errorf("TypeFeatures(%q) = %q, want %q", c.text, got, c.want)
		}
	}
}

// TestReadingOf: the reading is built once per workspace; its labels are
// the candidates' node types in order of first sight; with one candidate
// type there is no prior, and the prior learns from the longest text field
// other than the name.
func TestReadingOf(t *testing.T) {
	skb := &data.SKB{Schema: data.Schema{Format: data.FormatSKBDir, NodeTypes: []string{"a", "b", "c"}, RelationTypes: []string{"r"},
		CandidateTypes: []string{"b", "c"}, TextFields: []string{"name", "short", "long"}}}
	skb.Nodes = []data.Node{
		{Type: 0, Name: "x", Fields: []string{"", "", "not a candidate"}},
		{Type: 2, Name: "y", Fields: []string{"", "two words", "three words here"}},
		{Type: 1, Name: "z", Fields: []string{"", "the longer field of z", "short"}},
	}
	ws, err := workspace.Build(context.Background(), skb, nil, workspace.Config{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	r, err := ReadingOf(ws)
	if err != nil {
		t.Fatal(err)
	}
	if r2, _ := ReadingOf(ws); r2 != r {
		t.Error("ReadingOf built a second reading")
	}
	if !slices.Equal(r.Label, []int32{0, 1}) || r.Prior == nil || r.BM25.NumDocs() != 2 {
		t.Fatalf("labels %v, prior %v, %d documents", r.Label, r.Prior != nil, r.BM25.NumDocs())
	}
	if f, got := LongestField(skb, 2); f != 1 || strings.Join(got, " ") != "the longer field of z" {
		t.Errorf("longest field %d %q", f, got)
	}
	skb.Nodes[1].Type = 1
	ws2, err := workspace.Build(context.Background(), skb, nil, workspace.Config{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ws2.Close()
	if r, err := ReadingOf(ws2); err != nil || r.Prior != nil {
		t.Errorf("one candidate type: prior %v (%v), want none", r.Prior, err)
	}
	// Two types, but only names: nothing to learn a prior from (it would
	// give every type -Inf and NaN scores).
	skb.Nodes[1].Type = 2
	for i := range skb.Nodes {
		skb.Nodes[i].Fields = []string{"", "", ""}
	}
	ws3, err := workspace.Build(context.Background(), skb, nil, workspace.Config{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ws3.Close()
	if r, err := ReadingOf(ws3); err != nil || r.Prior != nil || !slices.Equal(r.Label, []int32{0, 1}) {
		t.Errorf("names only: prior %v (%v), want none", r.Prior, err)
	}
}

// TestNeighborAliasLine: a neighbour is read by its alias fields' values
// where it has some, else by its name.
func TestNeighborAliasLine(t *testing.T) {
	s := &data.SKB{Schema: data.Schema{NodeTypes: []string{"t"}, RelationTypes: []string{"r"}, TextFields: []string{"name", "lemmas", "gloss"}}}
	for _, n := range [][3]string{{"tome", "tome", "a large book"}, {"book", "book; volume", "a written work"}, {"work", "", "a product"}} {
		s.Nodes = append(s.Nodes, data.Node{Name: n[0], Fields: []string{"", n[1], n[2]}})
	}
	s.Edges.Add(0, 0, 1)
	s.Edges.Add(0, 0, 2)
	if got, want := NeighborAliasLine(s, 8, []string{"lemmas"})(0), "\nrelated: book; volume; work"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
	if got, want := NeighborAliasLine(s, 8, nil)(0), NeighborLine(s, 8)(0); got != want || want != "\nrelated: book; work" {
		t.Errorf("no alias fields: %q, want %q", got, want)
	}
	// An encoder reads a document with its neighbours' other names when
	// its config names alias fields, with their names when not, and alone
	// without neighbours.
	for _, c := range []struct {
		cfg  models.EncoderConfig
		want string
	}{
		{models.EncoderConfig{Neighbors: 1, NeighborAliases: []string{"lemmas"}}, "tome\nlemmas: tome\ngloss: a large book\nrelated: book; volume"},
		{models.EncoderConfig{Neighbors: 8}, "tome\nlemmas: tome\ngloss: a large book\nrelated: book; work"},
		{models.EncoderConfig{NeighborAliases: []string{"lemmas"}}, "tome\nlemmas: tome\ngloss: a large book"},
	} {
		if got := NodeTexts(s, c.cfg)(0); got != c.want {
			t.Errorf("NodeTexts(%+v) = %q, want %q", c.cfg, got, c.want)
		}
	}
}
