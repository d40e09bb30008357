package planner

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/data/index"
	"github.com/strata-retrieval/strata/infer"
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
// entry, before it scores each template's anchors, before it executes
// each candidate plan and before each attribute twin, so a request that
// timed out stops inside the planner, not after it. The planner has one
// template and the question one candidate, so four checks; a context that ends
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
	if len(p.Cfg.Templates) != 1 || len(cs) != 1 || checks != 4 {
		t.Fatalf("%d templates, %d candidates, %d context checks: want 1, 1 and 4 (on entry, before the template, before the candidate, before its attribute twin)", len(p.Cfg.Templates), len(cs), checks)
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

// TestPredictTooLong: a question of MaxPlanWords words is planned; one
// word more and the planner plans nothing (TooLong, no template), gated
// or not, so the text channel answers it and planning a request costs at
// most what a question of MaxPlanWords words costs.
func TestPredictTooLong(t *testing.T) {
	p := directorFilmsPlanner(t)
	base := "What films directed by Paul Smith, released in 2007?" // 9 words
	pad := strings.Repeat(" film", MaxPlanWords-9)
	for _, c := range []struct {
		text string
		long bool
	}{
		{base, false},
		{base + pad, false},
		{base + pad + " film", true},
		{base + pad + " 2007-film", true}, // "2007" and "film": two words
	} {
		if got := tooLong(c.text); got != c.long {
			t.Errorf("tooLong(%d words) = %v, want %v", len(strings.Fields(c.text)), got, c.long)
		}
		for name, predict := range map[string]func(context.Context, data.Query) (infer.PlanPrediction, error){"Predict": p.Predict, "PredictUngated": p.PredictUngated} {
			pred, err := predict(context.Background(), data.Query{Text: c.text})
			if err != nil {
				t.Fatal(err)
			}
			if pred.TooLong != c.long || (pred.Template < 0) != c.long {
				t.Errorf("%s(%d words): TooLong %v, template %d", name, len(strings.Fields(c.text)), pred.TooLong, pred.Template)
			}
		}
	}
}
