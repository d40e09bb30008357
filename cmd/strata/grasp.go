package main

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/graphops/workspace"
	"github.com/strata-retrieval/strata/infer"
	"github.com/strata-retrieval/strata/infer/grasp"
	"github.com/strata-retrieval/strata/infer/pipeline"
	"github.com/strata-retrieval/strata/reranker"
	"github.com/strata-retrieval/strata/train"
)

type graspOptions struct {
	WS, Out string
	Rule    string
	Config  grasp.Config
	JSON    bool
	Resume  bool
}

const trainGraspLong = `Fit GRASP's stages 2 and 3 on the val split and report them on the test split.

Stage 1, the graph branch, executes each query's GRASP plan on the graph:
anchors link to the top K nodes of their label whose cosine is at least tau
times the best (K, tau = 5, 0.95 on names; 10, 0.90 on whole documents), or
bind to the nodes the planner linked; texts are embedded with the dense
channel's encoder or an ONNX sentence encoder (--onnx-encoder DIR), whose
document vectors are the channel's when the channel holds that model's
imported vectors (else every document is encoded once); with imported
vectors and no encoder, only linked anchors work (each at cosine 1) and the
relevance text is scored by the query's imported vector; hops are typed steps, undirected as in
GRASP or directed as mined plans have them; a target candidate's score is the
best sum of anchor cosines along a matched path plus the cosine of the plan's
relevance text with its document. Plans come from a GRASP plans file (--plans:
{"q_id", "plan"} lines with their own risk_level; invalid plans count as
no_trade), from the native planner (--planner), or from the workspace's plans;
a workspace with none of them is an error.

Stage 2 fuses the graph ranking with mFAR's (GRASP section 3.2, appendix A):
  static RRF   w/(k+rank_g) + (1-w)/(k+rank_m)
  dynamic RRF  w^/(k+rank_g) + 1/(k+rank_m),  w^ = w_bucket[n_cand bucket] * m_risk[risk]
w^ is not clipped (w_bucket up to 2, m_risk up to 2); w^ = 0 is pure mFAR. Both
are grid-searched over the paper's grids by validation Hit@1 (--rule hit1, the
default) or, with --rule hit1-recall-floor, among the settings that keep the
validation Recall@20 of the better branch; the other rule's choice is
reported beside it. The native planner declares no risk level: the dynamic
search calibrates one from its confidence (the plan ranker's probability of
the chosen plan) with three cuts at quantiles of the val confidences, searched
jointly with the weights, so unconfident plans can be no_trade; an empty
candidate set is no graph ranking, a huge one falls in the >500 bucket.

Stage 3 (--stage3 MODEL): a model that can rerank a pool (MoR, the exported
LLM reranker) reranks stage 2's top --stage3-pool (default 100, GRASP's), and
its ranking is fused with stage 2's by static RRF, (w, k) by val Hit@1; the
table also shows the model's own ranking fused the same way (independent).
--stage3-mode independent forces the latter for any model.

The better stage 2 (and stage 3) is saved as RUNDIR/best, which strata eval
--model and pipelines serve. A run directory that already holds checkpoints
is refused, never replaced. A run stopped after its fit was saved (before
the test rows and RUNDIR/pipeline.json) is finished with --resume: the fit is
computed again, which gives the same bytes from the same inputs and flags,
compared with the saved one (a fit that differs is refused), then the run is
evaluated and served.`

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
	f.StringVar(&o.Config.Stage3, "stage3", "", "a reranker model (MoR, LLM reranker, ...) as GRASP's stage 3, fused with stage 2 by static RRF, (w, k) by val Hit@1")
	f.StringVar(&o.Config.Stage3Mode, "stage3-mode", "", "rerank (stage 2's pool; the default when the model can) or independent (the model's own ranking)")
	f.IntVar(&o.Config.Stage3Pool, "stage3-pool", grasp.DefaultStage3Pool, "stage 2 candidates stage 3 reranks")
	f.StringVar(&o.Rule, "rule", reranker.RuleHit1, "fusion selection on val: hit1 (GRASP's) or hit1-recall-floor")
	f.StringVar(&o.Config.ONNXEncoder, "onnx-encoder", "", "sentence encoder directory, an ONNX export (tokenizer.json, model.onnx) or a Hugging Face BERT-family directory (config.json, model.safetensors, tokenizer.json), for anchors and relevance texts (default the dense channel's encoder)")
	f.BoolVar(&o.JSON, "json", false, "print JSON lines")
	f.BoolVar(&o.Resume, "resume", false, "finish a run in --out stopped after its fit was saved: fit again, check it is the saved fit, then evaluate and serve it")
	return cmd
}

func runTrainGrasp(ctx context.Context, u *ui, o graspOptions) error {
	ws, err := workspace.Load(o.WS)
	if err != nil {
		return err
	}
	defer ws.Close()
	for _, p := range []*string{&o.Config.MFAR, &o.Config.Planner, &o.Config.Plans, &o.Config.Stage3, &o.Config.ONNXEncoder} {
		if *p != "" {
			if *p, err = filepath.Abs(*p); err != nil {
				return err
			}
		}
	}
	run, err := (&trainFlags{out: o.Out, resume: o.Resume}).options(u, ws, "grasp", o.Config.MFAR, o.Config.Planner, o.Config.Plans, o.Config.Stage3, o.Config.ONNXEncoder)
	if err != nil {
		return err
	}
	res, err := train.FitGrasp(infer.NewEnv(ctx, ws), train.GraspOptions{Config: o.Config, Run: run, Rule: o.Rule, Warn: u.err})
	if err != nil {
		return err
	}
	if err := printGrasp(u, res, o.JSON); err != nil {
		return err
	}
	if o.JSON { // the served row is one more JSON line
		s, err := train.WriteServed(infer.NewEnv(ctx, ws), run.RunDir, "grasp", pipeline.BestStage(), data.SplitVal)
		if err != nil {
			return err
		}
		return json.NewEncoder(u.out).Encode(map[string]any{"serves": s.Row, "pipeline": s.Pipeline, "split": data.SplitVal,
			"n": s.Summary.N, "hit@1": s.Summary.Hit1, "hit@5": s.Summary.Hit5, "recall@20": s.Summary.Recall20, "mrr": s.Summary.MRR})
	}
	return finishRun(ctx, u, ws, run.RunDir, "grasp", pipeline.BestStage())
}

func printGrasp(u *ui, res *train.GraspResult, asJSON bool) error {
	cfg := res.Config
	if asJSON {
		if err := json.NewEncoder(u.out).Encode(map[string]any{"static": cfg.Static, "dynamic": cfg.Dynamic, "choice": cfg.Choice.Mode,
			"other_rule": res.Other, "stage3": cfg.Stage3Choice, "stage3_mode": cfg.Stage3Mode, "cells": res.Cells}); err != nil {
			return err
		}
		return printSummaries(u.out, res.Test, true)
	}
	w := tabwriter.NewWriter(u.out, 0, 4, 2, ' ', 0)
	fmt.Fprintf(w, "validation (GRASP Table 2):\n  %s\n  %s\nchosen: %s\nthe other rule would choose: %s\n", cfg.Static.Describe(), cfg.Dynamic.Describe(), cfg.Choice.Mode, res.Other.Describe())
	if cfg.Stage3 != "" {
		fmt.Fprintf(w, "stage 3 (%s, %s) fused with stage 2: %s\n", filepath.Base(cfg.Stage3), cfg.Stage3Mode, cfg.Stage3Choice.Describe())
	}
	fmt.Fprintf(w, "\nval queries per n_cand bucket and risk level (GRASP Figure 2):\nbucket\t%s\n", strings.Join(data.RiskLevels, "\t"))
	for b, row := range res.Cells {
		name := "no plan"
		if b < reranker.NumBuckets {
			name = reranker.BucketName(b)
		}
		fmt.Fprintf(w, "%s", name)
		for _, n := range row {
			fmt.Fprintf(w, "\t%d", n)
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintln(w)
	w.Flush()
	return printSummaries(u.out, res.Test, false)
}
