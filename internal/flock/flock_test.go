package flock

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func TestLock(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "plan9" {
		t.Skip("no advisory locks")
	}
	path := filepath.Join(t.TempDir(), "out.lock")
	unlock, err := Lock(path, "out.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	_, err = Lock(path, "out.jsonl")
	want := fmt.Sprintf("out.jsonl: another strata is writing it (process %d); lock file %s", os.Getpid(), path)
	if !errors.Is(err, ErrLocked) || err.Error() != want {
		t.Errorf("second writer: %v, want %q", err, want)
	}
	unlock()
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("the lock file is left: %v", err)
	}
	again, err := Lock(path, "out.jsonl")
	if err != nil {
		t.Fatalf("after unlock: %v", err)
	}
	again()
	if _, err := Lock(filepath.Join(t.TempDir(), "missing", "x.lock"), "x"); err == nil || !strings.Contains(err.Error(), "no such file") {
		t.Errorf("lock in a missing directory: %v", err)
	}
}
