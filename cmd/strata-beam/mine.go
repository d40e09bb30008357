package main

import (
	"cmp"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/graphops/mine"
	"github.com/strata-retrieval/strata/graphops/workspace"
)

type mineOptions struct {
	Workspace, Output string
	Splits            string // comma-separated
	Force             bool
	Mine              mineConfig
}

// mineConfig is what decides the mined plans: strata mine-plans's flags.
type mineConfig struct {
	Config mine.Config `json:"config"`
	NoText bool        `json:"no_text,omitempty"`
}

func bindMine(fs *flag.FlagSet) func(context.Context, io.Writer) error {
	var o mineOptions
	fs.StringVar(&o.Workspace, "workspace", "", "workspace directory (a path every worker can read)")
	fs.StringVar(&o.Output, "output", "", "output prefix: the plans file is PREFIX-00000-of-00001.jsonl")
	fs.StringVar(&o.Splits, "split", data.SplitTrain+","+data.SplitVal, "splits whose questions are mined (comma-separated)")
	fs.BoolVar(&o.Mine.NoText, "no-text", false, "score plans by structure alone (no textual restriction)")
	fs.IntVar(&o.Mine.Config.MaxHops, "max-hops", 3, "hops of a single-anchor path")
	fs.IntVar(&o.Mine.Config.MaxFrontier, "max-frontier", 5000, "paths reaching more nodes are not extended")
	fs.BoolVar(&o.Mine.Config.NoUniversal, "no-universal", false, "mine existential paths only (no universal steps)")
	fs.BoolVar(&o.Mine.Config.NoRankMiddle, "no-ranked-middle", false, "rank only the target by the restriction (no ranked middle positions)")
	fs.BoolVar(&o.Force, "force", false, "replace an existing plans file")
	return func(ctx context.Context, stdout io.Writer) error { return runMine(ctx, stdout, o) }
}

// Counters of the mine-plans pipeline.
var (
	minedQuestions = beam.NewCounter("strata", "questions")
	minedPlans     = beam.NewCounter("strata", "plans")
)

// questions are the questions of the splits, in strata mine-plans's order.
func questions(ws *workspace.Workspace, splits []string) ([]data.Query, error) {
	if ws.SKB.QA == nil {
		return nil, fmt.Errorf("the workspace %s has no questions to mine", ws.Dir)
	}
	var qs []data.Query
	for _, s := range splits {
		q, err := ws.SKB.QA.Split(s)
		if err != nil {
			return nil, fmt.Errorf("--split %s: %w", s, err)
		}
		qs = append(qs, q...)
	}
	return qs, nil
}

func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

func runMine(ctx context.Context, stdout io.Writer, o mineOptions) error {
	if o.Workspace == "" || o.Output == "" {
		return fmt.Errorf("--workspace and --output are required")
	}
	// The workspace is read here to check the splits; held while the job
	// runs, so that in-process workers (Prism) share it.
	ws, err := acquireWorkspace(o.Workspace)
	if err != nil {
		return err
	}
	defer workspaces.release(o.Workspace)
	qs, err := questions(ws, splitList(o.Splits))
	if err != nil {
		return err
	}
	if len(qs) == 0 {
		return fmt.Errorf("--split %s: no questions to mine", o.Splits)
	}
	stale, err := prepareOutput(ctx, o.Output, "jsonl", nil, o.Force)
	if err != nil {
		return err
	}
	p, s := beam.NewPipelineWithRoot()
	out := buildMine(s, o, len(qs))
	res, err := beamx.RunWithMetrics(ctx, p)
	if err != nil {
		return err
	}
	if err := removeStale(ctx, stale, []string{out}); err != nil {
		return err
	}
	if c := counters(res); c != nil {
		fmt.Fprintf(stdout, "splits %s: mined plans for %d of %d questions into %s\n", o.Splits, c["plans"], c["questions"], out)
	} else {
		fmt.Fprintf(stdout, "splits %s: plans written to %s\n", o.Splits, out)
	}
	// strata mine-plans's coverage table, when the file is local.
	if !strings.Contains(out, "://") {
		recs, err := data.ReadMinedPlans(out)
		if err != nil {
			return err
		}
		list := make([]data.MinedPlanRecord, 0, len(recs))
		for _, r := range recs {
			list = append(list, r)
		}
		fmt.Fprintln(stdout)
		mine.ReportOf(len(qs), list).Print(stdout)
	}
	return nil
}

// span is a range of questions, by position.
type span struct{ Lo, Hi int }

// mineSpan is the number of questions a worker mines together.
const mineSpan = 16

// buildMine adds the mine-plans pipeline to s and returns the file it
// writes: the questions mined in parallel in spans (each worker reading the
// workspace once), then, in one place, the vote over the questions' tied
// plans that strata mine-plans makes, written as one file:
// PREFIX-00000-of-00001.jsonl, byte for byte strata mine-plans's file.
func buildMine(s beam.Scope, o mineOptions, n int) string {
	s = s.Scope("strata.mine-plans")
	var spans []any
	for lo := 0; lo < n; lo += mineSpan {
		spans = append(spans, span{lo, min(lo+mineSpan, n)})
	}
	work := beam.Reshuffle(s, beam.Create(s, spans...))
	mined := beam.ParDo(s, &mineFn{Workspace: o.Workspace, Splits: splitList(o.Splits), Mine: o.Mine}, work)
	out := shardName(o.Output, 0, 1, "jsonl")
	beam.ParDo0(s, &choosePlansFn{Output: out}, beam.GroupByKey(s, beam.AddFixedKey(s, mined)))
	return out
}

// minedQuestion is a question's tied best plans (JSON of
// []data.MinedPlanRecord, best first), at its position.
type minedQuestion struct {
	Pos  int
	Tied []byte
}

// mineFn mines the questions of a span. Setup reads the workspace once
// per worker process.
type mineFn struct {
	Workspace string     `json:"workspace"`
	Splits    []string   `json:"splits"`
	Mine      mineConfig `json:"mine"`

	ws    *workspace.Workspace
	qs    []data.Query
	miner *mine.Miner
}

func (f *mineFn) Setup() error {
	ws, err := acquireWorkspace(f.Workspace)
	if err != nil {
		return err
	}
	if f.qs, err = questions(ws, f.Splits); err != nil {
		workspaces.release(f.Workspace)
		return err
	}
	f.ws, f.miner = ws, mine.NewMiner(ws.Graph, f.Mine.Config)
	return nil
}

func (f *mineFn) Teardown() {
	if f.ws != nil {
		workspaces.release(f.Workspace)
		f.ws = nil
	}
}

func (f *mineFn) ProcessElement(ctx context.Context, sp span, emit func(minedQuestion)) error {
	if sp.Lo < 0 || sp.Hi > len(f.qs) {
		return fmt.Errorf("questions %d-%d: the splits have %d (did the workspace change since launch?)", sp.Lo, sp.Hi, len(f.qs))
	}
	for pos := sp.Lo; pos < sp.Hi; pos++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		tied := mine.Tied(f.ws, f.miner, f.qs[pos], mine.Options{Config: f.Mine.Config, NoText: f.Mine.NoText})
		b, err := json.Marshal(tied)
		if err != nil {
			return err
		}
		minedQuestions.Inc(ctx, 1)
		emit(minedQuestion{Pos: pos, Tied: b})
	}
	return nil
}

// choosePlansFn takes every question's tied plans, picks each question's
// plan by strata mine-plans's vote (mine.Choose (among tied plans, the relation structure
// chosen most often across the questions; the first on a tie) and writes
// the plans file in question order, as strata mine-plans writes it.
type choosePlansFn struct {
	Output string `json:"output"`
}

func (f *choosePlansFn) ProcessElement(ctx context.Context, _ int, iter func(*minedQuestion) bool) error {
	var all []minedQuestion
	var mq minedQuestion
	for iter(&mq) {
		all = append(all, mq)
	}
	slices.SortFunc(all, func(a, b minedQuestion) int { return cmp.Compare(a.Pos, b.Pos) })
	tied := make([][]data.MinedPlanRecord, len(all))
	for i, mq := range all {
		if err := json.Unmarshal(mq.Tied, &tied[i]); err != nil {
			return fmt.Errorf("question at position %d: %w", mq.Pos, err)
		}
	}
	recs := mine.Choose(tied)
	minedPlans.Inc(ctx, int64(len(recs)))
	if err := writeOutput(ctx, f.Output, func(w io.Writer) error { return data.WriteJSONL(w, recs) }); err != nil {
		return fmt.Errorf("writing %s: %w", f.Output, err)
	}
	return nil
}

func init() {
	register.DoFn3x1[context.Context, span, func(minedQuestion), error](&mineFn{})
	register.DoFn3x1[context.Context, int, func(*minedQuestion) bool, error](&choosePlansFn{})
	register.Emitter1[minedQuestion]()
	register.Iter1[minedQuestion]()
}
