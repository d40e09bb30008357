package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/data/synth"
	"github.com/strata-retrieval/strata/eval"
	"github.com/strata-retrieval/strata/gating"
	"github.com/strata-retrieval/strata/graphops/workspace"
	"github.com/strata-retrieval/strata/infer"
	"github.com/strata-retrieval/strata/internal/atomicfile"
	"github.com/strata-retrieval/strata/models"
	"github.com/strata-retrieval/strata/train"
)

type demoOptions struct {
	synth.Config
	Dir  string
	JSON bool
}

func newDemoCmd(u *ui) *cobra.Command {
	var o demoOptions
	cmd := &cobra.Command{
		Use:   "demo",
		Short: "Generate a benchmark, build its workspace, train every model and evaluate them",
		Long: `Run strata end to end on a generated STaRK-like benchmark, with no
downloads: generate the preset (an skbdir under DIR/skb), import it into a
workspace (DIR/workspace) and evaluate on the test split. Re-running replaces
DIR's contents.

It takes the path a real SKB takes: the workspace holds questions and answers
only. Plans are mined from the train and val answers (the coverage table is
printed); the planner, MoR and GRASP learn from the mined train plans and plan
the test questions themselves. The generator's ground-truth plans feed only
the rows marked oracle:

  plan-structure (oracle)  graph only: the ground-truth plan's structure without text,
  oracle-plan (oracle)     the ground-truth plan with its textual restriction,

beside the dense encoder, CoR, plan-exec (the planner's plans executed),
MoR with and without its reranker, mFAR, GRASP's stages and SAGE.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runDemo(cmd.Context(), u, o) },
	}
	f := cmd.Flags()
	f.StringVar(&o.Preset, "preset", "amazon", "data set shape: amazon, mag or prime")
	f.IntVar(&o.Nodes, "nodes", 5000, "total number of nodes")
	f.IntVar(&o.Queries, "queries", 1000, "number of queries")
	f.Uint64Var(&o.Seed, "seed", 1, "random seed")
	f.StringVar(&o.Dir, "dir", filepath.Join("out", "demo"), "output directory")
	f.BoolVar(&o.JSON, "json", false, "print the metrics as JSON lines")
	return cmd
}

// runDemo generates the benchmark, builds a workspace without its plans,
// mines plans, trains every model and prints the test table.
func runDemo(ctx context.Context, u *ui, o demoOptions) error {
	skbDir, wsDir := filepath.Join(o.Dir, "skb"), filepath.Join(o.Dir, "workspace")
	if err := runGen(u, genOptions{Config: o.Config, Out: skbDir, Force: true}); err != nil {
		return err
	}
	skb, err := data.ReadSKBDir(skbDir)
	if err != nil {
		return err
	}
	truth, _, err := data.ReadPlans(filepath.Join(skbDir, data.PlansFile))
	if err != nil {
		return err
	}
	ws, err := workspace.Build(ctx, skb, nil, workspace.Config{}, u.buildProgress())
	if err != nil {
		return err
	}
	defer ws.Close()
	if err := os.RemoveAll(wsDir); err != nil {
		return err
	}
	if err := ws.Save(wsDir); err != nil {
		return err
	}
	fmt.Fprintf(u.out, "built workspace %s: %s (the generator's plans are kept out of it)\n\n", wsDir, ws)
	// Plans mined from the train and val answers.
	qs, err := demoSplits(ws, data.SplitTrain, data.SplitVal)
	if err != nil {
		return err
	}
	recs, rep, err := infer.Mine(ctx, ws, qs, infer.MineOptions{})
	if err != nil {
		return err
	}
	minedPath := filepath.Join(wsDir, infer.MinedPlansFile)
	if err := atomicfile.WriteFile(minedPath, func(w io.Writer) error { return data.WriteJSONL(w, recs) }); err != nil {
		return err
	}
	rep.Print(u.out)
	fmt.Fprintln(u.out)
	mined := map[int]data.MinedPlanRecord{}
	for _, r := range recs {
		mined[r.QID] = r
	}
	// The dense channel and CoR.
	var ef trainFlags
	ef.cfg = train.Config{Epochs: 4, BatchSize: 128, LR: 1e-3, Seed: o.Seed}
	d, err := trainEncoder(ctx, u, ws, ef, models.EncoderConfig{}, 0.05)
	if err != nil {
		return err
	}
	run := func(name string) train.Options {
		return train.Options{RunDir: filepath.Join(wsDir, "runs", name), Fingerprint: ws.Fingerprint}
	}
	cor, res, err := train.TrainCoR(ctx, ws, d, train.CoROptions{Model: gating.DefaultConfig(&ws.SKB.Schema, d.Docs.Dim),
		Train: train.Config{Epochs: 10, BatchSize: 64, LR: 3e-3, Seed: o.Seed}, Run: run("cor")})
	if err != nil {
		return err
	}
	fmt.Fprintf(u.out, "trained CoR: best %s (val mrr %.4f)\n", res.Best, res.BestValue)
	// The planner and MoR, from the mined train plans.
	planner, pres, pst, err := train.TrainLinkingPlanner(ctx, ws, d, train.LinkingPlannerOptions{Mined: mined,
		Train: train.Config{Epochs: 20, BatchSize: 64, LR: 3e-3, Seed: o.Seed}, Run: run("planner")})
	if err != nil {
		return err
	}
	fmt.Fprintf(u.out, "trained the planner from %d mined train plans: %d templates, val plan-exec mrr %.4f, plan accuracy %.4f\n", pst.Used, len(planner.Cfg.Templates), pres.BestValue, pst.PlanAcc)
	plDir := filepath.Join(wsDir, "runs", "planner", "best")
	mor, _, err := train.TrainMoR(ctx, ws, d, planner, train.MoROptions{Plans: train.MinedPlans(mined, 0.5),
		Model: models.TrajectoryConfig{UseTF: true, UseSF: true, UseTI: true},
		Train: train.Config{Epochs: 10, BatchSize: 16, LR: 1e-3, Seed: o.Seed}, Run: run("mor"), PlannerDir: plDir})
	if err != nil {
		return err
	}
	enc, err := infer.DenseTextEncoder(d)
	if err != nil {
		return err
	}
	if _, _, err := train.TrainMFAR(ctx, ws, enc, train.MFAROptions{
		Train: train.Config{Epochs: 5, BatchSize: 32, LR: 1e-2, Seed: o.Seed}, Run: run("mfar"), Dense: d.Meta.Hash}); err != nil {
		return err
	}
	for _, name := range []string{"cor", "planner", "mor", "mfar"} {
		if err := writeRunPipeline(filepath.Join(wsDir, "runs", name), name); err != nil {
			return err
		}
	}
	absWS, err := filepath.Abs(wsDir)
	if err != nil {
		return err
	}
	gcfg, gs, err := fitGrasp(ctx, u, ws, infer.GraspConfig{MFAR: filepath.Join(absWS, "runs", "mfar"),
		Planner: filepath.Join(absWS, "runs", "planner"), Stage3: filepath.Join(absWS, "runs", "mor")}, "")
	if err != nil {
		return err
	}
	fmt.Fprintf(u.out, "fitted GRASP's fusion on val: %s; stage 3 (MoR): %s\n\n", gcfg.Choice.Describe(), gcfg.Stage3Choice.Describe())
	sums, err := demoRows(ctx, u, ws, d, truth, planner, cor, mor, gs)
	if err != nil {
		return err
	}
	if err := printSummaries(u.out, sums, o.JSON); err != nil {
		return err
	}
	if !o.JSON {
		fmt.Fprintf(u.out, "\nNext: strata info %s | strata search %s \"...\" | strata eval %s --method bm25 --split val\n", wsDir, wsDir, wsDir)
	}
	return nil
}

// demoSplits returns the questions of the given splits.
func demoSplits(ws *workspace.Workspace, splits ...string) ([]data.Query, error) {
	var out []data.Query
	for _, s := range splits {
		q, err := ws.SKB.QA.Split(s)
		if err != nil {
			return nil, err
		}
		out = append(out, q...)
	}
	return out, nil
}

// demoRows evaluates the demo's methods on the test split, in the table's
// order.
func demoRows(ctx context.Context, u *ui, ws *workspace.Workspace, d *infer.DenseChannel, truth map[int]data.Plan,
	planner *infer.Planner, cor, mor infer.Method, grasp []eval.Summary) ([]eval.Summary, error) {
	test := []string{data.SplitTest}
	oracle := func(name string) (infer.Method, error) {
		m, err := infer.NewMethod(ws, name)
		return &infer.FilePlanned{Plans: truth, M: m, Label: name + " (oracle)"}, err
	}
	pe, err := infer.NewMethod(ws, "plan-exec")
	if err != nil {
		return nil, err
	}
	bm, err := infer.NewMethod(ws, "bm25")
	if err != nil {
		return nil, err
	}
	dense, err := infer.NewMethod(ws, "dense")
	if err != nil {
		return nil, err
	}
	ps, err := oracle("plan-structure")
	if err != nil {
		return nil, err
	}
	op, err := oracle("oracle-plan")
	if err != nil {
		return nil, err
	}
	rows := []struct {
		name string
		m    infer.Method
	}{
		{"bm25", bm}, {"dense", dense}, {"cor", cor},
		{"plan-exec (planner)", &infer.PlannedMethod{P: planner, M: pe}},
		{"mor", mor},
		{"mor w/o reranker", &infer.PlannedTraversal{Planner: planner, T: infer.NewTraversalMethod(ws)}},
		{"plan-structure (oracle)", ps}, {"oracle-plan (oracle)", op},
	}
	var sums []eval.Summary
	for _, r := range rows {
		s, err := evalMethod(ctx, u, ws, r.m, r.name, test)
		if err != nil {
			return nil, err
		}
		sums = append(sums, s...)
	}
	for _, s := range grasp {
		if s.Method != "stage 3 alone (mor)" {
			s.Method = strings.Replace(s.Method, " (GRASP w/o RR & FS)", "", 1)
			if s.Method != "mfar" {
				s.Method = "grasp " + s.Method
			}
			sums = append(sums, s)
		}
	}
	ss, err := runEval(ctx, u, ws, []string{"bm25+dense", "sage", "sage-sim"}, evalOptions{Splits: test})
	if err != nil {
		return nil, err
	}
	ssp, err := runEval(ctx, u, ws, []string{"sage-plan"}, evalOptions{Splits: test, Planner: filepath.Join(ws.Dir, "runs", "planner", "best")})
	if err != nil {
		return nil, err
	}
	return append(append(sums, ss...), ssp...), nil
}
