package mfar

import (
	"context"
	"encoding/json"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/graphops/workspace"
	"github.com/strata-retrieval/strata/infer"
	"github.com/strata-retrieval/strata/infer/infertest"
	"github.com/strata-retrieval/strata/internal/testskb"
	"github.com/strata-retrieval/strata/internal/testws"
	"github.com/strata-retrieval/strata/models"
)

func TestMFARFieldsAndScores(t *testing.T) {
	ws := testws.Preset(t, "amazon", 600, 30)
	fs := Fields(&ws.SKB.Schema)
	var names []string
	for _, f := range fs {
		names = append(names, f.Kind+":"+f.Name)
	}
	want := "doc:doc reading:doc+neighbours text:title text:brand text:description text:feature text:review relation:also_buy relation:also_view relation:has_brand relation:has_category relation:has_color"
	if strings.Join(names, " ") != want {
		t.Fatalf("fields %v", names)
	}
	d := infertest.LexicalDense(t, ws)
	enc, _ := infer.DenseTextEncoder(d)
	cfg := DefaultConfig(&ws.SKB.Schema, enc.Dim())
	fw, _ := models.NewFieldWeights(cfg.Weights)
	m, err := New(context.Background(), ws, enc, cfg, fw)
	if err != nil {
		t.Fatal(err)
	}
	// A relation field lists the neighbours' names.
	v := ws.Candidates[3]
	r, _ := ws.SKB.Schema.RelationID("has_brand")
	var wantNames []string
	for _, u := range ws.Graph.NeighborsByRel(v, r) {
		wantNames = append(wantNames, ws.SKB.Nodes[u].Name)
	}
	if got := m.FieldText(fs[9], v); got != strings.Join(wantNames, "; ") {
		t.Errorf("has_brand field %q, want %q", got, strings.Join(wantNames, "; "))
	}
	q := ws.SKB.QA.Queries[0]
	qv, _ := m.QueryVector(q.Text)
	hits, err := m.Rank(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) == 0 || len(hits) > 100 {
		t.Fatalf("%d hits", len(hits))
	}
	for _, h := range hits[:5] {
		i, _ := slices.BinarySearch(ws.Candidates, h.ID)
		s := m.PairScores(nil, m.QueryTokens(q.Text), qv, i)
		// Per pair: BM25 of the field's own index, and the dot product of
		// the field vector with the query over the temperature.
		docText := ws.SKB.Document(h.ID)
		if docText != m.FieldText(fs[0], h.ID) {
			t.Fatal("doc field is not the document")
		}
		want := float32(0)
		for _, x := range s {
			want += x / float32(len(s)) // uniform initial weights
		}
		if math.Abs(float64(h.Score-want)) > 1e-4*math.Max(1, math.Abs(float64(want))) {
			t.Errorf("node %d: score %v, mean of pair scores %v", h.ID, h.Score, want)
		}
		var dot float32
		dv := make([]float32, enc.Dim())
		vec, _ := enc.EncodeTexts([]string{docText})
		copy(dv, vec)
		for j := range dv {
			dot += dv[j] * qv[j]
		}
		if math.Abs(float64(s[1]-dot/0.05)) > 1e-3 {
			t.Errorf("node %d: doc/dense %v, want %v", h.ID, s[1], dot/0.05)
		}
	}
	w, _ := m.Weights(q.Text)
	if len(w) != 24 || math.Abs(float64(w[0].Weight)-1.0/24) > 1e-6 {
		t.Errorf("initial weights %v", w[:2])
	}
}

// TestMFARNameField: a schema listing "name" among its text fields gives
// mFAR a name field holding the node names (it was empty).
func TestMFARNameField(t *testing.T) {
	skb := &data.SKB{Schema: data.Schema{Format: data.FormatSKBDir, NodeTypes: []string{"synset"}, RelationTypes: []string{"hypernym"},
		CandidateTypes: []string{"synset"}, TextFields: []string{"name", "definition"}}}
	skb.Nodes = []data.Node{{Name: "dog", Fields: []string{"", "a domestic canine"}}, {Name: "canine", Fields: []string{"", "a carnivore"}}}
	skb.Edges.Add(0, 0, 1)
	ws, err := workspace.Build(context.Background(), skb, nil, workspace.Config{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	fs := Fields(&skb.Schema)
	m := &Method{ws: ws}
	if fs[2] != (Field{Name: "name", Kind: "text"}) || m.FieldText(fs[2], 0) != "dog" || m.FieldText(fs[2], 1) != "canine" || m.FieldText(fs[3], 0) != "a domestic canine" {
		t.Errorf("fields %v: name %q %q", fs, m.FieldText(fs[2], 0), m.FieldText(fs[2], 1))
	}
}

// TestRankBatchEqualsRank: the batched path (one dense search per field for
// all queries, the GEMM on all cores) returns exactly Rank's ranking for
// every query, scores included, with non-uniform weights.
func TestRankBatchEqualsRank(t *testing.T) {
	ws := testws.Preset(t, "amazon", 600, 30)
	d := infertest.LexicalDense(t, ws)
	enc, _ := infer.DenseTextEncoder(d)
	cfg := DefaultConfig(&ws.SKB.Schema, enc.Dim())
	fw, _ := models.NewFieldWeights(cfg.Weights)
	for i, p := range fw.W.Data() {
		fw.W.Data()[i] = p + float32(math.Sin(float64(i)))
	}
	m, err := New(context.Background(), ws, enc, cfg, fw)
	if err != nil {
		t.Fatal(err)
	}
	qs := ws.SKB.QA.Queries
	got, err := m.RankBatch(context.Background(), qs)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(qs) {
		t.Fatalf("%d rankings for %d queries", len(got), len(qs))
	}
	for i, q := range qs {
		want, err := m.Rank(context.Background(), q)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(want, got[i]) {
			t.Fatalf("query %d: batched ranking differs from Rank's", q.ID)
		}
	}
}

// zeroEncoder is a TextEncoder giving every text the zero vector.
type zeroEncoder struct{}

func (zeroEncoder) EncodeTexts(texts []string) ([]float32, error) {
	return make([]float32, 2*len(texts)), nil
}
func (zeroEncoder) Dim() int { return 2 }

// lemmaWorkspace is three synsets with lemmas (an alias field) and a
// definition: dog and wolf, each a kind of canine; wolf has no lemmas.
func lemmaWorkspace(t *testing.T) (*data.SKB, *workspace.Workspace) {
	skb := &data.SKB{Schema: data.Schema{Format: data.FormatSKBDir, NodeTypes: []string{"synset"}, RelationTypes: []string{"hypernym"},
		CandidateTypes: []string{"synset"}, TextFields: []string{"lemmas", "definition"}}}
	skb.Nodes = []data.Node{
		{Name: "dog", Fields: []string{"dog; domestic dog; Canis familiaris", "a domesticated canine"}},
		{Name: "canine", Fields: []string{"canine; canid", "a carnivore"}},
		{Name: "wolf", Fields: []string{"", "a wild carnivore"}},
	}
	skb.Edges.Add(0, 0, 1)
	skb.Edges.Add(2, 0, 1)
	return skb, testskb.Workspace(t, skb)
}

// TestMFARAliasesAndStems: with alias fields a relation field names each
// neighbour by its other names (WordNet's lemmas), both directions; with
// bm25-stem every field's BM25 reads stems ("dogs" finds "dog"), with
// bm25 it does not; an alias field the schema lacks is an error.
func TestMFARAliasesAndStems(t *testing.T) {
	skb, ws := lemmaWorkspace(t)
	build := func(lexical string, aliases []string) (*Method, error) {
		cfg := DefaultConfig(&skb.Schema, 2)
		cfg.SetLexical(lexical)
		cfg.Aliases = aliases
		fw, err := models.NewFieldWeights(cfg.Weights)
		if err != nil {
			t.Fatal(err)
		}
		return New(context.Background(), ws, zeroEncoder{}, cfg, fw)
	}
	m, err := build(LexicalBM25Stem, []string{"lemmas"})
	if err != nil {
		t.Fatal(err)
	}
	rel := len(m.Cfg.Fields) - 1 // hypernym
	if m.Cfg.Fields[rel].Name != "hypernym" || m.Cfg.Weights.Pairs[0] != "doc/bm25-stem" || m.Cfg.Weights.Pairs[1] != "doc/dense" {
		t.Fatalf("fields %v pairs %v", m.Cfg.Fields, m.Cfg.Weights.Pairs)
	}
	for v, want := range []string{"canine; canid", "dog; domestic dog; Canis familiaris; wolf", "canine; canid"} {
		if got := m.FieldText(m.Cfg.Fields[rel], uint32(v)); got != want {
			t.Errorf("node %d: hypernym field %q, want %q", v, got, want)
		}
	}
	// Stemmed, "canids" is canine's "canid" in dog's hypernym field and
	// "domesticated dogs" dog's own words.
	if m.Lexical(rel, "canids", 0) <= 0 || m.Lexical(0, "domesticated dogs", 0) <= 0 || m.Lexical(0, "dogs", 1) != 0 {
		t.Errorf("stemmed: hypernym canids %v, doc dogs %v / %v", m.Lexical(rel, "canids", 0), m.Lexical(0, "domesticated dogs", 0), m.Lexical(0, "dogs", 1))
	}
	plain, err := build(LexicalBM25, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := plain.FieldText(plain.Cfg.Fields[rel], 1); got != "dog; wolf" {
		t.Errorf("names only: hypernym field %q", got)
	}
	// The reading field: the document and its own edges' neighbours (dog's
	// hypernym; canine has none of its own), by their other names when
	// there are aliases.
	if f := m.Cfg.Fields[1]; f.Kind != "reading" || m.FieldText(f, 0) != skb.Document(0)+"\nrelated: canine; canid" ||
		m.FieldText(f, 1) != skb.Document(1) || plain.FieldText(f, 0) != skb.Document(0)+"\nrelated: canine" {
		t.Errorf("reading field %v: %q, %q, names only %q", f, m.FieldText(f, 0), m.FieldText(f, 1), plain.FieldText(f, 0))
	}
	if plain.Lexical(rel, "canids", 0) != 0 || plain.Lexical(0, "dogs", 0) != 0 || plain.Lexical(0, "dog", 0) <= 0 || plain.Cfg.Weights.Pairs[0] != "doc/bm25" {
		t.Errorf("unstemmed: canids %v, dogs %v, dog %v, pairs %v", plain.Lexical(rel, "canids", 0), plain.Lexical(0, "dogs", 0), plain.Lexical(0, "dog", 0), plain.Cfg.Weights.Pairs[:2])
	}
	if _, err := build(LexicalBM25Stem, []string{"aliases"}); err == nil || !strings.Contains(err.Error(), "aliases") {
		t.Errorf("unknown alias field: %v", err)
	}
	if _, err := build("bm26", nil); err == nil || !strings.Contains(err.Error(), "bm26") {
		t.Errorf("unknown lexical scorer: %v", err)
	}
}

// TestMFAROldConfig: a checkpoint config written before stems, aliases and
// the reading field (no lexical, alias_fields or reading field) loads as
// it was trained: words as they are, neighbours by name, pairs "doc/bm25".
func TestMFAROldConfig(t *testing.T) {
	_, ws := lemmaWorkspace(t)
	old := `{"fields":[{"name":"doc","kind":"doc"},{"name":"lemmas","kind":"text"},{"name":"definition","kind":"text"},{"name":"hypernym","kind":"relation"}],
	"weights":{"query_dim":2,"pairs":["doc/bm25","doc/dense","lemmas/bm25","lemmas/dense","definition/bm25","definition/dense","hypernym/bm25","hypernym/dense"]},
	"temperature":0.05,"max_neighbours":50,"k":100}`
	var cfg Config
	if err := json.Unmarshal([]byte(old), &cfg); err != nil {
		t.Fatal(err)
	}
	fw, err := models.NewFieldWeights(cfg.Weights)
	if err != nil {
		t.Fatal(err)
	}
	m, err := New(context.Background(), ws, zeroEncoder{}, cfg, fw)
	if err != nil {
		t.Fatal(err)
	}
	if got := m.FieldText(cfg.Fields[3], 0); got != "canine" {
		t.Errorf("hypernym field %q, want the name alone", got)
	}
	if m.Lexical(0, "dogs", 0) != 0 || m.Lexical(0, "dog", 0) <= 0 {
		t.Errorf("doc field: dogs %v, dog %v; want unstemmed", m.Lexical(0, "dogs", 0), m.Lexical(0, "dog", 0))
	}
	// A config whose pairs are not two per field, or with a field kind
	// FieldText does not read, is refused rather than misread.
	bad := cfg
	bad.Weights.Pairs = bad.Weights.Pairs[:6]
	if _, err := New(context.Background(), ws, zeroEncoder{}, bad, fw); err == nil || !strings.Contains(err.Error(), "6 weight pairs") {
		t.Errorf("6 pairs for 4 fields: %v", err)
	}
	bad = cfg
	bad.Fields = append(slices.Clone(cfg.Fields[:3]), Field{Name: "hypernym", Kind: "edge"})
	if _, err := New(context.Background(), ws, zeroEncoder{}, bad, fw); err == nil || !strings.Contains(err.Error(), `"edge"`) {
		t.Errorf("field kind edge: %v", err)
	}
}

// TestMFARConfigOptions: DropReadingField and SetLexical give mFAR's own
// fields and pair names, in new slices (the config copied from keeps its
// own).
func TestMFARConfigOptions(t *testing.T) {
	s := &data.Schema{TextFields: []string{"definition"}, RelationTypes: []string{"hypernym"}}
	c := DefaultConfig(s, 4)
	if got := strings.Join(c.Weights.Pairs, " "); got != "doc/bm25-stem doc/dense doc+neighbours/bm25-stem doc+neighbours/dense definition/bm25-stem definition/dense hypernym/bm25-stem hypernym/dense" ||
		c.ReadingNeighbours != infer.ReadingNeighbors {
		t.Fatalf("default pairs %q, reading neighbours %d", got, c.ReadingNeighbours)
	}
	mf := c
	mf.SetLexical(LexicalBM25)
	mf.DropReadingField()
	if got := strings.Join(mf.Weights.Pairs, " "); got != "doc/bm25 doc/dense definition/bm25 definition/dense hypernym/bm25 hypernym/dense" || len(mf.Fields) != 3 || mf.ReadingNeighbours != 0 {
		t.Errorf("mFAR's pairs %q, fields %v", got, mf.Fields)
	}
	if c.Weights.Pairs[0] != "doc/bm25-stem" || len(c.Fields) != 4 || c.Fields[1].Kind != "reading" {
		t.Errorf("the copied-from config changed: %q %v", c.Weights.Pairs[:2], c.Fields)
	}
	if ValidLexical("bm25") != nil || ValidLexical("") != nil || ValidLexical("BM25") == nil {
		t.Error("ValidLexical")
	}
}
