package demo

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A demo replaces only what an earlier demo wrote: an absent or empty
// directory, or one holding the marker file; a directory of the user's own
// is refused and left as it was.
func TestReplaceable(t *testing.T) {
	dir := t.TempDir()
	if err := replaceable(filepath.Join(dir, "absent"), "workspace.snap", "a strata workspace"); err != nil {
		t.Errorf("absent: %v", err)
	}
	empty := filepath.Join(dir, "empty")
	os.Mkdir(empty, 0o755)
	if err := replaceable(empty, "workspace.snap", "a strata workspace"); err != nil {
		t.Errorf("empty: %v", err)
	}
	ours := filepath.Join(dir, "ours")
	os.Mkdir(ours, 0o755)
	os.WriteFile(filepath.Join(ours, "workspace.snap"), []byte("x"), 0o644)
	if err := replaceable(ours, "workspace.snap", "a strata workspace"); err != nil {
		t.Errorf("an earlier demo's workspace: %v", err)
	}
	theirs := filepath.Join(dir, "theirs")
	os.Mkdir(theirs, 0o755)
	keep := filepath.Join(theirs, "thesis.tex")
	os.WriteFile(keep, []byte("mine"), 0o644)
	err := replaceable(theirs, "workspace.snap", "a strata workspace")
	if err == nil || !strings.Contains(err.Error(), "is not a strata workspace") || !strings.Contains(err.Error(), theirs) {
		t.Errorf("a user's directory: %v", err)
	}
	if b, err := os.ReadFile(keep); err != nil || string(b) != "mine" {
		t.Errorf("the user's file: %q, %v", b, err)
	}
}
