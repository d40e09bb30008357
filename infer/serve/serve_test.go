package serve

import (
	"archive/tar"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/graphops/plan"
	"github.com/strata-retrieval/strata/infer"
	_ "github.com/strata-retrieval/strata/infer/all"
	"github.com/strata-retrieval/strata/infer/pipeline"
	"github.com/strata-retrieval/strata/internal/atomicfile"
	"github.com/strata-retrieval/strata/internal/testws"
)

func newTestServer(t testing.TB, preset string, nodes int, cfg Config) (*httptest.Server, *pipeline.Runner, []data.Query) {
	ws := testws.Preset(t, preset, nodes, 200)
	p, err := pipeline.ParsePipeline([]byte(`{"format":"strata-pipeline/1","name":"bm25","scorers":[{"method":"bm25"}]}`), "p.json")
	if err != nil {
		t.Fatal(err)
	}
	r, err := p.Compile(infer.NewEnv(context.Background(), ws))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(NewHandler(ws, r, cfg))
	return srv, r, ws.SKB.QA.Queries
}

func post(t testing.TB, url, body string) (int, []byte) {
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, b
}

func TestServe(t *testing.T) {
	srv, r, qs := newTestServer(t, "amazon", 1000, Config{MaxBody: 512, MaxK: 50})
	defer srv.Close()
	resp, err := http.Get(srv.URL + "/healthz")
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("healthz: %v %v", resp, err)
	}
	resp.Body.Close()
	var info Info
	resp, _ = http.Get(srv.URL + "/v1/info")
	json.NewDecoder(resp.Body).Decode(&info)
	resp.Body.Close()
	if info.Name != "bm25" || !strings.HasPrefix(info.DataFingerprint, "sha256:") {
		t.Errorf("info %+v", info)
	}
	q := qs[3]
	code, b := post(t, srv.URL+"/v1/score", fmt.Sprintf(`{"id": %d, "query": %q, "k": 5}`, q.ID, q.Text))
	if code != 200 {
		t.Fatalf("score: %d %s", code, b)
	}
	var sr ScoreResponse
	json.Unmarshal(b, &sr)
	want, _, _ := r.RankStages(t.Context(), q)
	if sr.ID != q.ID || len(sr.Ranking) != 5 {
		t.Fatalf("response %s", b)
	}
	for i := range sr.Ranking {
		if sr.Ranking[i].Node != want[i].ID || sr.Ranking[i].Score != want[i].Score {
			t.Errorf("rank %d: %+v, want %+v", i+1, sr.Ranking[i], want[i])
		}
	}
	for _, c := range []struct {
		body string
		code int
	}{
		{`{"query": ""}`, 400},
		{`{"query": "x", "k": 51}`, 400},
		{`{"query": "x", "path": "/etc/passwd"}`, 400},
		{`not json`, 400},
		{`{"query": "x"} trailing`, 400},
		{`{"query": "x"}{"query": "y"}`, 400},
		{`{"query": "` + strings.Repeat("a", 600) + `"}`, 413},
	} {
		if code, b := post(t, srv.URL+"/v1/score", c.body); code != c.code {
			t.Errorf("%.40s: %d %s, want %d", c.body, code, b, c.code)
		}
	}
	if resp, _ := http.Get(srv.URL + "/v1/score"); resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("GET /v1/score: %d", resp.StatusCode)
	}
}

// BenchmarkServeLoad is the HTTP load test: over loopback only, a bounded
// number of requests at 1, 8 and 32 concurrent clients, reporting
// throughput and p50/p99 latency. It stops by itself.
func BenchmarkServeLoad(b *testing.B) {
	srv, _, qs := newTestServer(b, "amazon", 5000, Config{})
	defer srv.Close()
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}, Timeout: 30 * time.Second}
	const requests = 2000
	for _, clients := range []int{1, 8, 32} {
		b.Run(fmt.Sprintf("clients=%d", clients), func(b *testing.B) {
			lat := make([]time.Duration, requests)
			var next int
			var mu sync.Mutex
			var wg sync.WaitGroup
			start := time.Now()
			for c := 0; c < clients; c++ {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for {
						mu.Lock()
						i := next
						next++
						mu.Unlock()
						if i >= requests {
							return
						}
						q := qs[i%len(qs)]
						body, _ := json.Marshal(ScoreRequest{ID: q.ID, Query: q.Text, K: 10})
						t0 := time.Now()
						resp, err := client.Post(srv.URL+"/v1/score", "application/json", bytes.NewReader(body))
						if err != nil {
							b.Error(err)
							return
						}
						io.Copy(io.Discard, resp.Body)
						resp.Body.Close()
						if resp.StatusCode != 200 {
							b.Errorf("status %d", resp.StatusCode)
							return
						}
						lat[i] = time.Since(t0)
					}
				}()
			}
			wg.Wait()
			el := time.Since(start)
			sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
			b.ReportMetric(float64(requests)/el.Seconds(), "req/s")
			b.ReportMetric(float64(lat[requests/2].Microseconds())/1000, "p50-ms")
			b.ReportMetric(float64(lat[requests*99/100].Microseconds())/1000, "p99-ms")
		})
	}
}

func TestOpenBundleRefusesUnsafePaths(t *testing.T) {
	dir := t.TempDir()
	tp := dir + "/evil.tar"
	f, _ := os.Create(tp)
	tw := tar.NewWriter(f)
	tw.WriteHeader(&tar.Header{Name: "../escape.txt", Mode: 0o644, Size: 1, Typeflag: tar.TypeReg})
	tw.Write([]byte("x"))
	tw.Close()
	f.Close()
	out := t.TempDir()
	if _, _, err := OpenBundle(tp, out, nil, true); err == nil || !strings.Contains(err.Error(), "refusing entry") {
		t.Errorf("unsafe entry: %v", err)
	}
	if _, err := os.Stat(dir + "/escape.txt"); err == nil {
		t.Error("the entry escaped the extraction directory")
	}
}

// A request that reuses the id of a workspace question with other words
// takes no stored plan (the workspace's, or a plans file's keyed by the
// workspace's ids): plan-exec falls back and says so, where before it
// answered the other question's plan. The question's own words, with its
// id, take its plan as eval does.
func TestServeTakesNoOtherQuestionsPlan(t *testing.T) {
	ws := testws.Preset(t, "amazon", 400, 60)
	plans := filepath.Join(t.TempDir(), "plans.jsonl")
	if err := atomicfile.WriteFile(plans, func(w io.Writer) error { return data.WriteJSONL(w, ws.PlanRecords()) }); err != nil {
		t.Fatal(err)
	}
	// A question whose plan plan-exec follows (not a fallback).
	var q data.Query
	for _, c := range ws.SKB.QA.Queries {
		if p, ok := ws.Plans[c.ID]; ok && len(p.Paths) > 0 {
			if res, err := plan.Execute(ws.Graph, ws.Names(), p); err == nil && len(res.Reach) > 0 {
				q = c
				break
			}
		}
	}
	if q.Text == "" {
		t.Fatal("no question with an executable plan")
	}
	other := "a gift for my sister who likes the outdoors"
	for _, pj := range []string{
		`{"format":"strata-pipeline/1","name":"p","scorers":[{"method":"plan-exec"}]}`,
		fmt.Sprintf(`{"format":"strata-pipeline/1","name":"p","scorers":[{"method":"plan-exec","plans":%q}]}`, plans),
	} {
		p, err := pipeline.ParsePipeline([]byte(pj), "p.json")
		if err != nil {
			t.Fatal(err)
		}
		r, err := p.Compile(infer.NewEnv(t.Context(), ws))
		if err != nil {
			t.Fatal(err)
		}
		srv := httptest.NewServer(NewHandler(ws, r, Config{}))
		for _, c := range []struct {
			id       int
			text     string
			fallback bool
		}{
			{q.ID, q.Text, false},
			{q.ID, "  " + q.Text + " ", false},
			{q.ID, other, true},
		} {
			code, b := post(t, srv.URL+"/v1/score", fmt.Sprintf(`{"id": %d, "query": %q, "k": 5}`, c.id, c.text))
			var sr ScoreResponse
			if code != 200 || json.Unmarshal(b, &sr) != nil {
				t.Fatalf("score: %d %s", code, b)
			}
			if sr.Fallback != c.fallback {
				t.Errorf("%s: id %d, %q: fallback %v, want %v", pj, c.id, c.text, sr.Fallback, c.fallback)
			}
		}
		srv.Close()
	}
	// The workspace's lookup itself: a plan stored under an id no
	// question has is taken by any text.
	ws.Plans[999999] = ws.Plans[q.ID]
	if _, ok := ws.StoredPlan(data.Query{ID: 999999, Text: other}); !ok {
		t.Error("a plan under an id no question has was not taken")
	}
	if _, ok := ws.StoredPlan(data.Query{ID: q.ID, Text: other}); ok {
		t.Error("another question's plan was taken")
	}
}
