package main

import (
	"cmp"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"slices"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/log"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/transforms/stats"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/infer/serve"
)

type scoreOptions struct {
	bundleSource
	Queries, Output string
	Score           serve.ScoreOptions // TopK, Format, Stages
	// Shards is the number of output files; 0: one per 10,000 queries.
	Shards int
	// Batch is the number of queries a worker scores together.
	Batch int
	Force bool
}

func bindScore(fs *flag.FlagSet) func(context.Context, io.Writer) error {
	var o scoreOptions
	fs.StringVar(&o.Workspace, "workspace", "", "workspace directory (a path every worker can read)")
	fs.StringVar(&o.Bundle, "bundle", "", "model bundle (.tar) from strata bundle; a local path or any file system Beam reads (gs://...)")
	fs.StringVar(&o.Queries, "queries", "", "query file: .csv (id, query), .jsonl ({\"id\", \"query\"}) or text; a local path or any file system Beam reads")
	fs.StringVar(&o.Output, "output", "", "output prefix: shards PREFIX-SSSSS-of-NNNNN.jsonl or .trec")
	fs.StringVar(&o.Score.Format, "format", "jsonl", "output format: jsonl or trec")
	fs.IntVar(&o.Score.TopK, "k", 100, "results per query")
	fs.BoolVar(&o.Score.Stages, "stages", false, "jsonl: include each scorer's own score")
	fs.IntVar(&o.Shards, "shards", 0, "output shards (0: one per 10,000 queries)")
	fs.IntVar(&o.Batch, "batch", 256, "queries a worker scores together")
	fs.BoolVar(&o.Force, "force", false, "replace existing shards of --output")
	fs.BoolVar(&o.IgnoreFingerprint, "ignore-fingerprint", false, "accept a bundle made for other data")
	return func(ctx context.Context, stdout io.Writer) error { return runScore(ctx, stdout, o) }
}

// Counters of the score pipeline, summed over its workers.
var (
	scoredQueries = beam.NewCounter("strata", "queries")
	failedQueries = beam.NewCounter("strata", "failed_queries")
)

// runScore checks the flags, the query file and the bundle (opened over
// the workspace as every worker will open it), then runs the pipeline and
// reports what it wrote.
func runScore(ctx context.Context, stdout io.Writer, o scoreOptions) error {
	if o.Workspace == "" || o.Bundle == "" || o.Queries == "" || o.Output == "" {
		return fmt.Errorf("--workspace, --bundle, --queries and --output are required")
	}
	if o.Score.TopK <= 0 {
		return fmt.Errorf("-k %d: want at least 1 result per query", o.Score.TopK)
	}
	if o.Score.Format != "jsonl" && o.Score.Format != "trec" {
		return fmt.Errorf("--format %q: want jsonl or trec", o.Score.Format)
	}
	if o.Shards < 0 || o.Batch <= 0 {
		return fmt.Errorf("--shards %d, --batch %d: want --shards >= 0 and --batch >= 1", o.Shards, o.Batch)
	}
	if err := checkQueries(ctx, o.Queries); err != nil {
		return err
	}
	// A bundle that cannot be opened fails here, before any work; held
	// while the job runs, so that in-process workers (Prism) share it.
	sc, err := acquireScorer(o.bundleSource)
	if err != nil {
		return err
	}
	defer releaseScorer(o.bundleSource)
	inputs := map[string]string{"--queries": o.Queries, "--bundle": o.Bundle}
	stale, err := prepareOutput(ctx, o.Output, o.Score.Format, inputs, o.Force)
	if err != nil {
		return err
	}
	p, s := beam.NewPipelineWithRoot()
	buildScore(s, o)
	res, err := beamx.RunWithMetrics(ctx, p)
	if err != nil {
		return err
	}
	c := counters(res)
	if c == nil { // a runner without metrics
		fmt.Fprintf(stdout, "scored %s with %s into %s-*-of-*.%s\n", o.Queries, sc.r.Name(), o.Output, o.Score.Format)
		if len(stale) > 0 {
			fmt.Fprintf(stdout, "the shards of %s from before this job were left in place (the runner reports no shard count): %v\n", o.Output, stale)
		}
		return nil
	}
	n := int(c["queries"])
	shards := shardCount(n, o.Shards)
	var written []string
	for i := range shards {
		written = append(written, shardName(o.Output, i, shards, o.Score.Format))
	}
	if err := removeStale(ctx, stale, written); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "scored %d queries with %s into %s", n, sc.r.Name(), shardName(o.Output, 0, shards, o.Score.Format))
	if shards > 1 {
		fmt.Fprintf(stdout, " ... %s (%d shards)", shardName(o.Output, shards-1, shards, o.Score.Format), shards)
	}
	if f := c["failed_queries"]; f > 0 {
		note := `written with "ranking": [] and their "error"`
		if o.Score.Format == "trec" {
			note = "no lines in the run"
		}
		fmt.Fprintf(stdout, "; %d could not be answered (%s)", f, note)
	}
	fmt.Fprintln(stdout)
	return nil
}

// checkQueries opens the query file as the pipeline will, so that a
// missing file or a CSV without id and query columns fails at once.
func checkQueries(ctx context.Context, path string) error {
	fs, err := filesystem.New(ctx, path)
	if err != nil {
		return fmt.Errorf("--queries %s: %w", path, err)
	}
	defer fs.Close()
	rc, err := fs.OpenRead(ctx, path)
	if err != nil {
		return fmt.Errorf("--queries %s: %w", path, err)
	}
	qr, err := serve.NewQueryReader(path, rc)
	if err != nil {
		rc.Close()
		return err
	}
	return qr.Close()
}

// counters sums the pipeline's counters by name; nil when the runner
// reports none (no metrics support, or --async).
func counters(res beam.PipelineResult) map[string]int64 {
	if res == nil {
		return nil
	}
	out := map[string]int64{}
	for _, c := range res.Metrics().AllMetrics().Counters() {
		if c.Namespace() == "strata" {
			out[c.Name()] += c.Result()
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// numbered is a query (JSON) and its position in the query file.
type numbered struct {
	Pos   int
	Query []byte
}

// shardLine is what strata score writes for the query at Pos; Pos -1
// marks a shard that must exist even without lines.
type shardLine struct {
	Pos int
	Out []byte
}

// buildScore adds the score pipeline to s: the query file read in order
// and numbered, scored in batches of consecutive queries by workers that
// each open the bundle once, the results grouped into contiguous shards
// of the query order and written in that order.
func buildScore(s beam.Scope, o scoreOptions) {
	s = s.Scope("strata.score")
	qs := beam.ParDo(s, &readQueriesFn{Path: o.Queries}, beam.Impulse(s))
	n := stats.CountElms(s, qs)
	batches := beam.GroupByKey(s, beam.ParDo(s, &batchFn{Size: o.Batch}, qs))
	lines := beam.ParDo(s, &scoreFn{Source: o.bundleSource, TopK: o.Score.TopK, Format: o.Score.Format, Stages: o.Score.Stages, Output: o.Output, Shards: o.Shards},
		batches, beam.SideInput{Input: n})
	marks := beam.ParDo(s, &shardMarksFn{Output: o.Output, Ext: o.Score.Format, Shards: o.Shards}, n)
	beam.ParDo0(s, &writeShardFn{}, beam.GroupByKey(s, beam.Flatten(s, lines, marks)))
}

// readQueriesFn reads the query file with strata's reader (any Beam file
// system) and emits every query with its position.
type readQueriesFn struct {
	Path string `json:"path"`
}

func (f *readQueriesFn) ProcessElement(ctx context.Context, _ []byte, emit func(numbered)) error {
	fs, err := filesystem.New(ctx, f.Path)
	if err != nil {
		return fmt.Errorf("--queries %s: %w", f.Path, err)
	}
	defer fs.Close()
	rc, err := fs.OpenRead(ctx, f.Path)
	if err != nil {
		return fmt.Errorf("--queries %s: %w", f.Path, err)
	}
	qr, err := serve.NewQueryReader(f.Path, rc)
	if err != nil {
		rc.Close()
		return err
	}
	defer qr.Close()
	for pos := 0; ; pos++ {
		q, err := qr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		b, err := json.Marshal(q)
		if err != nil {
			return err
		}
		emit(numbered{Pos: pos, Query: b})
	}
}

// batchFn keys each query by its batch: Size consecutive queries.
type batchFn struct {
	Size int `json:"size"`
}

func (f *batchFn) ProcessElement(q numbered) (int, numbered) { return q.Pos / f.Size, q }

// scoreFn scores a batch with the bundle, as strata score does
// (serve.ScoreQueries), and keys each query's lines by its shard's file.
// Setup opens the bundle once per worker process.
type scoreFn struct {
	Source bundleSource `json:"source"`
	TopK   int          `json:"k"`
	Format string       `json:"format"`
	Stages bool         `json:"stages,omitempty"`
	Output string       `json:"output"`
	Shards int          `json:"shards,omitempty"`

	sc     *scorer
	logged int // failures logged by this instance
}

// maxLogged bounds the unanswered queries an instance logs one by one.
const maxLogged = 20

func (f *scoreFn) Setup() error {
	sc, err := acquireScorer(f.Source)
	if err != nil {
		return err
	}
	f.sc = sc
	return nil
}

func (f *scoreFn) Teardown() {
	if f.sc != nil {
		releaseScorer(f.Source)
		f.sc = nil
	}
}

func (f *scoreFn) ProcessElement(ctx context.Context, _ int, iter func(*numbered) bool, n int, emit func(string, shardLine)) error {
	var batch []numbered
	var q numbered
	for iter(&q) {
		batch = append(batch, q)
	}
	slices.SortFunc(batch, func(a, b numbered) int { return cmp.Compare(a.Pos, b.Pos) })
	qs := make([]data.Query, len(batch))
	for i, b := range batch {
		if err := json.Unmarshal(b.Query, &qs[i]); err != nil {
			return fmt.Errorf("query at position %d: %w", b.Pos, err)
		}
	}
	scored, err := serve.ScoreQueries(ctx, f.sc.ws, f.sc.r, qs, serve.ScoreOptions{TopK: f.TopK, Format: f.Format, Stages: f.Stages})
	if err != nil {
		return err
	}
	shards := shardCount(n, f.Shards)
	for i, r := range scored {
		scoredQueries.Inc(ctx, 1)
		if r.Failure != "" {
			failedQueries.Inc(ctx, 1)
			if f.logged++; f.logged <= maxLogged {
				log.Warnf(ctx, "query %d: not answered: %s", qs[i].ID, r.Failure)
			}
		}
		if len(r.Out) > 0 {
			pos := batch[i].Pos
			emit(shardName(f.Output, shardOf(pos, n, shards), shards, f.Format), shardLine{Pos: pos, Out: r.Out})
		}
	}
	return nil
}

// shardMarksFn names every shard of n queries, so that each is written,
// empty when no query of its range has lines.
type shardMarksFn struct {
	Output string `json:"output"`
	Ext    string `json:"ext"`
	Shards int    `json:"shards,omitempty"`
}

func (f *shardMarksFn) ProcessElement(n int, emit func(string, shardLine)) {
	shards := shardCount(n, f.Shards)
	for i := range shards {
		emit(shardName(f.Output, i, shards, f.Ext), shardLine{Pos: -1})
	}
}

// writeShardFn writes one shard: its queries' lines in query order.
type writeShardFn struct{}

func (f *writeShardFn) ProcessElement(ctx context.Context, name string, iter func(*shardLine) bool) error {
	var lines []shardLine
	var l shardLine
	for iter(&l) {
		if l.Pos >= 0 {
			lines = append(lines, l)
		}
	}
	slices.SortFunc(lines, func(a, b shardLine) int { return cmp.Compare(a.Pos, b.Pos) })
	err := writeOutput(ctx, name, func(w io.Writer) error {
		for _, l := range lines {
			if _, err := w.Write(l.Out); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("writing %s: %w", name, err)
	}
	return nil
}

func init() {
	register.DoFn3x1[context.Context, []byte, func(numbered), error](&readQueriesFn{})
	register.DoFn1x2[numbered, int, numbered](&batchFn{})
	register.DoFn5x1[context.Context, int, func(*numbered) bool, int, func(string, shardLine), error](&scoreFn{})
	register.DoFn2x0[int, func(string, shardLine)](&shardMarksFn{})
	register.DoFn3x1[context.Context, string, func(*shardLine) bool, error](&writeShardFn{})
	register.Emitter1[numbered]()
	register.Emitter2[string, shardLine]()
	register.Iter1[numbered]()
	register.Iter1[shardLine]()
}
