package main

import (
	"fmt"
	_ "github.com/strata-retrieval/strata/infer/registry/registrytest" // test-unanswerable
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestScoreCommandGoesOn(t *testing.T) {
	dir := t.TempDir()
	ws := filepath.Join(dir, "ws")
	if _, e, code := run(t, "gen", "--preset", "amazon", "--nodes", "300", "--queries", "20", "--out", dir+"/skb"); code != 0 {
		t.Fatal(e)
	}
	if _, e, code := run(t, "import", "--in", dir+"/skb", "--out", ws); code != 0 {
		t.Fatal(e)
	}
	pf := filepath.Join(dir, "p.json")
	os.WriteFile(pf, []byte(`{"format":"strata-pipeline/1","name":"t","scorers":[{"method":"test-unanswerable"}]}`), 0o644)
	qf := filepath.Join(dir, "q.txt")
	os.WriteFile(qf, []byte("boots\ngo nowhere\nhats\nnowhere again\n"), 0o644)

	out := filepath.Join(dir, "out.jsonl")
	stdout, stderr, code := run(t, "score", ws, "--pipeline", pf, "--queries", qf, "--out", out, "-k", "1")
	if code != 0 {
		t.Fatalf("score: %s", stderr)
	}
	wantOut := fmt.Sprintf("scored 4 queries with t into %s; 2 could not be answered (written with \"ranking\": [] and their \"error\"), first: query 1: invalid pattern: no anchor\n", out)
	wantErr := "query 1: not answered: invalid pattern: no anchor\nquery 3: not answered: invalid pattern: no anchor\n"
	if stdout != wantOut || stderr != wantErr {
		t.Errorf("stdout %q\nwant   %q\nstderr %q\nwant   %q", stdout, wantOut, stderr, wantErr)
	}
	b, _ := os.ReadFile(out)
	want := `{"id":0,"ranking":[{"node":1,"score":2,"name":` // then the node's name
	lines := strings.Split(string(b), "\n")
	if len(lines) != 5 || !strings.HasPrefix(lines[0], want) || lines[1] != `{"id":1,"ranking":[],"error":"invalid pattern: no anchor"}` {
		t.Errorf("output %s", b)
	}

	before, _ := os.ReadFile(qf)
	for _, c := range []struct {
		args []string
		msg  string
	}{
		{[]string{"-k", "0", "--out", out + "2"}, "-k 0: want at least 1 result per query"},
		{[]string{"-k", "-3", "--out", out + "2"}, "-k -3: want at least 1 result per query"},
		{[]string{"--out", qf, "--force"}, "--out " + qf + " is the --queries " + qf + ": an output may not be"},
	} {
		args := append([]string{"score", ws, "--pipeline", pf, "--queries", qf}, c.args...)
		if _, e, code := run(t, args...); code != 1 || !strings.Contains(e, c.msg) {
			t.Errorf("%v: %d %q, want %q", c.args, code, e, c.msg)
		}
	}
	if after, _ := os.ReadFile(qf); string(after) != string(before) {
		t.Errorf("the query file changed: %q", after)
	}
}
