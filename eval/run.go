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

// BatchRanker is a Ranker that ranks a batch of queries faster than one
// at a time (its dense searches batched into one GEMM per index, say).
// RankBatch returns one ranking per query, each the one Rank returns.
type BatchRanker interface {
	Ranker
	RankBatch(ctx context.Context, qs []data.Query) ([][]index.Hit, error)
}

// BatchSize is the number of queries Run hands a BatchRanker at once.
const BatchSize = 256

// RunOptions controls Run.
type RunOptions struct {
	Workers  int                   // 0 means all cores
	Progress func(done, total int) // called as queries finish; may be nil
}

// Run ranks and scores every query, in parallel, and returns the per-query
// results in query order. The first error (by query order) stops the run.
//
// A BatchRanker gets the queries in batches of BatchSize (it parallelises
// within a batch); the results are the same.
func Run(ctx context.Context, ev *Evaluator, queries []data.Query, r Ranker, opt RunOptions) ([]QueryResult, error) {
	if br, ok := r.(BatchRanker); ok {
		return runBatches(ctx, ev, queries, br, opt)
	}
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

func runBatches(ctx context.Context, ev *Evaluator, queries []data.Query, r BatchRanker, opt RunOptions) ([]QueryResult, error) {
	results := make([]QueryResult, len(queries))
	for lo := 0; lo < len(queries); lo += BatchSize {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		hi := min(lo+BatchSize, len(queries))
		rankings, err := r.RankBatch(ctx, queries[lo:hi])
		if err != nil {
			return nil, fmt.Errorf("queries %d-%d (ids %d-%d): %w", lo, hi-1, queries[lo].ID, queries[hi-1].ID, err)
		}
		if len(rankings) != hi-lo {
			return nil, fmt.Errorf("queries %d-%d: %d rankings for %d queries", lo, hi-1, len(rankings), hi-lo)
		}
		for i, ranking := range rankings {
			results[lo+i] = ev.Query(ranking, queries[lo+i].Answers)
		}
		if opt.Progress != nil {
			opt.Progress(hi, len(queries))
		}
	}
	return results, nil
}
