package serve

import (
	"bytes"
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/graphops/workspace"
	"github.com/strata-retrieval/strata/infer"
	"github.com/strata-retrieval/strata/infer/pipeline"
	"github.com/strata-retrieval/strata/internal/atomicfile"
	"github.com/strata-retrieval/strata/internal/flock"
	"github.com/strata-retrieval/strata/internal/parallel"
)

// ScoreOptions controls ScoreFile.
type ScoreOptions struct {
	TopK   int    // results per query, default 100 (negative: an error)
	Format string // "jsonl" (default) or "trec"
	Stages bool   // JSONL: add each scorer's own score
	Force  bool   // replace a finished or foreign output
	Chunk  int    // queries scored together, default 256
	// MaxQuery is the longest query text in bytes, default 16 KiB (serve's
	// --max-query): a longer query is not scored but written as a failed
	// one, with why (a query's work grows with its length).
	MaxQuery int
	Progress func(done int)
	// OnError, when set, is called (in query order) for each query that
	// could not be answered, with its id and why.
	OnError func(id int, msg string)
	// StopAfter stops (as a kill would) after that many chunks; for tests.
	StopAfter int
	// write writes a chunk to the output (nil: f.Write); for tests.
	write func(f *os.File, b []byte) (int, error)
}

// ScoreReport says what ScoreFile wrote.
type ScoreReport struct {
	Queries int // queries written, answered or not
	// Failed counts the queries a method could not answer (no anchor for
	// a pattern, ...): JSONL gets {"id", "ranking": [], "error"} for each,
	// a TREC run no line. Examples holds the first few as "query ID: why".
	Failed   int
	Examples []string
	// Fallbacks counts the queries a stage answered by its fallback (no
	// plan fits, no usable plan or pattern: BM25 over the query text);
	// JSONL marks each with "fallback": true.
	Fallbacks int
}

// maxExamples bounds ScoreReport.Examples.
const maxExamples = 5

type progressFile struct {
	Args    string `json:"args"`
	Queries int    `json:"queries"`
	Bytes   int64  `json:"bytes"`
	// Sum is the SHA-256 of the output's first Bytes bytes: a restarted
	// run continues only an output that still holds exactly them.
	Sum       string   `json:"sha256"`
	Failed    int      `json:"failed,omitempty"`
	Examples  []string `json:"examples,omitempty"`
	Fallbacks int      `json:"fallbacks,omitempty"`
	// Work is the file being written when it is not the output itself: a
	// --force run over an existing output writes a temporary sibling and
	// renames it over the output at the end, so a failure keeps the old one.
	Work string `json:"work,omitempty"`
}

// ErrSameFile is an output path that names the query file itself.
var ErrSameFile = errors.New("the output is the query file")

// ProgressSuffix names the file beside a score output that records how far
// an interrupted run got.
const ProgressSuffix = ".progress"

// ScoreFile ranks every query of queriesPath with r and writes the results
// to outPath in query order, chunk by chunk on all cores, so memory does
// not grow with the number of queries. A query a method cannot answer is
// written as such (see ScoreReport) and the run goes on; only a cancelled
// ctx, an unreadable query file or a failed write stop it. While it runs,
// outPath+".progress" records how many queries and bytes are complete; a
// run restarted with the same arguments truncates outPath to that point
// and continues, producing the same file as an uninterrupted run. The
// sidecar is removed at the end. An outPath that is queriesPath (by any
// name: a link, a relative path) is refused before anything is written.
func ScoreFile(ctx context.Context, ws *workspace.Workspace, r *pipeline.Runner, queriesPath, outPath string, o ScoreOptions) (ScoreReport, error) {
	o, err := o.withDefaults()
	if err != nil {
		return ScoreReport{}, err
	}
	if err := checkNotSame(queriesPath, outPath); err != nil {
		return ScoreReport{}, err
	}
	if err := checkOutPath(outPath); err != nil {
		return ScoreReport{}, err
	}
	args, err := scoreArgs(ws, r, queriesPath, o)
	if err != nil {
		return ScoreReport{}, err
	}
	unlock, err := flock.Lock(outPath+".lock", outPath)
	if err != nil {
		return ScoreReport{}, err
	}
	defer unlock()
	side := outPath + ProgressSuffix
	var prog progressFile
	fi, statErr := os.Stat(outPath)
	// An empty output holds nothing to lose (a run that failed before its
	// first chunk leaves one).
	exists := statErr == nil && fi.Size() > 0
	if b, err := os.ReadFile(side); err == nil {
		var old progressFile
		parsed := json.Unmarshal(b, &old) == nil
		switch {
		case parsed && old.Args == args:
			prog = old
		case o.Force:
		case parsed && old.Queries == 0 && old.Bytes == 0:
			// A run that scored nothing (a bad query file, killed at
			// once): starting over loses nothing.
			if exists {
				return ScoreReport{}, fmt.Errorf("%s exists (use --force to replace it)", outPath)
			}
		default:
			return ScoreReport{}, fmt.Errorf("%s holds an unfinished run with other arguments (pipeline, models, workspace, queries, -k, format or --max-query; use --force to start over)", outPath)
		}
	} else if exists && !o.Force {
		return ScoreReport{}, fmt.Errorf("%s exists (use --force to replace it)", outPath)
	}
	fresh := func() {
		prog = progressFile{Args: args}
		if exists { // --force over an output: keep it until the new one is whole
			prog.Work = filepath.Join(filepath.Dir(outPath), "."+filepath.Base(outPath)+".strata-new")
		}
	}
	if prog.Args == "" {
		fresh()
	}
	// The run is on record before its output is created, so a run killed
	// between the two can be rerun.
	if prog.Queries == 0 {
		if err := atomicfile.WriteFile(side, func(w io.Writer) error { return json.NewEncoder(w).Encode(prog) }); err != nil {
			return ScoreReport{}, err
		}
	}
	out, sum, err := openContinued(cmp.Or(prog.Work, outPath), &prog)
	if errors.Is(err, errNotContinued) && o.Force { // start over
		fresh()
		out, sum, err = openContinued(cmp.Or(prog.Work, outPath), &prog)
	}
	if err != nil {
		return ScoreReport{}, err
	}
	defer out.Close()
	work := cmp.Or(prog.Work, outPath)
	report := func() ScoreReport {
		return ScoreReport{Queries: prog.Queries, Failed: prog.Failed, Examples: prog.Examples, Fallbacks: prog.Fallbacks}
	}
	qr, err := OpenQueries(queriesPath)
	if err != nil {
		return ScoreReport{}, err
	}
	defer qr.Close()
	for i := 0; i < prog.Queries; i++ {
		if _, err := qr.Next(); err != nil {
			return ScoreReport{}, fmt.Errorf("%s: fewer queries than the %d already scored: %v", queriesPath, prog.Queries, err)
		}
	}
	if o.Progress != nil {
		o.Progress(prog.Queries)
	}
	tag := runTag(r)
	chunks := 0
	for {
		var batch []data.Query
		for len(batch) < o.Chunk {
			q, err := qr.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				return report(), err
			}
			batch = append(batch, q)
		}
		if len(batch) == 0 {
			break
		}
		scored, err := scoreQueries(ctx, ws, r, batch, o, tag)
		if err != nil {
			return report(), err
		}
		var buf []byte
		for i, q := range batch {
			if msg := scored[i].Failure; msg != "" {
				prog.Failed++
				if len(prog.Examples) < maxExamples {
					prog.Examples = append(prog.Examples, fmt.Sprintf("query %d: %s", q.ID, msg))
				}
				if o.OnError != nil {
					o.OnError(q.ID, msg)
				}
			}
			if scored[i].Fallback {
				prog.Fallbacks++
			}
			buf = append(buf, scored[i].Out...)
		}
		write := (*os.File).Write
		if o.write != nil {
			write = o.write
		}
		if _, err := write(out, buf); err != nil {
			if prog.Work != "" && (errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT)) {
				// --force over an output on a full disk: the unfinished
				// copy would keep it full; the old output stays.
				out.Close()
				os.Remove(prog.Work)
				os.Remove(side)
				return report(), fmt.Errorf("%w; the unfinished %s was removed to free the space, %s is as it was", err, prog.Work, outPath)
			}
			return report(), err
		}
		sum.Write(buf)
		prog.Sum = hex.EncodeToString(sum.Sum(nil))
		if err := out.Sync(); err != nil {
			return report(), err
		}
		prog.Queries += len(batch)
		prog.Bytes += int64(len(buf))
		if err := atomicfile.WriteFile(side, func(w io.Writer) error { return json.NewEncoder(w).Encode(prog) }); err != nil {
			return report(), err
		}
		if o.Progress != nil {
			o.Progress(prog.Queries)
		}
		chunks++
		if o.StopAfter > 0 && chunks >= o.StopAfter {
			return report(), errors.New("stopped (test hook)")
		}
	}
	if err := out.Close(); err != nil {
		return report(), err
	}
	if work != outPath {
		if err := os.Rename(work, outPath); err != nil {
			return report(), err
		}
	}
	if err := os.Remove(side); err != nil && !errors.Is(err, os.ErrNotExist) {
		return report(), err
	}
	return report(), nil
}

// withDefaults checks o's -k and format and fills in the defaults.
func (o ScoreOptions) withDefaults() (ScoreOptions, error) {
	if o.TopK < 0 {
		return o, fmt.Errorf("k = %d: want at least 1 result per query", o.TopK)
	}
	if o.TopK == 0 {
		o.TopK = 100
	}
	if o.Format == "" {
		o.Format = "jsonl"
	}
	if o.Format != "jsonl" && o.Format != "trec" {
		return o, fmt.Errorf("output format %q: want jsonl or trec", o.Format)
	}
	if o.Chunk <= 0 {
		o.Chunk = 256
	}
	if o.MaxQuery < 0 {
		return o, fmt.Errorf("max query %d: must not be negative", o.MaxQuery)
	}
	if o.MaxQuery == 0 {
		o.MaxQuery = DefaultMaxQuery
	}
	return o, nil
}

// runTag is the run name of r's TREC lines: its name without spaces.
func runTag(r *pipeline.Runner) string { return strings.Join(strings.Fields(r.Name()), "_") }

// A ScoredQuery is what ScoreFile writes for one query.
type ScoredQuery struct {
	// Out is the query's lines: its top -k in the output format or, when
	// it could not be answered, its JSONL failure record (nothing in TREC).
	Out []byte
	// Failure says why the query could not be answered ("" when it was).
	Failure string
	// Fallback: a stage answered it by its fallback.
	Fallback bool
}

// ScoreQueries ranks qs with r on all cores and returns, in the order of
// qs, exactly what ScoreFile writes for each under o (TopK, Format,
// Stages; the rest is ignored): the lines of one run file, split by
// query. A query a method cannot answer is a ScoredQuery with its
// Failure; only a cancelled ctx, bad options or a failed encoding are
// errors.
func ScoreQueries(ctx context.Context, ws *workspace.Workspace, r *pipeline.Runner, qs []data.Query, o ScoreOptions) ([]ScoredQuery, error) {
	o, err := o.withDefaults()
	if err != nil {
		return nil, err
	}
	return scoreQueries(ctx, ws, r, qs, o, runTag(r))
}

func scoreQueries(ctx context.Context, ws *workspace.Workspace, r *pipeline.Runner, qs []data.Query, o ScoreOptions, tag string) ([]ScoredQuery, error) {
	out := make([]ScoredQuery, len(qs))
	errs := make([]error, len(qs))
	err := parallel.Chunks(ctx, len(qs), 1, 0, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			if n := len(qs[i].Text); o.MaxQuery > 0 && n > o.MaxQuery {
				errs[i] = fmt.Errorf("a query of %d bytes, over the %d of --max-query: not scored", n, o.MaxQuery)
				continue
			}
			if strings.TrimSpace(qs[i].Text) == "" { // serve answers it 400
				errs[i] = errBlankQuery
				continue
			}
			out[i].Out, out[i].Fallback, errs[i] = formatResult(ctx, ws, r, qs[i], o, tag)
		}
	})
	if err != nil {
		return nil, err
	}
	for i, q := range qs {
		if errs[i] == nil {
			continue
		}
		out[i].Failure = queryErrorText(q.ID, errs[i])
		if out[i].Out, err = formatFailure(q.ID, out[i].Failure, o); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// errBlankQuery is a query with no text but spaces: not scored, as serve
// refuses it.
var errBlankQuery = errors.New("a blank query: not scored")

// errNotContinued is an output a restarted run cannot continue.
var errNotContinued = errors.New("it cannot be continued")

// openContinued opens the file a run writes, positioned after what
// prog says is already written, with the SHA-256 of those bytes so far.
// A restarted run continues only a file that still holds exactly what
// prog recorded (its first prog.Bytes bytes hash to prog.Sum); a file cut
// short or changed since is refused, never appended to.
func openContinued(path string, prog *progressFile) (*os.File, hash.Hash, error) {
	sum := sha256.New()
	flags := os.O_CREATE | os.O_RDWR
	if prog.Bytes == 0 {
		flags |= os.O_TRUNC
	}
	f, err := os.OpenFile(path, flags, 0o644)
	if err != nil {
		return nil, nil, err
	}
	fail := func(format string, a ...any) (*os.File, hash.Hash, error) {
		f.Close()
		return nil, nil, fmt.Errorf("%s: %s; %w (use --force to start over)", path, fmt.Sprintf(format, a...), errNotContinued)
	}
	if prog.Bytes > 0 {
		st, err := f.Stat()
		if err != nil {
			f.Close()
			return nil, nil, err
		}
		if st.Size() < prog.Bytes {
			return fail("%d bytes, fewer than the %d of the %d queries scored so far", st.Size(), prog.Bytes, prog.Queries)
		}
		if _, err := io.CopyN(sum, f, prog.Bytes); err != nil {
			f.Close()
			return nil, nil, err
		}
		if hex.EncodeToString(sum.Sum(nil)) != prog.Sum {
			return fail("its first %d bytes changed since they were written", prog.Bytes)
		}
	}
	if err := f.Truncate(prog.Bytes); err != nil {
		f.Close()
		return nil, nil, err
	}
	if _, err := f.Seek(prog.Bytes, io.SeekStart); err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, sum, nil
}

// checkOutPath refuses, before any work, an output path that is a
// directory or whose directory does not exist (the lock file beside it
// would otherwise be the one reported missing).
func checkOutPath(outPath string) error {
	if fi, err := os.Stat(outPath); err == nil && fi.IsDir() {
		return fmt.Errorf("%s is a directory: --out names the file to write", outPath)
	}
	dir := filepath.Dir(outPath)
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("the directory of %s, %s, does not exist (create it first)", outPath, dir)
	case err != nil:
		return err
	case !fi.IsDir():
		return fmt.Errorf("%s: %s is not a directory", outPath, dir)
	}
	return nil
}

// checkNotSame refuses an output path that names the query file.
func checkNotSame(queriesPath, outPath string) error {
	qi, err := os.Stat(queriesPath)
	if err != nil {
		return err
	}
	if oi, err := os.Stat(outPath); err == nil && os.SameFile(qi, oi) {
		return fmt.Errorf("%s: %w %s: refusing to write over it", outPath, ErrSameFile, queriesPath)
	}
	return nil
}

// queryErrorText is why a query could not be answered, without the
// "query ID: " a method may already have put in front.
func queryErrorText(id int, err error) string {
	msg := err.Error()
	prefix := fmt.Sprintf("query %d: ", id)
	for strings.HasPrefix(msg, prefix) {
		msg = msg[len(prefix):]
	}
	const max = 1000
	if len(msg) > max {
		msg = strings.ToValidUTF8(msg[:max], "") + fmt.Sprintf("... (%d bytes)", len(msg))
	}
	return msg
}

// formatFailure is the output of a query that could not be answered: a
// JSONL record with an empty ranking and the error; nothing in a TREC run.
func formatFailure(id int, msg string, o ScoreOptions) ([]byte, error) {
	if o.Format == "trec" {
		return nil, nil
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	err := enc.Encode(struct {
		ID      int          `json:"id"`
		Ranking []rankedNode `json:"ranking"`
		Error   string       `json:"error"`
	}{id, []rankedNode{}, msg})
	return buf.Bytes(), err
}

// scoreArgs fingerprints everything that decides the output.
func scoreArgs(ws *workspace.Workspace, r *pipeline.Runner, queriesPath string, o ScoreOptions) (string, error) {
	h := sha256.New()
	pj, _ := json.Marshal(r.P)
	h.Write(pj)
	f, err := os.Open(queriesPath)
	if err != nil {
		return "", err
	}
	defer f.Close()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	cfg, _ := json.Marshal(ws.Config) // BM25's parameters, ...
	fmt.Fprintf(h, "|%s|%s|%d|%s|%v", ws.Fingerprint, cfg, o.TopK, o.Format, o.Stages)
	if o.MaxQuery != DefaultMaxQuery {
		// (left out at the default: runs begun before the bound continue)
		fmt.Fprintf(h, "|max-query %d", o.MaxQuery)
	}
	// The content of every model and file the pipeline loaded, not where
	// it lies: a run never continues with a model that changed since it
	// started, and continues from a bundle unpacked anew (a random
	// directory each time).
	if err := hashContents(h, r.Loaded()); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// hashContents writes into h the content of every file, and of every
// regular file under every directory, of paths (each once, in sorted
// order, names relative to their directory): a checkpoint that changed
// since, or a best link that now points elsewhere, changes the hash.
func hashContents(h io.Writer, paths []string) error {
	paths = slices.Clone(paths)
	slices.Sort(paths)
	for _, p := range slices.Compact(paths) {
		// WalkDir does not follow a root that is a link (a run's best):
		// walk what it names.
		if real, err := filepath.EvalSymlinks(p); err == nil {
			p = real
		}
		err := filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
			if err != nil || !d.Type().IsRegular() {
				return err
			}
			f, err := os.Open(path)
			if err != nil {
				return err
			}
			defer f.Close()
			rel, _ := filepath.Rel(p, path)
			fmt.Fprintf(h, "|%s|", rel)
			_, err = io.Copy(h, f)
			return err
		})
		if err != nil {
			return err
		}
	}
	return nil
}

type rankedNode struct {
	Node   uint32             `json:"node"`
	Score  float32            `json:"score"`
	Name   string             `json:"name"`
	Stages map[string]float32 `json:"stages,omitempty"`
}

func formatResult(ctx context.Context, ws *workspace.Workspace, r *pipeline.Runner, q data.Query, o ScoreOptions, tag string) ([]byte, bool, error) {
	ctx, note := infer.WithFallbackNote(ctx)
	hits, per, err := r.Ranking(ctx, q, o.Stages)
	if err != nil {
		return nil, false, err
	}
	fb := note.Load() > 0
	if len(hits) > o.TopK {
		hits = hits[:o.TopK]
	}
	if o.Format == "trec" {
		var b []byte
		for i, h := range hits {
			b = fmt.Appendf(b, "%d Q0 %d %d %s %s\n", q.ID, h.ID, i+1, strconv.FormatFloat(float64(h.Score), 'g', -1, 32), tag)
		}
		return b, fb, nil
	}
	rec := struct {
		ID       int          `json:"id"`
		Ranking  []rankedNode `json:"ranking"`
		Fallback bool         `json:"fallback,omitempty"`
	}{ID: q.ID, Ranking: make([]rankedNode, len(hits)), Fallback: fb}
	for i, h := range hits {
		rn := rankedNode{Node: h.ID, Score: h.Score, Name: ws.SKB.Nodes[h.ID].Name}
		if o.Stages {
			rn.Stages = map[string]float32{}
			for si, name := range r.StageNames() {
				if s, ok := per[si][h.ID]; ok {
					rn.Stages[name] = s
				}
			}
		}
		rec.Ranking[i] = rn
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(rec); err != nil {
		return nil, false, err
	}
	return buf.Bytes(), fb, nil
}
