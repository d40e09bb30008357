package planner

import (
	"fmt"

	"github.com/strata-retrieval/strata/infer"
	"github.com/strata-retrieval/strata/infer/registry"
	"github.com/strata-retrieval/strata/models"
)

// Kind is the checkpoint kind of a planner.
const Kind = infer.KindPlanner

func init() {
	registry.Register(Kind, func(env *infer.Env, ck *registry.Checkpoint) (infer.Method, error) {
		var cfg Config
		if err := ck.DecodeConfig("planner", &cfg); err != nil {
			return nil, err
		}
		p, err := FromCheckpoint(env, ck, cfg, false)
		if err != nil {
			return nil, err
		}
		// A planner serves its plans executed (plan-exec): the row its
		// checkpoints are selected by.
		// (infer/baseline's, by its registered name).
		m, err := registry.NewMethod(env, "plan-exec")
		if err != nil {
			return nil, err
		}
		t, err := textChannel(env, ck, cfg)
		if err != nil {
			return nil, err
		}
		return &PlannedMethod{P: p, M: withText(m, t), Text: t}, nil
	})
}

// textChannel loads the text channel the planner's training chose for the
// queries no plan fits (Config.Text; nil, BM25, when it names none), on
// the dense vectors it was chosen with.
func textChannel(env *infer.Env, ck *registry.Checkpoint, cfg Config) (infer.Method, error) {
	if cfg.Text == "" {
		return nil, nil
	}
	if cfg.TextDense != "" {
		d, err := env.Dense()
		if err != nil {
			return nil, fmt.Errorf("%s answers the queries no plan fits with %s: %w", ck.Dir, cfg.Text, err)
		}
		if err := ck.CheckDense(env, d, cfg.TextDense); err != nil {
			return nil, err
		}
	}
	t, err := registry.NewMethod(env, cfg.Text)
	if err != nil {
		return nil, fmt.Errorf("%s: text channel: %w", ck.Dir, err)
	}
	return t, nil
}

// withText gives m the text channel t for its fallbacks when m takes one
// (infer.TextFallback: plan-exec); a nil t leaves m as it is.
func withText(m, t infer.Method) infer.Method {
	if t == nil {
		return m
	}
	if tf, ok := m.(infer.TextFallback); ok {
		return tf.WithText(t)
	}
	return m
}

// FromCheckpoint builds the planner a checkpoint holds (a planner's, or a
// KGQA model's, whose planner always reads the dense channel).
func FromCheckpoint(env *infer.Env, ck *registry.Checkpoint, cfg Config, needDense bool) (Predictor, error) {
	if cfg.Members < 0 {
		return nil, fmt.Errorf("%s: planner members %d", ck.Dir, cfg.Members)
	}
	var want []models.NamedShape
	for k := range max(cfg.Members, 1) {
		want = append(want, models.GateShapes(cfg.Gate, MemberPrefix(k))...)
	}
	if a := cfg.Anchors; a != nil {
		want = append(want, models.SparseLinearShapes(a.Dim, "planner.anchor")...)
		if a.RankDim > 0 {
			want = append(want, models.SparseLinearShapes(a.RankDim, "planner.ranker")...)
		}
		if a.Fit != nil {
			want = append(want, models.SparseLinearShapes(a.Fit.Dim, "planner.fit")...)
		}
	}
	if err := ck.CheckShapes(want); err != nil {
		return nil, err
	}
	gate, more, err := NewGates(cfg, 0)
	if err != nil {
		return nil, err
	}
	for _, g := range append([]*models.Gate{gate}, more...) {
		if err := ck.LoadParams(g.Params()); err != nil {
			return nil, err
		}
	}
	var d *infer.DenseChannel
	if cfg.QueryDim > 0 || needDense {
		if d, err = env.Dense(); err != nil {
			return nil, err
		}
		if err := ck.CheckDense(env, d, cfg.Dense); err != nil {
			return nil, err
		}
	}
	if cfg.Anchors == nil {
		p, err := NewTemplatePlanner(env.WS, d, cfg, gate)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", ck.Dir, err)
		}
		p.More = more
		return p, nil
	}
	anchor, err := models.NewSparseLinear(cfg.Anchors.Dim, "planner.anchor")
	if err != nil {
		return nil, fmt.Errorf("%s: %w", ck.Dir, err)
	}
	if err := ck.LoadParams(anchor.Params()); err != nil {
		return nil, err
	}
	var ranker *models.SparseLinear
	if cfg.Anchors.RankDim > 0 {
		if ranker, err = models.NewSparseLinear(cfg.Anchors.RankDim, "planner.ranker"); err != nil {
			return nil, fmt.Errorf("%s: %w", ck.Dir, err)
		}
		if err := ck.LoadParams(ranker.Params()); err != nil {
			return nil, err
		}
	}
	p, err := NewLinkingPlanner(env.WS, d, cfg, gate, anchor, ranker)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", ck.Dir, err)
	}
	p.More = more
	if f := cfg.Anchors.Fit; f != nil {
		if p.Fit, err = models.NewSparseLinear(f.Dim, "planner.fit"); err != nil {
			return nil, fmt.Errorf("%s: %w", ck.Dir, err)
		}
		if err := ck.LoadParams(p.Fit.Params()); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// Load loads a planner checkpoint (or run) through the registry.
func Load(env *infer.Env, dir string) (Predictor, error) {
	pm, err := loadPlanned(env, dir)
	if err != nil {
		return nil, err
	}
	return pm.P, nil
}

// loadPlanned loads a planner's checkpoint or run as the method it serves.
func loadPlanned(env *infer.Env, dir string) (*PlannedMethod, error) {
	m, err := registry.Load(env, dir)
	if err != nil {
		return nil, err
	}
	pm, ok := m.(*PlannedMethod)
	if !ok {
		return nil, fmt.Errorf("%s is not a planner (it serves %s)", dir, m.Name())
	}
	return pm, nil
}
