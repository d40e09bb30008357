package index

import (
	"cmp"
	"slices"
)

// Hit is one scored document.
type Hit struct {
	ID    uint32
	Score float32
}

// Compare is the one ranking order of hits: the higher score first, then
// the lower id (STaRK's tie break). Scores are not NaN.
func Compare(a, b Hit) int {
	if c := cmp.Compare(b.Score, a.Score); c != 0 {
		return c
	}
	return cmp.Compare(a.ID, b.ID)
}

// Sort sorts hits in ranking order (Compare).
func Sort(hs []Hit) { slices.SortFunc(hs, Compare) }

// better reports whether a ranks before b: higher score, then lower id.
func better(a, b Hit) bool {
	if a.Score != b.Score {
		return a.Score > b.Score
	}
	return a.ID < b.ID
}

// TopK keeps the k best hits seen so far in a min-heap whose root is the
// worst kept hit. The zero value is unusable; use NewTopK or Reset.
type TopK struct {
	k    int
	heap []Hit
}

// NewTopK returns a collector for the k best hits.
func NewTopK(k int) *TopK { return &TopK{k: k, heap: make([]Hit, 0, k)} }

// Reset empties the collector and sets its capacity to k.
func (t *TopK) Reset(k int) {
	t.k = k
	if cap(t.heap) < k {
		t.heap = make([]Hit, 0, k)
	}
	t.heap = t.heap[:0]
}

// Push offers a hit.
func (t *TopK) Push(h Hit) {
	if t.k <= 0 {
		return
	}
	if len(t.heap) < t.k {
		t.heap = append(t.heap, h)
		t.up(len(t.heap) - 1)
		return
	}
	if better(h, t.heap[0]) {
		t.heap[0] = h
		t.down(0)
	}
}

// Sorted returns the kept hits, best first, appended to dst. The collector
// is left empty.
func (t *TopK) Sorted(dst []Hit) []Hit {
	n := len(t.heap)
	start := len(dst)
	dst = append(dst, make([]Hit, n)...)
	for i := n - 1; i >= 0; i-- {
		dst[start+i] = t.heap[0]
		last := len(t.heap) - 1
		t.heap[0] = t.heap[last]
		t.heap = t.heap[:last]
		if last > 0 {
			t.down(0)
		}
	}
	return dst
}

func (t *TopK) up(i int) {
	h := t.heap
	for i > 0 {
		p := (i - 1) / 2
		if !better(h[p], h[i]) { // the parent is already the worse one
			return
		}
		h[p], h[i] = h[i], h[p]
		i = p
	}
}

func (t *TopK) down(i int) {
	// Sift the hit at i down by moving the worse child up into the hole,
	// writing the hit once at its place.
	h := t.heap
	n := len(h)
	x := h[i]
	for {
		l := 2*i + 1
		if l >= n {
			break
		}
		w := l // the worse child
		if r := l + 1; r < n && better(h[l], h[r]) {
			w = r
		}
		if better(h[w], x) {
			break
		}
		h[i] = h[w]
		i = w
	}
	h[i] = x
}
