package planner

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/data/index"
)

// stopAfter is a context whose Err is nil for its first n calls and
// context.Canceled after: it ends at a chosen check, with no clock.
type stopAfter struct {
	context.Context
	n, calls atomic.Int64
}

func (c *stopAfter) Err() error {
	if c.calls.Add(1) > c.n.Load() {
		return context.Canceled
	}
	return nil
}

// TestCandidatesStopWithTheirContext: the planner checks its context on
// entry, before it executes each candidate plan and before each attribute
// twin, so a request that timed out stops inside the planner, not after
// it. The question has one candidate, so three checks; a context that ends
// at any of them gives context.Canceled and no candidates, and Predict and
// PlannedMethod.Rank under a cancelled context stop before the method they
// plan for runs.
func TestCandidatesStopWithTheirContext(t *testing.T) {
	p := directorFilmsPlanner(t)
	q := data.Query{Text: "What films directed by Paul Smith, released in 2007?"}
	all := &stopAfter{Context: context.Background()}
	all.n.Store(1 << 40)
	cs, _, err := p.Candidates(all, q)
	if err != nil {
		t.Fatal(err)
	}
	checks := all.calls.Load()
	if len(cs) != 1 || checks != 3 {
		t.Fatalf("%d candidates, %d context checks: want 1 and 3 (on entry, before the candidate, before its attribute twin)", len(cs), checks)
	}
	for n := range checks {
		c := &stopAfter{Context: context.Background()}
		c.n.Store(n)
		if cs, _, err := p.Candidates(c, q); !errors.Is(err, context.Canceled) || cs != nil {
			t.Errorf("context ending after %d of %d checks: %d candidates, err %v; want context.Canceled", n, checks, len(cs), err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := p.Predict(ctx, q); !errors.Is(err, context.Canceled) {
		t.Errorf("Predict under a cancelled context: %v", err)
	}
	ran := false
	m := &PlannedMethod{P: p, M: rankFunc(func() { ran = true })}
	if _, err := m.Rank(ctx, q); !errors.Is(err, context.Canceled) || ran {
		t.Errorf("PlannedMethod.Rank under a cancelled context: err %v, wrapped method ran %v", err, ran)
	}
}

// rankFunc is a method that notes it ran and ranks nothing.
type rankFunc func()

func (f rankFunc) Name() string { return "note" }

func (f rankFunc) Rank(context.Context, data.Query) ([]index.Hit, error) {
	f()
	return nil, nil
}
