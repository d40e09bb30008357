package main

import (
	"context"
	"fmt"
	"github.com/strata-retrieval/strata/infer/registry"
	"io"
	"path/filepath"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/strata-retrieval/strata/checkpoints"
	"github.com/strata-retrieval/strata/eval"
	"github.com/strata-retrieval/strata/graphops/workspace"
	"github.com/strata-retrieval/strata/infer"
	"github.com/strata-retrieval/strata/internal/atomicfile"
	"github.com/strata-retrieval/strata/train"
)

func newCurvesCmd(u *ui) *cobra.Command {
	var run, out string
	var splits []string
	cmd := &cobra.Command{
		Use:   "curves WORKSPACE --run RUNDIR [--split val,test]",
		Short: "Evaluate every checkpoint of a run and plot the metrics against the step",
		Long: `Evaluate every checkpoint of a training run on the given splits (reading the
metrics its manifest already records, evaluating and recording the missing
ones) and write curves.csv, curves.json, curves.png and curves.svg: Hit@1,
Hit@5, Recall@20 and MRR against the training step, the best checkpoint
marked. LLM reranker runs (adapters) are plotted from the val group accuracy
their manifests record (as Hit@1 of the val groups).`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if run == "" {
				return fmt.Errorf("--run is required")
			}
			if out == "" {
				out = run
			}
			ws, err := workspace.Load(args[0])
			if err != nil {
				return err
			}
			defer ws.Close()
			es, err := checkpoints.List(run)
			if err != nil {
				return err
			}
			if len(es) == 0 {
				return fmt.Errorf("%s has no checkpoints", run)
			}
			var pts []eval.CurvePoint
			for _, e := range es {
				dir := filepath.Join(run, e.Name)
				metrics := e.Manifest.Metrics
				if e.Manifest.Kind == "llm-reranker" {
					// Adapters are scored by their training run's val groups:
					// Hit@1 is the share of groups whose positive wins.
					pts = append(pts, eval.CurvePoint{Step: e.Manifest.Step, Checkpoint: e.Name, Split: "val-groups", Best: e.Best,
						Hit1: metrics["val/group_acc"]})
					continue
				}
				var missing []string
				for _, split := range splits {
					if _, ok := metrics[split+"/mrr"]; !ok {
						missing = append(missing, split)
					}
				}
				if len(missing) > 0 {
					u.stage("evaluating %s on %v", e.Name, missing)
					m, err := registry.Load(infer.NewEnv(context.Background(), ws), dir)
					if err != nil {
						return err
					}
					add := map[string]float64{}
					for _, split := range missing {
						sm, err := train.SplitMetrics(cmd.Context(), ws, m, split)
						if err != nil {
							return err
						}
						for k, v := range sm {
							add[k] = v
						}
					}
					if err := checkpoints.SetMetrics(dir, add); err != nil {
						return err
					}
					if metrics == nil {
						metrics = map[string]float64{}
					}
					for k, v := range add {
						metrics[k] = v
					}
				}
				for _, split := range splits {
					pts = append(pts, eval.CurvePoint{Step: e.Manifest.Step, Checkpoint: e.Name, Split: split, Best: e.Best,
						Hit1: metrics[split+"/hit@1"], Hit5: metrics[split+"/hit@5"], Recall20: metrics[split+"/recall@20"], MRR: metrics[split+"/mrr"]})
				}
			}
			title := fmt.Sprintf("%s checkpoints of %s", es[0].Manifest.Kind, filepath.Clean(run))
			for _, f := range []struct {
				name  string
				write func(w io.Writer) error
			}{
				{"curves.csv", func(w io.Writer) error { return eval.WriteCurvesCSV(w, pts) }},
				{"curves.json", func(w io.Writer) error { return eval.WriteCurvesJSON(w, pts) }},
				{"curves.png", func(w io.Writer) error { return eval.PlotCurves(w, title, pts, "png") }},
				{"curves.svg", func(w io.Writer) error { return eval.PlotCurves(w, title, pts, "svg") }},
			} {
				if err := atomicfile.WriteFile(filepath.Join(out, f.name), f.write); err != nil {
					return err
				}
			}
			tw := tabwriter.NewWriter(u.out, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "step\tcheckpoint\tsplit\thit@1\thit@5\trecall@20\tmrr")
			for _, p := range pts {
				mark := ""
				if p.Best {
					mark = " *"
				}
				fmt.Fprintf(tw, "%d\t%s%s\t%s\t%.4f\t%.4f\t%.4f\t%.4f\n", p.Step, p.Checkpoint, mark, p.Split, p.Hit1, p.Hit5, p.Recall20, p.MRR)
			}
			if err := tw.Flush(); err != nil {
				return err
			}
			fmt.Fprintf(u.out, "wrote curves.csv, curves.json, curves.png and curves.svg to %s\n", out)
			return nil
		},
	}
	cmd.Flags().StringVar(&run, "run", "", "run directory (with step-NNNNNNNN checkpoints)")
	cmd.Flags().StringSliceVar(&splits, "split", []string{"val"}, "splits to evaluate (comma-separated)")
	cmd.Flags().StringVar(&out, "out", "", "where to write the curves (default the run directory)")
	return cmd
}
