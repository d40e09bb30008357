package eval

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/data/index"
)

// Ranker scores candidates for one query. The ranking may be partial; see
// Evaluator.Query for how unscored candidates are placed.
type Ranker interface {
	Rank(ctx context.Context, q data.Query) ([]index.Hit, error)
}

// RunOptions controls Run.
type RunOptions struct {
	Workers  int                   // 0 means all cores
	Progress func(done, total int) // called as queries finish; may be nil
}

// Run ranks and scores every query, in parallel, and returns the per-query
// results in query order. The first error (by query order) stops the run.
func Run(ctx context.Context, ev *Evaluator, queries []data.Query, r Ranker, opt RunOptions) ([]QueryResult, error) {
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	results := make([]QueryResult, len(queries))
	errs := make([]error, len(queries))
	var next, done atomic.Int64
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= len(queries) || ctx.Err() != nil {
					return
				}
				ranking, err := r.Rank(ctx, queries[i])
				if err != nil {
					errs[i] = fmt.Errorf("query %d: %w", queries[i].ID, err)
					cancel()
					return
				}
				results[i] = ev.Query(ranking, queries[i].Answers)
				d := int(done.Add(1))
				if opt.Progress != nil {
					opt.Progress(d, len(queries))
				}
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return results, nil
}
