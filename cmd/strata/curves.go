package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/strata-retrieval/strata/checkpoints"
	"github.com/strata-retrieval/strata/eval"
	"github.com/strata-retrieval/strata/graphops/workspace"
	"github.com/strata-retrieval/strata/infer"
	"github.com/strata-retrieval/strata/train"
)

type curvesOptions struct {
	WS, Run, Out string
	Splits       []string
	Force        bool
}

func newCurvesCmd(u *ui) *cobra.Command {
	var o curvesOptions
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
			o.WS = args[0]
			return runCurves(cmd.Context(), u, o)
		},
	}
	cmd.Flags().StringVar(&o.Run, "run", "", "run directory (with step-NNNNNNNN checkpoints)")
	cmd.Flags().StringSliceVar(&o.Splits, "split", []string{"val"}, "splits to evaluate (comma-separated)")
	cmd.Flags().StringVar(&o.Out, "out", "", "where to write the curves (default the run directory)")
	cmd.Flags().BoolVar(&o.Force, "force", false, "replace existing curve files")
	return cmd
}

func runCurves(ctx context.Context, u *ui, o curvesOptions) error {
	if o.Run == "" {
		return fmt.Errorf("--run is required")
	}
	if o.Out == "" {
		o.Out = o.Run
	}
	ws, err := workspace.Load(o.WS)
	if err != nil {
		return err
	}
	defer ws.Close()
	// The outputs are checked before any checkpoint is evaluated.
	g := inputs(o.WS)
	cks, err := checkpoints.List(o.Run)
	if err != nil {
		return err
	}
	for _, c := range cks {
		g.Input("checkpoint", filepath.Join(o.Run, c.Name))
	}
	for _, name := range eval.CurveFiles() {
		if err := fileOutput(g, "--out", filepath.Join(o.Out, name), o.Force); err != nil {
			return err
		}
	}
	pts, kind, err := train.Curves(watched(g, infer.NewEnv(ctx, ws)), o.Run, o.Splits, u.log())
	if err != nil {
		return err
	}
	if err := os.MkdirAll(o.Out, 0o755); err != nil {
		return err
	}
	if err := eval.WriteCurveFiles(o.Out, fmt.Sprintf("%s checkpoints of %s", kind, filepath.Clean(o.Run)), pts); err != nil {
		return err
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
	fmt.Fprintf(u.out, "wrote curves.csv, curves.json, curves.png and curves.svg to %s\n", o.Out)
	return nil
}
