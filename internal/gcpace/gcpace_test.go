package gcpace

import "testing"

// TestPercent: GOGC 100 up to the headroom, then headroom over live (a
// 6 GiB live heap with 1 GiB of headroom: 16), never below 10.
func TestPercent(t *testing.T) {
	const g = 1 << 30
	for _, c := range []struct {
		live uint64
		want int
	}{{0, 100}, {g / 2, 100}, {g, 100}, {2 * g, 50}, {6 * g, 16}, {10 * g, 10}, {40 * g, 10}} {
		if got := Percent(c.live, g); got != c.want {
			t.Errorf("Percent(%d GiB/1024) = %d, want %d", c.live>>20, got, c.want)
		}
	}
}
