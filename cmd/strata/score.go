package main

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/strata-retrieval/strata/graphops/workspace"
	"github.com/strata-retrieval/strata/infer"
	"github.com/strata-retrieval/strata/infer/pipeline"
	"github.com/strata-retrieval/strata/infer/serve"
	"github.com/strata-retrieval/strata/internal/outguard"
)

// loadRunner loads a workspace and compiles a pipeline (a pipeline file,
// RUNDIR/pipeline.json for a run directory, or a model bundle extracted to
// a temporary directory) over it; cleanup closes both. Every model and
// file the pipeline loads is recorded in g, the command's inputs.
func loadRunner(ctx context.Context, wsDir, path string, ignoreFingerprint bool, g *outguard.Guard) (*workspace.Workspace, *pipeline.Runner, func(), error) {
	ws, err := workspace.Load(wsDir)
	if err != nil {
		return nil, nil, nil, err
	}
	env := watched(g, infer.NewEnv(ctx, ws))
	env.IgnoreFingerprint = ignoreFingerprint
	r, rm, err := serve.Open(env, path)
	cleanup := func() {
		rm()
		ws.Close()
	}
	if err != nil {
		cleanup()
		return nil, nil, nil, err
	}
	return ws, r, cleanup, nil
}

type scoreOptions struct {
	WS, Pipeline, Queries, Out string
	IgnoreFingerprint          bool
	Score                      serve.ScoreOptions
}

const scoreLong = `Score every query of FILE with a pipeline (a pipeline file, or a run directory
holding the pipeline.json that strata train writes beside its checkpoints) and
write the top -k of each in query order: JSON lines
{"id", "ranking": [{"node", "score", "name"[, "stages"]}]} or a TREC run file
(qid Q0 docid rank score tag) for trec_eval and ranx.

FILE is a STaRK-style CSV (.csv: id, query[, answer_ids]), JSON lines (.jsonl,
.json or .ndjson: {"id": 3, "query": "..."[, "plan": {...}, "answer_ids":
[...]]}, field names exact: another field or one given twice stops the run at
its line, naming it) or plain text (.txt or no extension: one query per line,
ids from 0); any other name is refused, and an id given twice stops the run at
its second line, naming both. Queries are
scored in chunks on all cores: memory grows by an id per query, not with the
rankings. A killed run restarted with the same arguments continues where it
stopped (OUT.progress records how far it got) and produces the same file.

A query a method cannot answer (no anchor for a SimGRAG pattern, a text over
--max-query bytes, 16 KiB as serve's, a blank one, which serve refuses too) is
reported on stderr with its id, written as {"id", "ranking": [], "error"} (no
lines in a TREC run) and counted in the final line; the run goes on. A query a
stage answered by its fallback (its text channel over the query text: BM25, or
BM25 fused with the dense channel where a planner's training chose that; a
planner's text-fit gate found no plan that fits it, or its plan was unusable) is
marked "fallback": true in JSON lines and counted in the final line. --out may
not be the query file.`

func newScoreCmd(u *ui) *cobra.Command {
	var o scoreOptions
	cmd := &cobra.Command{
		Use:   "score WORKSPACE --pipeline P --queries FILE --out OUT",
		Short: "Rank a query file with a pipeline and write a run file (JSONL or TREC)",
		Long:  scoreLong,
		Example: `  strata score ws --pipeline ws/runs/cor --queries new.jsonl --out cor.jsonl
  strata score ws --pipeline hybrid.yaml --queries test.csv --format trec --out run.trec -k 100`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.WS = args[0]
			return runScore(cmd.Context(), u, o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.Pipeline, "pipeline", "", "pipeline file (JSON or YAML), run directory or model bundle (.tar)")
	f.StringVar(&o.Queries, "queries", "", "query file: .csv, .jsonl or text")
	f.StringVar(&o.Out, "out", "", "output run file")
	f.StringVar(&o.Score.Format, "format", "jsonl", "output format: jsonl or trec")
	f.IntVarP(&o.Score.TopK, "k", "k", 100, "results per query")
	f.BoolVar(&o.Score.Stages, "stages", false, "jsonl: include each scorer's own score")
	f.IntVar(&o.Score.MaxQuery, "max-query", serve.DefaultMaxQuery, "longest query text in bytes (a longer one is written as failed, not scored; a query's work grows with its length)")
	f.BoolVar(&o.Score.Force, "force", false, "replace an existing or foreign output")
	f.BoolVar(&o.IgnoreFingerprint, "ignore-fingerprint", false, "accept a bundle made for other data")
	return cmd
}

func runScore(ctx context.Context, u *ui, o scoreOptions) error {
	if o.Pipeline == "" || o.Queries == "" || o.Out == "" {
		return fmt.Errorf("--pipeline, --queries and --out are required")
	}
	if o.Score.TopK <= 0 {
		return fmt.Errorf("-k %d: want at least 1 result per query", o.Score.TopK)
	}
	g := inputs(o.WS)
	g.Input("--pipeline", o.Pipeline)
	g.Input("--queries", o.Queries)
	ws, r, cleanup, err := loadRunner(ctx, o.WS, o.Pipeline, o.IgnoreFingerprint, g)
	if err != nil {
		return err
	}
	defer cleanup()
	for _, out := range []string{o.Out, o.Out + serve.ProgressSuffix} {
		if err := g.Check("--out", out); err != nil {
			return err
		}
	}
	if u.tty {
		o.Score.Progress = func(done int) { fmt.Fprintf(u.err, "\rscored %d queries", done) }
	}
	shown, cr := 0, map[bool]string{true: "\r"}[u.tty]
	o.Score.OnError = func(id int, msg string) {
		if shown++; shown <= maxShownFailures {
			fmt.Fprintf(u.err, "%squery %d: not answered: %s\n", cr, id, msg)
		}
	}
	rep, err := serve.ScoreFile(ctx, ws, r, o.Queries, o.Out, o.Score)
	if u.tty {
		fmt.Fprintln(u.err)
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(u.out, "scored %d queries with %s into %s", rep.Queries, r.Name(), o.Out)
	if rep.Failed > 0 {
		fmt.Fprintf(u.out, "; %d could not be answered (%s), first: %s", rep.Failed, failureNote(o.Score.Format), rep.Examples[0])
	}
	if rep.Fallbacks > 0 {
		fmt.Fprintf(u.out, "; %d of them (%.0f%%) answered by a fallback, the text channel over the query text (no plan fits, a question too long to plan, or none usable: \"fallback\": true in JSONL)", rep.Fallbacks, 100*float64(rep.Fallbacks)/float64(max(rep.Queries, 1)))
	}
	fmt.Fprintln(u.out)
	return nil
}

// maxShownFailures bounds the unanswered queries printed one by one.
const maxShownFailures = 20

func failureNote(format string) string {
	if format == "trec" {
		return "no lines in the run"
	}
	return `written with "ranking": [] and their "error"`
}

type bundleOptions struct {
	WS, Pipeline, Out string
	Force             bool
}

func newBundleCmd(u *ui) *cobra.Command {
	var o bundleOptions
	cmd := &cobra.Command{
		Use:   "bundle WORKSPACE --pipeline P --out model.tar",
		Short: "Pack a pipeline and its checkpoints into one file for scoring elsewhere",
		Long: `Pack a pipeline file, the checkpoints of its models (weights and manifests),
the checkpoints those models name (MoR's planner; GRASP's mFAR, planner and
stage 3), the files and directories they read (an ONNX encoder, a GRASP plans
file, an exported LLM reranker), all found by loading each model once, and
the fingerprint of the workspace's data (and of its dense vectors when a
model needs them) into one tar file; a bundled model reads only from the
bundle. strata score, serve and eval accept the
bundle as --pipeline and refuse it on a workspace with other data unless
--ignore-fingerprint is given.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.WS = args[0]
			return runBundle(cmd.Context(), u, o)
		},
	}
	cmd.Flags().StringVar(&o.Pipeline, "pipeline", "", "pipeline file or run directory")
	cmd.Flags().StringVar(&o.Out, "out", "", "bundle to write (.tar)")
	cmd.Flags().BoolVar(&o.Force, "force", false, "replace an existing bundle")
	return cmd
}

func runBundle(ctx context.Context, u *ui, o bundleOptions) error {
	if o.Pipeline == "" || o.Out == "" {
		return fmt.Errorf("--pipeline and --out are required")
	}
	ws, err := workspace.Load(o.WS)
	if err != nil {
		return err
	}
	defer ws.Close()
	p, err := pipeline.ReadPipeline(o.Pipeline)
	if err != nil {
		return err
	}
	g := inputs(o.WS)
	g.Input("--pipeline", o.Pipeline)
	for _, s := range p.Stages() {
		for _, path := range s.Paths() {
			if path != "" {
				g.Input("model", p.ModelPath(path))
			}
		}
	}
	if err := fileOutput(g, "--out", o.Out, o.Force); err != nil {
		return err
	}
	if err := serve.WriteBundle(infer.NewEnv(ctx, ws), o.Out, p); err != nil {
		return err
	}
	fmt.Fprintf(u.out, "wrote %s\n", o.Out)
	return nil
}
