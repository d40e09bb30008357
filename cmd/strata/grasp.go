package main

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/strata-retrieval/strata/graphops/workspace"
	"github.com/strata-retrieval/strata/infer"
	"github.com/strata-retrieval/strata/infer/grasp"
	"github.com/strata-retrieval/strata/train"
)

type graspOptions struct {
	WS, Out string
	Config  grasp.Config
	JSON    bool
}

const trainGraspLong = `Fit GRASP's stage 2 on the val split and report it on the test split.

The graph branch executes each query's GRASP plan on the graph: anchors link
to the top K nodes of their label whose cosine is at least tau times the best
(K, tau = 5, 0.95 on names; 10, 0.90 on whole documents), or bind to the nodes
the planner linked; hops are typed steps, undirected as in GRASP or directed
as mined plans have them; a target candidate's score is the best sum of
anchor cosines along a matched path plus the cosine of the plan's relevance
text with its document. Plans come from a GRASP plans file (--plans: {"q_id",
"plan"} lines; invalid plans count as no_trade), from the native planner
(--planner; its template confidence sets the risk level: <0.5 weak, <0.9
normal, else aggressive), or from the workspace's plans; a workspace with none
of them is an error.

Fusion with mFAR's ranking: static RRF w/(k+rank_g) + (1-w)/(k+rank_m), and
dynamic RRF whose w is w_bucket[n_cand bucket] * m_risk[risk level], both
searched over GRASP's grids by validation Hit@1 among the settings that keep
validation Recall@20 at least the better branch's (per n_cand bucket for the
dynamic one); the better one is saved as RUNDIR/best, which strata eval
--model and pipelines serve. A run directory that already holds checkpoints
is refused, never replaced.`

func newTrainGraspCmd(u *ui) *cobra.Command {
	var o graspOptions
	cmd := &cobra.Command{
		Use:   "grasp WORKSPACE --mfar RUNDIR [--planner RUNDIR | --plans FILE]",
		Short: "Fit GRASP's stage 2: plan execution on the graph fused with mFAR by (plan-conditioned) RRF",
		Long:  trainGraspLong,
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.WS = args[0]
			return runTrainGrasp(cmd.Context(), u, o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.Config.MFAR, "mfar", "", "mFAR run or checkpoint (the text branch)")
	f.StringVar(&o.Config.Planner, "planner", "", "planner run or checkpoint whose plans become GRASP plans")
	f.StringVar(&o.Config.Plans, "plans", "", "GRASP plans file ({\"q_id\", \"plan\"} lines)")
	f.StringVar(&o.Out, "out", "", "run directory (default WORKSPACE/runs/grasp)")
	f.StringVar(&o.Config.Stage3, "stage3", "", "a reranker model (CoR, MoR) to fuse with stage 2 as GRASP's stage 3, (w, k) by val Hit@1")
	f.BoolVar(&o.JSON, "json", false, "print JSON lines")
	return cmd
}

func runTrainGrasp(ctx context.Context, u *ui, o graspOptions) error {
	ws, err := workspace.Load(o.WS)
	if err != nil {
		return err
	}
	defer ws.Close()
	for _, p := range []*string{&o.Config.MFAR, &o.Config.Planner, &o.Config.Plans, &o.Config.Stage3} {
		if *p != "" {
			if *p, err = filepath.Abs(*p); err != nil {
				return err
			}
		}
	}
	run := (&trainFlags{out: o.Out}).options(u, ws, "grasp")
	res, err := train.FitGrasp(infer.NewEnv(ctx, ws), train.GraspOptions{Config: o.Config, Run: run, Warn: u.err})
	if err != nil {
		return err
	}
	if err := writeRunPipeline(run.RunDir, "grasp"); err != nil {
		return err
	}
	return printGrasp(u, res, o.JSON)
}

func printGrasp(u *ui, res *train.GraspResult, asJSON bool) error {
	cfg := res.Config
	if asJSON {
		if err := json.NewEncoder(u.out).Encode(map[string]any{"static": cfg.Static, "dynamic": cfg.Dynamic, "choice": cfg.Choice.Mode}); err != nil {
			return err
		}
		return printSummaries(u.out, res.Test, true)
	}
	w := tabwriter.NewWriter(u.out, 0, 4, 2, ' ', 0)
	fmt.Fprintf(w, "validation (GRASP Table 2):\n  %s\n  %s\nchosen: %s\n", cfg.Static.Describe(), cfg.Dynamic.Describe(), cfg.Choice.Mode)
	if cfg.Stage3 != "" {
		fmt.Fprintf(w, "stage 3 (%s) fused with stage 2: %s\n", filepath.Base(cfg.Stage3), cfg.Stage3Choice.Describe())
	}
	fmt.Fprintln(w)
	w.Flush()
	return printSummaries(u.out, res.Test, false)
}
