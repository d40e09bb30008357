package mine

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strata-retrieval/strata/internal/testws"
)

// TestLoadMinedIsStrict: a mined plans file is strata's own, so a line
// that does not fit the workspace (a q_id it lacks, a node type its schema
// lacks: another workspace's file) is an error, not a textual fallback.
func TestLoadMinedIsStrict(t *testing.T) {
	ws := testws.Preset(t, "amazon", 300, 20)
	line := func(id int, from string) string {
		return fmt.Sprintf(`{"q_id":%d,"query":"x","answer_ids":[1],"plan":{"Metapath":[[%q,"has_category","product"]]},"mined":{"f1":1,"struct_f1":1,"shape":"1-hop","reach":3,"hits":1}}`, id, from)
	}
	dir := t.TempDir()
	write := func(name string, lines ...string) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(strings.Join(lines, "\n")+"\n"), 0o644)
		return p
	}
	ok := write("ok.jsonl", line(0, "category"), line(1, "category"))
	recs, path, err := Load(ws, ok)
	if err != nil || len(recs) != 2 || path != ok {
		t.Fatalf("Load: %d records from %s, %v", len(recs), path, err)
	}
	for _, c := range []struct{ file, msg string }{
		{write("qid.jsonl", line(0, "category"), line(77, "category")), `: 1 problem on 1 of 2 lines (a plans file strata wrote must fit its workspace: was it made for another?): ` + dir + `/qid.jsonl:2: field "q_id": id out of range: query 77 is not in the workspace's questions`},
		{write("type.jsonl", line(0, "category"), line(1, "gene/protein")), `:2: field "plan.Metapath[0][0]": unknown node type: "gene/protein" is not a node type of the schema`},
	} {
		_, _, err := Load(ws, c.file)
		if err == nil || !strings.Contains(err.Error(), c.file) || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: %v, want %q", filepath.Base(c.file), err, c.msg)
		}
	}
}
