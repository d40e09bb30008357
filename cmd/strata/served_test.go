package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/strata-retrieval/strata/checkpoints"
	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/eval"
	"github.com/strata-retrieval/strata/graphops/workspace"
	"github.com/strata-retrieval/strata/infer/pipeline"
	"github.com/strata-retrieval/strata/infer/serve"
)

// TestEveryRunServesWhatItReported trains every model strata trains from
// a workspace with questions and answers only (plans mined from the train
// answers) and checks, for each run directory, that the row its training
// reported on its last line is what strata score serves from the run
// directory and from its bundle, and what eval --pipeline computes: the
// same queries, the same numbers.
func TestEveryRunServesWhatItReported(t *testing.T) {
	dir := t.TempDir()
	skbDir, ws := filepath.Join(dir, "skb"), filepath.Join(dir, "ws")
	if _, e, code := run(t, "gen", "--preset", "prime", "--nodes", "1200", "--queries", "160", "--seed", "6", "--out", skbDir); code != 0 {
		t.Fatalf("gen: %s", e)
	}
	if err := os.Remove(filepath.Join(skbDir, data.PlansFile)); err != nil {
		t.Fatal(err)
	}
	if _, e, code := run(t, "import", "--in", skbDir, "--out", ws); code != 0 {
		t.Fatalf("import: %s", e)
	}
	if _, e, code := run(t, "mine-plans", ws); code != 0 {
		t.Fatalf("mine-plans: %s", e)
	}
	runs := filepath.Join(ws, "runs")
	for _, c := range []struct {
		args []string
		run  string
		row  string // the stages the run serves, as eval names them
	}{
		{[]string{"encoder", "--epochs", "1"}, "encoder", "dense"},
		{[]string{"cor", "--epochs", "2", "--batch", "32"}, "cor", "cor"},
		{[]string{"planner", "--epochs", "3"}, "planner", "planner+plan-exec"},
		{[]string{"mor", "--planner", filepath.Join(runs, "planner"), "--epochs", "1", "--negatives", "10"}, "mor", "mor"},
		{[]string{"mfar", "--epochs", "1"}, "mfar", "mfar"},
		{[]string{"grasp", "--mfar", filepath.Join(runs, "mfar"), "--planner", filepath.Join(runs, "planner")}, "grasp", ""},
	} {
		out, e, code := run(t, append([]string{"train", c.args[0], ws}, c.args[1:]...)...)
		if code != 0 {
			t.Fatalf("train %s: %s", c.args[0], e)
		}
		checkServes(t, ws, filepath.Join(runs, c.run), c.row, out, true)
	}
	// A GRASP run stopped after its fit was saved, before it was served (no
	// pipeline.json): a rerun is refused, as is --resume with a flag that
	// changes the fit; --resume with the same flags finishes it, its
	// checkpoint untouched, serving what it reports.
	gr := filepath.Join(runs, "grasp")
	manifest := filepath.Join(gr, checkpoints.StepDir(0), checkpoints.ManifestFile)
	before, err := os.ReadFile(manifest)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(gr, pipeline.PipelineFile)); err != nil {
		t.Fatal(err)
	}
	gargs := []string{"train", "grasp", ws, "--mfar", filepath.Join(runs, "mfar"), "--planner", filepath.Join(runs, "planner")}
	if _, e, code := run(t, gargs...); code == 0 || !strings.Contains(e, "already holds checkpoints") {
		t.Errorf("train grasp into a stopped run without --resume: code %d, %s", code, e)
	}
	if _, e, code := run(t, append(gargs, "--resume", "--stage3-pool", "50")...); code == 0 || !strings.Contains(e, "the fit differs") {
		t.Errorf("train grasp --resume with another fit: code %d, %s", code, e)
	}
	out, e, code := run(t, append(gargs, "--resume")...)
	if code != 0 {
		t.Fatalf("train grasp --resume: %s", e)
	}
	checkServes(t, ws, gr, "", out, true)
	if after, _ := os.ReadFile(manifest); !bytes.Equal(before, after) {
		t.Errorf("--resume rewrote the saved fit:\n%s\n%s", before, after)
	}
	// Every plan-based method eval runs with a planner or a plans file is a
	// pipeline stage with that planner or file: score, its bundle and eval
	// --pipeline give eval's row exactly.
	mined := filepath.Join(ws, "mined-plans.jsonl")
	w, err := workspace.Load(ws)
	if err != nil {
		t.Fatal(err)
	}
	qfile := splitCSV(t, w, data.SplitVal, t.TempDir())
	w.Close()
	for _, c := range []struct{ method, with, path string }{
		{"plan-exec", "planner", filepath.Join(runs, "planner")},
		{"mor-traversal", "planner", filepath.Join(runs, "planner", "best")},
		{"simgrag", "planner", filepath.Join(runs, "planner")},
		{"sage-plan", "planner", filepath.Join(runs, "planner")},
		{"plan-exec", "plans", mined},
		{"mor-traversal", "plans", mined},
	} {
		js, e, code := run(t, "eval", ws, "--method", c.method, "--"+c.with, c.path, "--split", "val", "--json")
		if code != 0 {
			t.Fatalf("eval %s --%s: %s", c.method, c.with, e)
		}
		var want eval.Summary
		if err := json.Unmarshal([]byte(js), &want); err != nil {
			t.Fatal(err)
		}
		dir := t.TempDir()
		pfile := filepath.Join(dir, "p.json")
		os.WriteFile(pfile, []byte(fmt.Sprintf(`{"format": "strata-pipeline/1", "name": "x", "scorers": [{"method": %q, %q: %q}]}`, c.method, c.with, c.path)), 0o644)
		if js, e, code = run(t, "eval", ws, "--pipeline", pfile, "--split", "val", "--json"); code != 0 {
			t.Fatalf("eval --pipeline %s with %s: %s", c.method, c.with, e)
		}
		var piped eval.Summary
		json.Unmarshal([]byte(js), &piped)
		tar := filepath.Join(dir, "p.tar")
		if _, e, code := run(t, "bundle", ws, "--pipeline", pfile, "--out", tar); code != 0 {
			t.Fatalf("bundle %s with %s: %s", c.method, c.with, e)
		}
		for _, p := range []string{pfile, tar} {
			out := filepath.Join(dir, filepath.Base(p)+".jsonl")
			if _, e, code := run(t, "score", ws, "--pipeline", p, "--queries", qfile, "--out", out, "-k", "100000"); code != 0 {
				t.Fatalf("score %s: %s", p, e)
			}
			w, _ := workspace.Load(ws)
			got := summarize(t, w, data.SplitVal, out)
			w.Close()
			for _, s := range []eval.Summary{got, piped} {
				if s.N != want.N || s.Hit1 != want.Hit1 || s.Hit5 != want.Hit5 || s.Recall20 != want.Recall20 || s.MRR != want.MRR {
					t.Errorf("%s with %s %s: eval %+v, scored from %s %+v, eval --pipeline %+v", c.method, c.with, c.path, want, filepath.Base(p), got, piped)
				}
			}
		}
	}
}

// servesLine is the last line of a train command: RUNDIR serves ROW: val
// n=... hit@1=... hit@5=... recall@20=... mrr=...; ...
var servesLine = regexp.MustCompile(`(?m)^(.+) serves (\S+): val n=(\d+) hit@1=([0-9.]+) hit@5=([0-9.]+) recall@20=([0-9.]+) mrr=([0-9.]+)`)

// checkServes checks a run directory against its training's last line
// (row: the stages it must serve, "" for any): strata score of the val
// questions with the run directory, then the metrics of its rankings, give
// the printed numbers and exactly eval --pipeline's; its bundle scores the
// same bytes. A run whose checkpoints were selected by a ranking metric
// (ranked) serves exactly the val metrics its best checkpoint recorded; a
// KGQA run's are selected by path accuracy, which is no ranking.
func checkServes(t *testing.T, ws, runDir, row, trainOut string, ranked bool) {
	t.Helper()
	m := servesLine.FindStringSubmatch(trainOut)
	if m == nil || m[1] != runDir || (row != "" && m[2] != row) {
		t.Fatalf("%s: the training's last line does not say it serves %q:\n%s", runDir, row, trainOut)
	}
	w, err := workspace.Load(ws)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	dir := t.TempDir()
	qfile := splitCSV(t, w, data.SplitVal, dir)
	scored := filepath.Join(dir, "run.jsonl")
	if _, e, code := run(t, "score", ws, "--pipeline", runDir, "--queries", qfile, "--out", scored, "-k", "100000"); code != 0 {
		t.Fatalf("score %s: %s", runDir, e)
	}
	got := summarize(t, w, data.SplitVal, scored)
	printed := fmt.Sprintf("%s %s %s %s %s", m[3], m[4], m[5], m[6], m[7])
	if want := fmt.Sprintf("%d %.4f %.4f %.4f %.4f", got.N, got.Hit1, got.Hit5, got.Recall20, got.MRR); printed != want {
		t.Errorf("%s: training printed val %s, strata score serves %s", runDir, printed, want)
	}
	js, e, code := run(t, "eval", ws, "--pipeline", runDir, "--split", "val", "--json")
	if code != 0 {
		t.Fatalf("eval --pipeline %s: %s", runDir, e)
	}
	var ev eval.Summary
	if err := json.Unmarshal([]byte(js), &ev); err != nil {
		t.Fatal(err)
	}
	if ev.N != got.N || ev.Hit1 != got.Hit1 || ev.Hit5 != got.Hit5 || ev.Recall20 != got.Recall20 || ev.MRR != got.MRR {
		t.Errorf("%s: score %+v, eval --pipeline %+v", runDir, got, ev)
	}
	// eval --run evaluates the scored file itself: the same numbers.
	if js, e, code = run(t, "eval", ws, "--run", scored, "--split", "val", "--json"); code != 0 {
		t.Fatalf("eval --run %s: %s", scored, e)
	}
	var fromRun eval.Summary
	json.Unmarshal([]byte(js), &fromRun)
	if fromRun.N != got.N || fromRun.Hit1 != got.Hit1 || fromRun.Hit5 != got.Hit5 || fromRun.Recall20 != got.Recall20 || fromRun.MRR != got.MRR {
		t.Errorf("%s: eval --run %+v, metrics of the scored rankings %+v", runDir, fromRun, got)
	}
	_, man, err := checkpoints.ReadRunManifest(runDir)
	if err != nil {
		t.Fatal(err)
	}
	recorded := 0
	for k, v := range map[string]float64{"hit@1": got.Hit1, "hit@5": got.Hit5, "recall@20": got.Recall20, "mrr": got.MRR} {
		if r, ok := man.Metrics["val/"+k]; ok {
			recorded++
			if r != v {
				t.Errorf("%s: the best checkpoint recorded val/%s %v, the run serves %v", runDir, k, r, v)
			}
		}
	}
	if ranked && recorded == 0 {
		t.Errorf("%s: its best checkpoint recorded no val ranking metric to compare with", runDir)
	}
	tar := filepath.Join(dir, "run.tar")
	if _, e, code := run(t, "bundle", ws, "--pipeline", runDir, "--out", tar); code != 0 {
		t.Fatalf("bundle %s: %s", runDir, e)
	}
	fromTar := filepath.Join(dir, "bundle.jsonl")
	if _, e, code := run(t, "score", ws, "--pipeline", tar, "--queries", qfile, "--out", fromTar, "-k", "100000"); code != 0 {
		t.Fatalf("score the bundle of %s: %s", runDir, e)
	}
	a, _ := os.ReadFile(scored)
	b, _ := os.ReadFile(fromTar)
	if len(a) == 0 || !bytes.Equal(a, b) {
		t.Errorf("%s: its bundle scores other rankings than the run directory", runDir)
	}
}

// splitCSV writes a split's questions as a STaRK CSV in dir.
func splitCSV(t *testing.T, w *workspace.Workspace, split, dir string) string {
	t.Helper()
	qs, err := w.SKB.QA.Split(split)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	cw := csv.NewWriter(&b)
	cw.Write([]string{"id", "query", "answer_ids"})
	for _, q := range qs {
		cw.Write([]string{strconv.Itoa(q.ID), q.Text, data.FormatIDList(q.Answers)})
	}
	cw.Flush()
	path := filepath.Join(dir, split+".csv")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// summarize evaluates a score output's rankings on a split's questions.
func summarize(t *testing.T, w *workspace.Workspace, split, path string) eval.Summary {
	t.Helper()
	rankings, err := serve.ReadRankings(path)
	if err != nil {
		t.Fatal(err)
	}
	qs, _ := w.SKB.QA.Split(split)
	ev := eval.NewEvaluator(len(w.SKB.Nodes), w.Candidates)
	var rs []eval.QueryResult
	for _, q := range qs {
		rs = append(rs, ev.Query(rankings[q.ID], q.Answers))
	}
	return eval.Summarize(rs)
}
