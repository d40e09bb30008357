package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strata-retrieval/strata/data"
)

// TestPlannerTextChannel: a planner trained where the workspace has a
// dense channel that ranks the validation questions better fused with
// BM25 than BM25 alone records bm25+dense as the text channel of the
// queries no plan fits, pinned to those vectors: with others its run
// refuses to load, while a run trained with --text bm25 still serves.
func TestPlannerTextChannel(t *testing.T) {
	dir := t.TempDir()
	skbDir, ws := filepath.Join(dir, "skb"), filepath.Join(dir, "ws")
	run(t, "gen", "--preset", "prime", "--nodes", "300", "--queries", "60", "--seed", "1", "--out", skbDir)
	run(t, "import", "--in", skbDir, "--out", ws)
	skb, err := data.ReadSKBDir(skbDir)
	if err != nil {
		t.Fatal(err)
	}
	// One-hot vectors that rank every query's first answer first: fused
	// with BM25 they beat BM25 alone on any split (and reading, which fuses
	// them with stemmed BM25 and a type prior, beats bm25+dense on this
	// one's val: 0.8750 against 0.7341); shift moves the nodes'.
	n := len(skb.Nodes)
	embed := func(shift int) {
		docs := make([]float32, n*n)
		for i := range skb.Nodes {
			docs[i*n+(i+shift)%n] = 1
		}
		qv := make([]float32, len(skb.QA.Queries)*n)
		for _, q := range skb.QA.Queries {
			qv[q.ID*n+int(q.Answers[0])] = 1
		}
		importVectors(t, dir, ws, docs, qv, n)
	}
	embed(0)
	var meta struct {
		Hash string `json:"vectors_sha256"`
	}
	if b, err := os.ReadFile(filepath.Join(ws, "dense", "meta.json")); err != nil || json.Unmarshal(b, &meta) != nil || meta.Hash == "" {
		t.Fatalf("dense meta: %s %v", b, err)
	}
	text := func(run string) (string, string) {
		var m struct {
			Config struct {
				Model struct {
					Text      string `json:"text"`
					TextDense string `json:"text_dense"`
				} `json:"model"`
			} `json:"config"`
		}
		b, err := os.ReadFile(filepath.Join(run, "best", "manifest.json"))
		if err == nil {
			err = json.Unmarshal(b, &m)
		}
		if err != nil {
			t.Fatalf("%s: %v", run, err)
		}
		return m.Config.Model.Text, m.Config.Model.TextDense
	}
	// Planners from mined plans, which read no query vector (no --dense).
	if _, e, code := run(t, "mine-plans", ws); code != 0 {
		t.Fatalf("mine-plans: %s", e)
	}
	mined := filepath.Join(ws, "mined-plans.jsonl")
	fused, plain := filepath.Join(ws, "runs", "fused"), filepath.Join(ws, "runs", "plain")
	out, e, code := run(t, "train", "planner", ws, "--mined", mined, "--epochs", "1", "--out", fused)
	if code != 0 || !strings.Contains(out, "queries no plan fits: reading, chosen on val") || !strings.Contains(e, "text channel for queries no plan fits: reading (val/mrr 0.8750; bm25 0.4052; bm25+dense 0.7341)") {
		t.Fatalf("train planner with a dense channel: %d %q %q", code, out, e)
	}
	if tx, h := text(fused); tx != "reading" || h != meta.Hash {
		t.Errorf("planner's text channel %q on %q, want reading on %q", tx, h, meta.Hash)
	}
	out, e, code = run(t, "train", "planner", ws, "--mined", mined, "--epochs", "1", "--out", plain, "--text", "bm25")
	if code != 0 || !strings.Contains(out, "queries no plan fits: bm25\n") {
		t.Fatalf("train planner --text bm25: %d %q %q", code, out, e)
	}
	if tx, h := text(plain); tx != "" || h != "" {
		t.Errorf("--text bm25: text channel %q on %q, want none", tx, h)
	}
	if _, e, code := run(t, "train", "planner", ws, "--out", filepath.Join(ws, "runs", "x"), "--text", "dense"); code != 1 || !strings.Contains(e, `--text "dense": want auto or bm25`) {
		t.Errorf("--text dense: %d %q", code, e)
	}
	// A query no plan fits (an id with an imported vector, the text a
	// node's passage) is answered by each run's text channel, as served:
	// reading reads it as the passage the planner read it as (with its
	// name profiles), as reading planned by the same run does; bm25 reads
	// it as bm25 does.
	q := skb.QA.Queries[skb.QA.Splits["test"][0]]
	passage := strings.Join(skb.Nodes[q.Answers[0]].Fields, " ")
	qf := filepath.Join(dir, "q.csv")
	if err := os.WriteFile(qf, []byte(fmt.Sprintf("id,query\n%d,%q\n", q.ID, passage)), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ run, method, planner string }{{fused, "reading", fused}, {plain, "bm25", ""}} {
		pl := filepath.Join(dir, c.method+".json")
		stage, _ := json.Marshal(map[string]string{"method": c.method, "planner": c.planner})
		if c.planner == "" {
			stage = []byte(`{"method":"` + c.method + `"}`)
		}
		if err := os.WriteFile(pl, []byte(`{"format":"strata-pipeline/1","scorers":[`+string(stage)+`]}`), 0o644); err != nil {
			t.Fatal(err)
		}
		var got, want []byte
		for i, p := range []string{c.run, pl} {
			o := filepath.Join(dir, fmt.Sprintf("%s-%d.jsonl", c.method, i))
			out, e, code := run(t, "score", ws, "--pipeline", p, "--queries", qf, "--out", o, "-k", "20")
			if code != 0 {
				t.Fatalf("score %s: %s", p, e)
			}
			b, _ := os.ReadFile(o)
			if i == 0 {
				got = b
				if !strings.Contains(out, "1 of them (100%) answered by a fallback") {
					t.Errorf("score %s: %q, want the query answered by a fallback", p, out)
				}
			} else {
				want = b
			}
		}
		if g, w := strings.Replace(string(got), `,"fallback":true`, "", 1), string(want); g != w {
			t.Errorf("%s's fallback:\n%s\nwant %s's ranking:\n%s", c.run, g, c.method, w)
		}
		if c.planner == "" {
			continue
		}
		// Read as a question (reading on its own), the passage ranks
		// otherwise: the profiles are what the planner's reading adds.
		alone := filepath.Join(dir, "alone.json")
		if err := os.WriteFile(alone, []byte(`{"format":"strata-pipeline/1","scorers":[{"method":"`+c.method+`"}]}`), 0o644); err != nil {
			t.Fatal(err)
		}
		o := filepath.Join(dir, "alone.jsonl")
		if _, e, code := run(t, "score", ws, "--pipeline", alone, "--queries", qf, "--out", o, "-k", "20"); code != 0 {
			t.Fatalf("score %s: %s", alone, e)
		}
		if b, _ := os.ReadFile(o); string(b) == string(want) {
			t.Errorf("%s on its own ranks the passage as the planner's %s does: %s", c.method, c.method, b)
		}
	}
	embed(1) // other vectors
	if _, e, code := run(t, "eval", ws, "--model", fused); code != 1 || !strings.Contains(e, "trained with other dense vectors") {
		t.Errorf("reading planner on other vectors: %d %q", code, e)
	}
	if _, e, code := run(t, "eval", ws, "--model", plain); code != 0 {
		t.Errorf("bm25 planner on other vectors: %d %q", code, e)
	}
}
