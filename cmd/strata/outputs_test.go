package main

import (
	"crypto/sha256"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/internal/flock"
)

// TestOutputsNeverDestroyInputs: every writing command refuses an output
// that is, contains or lies inside one of its inputs, --force or not, and
// an existing output without --force; each refusal names the path and
// leaves every input byte for byte as it was (issue: "an output never
// destroys an input", rows 1-6 and 14 of its table).
func TestOutputsNeverDestroyInputs(t *testing.T) {
	dir := t.TempDir()
	skb, w := filepath.Join(dir, "skb"), filepath.Join(dir, "ws")
	if _, e, code := run(t, "gen", "--preset", "prime", "--nodes", "500", "--queries", "60", "--seed", "4", "--out", skb); code != 0 {
		t.Fatalf("gen: %s", e)
	}
	os.Remove(filepath.Join(skb, data.PlansFile))
	if _, e, code := run(t, "import", "--in", skb, "--out", w); code != 0 {
		t.Fatalf("import: %s", e)
	}
	if _, e, code := run(t, "mine-plans", w); code != 0 {
		t.Fatalf("mine-plans: %s", e)
	}
	if _, e, code := run(t, "train", "planner", w, "--epochs", "1"); code != 0 {
		t.Fatalf("train planner: %s", e)
	}
	p := filepath.Join(w, "runs", "planner")
	q := filepath.Join(skb, data.StarkQAFile)
	snap := filepath.Join(w, "workspace.snap")
	ck := filepath.Join(p, "best", "model.safetensors")
	base, adapters := filepath.Join(dir, "base"), filepath.Join(dir, "adapters")
	for _, d := range []string{base, adapters} {
		os.MkdirAll(d, 0o755)
		os.WriteFile(filepath.Join(d, "model.safetensors"), []byte("weights"), 0o644)
	}
	before := digests(t, dir)
	for _, c := range []struct {
		args []string
		want string // in the error, beside the output's path
	}{
		{[]string{"export", w, "--out", w, "--force"}, "contains the workspace snapshot"},
		{[]string{"export", w, "--out", dir, "--force"}, "contains the workspace snapshot"},
		{[]string{"mine-plans", w, "--out", snap}, "is the workspace snapshot"},
		{[]string{"mine-plans", w, "--out", snap, "--force"}, "is the workspace snapshot"},
		{[]string{"mine-plans", w, "--out", q}, "exists (use --force to replace it)"},
		{[]string{"mine-plans", w}, "exists (use --force to replace it)"},
		{[]string{"bundle", w, "--pipeline", p, "--out", snap}, "is the workspace snapshot"},
		{[]string{"bundle", w, "--pipeline", p, "--out", ck, "--force"}, "lies inside the --pipeline"},
		{[]string{"bundle", w, "--pipeline", p, "--out", filepath.Join(p, "pipeline.json"), "--force"}, "lies inside the --pipeline"},
		{[]string{"bundle", w, "--pipeline", p, "--out", q}, "exists (use --force to replace it)"},
		{[]string{"score", w, "--pipeline", p, "--queries", q, "--out", snap, "--force"}, "is the workspace snapshot"},
		{[]string{"score", w, "--pipeline", p, "--queries", q, "--out", ck, "--force"}, "lies inside the --pipeline"},
		{[]string{"score", w, "--pipeline", p, "--queries", q, "--out", q, "--force"}, "is the --queries"},
		{[]string{"export", "reranker-data", w, "--model", p, "--out", snap, "--force"}, "is the workspace snapshot"},
		{[]string{"export", "reranker-data", w, "--model", p, "--out", filepath.Join(p, "best", "manifest.json"), "--force"}, "lies inside the --model"},
		{[]string{"merge-lora", "--base", base, "--adapters", adapters, "--out", base}, "is the --base"},
		{[]string{"merge-lora", "--base", base, "--adapters", adapters, "--out", dir}, "contains the --base"},
		{[]string{"import", "--in", skb, "--out", skb, "--force"}, "is the input"},
		{[]string{"import", "--in", skb, "--out", dir, "--force"}, "contains the input"},
		{[]string{"train", "mor", w, "--planner", filepath.Join(p, "best"), "--out", p}, "contains the input"},
		{[]string{"train", "planner", w, "--mined", filepath.Join(w, "mined-plans.jsonl"), "--out", filepath.Join(w, "mined-plans.jsonl")}, "is the input"},
		{[]string{"curves", w, "--run", p, "--out", filepath.Join(p, "best")}, "lies inside the checkpoint"},
	} {
		out, e, code := run(t, c.args...)
		if code != 1 || out != "" || !strings.Contains(e, c.want) {
			t.Errorf("strata %s: exit %d, out %q, err %q; want an error saying %q", strings.Join(c.args, " "), code, out, e, c.want)
		}
		if after := digests(t, dir); !equalDigests(before, after) {
			t.Fatalf("strata %s changed an input: %s", strings.Join(c.args, " "), diffDigests(before, after))
		}
	}
	// One writer at a time: while another process holds an output or a run
	// directory, a second writer fails at once, naming it, and writes
	// nothing.
	busy := filepath.Join(dir, "busy.jsonl")
	unlock, err := flock.Lock(busy+".lock", busy)
	if err != nil {
		t.Fatal(err)
	}
	if _, e, code := run(t, "score", w, "--pipeline", p, "--queries", q, "--out", busy, "--force"); code != 1 || !strings.Contains(e, "another strata is writing it") {
		t.Errorf("a second score into one output: exit %d, %q", code, e)
	}
	unlock()
	if _, err := os.Stat(busy); !os.IsNotExist(err) {
		t.Errorf("the refused writer wrote %s", busy)
	}
	unlock, err = flock.Lock(filepath.Join(p, ".lock"), p)
	if err != nil {
		t.Fatal(err)
	}
	if _, e, code := run(t, "train", "planner", w, "--epochs", "1", "--resume"); code != 1 || !strings.Contains(e, "another strata is writing it") {
		t.Errorf("a second training into one run: exit %d, %q", code, e)
	}
	unlock()
	// --force replaces a directory only when strata made it: never a
	// user's own, whatever it holds.
	mine := filepath.Join(dir, "mine")
	os.MkdirAll(mine, 0o755)
	os.WriteFile(filepath.Join(mine, "notes.txt"), []byte("mine"), 0o644)
	if _, e, code := run(t, "export", w, "--out", mine, "--force"); code != 1 || !strings.Contains(e, "was not made by strata") {
		t.Errorf("export --force over a user's directory: exit %d, %q", code, e)
	}
	for _, args := range [][]string{
		{"gen", "--preset", "prime", "--nodes", "300", "--queries", "10", "--out", mine, "--force"},
		{"import", "--in", skb, "--out", mine, "--force"},
	} {
		if _, e, code := run(t, args...); code != 1 || !strings.Contains(e, mine) {
			t.Errorf("%s --force over a user's directory: exit %d, %q", args[0], code, e)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(mine, "notes.txt")); string(b) != "mine" {
		t.Error("the user's directory changed")
	}
	if es, _ := os.ReadDir(mine); len(es) != 1 {
		t.Errorf("the user's directory holds %d entries, want its 1", len(es))
	}
	exp := filepath.Join(dir, "exp")
	for _, args := range [][]string{{"export", w, "--out", exp}, {"export", w, "--out", exp, "--force"}} {
		if _, e, code := run(t, args...); code != 0 {
			t.Errorf("%v: %s", args, e)
		}
	}
	// What is allowed still works: --force replaces a plans file and a
	// bundle; curves creates its output directory.
	if _, e, code := run(t, "mine-plans", w, "--force"); code != 0 {
		t.Errorf("mine-plans --force: %s", e)
	}
	tar := filepath.Join(dir, "p.tar")
	for _, force := range []string{"", "--force"} {
		args := []string{"bundle", w, "--pipeline", p, "--out", tar}
		if force != "" {
			args = append(args, force)
		}
		if _, e, code := run(t, args...); code != 0 {
			t.Errorf("bundle %s: %s", force, e)
		}
	}
	curves := filepath.Join(dir, "new", "curves")
	if _, e, code := run(t, "curves", w, "--run", p, "--split", "val", "--out", curves); code != 0 {
		t.Errorf("curves into a new directory: %s", e)
	} else if _, err := os.Stat(filepath.Join(curves, "curves.csv")); err != nil {
		t.Errorf("curves: %v", err)
	}
	if _, e, code := run(t, "curves", w, "--run", p, "--split", "val", "--out", curves); code != 1 || !strings.Contains(e, "curves.csv exists (use --force to replace it)") {
		t.Errorf("curves over existing curves without --force: exit %d, %q", code, e)
	}
	if _, e, code := run(t, "curves", w, "--run", p, "--split", "val", "--out", curves, "--force"); code != 0 {
		t.Errorf("curves --force: %s", e)
	}
}

// digests hashes every regular file under dir.
func digests(t *testing.T, dir string) map[string][32]byte {
	t.Helper()
	out := map[string][32]byte{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		b, err := os.ReadFile(path)
		out[path] = sha256.Sum256(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func equalDigests(a, b map[string][32]byte) bool { return diffDigests(a, b) == "" }

// diffDigests names a file that changed, appeared or vanished ("" when none).
func diffDigests(a, b map[string][32]byte) string {
	for k, v := range a {
		if w, ok := b[k]; !ok {
			return k + " vanished"
		} else if w != v {
			return k + " changed"
		}
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			return k + " appeared"
		}
	}
	return ""
}
