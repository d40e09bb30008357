package serve

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strata-retrieval/strata/internal/testws"
)

// writeQueries writes a JSONL query file with ids 0..n-1; the ids in fail
// get a text test-fail cannot answer.
func writeQueries(t *testing.T, path string, n int, fail ...int) {
	t.Helper()
	var b strings.Builder
	for i := 0; i < n; i++ {
		text := "ok"
		for _, f := range fail {
			if f == i {
				text = "fail here"
			}
		}
		fmt.Fprintf(&b, "{\"id\": %d, \"query\": %q}\n", i, text)
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestScoreFileGoesOnPastUnanswerableQueries(t *testing.T) {
	ws := testws.Preset(t, "amazon", 300, 20)
	r := compile(t, ws, `{"format":"strata-pipeline/1","name":"f","scorers":[{"method":"test-fail"}]}`)
	dir := t.TempDir()
	qf := filepath.Join(dir, "q.jsonl")
	writeQueries(t, qf, 10, 2, 7)
	var seen []string
	onErr := func(id int, msg string) { seen = append(seen, fmt.Sprintf("%d %s", id, msg)) }

	out := filepath.Join(dir, "out.jsonl")
	rep, err := ScoreFile(t.Context(), ws, r, qf, out, ScoreOptions{TopK: 5, Chunk: 3, OnError: onErr})
	if err != nil {
		t.Fatal(err)
	}
	wantEx := []string{"query 2: invalid pattern: no anchor", "query 7: invalid pattern: no anchor"}
	if rep.Queries != 10 || rep.Failed != 2 || fmt.Sprint(rep.Examples) != fmt.Sprint(wantEx) {
		t.Errorf("report %+v, want 10 queries, 2 failed, %q", rep, wantEx)
	}
	if want := []string{"2 invalid pattern: no anchor", "7 invalid pattern: no anchor"}; fmt.Sprint(seen) != fmt.Sprint(want) {
		t.Errorf("OnError saw %q, want %q", seen, want)
	}
	b, _ := os.ReadFile(out)
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	if len(lines) != 10 {
		t.Fatalf("%d lines, want 10: %s", len(lines), b)
	}
	if lines[2] != `{"id":2,"ranking":[],"error":"invalid pattern: no anchor"}` || lines[7] != `{"id":7,"ranking":[],"error":"invalid pattern: no anchor"}` {
		t.Errorf("failed queries written as %s and %s", lines[2], lines[7])
	}
	if !strings.HasPrefix(lines[3], `{"id":3,"ranking":[{"node":3,"score":1,`) {
		t.Errorf("query 3: %s", lines[3])
	}
	rk, err := ReadRankings(out)
	if err != nil || len(rk) != 10 || len(rk[2]) != 0 || len(rk[3]) != 2 {
		t.Errorf("ReadRankings: %d rankings, %v", len(rk), err)
	}

	// TREC: no line for a failed query; a run stopped after one chunk and
	// restarted reports the failures of both parts.
	trec := filepath.Join(dir, "out.trec")
	if _, err := ScoreFile(t.Context(), ws, r, qf, trec, ScoreOptions{Format: "trec", Chunk: 3, StopAfter: 1}); err == nil {
		t.Fatal("the test hook did not stop the run")
	}
	rep, err = ScoreFile(t.Context(), ws, r, qf, trec, ScoreOptions{Format: "trec", Chunk: 3})
	if err != nil || rep.Queries != 10 || rep.Failed != 2 || fmt.Sprint(rep.Examples) != fmt.Sprint(wantEx) {
		t.Fatalf("restarted TREC run: %+v, %v", rep, err)
	}
	b, _ = os.ReadFile(trec)
	lines = strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	if len(lines) != 16 {
		t.Errorf("%d TREC lines, want 8 queries x 2", len(lines))
	}
	for _, l := range lines {
		if strings.HasPrefix(l, "2 ") || strings.HasPrefix(l, "7 ") {
			t.Errorf("a failed query has a TREC line: %q", l)
		}
	}
}

func TestScoreFileEdgeCases(t *testing.T) {
	ws := testws.Preset(t, "amazon", 300, 20)
	r := compile(t, ws, `{"format":"strata-pipeline/1","scorers":[{"method":"test-fail"}]}`)
	dir := t.TempDir()

	// Zero queries: an empty, complete output (no sidecar left).
	for _, name := range []string{"empty.jsonl", "header.csv", "blank.txt"} {
		qf := filepath.Join(dir, name)
		body := map[string]string{"empty.jsonl": "", "header.csv": "id,query\n", "blank.txt": ""}[name]
		os.WriteFile(qf, []byte(body), 0o644)
		for _, format := range []string{"jsonl", "trec"} {
			out := filepath.Join(dir, name+"."+format)
			rep, err := ScoreFile(t.Context(), ws, r, qf, out, ScoreOptions{Format: format})
			if err != nil || rep.Queries != 0 || rep.Failed != 0 {
				t.Errorf("%s -> %s: %+v, %v", name, format, rep, err)
			}
			if st, err := os.Stat(out); err != nil || st.Size() != 0 {
				t.Errorf("%s -> %s: output %v, %v", name, format, st, err)
			}
			if _, err := os.Stat(out + ".progress"); !os.IsNotExist(err) {
				t.Errorf("%s -> %s: progress file left", name, format)
			}
		}
	}

	// --out naming the query file, by any name, is refused and the query
	// file is left as it was.
	qf := filepath.Join(dir, "q.jsonl")
	writeQueries(t, qf, 4)
	before, _ := os.ReadFile(qf)
	link := filepath.Join(dir, "link.jsonl")
	if err := os.Symlink(qf, link); err != nil {
		t.Fatal(err)
	}
	hard := filepath.Join(dir, "hard.jsonl")
	if err := os.Link(qf, hard); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	for _, out := range []string{qf, link, hard, "q.jsonl", "./sub/../q.jsonl"} {
		os.MkdirAll(filepath.Join(dir, "sub"), 0o755)
		_, err := ScoreFile(t.Context(), ws, r, qf, out, ScoreOptions{Force: true})
		if !errors.Is(err, ErrSameFile) || !strings.Contains(err.Error(), "refusing to write over it") {
			t.Errorf("--out %s: %v, want ErrSameFile", out, err)
		}
	}
	if after, _ := os.ReadFile(qf); string(after) != string(before) {
		t.Errorf("the query file changed: %q", after)
	}
	if _, err := os.Stat(qf + ".progress"); !os.IsNotExist(err) {
		t.Error("a progress file was written")
	}

	// A negative k is an error (0 means the default, 100).
	if _, err := ScoreFile(t.Context(), ws, r, qf, filepath.Join(dir, "neg.jsonl"), ScoreOptions{TopK: -1}); err == nil || !strings.Contains(err.Error(), "k = -1") {
		t.Errorf("k -1: %v", err)
	}
}
