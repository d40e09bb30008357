package workspace

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/strata-retrieval/strata/data/index"
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
