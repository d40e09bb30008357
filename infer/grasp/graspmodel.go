package grasp

import (
	"cmp"
	"context"
	"fmt"
	"path/filepath"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/infer"
	"github.com/strata-retrieval/strata/infer/registry"
	"github.com/strata-retrieval/strata/reranker"
)

// Config is a saved GRASP stage 2: where its plans and its text branch
// come from, and the fusion chosen on validation.
type Config struct {
	MFAR    string                `json:"mfar"`              // mFAR run or checkpoint (absolute)
	Planner string                `json:"planner,omitempty"` // planner checkpoint, or
	Plans   string                `json:"plans,omitempty"`   // a GRASP plans file
	Choice  reranker.FusionChoice `json:"choice"`
	Static  reranker.FusionChoice `json:"static"`
	Dynamic reranker.FusionChoice `json:"dynamic"`
	// Stage3 is a reranker model (MoR, the LLM reranker, ...): in mode
	// rerank it reorders stage 2's top Stage3Pool (default 100), in mode
	// independent it ranks on its own; either ranking is fused with stage 2
	// by static RRF with Stage3Choice. Configurations saved before the mode
	// existed have none and mean independent.
	Stage3       string                `json:"stage3,omitempty"`
	Stage3Mode   string                `json:"stage3_mode,omitempty"`
	Stage3Pool   int                   `json:"stage3_pool,omitempty"`
	Stage3Choice reranker.FusionChoice `json:"stage3_choice,omitempty"`
	// Link sets anchor linking (zero: GRASP's K and τ per match mode).
	Link LinkConfig `json:"link,omitempty"`
	// ONNXEncoder is the sentence encoder (tokenizer.json, model.onnx)
	// anchors and relevance texts are embedded with; "" is the dense
	// channel's (see infer.TextSpace).
	ONNXEncoder string `json:"onnx_encoder,omitempty"`
	// Grid is the fusions' search space (zero: GRASP's grids).
	Grid reranker.Grid `json:"grid,omitempty"`
}

// Parts loads the two branches of a GRASP configuration through the
// registry: the text branch (mFAR) and the graph branch (plans from a file,
// a planner, or the workspace).
func Parts(env *infer.Env, cfg Config) (*Graph, infer.Method, error) {
	ws := env.WS
	text, err := registry.Load(env, cfg.MFAR)
	if err != nil {
		return nil, nil, fmt.Errorf("GRASP's mFAR %s: %w", cfg.MFAR, err)
	}
	var plans PlanSource
	switch {
	case cfg.Plans != "":
		path, err := env.Path(cfg.Plans)
		if err != nil {
			return nil, nil, fmt.Errorf("GRASP's plans: %w", err)
		}
		ps, _, err := data.ReadGraspPlans(path, &ws.SKB.Schema)
		if err != nil {
			return nil, nil, err
		}
		plans = PlansFromFile(ps)
	case cfg.Planner != "":
		p, err := registry.LoadPlanner(env, cfg.Planner)
		if err != nil {
			return nil, nil, fmt.Errorf("GRASP's planner %s: %w", cfg.Planner, err)
		}
		plans = PlansFromPlanner(p)
	default:
		plans = func(_ context.Context, q data.Query) (data.GraspPlan, float64, error) {
			p, ok := infer.PlanFor(ws, q)
			if !ok {
				return data.GraspPlan{RiskLevel: data.RiskNoTrade}, Declared, nil
			}
			return data.PlanToGrasp(p, data.RiskNormal, ws.Graph.Resolver()), Declared, nil
		}
	}
	space, err := env.TextSpace(cfg.ONNXEncoder)
	if err != nil {
		return nil, nil, fmt.Errorf("GRASP's text space: %w", err)
	}
	return NewGraph(ws, space, plans, cfg.Link), text, nil
}

// Kind is the checkpoint kind of a fitted GRASP stage 2 (and 3).
const Kind = infer.KindGrasp

var (
	_ infer.Method    = (*Fused)(nil)
	_ infer.Method    = (*Graph)(nil)
	_ infer.Explainer = (*Fused)(nil)
	_ infer.Reranker  = (*Memo)(nil)
)

func init() {
	registry.Register(Kind, func(env *infer.Env, ck *registry.Checkpoint) (infer.Method, error) {
		var cfg Config
		if err := ck.DecodeConfig("GRASP", &cfg); err != nil {
			return nil, err
		}
		for _, p := range []*string{&cfg.MFAR, &cfg.Planner, &cfg.Plans, &cfg.Stage3, &cfg.ONNXEncoder} {
			if *p != "" && !filepath.IsAbs(*p) {
				*p = filepath.Join(ck.Dir, *p)
			}
		}
		g, text, err := Parts(env, cfg)
		if err != nil {
			return nil, err
		}
		f := &Fused{G: g, Text: text, Choice: cfg.Choice, Stage3Choice: cfg.Stage3Choice,
			Stage3Mode: cmp.Or(cfg.Stage3Mode, Stage3Independent), Stage3Pool: cfg.Stage3Pool}
		if cfg.Stage3 != "" {
			if f.Stage3, err = registry.Load(env, cfg.Stage3); err != nil {
				return nil, fmt.Errorf("GRASP's stage 3 %s: %w", cfg.Stage3, err)
			}
		}
		return f, nil
	})
}
