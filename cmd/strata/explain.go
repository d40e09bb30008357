package main

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/graphops/workspace"
	"github.com/strata-retrieval/strata/infer"
)

func newExplainCmd(u *ui) *cobra.Command {
	var model, query string
	var k int
	var asJSON bool
	cmd := &cobra.Command{
		Use:   `explain WORKSPACE --model RUNDIR/best --query "..."`,
		Short: "Show how a model scores a query (CoR gates, MoR trajectories, KGQA subgraphs, mFAR weights, GRASP plan and fusion)",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if model == "" || query == "" {
				return fmt.Errorf("--model and --query are required")
			}
			ws, err := workspace.Load(args[0])
			if err != nil {
				return err
			}
			defer ws.Close()
			m, err := infer.LoadModel(ws, model)
			if err != nil {
				return err
			}
			if mm, ok := m.(*infer.MoRMethod); ok {
				return explainMoR(u, ws, mm, query, k, asJSON)
			}
			if gm, ok := m.(*infer.GraspFused); ok {
				q := data.Query{ID: -1, Text: query}
				plan, err := gm.G.Plans(q)
				if err != nil {
					return err
				}
				r, err := gm.G.Retrieve(cmd.Context(), q)
				if err != nil {
					return err
				}
				e := map[string]any{"plan": plan, "n_cand": r.NCand, "risk_level": r.Risk, "graph_weight": gm.Choice.Weight(r.NCand, r.Risk), "fusion": gm.Choice.Mode}
				if asJSON {
					return json.NewEncoder(u.out).Encode(e)
				}
				b, _ := json.MarshalIndent(plan, "", "  ")
				fmt.Fprintf(u.out, "plan:\n%s\nn_cand %d, risk_level %s: graph weight %.3f (%s RRF, k=%g)\n", b, r.NCand, r.Risk, e["graph_weight"], gm.Choice.Mode, gm.Choice.K)
				hits, err := gm.Rank(cmd.Context(), q)
				if err != nil {
					return err
				}
				w := tabwriter.NewWriter(u.out, 0, 4, 2, ' ', 0)
				fmt.Fprintln(w, "\nrank\tnode\tscore\tname")
				for i, h := range hits[:min(k, len(hits))] {
					fmt.Fprintf(w, "%d\t%d\t%.5f\t%s\n", i+1, h.ID, h.Score, ws.SKB.Nodes[h.ID].Name)
				}
				return w.Flush()
			}
			if fm, ok := m.(*infer.MFAR); ok {
				ws, err := fm.Explain(query)
				if err != nil {
					return err
				}
				if asJSON {
					return json.NewEncoder(u.out).Encode(map[string]any{"weights": ws})
				}
				w := tabwriter.NewWriter(u.out, 0, 4, 2, ' ', 0)
				fmt.Fprintln(w, "field/scorer\tweight")
				for _, x := range ws {
					fmt.Fprintf(w, "%s\t%.4f\n", x.Pair, x.Weight)
				}
				return w.Flush()
			}
			if sm, ok := m.(*infer.SimGRAGMethod); ok && sm.KGQA != nil {
				return explainKGQA(cmd.Context(), u, ws, sm.KGQA, query, k, asJSON)
			}
			cm, ok := m.(*infer.CoRMethod)
			if !ok {
				return fmt.Errorf("%s is a %s model; explain shows CoR, MoR and KGQA models", model, m.Name())
			}
			e, err := cm.Explain(data.Query{ID: -1, Text: query}, k)
			if err != nil {
				return err
			}
			if asJSON {
				return json.NewEncoder(u.out).Encode(e)
			}
			w := tabwriter.NewWriter(u.out, 0, 4, 2, ' ', 0)
			fmt.Fprintln(w, "topic entities:")
			if len(e.Topics) == 0 {
				fmt.Fprintln(w, "  (none found)")
			}
			for _, t := range e.Topics {
				var names []string
				for _, n := range t.Nodes {
					names = append(names, fmt.Sprintf("%d:%s", n, ws.SKB.Schema.NodeTypes[ws.SKB.Nodes[n].Type]))
				}
				fmt.Fprintf(w, "  %q\t%s\n", t.Text, strings.Join(names, " "))
			}
			fmt.Fprintf(w, "\nhybrid gate:\ttextual %.3f\trelational %.3f\n", e.Hybrid[0], e.Hybrid[1])
			printWeights(w, "textual gate (node type)", e.Textual)
			printWeights(w, "relational gate (relation)", e.Relational)
			fmt.Fprintln(w, "\nrank\tnode\tscore\tcos\ttextual\trelational\tname")
			for i, h := range e.Top {
				var rel []string
				for r, v := range h.Relational {
					rel = append(rel, fmt.Sprintf("%s=%.3f", r, v))
				}
				sort.Strings(rel)
				fmt.Fprintf(w, "%d\t%d\t%.4f\t%.3f\t%.4f\t%s\t%s\n", i+1, h.Node, h.Score, h.Cos, h.Textual, strings.Join(rel, ","), ws.SKB.Nodes[h.Node].Name)
			}
			return w.Flush()
		},
	}
	cmd.Flags().StringVar(&model, "model", "", "CoR checkpoint or run directory")
	cmd.Flags().StringVar(&query, "query", "", "query text")
	cmd.Flags().IntVarP(&k, "k", "k", 10, "candidates to show")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON object")
	return cmd
}

func printWeights(w *tabwriter.Writer, title string, m map[string]float32) {
	if len(m) == 0 {
		return
	}
	fmt.Fprintf(w, "\n%s:\n", title)
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return m[keys[i]] > m[keys[j]] })
	for _, k := range keys {
		fmt.Fprintf(w, "  %s\t%.3f\n", k, m[k])
	}
}

func explainMoR(u *ui, ws *workspace.Workspace, m *infer.MoRMethod, query string, k int, asJSON bool) error {
	e, err := m.Explain(data.Query{ID: -1, Text: query}, k)
	if err != nil {
		return err
	}
	if asJSON {
		return json.NewEncoder(u.out).Encode(e)
	}
	src := "the query's plan"
	if e.Planned {
		src = "predicted by the planner"
	}
	fmt.Fprintf(u.out, "plan (%s):\n", src)
	for _, p := range e.Plan.Metapath {
		fmt.Fprintf(u.out, "  %s\n", strings.Join(p, " -> "))
	}
	keys := make([]string, 0, len(e.Plan.Restriction))
	for t := range e.Plan.Restriction {
		keys = append(keys, t)
	}
	sort.Strings(keys)
	for _, t := range keys {
		fmt.Fprintf(u.out, "  %s: %q\n", t, e.Plan.Restriction[t])
	}
	if e.Fallback {
		fmt.Fprintln(u.out, "no usable plan: MoR falls back to BM25")
		return nil
	}
	w := tabwriter.NewWriter(u.out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "\nrank\tnode\tscore\ttrajectory (T textual, S structural)")
	for i, h := range e.Top {
		var steps []string
		for _, s := range h.Trajectory {
			how := "S"
			if s.Textual {
				how = "T"
			}
			steps = append(steps, fmt.Sprintf("%s[%s] %s", how, ws.SKB.Schema.NodeTypes[s.Type], ws.SKB.Nodes[s.Node].Name))
		}
		fmt.Fprintf(w, "%d\t%d\t%.4f\t%s\n", i+1, h.Node, h.Score, strings.Join(steps, " -> "))
	}
	return w.Flush()
}

func explainKGQA(ctx context.Context, u *ui, ws *workspace.Workspace, m *infer.KGQA, query string, k int, asJSON bool) error {
	e, err := m.Explain(ctx, data.Query{ID: -1, Text: query})
	if err != nil {
		return err
	}
	if len(e.Hits) > k {
		e.Hits = e.Hits[:k]
	}
	if len(e.Subgraphs) > k {
		e.Subgraphs = e.Subgraphs[:k]
	}
	if asJSON {
		return json.NewEncoder(u.out).Encode(e)
	}
	fmt.Fprintln(u.out, "pattern (predicted):")
	for _, t := range e.Pattern {
		fmt.Fprintf(u.out, "  (%s, %s, %s)\n", t[0], t[1], t[2])
	}
	w := tabwriter.NewWriter(u.out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "\nrank\tnode\tGSD\tanswer")
	for i, h := range e.Hits {
		fmt.Fprintf(w, "%d\t%d\t%.4f\t%s\n", i+1, h.ID, -h.Score, ws.SKB.Nodes[h.ID].Name)
	}
	fmt.Fprintln(w, "\nsubgraph\tGSD\tnodes (pattern order)")
	for i, s := range e.Subgraphs {
		var names []string
		for _, v := range s.Nodes {
			names = append(names, ws.SKB.Nodes[v].Name)
		}
		fmt.Fprintf(w, "%d\t%.4f\t%s\n", i+1, s.GSD, strings.Join(names, " | "))
	}
	return w.Flush()
}
