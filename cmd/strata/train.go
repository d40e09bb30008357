package main

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/graphops/workspace"
	"github.com/strata-retrieval/strata/infer"
	"github.com/strata-retrieval/strata/infer/pipeline"
	"github.com/strata-retrieval/strata/train"
)

type trainFlags struct {
	out    string
	resume bool
	cfg    train.Config
}

// defaultPatience is every trainer's default --patience but the
// planner's: checkpoints without a better validation metric before
// training stops. The learning-rate schedule does not depend on where
// training stops, so the best checkpoint is the one a full run selects
// whenever no later checkpoint would have beaten it; --patience 0 runs
// every epoch.
const defaultPatience = 3

func (f *trainFlags) bind(cmd *cobra.Command, epochs, batch int, lr float64, patience int) {
	fl := cmd.Flags()
	fl.StringVar(&f.out, "out", "", "run directory for checkpoints (default WORKSPACE/runs/<model>)")
	fl.BoolVar(&f.resume, "resume", false, "continue the run in --out from its latest checkpoint")
	fl.IntVar(&f.cfg.Epochs, "epochs", epochs, "training epochs")
	fl.IntVar(&f.cfg.BatchSize, "batch", batch, "mini-batch size")
	fl.Float64Var(&f.cfg.LR, "lr", lr, "peak learning rate (linear warmup, cosine decay)")
	fl.Float64Var(&f.cfg.WeightDecay, "weight-decay", 0.01, "AdamW weight decay (negative disables)")
	fl.Float64Var(&f.cfg.ClipNorm, "clip", 1, "global gradient-norm bound (negative disables)")
	fl.IntVar(&f.cfg.CheckpointEvery, "checkpoint-every", 0, "steps between checkpoints (default one epoch)")
	fl.IntVar(&f.cfg.Patience, "patience", patience, "stop after this many checkpoints without validation improvement (0: never)")
	fl.Uint64Var(&f.cfg.Seed, "seed", 1, "random seed")
}

// options returns the run's options; its directory (--out, default
// WORKSPACE/runs/MODEL) may not be, contain or lie inside the workspace's
// snapshot or any of reads (the runs, files and models the training
// reads).
func (f *trainFlags) options(u *ui, ws *workspace.Workspace, model string, reads ...string) (train.Options, error) {
	dir := f.out
	if dir == "" {
		dir = filepath.Join(ws.Dir, "runs", model)
	}
	g := inputs(ws.Dir)
	for _, r := range reads {
		g.Input("input", r)
	}
	if err := g.Check("run directory", dir); err != nil {
		return train.Options{}, err
	}
	return train.Options{RunDir: dir, Fingerprint: ws.Fingerprint, Resume: f.resume, Log: u.log()}, nil
}

func newTrainCmd(u *ui) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "train",
		Short: "Train models: encoder, CoR, planner, MoR, KGQA, mFAR, GRASP, LLM reranker",
		Long: `Train a model on a workspace's train split, evaluating every checkpoint on
the val split. Checkpoints (weights, optimizer state, manifest with metrics)
go to the run directory, RUNDIR/best points at the one with the best val MRR
(the planner's: the earliest within one val question's share of the best),
and the same seed and data give bit-identical checkpoints; --resume continues
an interrupted run exactly (only the latest checkpoint keeps the optimizer
state it needs). Training stops early after --patience checkpoints without a
better val metric: 3 by default, 6 for the planner; KGQA runs every epoch.
Every run ends by writing RUNDIR/pipeline.json, which serves the ranking
its checkpoints were selected by (the planner: its plans executed,
plan-exec; the encoder: the dense method; the others:
RUNDIR/best; a planner trained from plan files and a KGQA model are selected
by plan or path accuracy, and serve plan-exec and the KGQA ranking),
evaluating it from disk on val and printing that row: strata score, serve,
bundle and eval --pipeline RUNDIR give exactly those numbers.`,
	}
	cmd.AddCommand(newTrainEncoderCmd(u), newTrainCoRCmd(u), newTrainPlannerCmd(u), newTrainMoRCmd(u), newTrainKGQACmd(u), newTrainMFARCmd(u), newTrainGraspCmd(u), newTrainLLMRerankerCmd(u))
	return cmd
}

// finishRun writes RUNDIR/pipeline.json serving stage, evaluates it on
// the val split as strata score and serve load it (from disk) and prints
// the run's last line: the row it serves, its val metrics and how to
// reproduce them. A served row whose numbers differ from those its best
// checkpoint recorded is an error: what was validated must be what is
// served.
func finishRun(ctx context.Context, u *ui, ws *workspace.Workspace, runDir, name string, stage pipeline.Stage) error {
	s, err := train.WriteServed(infer.NewEnv(ctx, ws), runDir, name, stage, data.SplitVal)
	if err != nil {
		return err
	}
	same := ""
	if len(s.Checked) > 0 {
		same = ", as its best checkpoint recorded"
	}
	fmt.Fprintf(u.out, "%s serves %s: val %s%s; strata eval %s --pipeline %s --split val reproduces it, strata score, serve and bundle serve it\n",
		runDir, s.Row, s.Summary, same, ws.Dir, runDir)
	return nil
}

// optionalDense is the workspace's dense channel, nil when it has none.
func optionalDense(env *infer.Env) (*infer.DenseChannel, error) {
	d, err := env.Dense()
	if errors.Is(err, infer.ErrNoDense) {
		return nil, nil
	}
	return d, err
}
