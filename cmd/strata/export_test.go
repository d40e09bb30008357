package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-retrieval/strata/graphops/workspace"
)

// TestExportSplitNames: MetaQA's per-file reachable splits
// ("1-hop-dev/test-reachable") export as nested directories below
// --out/split/ and import back to the same workspace; a split name that
// would leave --out is refused at import.
func TestExportSplitNames(t *testing.T) {
	dir := t.TempDir()
	mq := filepath.Join(dir, "MetaQA")
	os.MkdirAll(filepath.Join(mq, "1-hop"), 0o755)
	os.WriteFile(filepath.Join(mq, "kb.txt"), []byte("Movie A|directed_by|Ann\nMovie B|directed_by|Bob\n"), 0o644)
	var qs, qt strings.Builder
	for i := range 10 {
		if i%2 == 0 {
			qs.WriteString("who directed [Movie A]\tAnn\n")
		} else {
			qs.WriteString("who directed [Movie B]\tBob\n")
		}
		qt.WriteString("movie_to_director\n")
	}
	os.WriteFile(filepath.Join(mq, "1-hop", "qa_dev.txt"), []byte(qs.String()), 0o644)
	os.WriteFile(filepath.Join(mq, "1-hop", "qa_dev_qtype.txt"), []byte(qt.String()), 0o644)
	ws := filepath.Join(dir, "ws")
	if _, e, code := run(t, "import", "--format", "triples", "--in", mq, "--out", ws); code != 0 {
		t.Fatalf("import: %s", e)
	}
	w, err := workspace.Load(ws)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	// Positions 8 and 9 of every ten are test; both are reachable.
	if got := w.SKB.QA.Splits["1-hop-dev/test-reachable"]; !cmp.Equal(got, []int{8, 9}) {
		t.Fatalf("1-hop-dev/test-reachable = %v, want [8 9]", got)
	}
	out := filepath.Join(dir, "exported")
	if _, e, code := run(t, "export", ws, "--out", out); code != 0 {
		t.Fatalf("export: %s", e)
	}
	if b, err := os.ReadFile(filepath.Join(out, "split", "1-hop-dev", "test-reachable.index")); err != nil || string(b) != "8\n9\n" {
		t.Errorf("split/1-hop-dev/test-reachable.index: %q, %v", b, err)
	}
	ws2 := filepath.Join(dir, "ws2")
	if _, e, code := run(t, "import", "--in", out, "--out", ws2); code != 0 {
		t.Fatalf("import of the export: %s", e)
	}
	w2, err := workspace.Load(ws2)
	if err != nil {
		t.Fatal(err)
	}
	defer w2.Close()
	if d := cmp.Diff(w.SKB.QA.Splits, w2.SKB.QA.Splits); d != "" || w.Fingerprint != w2.Fingerprint {
		t.Errorf("export and import changed the workspace (fingerprints %s, %s); splits (-before +after):\n%s", w.Fingerprint, w2.Fingerprint, d)
	}

	// --kgqa FILE:../../ESC is refused before anything is read or written.
	q := filepath.Join(mq, "1-hop", "qa_dev.txt")
	_, e, code := run(t, "import", "--format", "triples", "--in", filepath.Join(mq, "kb.txt"), "--kgqa", q+":../../ESC", "--out", filepath.Join(dir, "ws3"))
	if code != 1 || !strings.Contains(e, q+`:../../ESC: split name "../../ESC": malformed value: path component ".."`) {
		t.Errorf("--kgqa FILE:../../ESC: %d %q", code, e)
	}
	if _, err := os.Stat(filepath.Join(dir, "ws3")); !os.IsNotExist(err) {
		t.Error("the refused import wrote its workspace")
	}
}
