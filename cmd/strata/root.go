package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/pprof"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"golang.org/x/term"

	_ "github.com/strata-retrieval/strata/infer/all" // every method and model kind
	"github.com/strata-retrieval/strata/internal/gcpace"
)

// ui carries the output streams and whether progress may be drawn. It is
// the one place the environment is read.
type ui struct {
	out, err io.Writer
	tty      bool             // stderr is a terminal: show progress
	quiet    bool             // STRATA_NO_PROGRESS: no progress lines either
	clock    func() time.Time // nil: time.Now; for tests
	logOnce  sync.Once
	logw     io.Writer
}

func newUI(out, errw io.Writer) *ui {
	u := &ui{out: out, err: errw, quiet: os.Getenv("STRATA_NO_PROGRESS") != ""}
	if f, ok := errw.(*os.File); ok && term.IsTerminal(int(f.Fd())) && os.Getenv("STRATA_NO_PROGRESS") == "" {
		u.tty = true
	}
	return u
}

// stage announces a step on stderr when it is a terminal.
func (u *ui) stage(format string, args ...any) {
	if u.tty {
		fmt.Fprintf(u.err, "· "+format+"\n", args...)
	}
}

// counter returns a goroutine-safe progress callback drawing a bar on a
// terminal; off one, a line (done, rate, elapsed, time left) each time
// progressEvery has passed since the start or the last line, so a short
// step stays quiet and a long one shows it is moving.
func (u *ui) counter(total int, desc string) (func(done, total int), func()) {
	if total < 2 || (!u.tty && u.quiet) {
		return func(int, int) {}, func() {}
	}
	if !u.tty {
		now := u.clock
		if now == nil {
			now = time.Now
		}
		var mu sync.Mutex
		start := now()
		last := start
		return func(done, _ int) {
			mu.Lock()
			defer mu.Unlock()
			t := now()
			if t.Sub(last) < progressEvery || done <= 0 {
				return
			}
			last = t
			el := t.Sub(start).Seconds()
			rate := float64(done) / el
			fmt.Fprintf(u.err, "%s: %d of %d (%.1f/s, %s, about %s left)\n", desc, done, total, rate,
				time.Duration(el*float64(time.Second)).Round(time.Second), time.Duration(float64(total-done)/rate*float64(time.Second)).Round(time.Second))
		}, func() {}
	}
	bar := progressbar.NewOptions(total, progressbar.OptionSetWriter(u.err), progressbar.OptionSetDescription(desc),
		progressbar.OptionShowCount(), progressbar.OptionShowIts(), progressbar.OptionSetPredictTime(true),
		progressbar.OptionThrottle(100_000_000), progressbar.OptionClearOnFinish())
	var mu sync.Mutex
	return func(done, _ int) {
			mu.Lock()
			bar.Set(done)
			mu.Unlock()
		}, func() {
			bar.Finish()
		}
}

// progressEvery is how often stageProgress writes a line off a terminal.
const progressEvery = 15 * time.Second

// stageProgress reports stages that count work done of a total, from
// several goroutines: a bar with its rate and time left on a terminal, and
// otherwise a line when a stage starts, at least every progressEvery while
// it runs, and when it ends (done, rate, time left).
func (u *ui) stageProgress() func(stage string, done, total int) {
	var mu sync.Mutex
	var bar *progressbar.ProgressBar
	var current string
	var start, last time.Time
	return func(stage string, done, total int) {
		mu.Lock()
		defer mu.Unlock()
		if stage != current {
			if bar != nil {
				bar.Finish()
				bar = nil
			}
			current, start, last = stage, time.Now(), time.Now()
			if u.tty && total > 1 {
				bar = progressbar.NewOptions(total, progressbar.OptionSetWriter(u.err), progressbar.OptionSetDescription(stage),
					progressbar.OptionShowCount(), progressbar.OptionShowIts(), progressbar.OptionSetPredictTime(true),
					progressbar.OptionThrottle(100_000_000), progressbar.OptionClearOnFinish())
			} else if !u.tty {
				fmt.Fprintf(u.err, "%s: %d to do\n", stage, total)
			}
		}
		if bar != nil {
			bar.Set(done)
			if done == total {
				bar.Finish()
				bar, current = nil, ""
			}
			return
		}
		if u.tty || done == 0 || done < total && time.Since(last) < progressEvery {
			return
		}
		last = time.Now()
		el := time.Since(start).Seconds()
		rate := float64(done) / max(el, 1e-9)
		fmt.Fprintf(u.err, "%s: %d of %d (%.1f/s, %s, about %s left)\n", stage, done, total, rate,
			time.Duration(el*float64(time.Second)).Round(time.Second), time.Duration(float64(total-done)/rate*float64(time.Second)).Round(time.Second))
		if done == total {
			current = ""
		}
	}
}

// buildProgress draws one bar per counted build stage on a terminal and a
// line for the others.
func (u *ui) buildProgress() func(stage string, done, total int) {
	var bar *progressbar.ProgressBar
	var current string
	return func(stage string, done, total int) {
		if !u.tty {
			return
		}
		if stage != current {
			if bar != nil {
				bar.Finish()
				bar = nil
			}
			current = stage
			if total == 0 {
				u.stage("building %s", stage)
				return
			}
		}
		if total == 0 {
			return
		}
		if bar == nil {
			bar = progressbar.NewOptions(total, progressbar.OptionSetWriter(u.err), progressbar.OptionSetDescription("building "+stage),
				progressbar.OptionShowCount(), progressbar.OptionThrottle(100_000_000))
		}
		bar.Set(done)
		if done == total {
			bar.Finish()
			fmt.Fprintln(u.err)
			bar = nil
			current = ""
		}
	}
}

// Main runs the CLI with args and returns the process exit code.
func Main(args []string, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	u := newUI(stdout, stderr)
	stopProfile, err := startCPUProfile(os.Getenv(EnvCPUProfile))
	if err != nil {
		fmt.Fprintln(stderr, "strata:", err)
		return 1
	}
	defer stopProfile()
	defer gcpace.Start(100 * time.Millisecond)()
	if path := os.Getenv(EnvMemProfile); path != "" {
		defer writeMemProfile(path, stderr)
	}
	root := newRoot(u)
	root.SetArgs(args)
	root.SetOut(stdout)
	root.SetErr(stderr)
	if err := root.ExecuteContext(ctx); err != nil {
		if errors.Is(err, context.Canceled) {
			fmt.Fprintln(stderr, "strata: interrupted")
			return 130
		}
		fmt.Fprintln(stderr, "strata:", err)
		return 1
	}
	return 0
}

func newRoot(u *ui) *cobra.Command {
	root := &cobra.Command{
		Use:   "strata",
		Short: "Hybrid text + graph retrieval over semi-structured knowledge bases",
		Long: `strata builds, evaluates and serves retrievers over semi-structured knowledge
bases (SKBs): typed graphs whose nodes carry documents, such as the STaRK
benchmark's products (Amazon), papers (MAG) and biomedical entities (Prime).

A typical session:

  strata gen --preset amazon --out skb/          # or bring your own SKB
  strata import --format skbdir --in skb/ --out ws/
  strata info ws/
  strata search ws/ "waterproof hiking boots"
  strata eval ws/ --method bm25 --split test

"strata demo" does all of this on a generated benchmark in one command.
Metrics are STaRK's (Hit@1, Hit@5, Recall@20, MRR), computed exactly as
stark_qa's evaluator does. Every metric-reporting command takes --json.`,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.AddCommand(newGenCmd(u), newImportCmd(u), newExportCmd(u), newInfoCmd(u), newSearchCmd(u), newEvalCmd(u), newDemoCmd(u), newCheckpointsCmd(u), newTrainCmd(u), newExplainCmd(u), newCurvesCmd(u), newImportEmbeddingsCmd(u), newScoreCmd(u), newServeCmd(u), newBundleCmd(u), newSimGraphCmd(u), newMinePlansCmd(u), newInitQwen3Cmd(u), newMergeLoRACmd(u), newVersionCmd(u), newPapersTopic())
	withUsageOnArgErrors(root)
	return root
}

// withUsageOnArgErrors makes every command's wrong-argument-count error
// name its usage line ("accepts 1 arg(s), received 0" alone does not say
// that WORKSPACE is missing).
func withUsageOnArgErrors(c *cobra.Command) {
	if args := c.Args; args != nil {
		c.Args = func(cmd *cobra.Command, a []string) error {
			if err := args(cmd, a); err != nil {
				return fmt.Errorf("%w\nusage: %s (strata help %s)", err, cmd.UseLine(), strings.TrimPrefix(cmd.CommandPath(), "strata "))
			}
			return nil
		}
	}
	for _, sub := range c.Commands() {
		withUsageOnArgErrors(sub)
	}
}

// log is where trainers and long steps write progress lines: stderr on a
// terminal; otherwise stderr at most one line per progressEvery (a log
// file or CI shows a long step going on, a short one stays quiet).
func (u *ui) log() io.Writer {
	if u.tty {
		return u.err
	}
	if u.quiet {
		return nil
	}
	u.logOnce.Do(func() { u.logw = &throttledLines{w: u.err, every: progressEvery, last: time.Now()} })
	return u.logw
}

// throttledLines passes on a complete line when at least every has
// passed since the last one it passed on (or since it was made), and
// drops the others; a carriage return ends a line too.
type throttledLines struct {
	mu    sync.Mutex
	w     io.Writer
	every time.Duration
	last  time.Time
	buf   []byte
	now   func() time.Time // nil: time.Now; for tests
}

func (t *throttledLines) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	now := time.Now
	if t.now != nil {
		now = t.now
	}
	t.buf = append(t.buf, p...)
	for {
		i := bytes.IndexAny(t.buf, "\r\n")
		if i < 0 {
			break
		}
		line := t.buf[:i]
		t.buf = t.buf[i+1:]
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		if n := now(); n.Sub(t.last) >= t.every {
			t.last = n
			t.w.Write(append(append([]byte(nil), line...), '\n'))
		}
	}
	if len(t.buf) > 1<<16 { // an endless line: keep its end
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-1<<10:]...)
	}
	return len(p), nil
}

// EnvCPUProfile names a file that receives a CPU profile of the whole
// command (go tool pprof reads it); unset, nothing is profiled.
const EnvCPUProfile = "STRATA_CPUPROFILE"

// EnvMemProfile names a file that receives a heap profile when the
// command ends (go tool pprof -sample_index=alloc_space or inuse_space:
// the live heap at the last collection).
const EnvMemProfile = "STRATA_MEMPROFILE"

func writeMemProfile(path string, stderr io.Writer) {
	f, err := os.Create(path)
	if err == nil {
		err = pprof.Lookup("heap").WriteTo(f, 0)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		fmt.Fprintf(stderr, "strata: %s: %v\n", EnvMemProfile, err)
	}
}

func startCPUProfile(path string) (func(), error) {
	if path == "" {
		return func() {}, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", EnvCPUProfile, err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", EnvCPUProfile, err)
	}
	return func() { pprof.StopCPUProfile(); f.Close() }, nil
}
