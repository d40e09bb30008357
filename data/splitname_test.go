package data

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestCheckSplitName(t *testing.T) {
	for _, c := range []struct {
		name, why string // why "" means accepted
	}{
		{"train", ""},
		{"1-hop-dev/test-reachable", ""},
		{"vanilla-test/test-reachable", ""},
		{".-q", ""},
		{"a b/ü", ""},
		{"", "empty"},
		{"../../ESC", `path component ".."`},
		{"a/../../b", `path component ".."`},
		{"./a", `path component "."`},
		{"/etc/x", "empty path component"},
		{"a//b", "empty path component"},
		{"a/", "empty path component"},
		{`a\..\b`, `character U+005C is not allowed`},
		{"a\x00b", "character U+0000 is not allowed"},
		{"a\nb", "character U+000A is not allowed"},
		{"a\xffb", "not valid UTF-8"},
		{"x.index/y", "a path component ending in .index"},
		{strings.Repeat("s", 201), "201 bytes, at most 200"},
	} {
		err := CheckSplitName(c.name)
		switch {
		case c.why == "" && err != nil:
			t.Errorf("%q: %v", c.name, err)
		case c.why != "" && (!errors.Is(err, ErrSyntax) || !strings.Contains(err.Error(), c.why) || len(err.Error()) > 300):
			t.Errorf("%q: %v, want %q", c.name, err, c.why)
		}
	}
}

// TestSplitNamesStayInside: split names that would leave the export
// directory are refused where they enter (KGQA import, QA readers) and
// where they are written; names with '/' export as nested directories and
// read back.
func TestSplitNamesStayInside(t *testing.T) {
	dir := t.TempDir()
	kb := filepath.Join(dir, "kb.tsv")
	os.WriteFile(kb, []byte("A\tr\tB\n"), 0o644)
	qf := filepath.Join(dir, "q.txt")
	os.WriteFile(qf, []byte("what is [A] r to\tB\n"), 0o644)
	skb, err := ReadTriples(kb, 0)
	if err != nil {
		t.Fatal(err)
	}
	_, err = ImportKGQA(skb, []KGQAFileSpec{ParseKGQAFileSpec(qf + ":../../ESC")}, 1)
	if !errors.Is(err, ErrSyntax) || err.Error() != qf+`:../../ESC: split name "../../ESC": malformed value: path component ".."` {
		t.Errorf("--kgqa FILE:../../ESC: %v", err)
	}
	if skb.QA != nil {
		t.Errorf("the refused import added questions: %+v", skb.QA)
	}

	// Writing: a split name from elsewhere (a workspace) is refused before
	// anything is written, and nothing lands outside the output.
	out := filepath.Join(dir, "deep", "out")
	evil := tinySKB()
	evil.QA.Splits["../../ESC"] = []int{3}
	if err := WriteSKBDir(out, evil, WriteOptions{}); !errors.Is(err, ErrSyntax) || !strings.Contains(err.Error(), `split name "../../ESC"`) {
		t.Errorf("WriteSKBDir with ../../ESC: %v", err)
	}
	if err := WriteStarkQA(filepath.Join(dir, "qa"), evil.QA); !errors.Is(err, ErrSyntax) {
		t.Errorf("WriteStarkQA with ../../ESC: %v", err)
	}
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if strings.Contains(p, "ESC") {
			t.Errorf("written: %s", p)
		}
		return nil
	})

	// Nested names: split/1-hop-dev/test-reachable.index, read back as the
	// same splits.
	in := tinySKB()
	in.QA.Splits["1-hop-dev"] = []int{3, 7}
	in.QA.Splits["1-hop-dev/test-reachable"] = []int{7}
	nested := filepath.Join(dir, "nested")
	if err := WriteSKBDir(nested, in, WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(nested, "split", "1-hop-dev", "test-reachable.index")); err != nil || string(b) != "7\n" {
		t.Errorf("nested split file: %q, %v", b, err)
	}
	back, err := ReadSKBDir(nested)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(in.QA.Splits, back.QA.Splits); d != "" {
		t.Errorf("splits after the round trip (-want +got):\n%s", d)
	}

	// Reading: an index file whose name is not a split name.
	os.WriteFile(filepath.Join(nested, "split", "..index"), []byte("3\n"), 0o644)
	if _, err := ReadSKBDir(nested); !errors.Is(err, ErrSyntax) || !strings.Contains(err.Error(), filepath.Join(nested, "split", "..index")+`: split name ".": malformed value: path component "."`) {
		t.Errorf("split/..index: %v", err)
	}
}
