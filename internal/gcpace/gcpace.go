// Package gcpace bounds the garbage collector's headroom on large heaps.
//
// Go's collector lets the heap grow to twice its live size before the next
// cycle (GOGC=100). strata holds a workspace for the whole command: at
// MAG size its snapshot, name automaton and indexes are 6 GB of live heap,
// so the default pacing peaks at 11.5 GB, half of it garbage waiting for a
// cycle. Start keeps the headroom at most max(Headroom, live/10): GOGC
// stays 100 while the live heap is below Headroom and shrinks as it grows
// (never below 10). A user's GOGC is left alone.
package gcpace

import (
	"os"
	"runtime/debug"
	"runtime/metrics"
	"time"
)

// Headroom is the garbage a heap of any size may accumulate between
// cycles (at least a tenth of the live heap).
const Headroom = 1 << 30

// Percent is the GOGC that allows headroom bytes of garbage over live
// bytes: 100 below headroom, else 100·headroom/live, at least 10.
func Percent(live, headroom uint64) int {
	if live <= headroom {
		return 100
	}
	return max(10, int(100*headroom/live))
}

// Start adjusts GOGC to the live heap every interval until stop is
// called; it does nothing when the GOGC environment variable is set.
func Start(interval time.Duration) (stop func()) {
	if os.Getenv("GOGC") != "" {
		return func() {}
	}
	done := make(chan struct{})
	go func() {
		sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
		cur := 100
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
			}
			metrics.Read(sample)
			if sample[0].Value.Kind() != metrics.KindUint64 {
				return
			}
			if p := Percent(sample[0].Value.Uint64(), Headroom); p != cur {
				debug.SetGCPercent(p)
				cur = p
			}
		}
	}()
	return func() { close(done) }
}
