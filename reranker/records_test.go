package reranker

import (
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/graphops"
	"github.com/strata-retrieval/strata/reranker/bpe"
)

func recSKB(t *testing.T) (*data.SKB, *graphops.Graph) {
	s := &data.SKB{Schema: data.Schema{Format: data.FormatSKBDir, NodeTypes: []string{"product", "brand"},
		RelationTypes: []string{"also_buy", "has_brand"}, TextFields: []string{"title", "description"}}}
	s.Nodes = []data.Node{
		{Type: 0, Name: "Red Kettle", Fields: []string{"Red Kettle 1L", "a b c d e f"}},
		{Type: 0, Name: "Blue Mug", Fields: []string{"Blue Mug", ""}},
		{Type: 1, Name: "Acme", Fields: []string{"", ""}},
		{Type: 0, Name: "Green Pot", Fields: []string{"Green Pot", "pot"}},
	}
	s.Edges.Add(0, 0, 1) // kettle also_buy mug
	s.Edges.Add(3, 0, 0) // pot also_buy kettle (incoming)
	s.Edges.Add(0, 1, 2) // kettle has_brand Acme
	g, err := graphops.Build(s)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { g.Close() })
	return s, g
}

// TestSerialize pins appendix B.6's template on a hand-made SKB: type and
// name lines, fields cut to 4 words, neighbours of both directions grouped
// by relation.
func TestSerialize(t *testing.T) {
	s, g := recSKB(t)
	got := Serialize(s, g, 0, SerializeConfig{MaxFieldTokens: 4})
	want := "[Type] product\n[name] Red Kettle\n[title] Red Kettle 1L\n[description] a b c d\n[also_buy] Blue Mug; Green Pot\n[has_brand] Acme"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if got := Serialize(s, g, 0, SerializeConfig{MaxNeighbours: 1}); got != "[Type] product\n[name] Red Kettle\n[title] Red Kettle 1L\n[description] a b c d e f\n[also_buy] Blue Mug\n[has_brand] Acme" {
		t.Errorf("capped: %q", got)
	}
}

// TestSerializeModelTokens: with the Qwen3 tokenizer a field keeps its
// first n model tokens, decoded back to text.
func TestSerializeModelTokens(t *testing.T) {
	p, ok := bpe.Qwen3Path()
	if !ok {
		t.Skip("Qwen3 tokenizer.json absent: run make test")
	}
	tok, err := bpe.Load(p)
	if err != nil {
		t.Fatal(err)
	}
	s, g := recSKB(t)
	s.Nodes[0].Fields[1] = "unbelievably durable kettles boil water"
	ids, _ := tok.Encode(s.Nodes[0].Fields[1])
	if len(ids) <= 3 {
		t.Fatalf("%d tokens: the case does not bite", len(ids))
	}
	want := tok.Decode(ids[:3])
	got := Serialize(s, g, 0, SerializeConfig{MaxFieldTokens: 3, Tokenizer: tok})
	if !strings.Contains(got, "\n[description] "+want+"\n") || strings.Contains(got, "water") {
		t.Errorf("got\n%s\nwant the description cut to %q", got, want)
	}
}

func TestRecordAndCollate(t *testing.T) {
	s, g := recSKB(t)
	q := data.Query{ID: 7, Text: "kettle", Answers: []uint32{3, 0}}
	rec := NewRecord(s, g, q, []uint32{1, 0, 2}, 100, 30, SerializeConfig{})
	if len(rec.Positives) != 2 || rec.Positives[0].ID != 3 || rec.Positives[0].Rank != 0 || rec.Positives[1].Rank != 2 {
		t.Errorf("positives %+v", rec.Positives)
	}
	if len(rec.Negatives) != 2 || rec.Negatives[0].ID != 1 || rec.Negatives[1].ID != 2 || rec.Negatives[1].Rank != 3 {
		t.Errorf("negatives %+v", rec.Negatives)
	}
	r := rand.New(rand.NewPCG(1, 1))
	seen := map[int]bool{}
	for range 50 {
		gr, ok := Collate(&rec, 24, r)
		if !ok || len(gr.Docs) != 24 {
			t.Fatal("no group")
		}
		pos := gr.Docs[gr.Positive].ID
		if pos != 3 && pos != 0 {
			t.Fatalf("positive %d", pos)
		}
		n := 0
		for i, d := range gr.Docs {
			if i != gr.Positive && (d.ID == 3 || d.ID == 0) {
				t.Fatal("a positive among the negatives")
			}
			if i != gr.Positive {
				n++
			}
		}
		seen[gr.Positive] = true
	}
	if len(seen) < 10 {
		t.Errorf("the positive's position is not shuffled: %v", seen)
	}
}

func TestReadRecordsErrors(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "r.jsonl")
	os.WriteFile(p, []byte(`{"q_id": 1, "query": "q", "pool": [1], "positives": [], "negatives": []}`+"\n\n"+`{"q_id": 2, "pool": "x"}`+"\n"), 0o644)
	_, err := ReadRecords(p)
	var pe *data.ParseError
	if !errors.As(err, &pe) || pe.File != p || pe.Line != 3 || pe.Field != "pool" {
		t.Errorf("bad record: %v", err)
	}
	if _, err := ReadRecords(filepath.Join(dir, "none.jsonl")); !errors.Is(err, data.ErrMissingFile) {
		t.Errorf("missing file: %v", err)
	}
	os.WriteFile(p, []byte(`{"q_id": 1, "query": "q"}`+"\n"), 0o644)
	if recs, err := ReadRecords(p); err != nil || len(recs) != 1 || recs[0].Query != "q" {
		t.Errorf("%v %v", recs, err)
	}
}
