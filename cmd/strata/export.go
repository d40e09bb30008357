package main

import (
	"context"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/graphops/workspace"
	"github.com/strata-retrieval/strata/infer"
	"github.com/strata-retrieval/strata/infer/llmrerank"
	"github.com/strata-retrieval/strata/infer/registry"
	"github.com/strata-retrieval/strata/internal/atomicfile"
	"github.com/strata-retrieval/strata/reranker"
)

func newExportCmd(u *ui) *cobra.Command {
	var out string
	var compress, force bool
	cmd := &cobra.Command{
		Use:   "export WORKSPACE --out DIR",
		Short: "Write a workspace as skbdir/1 (subcommands: reranker-data, onnx)",
		Long: `Write a workspace as an skbdir/1 directory (and its plans as
stark_qa/plans.jsonl). Each split is written as split/NAME.index; a split
name with '/' (MetaQA's 1-hop-dev/test-reachable) is written as nested
directories below split/ and reads back under the same name. Every file is
written inside --out: split names that are empty, hold "." or ".." as a
component, a backslash or a control character are refused.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if out == "" {
				return fmt.Errorf("--out is required")
			}
			if err := inputs(args[0]).Check("--out", out); err != nil {
				return err
			}
			ws, err := workspace.Load(args[0])
			if err != nil {
				return err
			}
			defer ws.Close()
			if err := data.WriteSKBDir(out, ws.SKB, data.WriteOptions{Compress: compress, Overwrite: force, Plans: ws.PlanRecords()}); err != nil {
				return err
			}
			fmt.Fprintf(u.out, "wrote %s\n", out)
			return nil
		},
	}
	cmd.Flags().StringVar(&out, "out", "", "output directory")
	cmd.Flags().BoolVar(&compress, "compress", false, "write nodes.jsonl.zst and edges.tsv.zst")
	cmd.Flags().BoolVar(&force, "force", false, "replace --out if it exists")
	cmd.AddCommand(newExportRerankerDataCmd(u), newExportONNXCmd(u))
	return cmd
}

// rerankerDataOptions are export reranker-data's flags.
type rerankerDataOptions struct {
	model, out, split, tokenizer string
	poolK, hard, fieldTokens     int
	force                        bool
}

func newExportRerankerDataCmd(u *ui) *cobra.Command {
	var o rerankerDataOptions
	cmd := &cobra.Command{
		Use:   "reranker-data WORKSPACE --model RUNDIR --out FILE.jsonl",
		Short: "Write listwise reranker training records (GRASP stage 3 data) as JSONL",
		Long: `Write one JSON record per query of --split: the top --pool candidates of
the stage-2 ranking of --model (a GRASP run from strata train grasp, or any
model or method), every gold answer as a positive and the --hard best-ranked
non-answers as hard negatives, each candidate serialized as GRASP's appendix
B.6 ("[Type] <node type>", "[name] <name>", "[field] value" lines each cut
to --field-tokens tokens of the reranker's tokenizer (--tokenizer, default
Qwen3's tokenizer.json fetched by make; words when there is none), then
"[relation] name1; name2; ..." with at most 10 neighbours per relation, both
directions). Listwise trainers draw groups of 24 (one positive, 23
negatives) from these records afresh each step. The file is written once,
atomically, when every query is ranked: a run stopped before leaves no file
and ranks from the start when run again (no --resume).`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if o.model == "" || o.out == "" {
				return fmt.Errorf("--model and --out are required")
			}
			return runExportRerankerData(cmd.Context(), u, args[0], o)
		},
	}
	cmd.Flags().StringVar(&o.model, "model", "", "stage-2 model: a GRASP run (or any model or method)")
	cmd.Flags().StringVar(&o.out, "out", "", "output JSONL file")
	cmd.Flags().StringVar(&o.split, "split", data.SplitTrain, "query split")
	cmd.Flags().IntVar(&o.poolK, "pool", 100, "stage-2 candidates kept per query")
	cmd.Flags().IntVar(&o.hard, "hard", 30, "hard negatives per query")
	cmd.Flags().IntVar(&o.fieldTokens, "field-tokens", 300, "model tokens kept per text field (GRASP's max_text_field_tokens: 300 Amazon and Prime, 512 MAG)")
	cmd.Flags().StringVar(&o.tokenizer, "tokenizer", "", "the reranker's tokenizer.json (default Qwen3's, fetched by make)")
	cmd.Flags().BoolVar(&o.force, "force", false, "replace an existing --out")
	return cmd
}

func runExportRerankerData(ctx context.Context, u *ui, wsDir string, o rerankerDataOptions) error {
	ws, err := workspace.Load(wsDir)
	if err != nil {
		return err
	}
	defer ws.Close()
	g := inputs(wsDir)
	g.Input("--model", o.model)
	g.Input("--tokenizer", o.tokenizer)
	m, err := registry.Ranker(watched(g, infer.NewEnv(ctx, ws)), o.model)
	if err != nil {
		return err
	}
	if err := fileOutput(g, "--out", o.out, o.force); err != nil {
		return err
	}
	qs, err := ws.SKB.QA.Split(o.split)
	if err != nil {
		return err
	}
	ser, found, err := reranker.SerializeConfig{MaxFieldTokens: o.fieldTokens}.WithTokenizer(o.tokenizer)
	if err != nil {
		return err
	}
	if !found {
		fmt.Fprintf(u.err, "no tokenizer (--tokenizer, or make's Qwen3 tokenizer.json): fields are cut to %d words, not model tokens\n", o.fieldTokens)
	}
	u.stage("ranking %d %s queries", len(qs), o.split)
	recs, err := llmrerank.Records(ctx, ws, m, qs, llmrerank.RecordOptions{PoolK: o.poolK, Hard: o.hard, Serialize: ser})
	if err != nil {
		return err
	}
	if err := atomicfile.WriteFile(o.out, func(w io.Writer) error { return reranker.WriteRecords(w, recs) }); err != nil {
		return err
	}
	fmt.Fprintf(u.out, "wrote %d records to %s\n", len(recs), o.out)
	return nil
}
