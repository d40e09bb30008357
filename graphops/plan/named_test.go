package plan

import (
	"slices"
	"testing"
)

// TestNamedFirst: the named nodes get the top score plus one, so they
// lead in their own order and the rest follow in theirs; without named
// nodes nothing changes, and all-zero scores still put them first.
func TestNamedFirst(t *testing.T) {
	ids := []uint32{5, 6, 7, 8}
	scores := []float32{3, 0, 1, 2}
	NamedFirst(ids, scores, []uint32{7, 6, 99}) // 99: not reached
	if want := []float32{3, 4, 5, 2}; !slices.Equal(scores, want) {
		t.Errorf("scores %v, want %v (top 3, +4 for 6 and 7)", scores, want)
	}
	zero := []float32{0, 0}
	NamedFirst([]uint32{1, 2}, zero, []uint32{2})
	if want := []float32{0, 1}; !slices.Equal(zero, want) {
		t.Errorf("all-zero scores %v, want %v", zero, want)
	}
	same := []float32{1, 2}
	NamedFirst([]uint32{1, 2}, same, nil)
	if want := []float32{1, 2}; !slices.Equal(same, want) {
		t.Errorf("no named nodes: %v, want %v", same, want)
	}
}
