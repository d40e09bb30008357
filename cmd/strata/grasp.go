package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/strata-retrieval/strata/checkpoints"
	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/eval"
	"github.com/strata-retrieval/strata/graphops/workspace"
	"github.com/strata-retrieval/strata/infer"
	"github.com/strata-retrieval/strata/reranker"
)

func newTrainGraspCmd(u *ui) *cobra.Command {
	var mfar, planner, plans, out, stage3 string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "grasp WORKSPACE --mfar RUNDIR [--planner RUNDIR | --plans FILE]",
		Short: "Fit GRASP's stage 2: plan execution on the graph fused with mFAR by (plan-conditioned) RRF",
		Long: `Fit GRASP's stage 2 on the val split and report it on the test split.

The graph branch executes each query's GRASP plan on the graph: anchors link
to the top K nodes of their label whose cosine is at least tau times the best
(K, tau = 5, 0.95 on names; 10, 0.90 on whole documents), hops are undirected
typed steps, a target candidate's score is the best sum of anchor cosines
along a matched path plus the cosine of the plan's relevance text with its
document. Plans come from a GRASP plans file (--plans: {"q_id", "plan"} lines;
invalid plans count as no_trade), from the native planner (--planner; its
template confidence sets the risk level: <0.5 weak, <0.9 normal, else
aggressive), or from the workspace's plans.

Fusion with mFAR's ranking: static RRF w/(k+rank_g) + (1-w)/(k+rank_m), and
dynamic RRF whose w is w_bucket[n_cand bucket] * m_risk[risk level], both
searched over GRASP's grids by validation Hit@1 among the settings that keep
validation Recall@20 at least the better branch's (per n_cand bucket for the
dynamic one); the better one is saved as RUNDIR/best, which strata eval
--model and pipelines serve.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if mfar == "" {
				return fmt.Errorf("--mfar is required (train it with strata train mfar)")
			}
			ws, _, err := loadWithDense(args[0])
			if err != nil {
				return err
			}
			defer ws.Close()
			cfg := infer.GraspConfig{}
			for _, p := range []struct{ in, out *string }{{&mfar, &cfg.MFAR}, {&planner, &cfg.Planner}, {&plans, &cfg.Plans}, {&stage3, &cfg.Stage3}} {
				if *p.in != "" {
					if *p.out, err = filepath.Abs(*p.in); err != nil {
						return err
					}
				}
			}
			cfg, sums, err := fitGrasp(cmd.Context(), u, ws, cfg, out)
			if err != nil {
				return err
			}
			if asJSON {
				enc := json.NewEncoder(u.out)
				enc.Encode(map[string]any{"static": cfg.Static, "dynamic": cfg.Dynamic, "choice": cfg.Choice.Mode})
				return printSummaries(u.out, sums, true)
			}
			w := tabwriter.NewWriter(u.out, 0, 4, 2, ' ', 0)
			fmt.Fprintf(w, "validation (GRASP Table 2):\n  %s\n  %s\nchosen: %s\n", cfg.Static.Describe(), cfg.Dynamic.Describe(), cfg.Choice.Mode)
			if cfg.Stage3 != "" {
				fmt.Fprintf(w, "stage 3 (%s) fused with stage 2: %s\n", filepath.Base(cfg.Stage3), cfg.Stage3Choice.Describe())
			}
			fmt.Fprintln(w)
			w.Flush()
			return printSummaries(u.out, sums, false)
		},
	}
	cmd.Flags().StringVar(&mfar, "mfar", "", "mFAR run or checkpoint (the text branch)")
	cmd.Flags().StringVar(&planner, "planner", "", "planner run or checkpoint whose plans become GRASP plans")
	cmd.Flags().StringVar(&plans, "plans", "", "GRASP plans file ({\"q_id\", \"plan\"} lines)")
	cmd.Flags().StringVar(&out, "out", "", "run directory (default WORKSPACE/runs/grasp)")
	cmd.Flags().StringVar(&stage3, "stage3", "", "a reranker model (CoR, MoR) to fuse with stage 2 as GRASP's stage 3, (w, k) by val Hit@1")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON lines")
	return cmd
}

// fitGrasp fits GRASP's fusions on val, saves the model in out (default
// WORKSPACE/runs/grasp) and evaluates the rows of GRASP's table on test.
func fitGrasp(ctx context.Context, u *ui, ws *workspace.Workspace, cfg infer.GraspConfig, out string) (infer.GraspConfig, []eval.Summary, error) {
	if cfg.Planner == "" && cfg.Plans == "" && len(ws.Plans) == 0 {
		return cfg, nil, fmt.Errorf("GRASP's graph branch executes plans, and this workspace has none: train a planner from mined plans (strata mine-plans, strata train planner) and pass --planner, or give a GRASP plans file with --plans")
	}
	u.stage("loading mFAR and the graph branch")
	g, text, err := infer.GraspParts(ctx, ws, cfg, false)
	if err != nil {
		return cfg, nil, err
	}
	// Every fusion below reuses each query's two branches.
	g.Memoize()
	text = &infer.Memo{M: text}
	vqs, err := ws.SKB.QA.Split(data.SplitVal)
	if err != nil {
		return cfg, nil, err
	}
	u.stage("running both branches on %d val queries", len(vqs))
	ex, err := infer.FusionExamples(ctx, g, text, vqs)
	if err != nil {
		return cfg, nil, err
	}
	noTrade := 0
	for _, e := range ex {
		if e.Risk == data.RiskNoTrade {
			noTrade++
		}
	}
	if noTrade > 0 {
		warn := ""
		if 2*noTrade > len(ex) {
			warn = "WARNING: "
		}
		fmt.Fprintf(u.err, "%sGRASP's graph branch: %d of %d val queries have no usable plan (no_trade: mFAR alone ranks them)\n", warn, noTrade, len(ex))
	}
	cfg.Static = reranker.SearchStatic(ex)
	cfg.Dynamic = reranker.SearchDynamic(ex)
	cfg.Choice = cfg.Static
	if cfg.Dynamic.ValHit1 > cfg.Static.ValHit1 {
		cfg.Choice = cfg.Dynamic
	}
	stage2 := &infer.GraspFused{G: g, Text: text, Choice: cfg.Choice}
	var s3 infer.Method
	if cfg.Stage3 != "" {
		if s3, err = infer.LoadModel(ws, cfg.Stage3); err != nil {
			return cfg, nil, err
		}
		s3 = &infer.Memo{M: s3}
		u.stage("fitting the fusion of stage 3 with stage 2 on val")
		ex3, err := infer.FusionExamples(ctx, &infer.RankerBranch{M: stage2}, s3, vqs)
		if err != nil {
			return cfg, nil, err
		}
		// FusionExamples puts its first method in Graph: here stage
		// 2; w is searched for the reranker, so swap the branches.
		for i := range ex3 {
			ex3[i].Graph, ex3[i].Text = ex3[i].Text, ex3[i].Graph
		}
		cfg.Stage3Choice = reranker.SearchStaticHit1(ex3)
	}
	if out == "" {
		out = filepath.Join(ws.Dir, "runs", "grasp")
	}
	raw, err := json.Marshal(map[string]any{"model": cfg})
	if err != nil {
		return cfg, nil, err
	}
	ckDir := filepath.Join(out, checkpoints.StepDir(0))
	if err := os.RemoveAll(out); err != nil {
		return cfg, nil, err
	}
	ck := &checkpoints.Checkpoint{Manifest: checkpoints.Manifest{Kind: "grasp", Config: raw, DataFingerprint: ws.Fingerprint,
		Metrics: map[string]float64{"val/hit@1": cfg.Choice.ValHit1}}}
	if err := checkpoints.Save(ckDir, ck); err != nil {
		return cfg, nil, err
	}
	if err := checkpoints.SetBest(out, checkpoints.StepDir(0)); err != nil {
		return cfg, nil, err
	}
	if err := writeRunPipeline(out, "grasp"); err != nil {
		return cfg, nil, err
	}
	// Test rows: each branch, and both fusions.
	tqs, err := ws.SKB.QA.Split(data.SplitTest)
	if err != nil {
		return cfg, nil, err
	}
	rows := []struct {
		name string
		m    eval.Ranker
	}{
		{"graph only (GRASP w/o RR & FS)", g},
		{"mfar", text},
		{"fused static (w/o RR)", &infer.GraspFused{G: g, Text: text, Choice: cfg.Static}},
		{"fused dynamic (w/o RR)", &infer.GraspFused{G: g, Text: text, Choice: cfg.Dynamic}},
	}
	if s3 != nil {
		rows = append(rows, struct {
			name string
			m    eval.Ranker
		}{"stage 3 alone (" + s3.Name() + ")", s3}, struct {
			name string
			m    eval.Ranker
		}{"fused + stage 3 (" + s3.Name() + ")", &infer.GraspFused{G: g, Text: text, Choice: cfg.Choice, Stage3: s3, Stage3Choice: cfg.Stage3Choice}})
	}
	ev := eval.NewEvaluator(len(ws.SKB.Nodes), ws.Candidates)
	var sums []eval.Summary
	for _, r := range rows {
		rs, err := eval.Run(ctx, ev, tqs, r.m, eval.RunOptions{})
		if err != nil {
			return cfg, nil, err
		}
		s := eval.Summarize(rs)
		s.Method, s.Split = r.name, data.SplitTest
		sums = append(sums, s)
	}
	return cfg, sums, nil
}
