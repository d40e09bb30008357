package infer_test

import (
	"context"
	"errors"
	"math"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/data/index"
	"github.com/strata-retrieval/strata/graphops/workspace"
	"github.com/strata-retrieval/strata/infer"
	"github.com/strata-retrieval/strata/infer/onnx"
	"github.com/strata-retrieval/strata/infer/onnx/onnxtest"
)

// tinySKB has node names and documents in the tiny encoder's vocabulary.
func tinySKB(t *testing.T) *workspace.Workspace {
	skb := &data.SKB{Schema: data.Schema{Format: data.FormatSKBDir, NodeTypes: []string{"movie", "topic"}, RelationTypes: []string{"about"},
		CandidateTypes: []string{"movie"}, TextFields: []string{"details"}}}
	skb.Nodes = []data.Node{
		{Type: 0, Name: "heat", Fields: []string{"a movie directed by who"}},
		{Type: 0, Name: "the movies", Fields: []string{"heat heat heat"}},
		{Type: 1, Name: "kg graph", Fields: []string{"graph retrieval"}},
		{Type: 1, Name: "a b", Fields: []string{""}},
	}
	skb.Edges.Add(0, 0, 2)
	skb.Edges.Add(1, 0, 3)
	ws, err := workspace.Build(context.Background(), skb, nil, workspace.Config{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	return ws
}

func cos(a, b []float32) float64 {
	var s float64
	for i := range a {
		s += float64(a[i]) * float64(b[i])
	}
	return s
}

// TestTextSpaceONNX: an ONNX encoder's space encodes every document once
// when the workspace has no dense channel, reuses the channel's vectors
// when they are this model's (imported), and re-encodes when they are
// not; names are encoded on first use.
func TestTextSpaceONNX(t *testing.T) {
	onnxtest.NeedORT(t)
	dir := t.TempDir()
	onnxtest.WriteTinyEncoder(t, dir, 6)
	ws := tinySKB(t)
	enc, err := onnx.LoadEncoder(dir, onnx.EncoderConfig{})
	if err != nil {
		t.Fatal(err)
	}
	defer enc.Close()
	want := index.NewMatrix(len(ws.SKB.Nodes), 6)
	for v := range ws.SKB.Nodes {
		x, err := enc.EncodeTexts([]string{ws.SKB.Document(uint32(v))})
		if err != nil {
			t.Fatal(err)
		}
		copy(want.Row(v), x)
	}
	env := infer.NewEnv(context.Background(), ws)
	s, err := env.TextSpace(dir)
	if err != nil {
		t.Fatal(err)
	}
	for v := range ws.SKB.Nodes {
		if c := cos(s.Docs.Row(v), want.Row(v)); math.Abs(c-1) > 1e-5 {
			t.Errorf("node %d: document vector cosine %v with the encoder's", v, c)
		}
	}
	names, err := s.Names(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	heat, _ := enc.EncodeTexts([]string{"heat"})
	if c := cos(names.Row(0), heat); math.Abs(c-1) > 1e-5 {
		t.Errorf("name vector of heat: cosine %v", c)
	}
	if s2, _ := env.TextSpace(dir); s2 != s {
		t.Error("the space was built twice in one environment")
	}

	// The model's own vectors imported as the dense channel are reused.
	d := &infer.DenseChannel{Meta: infer.DenseMeta{Source: "imported", Dim: 6}, Docs: want}
	env = infer.NewEnv(context.Background(), ws)
	env.SetDense(d)
	if s, err = env.TextSpace(dir); err != nil || s.Docs != d.Docs {
		t.Errorf("imported vectors of the same model were not reused (%v)", err)
	}
	// Other vectors of the same dimension are not.
	other := index.NewMatrix(len(ws.SKB.Nodes), 6)
	for i := range other.Data {
		other.Data[i] = float32(i%5) - 2
	}
	other.NormalizeRows()
	env = infer.NewEnv(context.Background(), ws)
	env.SetDense(&infer.DenseChannel{Meta: infer.DenseMeta{Source: "imported", Dim: 6}, Docs: other})
	if s, err = env.TextSpace(dir); err != nil || s.Docs == other || math.Abs(cos(s.Docs.Row(1), want.Row(1))-1) > 1e-5 {
		t.Errorf("foreign vectors were taken for the model's (%v)", err)
	}
}

// TestTextSpaceImported: imported vectors without an encoder cannot
// encode text; queries get their imported vectors.
func TestTextSpaceImported(t *testing.T) {
	ws := tinySKB(t)
	docs := index.NewMatrix(len(ws.SKB.Nodes), 3)
	for i := range docs.Data {
		docs.Data[i] = float32(i%3) + 1
	}
	q := index.NewMatrix(1, 3)
	q.Data = []float32{0, 0, 1}
	d := &infer.DenseChannel{Meta: infer.DenseMeta{Source: "imported", Dim: 3}, Docs: docs, Queries: &data.Embeddings{M: q, Present: []bool{true}}}
	s := infer.DenseSpace(d, ws.SKB)
	if _, err := s.Encode([]string{"heat"}); !errors.Is(err, infer.ErrNoEncoder) {
		t.Errorf("encode: %v", err)
	}
	if _, err := s.Names(context.Background()); !errors.Is(err, infer.ErrNoEncoder) {
		t.Errorf("names: %v", err)
	}
	if v, err := s.QueryVector(data.Query{ID: 0, Text: "heat"}); err != nil || v[2] != 1 {
		t.Errorf("query vector %v %v", v, err)
	}
}

// TestTextSpaceInsideRoot: a bundle's environment opens no encoder outside
// itself.
func TestTextSpaceInsideRoot(t *testing.T) {
	ws := tinySKB(t)
	env := infer.NewEnv(context.Background(), ws)
	env.Root = t.TempDir()
	if _, err := env.TextSpace(t.TempDir()); !errors.Is(err, infer.ErrOutsideRoot) {
		t.Errorf("an encoder outside the root: %v", err)
	}
}

// TestCoreLinksNoONNXRuntime: the infer core links no cgo; ONNX Runtime
// comes in through infer/onnx, which registers its encoder loader (issue
// 38: infer/textspace.go imported infer/onnx).
func TestCoreLinksNoONNXRuntime(t *testing.T) {
	out, err := exec.Command(filepath.Join(runtime.GOROOT(), "bin", "go"), "list", "-deps", ".").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	for _, p := range strings.Fields(string(out)) {
		if strings.Contains(p, "onnxruntime") || strings.HasSuffix(p, "/infer/onnx") {
			t.Errorf("the infer core depends on %s", p)
		}
	}
}

// TestBERTDirectoryIsATextSpace: a Hugging Face BERT-family directory
// (models/testdata/bert-tiny: config.json, model.safetensors,
// tokenizer.json) opens natively as a text space, no ONNX Runtime needed:
// every node's document encoded by the directory's model, and a query
// encoded the same way.
func TestBERTDirectoryIsATextSpace(t *testing.T) {
	ws := tinySKB(t)
	env := infer.NewEnv(context.Background(), ws)
	dir, err := filepath.Abs(filepath.Join("..", "models", "testdata", "bert-tiny"))
	if err != nil {
		t.Fatal(err)
	}
	s, err := env.TextSpace(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(s.Source, "BERT encoder ") || s.Dim() != 32 || s.Docs.Rows != 4 {
		t.Fatalf("source %q, dim %d, %d document rows; want a BERT encoder, 32, 4", s.Source, s.Dim(), s.Docs.Rows)
	}
	for v := range 4 {
		want, err := s.Encode([]string{ws.SKB.Document(uint32(v))})
		if err != nil {
			t.Fatal(err)
		}
		for j, x := range s.Docs.Row(v) {
			if math.Abs(float64(x-want[j])) > 1e-6 {
				t.Fatalf("node %d's document vector [%d] %v, the encoder gives %v", v, j, x, want[j])
			}
		}
	}
}
