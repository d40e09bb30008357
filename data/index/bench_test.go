package index

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// zipfCorpus builds n documents of 40 tokens drawn from a Zipf vocabulary.
func zipfCorpus(n int) (*BM25, []string) {
	r := rand.New(rand.NewPCG(1, 1))
	z := rand.NewZipf(r, 1.1, 1, 50000)
	b := NewBuilder(Config{})
	buf := make([]byte, 0, 512)
	for i := 0; i < n; i++ {
		buf = buf[:0]
		for j := 0; j < 40; j++ {
			buf = fmt.Appendf(buf, "w%d ", z.Uint64())
		}
		b.Add(string(buf))
	}
	qs := make([]string, 256)
	for i := range qs {
		qs[i] = fmt.Sprintf("w%d w%d w%d w%d", z.Uint64(), z.Uint64()+10, z.Uint64()+100, r.IntN(5000))
	}
	return b.Build(), qs
}

func BenchmarkSearch(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		ix, qs := zipfCorpus(n)
		b.Run(fmt.Sprintf("docs=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				ix.Search(qs[i%len(qs)], 10, nil)
			}
		})
	}
}

func BenchmarkBuild(b *testing.B) {
	r := rand.New(rand.NewPCG(2, 2))
	docs := make([]string, 10_000)
	for i := range docs {
		buf := make([]byte, 0, 512)
		for j := 0; j < 40; j++ {
			buf = fmt.Appendf(buf, "w%d ", r.IntN(20000))
		}
		docs[i] = string(buf)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		bl := NewBuilder(Config{})
		for _, d := range docs {
			bl.Add(d)
		}
		bl.Build()
	}
}

func BenchmarkTokenize(b *testing.B) {
	s := "The Quick brown fox, jumps over the lazy dog's back; café ÉCOLE 42 x"
	var dst []string
	b.SetBytes(int64(len(s)))
	for i := 0; i < b.N; i++ {
		dst = Tokenize(dst[:0], s)
	}
}
