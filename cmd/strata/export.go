package main

import (
	"fmt"
	"github.com/strata-retrieval/strata/infer/llmrerank"
	"github.com/strata-retrieval/strata/infer/registry"
	"io"
	"sort"

	"github.com/spf13/cobra"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/graphops/workspace"
	"github.com/strata-retrieval/strata/infer"
	"github.com/strata-retrieval/strata/internal/atomicfile"
	"github.com/strata-retrieval/strata/reranker"
	"github.com/strata-retrieval/strata/reranker/bpe"
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
			ws, err := workspace.Load(args[0])
			if err != nil {
				return err
			}
			defer ws.Close()
			var plans []data.PlanRecord
			if ws.Plans != nil {
				ids := make([]int, 0, len(ws.Plans))
				for id := range ws.Plans {
					ids = append(ids, id)
				}
				sort.Ints(ids)
				for _, id := range ids {
					rec := data.PlanRecord{QID: id, Plan: ws.Plans[id]}
					if ws.SKB.QA != nil {
						if q, ok := ws.SKB.QA.ByID(id); ok {
							rec.Query, rec.AnswerIDs = q.Text, q.Answers
						}
					}
					plans = append(plans, rec)
				}
			}
			if err := data.WriteSKBDir(out, ws.SKB, data.WriteOptions{Compress: compress, Overwrite: force, Plans: plans}); err != nil {
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

func newExportRerankerDataCmd(u *ui) *cobra.Command {
	var model, out, split, tokenizer string
	var poolK, hard, fieldTokens int
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
negatives) from these records afresh each step.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if model == "" || out == "" {
				return fmt.Errorf("--model and --out are required")
			}
			ws, err := workspace.Load(args[0])
			if err != nil {
				return err
			}
			defer ws.Close()
			m, err := registry.Ranker(infer.NewEnv(cmd.Context(), ws), model)
			if err != nil {
				return err
			}
			qs, err := ws.SKB.QA.Split(split)
			if err != nil {
				return err
			}
			u.stage("ranking %d %s queries", len(qs), split)
			ser := reranker.SerializeConfig{MaxFieldTokens: fieldTokens}
			if tokenizer == "" {
				tokenizer, _ = bpe.Qwen3Path()
			}
			if tokenizer != "" {
				if ser.Tokenizer, err = bpe.Load(tokenizer); err != nil {
					return err
				}
			} else {
				fmt.Fprintf(u.err, "no tokenizer (--tokenizer, or make's Qwen3 tokenizer.json): fields are cut to %d words, not model tokens\n", fieldTokens)
			}
			recs, err := llmrerank.Records(cmd.Context(), ws, m, qs, llmrerank.RecordOptions{PoolK: poolK, Hard: hard, Serialize: ser})
			if err != nil {
				return err
			}
			if err := atomicfile.WriteFile(out, func(w io.Writer) error { return reranker.WriteRecords(w, recs) }); err != nil {
				return err
			}
			fmt.Fprintf(u.out, "wrote %d records to %s\n", len(recs), out)
			return nil
		},
	}
	cmd.Flags().StringVar(&model, "model", "", "stage-2 model: a GRASP run (or any model or method)")
	cmd.Flags().StringVar(&out, "out", "", "output JSONL file")
	cmd.Flags().StringVar(&split, "split", data.SplitTrain, "query split")
	cmd.Flags().IntVar(&poolK, "pool", 100, "stage-2 candidates kept per query")
	cmd.Flags().IntVar(&hard, "hard", 30, "hard negatives per query")
	cmd.Flags().IntVar(&fieldTokens, "field-tokens", 300, "model tokens kept per text field (GRASP's max_text_field_tokens: 300 Amazon and Prime, 512 MAG)")
	cmd.Flags().StringVar(&tokenizer, "tokenizer", "", "the reranker's tokenizer.json (default Qwen3's, fetched by make)")
	return cmd
}
