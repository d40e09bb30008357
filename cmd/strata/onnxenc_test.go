package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strata-retrieval/strata/data/index"
	"github.com/strata-retrieval/strata/eval"
	"github.com/strata-retrieval/strata/graphops/workspace"
	"github.com/strata-retrieval/strata/infer"
	"github.com/strata-retrieval/strata/infer/onnx"
	"github.com/strata-retrieval/strata/infer/onnx/onnxtest"
	"github.com/strata-retrieval/strata/infer/simgrag"
)

// An ONNX sentence encoder is a text space for GRASP's anchor linking and
// SimGRAG's matching, on a workspace with no dense channel at all: eval
// --method simgrag --onnx-encoder scores exactly what SimGRAG scores over a
// text space built by hand from the same encoder, without the flag it says
// what it lacks, and train grasp --onnx-encoder fits and evaluates.
func TestONNXEncoderEverywhere(t *testing.T) {
	onnxtest.NeedORT(t)
	dir := t.TempDir()
	enc := filepath.Join(dir, "enc")
	if err := os.Mkdir(enc, 0o755); err != nil {
		t.Fatal(err)
	}
	onnxtest.WriteTinyEncoder(t, enc, 8)
	skbDir, wsDir := filepath.Join(dir, "skb"), filepath.Join(dir, "ws")
	if _, e, code := run(t, "gen", "--preset", "prime", "--nodes", "500", "--queries", "80", "--seed", "6", "--out", skbDir); code != 0 {
		t.Fatalf("gen: %s", e)
	}
	if _, e, code := run(t, "import", "--in", skbDir, "--out", wsDir); code != 0 {
		t.Fatalf("import: %s", e)
	}
	if _, e, code := run(t, "eval", wsDir, "--method", "simgrag", "--split", "test"); code == 0 || !strings.Contains(e, "dense") {
		t.Errorf("simgrag with no encoder: exit %d, %q", code, e)
	}
	out, e, code := run(t, "eval", wsDir, "--method", "simgrag", "--split", "test", "--onnx-encoder", enc, "--json")
	if code != 0 {
		t.Fatalf("eval simgrag --onnx-encoder: %s", e)
	}
	var got eval.Summary
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v: %q", err, out)
	}
	// The same ranking over a space built from the encoder by hand.
	ws, err := workspace.Load(wsDir)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	e8, err := onnx.LoadEncoder(enc, onnx.EncoderConfig{})
	if err != nil {
		t.Fatal(err)
	}
	defer e8.Close()
	docs := index.NewMatrix(len(ws.SKB.Nodes), e8.Dim())
	for v := range ws.SKB.Nodes {
		x, err := e8.EncodeTexts([]string{ws.SKB.Document(uint32(v))})
		if err != nil {
			t.Fatal(err)
		}
		copy(docs.Row(v), x)
	}
	s, err := simgrag.New(ws, infer.NewTextSpace("onnx", e8, docs, ws.SKB), simgrag.Config{})
	if err != nil {
		t.Fatal(err)
	}
	qs, _ := ws.SKB.QA.Split("test")
	rs, err := eval.Run(context.Background(), eval.NewEvaluator(len(ws.SKB.Nodes), ws.Candidates), qs, simgrag.NewPlanned(s), eval.RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := eval.Summarize(rs)
	if got.N != len(qs) || got.N == 0 || got.N != want.N || got.Hit1 != want.Hit1 || got.MRR != want.MRR || got.Recall20 != want.Recall20 {
		t.Errorf("cli %+v, by hand %+v", got, want)
	}
	// GRASP: mFAR and the anchors in the encoder's space, the planner from
	// the generated plans.
	if _, e, code := run(t, "train", "mfar", wsDir, "--onnx-encoder", enc, "--epochs", "1"); code != 0 {
		t.Fatalf("train mfar --onnx-encoder: %s", e)
	}
	if _, e, code := run(t, "train", "planner", wsDir, "--epochs", "2"); code != 0 {
		t.Fatalf("train planner: %s", e)
	}
	out, e, code = run(t, "train", "grasp", wsDir, "--mfar", filepath.Join(wsDir, "runs", "mfar"), "--planner", filepath.Join(wsDir, "runs", "planner"), "--onnx-encoder", enc, "--json")
	if code != 0 {
		t.Fatalf("train grasp --onnx-encoder: %s", e)
	}
	// The fitted model keeps its encoder: evaluated from its run directory
	// it scores what the fit reported for the chosen fusion.
	lines := strings.Split(strings.TrimSpace(out), "\n")
	var fit struct {
		Choice string `json:"choice"`
	}
	if err := json.Unmarshal([]byte(lines[0]), &fit); err != nil {
		t.Fatal(err)
	}
	var chosen eval.Summary
	for _, l := range lines[1:] {
		var r eval.Summary
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatal(err)
		}
		if r.N != len(qs) {
			t.Errorf("row %q on %d queries, want %d", r.Method, r.N, len(qs))
		}
		if r.Method == "fused "+fit.Choice+" (w/o RR)" {
			chosen = r
		}
	}
	out, e, code = run(t, "eval", wsDir, "--model", filepath.Join(wsDir, "runs", "grasp"), "--json")
	if code != 0 {
		t.Fatalf("eval the GRASP model: %s", e)
	}
	var back eval.Summary
	if err := json.Unmarshal([]byte(out), &back); err != nil || chosen.N == 0 || back.MRR != chosen.MRR || back.Recall20 != chosen.Recall20 {
		t.Errorf("GRASP from its run %+v (%v), at the fit %+v", back, err, chosen)
	}
}
