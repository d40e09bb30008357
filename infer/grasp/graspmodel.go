package infer

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/graphops/workspace"
	"github.com/strata-retrieval/strata/reranker"
)

// GraspConfig is a saved GRASP stage 2: where its plans and its text branch
// come from, and the fusion chosen on validation.
type GraspConfig struct {
	MFAR    string                `json:"mfar"`              // mFAR run or checkpoint (absolute)
	Planner string                `json:"planner,omitempty"` // planner checkpoint, or
	Plans   string                `json:"plans,omitempty"`   // a GRASP plans file
	Choice  reranker.FusionChoice `json:"choice"`
	Static  reranker.FusionChoice `json:"static"`
	Dynamic reranker.FusionChoice `json:"dynamic"`
	// Stage3 is a reranker model (CoR, MoR, ...) fused with stage 2 by
	// static RRF with Stage3Choice.
	Stage3       string                `json:"stage3,omitempty"`
	Stage3Choice reranker.FusionChoice `json:"stage3_choice,omitempty"`
}

// GraspParts loads the two branches of a GRASP configuration.
func GraspParts(ctx context.Context, ws *workspace.Workspace, cfg GraspConfig, ignoreFingerprint bool) (*GraspGraph, Method, error) {
	text, err := LoadModelOpts(ws, cfg.MFAR, ignoreFingerprint)
	if err != nil {
		return nil, nil, fmt.Errorf("GRASP's mFAR %s: %w", cfg.MFAR, err)
	}
	var plans GraspPlanSource
	switch {
	case cfg.Plans != "":
		ps, st, err := data.ReadGraspPlans(cfg.Plans, &ws.SKB.Schema)
		if err != nil {
			return nil, nil, err
		}
		_ = st
		plans = GraspPlansFromFile(ps)
	case cfg.Planner != "":
		pm, err := LoadModelOpts(ws, cfg.Planner, ignoreFingerprint)
		if err != nil {
			return nil, nil, fmt.Errorf("GRASP's planner %s: %w", cfg.Planner, err)
		}
		pt, ok := pm.(*PlannedTraversal)
		if !ok {
			return nil, nil, fmt.Errorf("%s is not a planner", cfg.Planner)
		}
		plans = GraspPlansFromPlanner(pt.Planner)
	default:
		plans = func(q data.Query) (data.GraspPlan, error) {
			p, ok := ws.Plans[q.ID]
			if q.Plan != nil {
				p, ok = *q.Plan, true
			}
			if !ok {
				return data.GraspPlan{RiskLevel: data.RiskNoTrade}, nil
			}
			return data.PlanToGrasp(p, data.RiskNormal, ws.Graph.Resolver()), nil
		}
	}
	d, err := LoadDense(ws)
	if err != nil {
		return nil, nil, err
	}
	g, err := NewGraspGraph(ctx, ws, d, plans)
	if err != nil {
		return nil, nil, err
	}
	return g, text, nil
}

func loadGrasp(ws *workspace.Workspace, dir string, raw json.RawMessage, ignoreFingerprint bool) (Method, error) {
	var cfg GraspConfig
	if err := json.Unmarshal(raw, &cfg); err != nil {
		return nil, fmt.Errorf("%s: GRASP config: %w", dir, err)
	}
	for _, p := range []*string{&cfg.MFAR, &cfg.Planner, &cfg.Plans, &cfg.Stage3} {
		if *p != "" && !filepath.IsAbs(*p) {
			*p = filepath.Join(dir, *p)
		}
	}
	g, text, err := GraspParts(context.Background(), ws, cfg, ignoreFingerprint)
	if err != nil {
		return nil, err
	}
	f := &GraspFused{G: g, Text: text, Choice: cfg.Choice, Stage3Choice: cfg.Stage3Choice}
	if cfg.Stage3 != "" {
		if f.Stage3, err = LoadModelOpts(ws, cfg.Stage3, ignoreFingerprint); err != nil {
			return nil, fmt.Errorf("GRASP's stage 3 %s: %w", cfg.Stage3, err)
		}
	}
	return f, nil
}
