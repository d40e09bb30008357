package simgrag

import (
	"context"
	"errors"
	"math"
	"testing"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/data/index"
	"github.com/strata-retrieval/strata/graphops/workspace"
	"github.com/strata-retrieval/strata/infer"
	"github.com/strata-retrieval/strata/internal/testws"
)

// cities: Paris's document says London three times; London's once.
func cities(t *testing.T) (*workspace.Workspace, *infer.TextSpace) {
	skb := &data.SKB{Schema: data.Schema{Format: data.FormatSKBDir, NodeTypes: []string{"city", "country"}, RelationTypes: []string{"capital_of", "twinned_with"},
		CandidateTypes: []string{"city", "country"}, TextFields: []string{"details"}}}
	skb.Nodes = []data.Node{
		{Type: 0, Name: "Paris", Fields: []string{"capital london london london"}},
		{Type: 0, Name: "London", Fields: []string{"city on the thames"}},
		{Type: 1, Name: "France", Fields: []string{""}},
		{Type: 1, Name: "England", Fields: []string{""}},
	}
	skb.Edges.Add(0, 0, 2)
	skb.Edges.Add(1, 0, 3)
	skb.Edges.Add(0, 1, 1)
	ws, err := workspace.Build(context.Background(), skb, nil, workspace.Config{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	docs := index.NewMatrix(len(skb.Nodes), 64)
	for v := range skb.Nodes {
		x, _ := testws.BagEncoder{}.EncodeTexts([]string{skb.Document(uint32(v))})
		copy(docs.Row(v), x)
	}
	return ws, infer.NewTextSpace("bag", testws.BagEncoder{}, docs, skb)
}

func TestDefaults(t *testing.T) {
	if c := (Config{}).WithDefaults(); c.K != 100 || c.KNodes != 16 || c.KRels != 16 || c.NodeVectors != NodeNames {
		t.Errorf("defaults %+v, want k=100, SimGRAG's k(n)=k(r)=16 and name vectors", c)
	}
}

// TestNameVectors: the mention "London" is matched against node names
// (SimGRAG embeds entities): London at L2 distance 0 comes first. Against
// documents Paris does: its document "Paris\ndetails: capital london london
// london" has cosine 3/√12 = 0.866 with "london" (London's "London\ndetails:
// city on the thames" 1/√6 = 0.408), L2 √(2 − 2·0.866) = 0.518.
func TestNameVectors(t *testing.T) {
	ws, space := cities(t)
	p, err := data.ParsePattern([][3]string{{"London", "capital_of", "UNKNOWN country 1"}}, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		vectors string
		first   uint32
		dist    float64
	}{{NodeNames, 1, 0}, {NodeDocs, 0, math.Sqrt(2 - 2*3/math.Sqrt(12))}} {
		s, err := New(ws, space, Config{NodeVectors: c.vectors})
		if err != nil {
			t.Fatal(err)
		}
		mp, err := s.Match(context.Background(), p)
		if err != nil {
			t.Fatal(err)
		}
		got := mp.Nodes[0].Cands[0]
		if got.ID != c.first || math.Abs(float64(got.Dist)-c.dist) > 1e-5 {
			t.Errorf("%s vectors: first candidate %d at %.4f, want %d at %.4f", c.vectors, got.ID, got.Dist, c.first, c.dist)
		}
	}
}

// TestUnknownRelation: SimGRAG's "UNKNOWN relation 1" matches every
// relation at distance 0 (section 5.1); a named relation gets its k(r)
// nearest relation names.
func TestUnknownRelation(t *testing.T) {
	ws, space := cities(t)
	s, err := New(ws, space, Config{KRels: 1})
	if err != nil {
		t.Fatal(err)
	}
	p, err := data.ParsePattern([][3]string{{"Paris", "UNKNOWN relation 1", "UNKNOWN city 1"}, {"Paris", "capital of", "UNKNOWN country 1"}}, "UNKNOWN city 1")
	if err != nil {
		t.Fatal(err)
	}
	mp, err := s.Match(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	if r := mp.Edges[0].Rels; len(r) != 2 || r[0].Dist != 0 || r[1].Dist != 0 {
		t.Errorf("unknown relation: candidates %+v, want both relations at 0", r)
	}
	if r := mp.Edges[1].Rels; len(r) != 1 || r[0].Rel != 0 || r[0].Dist > 1e-6 {
		t.Errorf("\"capital of\": candidates %+v, want capital_of at 0", r)
	}
	res, err := s.Retrieve(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Hits) == 0 || res.Hits[0].ID != 1 {
		t.Errorf("Paris ? UNKNOWN city: %v, want London (twinned_with)", res.Hits)
	}
}

// TestNoEncoder: a space of imported vectors serves linked nodes and
// schema relations; a mention to embed is an error that says why.
func TestNoEncoder(t *testing.T) {
	ws, space := cities(t)
	bare := infer.NewTextSpace("imported", nil, space.Docs, ws.SKB)
	s, err := New(ws, bare, Config{})
	if err != nil {
		t.Fatal(err)
	}
	p, _ := data.ParsePattern([][3]string{{"Paris", "capital_of", "UNKNOWN country 1"}}, "")
	if _, err := s.Match(context.Background(), p); !errors.Is(err, infer.ErrNoEncoder) {
		t.Errorf("mention by text: %v", err)
	}
	p.Nodes[0].Nodes = []uint32{0}
	res, err := s.Retrieve(context.Background(), p)
	if err != nil || len(res.Hits) != 1 || res.Hits[0].ID != 2 {
		t.Errorf("linked Paris: %v %v, want France", res, err)
	}
}
