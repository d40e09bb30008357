package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/strata-retrieval/strata/data/synth"
	"github.com/strata-retrieval/strata/train/demo"
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
workspace (DIR/workspace) and evaluate on the test split. Re-running replaces
the skb and workspace an earlier demo wrote there (each holds a
.strata-demo file); a DIR/skb or DIR/workspace that a demo did not write,
a real workspace included, is refused, never deleted.

It takes the path a real SKB takes: the workspace holds questions and answers
only. Plans are mined from the train and val answers (the coverage table is
printed); the planner, MoR and GRASP learn from the mined train plans and plan
the test questions themselves. The generator's ground-truth plans feed only
the rows marked oracle:

  plan-structure (oracle)  graph only: the ground-truth plan's structure without text,
  oracle-plan (oracle)     the ground-truth plan with its textual restriction,

beside the dense encoder, CoR, plan-exec (the planner's plans executed),
MoR with and without its reranker, mFAR, GRASP's stages and SAGE.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runDemo(cmd.Context(), u, o) },
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

// runDemo runs the demo and prints its test table.
func runDemo(ctx context.Context, u *ui, o demoOptions) error {
	var log io.Writer
	if u.tty {
		log = u.err
	}
	res, err := demo.Run(ctx, demo.Options{Config: o.Config, Dir: o.Dir, Out: u.out, Log: log, Build: u.buildProgress()})
	if err != nil {
		return err
	}
	if err := printSummaries(u.out, res.Rows, o.JSON); err != nil {
		return err
	}
	if !o.JSON {
		fmt.Fprintf(u.out, "\nNext: strata info %s | strata search %s \"...\" | strata eval %s --method bm25 --split val\n", res.Workspace, res.Workspace, res.Workspace)
	}
	return nil
}
