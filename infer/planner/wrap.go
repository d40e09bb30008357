package planner

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"path/filepath"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/data/index"
	"github.com/strata-retrieval/strata/graphops/workspace"
	"github.com/strata-retrieval/strata/infer"
)

var (
	_ infer.FallbackCounter = (*PlannedMethod)(nil)
	_ infer.FallbackCounter = (*FilePlanned)(nil)
)

// PlannedMethod runs a method with the plans of a planner: each query's
// plan is predicted and passed on (q.Plan), so any method that follows a
// query's plan (plan-exec, mor-traversal, simgrag, sage-plan, MoR) plans
// with it.
type PlannedMethod struct {
	P Predictor
	M infer.Method
	// Text is the text channel the planner's training chose for the
	// queries no plan fits (nil: BM25); M answers its fallbacks with it
	// when it takes one (infer.TextFallback).
	Text infer.Method
}

var _ infer.PlanningMethod = (*PlannedMethod)(nil)

func (m *PlannedMethod) Name() string { return "planner+" + m.M.Name() }

// Planner is the method's planner (infer.PlanningMethod): what MoR and
// GRASP load a planner's run as (registry.LoadPlanner).
func (m *PlannedMethod) Planner() infer.Planner { return m.P }

func (m *PlannedMethod) Rank(ctx context.Context, q data.Query) ([]index.Hit, error) {
	pred, err := m.P.Predict(ctx, q)
	if err != nil {
		return nil, err
	}
	return m.M.Rank(ctx, pred.Apply(q))
}

// TakeFallbacks implements FallbackCounter (the wrapped method's count).
func (m *PlannedMethod) TakeFallbacks() int64 {
	if f, ok := m.M.(infer.FallbackCounter); ok {
		return f.TakeFallbacks()
	}
	return 0
}

// FallbackText names the wrapped method's fallback text channel.
func (m *PlannedMethod) FallbackText() string { return infer.FallbackText(m.M) }

// FallbackText names the wrapped method's fallback text channel.
func (m *FilePlanned) FallbackText() string { return infer.FallbackText(m.M) }

// FilePlanned runs a method with the plans of a plans file: each query's
// plan (an empty one for queries the file lacks) is passed on as q.Plan.
// With WS set, a query that reuses the id of a workspace question with
// other words gets an empty one too (workspace.Workspace.Keyed): the
// file's plans are keyed by the workspace's question ids.
type FilePlanned struct {
	Plans map[int]data.Plan
	M     infer.Method
	Label string
	WS    *workspace.Workspace
}

func (m *FilePlanned) Name() string { return cmp.Or(m.Label, m.M.Name()) }

func (m *FilePlanned) Rank(ctx context.Context, q data.Query) ([]index.Hit, error) {
	plan := m.Plans[q.ID]
	if m.WS != nil && !m.WS.Keyed(q) {
		plan = data.Plan{}
	}
	q.Plan, q.Reach = &plan, nil
	return m.M.Rank(ctx, q)
}

// TakeFallbacks implements FallbackCounter (the wrapped method's count).
func (m *FilePlanned) TakeFallbacks() int64 {
	if f, ok := m.M.(infer.FallbackCounter); ok {
		return f.TakeFallbacks()
	}
	return 0
}

// Plans says where plan-based methods take their plans: a trained planner
// (a checkpoint or run directory), or a plans file; neither leaves the
// query's own or the workspace's.
type Plans struct {
	Planner string
	File    string
	// Warn, when set, receives one line about the plans file's tolerated
	// problems (data.CheckPlans, lenient).
	Warn io.Writer
}

// Wrapper returns the function that makes a method plan as p says. Rows
// of a file of plans mined from the evaluated questions' own answers are
// labelled oracle.
func (p Plans) Wrapper(env *infer.Env) (func(infer.Method) infer.Method, error) {
	switch {
	case p.Planner != "" && p.File != "":
		return nil, fmt.Errorf("a planner and a plans file are exclusive")
	case p.Planner != "":
		pm, err := loadPlanned(env, p.Planner)
		if err != nil {
			return nil, err
		}
		return func(m infer.Method) infer.Method {
			return &PlannedMethod{P: pm.P, M: withText(m, pm.Text), Text: pm.Text}
		}, nil
	case p.File != "":
		path, err := env.Path(p.File) // in a bundle, its own copy
		if err != nil {
			return nil, err
		}
		plans, st, err := data.ReadPlans(path)
		if err != nil {
			return nil, err
		}
		warning, err := data.CheckPlans(path, data.ScopeOf(env.WS.SKB), data.Lenient)
		if err != nil {
			return nil, err
		}
		if warning != "" && p.Warn != nil {
			fmt.Fprintln(p.Warn, warning)
		}
		label := " [plans: " + filepath.Base(p.File) + "]"
		if st.Mined > 0 {
			label = " [oracle: plans mined from the answers]"
		}
		return func(m infer.Method) infer.Method {
			return &FilePlanned{Plans: plans, M: m, Label: m.Name() + label, WS: env.WS}
		}, nil
	}
	return func(m infer.Method) infer.Method { return m }, nil
}
