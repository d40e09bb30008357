package main

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/strata-retrieval/strata/data"
	"io"
	"path/filepath"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/strata-retrieval/strata/eval"
	"github.com/strata-retrieval/strata/graphops/workspace"
	"github.com/strata-retrieval/strata/infer"
)

type evalOptions struct {
	ByTemplate bool
	Pipelines  []string
	Models     []string
	Methods    []string
	Splits     []string
	JSON       bool
	Patterns   string
	Planner    string
	Plans      string
}

func newEvalCmd(u *ui) *cobra.Command {
	var o evalOptions
	var methodHelp []string
	for _, m := range infer.Methods() {
		methodHelp = append(methodHelp, fmt.Sprintf("  %-15s %s", m.Name, m.Summary))
	}
	cmd := &cobra.Command{
		Use:   "eval WORKSPACE --method bm25 [--split test]",
		Short: "Evaluate retrieval methods with STaRK's metrics",
		Long: `Evaluate one or more methods on one or more query splits with STaRK's
metrics, exactly as stark_qa's evaluator computes them: every candidate is
ranked (unscored candidates get min(score) - 1, ties by node id), gold answers
outside the candidate set are dropped, and Hit@1, Hit@5, Recall@20 and MRR are
averaged over queries.

Methods:
` + strings.Join(methodHelp, "\n") + `

With --json, one JSON object per (method, split) is printed per line, with
the keys method, split, n, hit@1, hit@5, recall@20 and mrr.`,
		Example: `  strata eval ws --method bm25
  strata eval ws --method bm25,oracle-plan --split val,test --json`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ws, err := workspace.Load(args[0])
			if err != nil {
				return err
			}
			defer ws.Close()
			methods := o.Methods
			if (len(o.Models) > 0 || len(o.Pipelines) > 0) && !cmd.Flags().Changed("method") {
				methods = nil
			}
			sums, err := runEval(cmd.Context(), u, ws, methods, o)
			if err != nil {
				return err
			}
			if o.Patterns != "" {
				ps, err := data.ReadPatterns(o.Patterns)
				if err != nil {
					return err
				}
				d, err := infer.LoadDense(ws)
				if err != nil {
					return err
				}
				sg, err := infer.NewSimGRAG(ws, d, infer.SimGRAGConfig{})
				if err != nil {
					return err
				}
				m := &infer.SimGRAGMethod{S: sg, Patterns: infer.FilePatterns(ps), Label: "simgrag:" + filepath.Base(o.Patterns)}
				s, err := evalMethod(cmd.Context(), u, ws, m, m.Name(), o.Splits)
				if err != nil {
					return err
				}
				sums = append(sums, s...)
			}
			for _, path := range o.Pipelines {
				p, cleanup, err := loadPipeline(ws, path, false)
				defer cleanup()
				if err != nil {
					return err
				}
				r, err := p.Compile(ws)
				if err != nil {
					return err
				}
				s, err := evalMethod(cmd.Context(), u, ws, r, path, o.Splits)
				if err != nil {
					return err
				}
				sums = append(sums, s...)
			}
			for _, dir := range o.Models {
				m, err := infer.LoadModel(ws, dir)
				if err != nil {
					return err
				}
				s, err := evalMethod(cmd.Context(), u, ws, m, dir, o.Splits)
				if err != nil {
					return err
				}
				sums = append(sums, s...)
			}
			if err != nil {
				return err
			}
			if err := printSummaries(u.out, sums, o.JSON); err != nil {
				return err
			}
			if o.ByTemplate {
				return printByTemplate(cmd.Context(), u, ws, methods, o)
			}
			return nil
		},
	}
	cmd.Flags().StringSliceVar(&o.Methods, "method", []string{"bm25"}, "methods to evaluate (comma-separated)")
	cmd.Flags().StringSliceVar(&o.Pipelines, "pipeline", nil, "pipelines to evaluate: pipeline files or run directories (comma-separated)")
	cmd.Flags().StringSliceVar(&o.Models, "model", nil, "trained models to evaluate: checkpoint or run directories (comma-separated)")
	cmd.Flags().StringSliceVar(&o.Splits, "split", []string{"test"}, "splits: train, val, test, human or any split file name (comma-separated)")
	cmd.Flags().BoolVar(&o.JSON, "json", false, "print one JSON object per method and split")
	cmd.Flags().StringVar(&o.Patterns, "patterns", "", "also evaluate SimGRAG with the pattern graphs of this JSONL file (q_id, triples, target)")
	cmd.Flags().StringVar(&o.Planner, "planner", "", "plan-based methods (plan-exec, mor-traversal, simgrag, sage-plan, oracle-plan) plan with this trained planner")
	cmd.Flags().StringVar(&o.Plans, "plans", "", "plan-based methods take their plans from this file (MoR's shape; a mined plans file makes the rows oracles)")
	cmd.Flags().BoolVar(&o.ByTemplate, "by-template", false, "also report Hit@1 per plan template (metapath) with its number of queries")
	return cmd
}

func runEval(ctx context.Context, u *ui, ws *workspace.Workspace, methods []string, o evalOptions) ([]eval.Summary, error) {
	if ws.SKB.QA == nil {
		return nil, fmt.Errorf("the workspace has no questions to evaluate on")
	}
	wrap, err := planSource(ws, o)
	if err != nil {
		return nil, err
	}
	var out []eval.Summary
	for _, name := range methods {
		m, err := infer.NewMethod(ws, name)
		if err != nil {
			return nil, err
		}
		m = wrap(m)
		s, err := evalMethod(ctx, u, ws, m, m.Name(), o.Splits)
		if err != nil {
			return nil, err
		}
		out = append(out, s...)
	}
	return out, nil
}

func evalMethod(ctx context.Context, u *ui, ws *workspace.Workspace, m eval.Ranker, name string, splits []string) ([]eval.Summary, error) {
	if ws.SKB.QA == nil {
		return nil, fmt.Errorf("the workspace has no questions to evaluate on")
	}
	ev := eval.NewEvaluator(len(ws.SKB.Nodes), ws.Candidates)
	var out []eval.Summary
	for _, split := range splits {
		qs, err := ws.SKB.QA.Split(split)
		if err != nil {
			return nil, err
		}
		progress, done := u.counter(len(qs), name+" "+split)
		rs, err := eval.Run(ctx, ev, qs, m, eval.RunOptions{Progress: progress})
		done()
		if err != nil {
			return nil, err
		}
		s := eval.Summarize(rs)
		s.Method, s.Split = name, split
		out = append(out, s)
		if fc, ok := m.(infer.FallbackCounter); ok {
			reportFallbacks(u.err, name, split, fc.TakeFallbacks(), len(qs))
		}
	}
	return out, nil
}

// planSource returns how methods get their plans: from --planner, from
// --plans (rows of plans mined from the evaluated questions' own answers
// are labelled oracle), or the workspace's.
func planSource(ws *workspace.Workspace, o evalOptions) (func(infer.Method) infer.Method, error) {
	switch {
	case o.Planner != "" && o.Plans != "":
		return nil, fmt.Errorf("--planner and --plans are exclusive")
	case o.Planner != "":
		p, err := loadPlanner(ws, o.Planner)
		if err != nil {
			return nil, err
		}
		return func(m infer.Method) infer.Method { return &infer.PlannedMethod{P: p, M: m} }, nil
	case o.Plans != "":
		plans, st, err := data.ReadPlans(o.Plans)
		if err != nil {
			return nil, err
		}
		label := " [plans: " + filepath.Base(o.Plans) + "]"
		if st.Mined > 0 {
			label = " [oracle: plans mined from the answers]"
		}
		return func(m infer.Method) infer.Method {
			return &infer.FilePlanned{Plans: plans, M: m, Label: m.Name() + label}
		}, nil
	}
	return func(m infer.Method) infer.Method { return m }, nil
}

// loadPlanner loads a planner checkpoint or run.
func loadPlanner(ws *workspace.Workspace, dir string) (*infer.Planner, error) {
	pm, err := infer.LoadModel(ws, dir)
	if err != nil {
		return nil, err
	}
	pt, ok := pm.(*infer.PlannedTraversal)
	if !ok {
		return nil, fmt.Errorf("%s is not a planner checkpoint", dir)
	}
	return pt.Planner, nil
}

// reportFallbacks says how many queries a method answered by falling back
// to BM25, loudly when it is most of them.
func reportFallbacks(w io.Writer, name, split string, n int64, total int) {
	if n == 0 {
		return
	}
	warn := ""
	if 2*n > int64(total) {
		warn = "WARNING: "
	}
	fmt.Fprintf(w, "%s%s on %s: %d of %d queries (%.0f%%) had no usable plan and fell back to bm25\n", warn, name, split, n, total, 100*float64(n)/float64(total))
}

func printSummaries(w io.Writer, sums []eval.Summary, asJSON bool) error {
	if asJSON {
		enc := json.NewEncoder(w)
		for _, s := range sums {
			if err := enc.Encode(s); err != nil {
				return err
			}
		}
		return nil
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "method\tsplit\tn\thit@1\thit@5\trecall@20\tmrr")
	for _, s := range sums {
		fmt.Fprintf(tw, "%s\t%s\t%d\t%.4f\t%.4f\t%.4f\t%.4f\n", s.Method, s.Split, s.N, s.Hit1, s.Hit5, s.Recall20, s.MRR)
	}
	return tw.Flush()
}

// printByTemplate reports Hit@1 per plan template of the workspace's plans.
func printByTemplate(ctx context.Context, u *ui, ws *workspace.Workspace, methods []string, o evalOptions) error {
	type named struct {
		name string
		r    eval.Ranker
	}
	var rankers []named
	for _, name := range methods {
		m, err := infer.NewMethod(ws, name)
		if err != nil {
			return err
		}
		rankers = append(rankers, named{name, m})
	}
	for _, dir := range o.Models {
		m, err := infer.LoadModel(ws, dir)
		if err != nil {
			return err
		}
		rankers = append(rankers, named{dir, m})
	}
	ev := eval.NewEvaluator(len(ws.SKB.Nodes), ws.Candidates)
	for _, split := range o.Splits {
		qs, err := ws.SKB.QA.Split(split)
		if err != nil {
			return err
		}
		for _, r := range rankers {
			rs, err := eval.Run(ctx, ev, qs, r.r, eval.RunOptions{})
			if err != nil {
				return err
			}
			hits, counts := map[string]float64{}, map[string]int{}
			for i, q := range qs {
				key := "(no plan)"
				if p, ok := ws.Plans[q.ID]; ok && len(p.Metapath) > 0 {
					var parts []string
					for _, path := range p.Metapath {
						parts = append(parts, strings.Join(path, " "))
					}
					key = strings.Join(parts, " & ")
				}
				hits[key] += rs[i].Hit1
				counts[key]++
			}
			keys := make([]string, 0, len(counts))
			for k := range counts {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			tw := tabwriter.NewWriter(u.out, 0, 4, 2, ' ', 0)
			fmt.Fprintf(tw, "\n%s on %s, by template\tn\thit@1\n", r.name, split)
			for _, k := range keys {
				fmt.Fprintf(tw, "%s\t%d\t%.4f\n", k, counts[k], hits[k]/float64(counts[k]))
			}
			tw.Flush()
		}
	}
	return nil
}
