package serve

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/strata-retrieval/strata/infer/pipeline"
	"net"
	"net/http"
	"time"

	"github.com/strata-retrieval/strata/checkpoints"
	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/graphops/workspace"
)

// ServeConfig bounds the HTTP service. Zero values mean the defaults.
type ServeConfig struct {
	MaxBody     int64         // request body limit in bytes, default 1 MiB
	Timeout     time.Duration // per-request time limit, default 30 s
	Concurrency int           // requests scored at once, default 2×cores; more wait
	MaxK        int           // largest k a request may ask for, default 1000
}

func (c ServeConfig) withDefaults() ServeConfig {
	if c.MaxBody == 0 {
		c.MaxBody = 1 << 20
	}
	if c.Timeout == 0 {
		c.Timeout = 30 * time.Second
	}
	if c.Concurrency == 0 {
		c.Concurrency = 16
	}
	if c.MaxK == 0 {
		c.MaxK = 1000
	}
	return c
}

// ScoreRequest is the body of POST /v1/score. Requests carry query text
// only: never a file path.
type ScoreRequest struct {
	ID     int    `json:"id"`
	Query  string `json:"query"`
	K      int    `json:"k"`
	Stages bool   `json:"stages"`
}

// ScoreResponse is the answer of POST /v1/score.
type ScoreResponse struct {
	ID      int          `json:"id"`
	Ranking []rankedNode `json:"ranking"`
	TookMS  float64      `json:"took_ms"`
}

// Info is the answer of GET /v1/info.
type Info struct {
	Pipeline        *pipeline.Pipeline               `json:"pipeline"`
	Name            string                           `json:"name"`
	DataFingerprint string                           `json:"data_fingerprint"`
	Workspace       string                           `json:"workspace"`
	Models          map[string]*checkpoints.Manifest `json:"models"`
}

// NewHandler serves a compiled pipeline over HTTP: POST /v1/score,
// GET /healthz and GET /v1/info.
func NewHandler(ws *workspace.Workspace, r *pipeline.Runner, cfg ServeConfig) http.Handler {
	cfg = cfg.withDefaults()
	sem := make(chan struct{}, cfg.Concurrency)
	info := Info{Pipeline: r.P, Name: r.Name(), DataFingerprint: ws.Fingerprint, Workspace: ws.String(), Models: map[string]*checkpoints.Manifest{}}
	for _, s := range append(append([]pipeline.Stage{}, r.P.Scorers...), stageOrEmpty(r.P.Candidates)...) {
		if s.Model != "" {
			if m, err := checkpoints.ReadManifest(r.P.ModelPath(s.Model)); err == nil {
				info.Models[s.Model] = m
			}
		}
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		fmt.Fprintln(w, "ok")
	})
	mux.HandleFunc("GET /v1/info", func(w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, http.StatusOK, info)
	})
	mux.HandleFunc("POST /v1/score", func(w http.ResponseWriter, req *http.Request) {
		start := time.Now()
		ctx, cancel := context.WithTimeout(req.Context(), cfg.Timeout)
		defer cancel()
		var sr ScoreRequest
		dec := json.NewDecoder(http.MaxBytesReader(w, req.Body, cfg.MaxBody))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&sr); err != nil {
			var mb *http.MaxBytesError
			if errors.As(err, &mb) {
				writeError(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("request body over %d bytes", cfg.MaxBody))
				return
			}
			writeError(w, http.StatusBadRequest, "bad request body: "+err.Error())
			return
		}
		if sr.Query == "" {
			writeError(w, http.StatusBadRequest, `"query" is required`)
			return
		}
		if sr.K == 0 {
			sr.K = 10
		}
		if sr.K < 0 || sr.K > cfg.MaxK {
			writeError(w, http.StatusBadRequest, fmt.Sprintf(`"k" must be in [1, %d]`, cfg.MaxK))
			return
		}
		select {
		case sem <- struct{}{}:
			defer func() { <-sem }()
		case <-ctx.Done():
			writeError(w, http.StatusServiceUnavailable, "server busy: no scoring slot within the time limit")
			return
		}
		type result struct {
			nodes []rankedNode
			err   error
		}
		done := make(chan result, 1)
		go func() {
			hits, per, err := r.RankStages(ctx, data.Query{ID: sr.ID, Text: sr.Query})
			if err != nil {
				done <- result{err: err}
				return
			}
			if len(hits) > sr.K {
				hits = hits[:sr.K]
			}
			nodes := make([]rankedNode, len(hits))
			for i, h := range hits {
				nodes[i] = rankedNode{Node: h.ID, Score: h.Score, Name: ws.SKB.Nodes[h.ID].Name}
				if sr.Stages {
					nodes[i].Stages = map[string]float32{}
					for si, name := range r.StageNames() {
						if s, ok := per[si][h.ID]; ok {
							nodes[i].Stages[name] = s
						}
					}
				}
			}
			done <- result{nodes: nodes}
		}()
		select {
		case res := <-done:
			if res.err != nil {
				writeError(w, http.StatusUnprocessableEntity, res.err.Error())
				return
			}
			writeJSON(w, http.StatusOK, ScoreResponse{ID: sr.ID, Ranking: res.nodes, TookMS: float64(time.Since(start).Microseconds()) / 1000})
		case <-ctx.Done():
			writeError(w, http.StatusGatewayTimeout, fmt.Sprintf("scoring took longer than %s", cfg.Timeout))
		}
	})
	return mux
}

func stageOrEmpty(s *pipeline.Stage) []pipeline.Stage {
	if s == nil {
		return nil
	}
	return []pipeline.Stage{*s}
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	json.NewEncoder(w).Encode(v)
}

func writeError(w http.ResponseWriter, code int, msg string) {
	writeJSON(w, code, map[string]string{"error": msg})
}

// ListenAndServe serves h on addr until ctx is cancelled, then shuts down
// gracefully (requests in flight finish within grace). ready, when set, is
// called with the address once it listens.
func ListenAndServe(ctx context.Context, addr string, h http.Handler, grace time.Duration, ready func(net.Addr)) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	if ready != nil {
		ready(ln.Addr())
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), grace)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		return err
	}
	if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
