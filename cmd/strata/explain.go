package main

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/graphops/workspace"
	"github.com/strata-retrieval/strata/infer"
	"github.com/strata-retrieval/strata/infer/registry"
)

type explainOptions struct {
	WS, Model, Query string
	K                int
	JSON             bool
}

func newExplainCmd(u *ui) *cobra.Command {
	var o explainOptions
	cmd := &cobra.Command{
		Use:   `explain WORKSPACE --model RUNDIR/best --query "..."`,
		Short: "Show how a model scores a query (CoR gates, MoR trajectories, planner plans, KGQA subgraphs, mFAR weights, GRASP plan and fusion)",
		Long: `Explain one query with a trained model that can say how it ranks: CoR (topic
entities, gate weights, each retriever's contribution), MoR (the plan and the
winning trajectories), the planner (the plan it chose, printed in strata's
typed plan algebra as it executes: anchors, hops, every(...) for a universal
step, and the ranking restriction; its confidence and the top k), KGQA (the
predicted pattern and its subgraphs), mFAR (the query's field weights) and
GRASP (the plan, its candidate count, risk level and fusion weight). --json
prints the explanation as one JSON object.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.WS = args[0]
			return runExplain(cmd.Context(), u, o)
		},
	}
	cmd.Flags().StringVar(&o.Model, "model", "", "checkpoint or run directory of a model that explains (CoR, MoR, planner, KGQA, mFAR, GRASP)")
	cmd.Flags().StringVar(&o.Query, "query", "", "query text")
	cmd.Flags().IntVarP(&o.K, "k", "k", 10, "candidates to show")
	cmd.Flags().BoolVar(&o.JSON, "json", false, "print one JSON object")
	return cmd
}

func runExplain(ctx context.Context, u *ui, o explainOptions) error {
	if o.Model == "" || o.Query == "" {
		return fmt.Errorf("--model and --query are required")
	}
	if o.K < 1 {
		return fmt.Errorf("-k %d: want at least 1 candidate to show", o.K)
	}
	ws, err := workspace.Load(o.WS)
	if err != nil {
		return err
	}
	defer ws.Close()
	o.K = min(o.K, max(len(ws.Candidates), 1)) // no more to show; a huge -k allocates nothing
	m, err := registry.Load(infer.NewEnv(ctx, ws), o.Model)
	if err != nil {
		return err
	}
	ex, ok := m.(infer.Explainer)
	if !ok {
		return fmt.Errorf("%s is a %s model, which does not explain its rankings (CoR, MoR, the planner, KGQA, mFAR and GRASP do)", o.Model, m.Name())
	}
	e, err := ex.Explain(ctx, data.Query{ID: -1, Text: o.Query}, o.K)
	if err != nil {
		return err
	}
	if o.JSON {
		return json.NewEncoder(u.out).Encode(e)
	}
	return e.WriteText(u.out, ws)
}
