package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/spf13/cobra"

	"github.com/strata-retrieval/strata/infer"
)

func newServeCmd(u *ui) *cobra.Command {
	var pipeline, addr string
	var ignoreFP bool
	var cfg infer.ServeConfig
	cmd := &cobra.Command{
		Use:   "serve WORKSPACE --pipeline P [--addr 127.0.0.1:8080]",
		Short: "Serve a pipeline over HTTP for other programs",
		Long: `Serve a pipeline over HTTP:

  POST /v1/score   {"query": "...", "k": 10, "id": 7, "stages": false}
                   -> {"id": 7, "ranking": [{"node", "score", "name"}], "took_ms"}
  GET  /healthz    -> ok
  GET  /v1/info    -> the pipeline, its models' manifests, the data fingerprint

Requests carry query text only, never file paths. Bodies over --max-body are
refused (413), requests over --timeout answer 504, at most --concurrency
queries are scored at once (the rest wait within their time limit, then 503).
Ctrl-C or SIGTERM shuts down gracefully, finishing the requests in flight.`,
		Example: `  strata serve ws --pipeline ws/runs/cor
  curl -s localhost:8080/v1/score -d '{"query": "waterproof boots by Acme", "k": 5}'`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if pipeline == "" {
				return fmt.Errorf("--pipeline is required")
			}
			ws, r, cleanup, err := loadRunner(args[0], pipeline, ignoreFP)
			if err != nil {
				return err
			}
			defer cleanup()
			ln, err := net.Listen("tcp", addr)
			if err != nil {
				return err
			}
			srv := &http.Server{Handler: infer.NewHandler(ws, r, cfg), ReadHeaderTimeout: 10 * time.Second}
			fmt.Fprintf(u.out, "serving %s on http://%s (POST /v1/score, GET /healthz, GET /v1/info)\n", r.Name(), ln.Addr())
			errc := make(chan error, 1)
			go func() { errc <- srv.Serve(ln) }()
			select {
			case err := <-errc:
				return err
			case <-cmd.Context().Done():
			}
			fmt.Fprintln(u.err, "shutting down")
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			if err := srv.Shutdown(ctx); err != nil {
				return err
			}
			if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
				return err
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&pipeline, "pipeline", "", "pipeline file (JSON or YAML), run directory or model bundle (.tar)")
	f.StringVar(&addr, "addr", "127.0.0.1:8080", "listen address")
	f.Int64Var(&cfg.MaxBody, "max-body", 1<<20, "largest request body in bytes")
	f.DurationVar(&cfg.Timeout, "timeout", 30*time.Second, "time limit per request")
	f.IntVar(&cfg.Concurrency, "concurrency", 16, "queries scored at once")
	f.IntVar(&cfg.MaxK, "max-k", 1000, "largest k a request may ask for")
	f.BoolVar(&ignoreFP, "ignore-fingerprint", false, "accept a bundle made for other data")
	return cmd
}
