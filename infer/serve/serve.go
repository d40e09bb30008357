package serve

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/strata-retrieval/strata/infer"
	"github.com/strata-retrieval/strata/infer/pipeline"

	"github.com/strata-retrieval/strata/checkpoints"
	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/graphops/workspace"
)

// Config bounds the HTTP service. Zero values mean the defaults.
type Config struct {
	MaxBody     int64         // request body limit in bytes, default 1 MiB
	Timeout     time.Duration // per-request scoring time limit, default 30 s
	Concurrency int           // requests scored at once, default 16; more wait
	// MaxWaiting bounds the requests waiting for a scoring slot, default
	// 4 x Concurrency: one more gets a 503 at once instead of holding a
	// connection and its query until its time limit.
	MaxWaiting int
	MaxK       int // largest k a request may ask for, default 1000
	// MaxQuery is the longest query text in bytes, default
	// DefaultMaxQuery: the work a query costs grows with its length, so a
	// request's cost is bounded before it runs.
	MaxQuery int
	// ReadTimeout bounds reading one request, headers and body, from its
	// first byte (default 10 s): a client that trickles its request is
	// cut off (408 when the headers were complete).
	ReadTimeout time.Duration
	// IdleTimeout closes a keep-alive connection that sends no new
	// request for that long (default 60 s).
	IdleTimeout time.Duration
	// Grace is how long shutdown waits for requests in flight (default
	// 30 s); connections still open then are closed.
	Grace time.Duration
	// Log, when set, gets one structured line per request (withRequestLog).
	Log *slog.Logger
}

func (c Config) withDefaults() Config {
	if c.MaxBody == 0 {
		c.MaxBody = 1 << 20
	}
	if c.Timeout == 0 {
		c.Timeout = 30 * time.Second
	}
	if c.Concurrency == 0 {
		c.Concurrency = 16
	}
	if c.MaxWaiting == 0 {
		c.MaxWaiting = 4 * c.Concurrency
	}
	if c.MaxK == 0 {
		c.MaxK = 1000
	}
	if c.MaxQuery == 0 {
		c.MaxQuery = DefaultMaxQuery
	}
	if c.ReadTimeout == 0 {
		c.ReadTimeout = 10 * time.Second
	}
	if c.IdleTimeout == 0 {
		c.IdleTimeout = 60 * time.Second
	}
	if c.Grace == 0 {
		c.Grace = 30 * time.Second
	}
	return c
}

// Validate reports a negative bound (zero means the default).
func (c Config) Validate() error {
	switch {
	case c.MaxBody < 0:
		return fmt.Errorf("max body %d: must not be negative", c.MaxBody)
	case c.Timeout < 0, c.ReadTimeout < 0, c.IdleTimeout < 0, c.Grace < 0:
		return errors.New("timeouts must not be negative")
	case c.Concurrency < 0:
		return fmt.Errorf("concurrency %d: must not be negative", c.Concurrency)
	case c.MaxWaiting < 0:
		return fmt.Errorf("max waiting %d: must not be negative", c.MaxWaiting)
	case c.MaxK < 0:
		return fmt.Errorf("max k %d: must not be negative", c.MaxK)
	case c.MaxQuery < 0:
		return fmt.Errorf("max query %d: must not be negative", c.MaxQuery)
	}
	return nil
}

// DefaultMaxQuery is the longest query text in bytes serve and score take
// by default (16 KiB; STaRK's longest question has 637 bytes).
const DefaultMaxQuery = 16 << 10

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
	// Fallback: a stage answered by its fallback (no plan fits the query,
	// no usable plan or pattern: BM25 over the query text).
	Fallback bool `json:"fallback,omitempty"`
}

// Stats is the answer of GET /v1/stats: the queries scored since the
// service started and how many of them a stage answered by its fallback.
type Stats struct {
	Scored    int64 `json:"scored"`
	Fallbacks int64 `json:"fallbacks"`
	// Waiting is the number of requests waiting for a scoring slot now.
	Waiting int64 `json:"waiting"`
}

// Info is the answer of GET /v1/info: what the service scores with, and
// no host path (model stages are named by what they are, and their
// manifests' configs, which may name directories, are left out).
type Info struct {
	Name            string               `json:"name"`
	DataFingerprint string               `json:"data_fingerprint"`
	Workspace       string               `json:"workspace"` // a summary: name and counts
	Candidates      *StageInfo           `json:"candidates,omitempty"`
	Scorers         []StageInfo          `json:"scorers"`
	Fusion          *pipeline.FusionSpec `json:"fusion,omitempty"`
}

// StageInfo describes one stage of the served pipeline: a named method, or
// a model with what its manifest says about its training.
type StageInfo struct {
	Name            string             `json:"name"`
	Method          string             `json:"method,omitempty"`
	Kind            string             `json:"kind,omitempty"`
	K               int                `json:"k,omitempty"`
	Weight          float64            `json:"weight,omitempty"`
	Step            int                `json:"step,omitempty"`
	Epoch           int                `json:"epoch,omitempty"`
	Seed            uint64             `json:"seed,omitempty"`
	DataFingerprint string             `json:"data_fingerprint,omitempty"`
	Metrics         map[string]float64 `json:"metrics,omitempty"`
}

// stageInfo describes s, named name.
func stageInfo(p *pipeline.Pipeline, s pipeline.Stage, name string) StageInfo {
	si := StageInfo{Name: name, Method: s.Method, K: s.K, Weight: s.Weight}
	ck := cmp.Or(s.Model, s.Planner) // a planned method: its planner's checkpoint
	if ck == "" {
		return si
	}
	_, m, err := checkpoints.ReadRunManifest(p.ModelPath(ck))
	if err != nil {
		return si
	}
	si.Kind, si.Step, si.Epoch, si.Seed, si.DataFingerprint, si.Metrics = m.Kind, m.Step, m.Epoch, m.Seed, m.DataFingerprint, m.Metrics
	return si
}

// NewInfo describes a compiled pipeline over ws (GET /v1/info).
func NewInfo(ws *workspace.Workspace, r *pipeline.Runner) Info {
	info := Info{Name: r.Name(), DataFingerprint: ws.Fingerprint, Workspace: ws.String(), Fusion: r.P.Fusion}
	if c := r.P.Candidates; c != nil {
		name := c.Method
		if name == "" {
			name = "candidates"
		}
		ci := stageInfo(r.P, *c, name)
		info.Candidates = &ci
	}
	for i, s := range r.P.Scorers {
		info.Scorers = append(info.Scorers, stageInfo(r.P, s, r.StageNames()[i]))
	}
	return info
}

// RequestError is a request the service refuses: its HTTP status and why.
type RequestError struct {
	Code int
	Msg  string
}

func (e *RequestError) Error() string { return e.Msg }

// ReadScoreRequest reads one POST /v1/score body: exactly one JSON object
// whose keys are exactly id, query, k and stages, each at most once (any
// other key, "Query" included, a key given twice, and anything but white
// space after it, are a 400), at most maxBody bytes (413), with a query
// that is not only white space, of at most maxQuery bytes (413), and k in
// [1, maxK] (omitted or null: 10). A body that arrives too slowly is a
// 408. Every error is a *RequestError.
func ReadScoreRequest(body io.Reader, maxBody int64, maxK, maxQuery int) (ScoreRequest, error) {
	var raw map[string]json.RawMessage
	dec := json.NewDecoder(http.MaxBytesReader(nil, io.NopCloser(body), maxBody))
	bad := func(err error) (ScoreRequest, error) {
		var ne net.Error
		var mb *http.MaxBytesError
		switch {
		case errors.As(err, &mb):
			return ScoreRequest{}, &RequestError{http.StatusRequestEntityTooLarge, fmt.Sprintf("request body over %d bytes", maxBody)}
		case errors.As(err, &ne) && ne.Timeout():
			return ScoreRequest{}, &RequestError{http.StatusRequestTimeout, "request body not received within the read timeout"}
		}
		return ScoreRequest{}, &RequestError{http.StatusBadRequest, "bad request body: " + clipMsg(err.Error())}
	}
	var body0 json.RawMessage
	if err := dec.Decode(&body0); err != nil {
		return bad(err)
	}
	if tok, err := dec.Token(); err != io.EOF {
		if err != nil {
			return bad(err)
		}
		return bad(fmt.Errorf("trailing data after the JSON object (%v at offset %d)", tok, dec.InputOffset()))
	}
	if err := json.Unmarshal(body0, &raw); err != nil {
		return bad(err)
	}
	// A key given twice is refused: encoding/json keeps the last, so
	// {"query": "a", "query": "b"} would score "b" while the client logs "a".
	if key, ok := repeatedKey(body0); ok {
		return bad(fmt.Errorf("json: field %q given twice", key))
	}
	// Field names match exactly (encoding/json alone would take "QUERY").
	var sr ScoreRequest
	var k *int
	keys := make([]string, 0, len(raw))
	for key := range raw {
		keys = append(keys, key)
	}
	slices.Sort(keys)
	for _, key := range keys {
		var dst any
		switch key {
		case "id":
			dst = &sr.ID
		case "query":
			dst = &sr.Query
		case "k":
			dst = &k
		case "stages":
			dst = &sr.Stages
		default:
			return bad(fmt.Errorf("json: unknown field %q (the fields are id, query, k and stages)", key))
		}
		if err := json.Unmarshal(raw[key], dst); err != nil {
			return bad(fmt.Errorf("field %q: %w", key, err))
		}
	}
	if strings.TrimSpace(sr.Query) == "" {
		return ScoreRequest{}, &RequestError{http.StatusBadRequest, `"query" is required and must not be only white space`}
	}
	if len(sr.Query) > maxQuery {
		return ScoreRequest{}, &RequestError{http.StatusRequestEntityTooLarge, fmt.Sprintf(`"query" is %d bytes, over the server's limit of %d (--max-query)`, len(sr.Query), maxQuery)}
	}
	sr.K = 10
	if k != nil {
		sr.K = *k
	}
	if sr.K < 1 || sr.K > maxK {
		return ScoreRequest{}, &RequestError{http.StatusBadRequest, fmt.Sprintf(`"k" must be in [1, %d]`, maxK)}
	}
	return sr, nil
}

// repeatedKey returns a key the JSON object b (valid JSON) gives twice;
// false for none, or when b is not an object.
func repeatedKey(b []byte) (string, bool) {
	dec := json.NewDecoder(bytes.NewReader(b))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return "", false
	}
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return "", false
		}
		key, _ := tok.(string)
		if seen[key] {
			return key, true
		}
		seen[key] = true
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return "", false
		}
	}
	return "", false
}

// clipMsg keeps an error message that quotes the client's bytes short.
func clipMsg(s string) string {
	const max = 300
	if len(s) <= max {
		return s
	}
	return strings.ToValidUTF8(s[:max], "") + "..."
}

// NewHandler serves a compiled pipeline over HTTP: POST /v1/score,
// GET /healthz, GET /v1/info and GET /v1/stats. A request's ranking runs under a context
// that ends at cfg.Timeout or when the client goes away; it holds one of
// cfg.Concurrency scoring slots until the ranking has returned, so
// requests that timed out still count until their work stops.
func NewHandler(ws *workspace.Workspace, r *pipeline.Runner, cfg Config) http.Handler {
	cfg = cfg.withDefaults()
	sem := make(chan struct{}, cfg.Concurrency)
	info := NewInfo(ws, r)
	var scored, fallbacks, waiting atomic.Int64
	mux := http.NewServeMux()
	mux.HandleFunc("GET /v1/stats", func(w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, http.StatusOK, Stats{Scored: scored.Load(), Fallbacks: fallbacks.Load(), Waiting: waiting.Load()})
	})
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		fmt.Fprintln(w, "ok")
	})
	mux.HandleFunc("GET /v1/info", func(w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, http.StatusOK, info)
	})
	mux.HandleFunc("POST /v1/score", func(w http.ResponseWriter, req *http.Request) {
		start := time.Now()
		sr, err := ReadScoreRequest(req.Body, cfg.MaxBody, cfg.MaxK, cfg.MaxQuery)
		if err != nil {
			re := err.(*RequestError)
			if re.Code == http.StatusRequestTimeout || re.Code == http.StatusRequestEntityTooLarge {
				w.Header().Set("Connection", "close")
			}
			writeError(w, re.Code, re.Msg)
			return
		}
		noteScored(w, sr.ID, false)
		ctx, cancel := context.WithTimeout(req.Context(), cfg.Timeout)
		defer cancel()
		select {
		case sem <- struct{}{}:
		default:
			// No slot free: wait for one, if fewer than MaxWaiting wait.
			if waiting.Add(1) > int64(cfg.MaxWaiting) {
				waiting.Add(-1)
				writeError(w, http.StatusServiceUnavailable, fmt.Sprintf("server busy: %d requests already wait for a scoring slot (--max-waiting)", cfg.MaxWaiting))
				return
			}
			select {
			case sem <- struct{}{}:
				waiting.Add(-1)
			case <-ctx.Done():
				waiting.Add(-1)
				writeError(w, http.StatusServiceUnavailable, "server busy: no scoring slot within the time limit")
				return
			}
		}
		type result struct {
			nodes    []rankedNode
			fallback bool
			err      error
		}
		done := make(chan result, 1)
		go func() {
			defer func() { <-sem }() // the slot is free once the work has stopped
			nodes, fb, err := rankRequest(ctx, ws, r, sr)
			if err == nil {
				scored.Add(1)
				if fb {
					fallbacks.Add(1)
				}
			}
			done <- result{nodes, fb, err}
		}()
		select {
		case res := <-done:
			if res.err != nil {
				if ctx.Err() != nil {
					writeError(w, http.StatusGatewayTimeout, fmt.Sprintf("scoring took longer than %s", cfg.Timeout))
					return
				}
				writeError(w, http.StatusUnprocessableEntity, res.err.Error())
				return
			}
			noteScored(w, sr.ID, res.fallback)
			writeJSON(w, http.StatusOK, ScoreResponse{ID: sr.ID, Ranking: res.nodes, TookMS: float64(time.Since(start).Microseconds()) / 1000, Fallback: res.fallback})
		case <-ctx.Done():
			writeError(w, http.StatusGatewayTimeout, fmt.Sprintf("scoring took longer than %s", cfg.Timeout))
		}
	})
	if cfg.Log != nil {
		return withRequestLog(mux, cfg.Log)
	}
	return mux
}

// rankRequest ranks one request's query under ctx, and says whether a
// stage answered it by its fallback.
func rankRequest(ctx context.Context, ws *workspace.Workspace, r *pipeline.Runner, sr ScoreRequest) ([]rankedNode, bool, error) {
	ctx, fb := infer.WithFallbackNote(ctx)
	q := data.Query{ID: sr.ID, Text: sr.Query}
	hits, per, err := r.Ranking(ctx, q, sr.Stages)
	if err != nil {
		return nil, false, err
	}
	if err := ctx.Err(); err != nil {
		return nil, false, err
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
	return nodes, fb.Load() > 0, nil
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	json.NewEncoder(w).Encode(v)
}

func writeError(w http.ResponseWriter, code int, msg string) {
	noteError(w, msg)
	writeJSON(w, code, map[string]string{"error": msg})
}

// NewServer returns the http.Server ListenAndServe runs: h behind cfg's
// read, idle and write timeouts. Reading a request (headers and body) may
// take cfg.ReadTimeout; writing its answer may take until cfg.Timeout
// (plus a margin) after that.
func NewServer(h http.Handler, cfg Config) *http.Server {
	cfg = cfg.withDefaults()
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: cfg.ReadTimeout,
		ReadTimeout:       cfg.ReadTimeout,
		WriteTimeout:      cfg.ReadTimeout + cfg.Timeout + 5*time.Second,
		IdleTimeout:       cfg.IdleTimeout,
		MaxHeaderBytes:    64 << 10,
	}
}

// ListenAndServe serves h on addr until ctx is cancelled, then shuts down
// gracefully: requests in flight finish within cfg.Grace, after which the
// connections still open are closed and an error says how long it waited.
// ready, when set, is called with the address once it listens.
func ListenAndServe(ctx context.Context, addr string, h http.Handler, cfg Config, ready func(net.Addr)) error {
	if err := cfg.Validate(); err != nil {
		return err
	}
	cfg = cfg.withDefaults()
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	srv := NewServer(h, cfg)
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
	sctx, cancel := context.WithTimeout(context.Background(), cfg.Grace)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		srv.Close()
		<-errc
		return fmt.Errorf("shutdown: requests still running after %s were cut off: %w", cfg.Grace, err)
	}
	if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
