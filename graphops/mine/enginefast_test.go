package mine

import (
	"math/rand/v2"
	"slices"
	"sort"
	"testing"

	"github.com/strata-retrieval/strata/data"
)

// TestSortIDs: the miner's bitmap sort gives pdqsort's order for dense
// and sparse sets of every size, and leaves its bitmap empty.
func TestSortIDs(t *testing.T) {
	const n = 100000
	m := &Miner{types: make([]data.TypeID, n)}
	r := rand.New(rand.NewPCG(1, 2))
	for _, c := range []struct{ size, span int }{{0, 10}, {1, 10}, {63, 64}, {64, 64}, {500, 600}, {500, n}, {5000, 6000}, {20000, n}, {3000, 3000}} {
		perm := r.Perm(c.span)[:c.size]
		s := make([]uint32, c.size)
		for i, v := range perm {
			s[i] = uint32(v + n - c.span)
		}
		want := slices.Clone(s)
		slices.Sort(want)
		m.sortIDs(s)
		if !slices.Equal(s, want) {
			t.Fatalf("%d ids over %d: sorted wrong", c.size, c.span)
		}
		for w, x := range m.bits {
			if x != 0 {
				t.Fatalf("%d ids over %d: word %d left set", c.size, c.span, w)
			}
		}
	}
}

// TestRestrictedF1TopK: the heap's top k is the full sort's (score
// descending, ties by id), ties and all.
func TestRestrictedF1TopK(t *testing.T) {
	ref := func(ends, gold []uint32, score func(uint32) float32) float64 {
		xs := slices.Clone(ends)
		sort.Slice(xs, func(i, j int) bool {
			si, sj := score(xs[i]), score(xs[j])
			return si > sj || si == sj && xs[i] < xs[j]
		})
		k := min(len(gold), len(xs))
		hits := 0
		for _, v := range xs[:k] {
			if _, ok := slices.BinarySearch(gold, v); ok {
				hits++
			}
		}
		return f1(hits, k, len(gold))
	}
	r := rand.New(rand.NewPCG(3, 4))
	for trial := range 500 {
		n := r.IntN(60)
		ends := make([]uint32, n)
		for i := range ends {
			ends[i] = uint32(i * 3)
		}
		scores := map[uint32]float32{}
		for _, v := range ends {
			scores[v] = float32(r.IntN(4)) // many ties
		}
		var gold []uint32
		for v := uint32(0); v < uint32(3*n+3); v++ {
			if r.IntN(5) == 0 {
				gold = append(gold, v)
			}
		}
		score := func(v uint32) float32 { return scores[v] }
		if got, want := restrictedF1(ends, gold, score), ref(ends, gold, score); got != want {
			t.Fatalf("trial %d: %d ends, %d answers: F1 %v, full sort %v", trial, n, len(gold), got, want)
		}
	}
	// Worked by hand: ends 1..4 scored 1, 3, 3, 0; answers {2, 4}: the top 2
	// are 2 and 3 (score 3), one hit: P = R = 1/2, F1 = 0.5.
	sc := map[uint32]float32{1: 1, 2: 3, 3: 3, 4: 0}
	if got := restrictedF1([]uint32{1, 2, 3, 4}, []uint32{2, 4}, func(v uint32) float32 { return sc[v] }); got != 0.5 {
		t.Errorf("hand case: %v, want 0.5", got)
	}
}
