package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/data/index"
	"github.com/strata-retrieval/strata/eval"
	"github.com/strata-retrieval/strata/graphops/workspace"
	"github.com/strata-retrieval/strata/infer"
	"github.com/strata-retrieval/strata/infer/planner"
	"github.com/strata-retrieval/strata/infer/registry"
	"github.com/strata-retrieval/strata/infer/serve"
	"github.com/strata-retrieval/strata/infer/simgrag"
)

type evalOptions struct {
	WS                         string
	Methods, Models, Pipelines []string
	Runs                       []string
	Splits                     []string
	Patterns                   string
	Plans                      planner.Plans
	JSON, ByTemplate           bool
	ByShape                    string
	IgnoreFingerprint          bool
	ONNXEncoder                string
}

const evalLong = `Evaluate one or more methods on one or more query splits with STaRK's
metrics, exactly as stark_qa's evaluator computes them: every candidate is
ranked (unscored candidates get min(score) - 1, ties by node id), gold answers
outside the candidate set are dropped, and Hit@1, Hit@5, Recall@20 and MRR are
averaged over queries.

Methods:
%s

Plan-based methods (plan-exec, oracle-plan, plan-structure, mor-traversal,
simgrag, sage-plan) take each query's plan from the workspace, or from a
trained planner (--planner) or a plans file (--plans). A method that falls
back to BM25 says how often (loudly when it is most queries), and --json
carries the count ("fallbacks"): a planner's text-fit gate finding no plan
that fits a query (free text, a description), or a plan that is unusable or
reaches nothing.

--run evaluates a run file that strata score wrote (JSON lines or TREC) on
the split's questions: scored with -k covering every candidate, it gives
exactly the figures eval gives for the pipeline that scored it; with a
smaller -k, candidates beyond the cut count as unscored.

With --json, one JSON object per (method, split) is printed per line, with
the keys method, split, n, hit@1, hit@5, recall@20 and mrr; --by-template
and --by-shape add one line per group with the keys method, split, by
("template" or "shape"), group, n and hit@1.`

func newEvalCmd(u *ui) *cobra.Command {
	var o evalOptions
	var methodHelp []string
	for _, m := range registry.Methods() {
		methodHelp = append(methodHelp, fmt.Sprintf("  %-17s %s", m.Name, m.Summary))
	}
	cmd := &cobra.Command{
		Use:   "eval WORKSPACE --method bm25 [--split test]",
		Short: "Evaluate retrieval methods with STaRK's metrics",
		Long:  fmt.Sprintf(evalLong, strings.Join(methodHelp, "\n")),
		Example: `  strata eval ws --method bm25
  strata eval ws --method bm25,oracle-plan --split val,test --json
  strata eval ws --planner ws/runs/planner/best --method plan-exec,simgrag
  strata eval ws --run test.jsonl --split test`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.WS = args[0]
			if (len(o.Models) > 0 || len(o.Pipelines) > 0 || len(o.Runs) > 0 || o.Patterns != "") && !cmd.Flags().Changed("method") {
				o.Methods = nil
			}
			return runEval(cmd.Context(), u, o)
		},
	}
	f := cmd.Flags()
	f.StringSliceVar(&o.Methods, "method", []string{"bm25"}, "methods to evaluate (comma-separated)")
	f.StringSliceVar(&o.Pipelines, "pipeline", nil, "pipelines to evaluate: pipeline files, run directories or bundles (comma-separated)")
	f.StringSliceVar(&o.Models, "model", nil, "trained models to evaluate: checkpoint or run directories (comma-separated)")
	f.StringSliceVar(&o.Runs, "run", nil, "run files to evaluate: strata score's output, JSON lines or TREC (comma-separated)")
	f.StringSliceVar(&o.Splits, "split", []string{"test"}, "splits: train, val, test, human or any split file name (comma-separated)")
	f.BoolVar(&o.JSON, "json", false, "print one JSON object per method and split")
	f.StringVar(&o.Patterns, "patterns", "", "also evaluate SimGRAG with the pattern graphs of this JSONL file (q_id, triples, target)")
	f.StringVar(&o.Plans.Planner, "planner", "", "plan-based methods plan with this trained planner")
	f.StringVar(&o.Plans.File, "plans", "", "plan-based methods take their plans from this file (MoR's shape; a mined plans file makes the rows oracles)")
	f.BoolVar(&o.ByTemplate, "by-template", false, "also report Hit@1 per plan template (metapath) of the workspace's plans")
	f.StringVar(&o.ByShape, "by-shape", "", "also report Hit@1 per plan shape and relations of this plans file's plans (e.g. the test questions' mined plans: a grouping that explains rows, never an input to them)")
	f.BoolVar(&o.IgnoreFingerprint, "ignore-fingerprint", false, "accept models and bundles made for other data")
	f.StringVar(&o.ONNXEncoder, "onnx-encoder", "", "sentence encoder directory, an ONNX export (tokenizer.json, model.onnx) or a Hugging Face BERT-family directory (config.json, model.safetensors, tokenizer.json), that methods embedding new text (simgrag) use instead of the dense channel's encoder")
	return cmd
}

func runEval(ctx context.Context, u *ui, o evalOptions) error {
	ws, err := workspace.Load(o.WS)
	if err != nil {
		return err
	}
	defer ws.Close()
	env := infer.NewEnv(ctx, ws)
	env.IgnoreFingerprint = o.IgnoreFingerprint
	env.ONNXEncoder = o.ONNXEncoder
	o.Plans.Warn = u.err
	var shapePlans map[int]data.Plan
	if o.ByShape != "" { // read before any method runs: a bad file fails at once
		if shapePlans, _, err = data.ReadPlans(o.ByShape); err != nil {
			return err
		}
	}
	rows, cleanup, err := evalRows(env, o)
	defer cleanup()
	if err != nil {
		return err
	}
	runs, err := evalRuns(ctx, u, ws, rows, o.Splits)
	if err != nil {
		return err
	}
	if err := printSummaries(u.out, summaries(runs), o.JSON); err != nil {
		return err
	}
	if o.ByTemplate {
		if err := printGroups(u.out, runs, o.Splits, "template", o.JSON, func(q data.Query) string {
			p := ws.Plans[q.ID]
			return p.Template()
		}); err != nil {
			return err
		}
	}
	if o.ByShape != "" {
		return printGroups(u.out, runs, o.Splits, "shape", o.JSON, func(q data.Query) string {
			p := shapePlans[q.ID]
			return p.Shape()
		})
	}
	return nil
}

// evalRows builds the methods, models, pipelines and pattern files to
// evaluate, with their plan source.
func evalRows(env *infer.Env, o evalOptions) (rows []infer.Method, cleanup func(), err error) {
	var cleanups []func()
	cleanup = func() {
		for _, c := range cleanups {
			c()
		}
	}
	wrap, err := o.Plans.Wrapper(env)
	if err != nil {
		return nil, cleanup, err
	}
	for _, name := range o.Methods {
		m, err := registry.NewMethod(env, name)
		if err != nil {
			return nil, cleanup, err
		}
		rows = append(rows, wrap(m))
	}
	if o.Patterns != "" {
		m, err := simgrag.FromFile(env, o.Patterns)
		if err != nil {
			return nil, cleanup, err
		}
		rows = append(rows, m)
	}
	for _, path := range o.Pipelines {
		r, c, err := serve.Open(env, path)
		cleanups = append(cleanups, c)
		if err != nil {
			return nil, cleanup, err
		}
		rows = append(rows, label(r, path))
	}
	for _, path := range o.Runs {
		m, err := serve.OpenRunFile(path)
		if err != nil {
			return nil, cleanup, err
		}
		rows = append(rows, m)
	}
	for _, dir := range o.Models {
		m, err := registry.Load(env, dir)
		if err != nil {
			return nil, cleanup, err
		}
		rows = append(rows, label(m, dir))
	}
	return rows, cleanup, nil
}

// named labels a method's rows (models and pipelines by their path).
type named struct {
	infer.Method
	label string
}

func (n named) Name() string { return n.label }

// namedBatch is named for a method that ranks batches (eval.BatchRanker).
type namedBatch struct {
	named
	b eval.BatchRanker
}

func (n namedBatch) RankBatch(ctx context.Context, qs []data.Query) ([][]index.Hit, error) {
	return n.b.RankBatch(ctx, qs)
}

// label names m's rows, keeping its batch ranking.
func label(m infer.Method, name string) infer.Method {
	if b, ok := m.(eval.BatchRanker); ok {
		return namedBatch{named{m, name}, b}
	}
	return named{m, name}
}

// evalRun is one method's evaluation on one split: its summary and the
// per-query results behind it.
type evalRun struct {
	eval.Summary
	qs      []data.Query
	results []eval.QueryResult
}

func summaries(runs []evalRun) []eval.Summary {
	out := make([]eval.Summary, len(runs))
	for i, r := range runs {
		out[i] = r.Summary
	}
	return out
}

// evalMethods evaluates every method on every split, reporting fallbacks.
func evalMethods(ctx context.Context, u *ui, ws *workspace.Workspace, ms []infer.Method, splits []string) ([]eval.Summary, error) {
	runs, err := evalRuns(ctx, u, ws, ms, splits)
	return summaries(runs), err
}

// evalRuns evaluates every method on every split, reporting fallbacks.
func evalRuns(ctx context.Context, u *ui, ws *workspace.Workspace, ms []infer.Method, splits []string) ([]evalRun, error) {
	if ws.SKB.QA == nil {
		return nil, fmt.Errorf("the workspace has no questions to evaluate on")
	}
	ev := eval.NewEvaluator(len(ws.SKB.Nodes), ws.Candidates)
	var out []evalRun
	for _, m := range ms {
		for _, split := range splits {
			qs, err := ws.SKB.QA.Split(split)
			if err != nil {
				return nil, err
			}
			progress, done := u.counter(len(qs), m.Name()+" "+split)
			rs, err := eval.Run(ctx, ev, qs, m, eval.RunOptions{Progress: progress})
			done()
			if err != nil {
				return nil, err
			}
			s := eval.Summarize(rs)
			s.Method, s.Split = m.Name(), split
			if fc, ok := unwrap(m).(infer.FallbackCounter); ok {
				s.Fallbacks = fc.TakeFallbacks()
				reportFallbacks(u.err, m.Name(), infer.FallbackText(unwrap(m)), split, s.Fallbacks, len(qs))
			}
			out = append(out, evalRun{Summary: s, qs: qs, results: rs})
		}
	}
	return out, nil
}

// unwrap returns the method behind a row label.
func unwrap(m infer.Method) infer.Method {
	if n, ok := m.(named); ok {
		return n.Method
	}
	return m
}

// evalNamed evaluates named methods (as eval --method) on splits.
func evalNamed(ctx context.Context, u *ui, env *infer.Env, methods, splits []string, plans planner.Plans) ([]eval.Summary, error) {
	rows, cleanup, err := evalRows(env, evalOptions{Methods: methods, Plans: plans})
	defer cleanup()
	if err != nil {
		return nil, err
	}
	return evalMethods(ctx, u, env.WS, rows, splits)
}

// reportFallbacks says how many queries a method answered by falling back
// to its text channel (bm25, or a planner's bm25+dense), loudly when it is
// most of them.
func reportFallbacks(w io.Writer, name, text, split string, n int64, total int) {
	if n == 0 {
		return
	}
	warn := ""
	if 2*n > int64(total) {
		warn = "WARNING: "
	}
	fmt.Fprintf(w, "%s%s on %s: %d of %d queries (%.0f%%) got no plan that fits or none usable and were answered by %s\n", warn, name, split, n, total, 100*float64(n)/float64(total), text)
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

// groupRow is one line of a grouped report (--json).
type groupRow struct {
	Method string  `json:"method"`
	Split  string  `json:"split"`
	By     string  `json:"by"`
	Group  string  `json:"group"`
	N      int     `json:"n"`
	Hit1   float64 `json:"hit@1"`
}

// printGroups reports each run's Hit@1 per group of its queries (key),
// split by split: a table per run, or JSON lines.
func printGroups(w io.Writer, runs []evalRun, splits []string, by string, asJSON bool, key func(data.Query) string) error {
	enc := json.NewEncoder(w)
	for _, split := range splits {
		for _, r := range runs {
			if r.Split != split {
				continue
			}
			keys := make([]string, len(r.qs))
			for i, q := range r.qs {
				keys[i] = key(q)
			}
			groups := eval.ByGroup(r.results, keys)
			if asJSON {
				for _, g := range groups {
					if err := enc.Encode(groupRow{Method: r.Method, Split: split, By: by, Group: g.Method, N: g.N, Hit1: g.Hit1}); err != nil {
						return err
					}
				}
				continue
			}
			tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
			fmt.Fprintf(tw, "\n%s on %s, by %s\tn\thit@1\n", r.Method, split, by)
			for _, g := range groups {
				fmt.Fprintf(tw, "%s\t%d\t%.4f\n", g.Method, g.N, g.Hit1)
			}
			if err := tw.Flush(); err != nil {
				return err
			}
		}
	}
	return nil
}
