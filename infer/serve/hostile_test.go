package serve

import (
	"archive/tar"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/strata-retrieval/strata/checkpoints"
	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/data/index"
	"github.com/strata-retrieval/strata/graphops/workspace"
	"github.com/strata-retrieval/strata/infer"
	"github.com/strata-retrieval/strata/infer/pipeline"
	"github.com/strata-retrieval/strata/infer/registry"
	"github.com/strata-retrieval/strata/internal/flock"
	"github.com/strata-retrieval/strata/internal/testws"
)

// Test methods: "test-block" blocks until its context ends and reports the
// context's error on blockErrs; "test-sleep" works for sleepFor ignoring
// its context; "test-count" counts its calls; "test-fail" fails for
// queries whose text starts with "fail"; model kind "test-kind" loads as
// test-count.
var (
	gateIn     = make(chan struct{}, 16) // "test-gate" has started a query
	gateOpen   = make(chan struct{}, 16) // lets one "test-gate" query finish
	blockErrs  = make(chan error, 16)
	sleepFor   atomic.Int64 // a time.Duration; set by the tests while handlers may read it
	countCalls atomic.Int64
)

func init() { sleepFor.Store(int64(600 * time.Millisecond)) }

type testMethod struct {
	name string
	rank func(ctx context.Context, q data.Query) ([]index.Hit, error)
}

func (m testMethod) Name() string { return m.name }
func (m testMethod) Rank(ctx context.Context, q data.Query) ([]index.Hit, error) {
	return m.rank(ctx, q)
}

// fallbackMethod answers queries starting with "free" by its fallback
// (counted) and the others by its plan; both rank node 1 first.
type fallbackMethod struct{ total atomic.Int64 }

func (m *fallbackMethod) Name() string         { return "test-fallback" }
func (m *fallbackMethod) TakeFallbacks() int64 { return m.total.Swap(0) }
func (m *fallbackMethod) Rank(ctx context.Context, q data.Query) ([]index.Hit, error) {
	if strings.HasPrefix(q.Text, "free") {
		infer.CountFallback(ctx, &m.total)
	}
	return []index.Hit{{ID: 1, Score: 1}}, nil
}

func init() {
	registry.RegisterMethod("test-block", "test: blocks until its context ends", func(*infer.Env) (infer.Method, error) {
		return testMethod{"test-block", func(ctx context.Context, _ data.Query) ([]index.Hit, error) {
			<-ctx.Done()
			blockErrs <- ctx.Err()
			return nil, ctx.Err()
		}}, nil
	})
	registry.RegisterMethod("test-gate", "test: waits for gateOpen", func(*infer.Env) (infer.Method, error) {
		return testMethod{"test-gate", func(ctx context.Context, _ data.Query) ([]index.Hit, error) {
			gateIn <- struct{}{}
			select {
			case <-gateOpen:
				return []index.Hit{{ID: 1, Score: 1}}, nil
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		}}, nil
	})
	registry.RegisterMethod("test-sleep", "test: works ignoring its context", func(*infer.Env) (infer.Method, error) {
		return testMethod{"test-sleep", func(context.Context, data.Query) ([]index.Hit, error) {
			time.Sleep(time.Duration(sleepFor.Load()))
			return []index.Hit{{ID: 1, Score: 1}}, nil
		}}, nil
	})
	count := func(*infer.Env) (infer.Method, error) {
		return testMethod{"test-count", func(context.Context, data.Query) ([]index.Hit, error) {
			countCalls.Add(1)
			return []index.Hit{{ID: 2, Score: 1}}, nil
		}}, nil
	}
	registry.RegisterMethod("test-count", "test: counts its calls", count)
	registry.RegisterMethod("test-fail", "test: fails for queries starting with fail", func(*infer.Env) (infer.Method, error) {
		return testMethod{"test-fail", func(_ context.Context, q data.Query) ([]index.Hit, error) {
			if strings.HasPrefix(q.Text, "fail") {
				return nil, fmt.Errorf("query %d: invalid pattern: no anchor", q.ID)
			}
			return []index.Hit{{ID: uint32(q.ID % 5), Score: 1}, {ID: uint32(q.ID%5 + 1), Score: 0.5}}, nil
		}}, nil
	})
	registry.RegisterMethod("test-fallback", "test: falls back for queries starting with free", func(*infer.Env) (infer.Method, error) {
		return &fallbackMethod{}, nil
	})
	registry.Register("test-kind", func(env *infer.Env, _ *registry.Checkpoint) (infer.Method, error) { return count(env) })
	// test-nested loads the sub-model its config names, as MoR loads its
	// planner and GRASP its stages, and reads the file and the directory
	// it names through env.Path, as GRASP its plans and mFAR its ONNX
	// encoder (each must hold "ok").
	registry.Register("test-nested", func(env *infer.Env, ck *registry.Checkpoint) (infer.Method, error) {
		var cfg struct {
			Sub    string `json:"sub"`
			File   string `json:"file"`
			Dir    string `json:"dir"`
			SubDir string `json:"subdir"`
		}
		if err := ck.DecodeConfig("test-nested", &cfg); err != nil {
			return nil, err
		}
		for _, f := range []struct{ given, inner string }{{cfg.File, ""}, {cfg.Dir, "inner/x"}} {
			if f.given == "" {
				continue
			}
			path, err := env.Path(f.given)
			if err != nil {
				return nil, err
			}
			if b, err := os.ReadFile(filepath.Join(path, f.inner)); err != nil || string(b) != "ok" {
				return nil, fmt.Errorf("%s: %q, %v", f.given, b, err)
			}
		}
		if cfg.SubDir != "" {
			if _, err := registry.Load(env, cfg.SubDir); err != nil {
				return nil, err
			}
		}
		return registry.Load(env, cfg.Sub)
	})
	// A directory holding test-dir.json ("ok") is a model of its own, as an
	// exported LLM reranker or a corag.json directory is.
	registry.RegisterDir("test-dir.json", func(env *infer.Env, dir string) (infer.Method, error) {
		if b, err := os.ReadFile(filepath.Join(dir, "test-dir.json")); err != nil || string(b) != "ok" {
			return nil, fmt.Errorf("%s: %q, %v", dir, b, err)
		}
		return count(env)
	})
}

func compile(t testing.TB, ws *workspace.Workspace, pj string) *pipeline.Runner {
	t.Helper()
	p, err := pipeline.ParsePipeline([]byte(pj), filepath.Join(t.TempDir(), "p.json"))
	if err != nil {
		t.Fatal(err)
	}
	r, err := p.Compile(infer.NewEnv(context.Background(), ws))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestReadScoreRequest(t *testing.T) {
	for _, c := range []struct {
		body string
		code int
		msg  string
		want ScoreRequest
	}{
		{`{"query": "boots", "k": 3, "id": 7}`, 0, "", ScoreRequest{ID: 7, Query: "boots", K: 3}},
		{"{\"query\": \"boots\"}\r\n \t\n", 0, "", ScoreRequest{Query: "boots", K: 10}},
		{`{"query": "x"} {"query": "y"}`, 400, "trailing data after the JSON object", ScoreRequest{}},
		{`{"query": "x"}garbage`, 400, "bad request body: invalid character 'g'", ScoreRequest{}},
		{`{"query": "x"}]`, 400, "bad request body: invalid character ']'", ScoreRequest{}},
		{`{"query": "x"}"` + strings.Repeat("z", 450) + `"`, 400, "trailing data", ScoreRequest{}},
		{`{"query": "x"`, 400, "bad request body: unexpected EOF", ScoreRequest{}},
		{``, 400, "bad request body: EOF", ScoreRequest{}},
		{`null`, 400, `"query" is required`, ScoreRequest{}},
		{`{"query": "x", "k": -1}`, 400, `"k" must be in [1, 50]`, ScoreRequest{}},
		{`{"query": "x", "k": 51}`, 400, `"k" must be in [1, 50]`, ScoreRequest{}},
		{`{"query": "x", "path": "/etc/passwd"}`, 400, `unknown field "path"`, ScoreRequest{}},
		// A key given twice (encoding/json keeps the last one).
		{`{"query": "boots", "k": 3, "query": "hats"}`, 400, `field "query" given twice`, ScoreRequest{}},
		{`{"k": 3, "query": "x", "k": 4}`, 400, `field "k" given twice`, ScoreRequest{}},
		// Exact field names, an explicit k of 0, a blank query (issue 37).
		{`{"QUERY": "x"}`, 400, `unknown field "QUERY"`, ScoreRequest{}},
		{`{"query": "x", "K": 3}`, 400, `unknown field "K"`, ScoreRequest{}},
		{`{"query": "x", "k": 0}`, 400, `"k" must be in [1, 50]`, ScoreRequest{}},
		{`{"query": "x", "k": null}`, 0, "", ScoreRequest{Query: "x", K: 10}},
		{`{"query": "x", "k": "3"}`, 400, `field "k": json: cannot unmarshal string`, ScoreRequest{}},
		{`{"query": " \t\n "}`, 400, `"query" is required`, ScoreRequest{}},
		{`{"query": ""}`, 400, `"query" is required`, ScoreRequest{}},
		// The query's length is bounded (100 bytes here; issue 37 item 1).
		{`{"query": "` + strings.Repeat("a", 100) + `"}`, 0, "", ScoreRequest{Query: strings.Repeat("a", 100), K: 10}},
		{`{"query": "` + strings.Repeat("a", 101) + `"}`, 413, `"query" is 101 bytes, over the server's limit of 100`, ScoreRequest{}},
		{`{"stages": true, "query": "x", "id": 2, "k": 1}`, 0, "", ScoreRequest{ID: 2, Query: "x", K: 1, Stages: true}},
		{`{"query": "` + strings.Repeat("a", 600) + `"}`, 413, "request body over 512 bytes", ScoreRequest{}},
		{`{"query": "x"}` + strings.Repeat(" ", 600), 413, "request body over 512 bytes", ScoreRequest{}},
	} {
		got, err := ReadScoreRequest(strings.NewReader(c.body), 512, 50, 100)
		if c.code == 0 {
			if err != nil || got != c.want {
				t.Errorf("%.40q: %+v, %v; want %+v", c.body, got, err, c.want)
			}
			continue
		}
		var re *RequestError
		if !errors.As(err, &re) || re.Code != c.code || !strings.Contains(re.Msg, c.msg) || len(re.Msg) > 400 {
			t.Errorf("%.40q: %v, want %d %q", c.body, err, c.code, c.msg)
		}
	}
}

func FuzzReadScoreRequest(f *testing.F) {
	for _, s := range []string{`{"query": "boots", "k": 3, "id": 7, "stages": true}`, `{"query": "x"} {}`,
		`{"query": "x"}` + "\n", `{"id": 1e400, "query": "x"}`, `{"query": "\xff\xfe"}`, `[]`, `{"k": 0}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		sr, err := ReadScoreRequest(strings.NewReader(string(b)), 256, 100, 1<<20)
		if err != nil {
			var re *RequestError
			if !errors.As(err, &re) || (re.Code != 400 && re.Code != 413) || len(re.Msg) > 400 {
				t.Fatalf("error %T %v", err, err)
			}
			return
		}
		if len(b) > 256 || strings.TrimSpace(sr.Query) == "" || sr.K < 1 || sr.K > 100 {
			t.Fatalf("accepted %q as %+v", b, sr)
		}
		// What was accepted reads back the same.
		again, _ := json.Marshal(sr)
		sr2, err := ReadScoreRequest(strings.NewReader(string(again)), 1<<20, 100, 1<<20)
		if err != nil || sr2 != sr {
			t.Fatalf("%q: %+v reads back as %+v, %v", b, sr, sr2, err)
		}
	})
}

// startServer runs ListenAndServe on a free port until the returned stop
// is called; stop returns ListenAndServe's error and how long it took.
func startServer(t *testing.T, h http.Handler, cfg Config) (addr string, stop func() (error, time.Duration)) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan string, 1)
	errc := make(chan error, 1)
	go func() { errc <- ListenAndServe(ctx, "127.0.0.1:0", h, cfg, func(a net.Addr) { ready <- a.String() }) }()
	select {
	case addr = <-ready:
	case err := <-errc:
		t.Fatal(err)
	}
	stopped := false
	stop = func() (error, time.Duration) {
		stopped = true
		t0 := time.Now()
		cancel()
		err := <-errc
		return err, time.Since(t0)
	}
	t.Cleanup(func() {
		if !stopped {
			stop()
		}
	})
	return addr, stop
}

// trickle writes b one byte per interval until done is closed or a write
// fails.
func trickle(c net.Conn, b []byte, every time.Duration, done chan struct{}) {
	for _, x := range b {
		select {
		case <-done:
			return
		case <-time.After(every):
		}
		if _, err := c.Write([]byte{x}); err != nil {
			return
		}
	}
}

func TestServeCutsOffSlowClients(t *testing.T) {
	ws := testws.Preset(t, "amazon", 300, 20)
	cfg := Config{ReadTimeout: 600 * time.Millisecond, IdleTimeout: 600 * time.Millisecond, Grace: 20 * time.Second}
	addr, stop := startServer(t, NewHandler(ws, compile(t, ws, `{"format":"strata-pipeline/1","scorers":[{"method":"bm25"}]}`), cfg), cfg)

	// closedWithin dials, sends head at once and then tail one byte every
	// 100 ms, and returns what the server answered and when it closed.
	closedWithin := func(head, tail string) (string, time.Duration) {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		done := make(chan struct{})
		defer close(done)
		t0 := time.Now()
		c.Write([]byte(head))
		go trickle(c, []byte(tail), 100*time.Millisecond, done)
		c.SetReadDeadline(time.Now().Add(10 * time.Second))
		b, _ := io.ReadAll(c)
		return string(b), time.Since(t0)
	}
	// A body trickled a byte every 100 ms (it would take 20 s): a 408 at
	// the read timeout, and the connection closed.
	got, took := closedWithin("POST /v1/score HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n", `{"query": "`+strings.Repeat("a", 187)+`"}`)
	if !strings.HasPrefix(got, "HTTP/1.1 408 ") || !strings.Contains(got, "not received within the read timeout") || took < 500*time.Millisecond || took > 3*time.Second {
		t.Errorf("slow body: after %v got %.200q", took, got)
	}
	// Headers trickled: the connection is closed at the read timeout.
	got, took = closedWithin("POST /v1/score HTTP/1.1\r\n", "Host: x\r\nX-Slow: "+strings.Repeat("b", 200))
	if took < 500*time.Millisecond || took > 3*time.Second || strings.Contains(got, "200 OK") {
		t.Errorf("slow headers: closed after %v with %.200q", took, got)
	}
	// A keep-alive connection that sends nothing after its request is
	// closed at the idle timeout.
	req := "POST /v1/score HTTP/1.1\r\nHost: x\r\nContent-Length: 17\r\n\r\n{\"query\": \"boot\"}"
	got, took = closedWithin(req, "")
	if !strings.HasPrefix(got, "HTTP/1.1 200 ") || took < 500*time.Millisecond || took > 3*time.Second {
		t.Errorf("idle keep-alive: closed after %v with %.200q", took, got)
	}

	// Shutdown while a client trickles its body: done at the read timeout,
	// far within the 20 s grace, and without an error.
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	done := make(chan struct{})
	defer close(done)
	c.Write([]byte("POST /v1/score HTTP/1.1\r\nHost: x\r\nContent-Length: 200\r\n\r\n{"))
	go trickle(c, []byte(strings.Repeat(" ", 199)), 100*time.Millisecond, done)
	time.Sleep(150 * time.Millisecond)
	if err, took := stop(); err != nil || took > 3*time.Second {
		t.Errorf("shutdown with a slow client: %v after %v, want nil within the read timeout", err, took)
	}
}

func TestServeCancelsTimedOutRanking(t *testing.T) {
	ws := testws.Preset(t, "amazon", 300, 20)
	cfg := Config{Timeout: 200 * time.Millisecond, Concurrency: 1}
	block := httptest.NewServer(NewHandler(ws, compile(t, ws, `{"format":"strata-pipeline/1","scorers":[{"method":"test-block"},{"method":"test-count"}],"fusion":{"kind":"rrf"}}`), cfg))
	defer block.Close()
	countCalls.Store(0)
	t0 := time.Now()
	code, b := post(t, block.URL+"/v1/score", `{"query": "boots"}`)
	if code != http.StatusGatewayTimeout || !strings.Contains(string(b), "scoring took longer than 200ms") {
		t.Fatalf("blocked ranking: %d %s", code, b)
	}
	select {
	case err := <-blockErrs:
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("the ranking saw %v, want context.DeadlineExceeded", err)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("the timed-out ranking was not cancelled")
	}
	if took := time.Since(t0); took > 2*time.Second {
		t.Errorf("answered after %v", took)
	}
	// The pipeline stopped: its second stage never ran.
	if n := countCalls.Load(); n != 0 {
		t.Errorf("the stage after the cancelled one ran %d times", n)
	}

	// A ranking that ignores its context keeps its scoring slot until it
	// returns, so --concurrency bounds the work: a second request waits,
	// finds no slot within its time limit and is refused.
	// Its pipeline stops at the next stage: the stage after the one that
	// outlived the deadline never runs.
	sleepFor.Store(int64(700 * time.Millisecond))
	sleep := httptest.NewServer(NewHandler(ws, compile(t, ws, `{"format":"strata-pipeline/1","scorers":[{"method":"test-sleep"},{"method":"test-count"}],"fusion":{"kind":"rrf"}}`), cfg))
	defer sleep.Close()
	if code, b := post(t, sleep.URL+"/v1/score", `{"query": "boots"}`); code != http.StatusGatewayTimeout {
		t.Fatalf("slow ranking: %d %s", code, b)
	}
	if code, b := post(t, sleep.URL+"/v1/score", `{"query": "boots"}`); code != http.StatusServiceUnavailable || !strings.Contains(string(b), "server busy") {
		t.Errorf("second request while the first still works: %d %s, want 503", code, b)
	}
	time.Sleep(time.Duration(sleepFor.Load()))
	if n := countCalls.Load(); n != 0 {
		t.Errorf("the stage after the one that outlived the deadline ran %d times", n)
	}
	sleepFor.Store(int64(10 * time.Millisecond))
	if code, b := post(t, sleep.URL+"/v1/score", `{"query": "boots"}`); code != http.StatusOK || countCalls.Load() != 1 {
		t.Errorf("after the work stopped: %d %s, %d calls of the second stage", code, b, countCalls.Load())
	}
}

// TestServeBoundsWaitingRequests: with one scoring slot and one request
// allowed to wait, a third request is refused at once (503) while the
// first is scored and the second waits; /v1/stats counts the one waiting;
// both others are answered when the first finishes.
func TestServeBoundsWaitingRequests(t *testing.T) {
	ws := testws.Preset(t, "amazon", 300, 20)
	srv := httptest.NewServer(NewHandler(ws, compile(t, ws, `{"format":"strata-pipeline/1","scorers":[{"method":"test-gate"}]}`), Config{Concurrency: 1, MaxWaiting: 1}))
	defer srv.Close()
	codes := make(chan int, 2)
	send := func() { // off the test's goroutine: no t.Fatal here
		resp, err := http.Post(srv.URL+"/v1/score", "application/json", strings.NewReader(`{"query": "boots"}`))
		if err != nil {
			codes <- -1
			return
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		codes <- resp.StatusCode
	}
	go send()
	<-gateIn // the first holds the slot
	go send()
	waiting := func() int64 {
		resp, err := http.Get(srv.URL + "/v1/stats")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var st Stats
		if err := json.NewDecoder(resp.Body).Decode(&st); err != nil {
			t.Fatal(err)
		}
		return st.Waiting
	}
	for i := 0; waiting() != 1; i++ { // the second has come to wait
		if i == 2000 {
			t.Fatal("the second request never came to wait")
		}
		time.Sleep(5 * time.Millisecond)
	}
	if code, b := post(t, srv.URL+"/v1/score", `{"query": "boots"}`); code != http.StatusServiceUnavailable || !strings.Contains(string(b), "--max-waiting") {
		t.Errorf("third request: %d %s, want 503 naming --max-waiting", code, b)
	}
	gateOpen <- struct{}{}
	<-gateIn // the second has the slot now
	gateOpen <- struct{}{}
	for range 2 {
		if code := <-codes; code != http.StatusOK {
			t.Errorf("a request that held or waited for the slot: %d", code)
		}
	}
	if n := waiting(); n != 0 {
		t.Errorf("%d requests still counted as waiting", n)
	}
}

func TestInfoShowsNoHostPaths(t *testing.T) {
	ws := testws.Preset(t, "amazon", 300, 20)
	dir := t.TempDir()
	ck := filepath.Join(dir, "runs", "secret-run", "step-000007")
	cfg, _ := json.Marshal(map[string]any{"model": map[string]string{"planner": filepath.Join(dir, "planner")}, "train": map[string]string{"out": dir}})
	if err := checkpoints.Save(ck, &checkpoints.Checkpoint{Manifest: checkpoints.Manifest{Kind: "test-kind", Config: cfg, Step: 7, Epoch: 1, Seed: 3,
		DataFingerprint: ws.Fingerprint, Metrics: map[string]float64{"val/mrr": 0.25}}}); err != nil {
		t.Fatal(err)
	}
	pj := fmt.Sprintf(`{"format":"strata-pipeline/1","name":"mix","scorers":[{"method":"bm25","weight":2},{"model":%q}],"fusion":{"kind":"rrf"}}`, ck)
	srv := httptest.NewServer(NewHandler(ws, compile(t, ws, pj), Config{}))
	defer srv.Close()
	resp, err := http.Get(srv.URL + "/v1/info")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	for _, leak := range []string{dir, "secret-run", "step-000007", "planner", os.TempDir()} {
		if strings.Contains(string(b), leak) {
			t.Errorf("/v1/info shows %q: %s", leak, b)
		}
	}
	var info Info
	if err := json.Unmarshal(b, &info); err != nil {
		t.Fatal(err)
	}
	want := []StageInfo{{Name: "bm25", Method: "bm25", Weight: 2},
		{Name: "test-count", Kind: "test-kind", Step: 7, Epoch: 1, Seed: 3, DataFingerprint: ws.Fingerprint, Metrics: map[string]float64{"val/mrr": 0.25}}}
	if info.Name != "mix" || info.Fusion == nil || info.Fusion.Kind != "rrf" || len(info.Scorers) != 2 ||
		fmt.Sprint(info.Scorers) != fmt.Sprint(want) {
		t.Errorf("info %+v, want scorers %+v", info, want)
	}
}

// TestOpenBundleKeepsModelsInside: a bundle whose pipeline names a model
// outside the bundle (an absolute path, a "..") is refused.
func TestOpenBundleKeepsModelsInside(t *testing.T) {
	dir := t.TempDir()
	outside := filepath.Join(dir, "outside-model")
	for _, c := range []struct {
		model string
		ok    bool
	}{
		{"models/0", true},
		{"./models/../models/0", true},
		{outside, false},
		{"../outside-model", false},
		{"models/../../x", false},
	} {
		tp := filepath.Join(dir, "b.tar")
		f, _ := os.Create(tp)
		tw := tar.NewWriter(f)
		for name, body := range map[string]string{
			"bundle.json":   `{"format":"strata-bundle/1","data_fingerprint":"sha256:x"}`,
			"pipeline.json": fmt.Sprintf(`{"format":"strata-pipeline/1","candidates":{"method":"bm25"},"scorers":[{"method":"bm25"},{"model":%q}],"fusion":{"kind":"rrf"}}`, c.model),
		} {
			tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(body)), Typeflag: tar.TypeReg})
			tw.Write([]byte(body))
		}
		tw.Close()
		f.Close()
		_, _, err := OpenBundle(tp, t.TempDir(), nil, true)
		if c.ok != (err == nil) || (!c.ok && (!errors.Is(err, ErrBundlePath) || !strings.Contains(err.Error(), fmt.Sprintf("names %q, outside the bundle", c.model)))) {
			t.Errorf("model %q: %v", c.model, err)
		}
	}
}

// TestBundleLoadsOnlyItself: a bundled model whose config names a
// sub-model on the host (an absolute path, as a MoR model names its
// planner) gets a copy of it in the bundle, and the bundle opens and ranks
// with the host's copy gone; a bundle that names a host sub-model without
// packing it is refused when opened.
func TestBundleLoadsOnlyItself(t *testing.T) {
	ws := testws.Preset(t, "amazon", 300, 20)
	dir := t.TempDir()
	sub := filepath.Join(dir, "host", "sub-model")
	save := func(path, kind string, cfg string) {
		if err := checkpoints.Save(path, &checkpoints.Checkpoint{Manifest: checkpoints.Manifest{Kind: kind, Config: []byte(cfg), DataFingerprint: ws.Fingerprint},
			Model: []checkpoints.Tensor{{Name: "w", Shape: []int{1}, Data: []float32{1}}}}); err != nil {
			t.Fatal(err)
		}
	}
	save(sub, "test-kind", `{"model":{}}`)
	file, tree := filepath.Join(dir, "host", "plans.jsonl"), filepath.Join(dir, "host", "encoder")
	os.MkdirAll(filepath.Join(tree, "inner"), 0o755)
	os.WriteFile(file, []byte("ok"), 0o644)
	os.WriteFile(filepath.Join(tree, "inner", "x"), []byte("ok"), 0o644)
	subdir := filepath.Join(dir, "host", "reranker")
	os.MkdirAll(subdir, 0o755)
	os.WriteFile(filepath.Join(subdir, "test-dir.json"), []byte("ok"), 0o644)
	nested := filepath.Join(dir, "nested")
	save(nested, "test-nested", fmt.Sprintf(`{"model":{"sub":%q,"file":%q,"dir":%q,"subdir":%q}}`, sub, file, tree, subdir))
	pf := filepath.Join(dir, "p.json")
	os.WriteFile(pf, []byte(`{"format":"strata-pipeline/1","scorers":[{"model":"nested"}]}`), 0o644)
	if r, cleanup, err := Open(infer.NewEnv(context.Background(), ws), pf); err != nil || r.StageNames()[0] != "test-count" {
		t.Fatalf("the pipeline file: %v", err)
	} else {
		cleanup()
	}
	tp := filepath.Join(dir, "b.tar")
	p := writeBundleOf(t, ws, pf, tp)
	// The same bytes again.
	tp2 := filepath.Join(dir, "b2.tar")
	if err := WriteBundle(infer.NewEnv(context.Background(), ws), tp2, p); err != nil {
		t.Fatal(err)
	}
	if b1, b2 := mustRead(t, tp), mustRead(t, tp2); !bytes.Equal(b1, b2) {
		t.Error("two bundles of the same pipeline differ")
	}
	// Opening a bundle leaves the caller's environment as it was (eval
	// loads further pipelines and models with it).
	caller := infer.NewEnv(context.Background(), ws)
	if _, cleanup, err := Open(caller, tp); err != nil || caller.Root != "" || caller.Models != nil {
		t.Errorf("the caller's environment after opening a bundle: root %q, models %v (%v)", caller.Root, caller.Models, err)
		cleanup()
	} else {
		cleanup()
	}
	if _, err := registry.Load(caller, nested); err != nil {
		t.Errorf("a host model after a bundle: %v", err)
	}
	// The bundle holds the sub-model, the file and the directory: it opens
	// and ranks without the host's.
	if err := os.RemoveAll(filepath.Join(dir, "host")); err != nil {
		t.Fatal(err)
	}
	r, cleanup, err := Open(infer.NewEnv(context.Background(), ws), tp)
	if err != nil {
		cleanup()
		t.Fatalf("bundle with its sub-model packed: %v", err)
	}
	if hits, err := r.Rank(context.Background(), data.Query{ID: -1, Text: "x"}); err != nil || len(hits) == 0 {
		t.Errorf("rank through the bundle: %d hits, %v", len(hits), err)
	}
	cleanup()
	// A bundle whose bundle.json does not place the sub-model (an older
	// bundle, or a crafted one) still cannot reach the host.
	save(sub, "test-kind", `{"model":{}}`)
	old := filepath.Join(dir, "old.tar")
	rewriteEntry(t, tp, old, "bundle.json", fmt.Sprintf(`{"format":"strata-bundle/1","data_fingerprint":%q}`, ws.Fingerprint))
	_, cleanup, err = Open(infer.NewEnv(context.Background(), ws), old)
	defer cleanup()
	if !errors.Is(err, registry.ErrOutsideRoot) || !strings.Contains(err.Error(), `pipeline.json:4: key "scorers[0]": model `+file+": "+registry.ErrOutsideRoot.Error()) {
		t.Errorf("bundle naming %s: %v", file, err)
	}
	// Nor can bundle.json place a sub-model outside the bundle.
	evil := filepath.Join(dir, "evil.tar")
	rewriteEntry(t, tp, evil, "bundle.json", fmt.Sprintf(`{"format":"strata-bundle/1","data_fingerprint":%q,"models":{%q:"../x"}}`, ws.Fingerprint, sub))
	if _, _, err := OpenBundle(evil, t.TempDir(), ws, false); !errors.Is(err, ErrBundlePath) {
		t.Errorf("sub-model placed at ../x: %v", err)
	}
}

// rewriteEntry copies the tar at from to to with the entry name's body
// replaced.
func rewriteEntry(t *testing.T, from, to, name, body string) {
	t.Helper()
	rewriteTar(t, from, to, func(n string, b []byte) [][]byte {
		if n == name {
			return [][]byte{[]byte(body)}
		}
		return [][]byte{b}
	})
}

// rewriteTar copies the tar at from to to, writing for each entry the
// bodies edit returns under its header (none drops it, two repeat it),
// then the extra entries, regular files named by their keys (in order of
// name).
func rewriteTar(t *testing.T, from, to string, edit func(name string, body []byte) [][]byte, extra ...map[string][]byte) {
	t.Helper()
	f, err := os.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	g, err := os.Create(to)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	tr, tw := tar.NewReader(f), tar.NewWriter(g)
	for {
		hdr, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(tr)
		for _, body := range edit(hdr.Name, b) {
			hdr.Size = int64(len(body))
			tw.WriteHeader(hdr)
			tw.Write(body)
		}
	}
	for _, m := range extra {
		for _, name := range slices.Sorted(maps.Keys(m)) {
			tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(m[name])), Typeflag: tar.TypeReg})
			tw.Write(m[name])
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// bm25Bundle writes a bundle of a BM25 pipeline over ws and returns its path.
func bm25Bundle(t *testing.T, ws *workspace.Workspace, dir string) string {
	t.Helper()
	pf := filepath.Join(dir, "p.json")
	if err := os.WriteFile(pf, []byte(`{"format":"strata-pipeline/1","scorers":[{"method":"bm25"}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	tp := filepath.Join(dir, "b.tar")
	writeBundleOf(t, ws, pf, tp)
	return tp
}

// writeBundleOf bundles the pipeline file pf over ws into tp and returns
// the pipeline.
func writeBundleOf(t *testing.T, ws *workspace.Workspace, pf, tp string) *pipeline.Pipeline {
	t.Helper()
	p, err := pipeline.ReadPipeline(pf)
	if err != nil {
		t.Fatal(err)
	}
	if err := WriteBundle(infer.NewEnv(context.Background(), ws), tp, p); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestBundleDuplicateAndTruncated: a bundle holding an entry twice is
// refused (the last one won), and a truncated one names the bundle, the
// entry and the likely cause (issue 37 item 6).
func TestBundleDuplicateAndTruncated(t *testing.T) {
	ws := testws.Preset(t, "amazon", 300, 20)
	dir := t.TempDir()
	tp := bm25Bundle(t, ws, dir)
	b := mustRead(t, tp)

	dp := filepath.Join(dir, "dup.tar")
	rewriteTar(t, tp, dp, func(name string, body []byte) [][]byte {
		if name == pipeline.PipelineFile {
			return [][]byte{body, []byte(`{"format":"strata-pipeline/1","scorers":[{"method":"dense"}]}`)}
		}
		return [][]byte{body}
	})
	if _, _, err := OpenBundle(dp, t.TempDir(), ws, false); err == nil || !strings.Contains(err.Error(), `entry "pipeline.json" appears twice`) {
		t.Errorf("two pipeline.json entries: %v", err)
	}

	// Cut inside the first entry's body (bundle.json, 512 bytes of
	// header, then its body), and after it: at a block boundary Go's
	// tar reader sees a clean end, so the missing pipeline is named.
	cut := filepath.Join(dir, "cut.tar")
	os.WriteFile(cut, b[:520], 0o644)
	_, _, err := OpenBundle(cut, t.TempDir(), ws, false)
	if err == nil || !strings.Contains(err.Error(), cut) || !strings.Contains(err.Error(), `entry "bundle.json"`) || !strings.Contains(err.Error(), "truncated?") || !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("bundle cut inside an entry: %v", err)
	}
	os.WriteFile(cut, b[:1024], 0o644)
	if _, _, err := OpenBundle(cut, t.TempDir(), ws, false); err == nil || !strings.Contains(err.Error(), cut+": the bundle has no pipeline.json (truncated?)") {
		t.Errorf("bundle cut after its first entry: %v", err)
	}
}

// TestSweepBundles: the unpacked bundle of a process that is gone (its
// lock free and over a minute old) is removed; one in use, or just made,
// is kept (issue 37 item 6: every killed process left its bundle in /tmp).
func TestSweepBundles(t *testing.T) {
	tmp := t.TempDir()
	mk := func(name string, age time.Duration) string {
		d := filepath.Join(tmp, bundleDirPrefix+name)
		os.MkdirAll(d, 0o755)
		os.WriteFile(filepath.Join(d, "model"), []byte("x"), 0o644)
		os.WriteFile(d+".lock", []byte("1\n"), 0o644)
		old := time.Now().Add(-age)
		os.Chtimes(d+".lock", old, old)
		return d
	}
	gone, fresh, used := mk("gone", time.Hour), mk("fresh", 0), mk("used", time.Hour)
	unlock, err := flock.Lock(used+".lock", used)
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	old := time.Now().Add(-time.Hour)
	os.Chtimes(used+".lock", old, old)
	legacy := filepath.Join(tmp, bundleDirPrefix+"legacy") // no lock file
	os.MkdirAll(legacy, 0o755)

	sweepBundles(tmp, time.Minute)
	for d, want := range map[string]bool{gone: false, gone + ".lock": false, fresh: true, used: true, legacy: true} {
		if _, err := os.Stat(d); (err == nil) != want {
			t.Errorf("%s: exists %v, want %v", filepath.Base(d), err == nil, want)
		}
	}
}

// TestRequestLog: one JSON line per request with its status, latency and,
// for a score request, its id and error (issue 37 item 7: the server wrote
// no request log).
func TestRequestLog(t *testing.T) {
	ws := testws.Preset(t, "amazon", 300, 20)
	var buf bytes.Buffer
	var mu sync.Mutex
	lw := writerFunc(func(p []byte) (int, error) { mu.Lock(); defer mu.Unlock(); return buf.Write(p) })
	cfg := Config{Log: slog.New(slog.NewJSONHandler(lw, nil))}
	srv := httptest.NewServer(NewHandler(ws, compile(t, ws, `{"format":"strata-pipeline/1","scorers":[{"method":"bm25"}]}`), cfg))
	defer srv.Close()
	for _, body := range []string{`{"query": "boots", "id": 7, "k": 3}`, `{"query": "boots", "k": 0}`} {
		resp, err := http.Post(srv.URL+"/v1/score", "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
	resp, err := http.Get(srv.URL + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	mu.Lock()
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	mu.Unlock()
	if len(lines) != 3 {
		t.Fatalf("%d log lines, want 3:\n%s", len(lines), buf.String())
	}
	type line struct {
		Level, Msg, Method, Path, Error string
		Status, Bytes                   int
		ID                              *int
		Fallback                        *bool
		Latency                         *float64 `json:"latency_ms"`
	}
	var got []line
	for _, l := range lines {
		var x line
		if err := json.Unmarshal([]byte(l), &x); err != nil {
			t.Fatalf("%q: %v", l, err)
		}
		got = append(got, x)
	}
	if g := got[0]; g.Msg != "request" || g.Level != "INFO" || g.Method != "POST" || g.Path != "/v1/score" || g.Status != 200 || g.ID == nil || *g.ID != 7 || g.Fallback == nil || *g.Fallback || g.Latency == nil || *g.Latency < 0 || g.Bytes == 0 || g.Error != "" {
		t.Errorf("score line %+v", g)
	}
	if g := got[1]; g.Status != 400 || !strings.Contains(g.Error, `"k" must be in [1, 1000]`) || g.ID != nil {
		t.Errorf("bad request line %+v", g)
	}
	if g := got[2]; g.Method != "GET" || g.Path != "/healthz" || g.Status != 200 || g.ID != nil {
		t.Errorf("health line %+v", g)
	}
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

// TestAsyncWriter: lines arrive in order; a full queue drops and counts
// instead of blocking.
func TestAsyncWriter(t *testing.T) {
	var buf bytes.Buffer
	a := NewAsyncWriter(&buf, 16)
	for i := range 10 {
		fmt.Fprintf(a, "%d\n", i)
	}
	a.Close()
	if buf.String() != "0\n1\n2\n3\n4\n5\n6\n7\n8\n9\n" || a.Dropped() != 0 {
		t.Errorf("%q, dropped %d", buf.String(), a.Dropped())
	}
	block := make(chan struct{})
	b := NewAsyncWriter(writerFunc(func(p []byte) (int, error) { <-block; return len(p), nil }), 2)
	for range 10 {
		b.Write([]byte("x\n")) // the writer holds one, the queue two
	}
	if d := b.Dropped(); d < 7 || d > 8 {
		t.Errorf("dropped %d of 10 with a queue of 2, want 7 or 8", d)
	}
	close(block)
	b.Close()
}

// TestBundleUnpacksOnlyWhatItLists: bundle.json lists every entry with
// its size, and an entry it does not list (a 1 MB junk file), one of
// another size, or a bundle larger than the unpack directory's free space
// is refused before anything is unpacked (issue 37 item 6: a 200 MB junk
// entry was unpacked). A bundle written before the list still opens.
func TestBundleUnpacksOnlyWhatItLists(t *testing.T) {
	ws := testws.Preset(t, "amazon", 300, 20)
	dir := t.TempDir()
	tp := bm25Bundle(t, ws, dir)
	var meta BundleMeta
	var total int64
	rewriteTar(t, tp, filepath.Join(dir, "copy.tar"), func(name string, body []byte) [][]byte {
		total += int64(len(body))
		if name == "bundle.json" {
			json.Unmarshal(body, &meta)
		}
		return [][]byte{body}
	})
	if len(meta.Entries) != 1 || meta.Entries[pipeline.PipelineFile] == 0 {
		t.Fatalf("bundle.json lists %v, want the pipeline with its size", meta.Entries)
	}
	empty := func(d string) bool { es, _ := os.ReadDir(d); return len(es) == 0 }

	junk := filepath.Join(dir, "junk.tar")
	rewriteTar(t, tp, junk, func(name string, body []byte) [][]byte { return [][]byte{body} },
		map[string][]byte{"models/0/junk.bin": make([]byte, 1<<20)})
	out := t.TempDir()
	if _, _, err := OpenBundle(junk, out, ws, false); err == nil || !strings.Contains(err.Error(), `entry "models/0/junk.bin" (1048576 bytes) is not one bundle.json lists`) || !empty(out) {
		t.Errorf("unlisted entry: %v (unpacked anything: %v)", err, !empty(out))
	}

	grown := filepath.Join(dir, "grown.tar")
	rewriteTar(t, tp, grown, func(name string, body []byte) [][]byte {
		if name == pipeline.PipelineFile {
			return [][]byte{append(body, ' ')}
		}
		return [][]byte{body}
	})
	if _, _, err := OpenBundle(grown, t.TempDir(), ws, false); err == nil || !strings.Contains(err.Error(), fmt.Sprintf(`entry "pipeline.json" holds %d bytes, bundle.json lists %d`, meta.Entries[pipeline.PipelineFile]+1, meta.Entries[pipeline.PipelineFile])) {
		t.Errorf("entry of another size: %v", err)
	}

	defer func(f func(string) (uint64, bool)) { bundleFreeBytes = f }(bundleFreeBytes)
	bundleFreeBytes = func(string) (uint64, bool) { return uint64(total - 1), true }
	out = t.TempDir()
	if _, _, err := OpenBundle(tp, out, ws, false); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("unpacking it needs %d bytes and %s has %d free", total, out, total-1)) || !empty(out) {
		t.Errorf("bundle larger than the free space: %v", err)
	}
	bundleFreeBytes = func(string) (uint64, bool) { return uint64(total), true }
	if _, _, err := OpenBundle(tp, t.TempDir(), ws, false); err != nil {
		t.Errorf("bundle that just fits: %v", err)
	}

	legacy := filepath.Join(dir, "legacy.tar")
	rewriteTar(t, tp, legacy, func(name string, body []byte) [][]byte {
		if name == "bundle.json" {
			m := meta
			m.Entries = nil
			b, _ := json.Marshal(m)
			return [][]byte{b}
		}
		return [][]byte{body}
	})
	if _, _, err := OpenBundle(legacy, t.TempDir(), ws, false); err != nil {
		t.Errorf("bundle without a list of entries: %v", err)
	}
}
