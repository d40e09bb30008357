package workspace

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/strata-retrieval/strata/data/index"
	"github.com/strata-retrieval/strata/data/synth"
)

// phraseScoreRef is PhraseScore's definition: each phrase whose two words
// the document says in a row counts once, summed in phrase order.
func phraseScoreRef(phrases []Phrase, doc []string) float32 {
	var s float32
	for _, p := range phrases {
		for i := 1; i < len(doc); i++ {
			if doc[i-1] == p.A && doc[i] == p.B {
				s += p.Weight
				break
			}
		}
	}
	return s
}

// TestPhraseScoreLongQueries: the look-up PhraseScore uses for many
// phrases gives the bits of the definition, on random documents and
// phrase lists over a small vocabulary (so pairs repeat).
func TestPhraseScoreLongQueries(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	words := []string{"aa", "bb", "cc", "dd", "ee", "ff", "gg"}
	for trial := range 500 {
		doc := make([]string, r.IntN(40))
		for i := range doc {
			doc[i] = words[r.IntN(len(words))]
		}
		ps := make([]Phrase, r.IntN(30))
		for i := range ps {
			ps[i] = Phrase{A: words[r.IntN(len(words))], B: words[r.IntN(len(words))], Weight: r.Float32() * 5}
		}
		if got, want := PhraseScore(ps, doc), phraseScoreRef(ps, doc); got != want {
			t.Fatalf("trial %d: %v, want %v", trial, got, want)
		}
	}
}

// TestPhrasesOncePerPair: a query's adjacent pairs of indexed words, each
// once in the order they first appear, a word next to itself and unindexed
// words left out; a long query repeating the text ("red" then meets
// "red") gives the same list.
func TestPhrasesOncePerPair(t *testing.T) {
	b := index.NewBuilder(index.Config{})
	for _, d := range []string{"red boots", "blue boots", "red hat"} {
		b.Add(d)
	}
	ix := b.Build()
	want := []string{"red boots", "boots blue", "blue boots", "boots red", "red hat"}
	text := "red boots blue boots red boots red hat hat zzz red"
	for _, q := range []string{text, strings.Repeat(text+" ", 2000)} {
		var got []string
		for _, p := range Phrases(ix, q) {
			got = append(got, p.A+" "+p.B)
		}
		if strings.Join(got, ",") != strings.Join(want, ",") {
			t.Errorf("%d characters: %v, want %v", len(q), got, want)
		}
	}
}

// BenchmarkPhrasesLongQuery: the phrases of a 300,000-character query of
// varied words (issue 37: 2.6 s when duplicates were found by a scan).
func BenchmarkPhrasesLongQuery(b *testing.B) {
	bl := index.NewBuilder(index.Config{})
	r := rand.New(rand.NewPCG(1, 2))
	vocab := make([]string, 5000)
	for i := range vocab {
		vocab[i] = "w" + strings.Repeat(string(rune('a'+i%26)), 1+i%5) + string(rune('a'+i/26%26)) + string(rune('a'+i/676))
	}
	for range 2000 {
		var d []string
		for range 20 {
			d = append(d, vocab[r.IntN(len(vocab))])
		}
		bl.Add(strings.Join(d, " "))
	}
	ix := bl.Build()
	var q strings.Builder
	for q.Len() < 300_000 {
		q.WriteString(vocab[r.IntN(len(vocab))] + " ")
	}
	b.ResetTimer()
	for range b.N {
		Phrases(ix, q.String())
	}
}

// TestTextScorerLongQuery: a text of more than longQueryPhrases phrases
// scores every node with the bits of the short path's definition (BM25,
// plus PhraseScore where mayState finds a phrase's two terms).
func TestTextScorerLongQuery(t *testing.T) {
	res, err := synth.Generate(synth.Config{Preset: "prime", Nodes: 600, Queries: 10, Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	ws, err := Build(context.Background(), res.SKB, nil, Config{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Graph.Close()
	var b strings.Builder
	for v := range 40 { // the text of 40 documents: hundreds of phrases
		b.WriteString(res.SKB.Document(uint32(v)) + " ")
	}
	text := b.String()
	if n := len(Phrases(ws.Doc, text)); n <= longQueryPhrases {
		t.Fatalf("%d phrases, want more than %d", n, longQueryPhrases)
	}
	score, bm25 := ws.TextScorer(text), ws.Doc.Scorer(text)
	phrases := Phrases(ws.Doc, text)
	bonus := 0
	for v := range uint32(len(res.SKB.Nodes)) {
		d, ok := ws.DocOf(v)
		var want float32
		if ok {
			want = bm25(d)
			if want > 0 && mayState(phrases, d) {
				p := PhraseScore(phrases, index.Tokenize(nil, res.SKB.Document(v)))
				want += p
				if p > 0 {
					bonus++
				}
			}
		}
		if got := score(v); got != want {
			t.Fatalf("node %d: %v, want %v", v, got, want)
		}
	}
	if bonus < 40 {
		t.Errorf("%d nodes got a phrase bonus, want at least the 40 whose text the query holds", bonus)
	}
}
