package infer

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/data/index"
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

// TestBothWaysAliasLine: a node's edges out first, then the places left
// to nodes whose edges point to it, each once, at most neighbors.
func TestBothWaysAliasLine(t *testing.T) {
	s := &data.SKB{Schema: data.Schema{NodeTypes: []string{"t"}, RelationTypes: []string{"r"}, TextFields: []string{"name", "lemmas"}}}
	for _, n := range [][2]string{{"wasp", "wasp"}, {"insect", "insect; bug"}, {"hornet", ""}, {"waspish", "waspish; bristly"}, {"yellowjacket", ""}} {
		s.Nodes = append(s.Nodes, data.Node{Name: n[0], Fields: []string{"", n[1]}})
	}
	s.Edges.Add(2, 0, 0) // hornet -> wasp
	s.Edges.Add(0, 0, 1) // wasp -> insect
	s.Edges.Add(3, 0, 0) // waspish -> wasp
	s.Edges.Add(1, 0, 0) // insect -> wasp: already out
	s.Edges.Add(4, 0, 0) // yellowjacket -> wasp
	s.Edges.Add(0, 0, 0) // a loop: never
	s.Edges.Add(0, 0, 1) // wasp -> insect again: once
	for _, c := range []struct {
		n    int
		want string
	}{
		{8, "\nrelated: insect; bug; hornet; waspish; bristly; yellowjacket"},
		{3, "\nrelated: insect; bug; hornet; waspish; bristly"},
		{1, "\nrelated: insect; bug"},
		{0, ""},
	} {
		if got := BothWaysAliasLine(s, c.n, []string{"lemmas"})(0); got != c.want {
			t.Errorf("%d neighbours: %q, want %q", c.n, got, c.want)
		}
	}
	if got, want := BothWaysAliasLine(s, 8, []string{"lemmas"})(2), "\nrelated: wasp"; got != want {
		t.Errorf("hornet: %q, want %q", got, want)
	}
	// Edges out alone, every edge as it comes (the encoder's and mFAR's
	// line, as their checkpoints were trained on it).
	if got, want := NeighborAliasLine(s, 8, []string{"lemmas"})(0), "\nrelated: insect; bug; insect; bug"; got != want {
		t.Errorf("edges out alone: %q, want %q", got, want)
	}
}

// TestReadingExpand: the query's stemmed words at 1, then each letters-only
// word's relatives among the names at rel, summed where two words share
// one, none the query holds.
func TestReadingExpand(t *testing.T) {
	r := &Reading{Names: index.NewRelatives([]string{"waspish", "likeness", "waspnest", "nestling", "wasp", "resemblance", "4wdrive"})}
	toks, w, _ := r.Expand(t.Context(), "Resembling a wasp, like wasps' nest 4wdr", 0.25)
	// "resembl" sits in no name; "likeness" stems to "like"; "waspnest"
	// holds "wasp" and "nest" (summed), "wasps" is "wasp" again (once);
	// "4wdr", in "4wdrive", has a digit.
	wantT := []string{"resembl", "wasp", "like", "wasp", "nest", "4wdr", "waspish", "waspnest", "nestl"}
	wantW := []float32{1, 1, 1, 1, 1, 1, 0.25, 0.5, 0.25}
	if !slices.Equal(toks, wantT) || !slices.Equal(w, wantW) {
		t.Errorf("%q %v, want %q %v", toks, w, wantT, wantW)
	}
	if index.Stem("likeness") != "like" || index.Stem("nestling") != "nestl" {
		t.Fatal("the stems the case assumes")
	}
	// A relative the query holds is not added again.
	if toks, w, _ := r.Expand(t.Context(), "wasp waspish", 0.25); !slices.Equal(toks, []string{"wasp", "waspish", "waspnest"}) || !slices.Equal(w, []float32{1, 1, 0.25}) {
		t.Errorf("wasp waspish: %q %v", toks, w)
	}
	if toks, w, _ := r.Expand(t.Context(), "wasp", 0); !slices.Equal(toks, []string{"wasp"}) || !slices.Equal(w, []float32{1}) {
		t.Errorf("rel 0: %q %v", toks, w)
	}
}

// TestReadingExpandBounds: a query looks up at most MaxRelativeWords
// words and takes at most MaxQueryRelatives relatives; an ended context
// stops it.
func TestReadingExpandBounds(t *testing.T) {
	word := func(i int) string { return "zq" + string(rune('a'+i/26%26)) + string(rune('a'+i%26)) + "x" }
	var names, query []string
	for i := range 300 {
		if w := word(i); index.Stem(w) != w {
			t.Fatalf("%q stems to %q", w, index.Stem(w))
		}
		query = append(query, word(i))
		for k := range 5 {
			names = append(names, fmt.Sprintf("%s%d", word(i), k))
		}
	}
	r := &Reading{Names: index.NewRelatives(names)}
	toks, w, err := r.Expand(t.Context(), strings.Join(query[:100], " "), 0.25)
	if err != nil || len(toks) != 100+500 || len(w) != len(toks) || toks[100] != "zqaax0" || w[100] != 0.25 {
		t.Fatalf("100 words: %d terms (%v), want 600", len(toks), err)
	}
	toks, _, _ = r.Expand(t.Context(), strings.Join(query[:210], " "), 0.25)
	if len(toks) != 210+MaxQueryRelatives {
		t.Errorf("210 words of 5 relatives: %d terms, want %d", len(toks), 210+MaxQueryRelatives)
	}
	if MaxRelativeWords*5 <= MaxQueryRelatives || MaxRelativeWords >= 300 {
		t.Fatal("the cases assume 256 words and 1,024 relatives")
	}
	// Past the bound a relative already taken still sums: the shared
	// name "zqaaxzqicx" holds word 0 and word 210; by word 210 the first
	// 210 words' 1,051 relatives have filled the bound, and word 210's
	// own five, which come first (the shorter), are new and left out.
	shared := word(0) + word(210)
	sr := &Reading{Names: index.NewRelatives(append(slices.Clone(names), shared))}
	toks, w, _ = sr.Expand(t.Context(), strings.Join(query[:211], " "), 0.25)
	if i := slices.Index(toks, shared); len(toks) != 211+MaxQueryRelatives || i < 0 || w[i] != 0.5 {
		t.Errorf("211 words: %d terms, %q at %d, want %d terms and it at weight 0.5", len(toks), shared, i, 211+MaxQueryRelatives)
	}
	if index.Stem(shared) != shared || word(210) != "zqicx" {
		t.Fatal("the shared name the case assumes")
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, _, err := r.Expand(ctx, "zqaax", 0.25); err == nil {
		t.Error("an ended context: no error")
	}
	// Only the 300th word has a relative: past MaxRelativeWords it is not
	// looked up; first, it is.
	last := &Reading{Names: index.NewRelatives([]string{word(299) + "0"})}
	if toks, _, _ = last.Expand(t.Context(), strings.Join(query, " "), 0.25); len(toks) != 300 {
		t.Errorf("the 300th word: %d terms, want 300", len(toks))
	}
	if toks, _, _ = last.Expand(t.Context(), word(299)+" "+strings.Join(query, " "), 0.25); len(toks) != 302 || toks[301] != word(299)+"0" {
		t.Errorf("the first word: %d terms, want 302", len(toks))
	}
}

// TestNameProfilesNamedBound: a word in more than MaxProfileNamed
// candidates' names gets an empty profile and lists no candidate; one in
// MaxProfileNamed keeps its profile (its first MaxProfileDocs documents)
// and lists them all.
func TestNameProfilesNamedBound(t *testing.T) {
	var names, toks [][]string
	for i := range MaxProfileNamed + 1 {
		w := []string{"genus"}
		if i < MaxProfileNamed {
			w = append(w, "family")
		}
		names = append(names, w)
		toks = append(toks, []string{"plain"})
	}
	idx, docs, _ := nameProfiles(index.Config{}, names, toks)
	if idx.NumDocs() != 2 || docs[0] != nil || len(docs[1]) != MaxProfileNamed {
		t.Fatalf("%d profiles, genus lists %d, family %d; want genus empty, family all %d", idx.NumDocs(), len(docs[0]), len(docs[1]), MaxProfileNamed)
	}
	if s := idx.ScoreTokens([]string{"plain"}, 0); s != 0 {
		t.Errorf("genus's profile scores %v, want 0 (empty)", s)
	}
	if s := idx.ScoreTokens([]string{"plain"}, 1); s <= 0 {
		t.Errorf("family's profile scores %v, want more than 0", s)
	}
}

// TestSaysEveryName: a passage says a node's names when each (its name
// and every item of its alias field) is a run of its words, compared as
// written: "celerity" is named also by "fleetness", which the passage does
// not say; "vitamin" does not say "vitamin A" (a one-letter word counts);
// "condition" does not say "conditionally" (no stemming); a name with no
// word is never said.
func TestSaysEveryName(t *testing.T) {
	skb := &data.SKB{Schema: data.Schema{Format: data.FormatSKBDir, NodeTypes: []string{"thing"}, RelationTypes: []string{"r"}, TextFields: []string{"name", "lemmas"}}}
	skb.Nodes = []data.Node{
		{Name: "speed", Fields: []string{"", "speed; velocity"}},
		{Name: "celerity", Fields: []string{"", "celerity; fleetness; rapidity"}},
		{Name: "vitamin A", Fields: []string{"", "vitamin A"}},
		{Name: "conditionally", Fields: []string{"", "conditionally"}},
		{Name: "walking stick", Fields: []string{"", "walking stick; walking-stick"}},
		{Name: "-", Fields: []string{"", "-"}},
	}
	r := readingOf(t, skb)
	if !slices.Equal(r.nameFields, []int{1}) || !slices.Equal(r.nameDelims, []string{";"}) {
		t.Fatalf("name fields %v split by %q; want the lemmas (1) by \";\"", r.nameFields, r.nameDelims)
	}
	for _, c := range []struct {
		text string
		v    uint32
		want bool
	}{
		{"Swiftness, rapidity, velocity, celerity; speed.", 0, true},
		{"Swiftness, rapidity, velocity, celerity; speed.", 1, false},
		{"Swiftness, rapidity, fleetness, celerity", 1, true},
		{"Speed", 0, false}, // velocity unsaid
		{"a vitamin found in carrots", 2, false},
		{"rich in Vitamin A", 2, true},
		{"In a manner subject to a condition", 3, false},
		{"a stick for walking", 4, false},
		{"a walking stick, or walking-stick", 4, true},
		{"- -", 5, false},
	} {
		if got := r.SaysEveryName(skb, c.v, SaidWords(nil, c.text)); got != c.want {
			t.Errorf("%q says every name of %q: %v, want %v", c.text, skb.Nodes[c.v].Name, got, c.want)
		}
	}
}

// TestPassageWords: quoted spans are dropped, an unclosed quote is kept.
func TestPassageWords(t *testing.T) {
	for _, c := range []struct {
		text string
		want []string
	}{
		{`"fowler" in the sense of a huntsman`, []string{"in", "the", "sense", "of", "a", "huntsman"}},
		{"\u201cBurundi\u201d, an African country", []string{"an", "african", "country"}},
		{`a "quoted" and "another" word`, []string{"a", "and", "word"}},
		{`an "open quote`, []string{"an", "open", "quote"}},
		{"Vitamin A's use", []string{"vitamin", "a", "s", "use"}},
	} {
		if got := PassageWords(c.text); !slices.Equal(got, c.want) {
			t.Errorf("PassageWords(%q) = %q, want %q", c.text, got, c.want)
		}
	}
}

// TestSaysEveryNameNoAliases: without an alias field a node's one name is
// its name: "Jeffrey Lau-directed titles" says the director, not his film.
func TestSaysEveryNameNoAliases(t *testing.T) {
	skb := &data.SKB{Schema: data.Schema{Format: data.FormatSKBDir, NodeTypes: []string{"person", "movie"}, RelationTypes: []string{"directed_by"}, TextFields: []string{"name", "plot"}}}
	skb.Nodes = []data.Node{
		{Type: 0, Name: "Jeffrey Lau", Fields: []string{"", ""}},
		{Type: 1, Name: "All for the Winner", Fields: []string{"", "a gambler from the mainland wins in Hong Kong"}},
	}
	skb.Edges.Add(1, 0, 0)
	r := readingOf(t, skb)
	if len(r.nameFields) != 0 {
		t.Fatalf("name fields %v, want none", r.nameFields)
	}
	ts := PassageWords("Jeffrey Lau-directed titles released in 1990")
	if !r.SaysEveryName(skb, 0, ts) || r.SaysEveryName(skb, 1, ts) {
		t.Errorf("says Jeffrey Lau %v, All for the Winner %v; want true, false", r.SaysEveryName(skb, 0, ts), r.SaysEveryName(skb, 1, ts))
	}
}

// readingOf builds skb's workspace and its reading.
func readingOf(t *testing.T, skb *data.SKB) *Reading {
	t.Helper()
	ws, err := workspace.Build(context.Background(), skb, nil, workspace.Config{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	r, err := ReadingOf(ws)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestDefinesVerb: an infinitive ("to" and a verb's base form in the
// lexicon) opens a verb's definition; "to" before a word that is no verb,
// a question, a quoted infinitive and a bare verb open none.
func TestDefinesVerb(t *testing.T) {
	for _, c := range []struct {
		text string
		want bool
	}{
		{"To dwell in; to abide within", true},
		{"to restore to one's own country", true},
		{"To condescend; to deign", true},
		{"To-day; on this day", false}, // "day" is no verb
		{"To which family does X belong", false},
		{"dwell in; abide within", false},   // WordNet's way: no infinitive
		{`"to dwell" means to live`, false}, // quoted: spoken of, not used
		{"to", false},
		{"A place to dwell", false},
	} {
		if got := DefinesVerb(PassageWords(c.text)); got != c.want {
			t.Errorf("DefinesVerb(%q) = %v, want %v", c.text, got, c.want)
		}
	}
}

// TestNamesVerb: a node type names verbs when more than half of its
// candidates are named by a verb's base form: "act" (dwell, abide, sing:
// 3 of 3) does, "place" (dwelling, residence, run: 1 of 3, though "run"
// is a verb) and "person" (singer, reader: 0 of 2) do not.
func TestNamesVerb(t *testing.T) {
	skb := &data.SKB{Schema: data.Schema{Format: data.FormatSKBDir, NodeTypes: []string{"act", "place", "person"}, RelationTypes: []string{"r"}, TextFields: []string{"name", "gloss"}}}
	for _, n := range []struct {
		t    data.TypeID
		name string
	}{{0, "dwell"}, {1, "dwelling"}, {0, "abide"}, {1, "residence"}, {0, "sing"}, {1, "run"}, {2, "singer"}, {2, "reader"}} {
		skb.Nodes = append(skb.Nodes, data.Node{Type: n.t, Name: n.name, Fields: []string{"", "a gloss"}})
	}
	r := readingOf(t, skb)
	for d, want := range []bool{true, false, true, false, true, false, false, false} {
		if got := r.NamesVerb(d); got != want {
			t.Errorf("NamesVerb(%d: %s) = %v, want %v", d, skb.Nodes[d].Name, got, want)
		}
	}
	if r.NamesVerb(-1) || r.NamesVerb(len(skb.Nodes)) {
		t.Error("a candidate out of range names a verb")
	}
}
