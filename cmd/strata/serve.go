package main

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"time"

	"github.com/spf13/cobra"

	"github.com/strata-retrieval/strata/infer/serve"
)

type serveOptions struct {
	WS, Pipeline, Addr, RequestLog string
	IgnoreFingerprint              bool
	Config                         serve.Config
}

const serveLong = `Serve a pipeline over HTTP:

  POST /v1/score   {"query": "...", "k": 10, "id": 7, "stages": false}
                   -> {"id": 7, "ranking": [{"node", "score", "name"}], "took_ms"
                       [, "fallback": true]}
                   (keys exactly these; query not blank; k in [1, --max-k],
                   10 when omitted; anything else is a 400 naming it)
  GET  /healthz    -> ok
  GET  /v1/info    -> the pipeline's stages (kinds, training steps, metrics),
                      the data fingerprint
  GET  /v1/stats   -> {"scored", "fallbacks", "waiting"}: queries scored since
                      the start, how many a stage answered by its fallback,
                      and the requests waiting for a scoring slot now

"fallback": true marks a query a stage answered by its fallback, its text
channel over the query text (BM25, or BM25 fused with the dense channel where
a planner's training chose that): a planner's text-fit gate found no plan
that fits it (free text, a description), or its plan was unusable or reached
nothing.

Requests carry query text only, never file paths; /v1/info names stages by
what they are, never by where their models live. Bodies over --max-body and
queries over --max-query bytes (16 KiB; a query's work grows with its length)
are refused (413), a body with anything after its JSON object is a 400, a
request not read within --read-timeout is cut off (408 once its headers are
in; before, the connection is closed), a keep-alive connection idle for
--idle-timeout is closed. Requests over --timeout answer 504 and their ranking
is cancelled; at most --concurrency queries are scored at once (the rest wait
within their time limit, then 503; beyond --max-waiting of them waiting, 503
at once). Ctrl-C or SIGTERM shuts down gracefully, finishing the requests in
flight within --grace.

Every request is logged to stderr as one JSON line (time, level, method,
path, status, latency_ms, bytes; for a score request its id and fallback;
the error it answered), written off the request's path (--request-log none
turns it off).`

func newServeCmd(u *ui) *cobra.Command {
	var o serveOptions
	cmd := &cobra.Command{
		Use:   "serve WORKSPACE --pipeline P [--addr 127.0.0.1:8080]",
		Short: "Serve a pipeline over HTTP for other programs",
		Long:  serveLong,
		Example: `  strata serve ws --pipeline ws/runs/cor
  curl -s localhost:8080/v1/score -d '{"query": "waterproof boots by Acme", "k": 5}'`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.WS = args[0]
			return runServe(cmd.Context(), u, o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.Pipeline, "pipeline", "", "pipeline file (JSON or YAML), run directory or model bundle (.tar)")
	f.StringVar(&o.Addr, "addr", "127.0.0.1:8080", "listen address")
	f.Int64Var(&o.Config.MaxBody, "max-body", 1<<20, "largest request body in bytes")
	f.IntVar(&o.Config.MaxQuery, "max-query", serve.DefaultMaxQuery, "longest query text in bytes (a 413 beyond; a query's work grows with its length)")
	f.DurationVar(&o.Config.Timeout, "timeout", 30*time.Second, "scoring time limit per request")
	f.DurationVar(&o.Config.ReadTimeout, "read-timeout", 10*time.Second, "time limit for reading a request (headers and body)")
	f.DurationVar(&o.Config.IdleTimeout, "idle-timeout", 60*time.Second, "close keep-alive connections idle this long")
	f.DurationVar(&o.Config.Grace, "grace", 30*time.Second, "on shutdown, how long requests in flight may finish")
	f.IntVar(&o.Config.Concurrency, "concurrency", 16, "queries scored at once")
	f.IntVar(&o.Config.MaxWaiting, "max-waiting", 0, "requests that may wait for a scoring slot (default 4 x --concurrency; one more gets a 503 at once)")
	f.IntVar(&o.Config.MaxK, "max-k", 1000, "largest k a request may ask for")
	f.BoolVar(&o.IgnoreFingerprint, "ignore-fingerprint", false, "accept a bundle made for other data")
	f.StringVar(&o.RequestLog, "request-log", "stderr", "one JSON line per request (method, path, status, latency_ms, bytes, id, fallback, error): stderr or none")
	return cmd
}

func runServe(ctx context.Context, u *ui, o serveOptions) error {
	if o.Pipeline == "" {
		return fmt.Errorf("--pipeline is required")
	}
	// Every one of these flags defaults to more than 0, so a 0 here was
	// typed; serve.Config would read it as its default, which no one
	// typing "--timeout 0" means.
	for _, z := range []struct {
		flag string
		zero bool
	}{{"--max-body", o.Config.MaxBody == 0}, {"--max-query", o.Config.MaxQuery == 0}, {"--max-k", o.Config.MaxK == 0}, {"--concurrency", o.Config.Concurrency == 0},
		{"--timeout", o.Config.Timeout == 0}, {"--read-timeout", o.Config.ReadTimeout == 0}, {"--idle-timeout", o.Config.IdleTimeout == 0}} {
		if z.zero {
			return fmt.Errorf("%s 0: want more than 0", z.flag)
		}
	}
	if err := o.Config.Validate(); err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	switch o.RequestLog {
	case "none":
	case "stderr":
		// Written from its own goroutine: a slow terminal never holds a
		// request; lines beyond 4096 waiting are dropped and counted.
		a := serve.NewAsyncWriter(u.err, 4096)
		defer func() {
			a.Close()
			if n := a.Dropped(); n > 0 {
				fmt.Fprintf(u.err, "request log: %d lines dropped (the log fell behind)\n", n)
			}
		}()
		o.Config.Log = slog.New(slog.NewJSONHandler(a, nil))
	default:
		return fmt.Errorf("--request-log %q: want stderr or none", o.RequestLog)
	}
	ws, r, cleanup, err := loadRunner(ctx, o.WS, o.Pipeline, o.IgnoreFingerprint, inputs(o.WS))
	if err != nil {
		return err
	}
	defer cleanup()
	err = serve.ListenAndServe(ctx, o.Addr, serve.NewHandler(ws, r, o.Config), o.Config, func(a net.Addr) {
		fmt.Fprintf(u.out, "serving %s on http://%s (POST /v1/score, GET /healthz, GET /v1/info, GET /v1/stats)\n", r.Name(), a)
	})
	if ctx.Err() != nil {
		fmt.Fprintln(u.err, "shut down")
	}
	return err
}
