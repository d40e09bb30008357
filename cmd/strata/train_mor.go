package main

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/graphops/mine"
	"github.com/strata-retrieval/strata/graphops/plan"
	"github.com/strata-retrieval/strata/graphops/workspace"
	"github.com/strata-retrieval/strata/infer"
	"github.com/strata-retrieval/strata/infer/pipeline"
	"github.com/strata-retrieval/strata/infer/planner"
	"github.com/strata-retrieval/strata/models"
	"github.com/strata-retrieval/strata/train"
)

type trainMoROptions struct {
	WS, Planner, Mined                           string
	Flags                                        trainFlags
	NoTF, NoSF, NoTI, LastNode, NoText, NoStruct bool
	Negatives                                    int
}

const trainMoRLong = `Train MoR's reranker: for every training query, walk its plan with the mixed
structural-textual traversal and score each candidate of the pool from its
trajectory (textual fingerprint: BM25 of each path node and the dense score;
structural fingerprint: the node-type sequence; traversal identifier: how
each step was reached), with softmax cross-entropy of a gold candidate
against --negatives others of the pool sampled with replacement. Training
uses the workspace's plans; with --planner, validation and serving plan with
the trained planner instead. A workspace without plans trains from the train
split's mined plans (strata mine-plans; F1 >= 0.5) and needs --planner. The
--no-* flags are MoR's feature ablations.`

func newTrainMoRCmd(u *ui) *cobra.Command {
	var o trainMoROptions
	cmd := &cobra.Command{
		Use:   "mor WORKSPACE [--planner RUNDIR/best]",
		Short: "Train MoR's structure-aware trajectory reranker over the mixed traversal",
		Long:  trainMoRLong,
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.WS = args[0]
			return runTrainMoR(cmd.Context(), u, o)
		},
	}
	o.Flags.bind(cmd, 10, 16, 1e-3, defaultPatience)
	f := cmd.Flags()
	f.StringVar(&o.Planner, "planner", "", "planner checkpoint to plan with at validation and serving time")
	f.StringVar(&o.Mined, "mined", "", "mined plans file to train from (default WORKSPACE/"+mine.DefaultFile+" when the workspace has no plans)")
	f.IntVar(&o.Negatives, "negatives", 100, "negatives per positive, sampled with replacement from the pool")
	f.BoolVar(&o.NoTF, "no-tf", false, "ablation: without the textual fingerprint")
	f.BoolVar(&o.NoSF, "no-sf", false, "ablation: without the structural fingerprint")
	f.BoolVar(&o.NoTI, "no-ti", false, "ablation: without the traversal identifier")
	f.BoolVar(&o.LastNode, "last-node-only", false, "ablation: features of the candidate only, not its trajectory")
	f.BoolVar(&o.NoText, "no-textual-retrieval", false, "ablation: the traversal adds no textual matches after its seeds")
	f.BoolVar(&o.NoStruct, "no-structural-retrieval", false, "ablation: the traversal follows no edges")
	return cmd
}

// name is the run's name: mor with its ablations.
func (o trainMoROptions) name() string {
	name := "mor"
	for _, a := range []struct {
		on     bool
		suffix string
	}{{o.NoTF, "-no-tf"}, {o.NoSF, "-no-sf"}, {o.NoTI, "-no-ti"}, {o.LastNode, "-last-node"}, {o.NoText, "-no-textual"}, {o.NoStruct, "-no-structural"}} {
		if a.on {
			name += a.suffix
		}
	}
	return name
}

func runTrainMoR(ctx context.Context, u *ui, o trainMoROptions) error {
	ws, err := workspace.Load(o.WS)
	if err != nil {
		return err
	}
	defer ws.Close()
	env := infer.NewEnv(ctx, ws)
	d, err := optionalDense(env)
	if err != nil {
		return err
	}
	var p planner.Predictor
	if o.Planner != "" {
		if o.Planner, err = filepath.Abs(o.Planner); err != nil {
			return err
		}
		if p, err = planner.Load(env, o.Planner); err != nil {
			return err
		}
	}
	run, err := o.Flags.options(u, ws, o.name(), o.Planner, o.Mined)
	if err != nil {
		return err
	}
	plans, err := morPlans(u, ws, o, p != nil)
	if err != nil {
		return err
	}
	_, res, err := train.MoR(ctx, ws, d, p, train.MoROptions{
		Model:     models.TrajectoryConfig{UseTF: !o.NoTF, UseSF: !o.NoSF, UseTI: !o.NoTI},
		Negatives: o.Negatives, Train: o.Flags.cfg, Run: run, PlannerDir: o.Planner, LastNodeOnly: o.LastNode, Plans: plans,
		Traversal: plan.TraversalConfig{NoTextual: o.NoText, NoStructural: o.NoStruct}})
	if err != nil {
		return err
	}
	fmt.Fprintf(u.out, "trained MoR: %d steps (%s), best %s val hit@1 %.4f\n", res.Steps, res.Stopped, res.Best, res.BestValue)
	return finishRun(ctx, u, ws, run.RunDir, o.name(), pipeline.BestStage())
}

// morPlans returns the mined training plans when the workspace has none
// (nil: the workspace's).
func morPlans(u *ui, ws *workspace.Workspace, o trainMoROptions, havePlanner bool) (map[int]data.Plan, error) {
	if len(ws.Plans) > 0 && o.Mined == "" {
		return nil, nil
	}
	recs, path, err := mine.Load(ws, o.Mined)
	if err != nil {
		return nil, err
	}
	if !havePlanner {
		return nil, fmt.Errorf("MoR trained from mined plans plans its validation and served queries with a planner: train one (strata train planner %s) and pass --planner", o.WS)
	}
	plans := train.MinedPlans(recs, 0.5)
	tqs, err := ws.SKB.QA.Split(data.SplitTrain)
	if err != nil {
		return nil, err
	}
	n := 0
	for _, q := range tqs {
		if _, ok := plans[q.ID]; ok {
			n++
		}
	}
	fmt.Fprintf(u.out, "training from mined plans (%s: %d of %d train questions with F1 >= 0.5)\n", path, n, len(tqs))
	return plans, nil
}
