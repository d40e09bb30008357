// Package demo runs strata end to end on a generated benchmark, taking the
// path a real SKB takes: the workspace holds questions and answers only,
// plans are mined from the train and val answers, every model trains on
// the train split (the planner, MoR and GRASP from the mined plans) and the
// test split is evaluated; only the rows marked oracle use the generator's
// ground-truth plans.
package demo

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/data/synth"
	"github.com/strata-retrieval/strata/eval"
	"github.com/strata-retrieval/strata/gating"
	"github.com/strata-retrieval/strata/graphops/mine"
	"github.com/strata-retrieval/strata/graphops/workspace"
	"github.com/strata-retrieval/strata/infer"
	_ "github.com/strata-retrieval/strata/infer/all" // the named methods
	"github.com/strata-retrieval/strata/infer/baseline"
	"github.com/strata-retrieval/strata/infer/grasp"
	"github.com/strata-retrieval/strata/infer/pipeline"
	"github.com/strata-retrieval/strata/infer/planner"
	"github.com/strata-retrieval/strata/infer/registry"
	"github.com/strata-retrieval/strata/infer/traversal"
	"github.com/strata-retrieval/strata/internal/atomicfile"
	"github.com/strata-retrieval/strata/models"
	"github.com/strata-retrieval/strata/train"
)

// Options configures a demo run.
type Options struct {
	synth.Config
	Dir string // DIR/skb and DIR/workspace are replaced
	// Out receives a line per step (coverage table, training results);
	// Log, when set, progress of the long steps.
	Out, Log io.Writer
	Build    workspace.Progress
}

// Result is the demo's test table.
type Result struct {
	Workspace string
	Rows      []eval.Summary
}

// Run generates the benchmark, builds a workspace without its plans, mines
// plans, trains every model and evaluates the test split.
func Run(ctx context.Context, o Options) (*Result, error) {
	ws, truth, err := prepare(ctx, o)
	if err != nil {
		return nil, err
	}
	defer ws.Close()
	mined, err := minePlans(ctx, ws, o.Out)
	if err != nil {
		return nil, err
	}
	env := infer.NewEnv(ctx, ws)
	m, err := trainAll(env, o, mined)
	if err != nil {
		return nil, err
	}
	rows, err := rows(env, truth, m)
	if err != nil {
		return nil, err
	}
	return &Result{Workspace: ws.Dir, Rows: rows}, nil
}

// prepare writes the generated skbdir and builds a workspace of its
// questions and answers; the generator's plans are returned apart.
func prepare(ctx context.Context, o Options) (*workspace.Workspace, map[int]data.Plan, error) {
	skbDir, wsDir := filepath.Join(o.Dir, "skb"), filepath.Join(o.Dir, "workspace")
	for _, dir := range []string{skbDir, wsDir} {
		if err := replaceable(dir); err != nil {
			return nil, nil, err
		}
	}
	res, err := synth.Generate(o.Config)
	if err != nil {
		return nil, nil, err
	}
	if err := data.WriteSKBDir(skbDir, res.SKB, data.WriteOptions{Overwrite: true, Plans: res.Plans}); err != nil {
		return nil, nil, err
	}
	if err := markDemo(skbDir); err != nil {
		return nil, nil, err
	}
	qa := res.SKB.QA
	fmt.Fprintf(o.Out, "wrote %s: %d nodes, %d edges, %d queries (train %d, val %d, test %d)\n", skbDir,
		len(res.SKB.Nodes), res.SKB.Edges.Len(), len(qa.Queries), len(qa.Splits["train"]), len(qa.Splits["val"]), len(qa.Splits["test"]))
	skb, err := data.ReadSKBDir(skbDir)
	if err != nil {
		return nil, nil, err
	}
	truth, _, err := data.ReadPlans(filepath.Join(skbDir, data.PlansFile))
	if err != nil {
		return nil, nil, err
	}
	ws, err := workspace.Build(ctx, skb, nil, workspace.Config{}, o.Build)
	if err != nil {
		return nil, nil, err
	}
	if err := os.RemoveAll(wsDir); err != nil {
		ws.Close()
		return nil, nil, err
	}
	if err := ws.Save(wsDir); err != nil {
		ws.Close()
		return nil, nil, err
	}
	if err := markDemo(wsDir); err != nil {
		ws.Close()
		return nil, nil, err
	}
	fmt.Fprintf(o.Out, "built workspace %s: %s (the generator's plans are kept out of it)\n\n", wsDir, ws)
	return ws, truth, nil
}

// DemoMarker is the file a demo leaves in the skbdir and the workspace it
// writes; only a directory holding it is replaced by the next demo.
const DemoMarker = ".strata-demo"

// replaceable refuses to let a demo run replace dir unless it is absent,
// empty, or what an earlier demo wrote there (it holds DemoMarker): a
// directory of the user's own under --dir, a real workspace included, is
// never deleted.
func replaceable(dir string) error {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) || (err == nil && len(entries) == 0) {
		return nil
	}
	if err != nil {
		return err
	}
	if _, err := os.Stat(filepath.Join(dir, DemoMarker)); err == nil {
		return nil
	}
	return fmt.Errorf("%s exists and was not written by a demo (no %s): the demo replaces only its own output; choose another --dir", dir, DemoMarker)
}

// markDemo marks dir as a demo's output.
func markDemo(dir string) error {
	return os.WriteFile(filepath.Join(dir, DemoMarker), []byte("written by strata demo; the next demo replaces this directory\n"), 0o644)
}

// minePlans mines the train and val plans into the workspace's plans file and
// prints the coverage.
func minePlans(ctx context.Context, ws *workspace.Workspace, out io.Writer) (map[int]data.MinedPlanRecord, error) {
	var qs []data.Query
	for _, s := range []string{data.SplitTrain, data.SplitVal} {
		q, err := ws.SKB.QA.Split(s)
		if err != nil {
			return nil, err
		}
		qs = append(qs, q...)
	}
	recs, rep, err := mine.Plans(ctx, ws, qs, mine.Options{})
	if err != nil {
		return nil, err
	}
	if err := atomicfile.WriteFile(filepath.Join(ws.Dir, mine.DefaultFile), func(w io.Writer) error { return data.WriteJSONL(w, recs) }); err != nil {
		return nil, err
	}
	rep.Print(out)
	fmt.Fprintln(out)
	mined := map[int]data.MinedPlanRecord{}
	for _, r := range recs {
		mined[r.QID] = r
	}
	return mined, nil
}

// trained are the demo's models.
type trained struct {
	dense    *infer.DenseChannel
	cor, mor infer.Method
	planner  *planner.LinkingPlanner
	grasp    []eval.Summary // GRASP's test rows
}

// trainAll trains the encoder, CoR, the planner, MoR and mFAR and fits
// GRASP, each in WORKSPACE/runs/<name>.
func trainAll(env *infer.Env, o Options, mined map[int]data.MinedPlanRecord) (*trained, error) {
	ws, ctx := env.WS, env.Ctx
	run := func(name string) train.Options {
		return train.Options{RunDir: filepath.Join(ws.Dir, "runs", name), Fingerprint: ws.Fingerprint, Log: o.Log}
	}
	var t trained
	var err error
	if t.dense, _, err = train.Dense(ctx, ws, train.EncoderOptions{Train: train.Config{Epochs: 4, BatchSize: 128, LR: 1e-3, Seed: o.Seed}, Run: run("encoder")}); err != nil {
		return nil, err
	}
	env.SetDense(t.dense)
	var res *train.Result
	if t.cor, res, err = trainCoR(ctx, ws, t.dense, o.Seed, run("cor")); err != nil {
		return nil, err
	}
	fmt.Fprintf(o.Out, "trained CoR: best %s (val mrr %.4f)\n", res.Best, res.BestValue)
	// As strata train planner: the classifier leaves out the dense query
	// vector (--dense).
	pl, pres, pst, err := train.LinkingPlanner(ctx, ws, nil, train.LinkingPlannerOptions{Mined: mined,
		Train: train.Config{Epochs: 20, BatchSize: 64, LR: 3e-3, Seed: o.Seed}, Run: run("planner")})
	if err != nil {
		return nil, err
	}
	t.planner = pl
	fmt.Fprintf(o.Out, "trained the planner from %d mined train plans: %d templates, val plan-exec mrr %.4f, plan accuracy %.4f\n", pst.Used, len(pl.Cfg.Templates), pres.BestValue, pst.PlanAcc)
	if t.mor, _, err = train.MoR(ctx, ws, t.dense, pl, train.MoROptions{Plans: train.MinedPlans(mined, 0.5),
		Model: models.TrajectoryConfig{UseTF: true, UseSF: true, UseTI: true},
		Train: train.Config{Epochs: 10, BatchSize: 16, LR: 1e-3, Seed: o.Seed}, Run: run("mor"), PlannerDir: filepath.Join(ws.Dir, "runs", "planner", "best")}); err != nil {
		return nil, err
	}
	enc, err := infer.DenseTextEncoder(t.dense)
	if err != nil {
		return nil, err
	}
	if _, _, err := train.MFAR(ctx, ws, enc, train.MFAROptions{
		Train: train.Config{Epochs: 5, BatchSize: 32, LR: 1e-2, Seed: o.Seed}, Run: run("mfar"), Dense: t.dense.Meta.Hash}); err != nil {
		return nil, err
	}
	for _, name := range []string{"cor", "planner", "mor", "mfar"} {
		stage := pipeline.BestStage()
		if name == "planner" {
			stage = train.PlannerStage()
		}
		if err := served(env, o, filepath.Join(ws.Dir, "runs", name), name, stage); err != nil {
			return nil, err
		}
	}
	return &t, fitGrasp(env, o, &t, run("grasp"))
}

// served writes a run's pipeline, evaluates it from disk on val as strata
// score would serve it, and says so; a run that serves other numbers than
// its best checkpoint recorded is an error.
func served(env *infer.Env, o Options, runDir, name string, stage pipeline.Stage) error {
	s, err := train.WriteServed(env, runDir, name, stage, data.SplitVal)
	if err != nil {
		return err
	}
	fmt.Fprintf(o.Out, "runs/%s serves %s: val %s\n", name, s.Row, s.Summary)
	return nil
}

func trainCoR(ctx context.Context, ws *workspace.Workspace, d *infer.DenseChannel, seed uint64, run train.Options) (infer.Method, *train.Result, error) {
	m, res, err := train.CoR(ctx, ws, d, train.CoROptions{Model: gating.DefaultConfig(&ws.SKB.Schema, d.Docs.Dim),
		Train: train.Config{Epochs: 10, BatchSize: 64, LR: 3e-3, Seed: seed}, Run: run})
	return m, res, err
}

// fitGrasp fits GRASP with the planner's plans, mFAR and MoR as stage 3.
func fitGrasp(env *infer.Env, o Options, t *trained, run train.Options) error {
	abs, err := filepath.Abs(env.WS.Dir)
	if err != nil {
		return err
	}
	res, err := train.FitGrasp(env, train.GraspOptions{Run: run, Config: grasp.Config{MFAR: filepath.Join(abs, "runs", "mfar"),
		Planner: filepath.Join(abs, "runs", "planner"), Stage3: filepath.Join(abs, "runs", "mor")}})
	if err != nil {
		return err
	}
	if err := served(env, o, run.RunDir, "grasp", pipeline.BestStage()); err != nil {
		return err
	}
	fmt.Fprintf(o.Out, "fitted GRASP's fusion on val: %s; stage 3 (MoR): %s\n\n", res.Config.Choice.Describe(), res.Config.Stage3Choice.Describe())
	for _, s := range res.Test {
		// The demo's table keeps GRASP's own rows: no stage 3 alone, no
		// other selection rule, no independent stage-3 ranking.
		if strings.HasPrefix(s.Method, "stage 3 alone") || strings.Contains(s.Method, ", rule ") || strings.Contains(s.Method, "independent") {
			continue
		}
		s.Method = strings.Replace(s.Method, " (GRASP w/o RR & FS)", "", 1)
		if s.Method != "mfar" {
			s.Method = "grasp " + s.Method
		}
		t.grasp = append(t.grasp, s)
	}
	return nil
}

// rows evaluates the demo's methods on the test split, in the table's
// order.
func rows(env *infer.Env, truth map[int]data.Plan, t *trained) ([]eval.Summary, error) {
	ws := env.WS
	named := map[string]infer.Method{}
	for _, name := range []string{"plan-exec", "plan-structure", "oracle-plan", "bm25+dense", "sage", "sage-sim", "sage-plan"} {
		m, err := registry.NewMethod(env, name)
		if err != nil {
			return nil, err
		}
		named[name] = m
	}
	oracle := func(name string) infer.Method {
		return &planner.FilePlanned{Plans: truth, M: named[name], Label: name + " (oracle)", WS: ws}
	}
	planned := func(name string) infer.Method { return &planner.PlannedMethod{P: t.planner, M: named[name]} }
	type row struct {
		label string
		m     infer.Method
	}
	before := []row{
		{"bm25", baseline.NewBM25(ws)}, {"dense", baseline.NewDense(ws, t.dense)}, {"cor", t.cor},
		{"plan-exec (planner)", planned("plan-exec")}, {"mor", t.mor},
		{"mor w/o reranker", &planner.PlannedMethod{P: t.planner, M: traversal.New(ws)}},
		{"plan-structure (oracle)", oracle("plan-structure")}, {"oracle-plan (oracle)", oracle("oracle-plan")},
	}
	after := []row{{"bm25+dense", named["bm25+dense"]}, {"sage", named["sage"]}, {"sage-sim", named["sage-sim"]},
		{"planner+sage-plan", planned("sage-plan")}}
	var out []eval.Summary
	for i, part := range [][]row{before, after} {
		if i == 1 {
			out = append(out, t.grasp...)
		}
		for _, r := range part {
			s, err := train.SplitSummary(env.Ctx, ws, r.m, data.SplitTest)
			if err != nil {
				return nil, err
			}
			s.Method = r.label
			out = append(out, s)
		}
	}
	return out, nil
}
