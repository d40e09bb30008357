package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/data/index"
	"github.com/strata-retrieval/strata/graphops/workspace"
	"github.com/strata-retrieval/strata/infer"
)

type searchHit struct {
	Rank  int     `json:"rank"`
	Node  uint32  `json:"node"`
	Type  string  `json:"type"`
	Name  string  `json:"name"`
	Score float32 `json:"score"`
}

func newSearchCmd(u *ui) *cobra.Command {
	var field string
	var k int
	var asJSON, dense bool
	cmd := &cobra.Command{
		Use:   `search WORKSPACE "query text"`,
		Short: "BM25 search over whole documents or one text field",
		Long: `Search a workspace with BM25. By default the whole document of every
candidate node is searched; --field searches one text field (or "name") over
all nodes; --dense ranks the candidates by the cosine of their vectors from
the workspace's dense channel (exact top-k, blocked GEMM on all cores).`,
		Example: `  strata search ws "waterproof hiking boots" -k 5
  strata search ws "Acme" --field name`,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			if k < 1 {
				return fmt.Errorf("-k %d: want at least 1", k)
			}
			ws, err := workspace.Load(args[0])
			if err != nil {
				return err
			}
			defer ws.Close()
			var hits []index.Hit
			if dense {
				d, err := infer.LoadDense(ws)
				if err != nil {
					return err
				}
				v, err := d.QueryVector(data.Query{ID: -1, Text: args[1]})
				if err != nil {
					return err
				}
				res, err := index.SearchDense(cmd.Context(), d.Docs, &index.Matrix{Rows: 1, Dim: len(v), Data: v}, k, ws.CandMask, index.DenseConfig{})
				if err != nil {
					return err
				}
				hits = res[0]
				field = "dense"
			} else if field == workspace.DocField {
				hits = ws.SearchDoc(args[1], k)
			} else {
				ix, ok := ws.Fields[field]
				if !ok {
					return fmt.Errorf("--field %q: have %s, %s", field, workspace.DocField, strings.Join(ws.FieldNames(), ", "))
				}
				hits = ix.Search(args[1], k, nil)
			}
			out := make([]searchHit, len(hits))
			for i, h := range hits {
				n := ws.SKB.Nodes[h.ID]
				out[i] = searchHit{Rank: i + 1, Node: h.ID, Type: ws.SKB.Schema.NodeTypes[n.Type], Name: n.Name, Score: h.Score}
			}
			if asJSON {
				return json.NewEncoder(u.out).Encode(map[string]any{"query": args[1], "field": field, "hits": out})
			}
			if len(out) == 0 {
				fmt.Fprintln(u.out, "no document matches")
				return nil
			}
			w := tabwriter.NewWriter(u.out, 0, 4, 2, ' ', 0)
			fmt.Fprintln(w, "rank\tnode\ttype\tscore\tname")
			for _, h := range out {
				fmt.Fprintf(w, "%d\t%d\t%s\t%.4f\t%s\n", h.Rank, h.Node, h.Type, h.Score, h.Name)
			}
			return w.Flush()
		},
	}
	cmd.Flags().StringVar(&field, "field", workspace.DocField, "index to search: doc, name or a text field")
	cmd.Flags().IntVarP(&k, "k", "k", 10, "number of results")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON object")
	cmd.Flags().BoolVar(&dense, "dense", false, "search the dense channel instead of BM25")
	return cmd
}
