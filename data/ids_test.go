package data

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func TestIntersectSorted(t *testing.T) {
	for _, c := range []struct{ a, b, want []uint32 }{
		{[]uint32{1, 3, 5, 9}, []uint32{2, 3, 9, 10}, []uint32{3, 9}},
		{nil, []uint32{1}, nil},
		{[]uint32{4}, []uint32{4}, []uint32{4}},
		{[]uint32{1, 2}, []uint32{3, 4}, nil},
	} {
		if got := IntersectSorted(c.a, c.b); !cmp.Equal(got, c.want, cmpopts.EquateEmpty()) {
			t.Errorf("IntersectSorted(%v, %v) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}
