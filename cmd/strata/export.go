package main

import (
	"fmt"
	"sort"

	"github.com/spf13/cobra"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/graphops/workspace"
)

func newExportCmd(u *ui) *cobra.Command {
	var out string
	var compress, force bool
	cmd := &cobra.Command{
		Use:   "export WORKSPACE --out DIR",
		Short: "Write a workspace's SKB, questions and plans as an skbdir/1 directory",
		Args:  cobra.ExactArgs(1),
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
	return cmd
}
