package train

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/internal/testskb"
	"github.com/strata-retrieval/strata/models"
)

// TestAddSpanPairs: span pairs come from the candidates whose longest text
// field other than the name has at least 6 words (not the stub's); each
// draw's query is a span of 4 to 12 words of that field and its positive
// the node's document without the span, with the node's neighbour line;
// the same random source draws the same pairs, and the pairs follow the
// question pairs in the task's examples.
func TestAddSpanPairs(t *testing.T) {
	s := &data.SKB{Schema: data.Schema{Format: data.FormatSKBDir, NodeTypes: []string{"w"}, RelationTypes: []string{"hypernym"},
		CandidateTypes: []string{"w"}, TextFields: []string{"name", "lemmas", "gloss"}}}
	glosses := []string{
		"a member of the genus Canis that has been domesticated by man since prehistoric times",
		"any of various fissiped mammals with nonretractile claws",
		"too short",
		"the young of various wild carnivores",
	}
	for i, g := range glosses {
		s.Nodes = append(s.Nodes, data.Node{Name: []string{"dog", "canine", "stub", "pup"}[i], Fields: []string{"one two", g}})
	}
	s.Schema.TextFields = []string{"lemmas", "gloss"}
	s.Edges.Add(0, 0, 1)
	s.Edges.Add(3, 0, 1)
	ws := testskb.Workspace(t, s)
	enc, err := models.NewEncoder(models.EncoderConfig{Buckets: 4096, EmbDim: 8, OutDim: 8, Neighbors: 2}, rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	task := &EncoderTask{Enc: enc, queries: [][]uint32{{1}}, docs: [][]uint32{{2}}}
	if n := task.AddSpanPairs(ws, 10, rand.New(rand.NewPCG(7, 0))); n != 3 || task.NumExamples() != 4 {
		t.Fatalf("%d span pairs, %d examples; want 3 (the stub's gloss is too short) and 4", n, task.NumExamples())
	}
	var nodes []uint32
	for _, sp := range task.spans {
		nodes = append(nodes, sp.node)
		if sp.field != 1 {
			t.Errorf("node %d: spans from field %d, want the gloss (1)", sp.node, sp.field)
		}
	}
	slices.Sort(nodes)
	if !slices.Equal(nodes, []uint32{0, 1, 3}) {
		t.Errorf("span nodes %v, want [0 1 3]", nodes)
	}
	r := rand.New(rand.NewPCG(3, 3))
	lens := map[int]bool{}
	for range 60 {
		for k := range task.spans {
			sp := &task.spans[k]
			q, d := task.spanPair(sp, r)
			found := false
			words := sp.words
			for l := 4; l <= min(12, len(words)); l++ {
				for start := 0; start+l <= len(words); start++ {
					if !slices.Equal(enc.Features(strings.Join(words[start:start+l], " ")), q) {
						continue
					}
					rest := strings.Join(append(slices.Clone(words[:start]), words[start+l:]...), " ")
					want := s.DocumentWith(sp.node, 1, rest)
					if sp.node != 1 {
						want += "\nrelated: canine"
					}
					if slices.Equal(enc.Features(want), d) {
						found = true
						lens[l] = true
					}
				}
			}
			if !found {
				t.Fatalf("node %d: the query is no span of 4-12 words of its gloss with the rest as its positive", sp.node)
			}
		}
	}
	if !lens[4] || !lens[12] || lens[13] {
		t.Errorf("span lengths drawn %v, want 4 to 12", lens)
	}
	a, b := rand.New(rand.NewPCG(5, 5)), rand.New(rand.NewPCG(5, 5))
	q1, d1 := task.spanPair(&task.spans[0], a)
	q2, d2 := task.spanPair(&task.spans[0], b)
	if !slices.Equal(q1, q2) || !slices.Equal(d1, d2) {
		t.Error("the same random source drew different pairs")
	}
}

// TestNeighborAliases: the encoder reads neighbours by the SKB's alias
// fields (lemmas listing each synset's own name) unless told otherwise.
func TestNeighborAliases(t *testing.T) {
	s := &data.SKB{Schema: data.Schema{Format: data.FormatSKBDir, NodeTypes: []string{"w"}, TextFields: []string{"lemmas", "gloss"}}}
	for _, n := range [][3]string{{"dog", "dog; domestic dog", "a canine"}, {"canine", "canine; canid", "a carnivore"}, {"pup", "pup; whelp", "a young dog"}} {
		s.Nodes = append(s.Nodes, data.Node{Name: n[0], Fields: []string{n[1], n[2]}})
	}
	for _, c := range []struct {
		o    EncoderOptions
		want []string
	}{
		{EncoderOptions{Encoder: models.EncoderConfig{Neighbors: 8}}, []string{"lemmas"}},
		{EncoderOptions{Encoder: models.EncoderConfig{Neighbors: 8}, NamesOnly: true}, nil},
		{EncoderOptions{Encoder: models.EncoderConfig{Neighbors: 8, NeighborAliases: []string{"gloss"}}}, []string{"gloss"}},
		{EncoderOptions{Encoder: models.EncoderConfig{Neighbors: 0}}, nil},
	} {
		if got := neighborAliases(s, c.o); !slices.Equal(got, c.want) {
			t.Errorf("%+v: %q, want %q", c.o.Encoder, got, c.want)
		}
	}
}
