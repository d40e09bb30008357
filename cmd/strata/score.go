package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/strata-retrieval/strata/graphops/workspace"
	"github.com/strata-retrieval/strata/infer"
)

// loadPipeline reads a pipeline file, RUNDIR/pipeline.json for a run
// directory, or a model bundle (.tar, extracted to a temporary directory
// that cleanup removes).
func loadPipeline(ws *workspace.Workspace, path string, ignoreFingerprint bool) (p *infer.Pipeline, cleanup func(), err error) {
	cleanup = func() {}
	if strings.HasSuffix(path, ".tar") {
		dir, err := os.MkdirTemp("", "strata-bundle-*")
		if err != nil {
			return nil, cleanup, err
		}
		cleanup = func() { os.RemoveAll(dir) }
		p, err := infer.OpenBundle(path, dir, ws, ignoreFingerprint)
		return p, cleanup, err
	}
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		path = filepath.Join(path, infer.PipelineFile)
	}
	p, err = infer.ReadPipeline(path)
	return p, cleanup, err
}

// loadRunner loads a workspace and compiles a pipeline (file, run
// directory or bundle) over it; cleanup closes both.
func loadRunner(wsDir, pipeline string, ignoreFingerprint bool) (*workspace.Workspace, *infer.Runner, func(), error) {
	ws, err := workspace.Load(wsDir)
	if err != nil {
		return nil, nil, nil, err
	}
	p, rm, err := loadPipeline(ws, pipeline, ignoreFingerprint)
	cleanup := func() {
		rm()
		ws.Close()
	}
	if err != nil {
		cleanup()
		return nil, nil, nil, err
	}
	r, err := p.Compile(ws)
	if err != nil {
		cleanup()
		return nil, nil, nil, err
	}
	return ws, r, cleanup, nil
}

func newScoreCmd(u *ui) *cobra.Command {
	var pipeline, queries, out string
	var ignoreFP bool
	var o infer.ScoreOptions
	cmd := &cobra.Command{
		Use:   "score WORKSPACE --pipeline P --queries FILE --out OUT",
		Short: "Rank a query file with a pipeline and write a run file (JSONL or TREC)",
		Long: `Score every query of FILE with a pipeline (a pipeline file, or a run directory
holding the pipeline.json that strata train writes beside its checkpoints) and
write the top -k of each in query order: JSON lines
{"id", "ranking": [{"node", "score", "name"[, "stages"]}]} or a TREC run file
(qid Q0 docid rank score tag) for trec_eval and ranx.

FILE is a STaRK-style CSV (id, query[, answer_ids]), JSON lines
({"id": 3, "query": "..."}) or plain text (one query per line, ids from 0).
Queries are scored in chunks on all cores, so memory does not grow with the
file. A killed run restarted with the same arguments continues where it
stopped (OUT.progress records how far it got) and produces the same file.`,
		Example: `  strata score ws --pipeline ws/runs/cor --queries new.jsonl --out cor.jsonl
  strata score ws --pipeline hybrid.yaml --queries test.csv --format trec --out run.trec -k 100`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if pipeline == "" || queries == "" || out == "" {
				return fmt.Errorf("--pipeline, --queries and --out are required")
			}
			ws, r, cleanup, err := loadRunner(args[0], pipeline, ignoreFP)
			if err != nil {
				return err
			}
			defer cleanup()
			if u.tty {
				o.Progress = func(done int) { fmt.Fprintf(u.err, "\rscored %d queries", done) }
			}
			n, err := infer.ScoreFile(cmd.Context(), ws, r, queries, out, o)
			if u.tty {
				fmt.Fprintln(u.err)
			}
			if err != nil {
				return err
			}
			fmt.Fprintf(u.out, "scored %d queries with %s into %s\n", n, r.Name(), out)
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&pipeline, "pipeline", "", "pipeline file (JSON or YAML), run directory or model bundle (.tar)")
	f.StringVar(&queries, "queries", "", "query file: .csv, .jsonl or text")
	f.StringVar(&out, "out", "", "output run file")
	f.StringVar(&o.Format, "format", "jsonl", "output format: jsonl or trec")
	f.IntVarP(&o.TopK, "k", "k", 100, "results per query")
	f.BoolVar(&o.Stages, "stages", false, "jsonl: include each scorer's own score")
	f.BoolVar(&o.Force, "force", false, "replace an existing or foreign output")
	f.BoolVar(&ignoreFP, "ignore-fingerprint", false, "accept a bundle made for other data")
	return cmd
}

func newBundleCmd(u *ui) *cobra.Command {
	var pipeline, out string
	cmd := &cobra.Command{
		Use:   "bundle WORKSPACE --pipeline P --out model.tar",
		Short: "Pack a pipeline and its checkpoints into one file for scoring elsewhere",
		Long: `Pack a pipeline file, the checkpoints of its models (weights and manifests)
and the fingerprint of the workspace's data (and of its dense vectors when a
model needs them) into one tar file. strata score, serve and eval accept the
bundle as --pipeline and refuse it on a workspace with other data unless
--ignore-fingerprint is given.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if pipeline == "" || out == "" {
				return fmt.Errorf("--pipeline and --out are required")
			}
			ws, err := workspace.Load(args[0])
			if err != nil {
				return err
			}
			defer ws.Close()
			p, cleanup, err := loadPipeline(ws, pipeline, false)
			defer cleanup()
			if err != nil {
				return err
			}
			if err := infer.WriteBundle(out, p, ws); err != nil {
				return err
			}
			fmt.Fprintf(u.out, "wrote %s\n", out)
			return nil
		},
	}
	cmd.Flags().StringVar(&pipeline, "pipeline", "", "pipeline file or run directory")
	cmd.Flags().StringVar(&out, "out", "", "bundle to write (.tar)")
	return cmd
}
