// Command strata-beam runs strata's batch work as Apache Beam pipelines:
// scoring a query file with a model bundle (score) and mining plans from
// the questions' answers (mine-plans), on the in-process Prism runner or
// on Flink, Spark or Dataflow (Beam's own --runner and its flags).
//
// Its outputs are strata's: the shards of score hold exactly the lines
// strata score writes, the file of mine-plans is the one strata
// mine-plans writes. Beam is linked into this binary only; the strata
// binary does not import it.
//
// Beam's Go SDK reads its options from the process-wide flag set, so the
// command line is parsed with package flag: a subcommand's own flags and
// Beam's share one flag set. A worker started by a runner (--worker and
// the harness flags, no subcommand) runs Beam's harness and never returns.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"

	_ "github.com/strata-retrieval/strata/infer/all" // every method and model kind
	"github.com/strata-retrieval/strata/internal/gcpace"
)

func main() { os.Exit(Main(os.Args[1:], os.Stdout, os.Stderr)) }

// command is one subcommand: its flags bound to an options value, and the
// call that runs it.
type command struct {
	name, usage string
	// bind adds the subcommand's flags to fs and returns the function that
	// runs it once they are parsed.
	bind func(fs *flag.FlagSet) func(ctx context.Context, stdout io.Writer) error
}

func commands() []command {
	return []command{
		{"score", "strata-beam score --workspace WS --bundle B.tar --queries FILE --output PREFIX [--format jsonl|trec] [-k N] [--shards N] [--runner R] [Beam flags]", bindScore},
		{"mine-plans", "strata-beam mine-plans --workspace WS --output PREFIX [--split train,val] [mining flags] [--runner R] [Beam flags]", bindMine},
	}
}

// Main runs the command line args and returns the process exit code.
func Main(args []string, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	defer gcpace.Start(100 * time.Millisecond)() // a worker holds a whole workspace
	if len(args) > 0 && strings.HasPrefix(args[0], "-") && args[0] != "-h" && args[0] != "--help" {
		// A runner starting this binary as a worker: Beam's flags only.
		if err := flag.CommandLine.Parse(args); err != nil {
			return 2
		}
		beam.Init() // runs the worker harness and exits when --worker is set
		fmt.Fprintln(stderr, "strata-beam: want a command first (score or mine-plans); flags alone start a Beam worker (--worker)")
		return 2
	}
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		usage(stdout)
		return 0
	}
	for _, c := range commands() {
		if c.name != args[0] {
			continue
		}
		fs := flag.NewFlagSet("strata-beam "+c.name, flag.ContinueOnError)
		fs.SetOutput(stderr)
		runF := c.bind(fs)
		// Beam's options (--runner, --endpoint, --project, ...) live in the
		// process-wide flag set: share its values.
		flag.CommandLine.VisitAll(func(f *flag.Flag) {
			if fs.Lookup(f.Name) == nil {
				fs.Var(f.Value, f.Name, f.Usage)
			}
		})
		fs.Usage = func() {
			fmt.Fprintf(stderr, "usage: %s\n\nflags (Beam's own included):\n", c.usage)
			fs.PrintDefaults()
		}
		if err := fs.Parse(args[1:]); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return 0
			}
			return 2
		}
		if fs.NArg() > 0 {
			fmt.Fprintf(stderr, "strata-beam %s: unexpected argument %q (every input is a flag)\n", c.name, fs.Arg(0))
			return 2
		}
		beam.Init()
		err := runPrivateTemp(func() error { return runF(ctx, stdout) })
		if err != nil {
			if errors.Is(err, context.Canceled) {
				fmt.Fprintln(stderr, "strata-beam: interrupted")
				return 130
			}
			fmt.Fprintf(stderr, "strata-beam %s: %v\n", c.name, err)
			return 1
		}
		return 0
	}
	fmt.Fprintf(stderr, "strata-beam: unknown command %q (want score or mine-plans)\n", args[0])
	return 2
}

// runPrivateTemp runs f with TMPDIR set to a new directory of its own,
// and then closes what the process still holds (closeShared) and removes
// the directory: Beam's loopback mode (Prism, in process) leaves an empty
// "beamloopbackworker-*" file in TMPDIR per job (Beam v2.77.0,
// runnerlib/execute.go), and the bundles extracted for scoring live there
// too. Where no directory can be made, f runs in TMPDIR as it is.
func runPrivateTemp(f func() error) error {
	dir, mkErr := os.MkdirTemp("", "strata-beam-run-*")
	if mkErr != nil {
		err := f()
		closeShared()
		return err
	}
	old, had := os.LookupEnv("TMPDIR")
	os.Setenv("TMPDIR", dir)
	defer func() {
		closeShared()
		if had {
			os.Setenv("TMPDIR", old)
		} else {
			os.Unsetenv("TMPDIR")
		}
		os.RemoveAll(dir)
	}()
	return f()
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "strata-beam runs strata's batch scoring and plan mining as Apache Beam pipelines.\n\nCommands:")
	for _, c := range commands() {
		fmt.Fprintf(w, "  %s\n", c.usage)
	}
	fmt.Fprintln(w, "\nThe runner is Beam's --runner (default prism, in-process); \"strata-beam COMMAND -h\" lists every flag.")
}
