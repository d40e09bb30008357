package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/strata-retrieval/strata/graphops/workspace"
	"github.com/strata-retrieval/strata/infer"
)

// loadPipeline reads a pipeline file, or RUNDIR/pipeline.json for a run
// directory.
func loadPipeline(path string) (*infer.Pipeline, error) {
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		path = filepath.Join(path, infer.PipelineFile)
	}
	return infer.ReadPipeline(path)
}

func newScoreCmd(u *ui) *cobra.Command {
	var pipeline, queries, out string
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
			p, err := loadPipeline(pipeline)
			if err != nil {
				return err
			}
			ws, err := workspace.Load(args[0])
			if err != nil {
				return err
			}
			defer ws.Close()
			r, err := p.Compile(ws)
			if err != nil {
				return err
			}
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
	f.StringVar(&pipeline, "pipeline", "", "pipeline file (JSON or YAML) or run directory")
	f.StringVar(&queries, "queries", "", "query file: .csv, .jsonl or text")
	f.StringVar(&out, "out", "", "output run file")
	f.StringVar(&o.Format, "format", "jsonl", "output format: jsonl or trec")
	f.IntVarP(&o.TopK, "k", "k", 100, "results per query")
	f.BoolVar(&o.Stages, "stages", false, "jsonl: include each scorer's own score")
	f.BoolVar(&o.Force, "force", false, "replace an existing or foreign output")
	return cmd
}
