package serve

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/infer"
	"github.com/strata-retrieval/strata/infer/pipeline"
	"github.com/strata-retrieval/strata/internal/atomicfile"
	"github.com/strata-retrieval/strata/internal/flock"
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

// A query over --max-query bytes is written as failed, with why, and the
// run goes on; the default is serve's 16 KiB; a run restarted with
// another bound is another run.
func TestScoreBoundsQueryLength(t *testing.T) {
	ws := testws.Preset(t, "amazon", 300, 20)
	r := compile(t, ws, `{"format":"strata-pipeline/1","name":"b","scorers":[{"method":"bm25"}]}`)
	dir := t.TempDir()
	qf := filepath.Join(dir, "q.jsonl")
	short := ws.SKB.QA.Queries[0].Text
	long := strings.Repeat(short+" ", 100)[:100] // 100 bytes (ASCII)
	huge := strings.Repeat(short+" ", 17000)[:17000]
	os.WriteFile(qf, []byte(fmt.Sprintf("{\"id\": 1, \"query\": %q}\n{\"id\": 2, \"query\": %q}\n{\"id\": 3, \"query\": %q}\n", short, long, huge)), 0o644)
	read := func(out string) []string {
		b, _ := os.ReadFile(out)
		return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	}
	out := filepath.Join(dir, "out.jsonl")
	rep, err := ScoreFile(t.Context(), ws, r, qf, out, ScoreOptions{TopK: 3, MaxQuery: 99})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"query 2: a query of 100 bytes, over the 99 of --max-query: not scored", "query 3: a query of 17000 bytes, over the 99 of --max-query: not scored"}
	if rep.Queries != 3 || rep.Failed != 2 || fmt.Sprint(rep.Examples) != fmt.Sprint(want) {
		t.Errorf("report %+v, want 3 queries, 2 failed: %q", rep, want)
	}
	lines := read(out)
	if len(lines) != 3 || !strings.HasPrefix(lines[0], `{"id":1,"ranking":[{`) || lines[1] != `{"id":2,"ranking":[],"error":"a query of 100 bytes, over the 99 of --max-query: not scored"}` {
		t.Errorf("lines %q", lines)
	}
	// The default: 100 bytes scored, 17,000 not.
	def := filepath.Join(dir, "def.jsonl")
	if rep, err = ScoreFile(t.Context(), ws, r, qf, def, ScoreOptions{TopK: 3}); err != nil || rep.Failed != 1 || !strings.Contains(rep.Examples[0], "query 3: a query of 17000 bytes, over the 16384 of --max-query") {
		t.Errorf("default bound: %+v, %v", rep, err)
	}
	if lines := read(def); len(lines) != 3 || !strings.HasPrefix(lines[1], `{"id":2,"ranking":[{`) {
		t.Errorf("default bound: lines %q", lines)
	}
	// A run stopped and restarted with another bound is refused.
	part := filepath.Join(dir, "part.jsonl")
	if _, err := ScoreFile(t.Context(), ws, r, qf, part, ScoreOptions{TopK: 3, Chunk: 1, StopAfter: 1, MaxQuery: 99}); err == nil {
		t.Fatal("the test hook did not stop the run")
	}
	if _, err := ScoreFile(t.Context(), ws, r, qf, part, ScoreOptions{TopK: 3, Chunk: 1}); err == nil || !strings.Contains(err.Error(), "other arguments") {
		t.Errorf("restarted with another bound: %v", err)
	}
	if _, err := ScoreFile(t.Context(), ws, r, qf, part, ScoreOptions{TopK: 3, MaxQuery: -1}); err == nil || !strings.Contains(err.Error(), "max query -1") {
		t.Errorf("a negative bound: %v", err)
	}
}

// TestScoreRefusesBlankQueries: a query of no text but spaces is written
// as failed and counted, with its id, as serve refuses it; the others are
// scored.
func TestScoreRefusesBlankQueries(t *testing.T) {
	ws := testws.Preset(t, "amazon", 300, 20)
	r := compile(t, ws, `{"format":"strata-pipeline/1","name":"b","scorers":[{"method":"bm25"}]}`)
	dir := t.TempDir()
	qf, out := filepath.Join(dir, "q.jsonl"), filepath.Join(dir, "out.jsonl")
	os.WriteFile(qf, []byte(fmt.Sprintf("{\"id\": 1, \"query\": %q}\n{\"id\": 2, \"query\": \" \\t \"}\n{\"id\": 3, \"query\": \"\"}\n", ws.SKB.QA.Queries[0].Text)), 0o644)
	rep, err := ScoreFile(t.Context(), ws, r, qf, out, ScoreOptions{TopK: 3})
	want := []string{"query 2: a blank query: not scored", "query 3: a blank query: not scored"}
	if err != nil || rep.Queries != 3 || rep.Failed != 2 || fmt.Sprint(rep.Examples) != fmt.Sprint(want) {
		t.Fatalf("report %+v, %v; want 3 queries, 2 failed: %q", rep, err, want)
	}
	b, _ := os.ReadFile(out)
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[0], `{"id":1,"ranking":[{`) || lines[2] != `{"id":3,"ranking":[],"error":"a blank query: not scored"}` {
		t.Errorf("lines %q", lines)
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

	// The format comes from the name: .ndjson is JSON lines (id 7 stays
	// 7); a .tsv is refused, naming the file, not read as text (its
	// header was a query, every id one off).
	ndj := filepath.Join(dir, "q.ndjson")
	os.WriteFile(ndj, []byte(`{"id": 7, "query": "boots"}`+"\n"), 0o644)
	if qr, err := OpenQueries(ndj); err != nil {
		t.Errorf("q.ndjson: %v", err)
	} else {
		if q, err := qr.Next(); err != nil || q.ID != 7 || q.Text != "boots" {
			t.Errorf("q.ndjson: %+v, %v; want id 7, \"boots\"", q, err)
		}
		qr.Close()
	}
	tsv := filepath.Join(dir, "q.tsv")
	os.WriteFile(tsv, []byte("id\tquery\n7\tboots\n"), 0o644)
	if _, err := OpenQueries(tsv); err == nil || !strings.Contains(err.Error(), tsv+": ") || !strings.Contains(err.Error(), `not ".tsv"`) {
		t.Errorf("q.tsv: %v, want an error naming it and its extension", err)
	}

	// A byte-order mark opening a file is skipped (before a quoted CSV
	// header it was a bare quote; before JSON, an invalid character), and
	// a line over 16 MiB names its line and the bound.
	first := func(name, body string) (data.Query, error) {
		f := filepath.Join(dir, name)
		os.WriteFile(f, []byte(body), 0o644)
		qr, err := OpenQueries(f)
		if err != nil {
			return data.Query{}, err
		}
		defer qr.Close()
		return qr.Next()
	}
	for name, body := range map[string]string{"bom.csv": "\ufeff\"id\",\"query\"\n7,boots\n", "bom.jsonl": "\ufeff{\"id\": 7, \"query\": \"boots\"}\n", "bom.txt": "\ufeffboots\n"} {
		want := 7
		if name == "bom.txt" {
			want = 0
		}
		if q, err := first(name, body); err != nil || q.ID != want || q.Text != "boots" {
			t.Errorf("%s: %+v, %v; want id %d, \"boots\"", name, q, err, want)
		}
	}
	if _, err := first("long.jsonl", "{\"id\": 1, \"query\": \"boots\"}\n"+strings.Repeat("x", 17<<20)+"\n"); err != nil {
		t.Errorf("long.jsonl's first line: %v", err)
	}
	long, _ := OpenQueries(filepath.Join(dir, "long.jsonl"))
	long.Next()
	if _, err := long.Next(); err == nil || !strings.Contains(err.Error(), "long.jsonl:2: a line over 16 MiB") {
		t.Errorf("long.jsonl's second line: %v", err)
	}
	long.Close()

	// An id given twice stops the run at its second line, naming both:
	// eval refuses a run that ranks a query twice.
	for name, body := range map[string]string{
		"twice.csv":   "id,query\n7,boots\n8,hats\n7,socks\n",
		"twice.jsonl": "{\"id\": 7, \"query\": \"boots\"}\n{\"id\": 8, \"query\": \"hats\"}\n\n{\"id\": 7, \"query\": \"socks\"}\n",
	} {
		f := filepath.Join(dir, name)
		os.WriteFile(f, []byte(body), 0o644)
		qr, err := OpenQueries(f)
		if err != nil {
			t.Fatal(err)
		}
		var ids []int
		for {
			q, err := qr.Next()
			if err != nil {
				want := map[string]string{"twice.csv": "twice.csv:4: query id 7 again (first on line 2)", "twice.jsonl": "twice.jsonl:4: query id 7 again (first on line 1)"}[name]
				if !strings.Contains(err.Error(), want) {
					t.Errorf("%s: %v, want %q", name, err, want)
				}
				break
			}
			ids = append(ids, q.ID)
		}
		if !slices.Equal(ids, []int{7, 8}) {
			t.Errorf("%s: read %v before the error, want [7 8]", name, ids)
		}
		qr.Close()
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

	// An output in a missing directory, or naming a directory, is refused
	// before anything runs, saying so (issue 37: the lock file was
	// reported missing; a directory failed after the whole job).
	for out, want := range map[string]string{
		filepath.Join(dir, "nodir", "out.jsonl"): "does not exist (create it first)",
		filepath.Join(dir, "sub"):                "is a directory",
		filepath.Join(qf, "out.jsonl"):           "is not a directory",
	} {
		_, err := ScoreFile(t.Context(), ws, r, qf, out, ScoreOptions{Force: true})
		if err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), ".lock") {
			t.Errorf("--out %s: %v, want an error saying %q", out, err, want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "sub.progress")); !os.IsNotExist(err) {
		t.Error("a progress file was written beside the directory")
	}

	// A negative k is an error (0 means the default, 100).
	if _, err := ScoreFile(t.Context(), ws, r, qf, filepath.Join(dir, "neg.jsonl"), ScoreOptions{TopK: -1}); err == nil || !strings.Contains(err.Error(), "k = -1") {
		t.Errorf("k -1: %v", err)
	}
}

// A restarted run continues only the same run over the same output
// (issue 25 rows 7, 8, 12): a model or plans file that changed since, an
// output cut below or changed within what the progress file recorded are
// refused; --force over a finished output keeps it until the new one is
// whole.
func TestScoreResumesOnlyTheSameRun(t *testing.T) {
	ws := testws.Preset(t, "amazon", 300, 40)
	dir := t.TempDir()
	plans := filepath.Join(dir, "plans.jsonl")
	writePlans := func(recs []data.PlanRecord) {
		if err := atomicfile.WriteFile(plans, func(w io.Writer) error { return data.WriteJSONL(w, recs) }); err != nil {
			t.Fatal(err)
		}
	}
	recs := ws.PlanRecords()
	writePlans(recs)
	pj := fmt.Sprintf(`{"format":"strata-pipeline/1","name":"p","scorers":[{"method":"plan-exec","plans":%q}]}`, plans)
	qf := filepath.Join(dir, "q.jsonl")
	var qb strings.Builder
	for _, q := range ws.SKB.QA.Queries[:30] {
		fmt.Fprintf(&qb, "{\"id\": %d, \"query\": %q}\n", q.ID, q.Text)
	}
	os.WriteFile(qf, []byte(qb.String()), 0o644)
	pfile := filepath.Join(dir, "p.json")
	load := func() *pipeline.Runner {
		p, err := pipeline.ParsePipeline([]byte(pj), pfile)
		if err != nil {
			t.Fatal(err)
		}
		r, err := p.Compile(infer.NewEnv(t.Context(), ws))
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	score := func(out string, o ScoreOptions) error {
		o.TopK, o.Chunk = 5, 4
		_, err := ScoreFile(t.Context(), ws, load(), qf, out, o)
		return err
	}
	whole := filepath.Join(dir, "whole.jsonl")
	if err := score(whole, ScoreOptions{}); err != nil {
		t.Fatal(err)
	}
	want, _ := os.ReadFile(whole)
	if r := load(); fmt.Sprint(r.Loaded()) != fmt.Sprint([]string{plans}) {
		t.Fatalf("the pipeline loaded %v, want the plans file", r.Loaded())
	}

	// The plans file changes after two chunks: the run cannot continue;
	// back as it was, it continues to the uninterrupted run's bytes.
	out := filepath.Join(dir, "out.jsonl")
	if err := score(out, ScoreOptions{StopAfter: 2}); err == nil {
		t.Fatal("the test hook did not stop the run")
	}
	writePlans(recs[1:])
	if err := score(out, ScoreOptions{}); err == nil || !strings.Contains(err.Error(), "holds an unfinished run with other arguments") {
		t.Errorf("resume after the plans changed: %v", err)
	}
	writePlans(recs)
	if err := score(out, ScoreOptions{}); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(out); string(got) != string(want) {
		t.Error("the resumed run differs from the uninterrupted one")
	}

	// An output cut below, or changed within, what was recorded.
	for _, c := range []struct {
		name string
		harm func(path string, n int64)
		want string
	}{
		{"cut", func(p string, n int64) { os.Truncate(p, n-3) }, "fewer than the"},
		{"changed", func(p string, n int64) {
			f, _ := os.OpenFile(p, os.O_WRONLY, 0)
			f.WriteAt([]byte("X"), n/2)
			f.Close()
		}, "changed since they were written"},
	} {
		p := filepath.Join(dir, c.name+".jsonl")
		score(p, ScoreOptions{StopAfter: 2})
		st, _ := os.Stat(p)
		c.harm(p, st.Size())
		if err := score(p, ScoreOptions{}); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s output: %v, want %q", c.name, err, c.want)
		}
		if err := score(p, ScoreOptions{Force: true}); err != nil {
			t.Errorf("%s output, --force: %v", c.name, err)
		} else if got, _ := os.ReadFile(p); string(got) != string(want) {
			t.Errorf("%s output, --force: not the uninterrupted run's bytes", c.name)
		}
	}

	// --force over a finished output: a run that stops keeps the old file;
	// the same command again finishes the new one and replaces it.
	old := []byte("an earlier, finished run\n")
	os.WriteFile(out, old, 0o644)
	if err := score(out, ScoreOptions{Force: true, StopAfter: 2}); err == nil {
		t.Fatal("the test hook did not stop the run")
	}
	if got, _ := os.ReadFile(out); string(got) != string(old) {
		t.Errorf("a stopped --force run changed the old output: %q", got)
	}
	if err := score(out, ScoreOptions{Force: true}); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(out); string(got) != string(want) {
		t.Error("the finished --force run is not the uninterrupted run's bytes")
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".out.jsonl*")); len(left) > 0 {
		t.Errorf("left behind: %v", left)
	}
	// One writer at a time: while another holds the output, a second run
	// fails at once and changes nothing.
	unlock, err := flock.Lock(out+".lock", out)
	if err != nil {
		t.Fatal(err)
	}
	if err := score(out, ScoreOptions{Force: true}); !errors.Is(err, flock.ErrLocked) {
		t.Errorf("a second writer: %v", err)
	}
	unlock()
	if got, _ := os.ReadFile(out); string(got) != string(want) {
		t.Error("a refused second writer changed the output")
	}
}

// TestScoreAndServeSayWhichQueriesFellBack: score marks each query a
// stage answered by its fallback ("fallback": true in JSONL) and counts
// them, across a stop and restart; serve marks each response and counts
// them in /v1/stats; the runner's total is the same.
func TestScoreAndServeSayWhichQueriesFellBack(t *testing.T) {
	ws := testws.Preset(t, "amazon", 300, 20)
	r := compile(t, ws, `{"format":"strata-pipeline/1","name":"f","scorers":[{"method":"test-fallback"}]}`)
	dir := t.TempDir()
	qf := filepath.Join(dir, "q.jsonl")
	var b strings.Builder
	for i := range 10 {
		text := "which film"
		if i == 3 || i == 5 || i == 8 {
			text = "free text describing a film"
		}
		fmt.Fprintf(&b, "{\"id\": %d, \"query\": %q}\n", i, text)
	}
	if err := os.WriteFile(qf, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out.jsonl")
	if _, err := ScoreFile(t.Context(), ws, r, qf, out, ScoreOptions{TopK: 1, Chunk: 4, StopAfter: 1}); err == nil {
		t.Fatal("the test hook did not stop the run")
	}
	rep, err := ScoreFile(t.Context(), ws, r, qf, out, ScoreOptions{TopK: 1, Chunk: 4})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Queries != 10 || rep.Fallbacks != 3 {
		t.Errorf("report %+v: want 10 queries, 3 fallbacks (one before the stop, two after)", rep)
	}
	got, _ := os.ReadFile(out)
	for i, l := range strings.Split(strings.TrimSuffix(string(got), "\n"), "\n") {
		if want := i == 3 || i == 5 || i == 8; strings.Contains(l, `"fallback":true`) != want {
			t.Errorf("line %d %s: fallback marked %v, want %v", i, l, !want, want)
		}
	}
	if n := r.TakeFallbacks(); n != 3 {
		t.Errorf("runner's total %d, want 3", n)
	}

	srv := httptest.NewServer(NewHandler(ws, r, Config{}))
	defer srv.Close()
	for _, c := range []struct {
		q    string
		want bool
	}{{"which film", false}, {"free text", true}, {"free words", true}} {
		code, body := post(t, srv.URL+"/v1/score", fmt.Sprintf(`{"query": %q}`, c.q))
		var resp ScoreResponse
		if code != 200 || json.Unmarshal(body, &resp) != nil || resp.Fallback != c.want {
			t.Errorf("%q: %d %s, want fallback %v", c.q, code, body, c.want)
		}
	}
	resp, err := http.Get(srv.URL + "/v1/stats")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var st Stats
	if err := json.NewDecoder(resp.Body).Decode(&st); err != nil || st != (Stats{Scored: 3, Fallbacks: 2}) {
		t.Errorf("stats %+v, %v: want 3 scored, 2 fallbacks", st, err)
	}
}

// TestScoreFileFailedRunDoesNotBlockRerun: a run that scored nothing (a
// malformed query file; a kill between creating the output and recording
// the run) leaves an empty output that its fixed rerun replaces without
// --force; a non-empty output is still protected (issue 37 item 4).
func TestScoreFileFailedRunDoesNotBlockRerun(t *testing.T) {
	ws := testws.Preset(t, "amazon", 300, 20)
	r := compile(t, ws, `{"format":"strata-pipeline/1","name":"b","scorers":[{"method":"bm25"}]}`)
	dir := t.TempDir()
	qf := filepath.Join(dir, "q.jsonl")
	out := filepath.Join(dir, "out.jsonl")
	if err := os.WriteFile(qf, []byte("{\"id\": 0, \"query\": \"boots\"}\n{\"id\": 1, \"query\": \n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ScoreFile(t.Context(), ws, r, qf, out, ScoreOptions{}); err == nil || !strings.Contains(err.Error(), "q.jsonl:2") {
		t.Fatalf("malformed line 2: %v", err)
	}
	if fi, err := os.Stat(out); err != nil || fi.Size() != 0 {
		t.Fatalf("after the failed run: %v, %v", fi, err)
	}
	writeQueries(t, qf, 4)
	if rep, err := ScoreFile(t.Context(), ws, r, qf, out, ScoreOptions{}); err != nil || rep.Queries != 4 {
		t.Fatalf("rerun after fixing the query file: %+v, %v", rep, err)
	}
	want, _ := os.ReadFile(out)

	// Killed between creating the output and recording the run: an empty
	// output and no progress file.
	out2 := filepath.Join(dir, "out2.jsonl")
	if err := os.WriteFile(out2, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ScoreFile(t.Context(), ws, r, qf, out2, ScoreOptions{}); err != nil {
		t.Fatalf("over an empty output: %v", err)
	}
	if got, _ := os.ReadFile(out2); string(got) != string(want) || len(want) == 0 {
		t.Errorf("output differs from the other run's (%d and %d bytes)", len(got), len(want))
	}
	// A finished, non-empty output still needs --force.
	if _, err := ScoreFile(t.Context(), ws, r, qf, out2, ScoreOptions{}); err == nil || !strings.Contains(err.Error(), "exists (use --force") {
		t.Errorf("over a finished output: %v", err)
	}
}

// TestScoreFileResumesFromBundle: a run scored from a bundle and stopped
// continues when rerun, although each run unpacks the bundle into a new
// directory, and ends with the bytes of an uninterrupted run (issue 37
// item 2: the unpack path was part of the run's arguments).
func TestScoreFileResumesFromBundle(t *testing.T) {
	ws := testws.Preset(t, "amazon", 300, 20)
	dir := t.TempDir()
	tp := bm25Bundle(t, ws, dir)
	qf := filepath.Join(dir, "q.jsonl")
	writeQueries(t, qf, 10)
	score := func(out string, o ScoreOptions) error {
		r, cleanup, err := Open(infer.NewEnv(context.Background(), ws), tp)
		if err != nil {
			t.Fatal(err)
		}
		defer cleanup()
		_, err = ScoreFile(t.Context(), ws, r, qf, out, o)
		return err
	}
	whole := filepath.Join(dir, "whole.jsonl")
	if err := score(whole, ScoreOptions{Chunk: 3}); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out.jsonl")
	if err := score(out, ScoreOptions{Chunk: 3, StopAfter: 1}); err == nil {
		t.Fatal("the test hook did not stop the run")
	}
	if err := score(out, ScoreOptions{Chunk: 3}); err != nil {
		t.Fatalf("rerun from the bundle: %v", err)
	}
	if a, b := mustRead(t, whole), mustRead(t, out); !bytes.Equal(a, b) {
		t.Errorf("resumed output (%d bytes) differs from the uninterrupted one (%d)", len(b), len(a))
	}
}

// TestHashContentsFollowsBest: a run's best is a link to a step; the
// content hash of what a pipeline loaded reads the step it names, so
// pointing best at another step changes it (issue 37 item 3: a resumed run
// went on with the other model, the link's own walk hashing nothing).
func TestHashContentsFollowsBest(t *testing.T) {
	dir := t.TempDir()
	for step, content := range map[string]string{"step-1": "one", "step-2": "two"} {
		os.MkdirAll(filepath.Join(dir, step), 0o755)
		if err := os.WriteFile(filepath.Join(dir, step, "model.safetensors"), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	best := filepath.Join(dir, "best")
	hash := func() string {
		h := sha256.New()
		if err := hashContents(h, []string{best}); err != nil {
			t.Fatal(err)
		}
		return hex.EncodeToString(h.Sum(nil))
	}
	if err := os.Symlink("step-1", best); err != nil {
		t.Fatal(err)
	}
	h1 := hash()
	// By hand: the walk of step-1 writes "|model.safetensors|one".
	want := sha256.Sum256([]byte("|model.safetensors|one"))
	if h1 != hex.EncodeToString(want[:]) {
		t.Errorf("hash of best -> step-1 = %s, want sha256(%q)", h1, "|model.safetensors|one")
	}
	os.Remove(best)
	if err := os.Symlink("step-2", best); err != nil {
		t.Fatal(err)
	}
	if hash() == h1 {
		t.Error("best pointed at another step, the same hash")
	}
}

// TestScoreForceOnFullDisk: --force over a finished output that runs out
// of disk removes its unfinished copy (which kept the disk full) and its
// progress file, and leaves the old output as it was (issue 37 item 6).
func TestScoreForceOnFullDisk(t *testing.T) {
	ws := testws.Preset(t, "amazon", 300, 20)
	r := compile(t, ws, `{"format":"strata-pipeline/1","name":"b","scorers":[{"method":"bm25"}]}`)
	dir := t.TempDir()
	qf := filepath.Join(dir, "q.jsonl")
	writeQueries(t, qf, 6)
	out := filepath.Join(dir, "out.jsonl")
	if _, err := ScoreFile(t.Context(), ws, r, qf, out, ScoreOptions{}); err != nil {
		t.Fatal(err)
	}
	before := mustRead(t, out)
	full := func(f *os.File, b []byte) (int, error) {
		n, _ := f.Write(b[:len(b)/2])
		return n, &os.PathError{Op: "write", Path: f.Name(), Err: syscall.ENOSPC}
	}
	_, err := ScoreFile(t.Context(), ws, r, qf, out, ScoreOptions{Force: true, TopK: 7, Chunk: 2, write: full})
	if !errors.Is(err, syscall.ENOSPC) || !strings.Contains(err.Error(), "was removed to free the space") {
		t.Fatalf("full disk: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, ".out.jsonl.strata-new")); !os.IsNotExist(err) {
		t.Error("the unfinished copy is still there")
	}
	if _, err := os.Stat(out + ProgressSuffix); !os.IsNotExist(err) {
		t.Error("the progress file is still there")
	}
	if !bytes.Equal(mustRead(t, out), before) {
		t.Error("the old output changed")
	}
}
