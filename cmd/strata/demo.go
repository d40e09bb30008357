package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/data/synth"
	"github.com/strata-retrieval/strata/gating"
	"github.com/strata-retrieval/strata/graphops/workspace"
	"github.com/strata-retrieval/strata/infer"
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
workspace (DIR/workspace), and evaluate on the test split

  bm25            text only: the STaRK BM25 baseline,
  plan-structure  graph only: the ground-truth plan's structure without text,
  oracle-plan     the ground-truth plan with its textual restriction,

which shows the gap hybrid text + graph methods close. Re-running replaces
DIR's contents.

It also trains the dense text encoder, CoR (CoRAG's cooperative
retrievers), the native planner and MoR's trajectory reranker on the train
split and shows their rows beside BM25; MoR plans the test queries with the
trained planner.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			skbDir, wsDir := filepath.Join(o.Dir, "skb"), filepath.Join(o.Dir, "workspace")
			if err := runGen(u, genOptions{Config: o.Config, Out: skbDir, Force: true}); err != nil {
				return err
			}
			skb, err := data.ReadSKBDir(skbDir)
			if err != nil {
				return err
			}
			plans, _, err := data.ReadPlans(filepath.Join(skbDir, data.PlansFile))
			if err != nil {
				return err
			}
			ws, err := workspace.Build(cmd.Context(), skb, plans, workspace.Config{}, u.buildProgress())
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
			fmt.Fprintf(u.out, "built workspace %s: %s\n\n", wsDir, ws)
			// Train CoR (and the encoder it needs) with the defaults.
			var ef trainFlags
			ef.cfg = train.Config{Epochs: 4, BatchSize: 128, LR: 1e-3, Seed: o.Seed}
			d, err := trainEncoder(cmd.Context(), u, ws, ef, models.EncoderConfig{}, 0.05)
			if err != nil {
				return err
			}
			corDir := filepath.Join(wsDir, "runs", "cor")
			cfg := gating.DefaultConfig(&ws.SKB.Schema, d.Docs.Dim)
			cor, res, err := train.TrainCoR(cmd.Context(), ws, d, train.CoROptions{Model: cfg,
				Train: train.Config{Epochs: 10, BatchSize: 64, LR: 3e-3, Seed: o.Seed},
				Run:   train.Options{RunDir: corDir, Fingerprint: ws.Fingerprint}})
			if err != nil {
				return err
			}
			if err := writeRunPipeline(corDir, "cor"); err != nil {
				return err
			}
			fmt.Fprintf(u.out, "trained CoR: best %s (val mrr %.4f) in %s\n\n", res.Best, res.BestValue, corDir)
			sums, err := runEval(cmd.Context(), u, ws, []string{"bm25", "dense", "plan-structure", "oracle-plan"}, evalOptions{Splits: []string{data.SplitTest}})
			if err != nil {
				return err
			}
			cs, err := evalMethod(cmd.Context(), u, ws, cor, "cor", []string{data.SplitTest})
			if err != nil {
				return err
			}
			sums = append(sums[:2], append(cs, sums[2:]...)...)
			// MoR: the native planner, then the trajectory reranker planning
			// with it (no ground-truth plan is used on the test split).
			plDir := filepath.Join(wsDir, "runs", "planner")
			planner, pres, err := train.TrainPlanner(cmd.Context(), ws, d, train.PlannerOptions{
				Train: train.Config{Epochs: 20, BatchSize: 64, LR: 3e-3, Seed: o.Seed},
				Run:   train.Options{RunDir: plDir, Fingerprint: ws.Fingerprint}})
			if err != nil {
				return err
			}
			morDir := filepath.Join(wsDir, "runs", "mor")
			mor, _, err := train.TrainMoR(cmd.Context(), ws, d, planner, train.MoROptions{
				Model:      models.TrajectoryConfig{UseTF: true, UseSF: true, UseTI: true},
				Train:      train.Config{Epochs: 10, BatchSize: 16, LR: 1e-3, Seed: o.Seed},
				Run:        train.Options{RunDir: morDir, Fingerprint: ws.Fingerprint},
				PlannerDir: filepath.Join(plDir, "best")})
			if err != nil {
				return err
			}
			for _, dir := range []string{plDir, morDir} {
				if err := writeRunPipeline(dir, filepath.Base(dir)); err != nil {
					return err
				}
			}
			fmt.Fprintf(u.out, "trained the planner (val plan accuracy %.4f) and MoR in %s\n\n", pres.BestValue, morDir)
			ms, err := evalMethod(cmd.Context(), u, ws, mor, "mor", []string{data.SplitTest})
			if err != nil {
				return err
			}
			ts, err := evalMethod(cmd.Context(), u, ws, &infer.PlannedTraversal{Planner: planner, T: infer.NewTraversalMethod(ws)}, "mor w/o reranker", []string{data.SplitTest})
			if err != nil {
				return err
			}
			sums = append(sums[:3], append(append(ms, ts...), sums[3:]...)...)
			// mFAR, then GRASP: the planner's plans executed on the graph,
			// fused with mFAR, and MoR as stage 3.
			mfarDir := filepath.Join(wsDir, "runs", "mfar")
			enc, err := infer.DenseTextEncoder(d)
			if err != nil {
				return err
			}
			if _, _, err := train.TrainMFAR(cmd.Context(), ws, enc, train.MFAROptions{
				Train: train.Config{Epochs: 5, BatchSize: 32, LR: 1e-2, Seed: o.Seed},
				Run:   train.Options{RunDir: mfarDir, Fingerprint: ws.Fingerprint}, Dense: d.Meta.Hash}); err != nil {
				return err
			}
			if err := writeRunPipeline(mfarDir, "mfar"); err != nil {
				return err
			}
			absWS, err := filepath.Abs(wsDir)
			if err != nil {
				return err
			}
			gcfg, gs, err := fitGrasp(cmd.Context(), u, ws, infer.GraspConfig{
				MFAR: filepath.Join(absWS, "runs", "mfar"), Planner: filepath.Join(absWS, "runs", "planner"),
				Stage3: filepath.Join(absWS, "runs", "mor")}, "")
			if err != nil {
				return err
			}
			fmt.Fprintf(u.out, "fitted GRASP's fusion on val: %s; stage 3 (MoR): %s\n\n", gcfg.Choice.Describe(), gcfg.Stage3Choice.Describe())
			for _, s := range gs {
				if s.Method != "stage 3 alone (mor)" {
					s.Method = strings.Replace(s.Method, " (GRASP w/o RR & FS)", "", 1)
					if s.Method != "mfar" {
						s.Method = "grasp " + s.Method
					}
					sums = append(sums, s)
				}
			}
			// SAGE: BM25+dense seeds expanded along relations or along the
			// similarity graph of the products' text fields.
			ss, err := runEval(cmd.Context(), u, ws, []string{"bm25+dense", "sage", "sage-sim"}, evalOptions{Splits: []string{data.SplitTest}})
			if err != nil {
				return err
			}
			sums = append(sums, ss...)
			if err := printSummaries(u.out, sums, o.JSON); err != nil {
				return err
			}
			if !o.JSON {
				fmt.Fprintf(u.out, "\nNext: strata info %s | strata search %s \"...\" | strata eval %s --method bm25 --split val\n", wsDir, wsDir, wsDir)
			}
			return nil
		},
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
