package main

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/strata-retrieval/strata/graphops/workspace"
	"github.com/strata-retrieval/strata/infer/pipeline"
	"github.com/strata-retrieval/strata/train"
)

type trainKGQAOptions struct {
	WS    string
	Flags trainFlags
	KGQA  train.KGQAOptions
}

const trainKGQALong = `Train SimGRAG's query-to-pattern step without an LLM: a classifier over
relation paths (the planner's network), whose predicted path, anchored at
the question's topic entity (MetaQA's [bracketed] mention, else the linked
entity; several [bracketed] topics each anchor a path into one shared
target), becomes a pattern graph such as
  (John Krasinski, starred_actors, UNKNOWN entity 1),
  (UNKNOWN entity 1, directed_by, UNKNOWN entity 0)
that SimGRAG aligns with the graph's subgraphs by Graph Semantic Distance.

Labels: --labels plans uses the workspace's plans (MetaQA's question types,
imported by strata import --format triples); --labels mined finds, for each
training question, the relation path of at most --max-hops steps from the
topic whose end nodes best match the gold answers (F1); auto (the default)
uses plans when the workspace has them. Checkpoints are selected by val
accuracy of the predicted path; evaluate with
  strata eval WORKSPACE --model RUNDIR/best --split test --json
When the workspace has no dense channel, the default encoder is trained
first (SimGRAG embeds pattern nodes and relations with it).`

func newTrainKGQACmd(u *ui) *cobra.Command {
	var o trainKGQAOptions
	cmd := &cobra.Command{
		Use:   "kgqa WORKSPACE",
		Short: "Train the KGQA pattern predictor that feeds SimGRAG (knowledge-graph question answering)",
		Long:  trainKGQALong,
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.WS = args[0]
			return runTrainKGQA(cmd.Context(), u, o)
		},
	}
	// KGQA runs every epoch by default: its path accuracy on val moves in
	// steps of one question, stays flat for long stretches and still rises
	// late (PathQuestion's PQ-2H, PQ-3H and PQL-2H, 100 epochs, three
	// splits each, mined and plan labels: a patience of 3 would select a
	// worse checkpoint in 11 of the 18 runs, one of 10 in 5; PQ-3H's best
	// came at epochs 41-68).
	o.Flags.bind(cmd, 10, 64, 3e-3, 0)
	f := cmd.Flags()
	f.IntVar(&o.KGQA.Planner.Hidden, "hidden", 128, "classifier hidden units")
	f.StringVar(&o.KGQA.Labels, "labels", "auto", "path labels: auto, plans or mined")
	f.IntVar(&o.KGQA.MaxHops, "max-hops", 3, "longest mined path")
	f.IntVar(&o.KGQA.SimGRAG.K, "k", 100, "SimGRAG: subgraphs kept per question")
	f.IntVar(&o.KGQA.SimGRAG.KNodes, "k-nodes", 16, "SimGRAG: candidate nodes per known pattern node (the paper's k(n))")
	f.IntVar(&o.KGQA.SimGRAG.KRels, "k-rels", 16, "SimGRAG: candidate relations per pattern triple (the paper's k(r))")
	return cmd
}

func runTrainKGQA(ctx context.Context, u *ui, o trainKGQAOptions) error {
	ws, err := workspace.Load(o.WS)
	if err != nil {
		return err
	}
	defer ws.Close()
	d, err := ensureDense(ctx, u, ws, o.Flags.cfg.Seed)
	if err != nil {
		return err
	}
	o.KGQA.Planner.Train = o.Flags.cfg
	if o.KGQA.Planner.Run, err = o.Flags.options(u, ws, "kgqa"); err != nil {
		return err
	}
	p, res, st, err := train.KGQA(ctx, ws, d, o.KGQA)
	if err != nil {
		return err
	}
	if st.Labels == "mined" {
		fmt.Fprintf(u.err, "mined paths for %d of %d train and val questions (%d without a topic or a path to an answer)\n", st.Mined, st.Asked, st.Asked-st.Mined)
	}
	run := o.KGQA.Planner.Run.RunDir
	fmt.Fprintf(u.out, "trained KGQA pattern predictor (%s labels): %d relation paths, %d steps (%s), best %s val path accuracy %.4f\n",
		st.Labels, len(p.Cfg.Templates), res.Steps, res.Stopped, res.Best, res.BestValue)
	return finishRun(ctx, u, ws, run, "kgqa", pipeline.BestStage())
}
