package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWriteFileKeepsOldOnError(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f")
	if err := WriteFile(p, func(w io.Writer) error { _, err := io.WriteString(w, "old"); return err }); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("boom")
	err := WriteFile(p, func(w io.Writer) error {
		io.WriteString(w, "partial new content")
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("err = %v", err)
	}
	if b, _ := os.ReadFile(p); string(b) != "old" {
		t.Errorf("content %q, want old", b)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("%d entries left, want 1 (temp file not removed)", len(entries))
	}
	if st, _ := os.Stat(p); st.Mode().Perm() != 0o644 {
		t.Errorf("mode %v, want 0644", st.Mode().Perm())
	}
}

func TestWriteDir(t *testing.T) {
	parent := t.TempDir()
	d := filepath.Join(parent, "out")
	write := func(content string) func(string) error {
		return func(tmp string) error { return os.WriteFile(filepath.Join(tmp, "x"), []byte(content), 0o644) }
	}
	if err := WriteDir(d, false, write("1")); err != nil {
		t.Fatal(err)
	}
	if err := WriteDir(d, false, write("2")); !errors.Is(err, ErrExists) {
		t.Errorf("second write without overwrite: %v", err)
	}
	if err := WriteDir(d, true, func(tmp string) error { return errors.New("fail") }); err == nil {
		t.Error("failing fn returned nil")
	}
	if b, _ := os.ReadFile(filepath.Join(d, "x")); string(b) != "1" {
		t.Errorf("after failed overwrite: %q, want 1", b)
	}
	if err := WriteDir(d, true, write("3")); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(d, "x")); string(b) != "3" {
		t.Errorf("after overwrite: %q, want 3", b)
	}
	if st, _ := os.Stat(d); st.Mode().Perm() != 0o755 {
		t.Errorf("directory mode %v, want 0755", st.Mode().Perm())
	}
	if entries, _ := os.ReadDir(parent); len(entries) != 1 {
		t.Errorf("%d entries in parent, want 1", len(entries))
	}
	// A user's directory (no Marker) is never replaced, --force or not; an
	// empty one is used.
	mine := filepath.Join(parent, "mine")
	os.MkdirAll(mine, 0o755)
	os.WriteFile(filepath.Join(mine, "thesis.tex"), []byte("years"), 0o644)
	if err := WriteDir(mine, true, write("4")); !errors.Is(err, ErrNotOurs) {
		t.Errorf("overwriting a user's directory: %v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(mine, "thesis.tex")); string(b) != "years" {
		t.Error("the user's directory changed")
	}
	empty := filepath.Join(parent, "empty")
	os.MkdirAll(empty, 0o755)
	if err := WriteDir(empty, false, write("5")); err != nil {
		t.Errorf("an empty directory: %v", err)
	}
}

// A killed write leaves ".NAME.tmp-DIGITS"; the next write of NAME removes
// it, and nothing else.
func TestStaleTempsRemoved(t *testing.T) {
	dir := t.TempDir()
	stale := []string{".f.tmp-123", ".f.tmp-9"}
	kept := []string{".f.tmp-12x", ".f.tmp-", "f.tmp-1", ".g.tmp-1", ".f.tmp-1.old", ".f.tmp-1-x", "f"}
	for _, n := range append(append([]string{}, stale...), kept[:len(kept)-1]...) {
		if err := os.WriteFile(filepath.Join(dir, n), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, ".d.tmp-77"), 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, ".d.tmp-77", "inner"), []byte("x"), 0o644)
	if err := WriteFile(filepath.Join(dir, "f"), func(w io.Writer) error { _, err := io.WriteString(w, "new"); return err }); err != nil {
		t.Fatal(err)
	}
	if err := WriteDir(filepath.Join(dir, "d"), false, func(string) error { return nil }); err != nil {
		t.Fatal(err)
	}
	var got []string
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		got = append(got, e.Name())
	}
	want := []string{".f.tmp-", ".f.tmp-1-x", ".f.tmp-1.old", ".f.tmp-12x", ".g.tmp-1", "d", "f", "f.tmp-1"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("entries %q, want %q", got, want)
	}
	for _, n := range []string{".step-00000100.tmp-123", ".a.b.tmp-1"} {
		if b, ok := TempBase(n); !ok || b != strings.TrimPrefix(n[:strings.LastIndex(n, ".tmp-")], ".") {
			t.Errorf("TempBase(%q) = %q, %v", n, b, ok)
		}
	}
}
