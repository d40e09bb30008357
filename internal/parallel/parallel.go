// Package parallel runs index ranges on all cores.
package parallel

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
)

// Chunks calls fn(lo, hi) for consecutive chunks of [0, n) of the given
// size, on workers goroutines (0 means GOMAXPROCS). Chunks are handed out in
// order; fn must write only its own range. It stops handing out chunks once
// ctx is cancelled and then returns ctx.Err().
func Chunks(ctx context.Context, n, chunk, workers int, fn func(lo, hi int)) error {
	if chunk < 1 {
		chunk = 1
	}
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = min(workers, (n+chunk-1)/chunk)
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				lo := int(next.Add(int64(chunk))) - chunk
				if lo >= n {
					return
				}
				fn(lo, min(lo+chunk, n))
			}
		}()
	}
	wg.Wait()
	return ctx.Err()
}
