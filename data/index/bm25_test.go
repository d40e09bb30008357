package index

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/strata-retrieval/strata/data/snapshot"
)

func TestTokenize(t *testing.T) {
	cases := []struct {
		in   string
		want []string
	}{
		{"Don't STOP_me now, e-mail café ÉCOLE x 42 1", []string{"don", "stop_me", "now", "mail", "café", "école", "42"}},
		{"The cat and THE hat", []string{"cat", "hat"}},
		{"  ", nil},
		{"über-größe 3D", []string{"über", "größe", "3d"}},
		{"αβ γ δεζ", []string{"αβ", "δεζ"}},
	}
	for _, c := range cases {
		got := Tokenize(nil, c.in)
		if !cmp.Equal(got, c.want) {
			t.Errorf("Tokenize(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// The three-document corpus below is scored by hand:
//
//	d0 "the cat sat"  -> cat sat        dl=2
//	d1 "cat cat dog"  -> cat cat dog    dl=3
//	d2 "a bird"       -> bird           dl=1      N=3, avgdl=2
//	idf(cat) = ln(1 + (3-2+0.5)/(2+0.5)) = ln 1.6
//	idf(dog) = ln(1 + (3-1+0.5)/(1+0.5)) = ln(8/3)
//	d0: ln1.6 · 1/(1 + 1.5·(0.25 + 0.75·2/2))           = 0.18800145
//	d1: ln1.6 · 2/(2 + 1.5·(0.25 + 0.75·3/2)) + ln(8/3) · 1/(1 + 2.0625) = 0.55165717
func TestBM25Golden(t *testing.T) {
	b := NewBuilder(Config{})
	for _, d := range []string{"the cat sat", "cat cat dog", "a bird"} {
		b.Add(d)
	}
	ix := b.Build()
	if ix.NumDocs() != 3 || ix.AvgDocLen() != 2 || ix.NumTerms() != 4 {
		t.Fatalf("docs=%d avgdl=%v terms=%d", ix.NumDocs(), ix.AvgDocLen(), ix.NumTerms())
	}
	if idf, _ := ix.IDF("cat"); math.Abs(float64(idf)-0.47000362924573563) > 1e-7 {
		t.Errorf("idf(cat) = %v", idf)
	}
	got := ix.Search("cat dog unknownword", 10, nil)
	want := []Hit{{1, 0.55165717}, {0, 0.18800145}}
	if len(got) != len(want) {
		t.Fatalf("Search = %v, want %v", got, want)
	}
	for i := range want {
		if got[i].ID != want[i].ID || math.Abs(float64(got[i].Score-want[i].Score)) > 1e-6 {
			t.Errorf("hit %d = %v, want %v", i, got[i], want[i])
		}
	}
	if s := ix.Score("cat dog", 1); math.Abs(float64(s)-0.55165717) > 1e-6 {
		t.Errorf("Score(d1) = %v", s)
	}
	// A repeated query token counts twice.
	if s := ix.Score("cat cat", 0); math.Abs(float64(s)-2*0.18800145) > 1e-6 {
		t.Errorf("Score(cat cat, d0) = %v", s)
	}
	// Scorer tokenizes once and gives the same scores, 0 for documents
	// without a query term.
	sc := ix.Scorer("cat cat dog")
	cat1, dog1 := ix.Score("cat", 1), ix.Score("dog", 1) // cat1 + dog1 = 0.55165717 above
	for d, want := range []float32{2 * 0.18800145, 2*cat1 + dog1, 0} {
		if got := sc(uint32(d)); math.Abs(float64(got-want)) > 1e-6 {
			t.Errorf("Scorer(d%d) = %v, want %v", d, got, want)
		}
	}
	// allow filters documents.
	if got := ix.Search("cat", 10, []bool{true, false, true}); len(got) != 1 || got[0].ID != 0 {
		t.Errorf("filtered Search = %v", got)
	}
	// Custom k1, b: b=1 hits the full length normalisation.
	b2 := NewBuilder(Config{K1: 1.2, B: 1})
	b2.Add("x1 x1")
	b2.Add("x1 yy yy yy")
	ix2 := b2.Build()
	// idf(x1) = ln(1 + 0.5/2.5) = ln 1.2; d0: 2/(2+1.2·2/3) = 2/2.8; d1: 1/(1+1.2·4/3) = 1/2.6
	h := ix2.Search("x1", 2, nil)
	if h[0].ID != 0 || math.Abs(float64(h[0].Score)-math.Log(1.2)*2/2.8) > 1e-6 || math.Abs(float64(h[1].Score)-math.Log(1.2)/2.6) > 1e-6 {
		t.Errorf("k1=1.2 b=1: %v", h)
	}
}

func TestSearchTiesAndTopK(t *testing.T) {
	b := NewBuilder(Config{})
	for i := 0; i < 6; i++ {
		b.Add("same words here")
	}
	ix := b.Build()
	got := ix.Search("words", 3, nil)
	ids := []uint32{got[0].ID, got[1].ID, got[2].ID}
	if !cmp.Equal(ids, []uint32{0, 1, 2}) {
		t.Errorf("ties: ids %v, want [0 1 2]", ids)
	}
}

// TestTopKMatchesSort compares the heap collector with a full sort.
func TestTopKMatchesSort(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 200; trial++ {
		n := r.IntN(300)
		k := r.IntN(40)
		hits := make([]Hit, n)
		for i := range hits {
			hits[i] = Hit{ID: uint32(i), Score: float32(r.IntN(20))}
		}
		tk := NewTopK(k)
		for _, h := range hits {
			tk.Push(h)
		}
		got := tk.Sorted(nil)
		sort.Slice(hits, func(i, j int) bool { return better(hits[i], hits[j]) })
		if k < n {
			hits = hits[:k]
		}
		if !cmp.Equal(got, hits, cmpopts.EquateEmpty()) {
			t.Fatalf("n=%d k=%d: got %v want %v", n, k, got, hits)
		}
	}
}

func TestSearchBatch(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	b := NewBuilder(Config{})
	for i := 0; i < 500; i++ {
		b.Add(fmt.Sprintf("w%d w%d w%d", r.IntN(50), r.IntN(50), r.IntN(50)))
	}
	ix := b.Build()
	qs := make([]string, 100)
	for i := range qs {
		qs[i] = fmt.Sprintf("w%d w%d", r.IntN(50), r.IntN(50))
	}
	got, err := ix.SearchBatch(context.Background(), qs, 10, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i, q := range qs {
		if !cmp.Equal(got[i], ix.Search(q, 10, nil)) {
			t.Fatalf("query %d differs", i)
		}
		// exhaustive check against Score
		for _, h := range got[i] {
			if s := ix.Score(q, h.ID); s != h.Score {
				t.Fatalf("query %d doc %d: search %v score %v", i, h.ID, h.Score, s)
			}
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := ix.SearchBatch(ctx, qs, 10, nil); err == nil {
		t.Error("cancelled batch returned no error")
	}
}

// TestScorerLongQuery: a query of more than longQueryTerms known terms is
// scored from the postings at once; every document gets the bits Score
// gives (the same additions in the same order), 0 past the last document.
func TestScorerLongQuery(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	words := make([]string, 300)
	for i := range words {
		words[i] = fmt.Sprintf("w%03d", i)
	}
	b := NewBuilder(Config{})
	for range 200 {
		var d []string
		for range 5 + r.IntN(30) {
			d = append(d, words[r.IntN(len(words))])
		}
		b.Add(strings.Join(d, " "))
	}
	ix := b.Build()
	for _, n := range []int{10, 65, 400} {
		var q []string
		for range n {
			q = append(q, words[r.IntN(len(words))])
		}
		query := strings.Join(q, " ") + " unknownword"
		sc := ix.Scorer(query)
		for d := range uint32(ix.NumDocs()) {
			if got, want := sc(d), ix.Score(query, d); got != want {
				t.Fatalf("%d words, doc %d: %v, want %v", n, d, got, want)
			}
		}
		if got := sc(uint32(ix.NumDocs()) + 5); got != 0 {
			t.Errorf("%d words: a document past the end scores %v", n, got)
		}
	}
}

// endsAfter is a context whose Err is nil for its first n calls and
// context.Canceled after.
type endsAfter struct {
	context.Context
	n, calls int
}

func (c *endsAfter) Err() error {
	if c.calls++; c.calls > c.n {
		return context.Canceled
	}
	return nil
}

// TestScoreAllContext: a query of 2,500 tokens is looked at its context
// before tokens 0, 1024 and 2048; a context that ends at any of those
// looks stops the scoring with its error and leaves the index's scratch
// clean (the next query scores as on a fresh index), and one that never
// ends gives ScoreAll's hits (issue 37 item 1: a long query kept its core
// after its request had timed out).
func TestScoreAllContext(t *testing.T) {
	b := NewBuilder(Config{})
	for _, d := range []string{"red boots", "blue boots", "red hat", "green scarf"} {
		b.Add(d)
	}
	ix := b.Build()
	query := strings.TrimSpace(strings.Repeat("red boots hat scarf blue ", 500))
	want := ix.ScoreAll(query, nil)
	c := &endsAfter{Context: context.Background(), n: 1 << 30}
	if got, err := ix.ScoreAllContext(c, query, nil); err != nil || !cmp.Equal(got, want) {
		t.Fatalf("never ending: %v %v, want %v", got, err, want)
	}
	if c.calls != 3 {
		t.Errorf("%d looks at the context for 2,500 tokens, want 3", c.calls)
	}
	fresh := ix.ScoreAll("red", nil)
	for n := range 3 {
		got, err := ix.ScoreAllContext(&endsAfter{Context: context.Background(), n: n}, query, nil)
		if !errors.Is(err, context.Canceled) || got != nil {
			t.Errorf("ending at look %d: %v %v, want context.Canceled", n+1, got, err)
		}
		if again := ix.ScoreAll("red", nil); !cmp.Equal(again, fresh) {
			t.Errorf("after ending at look %d, \"red\" scores %v, want %v", n+1, again, fresh)
		}
	}
}

// TestScoreAllContextPostings: a word every one of ctxPostings+1
// documents holds, said three times, reads more than ctxPostings postings
// each time, so the context is looked at before each of the three
// tokens (not once, as by tokens alone), and a context ending at the
// second look stops the scoring.
func TestScoreAllContextPostings(t *testing.T) {
	b := NewBuilder(Config{})
	for range ctxPostings + 1 {
		b.Add("one")
	}
	ix := b.Build()
	c := &endsAfter{Context: context.Background(), n: 1 << 30}
	if got, err := ix.ScoreAllContext(c, "one one one", nil); err != nil || len(got) != ctxPostings+1 {
		t.Fatalf("never ending: %d hits, %v", len(got), err)
	}
	if c.calls != 3 {
		t.Errorf("%d looks at the context for three tokens of %d postings each, want 3", c.calls, ctxPostings+1)
	}
	if got, err := ix.ScoreAllContext(&endsAfter{Context: context.Background(), n: 1}, "one one one", nil); !errors.Is(err, context.Canceled) || got != nil {
		t.Errorf("ending at the second look: %d hits, %v, want context.Canceled", len(got), err)
	}
}

// TestBM25StemConfig: with Config.Stem, documents and queries are read
// stemmed, so "the cats sat", "cat cats dogs" score as TestBM25Golden's
// "the cat sat", "cat cat dog" (the same numbers), through every query
// method and after a snapshot round trip; unstemmed, "cats" is not "cat".
func TestBM25StemConfig(t *testing.T) {
	b := NewBuilder(Config{Stem: true})
	for _, d := range []string{"the cats sat", "cat cats dogs", "a bird"} {
		b.Add(d)
	}
	built := b.Build()
	var w snapshot.Writer
	built.Encode(&w, "bm25/")
	var buf bytes.Buffer
	if err := w.Write(&buf); err != nil {
		t.Fatal(err)
	}
	r, err := snapshot.Parse("mem", buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	decoded, err := Decode(r, "bm25/")
	if err != nil {
		t.Fatal(err)
	}
	for name, ix := range map[string]*BM25{"built": built, "decoded": decoded} {
		if ix.NumTerms() != 4 || !ix.Config().Stem {
			t.Fatalf("%s: terms=%d config %+v, want 4 stemmed", name, ix.NumTerms(), ix.Config())
		}
		want := []Hit{{1, 0.55165717}, {0, 0.18800145}}
		got := ix.Search("Cats dog unknownwords", 10, nil)
		all := ix.ScoreAll("cat dogs", nil)
		sc := ix.Scorer("cats dogs")
		if len(got) != 2 || len(all) != 2 {
			t.Fatalf("%s: Search = %v, ScoreAll = %v", name, got, all)
		}
		for i, h := range want {
			if got[i].ID != h.ID || math.Abs(float64(got[i].Score-h.Score)) > 1e-6 {
				t.Errorf("%s: Search hit %d = %v, want %v", name, i, got[i], h)
			}
			// ScoreAll is in id order: want reversed.
			if a := all[1-i]; a != got[i] {
				t.Errorf("%s: ScoreAll %v, Search %v", name, a, got[i])
			}
			if s := ix.Score("cats dogs", h.ID); s != got[i].Score || sc(h.ID) != s {
				t.Errorf("%s: Score(d%d) = %v, Scorer %v, Search %v", name, h.ID, s, sc(h.ID), got[i].Score)
			}
		}
	}
	plain := NewBuilder(Config{})
	plain.Add("the cats sat")
	if got := plain.Build().Search("cat", 1, nil); len(got) != 0 {
		t.Errorf("unstemmed index: cat finds %v in cats", got)
	}
}
