package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/strata-retrieval/strata/checkpoints"
)

// TestImportEmbeddingsNeedsOneRowPerNode: a document matrix with a row
// short (it used to be padded with an absent last node) or transposed is
// refused, naming the file and the shape.
func TestImportEmbeddingsNeedsOneRowPerNode(t *testing.T) {
	dir := t.TempDir()
	skbDir, ws := filepath.Join(dir, "skb"), filepath.Join(dir, "ws")
	if _, e, code := run(t, "gen", "--preset", "prime", "--nodes", "300", "--queries", "10", "--seed", "1", "--out", skbDir); code != 0 {
		t.Fatal(e)
	}
	if _, e, code := run(t, "import", "--in", skbDir, "--out", ws); code != 0 {
		t.Fatal(e)
	}
	write := func(name string, rows, dim int) string {
		data := make([]float32, rows*dim)
		for i := range rows {
			data[i*dim+i%dim] = 1
		}
		p := filepath.Join(dir, name)
		if err := checkpoints.WriteFile(p, []checkpoints.Tensor{{Name: "e", Shape: []int{rows, dim}, Data: data}}, nil); err != nil {
			t.Fatal(err)
		}
		return p
	}
	short := write("short.safetensors", 299, 4)
	wide := write("wide.safetensors", 4, 300)
	for _, c := range []struct{ file, msg string }{
		{short, short + ": field \"shape\": malformed value: shape [299, 4]: want one row per node, [300, D]"},
		{wide, wide + ": field \"shape\": malformed value: shape [4, 300] for 300 ids: the matrix looks transposed (want [300, D])"},
	} {
		if _, e, code := run(t, "import-embeddings", ws, "--docs", c.file); code != 1 || !strings.Contains(e, c.msg) {
			t.Errorf("%s: %d %q\nwant %q", filepath.Base(c.file), code, e, c.msg)
		}
	}
	if out, e, code := run(t, "import-embeddings", ws, "--docs", write("ok.safetensors", 300, 4)); code != 0 || !strings.Contains(out, "imported 4-dimensional vectors for 300 of 300 nodes") {
		t.Errorf("300 rows: %d %q %q", code, out, e)
	}
}
