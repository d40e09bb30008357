package workspace

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/data/snapshot"
	"github.com/strata-retrieval/strata/data/synth"
)

func TestSaveLoad(t *testing.T) {
	res, err := synth.Generate(synth.Config{Preset: "amazon", Nodes: 2000, Queries: 100, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	plans := map[int]data.Plan{}
	for _, p := range res.Plans {
		plans[p.QID] = p.Plan
	}
	ws, err := Build(context.Background(), res.SKB, plans, Config{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	dir := t.TempDir()
	if err := ws.Save(dir); err != nil {
		t.Fatal(err)
	}
	// Saving is deterministic: a second save gives the same bytes.
	dir2 := t.TempDir()
	if err := ws.Save(dir2); err != nil {
		t.Fatal(err)
	}
	b1, _ := os.ReadFile(Path(dir))
	b2, _ := os.ReadFile(Path(dir2))
	if !bytes.Equal(b1, b2) {
		t.Error("two saves of one workspace differ")
	}
	got, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer got.Close()
	if d := cmp.Diff(ws.SKB, got.SKB, cmpopts.IgnoreUnexported(data.QA{}), cmpopts.EquateEmpty()); d != "" {
		t.Fatalf("SKB differs after load:\n%s", d)
	}
	if got.Fingerprint != ws.Fingerprint || Fingerprint(got.SKB) != ws.Fingerprint {
		t.Errorf("fingerprint %s / %s, want %s", got.Fingerprint, Fingerprint(got.SKB), ws.Fingerprint)
	}
	if !cmp.Equal(got.Plans, ws.Plans) {
		t.Error("plans differ")
	}
	for _, q := range res.SKB.QA.Queries[:20] {
		if a, b := ws.SearchDoc(q.Text, 10), got.SearchDoc(q.Text, 10); !cmp.Equal(a, b) {
			t.Fatalf("search differs for %q: %v vs %v", q.Text, a, b)
		}
		if a, b := ws.Fields["brand"].Search(q.Text, 5, nil), got.Fields["brand"].Search(q.Text, 5, nil); !cmp.Equal(a, b) {
			t.Fatalf("field search differs")
		}
	}
	for v := uint32(0); v < uint32(len(res.SKB.Nodes)); v += 97 {
		a1, r1 := ws.Graph.Neighbors(v)
		a2, r2 := got.Graph.Neighbors(v)
		if !cmp.Equal(a1, a2) || !cmp.Equal(r1, r2) || ws.Graph.Name(v) != got.Graph.Name(v) {
			t.Fatalf("node %d differs", v)
		}
	}
	for ty := range res.SKB.Schema.NodeTypes {
		if !cmp.Equal(ws.Graph.NodesOfType(data.TypeID(ty)), got.Graph.NodesOfType(data.TypeID(ty))) {
			t.Fatalf("type index %d differs after restore", ty)
		}
	}
	// Corrupt one byte in the middle: Load must fail with ErrCorrupt.
	path := Path(dir)
	b, _ := os.ReadFile(path)
	b[len(b)/2] ^= 0xff
	os.WriteFile(path, b, 0o644)
	if _, err := Load(dir); !errors.Is(err, snapshot.ErrCorrupt) {
		t.Errorf("corrupted snapshot: %v", err)
	}
	if _, err := Load(t.TempDir()); !errors.Is(err, ErrNoWorkspace) {
		t.Errorf("empty dir: %v", err)
	}
}

// longTextSKB is a small SKB whose node 1 has a 100 KB name and node 2 a
// 100 KB text field.
func longTextSKB() (*data.SKB, string) {
	long := strings.Repeat("lorem ipsum ", 8_400) // 100,800 bytes
	s := &data.SKB{Schema: data.Schema{Format: data.FormatSKBDir, Name: "long", NodeTypes: []string{"doc", "tag " + long},
		RelationTypes: []string{"has " + long}, CandidateTypes: []string{"doc"}, TextFields: []string{"body"}}}
	s.Nodes = []data.Node{
		{Type: 0, Name: "first", Fields: []string{"short body"}},
		{Type: 0, Name: "name " + long, Fields: []string{"x"}},
		{Type: 1, Name: "tag", Fields: []string{"body " + long}},
	}
	s.Edges.Add(0, 0, 2)
	s.Edges.Add(1, 0, 2)
	s.QA = &data.QA{Queries: []data.Query{{ID: 0, Text: "first", Answers: []uint32{0}}}, Splits: map[string][]int{"test": {0}}}
	return s, long
}

// A name, field, node type or relation of 64 KiB or more imports, is
// searchable, and survives the snapshot byte for byte.
func TestLongTextRoundTrip(t *testing.T) {
	s, long := longTextSKB()
	ws, err := Build(context.Background(), s, nil, Config{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	dir := t.TempDir()
	if err := ws.Save(dir); err != nil {
		t.Fatal(err)
	}
	got, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer got.Close()
	for _, w := range []*Workspace{ws, got} {
		if n := w.Graph.Name(1); n != "name "+long {
			t.Errorf("Name(1): %d bytes, want %d", len(n), len(long)+5)
		}
		if f := w.Graph.Field(2, 0); f != "body "+long {
			t.Errorf("Field(2, body): %d bytes, want %d", len(f), len(long)+5)
		}
		if w.SKB.Nodes[1].Name != "name "+long || w.SKB.Nodes[2].Fields[0] != "body "+long || w.SKB.Nodes[2].Type != 1 {
			t.Errorf("node table: %d-byte name, %d-byte field, type %d", len(w.SKB.Nodes[1].Name), len(w.SKB.Nodes[2].Fields[0]), w.SKB.Nodes[2].Type)
		}
		if tn := w.Graph.TypeName(2); tn != "tag "+long || w.Graph.TypeName(0) != "doc" {
			t.Errorf("TypeName(2): %d bytes, want %d", len(tn), len(long)+4)
		}
		if n, ids := w.Graph.CountOfType(1), w.Graph.NodesOfType(1); n != 1 || len(ids) != 1 || ids[0] != 2 {
			t.Errorf("nodes of the long type: count %d, ids %v", n, ids)
		}
		if hits := w.SearchDoc("lorem", 1); len(hits) != 1 || hits[0].ID != 1 {
			t.Errorf("search for the long name: %v", hits)
		}
	}
}

// Two imports of the same SKB give the same snapshot bytes (the attribute
// store's own snapshot used to carry time-based commit ids: 16 bytes of
// graph.attrs differed).
func TestSnapshotReproducible(t *testing.T) {
	res, err := synth.Generate(synth.Config{Preset: "prime", Nodes: 40000, Queries: 50, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	var snaps [][]byte
	for range 2 {
		ws, err := Build(context.Background(), res.SKB, nil, Config{}, nil)
		if err != nil {
			t.Fatal(err)
		}
		dir := t.TempDir()
		if err := ws.Save(dir); err != nil {
			t.Fatal(err)
		}
		ws.Close()
		b, err := os.ReadFile(Path(dir))
		if err != nil {
			t.Fatal(err)
		}
		snaps = append(snaps, b)
	}
	if !bytes.Equal(snaps[0], snaps[1]) {
		r0, _ := snapshot.Parse("a", snaps[0])
		r1, _ := snapshot.Parse("b", snaps[1])
		for _, name := range r0.Sections() {
			b0, _ := r0.Bytes(name)
			b1, _ := r1.Bytes(name)
			if !bytes.Equal(b0, b1) {
				t.Errorf("section %s differs between two builds", name)
			}
		}
		t.Fatal("two builds of the same SKB give different snapshots")
	}
}

// An import killed while writing the snapshot leaves
// ".workspace.snap.tmp-*"; the next save into that directory removes it.
func TestSaveRemovesStaleSnapshotTemp(t *testing.T) {
	s, _ := longTextSKB()
	ws, err := Build(context.Background(), s, nil, Config{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	dir := t.TempDir()
	for _, n := range []string{".workspace.snap.tmp-2718", "keep.txt"} {
		os.WriteFile(filepath.Join(dir, n), []byte("partial"), 0o644)
	}
	if err := ws.Save(dir); err != nil {
		t.Fatal(err)
	}
	var got []string
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		got = append(got, e.Name())
	}
	if !cmp.Equal(got, []string{"keep.txt", SnapshotFile}) {
		t.Errorf("workspace dir holds %q", got)
	}
}

// TestLoadRefusesUnsafeSplitNames: a workspace whose question set names a
// split that would leave an export directory (written by an older strata)
// is refused on load, naming the snapshot and the split.
func TestLoadRefusesUnsafeSplitNames(t *testing.T) {
	res, err := synth.Generate(synth.Config{Preset: "amazon", Nodes: 300, Queries: 20, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	res.SKB.QA.Splits["../../ESC"] = []int{res.SKB.QA.Queries[0].ID}
	ws, err := Build(context.Background(), res.SKB, nil, Config{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	dir := t.TempDir()
	if err := ws.Save(dir); err != nil {
		t.Fatal(err)
	}
	_, err = Load(dir)
	if want := Path(dir) + `: qa: split name "../../ESC": malformed value: path component ".."`; err == nil || err.Error() != want {
		t.Errorf("Load: %v\nwant %s", err, want)
	}
}

// PlanRecords lists the plans by query id, with the query's text and
// answers where the QA has the query.
func TestPlanRecords(t *testing.T) {
	s, _ := longTextSKB()
	ws, err := Build(context.Background(), s, nil, Config{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	a := data.Plan{Paths: data.MustPaths([][]string{{"doc"}}...)}
	b := data.Plan{Paths: data.MustPaths([][]string{{"tag", "has", "doc"}}...)}
	ws.Plans = map[int]data.Plan{7: a, 0: b}
	recs := ws.PlanRecords()
	if len(recs) != 2 || recs[0].QID != 0 || recs[1].QID != 7 {
		t.Fatalf("records %+v, want q_ids 0 and 7 in order", recs)
	}
	if recs[0].Query != "first" || !slices.Equal(recs[0].AnswerIDs, []uint32{0}) || len(recs[0].Plan.MetapathTokens()[0]) != 3 {
		t.Errorf("record 0: %+v", recs[0])
	}
	if recs[1].Query != "" || recs[1].AnswerIDs != nil || recs[1].Plan.MetapathTokens()[0][0] != "doc" {
		t.Errorf("record 7 (no such query): %+v", recs[1])
	}
}

// TestWideIDsRoundTrip saves and loads a KB with 70,000 relation types and
// 300 node types: every edge keeps its relation, the graph its entries,
// and the fingerprint survives the round trip. A KB within one-byte ids
// keeps the fingerprint it had before wide ids (the value strata printed
// for this generated SKB then), so models made for it stay valid.
func TestWideIDsRoundTrip(t *testing.T) {
	res, err := synth.Generate(synth.Config{Preset: "mag", Nodes: 1500, Queries: 50, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	if fp := Fingerprint(res.SKB); fp != "sha256:2c9cf9c22599bfc9675fe301f897b5444c4673e0509777a82479be8fb882a798" {
		t.Errorf("fingerprint of a one-byte-id SKB changed: %s", fp)
	}

	var b strings.Builder
	for i := range 90_000 {
		fmt.Fprintf(&b, "e%d\tr%d\te%d\n", i%3000, (i*7)%70_000, (i*13+5)%3000)
	}
	skb, err := data.ParseTriples(strings.NewReader(b.String()), "wide.tsv", 0)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 300 {
		skb.Schema.NodeTypes = append(skb.Schema.NodeTypes, fmt.Sprintf("kind%d", i))
	}
	for i := range skb.Nodes {
		skb.Nodes[i].Type = data.TypeID(i % 301)
	}
	ws, err := Build(context.Background(), skb, nil, Config{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	dir := t.TempDir()
	if err := ws.Save(dir); err != nil {
		t.Fatal(err)
	}
	got, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer got.Close()
	if !slices.Equal(got.SKB.Edges.Rel.IDs(), skb.Edges.Rel.IDs()) || got.SKB.Edges.Rel.Hi == nil {
		t.Fatal("edge relations differ after load")
	}
	for i := range skb.Nodes {
		if got.SKB.Nodes[i].Type != skb.Nodes[i].Type {
			t.Fatalf("node %d: type %d, want %d", i, got.SKB.Nodes[i].Type, skb.Nodes[i].Type)
		}
	}
	if got.Fingerprint != ws.Fingerprint || Fingerprint(got.SKB) != ws.Fingerprint {
		t.Errorf("fingerprint %s / %s, want %s", got.Fingerprint, Fingerprint(got.SKB), ws.Fingerprint)
	}
	for v := uint32(0); v < 3000; v += 7 {
		a1, r1 := ws.Graph.Neighbors(v)
		a2, r2 := got.Graph.Neighbors(v)
		if !slices.Equal(a1, a2) || !slices.Equal(r1.IDs(), r2.IDs()) {
			t.Fatalf("node %d differs", v)
		}
	}
	// Edge 12,345's relation is r(12,345·7 mod 70,000) = r16415.
	r, _ := got.SKB.Schema.RelationID("r16415")
	if got.SKB.Schema.RelationTypes[got.SKB.Edges.Rel.At(12_345)] != "r16415" || got.SKB.Edges.Rel.At(12_345) != r || r < 256 {
		t.Errorf("edge 12,345: relation id %d (%s)", got.SKB.Edges.Rel.At(12_345), got.SKB.Schema.RelationTypes[got.SKB.Edges.Rel.At(12_345)])
	}
}

// TestTextScorerPhrases: a restriction's adjacent terms that a document
// says one after the other add their idf (bm25s lucene: ln(1 + (N - df +
// 0.5)/(df + 0.5)), N = 3) to its BM25. "brightest asteroid, fourth
// discovered" gives the phrases (brightest asteroid), (asteroid fourth),
// (fourth discovered); Vesta says all three ("but", "the", "to", "be" are
// stop words): (0.98083 + 0.13353) + (0.13353 + 0.98083) + (0.98083 +
// 0.47000) = 3.67956. Chiron says "asteroid discovered", not a phrase of
// the restriction; Pallas none.
func TestTextScorerPhrases(t *testing.T) {
	s := &data.SKB{Schema: data.Schema{Format: data.FormatSKBDir, Name: "phrases", NodeTypes: []string{"object"},
		RelationTypes: []string{"near"}, TextFields: []string{"definition"}}}
	s.Nodes = []data.Node{
		{Name: "Vesta", Fields: []string{"the brightest asteroid but the fourth to be discovered"}},
		{Name: "Chiron", Fields: []string{"an asteroid discovered in 1977"}},
		{Name: "Pallas", Fields: []string{"a large asteroid"}},
	}
	ws, err := Build(context.Background(), s, nil, Config{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Graph.Close()
	text := "brightest asteroid, fourth discovered zzz"
	if got := Phrases(ws.Doc, text); len(got) != 3 || got[0].A != "brightest" || got[2].B != "discovered" {
		t.Fatalf("Phrases: %v", got)
	}
	score := ws.TextScorer(text)
	for v, want := range []float64{3.679556, 0, 0} {
		d, _ := ws.DocOf(uint32(v))
		if got := float64(score(uint32(v)) - ws.Doc.Score(text, d)); math.Abs(got-want) > 1e-4 {
			t.Errorf("node %d: phrase bonus %.6f, want %.6f", v, got, want)
		}
	}
	if ws.TextScorer("fourth discovered")(0) <= ws.TextScorer("discovered fourth")(0) {
		t.Error("the words in the document's order should score above the reverse order")
	}
}

// TestMemo: a key is built once and kept; a build that panics is an
// error, kept too; another key builds apart.
func TestMemo(t *testing.T) {
	ws := &Workspace{}
	n := 0
	build := func() (any, error) { n++; return n, nil }
	for range 3 {
		if v, err := ws.Memo("a", build); err != nil || v != 1 {
			t.Fatalf("a: %v %v, want 1", v, err)
		}
	}
	if v, err := ws.Memo("b", build); err != nil || v != 2 {
		t.Fatalf("b: %v %v, want 2", v, err)
	}
	for range 2 {
		if v, err := ws.Memo("p", func() (any, error) { panic("boom") }); err == nil || v != nil || !strings.Contains(err.Error(), "building p: boom") {
			t.Fatalf("panicking build: %v %v", v, err)
		}
	}
}
