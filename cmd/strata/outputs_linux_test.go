package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
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
	full := mountTmpfs(t, "size=256k")
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
	old := map[string][]byte{}
	for _, f := range []string{out, plans, tar} {
		old[f], _ = os.ReadFile(f)
	}
	// Fill the disk, then replace each output with --force.
	filler, _ := os.Create(filepath.Join(full, "filler"))
	filler.Write(make([]byte, 1<<20))
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
