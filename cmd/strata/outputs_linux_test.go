package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/strata-retrieval/strata/reranker/bpe"
)

// mountTmpfs mounts a tmpfs of size at a new directory (options "ro" for
// a read-only one), or skips the test where it cannot (not root, no
// tmpfs).
func mountTmpfs(t *testing.T, options string) string {
	t.Helper()
	dir := t.TempDir()
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, options); err != nil {
		t.Skipf("cannot mount a tmpfs here: %v", err)
	}
	t.Cleanup(func() { syscall.Unmount(dir, 0) })
	return dir
}

// On a full disk a replaced output keeps its old bytes; in a read-only
// directory a command fails with an error naming the path (issue 25: "a
// full disk ... read-only directory").
func TestOutputsOnFullAndReadOnlyDisks(t *testing.T) {
	full := mountTmpfs(t, "size=32m")
	ro := mountTmpfs(t, "size=64k,ro")
	dir := t.TempDir()
	skb, w := filepath.Join(dir, "skb"), filepath.Join(dir, "ws")
	run(t, "gen", "--preset", "prime", "--nodes", "400", "--queries", "60", "--seed", "4", "--out", skb)
	os.Remove(filepath.Join(skb, "plans.jsonl"))
	if _, e, code := run(t, "import", "--in", skb, "--out", w); code != 0 {
		t.Fatalf("import: %s", e)
	}
	q := filepath.Join(skb, "stark_qa", "stark_qa.csv")
	p := filepath.Join(dir, "bm25.json")
	os.WriteFile(p, []byte(`{"format": "strata-pipeline/1", "name": "bm25", "scorers": [{"method": "bm25"}]}`), 0o644)
	out, plans, tar := filepath.Join(full, "run.jsonl"), filepath.Join(full, "plans.jsonl"), filepath.Join(full, "p.tar")
	for _, args := range [][]string{
		{"score", w, "--pipeline", p, "--queries", q, "--out", out, "-k", "2"},
		{"mine-plans", w, "--out", plans},
		{"bundle", w, "--pipeline", p, "--out", tar},
	} {
		if _, e, code := run(t, args...); code != 0 {
			t.Fatalf("%v: %s", args, e)
		}
	}
	files := []string{out, plans, tar}
	// A Qwen3 base (with Qwen3's tokenizer, where make fetched it): its
	// replacement by one of another shape on a full disk must leave the
	// old checkpoint whole.
	base := filepath.Join(full, "base")
	tokPath, haveTok := bpe.Qwen3Path()
	qwen := func(hidden string, force bool) []string {
		args := []string{"init-qwen3", "--tokenizer", tokPath, "--out", base, "--layers", "1", "--hidden", hidden, "--intermediate", "32",
			"--heads", "2", "--kv-heads", "1", "--head-dim", "8", "--max-positions", "64"}
		if force {
			args = append(args, "--force")
		}
		return args
	}
	if haveTok {
		if _, e, code := run(t, qwen("16", false)...); code != 0 {
			t.Fatalf("init-qwen3: %s", e)
		}
		files = append(files, filepath.Join(base, "config.json"), filepath.Join(base, "model.safetensors"))
	}
	old := map[string][]byte{}
	for _, f := range files {
		old[f], _ = os.ReadFile(f)
	}
	// Fill the disk, then replace each output with --force.
	filler, _ := os.Create(filepath.Join(full, "filler"))
	filler.Write(make([]byte, 64<<20))
	filler.Close()
	for _, args := range [][]string{
		{"score", w, "--pipeline", p, "--queries", q, "--out", out, "-k", "50", "--force"},
		{"mine-plans", w, "--out", plans, "--force"},
		{"bundle", w, "--pipeline", p, "--out", tar, "--force"},
	} {
		if _, e, code := run(t, args...); code != 1 || !strings.Contains(e, "no space left on device") {
			t.Errorf("%v on a full disk: exit %d, %q", args[:1], code, e)
		}
	}
	if haveTok {
		if _, e, code := run(t, qwen("64", true)...); code != 1 || !strings.Contains(e, "no space left on device") {
			t.Errorf("init-qwen3 --force on a full disk: exit %d, %q", code, e)
		}
	}
	for f, b := range old {
		if now, _ := os.ReadFile(f); !bytes.Equal(now, b) {
			t.Errorf("%s changed after a failed --force on a full disk", f)
		}
	}
	for _, args := range [][]string{
		{"score", w, "--pipeline", p, "--queries", q, "--out", filepath.Join(ro, "run.jsonl")},
		{"mine-plans", w, "--out", filepath.Join(ro, "plans.jsonl")},
		{"bundle", w, "--pipeline", p, "--out", filepath.Join(ro, "p.tar")},
		{"export", w, "--out", filepath.Join(ro, "skb")},
	} {
		if _, e, code := run(t, args...); code != 1 || !strings.Contains(e, ro) || !strings.Contains(e, "read-only file system") {
			t.Errorf("%v into a read-only directory: exit %d, %q", args[:1], code, e)
		}
	}
}
