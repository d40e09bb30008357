package infer

import (
	"context"
	"strings"
	"testing"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/models"
)

// TestNodeTexts: a node's text is its document and, with neighbours, a
// line naming the first ones its stored edges point to, in edge order
// (self-loops left out, in-edges not read); without neighbours it is the
// document itself.
func TestNodeTexts(t *testing.T) {
	s := &data.SKB{Schema: data.Schema{NodeTypes: []string{"t"}, RelationTypes: []string{"r", "q"}, TextFields: []string{"name", "gloss"}}}
	for _, n := range []struct{ name, gloss string }{{"dog", "a domestic animal"}, {"canine", "a carnivore"}, {"pet", ""}, {"wolf", "wild"}} {
		s.Nodes = append(s.Nodes, data.Node{Name: n.name, Fields: []string{"", n.gloss}})
	}
	for _, e := range [][3]int{{0, 0, 1}, {0, 1, 0}, {0, 1, 2}, {0, 0, 3}, {3, 0, 1}, {2, 1, 0}} {
		s.Edges.Add(uint32(e[0]), data.RelID(e[1]), uint32(e[2]))
	}
	two := NodeTexts(s, models.EncoderConfig{Neighbors: 2})
	for v, want := range []string{
		"dog\ngloss: a domestic animal\nrelated: canine; pet",
		"canine\ngloss: a carnivore",
		"pet\nrelated: dog",
		"wolf\ngloss: wild\nrelated: canine",
	} {
		if got := two(uint32(v)); got != want {
			t.Errorf("node %d: %q, want %q", v, got, want)
		}
	}
	if got, want := NodeTexts(s, models.EncoderConfig{})(0), "dog\ngloss: a domestic animal"; got != want {
		t.Errorf("no neighbours: %q, want %q", got, want)
	}
	if got, want := NeighborLine(s, 3)(0), "\nrelated: canine; pet; wolf"; got != want {
		t.Errorf("three neighbours: %q, want %q", got, want)
	}
	// An encoder whose alias fields the SKB lacks encodes nothing.
	enc, err := models.NewEncoder(models.EncoderConfig{Buckets: 64, EmbDim: 4, OutDim: 4, Neighbors: 2, NeighborAliases: []string{"lemmas"}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := EncodeNodes(context.Background(), s, enc); err == nil || !strings.Contains(err.Error(), "lemmas") {
		t.Errorf("EncodeNodes with an alias field the SKB lacks: %v", err)
	}
}
