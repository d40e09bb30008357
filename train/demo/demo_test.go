package demo

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A demo replaces only what an earlier demo wrote: an absent or empty
// directory, or one holding the demo's marker; a directory of the user's
// own, a real workspace or skbdir included, is refused and left as it was.
func TestReplaceable(t *testing.T) {
	dir := t.TempDir()
	if err := replaceable(filepath.Join(dir, "absent")); err != nil {
		t.Errorf("absent: %v", err)
	}
	empty := filepath.Join(dir, "empty")
	os.Mkdir(empty, 0o755)
	if err := replaceable(empty); err != nil {
		t.Errorf("empty: %v", err)
	}
	ours := filepath.Join(dir, "ours")
	os.Mkdir(ours, 0o755)
	os.WriteFile(filepath.Join(ours, "workspace.snap"), []byte("x"), 0o644)
	if err := markDemo(ours); err != nil {
		t.Fatal(err)
	}
	if err := replaceable(ours); err != nil {
		t.Errorf("an earlier demo's workspace: %v", err)
	}
	for name, file := range map[string]string{"workspace": "workspace.snap", "skbdir": "schema.json", "other": "thesis.tex"} {
		theirs := filepath.Join(dir, name)
		os.Mkdir(theirs, 0o755)
		keep := filepath.Join(theirs, file)
		os.WriteFile(keep, []byte("mine"), 0o644)
		err := replaceable(theirs)
		if err == nil || !strings.Contains(err.Error(), "was not written by a demo") || !strings.Contains(err.Error(), theirs) {
			t.Errorf("a user's %s: %v", name, err)
		}
		if b, err := os.ReadFile(keep); err != nil || string(b) != "mine" {
			t.Errorf("the user's %s: %q, %v", file, b, err)
		}
	}
}
