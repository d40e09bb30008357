package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/strata-retrieval/strata/checkpoints"
	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/data/index"
	"github.com/strata-retrieval/strata/data/synth"
	"github.com/strata-retrieval/strata/eval"
	gplan "github.com/strata-retrieval/strata/graphops/plan"
	"github.com/strata-retrieval/strata/graphops/workspace"
	"github.com/strata-retrieval/strata/infer"
	"github.com/strata-retrieval/strata/infer/llmrerank"
	"github.com/strata-retrieval/strata/infer/onnx"
	"github.com/strata-retrieval/strata/infer/pipeline"
	"github.com/strata-retrieval/strata/infer/registry"
	"github.com/strata-retrieval/strata/infer/serve"
	"github.com/strata-retrieval/strata/reranker/bpe"
)

func run(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	code := Main(args, &out, &errb)
	return out.String(), errb.String(), code
}

// TestGenImportEval drives the CLI end to end and checks that `eval --json`
// reports exactly the metrics the library computes for the same workspace.
func TestGenImportEval(t *testing.T) {
	dir := t.TempDir()
	skbDir, wsDir := filepath.Join(dir, "skb"), filepath.Join(dir, "ws")
	if _, e, code := run(t, "gen", "--preset", "prime", "--nodes", "1500", "--queries", "150", "--seed", "3", "--out", skbDir); code != 0 {
		t.Fatalf("gen: %s", e)
	}
	if _, e, code := run(t, "import", "--format", "skbdir", "--in", skbDir, "--out", wsDir); code != 0 {
		t.Fatalf("import: %s", e)
	}
	out, e, code := run(t, "eval", wsDir, "--method", "bm25,oracle-plan", "--split", "val,test", "--json")
	if code != 0 {
		t.Fatalf("eval: %s", e)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 4 {
		t.Fatalf("want 4 JSON lines, got %q", out)
	}
	ws, err := workspace.Load(wsDir)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	i := 0
	for _, m := range []string{"bm25", "oracle-plan"} {
		for _, split := range []string{"val", "test"} {
			var got map[string]any
			if err := json.Unmarshal([]byte(lines[i]), &got); err != nil {
				t.Fatal(err)
			}
			i++
			meth, _ := registry.NewMethod(infer.NewEnv(context.Background(), ws), m)
			qs, _ := ws.SKB.QA.Split(split)
			rs, err := eval.Run(t.Context(), eval.NewEvaluator(len(ws.SKB.Nodes), ws.Candidates), qs, meth, eval.RunOptions{})
			if err != nil {
				t.Fatal(err)
			}
			want := eval.Summarize(rs)
			if got["method"] != m || got["split"] != split || got["n"].(float64) != float64(want.N) ||
				got["hit@1"].(float64) != want.Hit1 || got["hit@5"].(float64) != want.Hit5 ||
				got["recall@20"].(float64) != want.Recall20 || got["mrr"].(float64) != want.MRR {
				t.Errorf("%s/%s: cli %v, library %+v", m, split, got, want)
			}
		}
	}
	// --by-template (the workspace's plans) and --by-shape (a plans file's:
	// here the generator's own file) report each group's n and Hit@1 from
	// the runs: a group's Hit@1 is the mean over its queries of gold at
	// rank 1.
	qs, _ := ws.SKB.QA.Split("test")
	filePlans, _, err := data.ReadPlans(filepath.Join(skbDir, data.PlansFile))
	if err != nil {
		t.Fatal(err)
	}
	for _, by := range []struct {
		flag []string
		name string
		key  func(q data.Query) string
	}{
		{[]string{"--by-template"}, "template", func(q data.Query) string { p := ws.Plans[q.ID]; return p.Template() }},
		{[]string{"--by-shape", filepath.Join(skbDir, data.PlansFile)}, "shape", func(q data.Query) string { p := filePlans[q.ID]; return p.Shape() }},
	} {
		out, e, code := run(t, append([]string{"eval", wsDir, "--method", "bm25,oracle-plan", "--split", "test"}, by.flag...)...)
		if code != 0 {
			t.Fatalf("eval %v: %s", by.flag, e)
		}
		for _, m := range []string{"bm25", "oracle-plan"} {
			var sec string
			for _, block := range strings.Split(out, "\n\n") {
				if strings.HasPrefix(block, m+" on test, by "+by.name) {
					sec = block
				}
			}
			meth, _ := registry.NewMethod(infer.NewEnv(context.Background(), ws), m)
			n, hits := map[string]int{}, map[string]int{}
			for _, q := range qs {
				key := by.key(q)
				n[key]++
				hs, err := meth.Rank(t.Context(), q)
				if err != nil {
					t.Fatal(err)
				}
				infer.SortHits(hs)
				if len(hs) > 0 && slices.Contains(q.Answers, hs[0].ID) {
					hits[key]++
				}
			}
			if len(n) < 2 {
				t.Fatalf("by %s: %d groups, a test needs several", by.name, len(n))
			}
			for key, c := range n {
				want := fmt.Sprintf("%s  %d  %.4f", key, c, float64(hits[key])/float64(c))
				if !strings.Contains(strings.Join(strings.Fields(sec), " "), strings.Join(strings.Fields(want), " ")) {
					t.Errorf("%s by %s lacks %q:\n%s", m, by.name, want, sec)
				}
			}
		}
	}
	// Under --json the groups are JSON lines beside the summary: their n add
	// up to the split, their Hit@1 weighted by n to the summary's.
	out, e, code = run(t, "eval", wsDir, "--split", "test", "--by-shape", filepath.Join(skbDir, data.PlansFile), "--json")
	if code != 0 {
		t.Fatalf("eval --by-shape --json: %s", e)
	}
	var sum eval.Summary
	n, hits := 0, 0.0
	for i, line := range strings.Split(strings.TrimSpace(out), "\n") {
		if i == 0 {
			if err := json.Unmarshal([]byte(line), &sum); err != nil {
				t.Fatal(err)
			}
			continue
		}
		var g struct {
			Method, Split, By, Group string
			N                        int
			Hit1                     float64 `json:"hit@1"`
		}
		if err := json.Unmarshal([]byte(line), &g); err != nil || g.Method != "bm25" || g.Split != "test" || g.By != "shape" || g.Group == "" {
			t.Fatalf("group line %q: %v", line, err)
		}
		n += g.N
		hits += g.Hit1 * float64(g.N)
	}
	if n != sum.N || n != len(qs) || math.Abs(hits/float64(n)-sum.Hit1) > 1e-12 {
		t.Errorf("groups: n %d, Hit@1 %v; summary n %d, Hit@1 %v", n, hits/float64(n), sum.N, sum.Hit1)
	}
	// A missing --by-shape file fails before anything is evaluated.
	if out, e, code := run(t, "eval", wsDir, "--by-shape", filepath.Join(dir, "nope.jsonl")); code != 1 || out != "" || !strings.Contains(e, "nope.jsonl") {
		t.Errorf("missing --by-shape file: exit %d, out %q, err %q", code, out, e)
	}
	// The table form prints the same numbers with four decimals.
	out, _, _ = run(t, "eval", wsDir)
	if !strings.Contains(out, "bm25") || !strings.Contains(out, "hit@1") {
		t.Errorf("table output %q", out)
	}
	// info --json agrees with the SKB.
	out, _, code = run(t, "info", wsDir, "--json")
	var info map[string]any
	if code != 0 || json.Unmarshal([]byte(out), &info) != nil || info["nodes"].(float64) != 1500 {
		t.Errorf("info: %s", out)
	}
	// search finds a node by its exact name in the name field.
	name := ws.SKB.Nodes[ws.Candidates[5]].Name
	out, _, code = run(t, "search", wsDir, name, "--field", "name", "-k", "1", "--json")
	if code != 0 || !strings.Contains(out, `"name":"`+name+`"`) {
		t.Errorf("search %q: %s", name, out)
	}
	// export writes an skbdir that reads back to the same fingerprint.
	exp := filepath.Join(dir, "exp")
	if _, e, code := run(t, "export", wsDir, "--out", exp, "--compress"); code != 0 {
		t.Fatalf("export: %s", e)
	}
	back, err := data.ReadSKBDir(exp)
	if err != nil {
		t.Fatal(err)
	}
	if workspace.Fingerprint(back) != ws.Fingerprint {
		t.Error("exported SKB has a different fingerprint")
	}
}

func q0(t *testing.T, skbDir string) string {
	qs, err := data.ReadStarkQACSV(filepath.Join(skbDir, data.StarkQAFile), 0)
	if err != nil {
		t.Fatal(err)
	}
	return qs[0].Text
}

func TestErrorsNameFileAndLine(t *testing.T) {
	dir := t.TempDir()
	skbDir := filepath.Join(dir, "skb")
	res, err := synth.Generate(synth.Config{Preset: "amazon", Nodes: 300, Queries: 10, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if err := data.WriteSKBDir(skbDir, res.SKB, data.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	f, _ := os.OpenFile(filepath.Join(skbDir, "edges.tsv"), os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString("0\thas_flavor\t1\n")
	f.Close()
	nEdges := res.SKB.Edges.Len()
	_, e, code := run(t, "import", "--in", skbDir, "--out", filepath.Join(dir, "ws"))
	want := "edges.tsv:" + strconv.Itoa(nEdges+1) + `: field "relation": unknown relation type`
	if code != 1 || !strings.Contains(e, want) {
		t.Errorf("exit %d, stderr %q, want it to contain %q", code, e, want)
	}
	if _, err := os.Stat(filepath.Join(dir, "ws")); !os.IsNotExist(err) {
		t.Error("a failed import left a workspace behind")
	}
	if _, e, code := run(t, "eval", filepath.Join(dir, "nowhere")); code != 1 || !strings.Contains(e, "not a strata workspace") {
		t.Errorf("eval on a missing workspace: %d %q", code, e)
	}
	if _, e, code := run(t, "gen", "--preset", "imdb", "--out", filepath.Join(dir, "x")); code != 1 || !strings.Contains(e, `unknown preset "imdb"`) {
		t.Errorf("gen bad preset: %d %q", code, e)
	}
}

func TestImportStarkAndTriples(t *testing.T) {
	dir := t.TempDir()
	// STaRK processed fixture plus a QA directory in STaRK's layout.
	qa := filepath.Join(dir, "qa")
	os.MkdirAll(filepath.Join(qa, "stark_qa"), 0o755)
	os.MkdirAll(filepath.Join(qa, "split"), 0o755)
	os.WriteFile(filepath.Join(qa, "stark_qa", "stark_qa.csv"), []byte("id,query,answer_ids\n0,what does Kalamab treat?,[0]\n1,which protein binds DNA,\"[1, 3]\"\n"), 0o644)
	os.WriteFile(filepath.Join(qa, "split", "test.index"), []byte("0\n1\n"), 0o644)
	ws := filepath.Join(dir, "ws")
	if _, e, code := run(t, "import", "--format", "stark", "--in", filepath.Join("..", "..", "data", "testdata", "stark", "prime"), "--qa", qa, "--out", ws); code != 0 {
		t.Fatalf("import stark: %s", e)
	}
	out, e, code := run(t, "eval", ws, "--json")
	if code != 0 {
		t.Fatalf("eval: %s", e)
	}
	var s map[string]any
	json.Unmarshal([]byte(out), &s)
	// Query 0: "what does Kalamab treat?" -> Kalamab (node 2) is the only match;
	// gold 0 is unscored, ranked after it by id: rank 2. Query 1: "binds DNA"
	// matches only TP53 (node 1): rank 1 for gold 1.
	if s["n"].(float64) != 2 || s["hit@1"].(float64) != 0.5 || s["mrr"].(float64) != 0.75 {
		t.Errorf("stark eval %s", out)
	}
	// Triples: a tiny MetaQA-style directory.
	mq := filepath.Join(dir, "metaqa")
	os.MkdirAll(filepath.Join(mq, "1-hop"), 0o755)
	os.WriteFile(filepath.Join(mq, "kb.txt"), []byte("Movie A|directed_by|Ann\nMovie B|directed_by|Bob\nMovie A|release_year|1999\n"), 0o644)
	os.WriteFile(filepath.Join(mq, "1-hop", "qa_dev.txt"), []byte("who directed [Movie A]\tAnn\nwho directed [Movie B]\tBob|Zed\n"), 0o644)
	os.WriteFile(filepath.Join(mq, "1-hop", "qa_dev_qtype.txt"), []byte("movie_to_director\nmovie_to_director\n"), 0o644)
	ws2 := filepath.Join(dir, "ws2")
	_, e, code = run(t, "import", "--format", "triples", "--in", mq, "--out", ws2)
	if code != 0 {
		t.Fatalf("import triples: %s", e)
	}
	if !strings.Contains(e, "(metaqa) -> split 1-hop-dev, train/val/test by position, 60/20/20: 2 questions, 0 with topic entities and 1 answers not in the KB") {
		t.Errorf("triples report: %q", e)
	}
	out, _, _ = run(t, "info", ws2, "--json")
	var info map[string]any
	json.Unmarshal([]byte(out), &info)
	if info["nodes"].(float64) != 5 || info["edges"].(float64) != 3 || info["splits"].(map[string]any)["1-hop-dev"].(float64) != 2 ||
		info["plans"].(float64) != 2 || info["splits"].(map[string]any)["train"].(float64) != 2 {
		t.Errorf("triples info %s", out)
	}
}

// TestImportKGQASplits: --kgqa FILE:SPLIT puts the file's questions in
// that split only (none in train); a PathQuestion file (TSV kb, questions
// with inline topics and paths) without a split gets its own split and a
// seeded 80/10/10 random split, with its paths as plans.
func TestImportKGQASplits(t *testing.T) {
	dir := t.TempDir()
	kb := filepath.Join(dir, "kb.txt")
	os.WriteFile(kb, []byte("Movie A|directed_by|Ann\nMovie B|directed_by|Bob\n"), 0o644)
	var qa strings.Builder
	for range 10 {
		qa.WriteString("who directed [Movie A]\tAnn\n")
	}
	test := filepath.Join(dir, "qa_test.txt")
	os.WriteFile(test, []byte(qa.String()), 0o644)
	ws := filepath.Join(dir, "ws")
	_, e, code := run(t, "import", "--format", "triples", "--in", kb, "--kgqa", test+":test", "--out", ws)
	if code != 0 {
		t.Fatalf("import: %s", e)
	}
	out, _, _ := run(t, "info", ws, "--json")
	var info map[string]any
	json.Unmarshal([]byte(out), &info)
	splits := info["splits"].(map[string]any)
	if splits["test"] != float64(10) || splits["train"] != nil || splits["val"] != nil {
		t.Errorf("FILE:test splits %v", splits)
	}
	pq := filepath.Join(dir, "pq")
	os.MkdirAll(pq, 0o755)
	os.WriteFile(filepath.Join(pq, "2H-kb.txt"), []byte("ann\tspouse\tbob\nbob\tnationality\tfrance\ncid\tspouse\tdee\ndee\tnationality\tspain\n"), 0o644)
	qa.Reset()
	for i := range 10 {
		if i%2 == 0 {
			qa.WriteString("which nationality is ann 's couple ?\tfrance(france/)\tann#spouse#bob#nationality#france#<end>#france\n")
		} else {
			qa.WriteString("which nationality is cid 's couple ?\tspain(spain/)\tcid#spouse#dee#nationality#spain#<end>#spain\n")
		}
	}
	os.WriteFile(filepath.Join(pq, "PQ-2H.txt"), []byte(qa.String()), 0o644)
	ws2 := filepath.Join(dir, "ws2")
	_, e, code = run(t, "import", "--format", "triples", "--in", filepath.Join(pq, "2H-kb.txt"), "--kgqa", filepath.Join(pq, "PQ-2H.txt"), "--seed", "3", "--out", ws2)
	if code != 0 {
		t.Fatalf("import PathQuestion: %s", e)
	}
	if !strings.Contains(e, "(pathquestion) -> split pq-PQ-2H, train/val/test at random, 80/10/10, seed 3: 10 questions, 0 with topic entities and 0 answers not in the KB") {
		t.Errorf("PathQuestion report: %q", e)
	}
	out, _, _ = run(t, "info", ws2, "--json")
	info = nil
	json.Unmarshal([]byte(out), &info)
	splits = info["splits"].(map[string]any)
	// Every test question is answered by its path: test-reachable = test.
	if info["nodes"] != float64(6) || info["edges"] != float64(4) || info["plans"] != float64(10) || splits["pq-PQ-2H"] != float64(10) ||
		splits["train"] != float64(8) || splits["val"] != float64(1) || splits["test"] != float64(1) || splits["test-reachable"] != float64(1) {
		t.Errorf("PathQuestion info %s", out)
	}
	w, err := workspace.Load(ws2)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	parts := data.SplitRandom([]int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, 3)
	if !slices.Equal(w.SKB.QA.Splits["test"], parts["test"]) {
		t.Errorf("test split %v, want %v", w.SKB.QA.Splits["test"], parts["test"])
	}
	if q, _ := w.SKB.QA.ByID(1); q.Text != "which nationality is [cid] 's couple ?" {
		t.Errorf("question 1 %q", q.Text)
	}
}

// TestSearchNameField: an skbdir whose schema lists "name" among its text
// fields (as WordNet's) gets a name index that finds nodes by name, and the
// whole-document index is the same as without it.
func TestSearchNameField(t *testing.T) {
	dir := t.TempDir()
	mk := func(name string, fields string) string {
		skb := filepath.Join(dir, name)
		os.MkdirAll(skb, 0o755)
		os.WriteFile(filepath.Join(skb, "schema.json"), []byte(`{"format":"skbdir/1","name":"t","node_types":["synset"],"relation_types":["hypernym"],"candidate_types":["synset"],"text_fields":`+fields+`}`), 0o644)
		os.WriteFile(filepath.Join(skb, "nodes.jsonl"), []byte(`{"id":0,"type":"synset","name":"dog","fields":{"definition":"a domestic canine"}}
{"id":1,"type":"synset","name":"canine","fields":{"definition":"a carnivore like a dog or wolf"}}
`), 0o644)
		os.WriteFile(filepath.Join(skb, "edges.tsv"), []byte("0\thypernym\t1\n"), 0o644)
		ws := filepath.Join(dir, name+"-ws")
		if _, e, code := run(t, "import", "--in", skb, "--out", ws); code != 0 {
			t.Fatalf("import: %s", e)
		}
		return ws
	}
	withName, without := mk("named", `["name","definition"]`), mk("plain", `["definition"]`)
	type result struct {
		Hits []struct {
			Node  uint32
			Score float32
		}
	}
	search := func(ws string, args ...string) result {
		out, e, code := run(t, append([]string{"search", ws, "--json"}, args...)...)
		if code != 0 {
			t.Fatalf("search: %s", e)
		}
		var r result
		json.Unmarshal([]byte(out), &r)
		return r
	}
	for _, ws := range []string{withName, without} {
		// "dog" is node 0's whole name and a word of node 1's definition:
		// the name index holds node 0 only.
		if r := search(ws, "dog", "--field", "name"); len(r.Hits) != 1 || r.Hits[0].Node != 0 {
			t.Errorf("%s: name search %+v", ws, r)
		}
	}
	a, b := search(withName, "dog canine"), search(without, "dog canine")
	if len(a.Hits) != 2 || !reflect.DeepEqual(a, b) {
		t.Errorf("doc search with name in the schema %+v, without %+v", a, b)
	}
}

// TestKGQAEndToEnd imports a small MetaQA-style graph, trains the KGQA
// pattern predictor (two question types) and checks eval and explain.
func TestKGQAEndToEnd(t *testing.T) {
	dir := t.TempDir()
	mq := filepath.Join(dir, "metaqa")
	os.MkdirAll(filepath.Join(mq, "1-hop"), 0o755)
	var kb, qa, qt strings.Builder
	for i := range 10 {
		fmt.Fprintf(&kb, "Film %c|directed_by|Director %c\nFilm %c|release_year|%d\n", 'A'+i, 'K'+i, 'A'+i, 1990+i)
		fmt.Fprintf(&qa, "who directed [Film %c]\tDirector %c\nwhen was [Film %c] released\t%d\n", 'A'+i, 'K'+i, 'A'+i, 1990+i)
		qt.WriteString("movie_to_director\nmovie_to_year\n")
	}
	os.WriteFile(filepath.Join(mq, "kb.txt"), []byte(kb.String()), 0o644)
	os.WriteFile(filepath.Join(mq, "1-hop", "qa_dev.txt"), []byte(qa.String()), 0o644)
	os.WriteFile(filepath.Join(mq, "1-hop", "qa_dev_qtype.txt"), []byte(qt.String()), 0o644)
	ws := filepath.Join(dir, "ws")
	if _, e, code := run(t, "import", "--format", "triples", "--in", mq, "--out", ws); code != 0 {
		t.Fatalf("import: %s", e)
	}
	trained, e, code := run(t, "train", "kgqa", ws, "--epochs", "30", "--batch", "4")
	if code != 0 {
		t.Fatalf("train kgqa: %s", e)
	}
	checkServes(t, ws, filepath.Join(ws, "runs", "kgqa"), "kgqa", trained, false)
	// Test split: questions 8, 9, 18, 19 (director, year, director, year).
	out, e, code := run(t, "eval", ws, "--model", filepath.Join(ws, "runs", "kgqa", "best"), "--split", "test", "--json")
	var kg map[string]any
	json.Unmarshal([]byte(out), &kg)
	if code != 0 || kg["n"].(float64) != 4 || kg["hit@1"].(float64) != 1 || kg["mrr"].(float64) != 1 {
		t.Errorf("kgqa eval %s %s", out, e)
	}
	// Patterns from a file (as an LLM would write them; relation names in
	// words match by embedding): three of the four test questions.
	pf := filepath.Join(dir, "patterns.jsonl")
	os.WriteFile(pf, []byte(`{"q_id": 8, "triples": [["Film E", "directed by", "UNKNOWN person 1"]]}
{"q_id": 9, "triples": [["Film E", "release_year", "UNKNOWN year"]]}
{"q_id": 18, "triples": [["UNKNOWN person", "directed_by", "Film J"]], "target": "UNKNOWN person"}
`), 0o644)
	out, e, code = run(t, "eval", ws, "--method", "bm25", "--patterns", pf, "--split", "test", "--json")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	json.Unmarshal([]byte(lines[len(lines)-1]), &kg)
	if code != 0 || kg["method"] != "simgrag:patterns.jsonl" || kg["hit@1"].(float64) != 0.75 {
		t.Errorf("eval --patterns %s %s", out, e)
	}
	out, _, _ = run(t, "explain", ws, "--model", filepath.Join(ws, "runs", "kgqa"), "--query", "who directed [Film B]")
	if !strings.Contains(out, "(Film B, directed_by, UNKNOWN entity 0)") || !regexp.MustCompile(`\n1\s+\d+\s+0\.0000\s+Director L\n`).MatchString(out) {
		t.Errorf("kgqa explain:\n%s", out)
	}
}

func TestCheckpointsList(t *testing.T) {
	runDir := t.TempDir()
	for _, step := range []int{10, 20} {
		ck := &checkpoints.Checkpoint{Manifest: checkpoints.Manifest{Kind: "gate", Step: step, Metrics: map[string]float64{"val/mrr": float64(step) / 100}},
			Model: []checkpoints.Tensor{{Name: "w", Shape: []int{1}, Data: []float32{1}}}}
		if err := checkpoints.Save(filepath.Join(runDir, checkpoints.StepDir(step)), ck); err != nil {
			t.Fatal(err)
		}
	}
	checkpoints.SetBest(runDir, checkpoints.StepDir(20))
	out, e, code := run(t, "checkpoints", "list", runDir)
	if code != 0 {
		t.Fatal(e)
	}
	want := "best  checkpoint     kind  step  epoch  val/mrr\n      step-00000010  gate  10    0      0.1000\n*     step-00000020  gate  20    0      0.2000\n"
	if out != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
}

// TestTrainCoREndToEnd runs gen → import → train cor (which trains the
// encoder first) → eval --model → explain → curves on a small benchmark and
// checks the numbers agree across commands.
func TestTrainCoREndToEnd(t *testing.T) {
	dir := t.TempDir()
	skbDir, ws := filepath.Join(dir, "skb"), filepath.Join(dir, "ws")
	run(t, "gen", "--preset", "mag", "--nodes", "1500", "--queries", "200", "--seed", "2", "--out", skbDir)
	run(t, "import", "--in", skbDir, "--out", ws)
	out, e, code := run(t, "train", "cor", ws, "--epochs", "3", "--batch", "32")
	if code != 0 {
		t.Fatalf("train cor: %s", e)
	}
	if !strings.Contains(out, "trained encoder") || !strings.Contains(out, "trained CoR") {
		t.Errorf("train output %q", out)
	}
	best := filepath.Join(ws, "runs", "cor", "best")
	out, e, code = run(t, "eval", ws, "--model", best, "--split", "val", "--json")
	if code != 0 {
		t.Fatalf("eval --model: %s", e)
	}
	var got map[string]any
	json.Unmarshal([]byte(out), &got)
	ck, err := checkpoints.ReadManifest(best)
	if err != nil {
		t.Fatal(err)
	}
	// search --dense returns the dense channel's exact top-k: the same order
	// as the dense method's full ranking.
	out, e, code = run(t, "search", ws, q0(t, skbDir), "--dense", "-k", "5", "--json")
	if code != 0 {
		t.Fatalf("search --dense: %s", e)
	}
	var sr struct{ Hits []searchHit }
	json.Unmarshal([]byte(out), &sr)
	w, _ := workspace.Load(ws)
	dm, err := registry.NewMethod(infer.NewEnv(context.Background(), w), "dense")
	if err != nil {
		t.Fatal(err)
	}
	full, _ := dm.Rank(t.Context(), data.Query{ID: -1, Text: q0(t, skbDir)})
	sort.Slice(full, func(i, j int) bool {
		if full[i].Score != full[j].Score {
			return full[i].Score > full[j].Score
		}
		return full[i].ID < full[j].ID
	})
	w.Close()
	if len(sr.Hits) != 5 {
		t.Fatalf("dense search: %s", out)
	}
	for i, h := range sr.Hits {
		if h.Node != full[i].ID {
			t.Errorf("dense search rank %d: node %d, dense method %d", i+1, h.Node, full[i].ID)
		}
	}
	// The metrics recorded during training are the metrics eval computes.
	if got["mrr"].(float64) != ck.Metrics["val/mrr"] || got["hit@1"].(float64) != ck.Metrics["val/hit@1"] {
		t.Errorf("eval %v, training recorded %v", got, ck.Metrics)
	}
	q, _ := data.ReadStarkQACSV(filepath.Join(skbDir, data.StarkQAFile), 0)
	out, e, code = run(t, "explain", ws, "--model", best, "--query", q[0].Text, "-k", "3")
	if code != 0 || !strings.Contains(out, "hybrid gate:") || !strings.Contains(out, "relational gate (relation):") {
		t.Errorf("explain: %s %s", out, e)
	}
	out, e, code = run(t, "curves", ws, "--run", filepath.Join(ws, "runs", "cor"), "--split", "val,test")
	if code != 0 {
		t.Fatalf("curves: %s", e)
	}
	for _, f := range []string{"curves.csv", "curves.json", "curves.png", "curves.svg"} {
		if st, err := os.Stat(filepath.Join(ws, "runs", "cor", f)); err != nil || st.Size() == 0 {
			t.Errorf("%s not written", f)
		}
	}
	b, _ := os.ReadFile(filepath.Join(ws, "runs", "cor", "curves.csv"))
	if lines := strings.Count(string(b), "\n"); lines != 1+2*3 {
		t.Errorf("curves.csv has %d lines, want 7:\n%s", lines, b)
	}
	testScore(t, ws, filepath.Join(ws, "runs", "cor"))
	// Planner and MoR: trained, evaluated and explained through the CLI.
	out, e, code = run(t, "train", "planner", ws, "--epochs", "5")
	if code != 0 || !strings.Contains(out, "val plan accuracy") {
		t.Fatalf("train planner: %q %s", out, e)
	}
	// A planner trained from plan files (selected by plan accuracy) serves
	// its plans executed.
	checkServes(t, ws, filepath.Join(ws, "runs", "planner"), "planner+plan-exec", out, false)
	// Its explanation: the chosen plan in the typed algebra, as it
	// executes, and the top 3.
	out, e, code = run(t, "explain", ws, "--model", filepath.Join(ws, "runs", "planner"), "--query", q[0].Text, "-k", "3", "--json")
	var pe struct {
		Plan  data.Plan   `json:"plan"`
		Typed string      `json:"typed_plan"`
		Hits  []index.Hit `json:"hits"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &pe) != nil {
		t.Fatalf("explain planner: %q %s", out, e)
	}
	w, err = workspace.Load(ws)
	if err != nil {
		t.Fatal(err)
	}
	typed, err := gplan.Compile(&w.SKB.Schema, pe.Plan)
	if err != nil || typed == nil || pe.Typed != typed.Format(&w.SKB.Schema) || len(pe.Hits) != 3 || !strings.Contains(pe.Typed, ") ranked by ") {
		t.Errorf("explain planner: typed plan %q (compiled: %v), %d hits", pe.Typed, err, len(pe.Hits))
	}
	w.Close()
	out, _, _ = run(t, "explain", ws, "--model", filepath.Join(ws, "runs", "planner"), "--query", q[0].Text, "-k", "3")
	if !strings.HasPrefix(out, "planner+plan-exec: template ") || !strings.Contains(out, "\nplan: "+pe.Typed+"\n") || strings.Count(out, "\n") != 5 {
		t.Errorf("explain planner, text:\n%s", out)
	}
	// -k below 1 is an error (-1 sliced the hits and panicked); one past
	// every candidate shows what there is (CoR's explanation made room
	// for -k hits and panicked at 2^40).
	for _, k := range []string{"0", "-1"} {
		if _, e, code := run(t, "explain", ws, "--model", filepath.Join(ws, "runs", "planner"), "--query", q[0].Text, "-k", k); code != 1 || !strings.Contains(e, "-k "+k+": want at least 1") {
			t.Errorf("explain -k %s: exit %d, %q", k, code, e)
		}
	}
	if out, e, code := run(t, "explain", ws, "--model", best, "--query", q[0].Text, "-k", "1099511627776"); code != 0 || !strings.Contains(out, "hybrid gate:") { // CoR's top-k held 2^40 hits
		t.Errorf("explain cor -k 2^40: exit %d, %q", code, e)
	}
	if _, e, code := run(t, "train", "mor", ws, "--planner", filepath.Join(ws, "runs", "planner", "best"), "--epochs", "2", "--negatives", "20"); code != 0 {
		t.Fatalf("train mor: %s", e)
	}
	out, e, code = run(t, "explain", ws, "--model", filepath.Join(ws, "runs", "mor"), "--query", q[0].Text, "-k", "2")
	if code != 0 || !strings.Contains(out, "plan (predicted by the planner)") || !strings.Contains(out, "T[") {
		t.Errorf("explain mor: %q %s", out, e)
	}
	if _, e, code := run(t, "eval", ws, "--pipeline", filepath.Join(ws, "runs", "mor"), "--json"); code != 0 {
		t.Errorf("eval mor pipeline: %s", e)
	}
	// Retraining the encoder changes the dense vectors: the CoR model refuses
	// to pair with them.
	if _, e, code := run(t, "train", "encoder", ws, "--out", filepath.Join(ws, "runs", "encoder2"), "--epochs", "1", "--seed", "77"); code != 0 {
		t.Fatalf("retrain encoder: %s", e)
	}
	if _, e, code := run(t, "eval", ws, "--model", best); code != 1 || !strings.Contains(e, "trained with other dense vectors") {
		t.Errorf("CoR after a new encoder: %d %q", code, e)
	}
	// Training again into the same run without --resume is refused.
	if _, e, code := run(t, "train", "cor", ws, "--epochs", "3"); code != 1 || !strings.Contains(e, "--resume") {
		t.Errorf("second train: %d %q", code, e)
	}
}

// importVectors writes document and query vectors of width dim (row-major,
// a row per node and per query id) to safetensors files in dir and makes
// them ws's dense channel with import-embeddings, returning its output.
func importVectors(t *testing.T, dir, ws string, docs, queries []float32, dim int) string {
	t.Helper()
	d, q := filepath.Join(dir, "docs.safetensors"), filepath.Join(dir, "q.safetensors")
	for _, f := range []struct {
		path string
		v    []float32
	}{{d, docs}, {q, queries}} {
		if err := checkpoints.WriteFile(f.path, []checkpoints.Tensor{{Name: "e", Shape: []int{len(f.v) / dim, dim}, Data: f.v}}, nil); err != nil {
			t.Fatal(err)
		}
	}
	out, e, code := run(t, "import-embeddings", ws, "--docs", d, "--queries", q)
	if code != 0 {
		t.Fatalf("import-embeddings: %q %q", out, e)
	}
	return out
}

// TestImportEmbeddings makes hand-made vectors the dense channel and checks
// the dense method's ranking against them.
func TestImportEmbeddings(t *testing.T) {
	dir := t.TempDir()
	skbDir, ws := filepath.Join(dir, "skb"), filepath.Join(dir, "ws")
	run(t, "gen", "--preset", "prime", "--nodes", "300", "--queries", "10", "--seed", "1", "--out", skbDir)
	run(t, "import", "--in", skbDir, "--out", ws)
	// Node i gets the one-hot vector e_(i mod 4); query q gets e_(gold mod 4)
	// of its first answer, so every answer's residue class ties at cosine 1.
	skb, err := data.ReadSKBDir(skbDir)
	if err != nil {
		t.Fatal(err)
	}
	docs := make([]float32, len(skb.Nodes)*4)
	for i := range skb.Nodes {
		docs[i*4+i%4] = 1
	}
	qv := make([]float32, len(skb.QA.Queries)*4)
	for _, q := range skb.QA.Queries {
		qv[q.ID*4+int(q.Answers[0])%4] = 1
	}
	if out := importVectors(t, dir, ws, docs, qv, 4); !strings.Contains(out, "imported 4-dimensional vectors for 300 of 300 nodes and 10 queries") {
		t.Fatalf("import-embeddings: %q", out)
	}
	w, err := workspace.Load(ws)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	m, err := registry.NewMethod(infer.NewEnv(context.Background(), w), "dense")
	if err != nil {
		t.Fatal(err)
	}
	q := skb.QA.Queries[0]
	hits, err := m.Rank(t.Context(), q)
	if err != nil {
		t.Fatal(err)
	}
	r := eval.NewEvaluator(len(skb.Nodes), w.Candidates).Query(hits, q.Answers[:1])
	// The answer ties with every candidate of its residue class below it.
	wantRank := 1
	for _, c := range w.Candidates {
		if c < q.Answers[0] && c%4 == q.Answers[0]%4 {
			wantRank++
		}
	}
	if r.Ranks[0] != wantRank {
		t.Errorf("gold rank %d, want %d", r.Ranks[0], wantRank)
	}
	// search --dense needs query text, which imported vectors cannot encode.
	if _, e, code := run(t, "search", ws, "anything", "--dense"); code != 1 || !strings.Contains(e, "imported vectors cannot encode new text") {
		t.Errorf("dense search with imported vectors: %d %q", code, e)
	}
}

// TestTrainingIsReproducible trains the encoder and CoR twice from the same
// workspace and seed and compares every checkpoint and dense file byte for
// byte.
func TestTrainingIsReproducible(t *testing.T) {
	dir := t.TempDir()
	skbDir := filepath.Join(dir, "skb")
	run(t, "gen", "--preset", "prime", "--nodes", "800", "--queries", "120", "--seed", "4", "--out", skbDir)
	files := func(ws string) map[string][]byte {
		run(t, "import", "--in", skbDir, "--out", ws)
		if _, e, code := run(t, "train", "cor", ws, "--epochs", "2", "--batch", "16", "--seed", "9"); code != 0 {
			t.Fatalf("train cor: %s", e)
		}
		out := map[string][]byte{}
		filepath.Walk(ws, func(p string, info os.FileInfo, err error) error {
			if err == nil && info.Mode().IsRegular() && (strings.HasSuffix(p, ".safetensors") || strings.HasSuffix(p, "manifest.json")) {
				rel, _ := filepath.Rel(ws, p)
				out[rel], _ = os.ReadFile(p)
			}
			return nil
		})
		return out
	}
	a, b := files(filepath.Join(dir, "a")), files(filepath.Join(dir, "b"))
	if len(a) < 8 {
		t.Fatalf("only %d files", len(a))
	}
	for name, data := range a {
		if !bytes.Equal(data, b[name]) {
			t.Errorf("%s differs between two identical runs", name)
		}
	}
}

// testScore checks strata score against strata eval for the run's
// pipeline, the TREC format, and a kill-and-restart of batch scoring.
func testScore(t *testing.T, ws, runDir string) {
	t.Helper()
	w, err := workspace.Load(ws)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	qs, _ := w.SKB.QA.Split("test")
	dir := t.TempDir()
	qfile := filepath.Join(dir, "test.csv")
	var b strings.Builder
	b.WriteString("id,query,answer_ids\n")
	for _, q := range qs {
		fmt.Fprintf(&b, "%d,%q,%q\n", q.ID, q.Text, data.FormatIDList(q.Answers))
	}
	os.WriteFile(qfile, []byte(b.String()), 0o644)
	// Score with the full ranking: the metrics equal eval's.
	out := filepath.Join(dir, "cor.jsonl")
	if _, e, code := run(t, "score", ws, "--pipeline", runDir, "--queries", qfile, "--out", out, "-k", "100000", "--stages"); code != 0 {
		t.Fatalf("score: %s", e)
	}
	rankings, err := serve.ReadRankings(out)
	if err != nil {
		t.Fatal(err)
	}
	ev := eval.NewEvaluator(len(w.SKB.Nodes), w.Candidates)
	var rs []eval.QueryResult
	for _, q := range qs {
		rs = append(rs, ev.Query(rankings[q.ID], q.Answers))
	}
	got := eval.Summarize(rs)
	js, e, code := run(t, "eval", ws, "--pipeline", runDir, "--split", "test", "--json")
	if code != 0 {
		t.Fatalf("eval --pipeline: %s", e)
	}
	var want eval.Summary
	json.Unmarshal([]byte(js), &want)
	if got.N != want.N || got.Hit1 != want.Hit1 || got.Hit5 != want.Hit5 || got.Recall20 != want.Recall20 || got.MRR != want.MRR {
		t.Errorf("score metrics %+v, eval %+v", got, want)
	}
	// An rrf pipeline in YAML, as a TREC run: valid trec_eval lines.
	pfile := filepath.Join(dir, "hybrid.yaml")
	os.WriteFile(pfile, []byte("format: strata-pipeline/1\nname: bm25 and cor\nscorers:\n  - method: bm25\n  - model: "+runDir+"/best\n    weight: 2\nfusion: {kind: rrf}\n"), 0o644)
	trec := filepath.Join(dir, "run.trec")
	if _, e, code := run(t, "score", ws, "--pipeline", pfile, "--queries", qfile, "--out", trec, "--format", "trec", "-k", "10"); code != 0 {
		t.Fatalf("score trec: %s", e)
	}
	tb, _ := os.ReadFile(trec)
	lines := strings.Split(strings.TrimSuffix(string(tb), "\n"), "\n")
	if len(lines) != 10*len(qs) {
		t.Fatalf("%d TREC lines for %d queries", len(lines), len(qs))
	}
	prevQ, prevRank, prevScore := "", 0, 0.0
	for i, l := range lines {
		f := strings.Fields(l)
		if len(f) != 6 || f[1] != "Q0" || f[5] != "bm25_and_cor" {
			t.Fatalf("line %d: %q", i+1, l)
		}
		rank, err1 := strconv.Atoi(f[3])
		score, err2 := strconv.ParseFloat(f[4], 64)
		_, err3 := strconv.Atoi(f[0])
		_, err4 := strconv.Atoi(f[2])
		if err1 != nil || err2 != nil || err3 != nil || err4 != nil {
			t.Fatalf("line %d: %q", i+1, l)
		}
		if f[0] != prevQ {
			prevQ, prevRank = f[0], 0
		} else if score > prevScore {
			t.Fatalf("line %d: scores not descending", i+1)
		}
		if rank != prevRank+1 {
			t.Fatalf("line %d: rank %d after %d", i+1, rank, prevRank)
		}
		prevRank, prevScore = rank, score
	}
	// eval --run reads the TREC run back: cut at 10, its Hit@1 and Hit@5
	// are the pipeline's.
	js, e, code = run(t, "eval", ws, "--run", trec, "--pipeline", pfile, "--split", "test", "--json")
	if code != 0 {
		t.Fatalf("eval --run TREC: %s", e)
	}
	var fromTREC, direct eval.Summary
	rows := strings.Split(strings.TrimSpace(js), "\n")
	if len(rows) != 2 || json.Unmarshal([]byte(rows[0]), &direct) != nil || json.Unmarshal([]byte(rows[1]), &fromTREC) != nil {
		t.Fatalf("eval --run --pipeline: %q", js)
	}
	if fromTREC.N != len(qs) || fromTREC.Hit1 != direct.Hit1 || fromTREC.Hit5 != direct.Hit5 {
		t.Errorf("eval --run of the TREC run %+v, of the pipeline %+v", fromTREC, direct)
	}
	// Kill and restart: stop after one chunk, leave a torn write, rerun.
	p, err := pipeline.ReadPipeline(pfile)
	if err != nil {
		t.Fatal(err)
	}
	r, err := p.Compile(infer.NewEnv(context.Background(), w))
	if err != nil {
		t.Fatal(err)
	}
	killed := filepath.Join(dir, "killed.trec")
	if _, err := serve.ScoreFile(t.Context(), w, r, qfile, killed, serve.ScoreOptions{Format: "trec", TopK: 10, Chunk: 7, StopAfter: 2}); err == nil {
		t.Fatal("the test hook did not stop the run")
	}
	f, _ := os.OpenFile(killed, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString("41 Q0 12")
	f.Close()
	if _, e, code := run(t, "score", ws, "--pipeline", pfile, "--queries", qfile, "--out", killed, "--format", "trec", "-k", "10"); code != 0 {
		t.Fatalf("restarted score: %s", e)
	}
	kb, _ := os.ReadFile(killed)
	if !bytes.Equal(kb, tb) {
		t.Error("a killed and restarted run differs from an uninterrupted one")
	}
	if _, err := os.Stat(killed + ".progress"); !os.IsNotExist(err) {
		t.Error("the progress file was left behind")
	}
	// A bundle of the run scores exactly as the run directory does, is
	// deterministic, and is refused on other data.
	tarA, tarB := filepath.Join(dir, "a.tar"), filepath.Join(dir, "b.tar")
	for _, tp := range []string{tarA, tarB} {
		if _, e, code := run(t, "bundle", ws, "--pipeline", runDir, "--out", tp); code != 0 {
			t.Fatalf("bundle: %s", e)
		}
	}
	ab, _ := os.ReadFile(tarA)
	bb, _ := os.ReadFile(tarB)
	if !bytes.Equal(ab, bb) {
		t.Error("two bundles of the same run differ")
	}
	fromTar := filepath.Join(dir, "bundle.jsonl")
	if _, e, code := run(t, "score", ws, "--pipeline", tarA, "--queries", qfile, "--out", fromTar, "-k", "100000", "--stages"); code != 0 {
		t.Fatalf("score with bundle: %s", e)
	}
	fb, _ := os.ReadFile(fromTar)
	ob, _ := os.ReadFile(out)
	if !bytes.Equal(fb, ob) {
		t.Error("scoring with the bundle differs from scoring with the run directory")
	}
	other := filepath.Join(dir, "other")
	run(t, "gen", "--preset", "mag", "--nodes", "400", "--queries", "20", "--seed", "8", "--out", other+"-skb")
	run(t, "import", "--in", other+"-skb", "--out", other)
	if _, e, code := run(t, "score", other, "--pipeline", tarA, "--queries", qfile, "--out", filepath.Join(dir, "x.jsonl")); code != 1 || !strings.Contains(e, "the bundle was made for other data") {
		t.Errorf("bundle on other data: %d %q", code, e)
	}
	// A finished output is not overwritten without --force.
	if _, e, code := run(t, "score", ws, "--pipeline", pfile, "--queries", qfile, "--out", killed, "--format", "trec"); code != 1 || !strings.Contains(e, "--force") {
		t.Errorf("rerun over a finished output: %d %q", code, e)
	}
}

// TestExportRerankerData writes stage-3 records from a BM25 ranking and
// checks them against the ranking and the gold answers.
func TestExportRerankerData(t *testing.T) {
	dir := t.TempDir()
	skbDir, wsDir := filepath.Join(dir, "skb"), filepath.Join(dir, "ws")
	if _, e, code := run(t, "gen", "--preset", "amazon", "--nodes", "800", "--queries", "50", "--seed", "2", "--out", skbDir); code != 0 {
		t.Fatalf("gen: %s", e)
	}
	if _, e, code := run(t, "import", "--in", skbDir, "--out", wsDir); code != 0 {
		t.Fatalf("import: %s", e)
	}
	out := filepath.Join(dir, "rr.jsonl")
	if _, e, code := run(t, "export", "reranker-data", wsDir, "--model", "bm25", "--split", "train", "--pool", "40", "--hard", "5", "--out", out); code != 0 {
		t.Fatalf("export reranker-data: %s", e)
	}
	ws, err := workspace.Load(wsDir)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	b, _ := os.ReadFile(out)
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) != 30 { // 60% of 50
		t.Fatalf("%d records", len(lines))
	}
	for _, l := range lines {
		var rec struct {
			QID       int      `json:"q_id"`
			Pool      []uint32 `json:"pool"`
			Positives []struct {
				ID   uint32 `json:"id"`
				Text string `json:"text"`
			} `json:"positives"`
			Negatives []struct {
				ID   uint32 `json:"id"`
				Rank int    `json:"rank"`
			} `json:"negatives"`
		}
		if err := json.Unmarshal([]byte(l), &rec); err != nil {
			t.Fatal(err)
		}
		q, _ := ws.SKB.QA.ByID(rec.QID)
		hits := ws.SearchDoc(q.Text, 40)
		if len(rec.Pool) != len(hits) || len(rec.Positives) != len(q.Answers) || len(rec.Negatives) > 5 {
			t.Fatalf("query %d: pool %d (bm25 %d), positives %d of %d, negatives %d", rec.QID, len(rec.Pool), len(hits), len(rec.Positives), len(q.Answers), len(rec.Negatives))
		}
		want := "[Type] product\n[name] " + ws.SKB.Nodes[rec.Positives[0].ID].Name + "\n[title] "
		if !strings.HasPrefix(rec.Positives[0].Text, want) {
			t.Fatalf("serialization %q", rec.Positives[0].Text)
		}
		for _, n := range rec.Negatives {
			if slices.Contains(q.Answers, n.ID) || rec.Pool[n.Rank-1] != n.ID {
				t.Fatalf("query %d: negative %+v", rec.QID, n)
			}
		}
	}
}

// TestLLMRerankerPipeline runs the stage-3 LLM reranker end to end on a
// small generated benchmark: records from a BM25 ranking, a random tiny
// Qwen3 base, LoRA fine-tuning, merge, ONNX export with BM25 as the first
// stage, and evaluation through ONNX Runtime; the merged model's ONNX
// scores must equal the native adapted model's.
func TestLLMRerankerPipeline(t *testing.T) {
	tokPath, ok := bpe.Qwen3Path()
	if !ok {
		t.Skip("Qwen3 tokenizer.json absent: run make test")
	}
	if err := onnx.Init(); err != nil {
		t.Skip(err)
	}
	dir := t.TempDir()
	skbDir, wsDir := filepath.Join(dir, "skb"), filepath.Join(dir, "ws")
	if _, e, code := run(t, "gen", "--preset", "amazon", "--nodes", "600", "--queries", "40", "--seed", "4", "--out", skbDir); code != 0 {
		t.Fatalf("gen: %s", e)
	}
	if _, e, code := run(t, "import", "--in", skbDir, "--out", wsDir); code != 0 {
		t.Fatalf("import: %s", e)
	}
	recs := filepath.Join(dir, "train.jsonl")
	if _, e, code := run(t, "export", "reranker-data", wsDir, "--model", "bm25", "--split", "train", "--pool", "20", "--hard", "6", "--field-tokens", "16", "--out", recs); code != 0 {
		t.Fatalf("export reranker-data: %s", e)
	}
	base := filepath.Join(dir, "base")
	if _, e, code := run(t, "init-qwen3", "--tokenizer", tokPath, "--out", base, "--layers", "1", "--hidden", "16", "--intermediate", "32",
		"--heads", "2", "--kv-heads", "1", "--head-dim", "8", "--max-positions", "128"); code != 0 {
		t.Fatalf("init-qwen3: %s", e)
	}
	runDir := filepath.Join(dir, "llm")
	if _, e, code := run(t, "train", "llm-reranker", wsDir, "--base", base, "--records", recs, "--val-records", recs, "--out", runDir,
		"--epochs", "1", "--batch", "8", "--group", "4", "--max-len", "96", "--rank", "4", "--alpha", "8", "--lr", "1e-2", "--instruction", "Judge the product"); code != 0 {
		t.Fatalf("train llm-reranker: %s", e)
	}
	merged := filepath.Join(dir, "merged")
	if _, e, code := run(t, "merge-lora", "--base", base, "--adapters", runDir, "--out", merged); code != 0 {
		t.Fatalf("merge-lora: %s", e)
	}
	// The adapters know their base: merging them into the merged model (a
	// second time), or resuming their training on it, is refused.
	if _, e, code := run(t, "merge-lora", "--base", merged, "--adapters", runDir, "--out", filepath.Join(dir, "twice")); code != 1 || !strings.Contains(e, "the adapters were trained on another base") {
		t.Errorf("merging twice: exit %d, %q", code, e)
	}
	if _, e, code := run(t, "train", "llm-reranker", wsDir, "--base", merged, "--records", recs, "--val-records", recs, "--out", runDir, "--resume",
		"--epochs", "1", "--batch", "8", "--group", "4", "--max-len", "96", "--rank", "4", "--alpha", "8", "--lr", "1e-2", "--instruction", "Judge the product"); code != 1 || !strings.Contains(e, "model base_sha256: run") {
		t.Errorf("resuming on another base: exit %d, %q", code, e)
	}
	onnxDir := filepath.Join(dir, "onnx")
	if _, e, code := run(t, "export", "onnx", "--model", merged, "--out", onnxDir, "--first-stage", "bm25", "--max-len", "96", "--top-n", "5", "--instruction", "Judge the product"); code != 0 {
		t.Fatalf("export onnx: %s", e)
	}
	out, e, code := run(t, "eval", wsDir, "--model", onnxDir, "--split", "test", "--json")
	if code != 0 {
		t.Fatalf("eval llm reranker: %s", e)
	}
	var s map[string]any
	json.Unmarshal([]byte(out), &s)
	if s["n"].(float64) != 8 {
		t.Errorf("eval %s", out)
	}
	// ONNX Runtime on the merged model = the native adapted model.
	ws, err := workspace.Load(wsDir)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	m, err := registry.Load(infer.NewEnv(context.Background(), ws), onnxDir)
	if err != nil {
		t.Fatal(err)
	}
	lr := m.(*llmrerank.LLMReranker)
	bm, _ := llmrerank.LoadQwen3Dir(base)
	l, _, err := llmrerank.LoadLoRA(bm, runDir)
	if err != nil {
		t.Fatal(err)
	}
	q := ws.SKB.QA.Queries[0]
	ids, _ := lr.P.IDs(q.Text, "[product] a test document")
	got, err := lr.Score(t.Context(), [][]int{ids})
	if err != nil {
		t.Fatal(err)
	}
	tok, _ := bpe.Load(tokPath)
	yes, _ := tok.ID("yes")
	no, _ := tok.ID("no")
	z := l.YesNo(ids, yes, no)
	want := 1 / (1 + math.Exp(-float64(z)))
	if math.Abs(float64(got[0])-want) > 1e-4 {
		t.Errorf("ONNX score %v, native adapted %v", got[0], want)
	}
}

// A workspace with questions and answers only: the plan-based trainers stop
// with a message that says what to do, a plan-based method says loudly that
// it fell back to BM25 for every query, and after mine-plans the planner
// trains from the mined plans and says so.
func TestNoPlansSaysSo(t *testing.T) {
	dir := t.TempDir()
	skbDir, wsDir := filepath.Join(dir, "skb"), filepath.Join(dir, "ws")
	if _, e, code := run(t, "gen", "--preset", "prime", "--nodes", "600", "--queries", "60", "--seed", "5", "--out", skbDir); code != 0 {
		t.Fatalf("gen: %s", e)
	}
	if err := os.Remove(filepath.Join(skbDir, data.PlansFile)); err != nil {
		t.Fatal(err)
	}
	if _, e, code := run(t, "import", "--in", skbDir, "--out", wsDir); code != 0 {
		t.Fatalf("import: %s", e)
	}
	for _, what := range []string{"planner", "mor"} {
		_, e, code := run(t, "train", what, wsDir, "--epochs", "1")
		if code != 1 || !strings.Contains(e, "this workspace has neither plans nor mined plans") || !strings.Contains(e, "strata mine-plans "+wsDir) {
			t.Errorf("train %s without plans: exit %d, %q", what, code, e)
		}
	}
	_, e, code := run(t, "eval", wsDir, "--method", "mor-traversal", "--split", "test")
	qa, err := data.ReadSKBDir(skbDir)
	if err != nil {
		t.Fatal(err)
	}
	n := len(qa.QA.Splits["test"])
	if want := fmt.Sprintf("WARNING: mor-traversal on test: %d of %d queries (100%%) got no plan that fits or none usable and were answered by bm25", n, n); code != 0 || !strings.Contains(e, want) {
		t.Errorf("eval mor-traversal without plans: exit %d, %q, want %q", code, e, want)
	}
	if _, e, code := run(t, "mine-plans", wsDir); code != 0 {
		t.Fatalf("mine-plans: %s", e)
	}
	out, e, code := run(t, "train", "planner", wsDir, "--epochs", "1")
	if code != 0 || !strings.Contains(out+e, "training from mined plans") {
		t.Errorf("train planner after mine-plans: exit %d, %q %q", code, out, e)
	}
	// With a dense channel, a planner from mined plans reads the query
	// vector only with --dense: the default planner is the one trained
	// without the channel, to the byte.
	plain, err := os.ReadFile(filepath.Join(wsDir, "runs", "planner", "best", "model.safetensors"))
	if err != nil {
		t.Fatal(err)
	}
	if _, e, code := run(t, "train", "encoder", wsDir, "--epochs", "1"); code != 0 {
		t.Fatalf("train encoder: %s", e)
	}
	for _, c := range []struct {
		flags []string
		dim   int
	}{{nil, 0}, {[]string{"--dense"}, 128}} {
		dir := filepath.Join(wsDir, "runs", fmt.Sprintf("planner-%d", c.dim))
		args := append([]string{"train", "planner", wsDir, "--epochs", "1", "--out", dir}, c.flags...)
		if _, e, code := run(t, args...); code != 0 {
			t.Fatalf("train planner %v: %s", c.flags, e)
		}
		var m struct {
			Config struct {
				Model struct {
					QueryDim int `json:"query_dim"`
				} `json:"model"`
			} `json:"config"`
		}
		b, err := os.ReadFile(filepath.Join(dir, "best", "manifest.json"))
		if err == nil {
			err = json.Unmarshal(b, &m)
		}
		if err != nil || m.Config.Model.QueryDim != c.dim {
			t.Errorf("train planner %v with an encoder: query_dim %d (%v), want %d", c.flags, m.Config.Model.QueryDim, err, c.dim)
		}
		if c.dim == 0 {
			if got, _ := os.ReadFile(filepath.Join(dir, "best", "model.safetensors")); !bytes.Equal(got, plain) {
				t.Errorf("train planner with an encoder: the model differs from the one trained without it")
			}
		}
	}
}

// TestMissingArgsNameUsage: a command run without its WORKSPACE says
// which argument it takes, not only "accepts 1 arg(s)" (issue 37).
func TestMissingArgsNameUsage(t *testing.T) {
	for args, want := range map[string]string{
		"eval":          "usage: strata eval WORKSPACE",
		"train planner": "usage: strata train planner WORKSPACE",
		"explain":       "usage: strata explain WORKSPACE --model",
		"score":         "usage: strata score WORKSPACE",
	} {
		_, stderr, code := run(t, strings.Fields(args)...)
		if code == 0 || !strings.Contains(stderr, "accepts 1 arg(s), received 0") || !strings.Contains(stderr, want) {
			t.Errorf("strata %s: exit %d, stderr %q; want an error with %q", args, code, stderr, want)
		}
	}
}

// TestTrainersStopEarlyByDefault: every trainer stops after 3 checkpoints
// without a better validation metric unless told otherwise, the planner
// after 6, and KGQA (whose validation still rises late) runs every epoch (issue 37 item 8: trainers ran every epoch after validation
// peaked); train/TestTrainLearnsAndStopsEarly holds what patience does.
func TestTrainersStopEarlyByDefault(t *testing.T) {
	for _, c := range []struct{ trainer, want string }{
		{"encoder", "3"}, {"cor", "3"}, {"mfar", "3"}, {"mor", "3"}, {"kgqa", "0"}, {"llm-reranker", "3"}, {"planner", "6"},
	} {
		cmd, _, err := newRoot(&ui{out: io.Discard, err: io.Discard}).Find([]string{"train", c.trainer})
		if err != nil {
			t.Fatal(err)
		}
		f := cmd.Flags().Lookup("patience")
		if f == nil || f.DefValue != c.want || f.Value.String() != c.want {
			t.Errorf("train %s: --patience %v, want default %s", c.trainer, f, c.want)
		}
	}
}

// TestThrottledLog: off a terminal, trainers' progress lines reach stderr
// at most one per interval, the first after one interval (issue 37 item 8:
// a long training said nothing until its end).
func TestThrottledLog(t *testing.T) {
	var out bytes.Buffer
	t0 := time.Unix(1000, 0)
	clock := t0
	tl := &throttledLines{w: &out, every: 15 * time.Second, last: t0, now: func() time.Time { return clock }}
	for _, step := range []struct {
		at   time.Duration
		text string
	}{
		{0, "step 1\n"},                    // too soon after the start
		{16 * time.Second, "step 2\n"},     // passed
		{20 * time.Second, "step 3\n"},     // too soon
		{31 * time.Second, "bar 10%\rbar"}, // passed; "bar" waits for its end
		{50 * time.Second, " 20%\n\n"},     // passed, the blank line dropped
	} {
		clock = t0.Add(step.at)
		fmt.Fprint(tl, step.text)
	}
	if want := "step 2\nbar 10%\nbar 20%\n"; out.String() != want {
		t.Errorf("passed on %q, want %q", out.String(), want)
	}
}

// TestCounterOffTerminal: off a terminal a counted step (mine-plans, eval)
// writes a line when 15 s have passed since the start or its last line,
// with rate and time left, and nothing for a short step (a 4-minute
// mine-plans on a graph with hubs said nothing before).
func TestCounterOffTerminal(t *testing.T) {
	var errb bytes.Buffer
	t0 := time.Unix(1000, 0)
	clock := t0
	u := &ui{out: io.Discard, err: &errb, clock: func() time.Time { return clock }}
	prog, finish := u.counter(100, "mining plans")
	for _, s := range []struct {
		at   time.Duration
		done int
	}{{5 * time.Second, 10}, {16 * time.Second, 20}, {20 * time.Second, 40}, {32 * time.Second, 80}, {33 * time.Second, 100}} {
		clock = t0.Add(s.at)
		prog(s.done, 100)
	}
	finish()
	// 20 in 16 s: 1.25/s, 80 left = 64 s; 80 in 32 s: 2.5/s, 20 left = 8 s.
	want := "mining plans: 20 of 100 (1.2/s, 16s, about 1m4s left)\nmining plans: 80 of 100 (2.5/s, 32s, about 8s left)\n"
	if errb.String() != want {
		t.Errorf("wrote %q, want %q", errb.String(), want)
	}
	u.quiet = true
	errb.Reset()
	prog, _ = u.counter(100, "quiet")
	clock = clock.Add(time.Minute)
	prog(50, 100)
	if errb.Len() != 0 {
		t.Errorf("STRATA_NO_PROGRESS wrote %q", errb.String())
	}
}

// TestServeRefusesZeroBounds: a bound typed as 0 is refused, naming the
// flag, before anything loads (serve.Config reads 0 as its default: 30 s
// for "--timeout 0").
func TestServeRefusesZeroBounds(t *testing.T) {
	for _, flag := range []string{"--max-body", "--max-query", "--max-k", "--concurrency", "--timeout", "--read-timeout", "--idle-timeout"} {
		if _, e, code := run(t, "serve", t.TempDir(), "--pipeline", "p.json", flag, "0"); code != 1 || !strings.Contains(e, flag+" 0: want more than 0") {
			t.Errorf("serve %s 0: exit %d, %q", flag, code, e)
		}
	}
}
