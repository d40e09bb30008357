package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/strata-retrieval/strata/graphops/mine"
	_ "github.com/strata-retrieval/strata/infer/registry/registrytest" // test-unanswerable
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"
	"github.com/google/go-cmp/cmp"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/data/synth"
	"github.com/strata-retrieval/strata/graphops/workspace"
	"github.com/strata-retrieval/strata/infer"
	"github.com/strata-retrieval/strata/infer/pipeline"
	"github.com/strata-retrieval/strata/infer/serve"
	"github.com/strata-retrieval/strata/models"
	"github.com/strata-retrieval/strata/train"
)

// The pipelines run on Prism, in this process (loopback workers).
func TestMain(m *testing.M) {
	code := ptest.MainRetWithDefault(m, "prism")
	closeShared()
	if fix.dir != "" {
		os.RemoveAll(fix.dir)
	}
	os.Exit(code)
}

// fixture is a saved workspace of a generated SKB (questions and answers,
// no plans) and a bundle of a trained mFAR fused with a method that fails
// for some queries.
type fixture struct {
	dir, ws, bundle string
}

var (
	fixOnce sync.Once
	fix     fixture
	fixErr  error
)

func getFixture(t *testing.T) fixture {
	t.Helper()
	fixOnce.Do(func() { fix, fixErr = buildFixture() })
	if fixErr != nil {
		t.Fatal(fixErr)
	}
	return fix
}

func buildFixture() (fixture, error) {
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "strata-beam-test-*")
	if err != nil {
		return fixture{}, err
	}
	f := fixture{dir: dir, ws: filepath.Join(dir, "ws"), bundle: filepath.Join(dir, "model.tar")}
	res, err := synth.Generate(synth.Config{Preset: "prime", Nodes: 500, Queries: 120, Seed: 6})
	if err != nil {
		return f, err
	}
	built, err := workspace.Build(ctx, res.SKB, nil, workspace.Config{}, nil)
	if err != nil {
		return f, err
	}
	err = built.Save(f.ws)
	built.Close()
	if err != nil {
		return f, err
	}
	ws, err := workspace.Load(f.ws)
	if err != nil {
		return f, err
	}
	defer ws.Close()
	enc, err := models.NewEncoder(models.EncoderConfig{Buckets: 2048, EmbDim: 16, OutDim: 16}, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		return f, err
	}
	run := filepath.Join(dir, "run")
	_, _, err = train.MFAR(ctx, ws, nil, train.MFAROptions{Train: train.Config{Epochs: 1, BatchSize: 16, LR: 1e-2, Seed: 3},
		Run: train.Options{RunDir: run, Fingerprint: ws.Fingerprint}, Tune: enc})
	if err != nil {
		return f, err
	}
	pf := filepath.Join(run, "fused.json")
	err = os.WriteFile(pf, []byte(`{"format": "strata-pipeline/1", "name": "mfar fused", "fusion": {"kind": "rrf"},
		"scorers": [{"model": "best"}, {"method": "test-unanswerable"}]}`), 0o644)
	if err != nil {
		return f, err
	}
	p, err := pipeline.ReadPipeline(pf)
	if err != nil {
		return f, err
	}
	return f, serve.WriteBundle(infer.NewEnv(ctx, ws), f.bundle, p)
}

// strataScore is what strata score WS --pipeline BUNDLE --queries FILE
// writes (the same calls: serve.Open, serve.ScoreFile).
func strataScore(t *testing.T, f fixture, queries, format string, k int) []byte {
	t.Helper()
	ws, err := workspace.Load(f.ws)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	r, cleanup, err := serve.Open(infer.NewEnv(t.Context(), ws), f.bundle)
	defer cleanup()
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "strata."+format)
	if _, err := serve.ScoreFile(t.Context(), ws, r, queries, out, serve.ScoreOptions{TopK: k, Format: format}); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// writeQueries writes the val split's questions, with two queries no
// method answers among them, as CSV, JSON lines and text (one query a
// line, ids from 0, a blank line skipping one), and returns the files and
// the number of queries.
func writeQueries(t *testing.T, f fixture, dir string) (csvPath, jsonlPath, textPath string, n int) {
	t.Helper()
	ws, err := workspace.Load(f.ws)
	if err != nil {
		t.Fatal(err)
	}
	qs, err := ws.SKB.QA.Split(data.SplitVal)
	ws.Close()
	if err != nil {
		t.Fatal(err)
	}
	qs = slices.Clone(qs)
	qs = slices.Insert(qs, 3, data.Query{ID: 9001, Text: "a drug from nowhere"})
	qs = append(qs, data.Query{ID: 9002, Text: "nowhere, \"quoted\"\nover two lines"})
	var cb bytes.Buffer
	cw := csv.NewWriter(&cb)
	cw.Write([]string{"id", "query"})
	var jb, tb bytes.Buffer
	for i, q := range qs {
		if i == 5 {
			tb.WriteString("\n")
		}
		tb.WriteString(strings.ReplaceAll(q.Text, "\n", " ") + "\n")
		cw.Write([]string{fmt.Sprint(q.ID), q.Text})
		line, _ := json.Marshal(map[string]any{"id": q.ID, "query": q.Text})
		jb.Write(append(line, '\n'))
	}
	cw.Flush()
	csvPath, jsonlPath = filepath.Join(dir, "q.csv"), filepath.Join(dir, "q.jsonl")
	if err := os.WriteFile(csvPath, cb.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(jsonlPath, jb.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	textPath = filepath.Join(dir, "q.txt")
	if err := os.WriteFile(textPath, tb.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return csvPath, jsonlPath, textPath, len(qs)
}

func runMain(args ...string) (string, string, int) {
	var out, errw bytes.Buffer
	code := Main(args, &out, &errw)
	return out.String(), errw.String(), code
}

// readShards reads PREFIX-SSSSS-of-NNNNN.ext for every shard of n, in
// order, and checks nothing else matches the prefix.
func readShards(t *testing.T, prefix, ext string, n int) [][]byte {
	t.Helper()
	all, err := filepath.Glob(prefix + "-*")
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	var out [][]byte
	for i := range n {
		name := shardName(prefix, i, n, ext)
		want = append(want, name)
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, b)
	}
	if diff := cmp.Diff(want, all); diff != "" {
		t.Errorf("files of %s (-want +got):\n%s", prefix, diff)
	}
	return out
}

func sortedLines(b []byte) []string {
	lines := strings.SplitAfter(string(b), "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	slices.Sort(lines)
	return lines
}

// TestScoreEqualsStrata scores the same queries as strata score, in
// shards, from CSV and JSONL files, in both formats: the shards hold
// exactly strata's lines (as sets, and concatenated in order, byte for
// byte), failed queries are written as strata writes them and counted.
func TestScoreEqualsStrata(t *testing.T) {
	f := getFixture(t)
	dir := t.TempDir()
	csvPath, jsonlPath, textPath, n := writeQueries(t, f, dir)
	for _, c := range []struct {
		name, queries, format string
		k, shards             int
		wantShards            int
		failed                []int // queries not answered
	}{
		{"jsonl from jsonl, 3 shards", jsonlPath, "jsonl", 5, 3, 3, []int{9001, 9002}},
		{"trec from csv, 4 shards", csvPath, "trec", 7, 4, 4, []int{9001, 9002}},
		{"jsonl from text, shards by size", textPath, "jsonl", 3, 0, 1, []int{3, n}},
		{"trec from jsonl, more shards than queries", jsonlPath, "trec", 2, n + 3, n + 3, []int{9001, 9002}},
	} {
		t.Run(c.name, func(t *testing.T) {
			want := strataScore(t, f, c.queries, c.format, c.k)
			prefix := filepath.Join(dir, strings.ReplaceAll(c.name, " ", "_"), "run")
			stdout, stderr, code := runMain("score", "--workspace", f.ws, "--bundle", f.bundle, "--queries", c.queries,
				"--output", prefix, "--format", c.format, "-k", fmt.Sprint(c.k), "--shards", fmt.Sprint(c.shards), "--batch", "4")
			if code != 0 {
				t.Fatalf("strata-beam score: %d %s", code, stderr)
			}
			shards := readShards(t, prefix, c.format, c.wantShards)
			got := bytes.Join(shards, nil)
			if diff := cmp.Diff(sortedLines(want), sortedLines(got)); diff != "" {
				t.Errorf("line sets differ from strata score's (-strata +beam):\n%s", diff)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("the shards in order are not strata score's file")
			}
			empty := 0
			for _, s := range shards {
				if len(s) == 0 {
					empty++
				}
			}
			// Contiguous ranges: with no more shards than queries every
			// shard has a query (and a JSONL line); beyond, some are empty.
			if c.wantShards <= n && c.format == "jsonl" && empty > 0 || c.wantShards > n && empty < c.wantShards-n {
				t.Errorf("%d of %d shards are empty", empty, c.wantShards)
			}
			for _, id := range c.failed {
				failLine := fmt.Sprintf(`{"id":%d,"ranking":[],"error":"invalid pattern: no anchor"}`+"\n", id)
				if c.format == "jsonl" && !bytes.Contains(got, []byte(failLine)) {
					t.Errorf("no failure record %q", failLine)
				}
				if c.format == "trec" && (bytes.HasPrefix(got, fmt.Appendf(nil, "%d ", id)) || bytes.Contains(got, fmt.Appendf(nil, "\n%d ", id))) {
					t.Errorf("the failed query %d has TREC lines", id)
				}
			}
			wantOut := fmt.Sprintf("scored %d queries with mfar fused into %s", n, shardName(prefix, 0, c.wantShards, c.format))
			if c.wantShards > 1 {
				wantOut += fmt.Sprintf(" ... %s (%d shards)", shardName(prefix, c.wantShards-1, c.wantShards, c.format), c.wantShards)
			}
			wantOut += "; 2 could not be answered"
			if !strings.HasPrefix(stdout, wantOut) {
				t.Errorf("stdout %q\nwant    %q...", stdout, wantOut)
			}
		})
	}
}

// TestScoreRefuses checks the launcher's refusals: a bundle that cannot
// be opened (before any pipeline runs, naming the bundle and why), shards
// that would overwrite the query file, existing shards without --force.
// A scoreFn whose bundle cannot be opened fails in Setup with the reason.
func TestScoreRefuses(t *testing.T) {
	f := getFixture(t)
	dir := t.TempDir()
	_, jsonlPath, _, _ := writeQueries(t, f, dir)
	badCSV := filepath.Join(dir, "bad.csv")
	os.WriteFile(badCSV, []byte("id,text\n1,boots\n"), 0o644)
	junk := filepath.Join(dir, "junk.tar")
	os.WriteFile(junk, []byte("not a tar file"), 0o644)
	missing := filepath.Join(dir, "missing.tar")
	// The query file named as a shard of the prefix.
	shardQueries := filepath.Join(dir, "q-00000-of-00001.jsonl")
	b, _ := os.ReadFile(jsonlPath)
	os.WriteFile(shardQueries, b, 0o644)
	existing := filepath.Join(dir, "old")
	os.WriteFile(shardName(existing, 1, 2, "jsonl"), []byte("old\n"), 0o644)

	args := func(bundle, queries, output string, more ...string) []string {
		return append([]string{"score", "--workspace", f.ws, "--bundle", bundle, "--queries", queries, "--output", output}, more...)
	}
	for _, c := range []struct {
		name string
		args []string
		msg  string
	}{
		{"junk bundle", args(junk, jsonlPath, filepath.Join(dir, "a")), "--bundle " + junk + ": " + junk + ": the file ends inside an entry (truncated?): unexpected EOF"},
		{"missing bundle", args(missing, jsonlPath, filepath.Join(dir, "a")), "--bundle " + missing + ": open " + missing + ": no such file or directory"},
		{"not a tar", args(f.ws, jsonlPath, filepath.Join(dir, "a")), "--bundle " + f.ws + ": want a model bundle (.tar)"},
		{"output is the queries", args(f.bundle, shardQueries, filepath.Join(dir, "q"), "--shards", "1", "--force"), "--output " + filepath.Join(dir, "q") + ": the output is the query file " + shardQueries},
		{"existing shards", args(f.bundle, jsonlPath, existing), shardName(existing, 1, 2, "jsonl") + " exists (use --force"},
		{"k", args(f.bundle, jsonlPath, filepath.Join(dir, "a"), "-k", "0"), "-k 0: want at least 1 result per query"},
		{"csv header", args(f.bundle, badCSV, filepath.Join(dir, "a")), badCSV + `:1: header lacks column "query"`},
		{"missing queries", args(f.bundle, badCSV+"2", filepath.Join(dir, "a")), "--queries " + badCSV + "2: open " + badCSV + "2: no such file"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, stderr, code := runMain(c.args...)
			if code != 1 || !strings.Contains(stderr, c.msg) {
				t.Errorf("exit %d, stderr %q\nwant exit 1 and %q", code, stderr, c.msg)
			}
		})
	}
	if after, _ := os.ReadFile(shardQueries); !bytes.Equal(after, b) {
		t.Errorf("the query file changed")
	}
	if old, _ := os.ReadFile(shardName(existing, 1, 2, "jsonl")); string(old) != "old\n" {
		t.Errorf("an existing shard was replaced without --force")
	}
	if m, _ := filepath.Glob(filepath.Join(dir, "a-*")); len(m) > 0 {
		t.Errorf("a refused run wrote %v", m)
	}

	fn := &scoreFn{Source: bundleSource{Workspace: f.ws, Bundle: junk}}
	if err := fn.Setup(); err == nil || !strings.Contains(err.Error(), "--bundle "+junk+": ") {
		t.Errorf("Setup with a junk bundle: %v", err)
	}
}

// TestMinePlansEqualsStrata mines plans on Prism and compares the file
// with what strata mine-plans writes (mine.Plans, data.WriteJSONL), for
// the default flags and for structure-only mining without universal steps.
func TestMinePlansEqualsStrata(t *testing.T) {
	f := getFixture(t)
	dir := t.TempDir()
	ws, err := workspace.Load(f.ws)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	for _, c := range []struct {
		name string
		args []string
		opts mine.Options
	}{
		{"defaults", nil, mine.Options{}},
		{"no-text no-universal, train only", []string{"--no-text", "--no-universal", "--split", "train", "--max-hops", "2"}, mine.Options{NoText: true}},
	} {
		t.Run(c.name, func(t *testing.T) {
			o := c.opts
			o.Config.MaxHops, o.Config.MaxFrontier = 3, 5000
			splits := []string{data.SplitTrain, data.SplitVal}
			if c.args != nil {
				o.Config.NoUniversal, o.Config.MaxHops, splits = true, 2, []string{data.SplitTrain}
			}
			qs, err := questions(ws, splits)
			if err != nil {
				t.Fatal(err)
			}
			recs, rep, err := mine.Plans(t.Context(), ws, qs, o)
			if err != nil {
				t.Fatal(err)
			}
			var table strings.Builder
			rep.Print(&table)
			var want bytes.Buffer
			data.WriteJSONL(&want, recs)
			prefix := filepath.Join(dir, strings.Fields(c.name)[0])
			stdout, stderr, code := runMain(append([]string{"mine-plans", "--workspace", f.ws, "--output", prefix}, c.args...)...)
			if code != 0 {
				t.Fatalf("strata-beam mine-plans: %d %s", code, stderr)
			}
			got := readShards(t, prefix, "jsonl", 1)[0]
			if len(recs) < len(qs)/2 {
				t.Fatalf("strata mined %d plans for %d questions: too few to compare", len(recs), len(qs))
			}
			if diff := cmp.Diff(want.String(), string(got)); diff != "" {
				t.Errorf("plans differ from strata mine-plans's (-strata +beam):\n%s", diff)
			}
			// The summary, then strata mine-plans's coverage table.
			wantOut := fmt.Sprintf("mined plans for %d of %d questions into %s\n\n%s", len(recs), len(qs), shardName(prefix, 0, 1, "jsonl"), table.String())
			if !strings.HasSuffix(stdout, wantOut) {
				t.Errorf("stdout %q, want ...%q", stdout, wantOut)
			}
		})
	}
	_, stderr, code := runMain("mine-plans", "--workspace", f.ws, "--output", filepath.Join(dir, "x"), "--split", "nosuch")
	if code != 1 || !strings.Contains(stderr, "--split nosuch: ") {
		t.Errorf("unknown split: %d %q", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "x-00000-of-00001.jsonl")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a refused run wrote its file: %v", err)
	}
}

// TestScoreForceReplacesShards: with --force, the shards of another count
// stay until the job has written its own, then go; the new set is whole.
// Nothing is left in TMPDIR when the command returns: not the bundle's
// extracted directory (Prism does not tear the scoring DoFns down), nor
// Beam's loopback file.
func TestScoreForceReplacesShards(t *testing.T) {
	f := getFixture(t)
	dir := t.TempDir()
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	_, jsonlPath, _, n := writeQueries(t, f, dir)
	prefix := filepath.Join(dir, "run")
	for i := range 3 {
		os.WriteFile(shardName(prefix, i, 3, "jsonl"), []byte("old\n"), 0o644)
	}
	_, stderr, code := runMain("score", "--workspace", f.ws, "--bundle", f.bundle, "--queries", jsonlPath, "--output", prefix, "--shards", "2", "--force")
	if code != 0 {
		t.Fatalf("strata-beam score --force: %d %s", code, stderr)
	}
	got, _ := filepath.Glob(prefix + "-*")
	want := []string{shardName(prefix, 0, 2, "jsonl"), shardName(prefix, 1, 2, "jsonl")}
	if !slices.Equal(got, want) {
		t.Fatalf("shards after --force: %v, want %v", got, want)
	}
	lines := 0
	for _, b := range readShards(t, prefix, "jsonl", 2) {
		lines += bytes.Count(b, []byte("\n"))
	}
	if lines != n {
		t.Errorf("the new shards hold %d lines, want one per query (%d)", lines, n)
	}
	if left, _ := os.ReadDir(tmp); len(left) > 0 {
		var names []string
		for _, e := range left {
			names = append(names, e.Name())
		}
		t.Errorf("the run left %v in TMPDIR (the extracted bundle, Beam's loopback file)", names)
	}
	if got := os.Getenv("TMPDIR"); got != tmp {
		t.Errorf("TMPDIR after the run: %q, want %q", got, tmp)
	}
}
