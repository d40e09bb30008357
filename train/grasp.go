package train

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/strata-retrieval/strata/checkpoints"
	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/eval"
	"github.com/strata-retrieval/strata/infer"
	"github.com/strata-retrieval/strata/infer/grasp"
	"github.com/strata-retrieval/strata/infer/registry"
	"github.com/strata-retrieval/strata/reranker"
)

// GraspOptions configures FitGrasp.
type GraspOptions struct {
	Config grasp.Config // where the branches come from (MFAR required)
	Run    Options      // RunDir: where the fitted model goes; Log: progress
	Split  string       // the split the fusions are fitted on, default "val"
	// Warn receives the note when the graph branch has no usable plan for
	// some validation queries (nil: silent).
	Warn io.Writer
}

// GraspResult is a fitted GRASP and its test rows.
type GraspResult struct {
	Config grasp.Config
	Test   []eval.Summary // graph only, mFAR, both fusions, stage 3 alone and fused
}

// FitGrasp fits GRASP's stage 2 (static and dynamic RRF of the graph
// branch with mFAR, by validation Hit@1 among settings that keep the
// validation Recall@20 of the better branch) and, with a stage-3 model,
// the static RRF of that model with stage 2 (by validation Hit@1). The
// fitted configuration is saved as a checkpoint of kind grasp in
// o.Run.RunDir, under the trainers' run-directory rules: a directory that
// already holds checkpoints is refused, never deleted. The test rows of
// GRASP's table are evaluated on the test split.
func FitGrasp(env *infer.Env, o GraspOptions) (*GraspResult, error) {
	cfg := o.Config
	ws := env.WS
	if cfg.MFAR == "" {
		return nil, fmt.Errorf("GRASP's text branch is an mFAR model (train it with strata train mfar)")
	}
	if cfg.Planner == "" && cfg.Plans == "" && len(ws.Plans) == 0 {
		return nil, fmt.Errorf("GRASP's graph branch executes plans, and this workspace has none: train a planner from mined plans (strata mine-plans, strata train planner) and pass --planner, or give a GRASP plans file with --plans")
	}
	if o.Split == "" {
		o.Split = data.SplitVal
	}
	if err := checkRunDir(o.Run.RunDir); err != nil {
		return nil, err
	}
	logf(o.Run.Log, "loading mFAR and the graph branch\n")
	g, text, err := grasp.Parts(env, cfg)
	if err != nil {
		return nil, err
	}
	// Every fusion below reuses each query's two branches.
	g.Memoize()
	text = &grasp.Memo{M: text}
	vqs, err := ws.SKB.QA.Split(o.Split)
	if err != nil {
		return nil, err
	}
	logf(o.Run.Log, "running both branches on %d %s queries\n", len(vqs), o.Split)
	ex, err := grasp.FusionExamples(env.Ctx, g, text, vqs)
	if err != nil {
		return nil, err
	}
	warnNoTrade(o.Warn, ex)
	cfg.Static = reranker.SearchStatic(ex, cfg.Grid)
	cfg.Dynamic = reranker.SearchDynamic(ex, cfg.Grid)
	cfg.Choice = cfg.Static
	if cfg.Dynamic.ValHit1 > cfg.Static.ValHit1 {
		cfg.Choice = cfg.Dynamic
	}
	stage2 := &grasp.Fused{G: g, Text: text, Choice: cfg.Choice}
	var s3 infer.Method
	if cfg.Stage3 != "" {
		if s3, err = registry.Load(env, cfg.Stage3); err != nil {
			return nil, err
		}
		s3 = &grasp.Memo{M: s3}
		logf(o.Run.Log, "fitting the fusion of stage 3 with stage 2 on %s\n", o.Split)
		ex3, err := grasp.FusionExamples(env.Ctx, &grasp.RankerBranch{M: s3}, stage2, vqs)
		if err != nil {
			return nil, err
		}
		cfg.Stage3Choice = reranker.SearchStaticHit1(ex3, cfg.Grid)
	}
	if err := saveGrasp(o.Run, ws.Fingerprint, cfg); err != nil {
		return nil, err
	}
	rows := []infer.Method{named{g, "graph only (GRASP w/o RR & FS)"}, named{text, "mfar"},
		named{&grasp.Fused{G: g, Text: text, Choice: cfg.Static}, "fused static (w/o RR)"},
		named{&grasp.Fused{G: g, Text: text, Choice: cfg.Dynamic}, "fused dynamic (w/o RR)"}}
	if s3 != nil {
		rows = append(rows, named{s3, "stage 3 alone (" + s3.Name() + ")"},
			named{&grasp.Fused{G: g, Text: text, Choice: cfg.Choice, Stage3: s3, Stage3Choice: cfg.Stage3Choice}, "fused + stage 3 (" + s3.Name() + ")"})
	}
	res := &GraspResult{Config: cfg}
	for _, r := range rows {
		s, err := SplitSummary(env.Ctx, ws, r, data.SplitTest)
		if err != nil {
			return nil, err
		}
		res.Test = append(res.Test, s)
	}
	return res, nil
}

// named relabels a method for a results table.
type named struct {
	infer.Method
	label string
}

func (n named) Name() string { return n.label }

// warnNoTrade reports validation queries the graph branch had no plan for.
func warnNoTrade(w io.Writer, ex []reranker.FusionExample) {
	noTrade := 0
	for _, e := range ex {
		if e.Risk == data.RiskNoTrade {
			noTrade++
		}
	}
	if w == nil || noTrade == 0 {
		return
	}
	warn := ""
	if 2*noTrade > len(ex) {
		warn = "WARNING: "
	}
	fmt.Fprintf(w, "%sGRASP's graph branch: %d of %d val queries have no usable plan (no_trade: mFAR alone ranks them)\n", warn, noTrade, len(ex))
}

// checkRunDir refuses a run directory that already holds checkpoints (the
// trainers' rule: nothing the user named is deleted).
func checkRunDir(dir string) error {
	cks, err := checkpoints.List(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if len(cks) > 0 {
		return fmt.Errorf("%s already holds checkpoints (choose another --out)", dir)
	}
	return nil
}

// saveGrasp writes the fitted configuration as the run's only checkpoint
// and points best at it.
func saveGrasp(run Options, fingerprint string, cfg grasp.Config) error {
	raw, err := json.Marshal(map[string]any{"model": cfg})
	if err != nil {
		return err
	}
	ck := &checkpoints.Checkpoint{Manifest: checkpoints.Manifest{Kind: grasp.Kind, Config: raw, DataFingerprint: fingerprint,
		Metrics: map[string]float64{"val/hit@1": cfg.Choice.ValHit1}}}
	if err := checkpoints.Save(filepath.Join(run.RunDir, checkpoints.StepDir(0)), ck); err != nil {
		return err
	}
	return checkpoints.SetBest(run.RunDir, checkpoints.StepDir(0))
}
