package main

import (
	"context"
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

type searchOptions struct {
	WS, Query, Field string
	K                int
	JSON, Dense      bool
}

func newSearchCmd(u *ui) *cobra.Command {
	var o searchOptions
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
			o.WS, o.Query = args[0], args[1]
			return runSearch(cmd.Context(), u, o)
		},
	}
	cmd.Flags().StringVar(&o.Field, "field", workspace.DocField, "index to search: doc, name or a text field")
	cmd.Flags().IntVarP(&o.K, "k", "k", 10, "number of results")
	cmd.Flags().BoolVar(&o.JSON, "json", false, "print one JSON object")
	cmd.Flags().BoolVar(&o.Dense, "dense", false, "search the dense channel instead of BM25")
	return cmd
}

func runSearch(ctx context.Context, u *ui, o searchOptions) error {
	if o.K < 1 {
		return fmt.Errorf("-k %d: want at least 1", o.K)
	}
	ws, err := workspace.Load(o.WS)
	if err != nil {
		return err
	}
	defer ws.Close()
	hits, err := searchHits(ctx, ws, &o)
	if err != nil {
		return err
	}
	out := make([]searchHit, len(hits))
	for i, h := range hits {
		n := ws.SKB.Nodes[h.ID]
		out[i] = searchHit{Rank: i + 1, Node: h.ID, Type: ws.SKB.Schema.NodeTypes[n.Type], Name: n.Name, Score: h.Score}
	}
	if o.JSON {
		return json.NewEncoder(u.out).Encode(map[string]any{"query": o.Query, "field": o.Field, "hits": out})
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
}

// searchHits runs the search o asks for (o.Field becomes "dense" for a
// dense search).
func searchHits(ctx context.Context, ws *workspace.Workspace, o *searchOptions) ([]index.Hit, error) {
	switch {
	case o.Dense:
		o.Field = "dense"
		d, err := infer.LoadDense(ws)
		if err != nil {
			return nil, err
		}
		v, err := d.QueryVector(data.Query{ID: -1, Text: o.Query})
		if err != nil {
			return nil, err
		}
		res, err := index.SearchDense(ctx, d.Docs, &index.Matrix{Rows: 1, Dim: len(v), Data: v}, o.K, ws.CandMask, index.DenseConfig{})
		if err != nil {
			return nil, err
		}
		return res[0], nil
	case o.Field == workspace.DocField:
		return ws.SearchDoc(o.Query, o.K), nil
	}
	ix, ok := ws.Fields[o.Field]
	if !ok {
		return nil, fmt.Errorf("--field %q: have %s, %s", o.Field, workspace.DocField, strings.Join(ws.FieldNames(), ", "))
	}
	return ix.Search(o.Query, o.K, nil), nil
}
