package train

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

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
	// Rule selects the fusions on validation: reranker.RuleHit1 (GRASP's,
	// the default) or reranker.RuleRecallFloor. The other rule's choice is
	// reported beside it.
	Rule string
	// Warn receives the note when the graph branch has no usable plan for
	// some validation queries (nil: silent).
	Warn io.Writer
}

// GraspResult is a fitted GRASP and its test rows.
type GraspResult struct {
	Config grasp.Config
	// Other is the choice the other selection rule makes (for comparison).
	Other reranker.FusionChoice
	// Cells counts the validation queries per n_cand bucket and risk level
	// under the dynamic fusion's calibration (GRASP's Figure 2); row reranker.NumBuckets
	// holds the queries without a usable plan.
	Cells [][]int
	Test  []eval.Summary // graph only, mFAR, fusions, stage 3 alone and fused
}

// FitGrasp fits GRASP's stage 2 (static and dynamic RRF of the graph
// branch with mFAR over GRASP's grids, by validation Hit@1 or the rule
// o.Rule names; the dynamic search also calibrates the risk levels of the
// planner's plans from its confidence) and, with a stage-3 model, the
// static RRF of the stage-3 ranking with stage 2 (by validation Hit@1).
// Stage 3 reranks stage 2's top 100 when the model can rerank a pool
// (infer.Reranker), else fuses the model's own ranking; Config.Stage3Mode
// forces one. The fitted configuration is saved as a checkpoint of kind
// grasp in o.Run.RunDir, under the trainers' run-directory rules: a
// directory that already holds checkpoints is refused, never deleted. The
// test rows of GRASP's table are evaluated on the test split.
func FitGrasp(env *infer.Env, o GraspOptions) (*GraspResult, error) {
	cfg := o.Config
	ws := env.WS
	if cfg.MFAR == "" {
		return nil, fmt.Errorf("GRASP's text branch is an mFAR model (train it with strata train mfar)")
	}
	if cfg.Planner == "" && cfg.Plans == "" && len(ws.Plans) == 0 {
		return nil, fmt.Errorf("GRASP's graph branch executes plans, and this workspace has none: train a planner from mined plans (strata mine-plans, strata train planner) and pass --planner, or give a GRASP plans file with --plans")
	}
	o.Split = cmp.Or(o.Split, data.SplitVal)
	o.Rule = cmp.Or(o.Rule, reranker.RuleHit1)
	if o.Rule != reranker.RuleHit1 && o.Rule != reranker.RuleRecallFloor {
		return nil, fmt.Errorf("fusion rule %q: want %s or %s", o.Rule, reranker.RuleHit1, reranker.RuleRecallFloor)
	}
	if err := cfg.Grid.Check(); err != nil {
		return nil, err
	}
	saved, err := graspResumePoint(o.Run)
	if err != nil {
		return nil, err
	}
	logf(o.Run.Log, "loading mFAR and the graph branch\n")
	g, text, err := grasp.Parts(env, cfg)
	if err != nil {
		return nil, err
	}
	var stage3 *grasp.Memo
	if cfg.Stage3 != "" {
		s3, err := registry.Load(env, cfg.Stage3)
		if err != nil {
			return nil, fmt.Errorf("GRASP's stage 3 %s: %w", cfg.Stage3, err)
		}
		stage3 = &grasp.Memo{M: s3}
		if cfg.Stage3Mode == grasp.Stage3Rerank && !stage3.CanRerank() {
			return nil, fmt.Errorf("GRASP's stage 3 %s cannot rerank a pool (use stage-3 mode %s)", cfg.Stage3, grasp.Stage3Independent)
		}
	}
	// Every fusion below reuses each query's two branches.
	g.Memoize()
	textMemo := &grasp.Memo{M: text}
	text = textMemo
	vqs, err := ws.SKB.QA.Split(o.Split)
	if err != nil {
		return nil, err
	}
	tqs, err := ws.SKB.QA.Split(data.SplitTest)
	if err != nil {
		return nil, err
	}
	if err := textMemo.Prefetch(env.Ctx, append(slices.Clip(vqs), tqs...)); err != nil {
		return nil, err
	}
	logf(o.Run.Log, "running both branches on %d %s queries\n", len(vqs), o.Split)
	ex, err := grasp.FusionExamples(env.Ctx, g, text, vqs)
	if err != nil {
		return nil, err
	}
	warnNoTrade(o.Warn, ex)
	logf(o.Run.Log, "searching GRASP's static and dynamic RRF grids\n")
	pick := func(rule string) (st, dy, ch reranker.FusionChoice) {
		st, dy = reranker.SearchStatic(ex, cfg.Grid, rule), reranker.SearchDynamic(ex, cfg.Grid, rule)
		ch = st
		if dy.ValHit1 > st.ValHit1 {
			ch = dy
		}
		return st, dy, ch
	}
	res := &GraspResult{}
	cfg.Static, cfg.Dynamic, cfg.Choice = pick(o.Rule)
	other := reranker.RuleRecallFloor
	if o.Rule == reranker.RuleRecallFloor {
		other = reranker.RuleHit1
	}
	_, _, res.Other = pick(other)
	res.Cells = cells(ex, cfg.Dynamic)
	stage2 := &grasp.Fused{G: g, Text: text, Choice: cfg.Choice}
	rows := []infer.Method{named{g, "graph only (GRASP w/o RR & FS)"}, named{text, "mfar"},
		named{&grasp.Fused{G: g, Text: text, Choice: cfg.Static}, "fused static (w/o RR)"},
		named{&grasp.Fused{G: g, Text: text, Choice: cfg.Dynamic}, "fused dynamic (w/o RR)"},
		named{&grasp.Fused{G: g, Text: text, Choice: res.Other}, "fused " + res.Other.Mode + ", rule " + other + " (w/o RR)"}}
	if stage3 != nil {
		s3rows, err := fitStage3(env, o, &cfg, stage3, stage2, vqs)
		if err != nil {
			return nil, err
		}
		rows = append(rows, s3rows...)
	}
	if saved == nil {
		if err := saveGrasp(o.Run, ws.Fingerprint, cfg); err != nil {
			return nil, err
		}
	} else if err := sameGraspFit(o.Run.RunDir, ws.Fingerprint, saved, cfg); err != nil {
		return nil, err
	}
	res.Config = cfg
	for _, r := range rows {
		s, err := SplitSummary(env.Ctx, ws, r, data.SplitTest)
		if err != nil {
			return nil, err
		}
		res.Test = append(res.Test, s)
	}
	return res, nil
}

// fitStage3 fits the static RRF of stage 3 with stage 2 in cfg's mode
// (rerank when the model can, else independent) and returns the rows of
// stage 3: alone and fused in that mode, and fused in the other mode when
// the model can do both.
func fitStage3(env *infer.Env, o GraspOptions, cfg *grasp.Config, stage3 *grasp.Memo, stage2 *grasp.Fused, vqs []data.Query) ([]infer.Method, error) {
	s3 := stage3
	canRerank := s3.CanRerank()
	modes := []string{grasp.Stage3Independent}
	switch {
	case cfg.Stage3Mode == grasp.Stage3Rerank && !canRerank:
		return nil, fmt.Errorf("GRASP's stage 3 %s cannot rerank a pool (use stage-3 mode %s)", cfg.Stage3, grasp.Stage3Independent)
	case cfg.Stage3Mode == "" && canRerank, cfg.Stage3Mode == grasp.Stage3Rerank:
		modes = []string{grasp.Stage3Rerank, grasp.Stage3Independent}
	case cfg.Stage3Mode != "" && cfg.Stage3Mode != grasp.Stage3Independent:
		return nil, fmt.Errorf("stage-3 mode %q: want %s or %s", cfg.Stage3Mode, grasp.Stage3Rerank, grasp.Stage3Independent)
	}
	cfg.Stage3Mode = modes[0]
	pool := cmp.Or(cfg.Stage3Pool, grasp.DefaultStage3Pool)
	var rows []infer.Method
	for i, mode := range modes {
		logf(o.Run.Log, "fitting the fusion of stage 3 (%s, %s) with stage 2 on %s\n", s3.Name(), mode, o.Split)
		branch := &grasp.Stage3Branch{Stage2: stage2, S3: s3, Mode: mode, Pool: pool}
		ex3, err := grasp.FusionExamples(env.Ctx, branch, stage2, vqs)
		if err != nil {
			return nil, err
		}
		choice := reranker.SearchStatic(ex3, cfg.Grid, reranker.RuleHit1)
		what := fmt.Sprintf("stage 2 top %d reranked by %s", pool, s3.Name())
		if mode == grasp.Stage3Independent {
			what = "independent " + s3.Name() + " ranking"
		}
		if i == 0 {
			cfg.Stage3Choice = choice
			rows = append(rows, named{branch, "stage 3 alone (" + what + ")"})
		}
		rows = append(rows, named{&grasp.Fused{G: stage2.G, Text: stage2.Text, Choice: stage2.Choice, Stage3: s3, Stage3Mode: mode,
			Stage3Pool: pool, Stage3Choice: choice}, "fused + stage 3 (" + what + ", RRF)"})
	}
	return rows, nil
}

// cells counts examples per n_cand bucket and risk level under c.
func cells(ex []reranker.FusionExample, c reranker.FusionChoice) [][]int {
	out := make([][]int, reranker.NumBuckets+1)
	for i := range out {
		out[i] = make([]int, len(data.RiskLevels))
	}
	for _, e := range ex {
		r := slices.Index(data.RiskLevels, c.RiskLevel(e.Meta))
		b := reranker.Bucket(e.Meta.NCand)
		if len(e.Graph) == 0 {
			b = reranker.NumBuckets
		}
		if r >= 0 {
			out[b][r]++
		}
	}
	return out
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
		if e.Meta.Risk == data.RiskNoTrade {
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

// graspResumePoint checks the run directory before a fit: one without
// checkpoints is fitted into; one that holds checkpoints is refused
// (checkRunDir) but, with --resume (run.Resume), one that holds a GRASP
// fit a run saved before it stopped (killed before it was evaluated and
// served): its checkpoint's manifest is returned, to be compared with the
// fit again (the fit is deterministic) instead of written over.
func graspResumePoint(run Options) (*checkpoints.Manifest, error) {
	if !run.Resume {
		return nil, checkRunDir(run.RunDir)
	}
	cks, err := checkpoints.List(run.RunDir)
	if errors.Is(err, os.ErrNotExist) || err == nil && len(cks) == 0 {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	m, err := checkpoints.ReadManifest(filepath.Join(run.RunDir, checkpoints.StepDir(0)))
	if err != nil {
		return nil, fmt.Errorf("--resume: %s holds no GRASP fit to finish: %w", run.RunDir, err)
	}
	if m.Kind != grasp.Kind {
		return nil, fmt.Errorf("--resume: %s holds a %s run, not a GRASP fit (choose another --out)", run.RunDir, m.Kind)
	}
	return m, nil
}

// sameGraspFit reports an error unless cfg, fitted again on a resumed run,
// is the fit saved there (m): the same data and the same configuration,
// byte for byte; a fit that differs (other inputs, flags or data) is
// refused, never written over the saved one.
func sameGraspFit(dir, fingerprint string, m *checkpoints.Manifest, cfg grasp.Config) error {
	if m.DataFingerprint != fingerprint {
		return fmt.Errorf("--resume: %s was fitted on other data (fingerprint %s, the workspace's %s); choose another --out", dir, m.DataFingerprint, fingerprint)
	}
	raw, err := json.Marshal(map[string]any{"model": cfg})
	if err != nil {
		return err
	}
	// The manifest is written indented: compare compact forms.
	var a, b bytes.Buffer
	if err := json.Compact(&a, raw); err != nil {
		return err
	}
	if err := json.Compact(&b, m.Config); err != nil {
		return fmt.Errorf("--resume: %s: the saved fit's configuration: %w", dir, err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		return fmt.Errorf("--resume: the fit differs from the one saved in %s (other inputs or flags: saved %s, now %s); choose another --out", dir, clipConfig(m.Config), clipConfig(raw))
	}
	return nil
}

// clipConfig shortens a configuration quoted in an error (whole UTF-8
// characters only: a path in it may have others than ASCII).
func clipConfig(b []byte) string {
	if len(b) > 300 {
		return strings.ToValidUTF8(string(b[:300]), "") + "..."
	}
	return string(b)
}

// saveGrasp writes the fitted configuration as the run's only checkpoint
// and points best at it.
func saveGrasp(run Options, fingerprint string, cfg grasp.Config) error {
	raw, err := json.Marshal(map[string]any{"model": cfg})
	if err != nil {
		return err
	}
	// The val Hit@1 of what the checkpoint serves: stage 2, fused with
	// stage 3 when there is one.
	hit1 := cfg.Choice.ValHit1
	if cfg.Stage3 != "" {
		hit1 = cfg.Stage3Choice.ValHit1
	}
	ck := &checkpoints.Checkpoint{Manifest: checkpoints.Manifest{Kind: grasp.Kind, Config: raw, DataFingerprint: fingerprint,
		Metrics: map[string]float64{"val/hit@1": hit1}}}
	if err := checkpoints.Save(filepath.Join(run.RunDir, checkpoints.StepDir(0)), ck); err != nil {
		return err
	}
	return checkpoints.SetBest(run.RunDir, checkpoints.StepDir(0))
}
