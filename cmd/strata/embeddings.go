package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/graphops/workspace"
	"github.com/strata-retrieval/strata/infer"
)

type importEmbeddingsOptions struct {
	WS, Docs, Queries, DocTensor, QueryTensor string
}

func newImportEmbeddingsCmd(u *ui) *cobra.Command {
	var o importEmbeddingsOptions
	cmd := &cobra.Command{
		Use:   "import-embeddings WORKSPACE --docs FILE [--queries FILE]",
		Short: "Use precomputed vectors as the workspace's dense channel",
		Long: `Make precomputed vectors the workspace's dense channel (replacing a trained
encoder's): --docs holds one vector per node (row i for node i; a matrix with
another row count is an error), --queries one per query id. Formats: .npy (2-D float32 or float16), .safetensors (the only
2-D tensor, or the one named by --doc-tensor / --query-tensor) and STaRK's .pt
embedding dictionaries (id -> tensor, as saved by torch.save). Rows are
L2-normalised. Without --queries only queries of a dictionary can be scored;
the dense method and CoR need query vectors.`,
		Example: `  strata import-embeddings ws --docs candidate_emb_dict.pt --queries query_emb_dict.pt`,
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.WS = args[0]
			return runImportEmbeddings(u, o)
		},
	}
	cmd.Flags().StringVar(&o.Docs, "docs", "", "document vectors, one per node")
	cmd.Flags().StringVar(&o.Queries, "queries", "", "query vectors, one per query id")
	cmd.Flags().StringVar(&o.DocTensor, "doc-tensor", "", "safetensors tensor name of the document vectors")
	cmd.Flags().StringVar(&o.QueryTensor, "query-tensor", "", "safetensors tensor name of the query vectors")
	return cmd
}

func runImportEmbeddings(u *ui, o importEmbeddingsOptions) error {
	if o.Docs == "" {
		return fmt.Errorf("--docs is required")
	}
	ws, err := workspace.Load(o.WS)
	if err != nil {
		return err
	}
	defer ws.Close()
	de, err := data.ReadNodeEmbeddings(o.Docs, o.DocTensor, len(ws.SKB.Nodes))
	if err != nil {
		return err
	}
	var qe *data.Embeddings
	if o.Queries != "" {
		maxID := 0
		if ws.SKB.QA != nil {
			for _, q := range ws.SKB.QA.Queries {
				maxID = max(maxID, q.ID)
			}
		}
		if qe, err = data.ReadEmbeddings(o.Queries, o.QueryTensor, maxID+1); err != nil {
			return err
		}
	}
	d, err := infer.SaveDenseImported(ws, de, qe)
	if err != nil {
		return err
	}
	fmt.Fprintf(u.out, "imported %d-dimensional vectors for %d of %d nodes", d.Docs.Dim, count(de.Present), len(de.Present))
	if qe != nil {
		fmt.Fprintf(u.out, " and %d queries", count(qe.Present))
	}
	fmt.Fprintln(u.out)
	return nil
}

// count counts the true values.
func count(bs []bool) int {
	n := 0
	for _, b := range bs {
		if b {
			n++
		}
	}
	return n
}
