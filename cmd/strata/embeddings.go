package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/graphops/workspace"
	"github.com/strata-retrieval/strata/infer"
)

func newImportEmbeddingsCmd(u *ui) *cobra.Command {
	var docs, queries, docTensor, queryTensor string
	cmd := &cobra.Command{
		Use:   "import-embeddings WORKSPACE --docs FILE [--queries FILE]",
		Short: "Use precomputed vectors as the workspace's dense channel",
		Long: `Make precomputed vectors the workspace's dense channel (replacing a trained
encoder's): --docs holds one vector per node (row i for node i), --queries one
per query id. Formats: .npy (2-D float32 or float16), .safetensors (the only
2-D tensor, or the one named by --doc-tensor / --query-tensor) and STaRK's .pt
embedding dictionaries (id -> tensor, as saved by torch.save). Rows are
L2-normalised. Without --queries only queries of a dictionary can be scored;
the dense method and CoR need query vectors.`,
		Example: `  strata import-embeddings ws --docs candidate_emb_dict.pt --queries query_emb_dict.pt`,
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if docs == "" {
				return fmt.Errorf("--docs is required")
			}
			ws, err := workspace.Load(args[0])
			if err != nil {
				return err
			}
			defer ws.Close()
			de, err := data.ReadEmbeddings(docs, docTensor, len(ws.SKB.Nodes))
			if err != nil {
				return err
			}
			var qe *data.Embeddings
			if queries != "" {
				maxID := 0
				if ws.SKB.QA != nil {
					for _, q := range ws.SKB.QA.Queries {
						maxID = max(maxID, q.ID)
					}
				}
				if qe, err = data.ReadEmbeddings(queries, queryTensor, maxID+1); err != nil {
					return err
				}
			}
			d, err := infer.SaveDenseImported(ws, de, qe)
			if err != nil {
				return err
			}
			present := 0
			for _, p := range de.Present {
				if p {
					present++
				}
			}
			fmt.Fprintf(u.out, "imported %d-dimensional vectors for %d of %d nodes", d.Docs.Dim, present, len(de.Present))
			if qe != nil {
				n := 0
				for _, p := range qe.Present {
					if p {
						n++
					}
				}
				fmt.Fprintf(u.out, " and %d queries", n)
			}
			fmt.Fprintln(u.out)
			return nil
		},
	}
	cmd.Flags().StringVar(&docs, "docs", "", "document vectors, one per node")
	cmd.Flags().StringVar(&queries, "queries", "", "query vectors, one per query id")
	cmd.Flags().StringVar(&docTensor, "doc-tensor", "", "safetensors tensor name of the document vectors")
	cmd.Flags().StringVar(&queryTensor, "query-tensor", "", "safetensors tensor name of the query vectors")
	return cmd
}
