package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestImportChecksPlans: a plans file (--plans, or an skbdir's own
// stark_qa/plans.jsonl) naming questions the workspace lacks is refused;
// one naming unknown types on a few lines is imported with a warning that
// counts them and shows where; on more than half of its lines, refused.
func TestImportChecksPlans(t *testing.T) {
	dir := t.TempDir()
	skb := filepath.Join(dir, "skb")
	if _, e, code := run(t, "gen", "--preset", "amazon", "--nodes", "300", "--queries", "20", "--out", skb); code != 0 {
		t.Fatal(e)
	}
	good := func(id int) string {
		return fmt.Sprintf(`{"q_id":%d,"plan":{"Metapath":[["category","has_category","product"]]}}`, id)
	}
	bad := func(id int) string {
		return fmt.Sprintf(`{"q_id":%d,"plan":{"Metapath":[["gene","has_category","product"]]}}`, id)
	}
	write := func(name string, lines ...string) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(strings.Join(lines, "\n")+"\n"), 0o644)
		return p
	}
	few := write("few.jsonl", good(0), bad(1), good(2), good(3))
	most := write("most.jsonl", bad(0), bad(1), bad(2), good(3))
	other := write("other.jsonl", good(0), good(500))
	for i, c := range []struct {
		plans  string
		code   int
		stderr string
	}{
		{few, 0, few + `: 1 of 4 plans name node types or relations the schema lacks (1 problem; such queries fall back to textual retrieval): ` + few + `:2: field "plan.Metapath[0][0]": unknown node type: "gene" is not a node type of the schema`},
		{most, 1, most + `: 3 of 4 plans do not fit the workspace's schema (a plans file for another data set?): ` + most + `:1: field "plan.Metapath[0][0]"`},
		{other, 1, other + `: 1 of 2 lines name questions the workspace does not have (a plans file for other questions?): ` + other + `:2: field "q_id": id out of range: query 500 is not in the workspace's questions`},
	} {
		_, e, code := run(t, "import", "--in", skb, "--plans", c.plans, "--out", filepath.Join(dir, fmt.Sprint("ws", i)))
		if code != c.code || !strings.Contains(e, c.stderr) {
			t.Errorf("--plans %s: %d %q\nwant %d %q", filepath.Base(c.plans), code, e, c.code, c.stderr)
		}
	}
	// eval --plans gets the same check.
	ws := filepath.Join(dir, "ws0")
	if _, e, code := run(t, "eval", ws, "--method", "plan-exec", "--split", "test", "--plans", other); code != 1 || !strings.Contains(e, other+`: 1 of 2 lines name questions the workspace does not have`) {
		t.Errorf("eval --plans %s: %d %q", other, code, e)
	}
	if _, e, code := run(t, "eval", ws, "--method", "plan-exec", "--split", "test", "--plans", few); code != 0 || !strings.Contains(e, few+`: 1 of 4 plans name node types or relations the schema lacks`) {
		t.Errorf("eval --plans %s: %d %q", few, code, e)
	}
	// The skbdir's own plans file gets the same check.
	own := filepath.Join(skb, "stark_qa", "plans.jsonl")
	os.WriteFile(own, []byte(good(0)+"\n"+good(900)+"\n"), 0o644)
	if _, e, code := run(t, "import", "--in", skb, "--out", filepath.Join(dir, "ws-own")); code != 1 || !strings.Contains(e, own+`:2: field "q_id": id out of range: query 900`) {
		t.Errorf("stark_qa/plans.jsonl with q_id 900: %d %q", code, e)
	}
}
