package gating

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/strata-retrieval/strata/data/index"
)

// TestTopKMatchesSort: the heap selection returns what sorting everything
// and keeping the first k returned, ties (equal scores, ascending ids)
// included.
func TestTopKMatchesSort(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 4))
	for _, n := range []int{0, 1, 5, 50, 1000} {
		for _, k := range []int{1, 3, 50, 2000} {
			hs := make([]index.Hit, n)
			for i := range hs {
				hs[i] = index.Hit{ID: uint32(r.IntN(5000)), Score: float32(r.IntN(20)) / 4} // many ties
			}
			want := slices.Clone(hs)
			index.Sort(want)
			want = want[:min(k, n)]
			got := topK(slices.Clone(hs), k)
			if !slices.Equal(got, want) {
				t.Fatalf("n=%d k=%d: %v, want %v", n, k, got, want)
			}
		}
	}
}

// TestQueryScopeLookups: topic membership with few topics (a scan) and
// many (a map), and relsOf's bit marks agree with the rels map.
func TestQueryScopeLookups(t *testing.T) {
	for _, nt := range []int{3, 40} {
		qs := &queryScope{rels: map[uint32][]int32{70: {1}, 3: {0, 2}}, reached: make([]uint64, 2)}
		for i := 0; i < nt; i++ {
			qs.topics = append(qs.topics, uint32(2*i+1))
		}
		if nt > 16 {
			qs.topicOf = map[uint32]bool{}
			for _, v := range qs.topics {
				qs.topicOf[v] = true
			}
		}
		for v := range qs.rels {
			qs.reached[v>>6] |= 1 << (v & 63)
		}
		for v := uint32(0); v < 128; v++ {
			if got, want := qs.topic(v), v%2 == 1 && int(v) < 2*nt; got != want {
				t.Fatalf("%d topics: topic(%d) = %v", nt, v, got)
			}
			if got, want := qs.relsOf(v), qs.rels[v]; !slices.Equal(got, want) {
				t.Fatalf("relsOf(%d) = %v, want %v", v, got, want)
			}
		}
	}
}
