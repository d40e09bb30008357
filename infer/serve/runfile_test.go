package serve

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/data/index"
)

func TestReadRankings(t *testing.T) {
	jsonl := `{"id": 3, "ranking": [{"node": 7, "score": 2.5, "name": "x"}, {"node": 1, "score": -0.125}]}

{"id": 0, "ranking": [], "error": "no anchor"}
`
	trec := "3 Q0 7 1 2.5 run\n3 Q0 1 2 -0.125 run\n5 Q0 9 1 1e-07 run\n"
	for _, c := range []struct {
		name, text string
		want       map[int][]index.Hit
		trec       bool
	}{
		{"jsonl", jsonl, map[int][]index.Hit{3: {{ID: 7, Score: 2.5}, {ID: 1, Score: -0.125}}, 0: {}}, false},
		{"trec", trec, map[int][]index.Hit{3: {{ID: 7, Score: 2.5}, {ID: 1, Score: -0.125}}, 5: {{ID: 9, Score: 1e-07}}}, true},
	} {
		got, isTREC, err := readRankings(strings.NewReader(c.text), c.name)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if isTREC != c.trec {
			t.Errorf("%s: read as TREC %v", c.name, isTREC)
		}
		if d := cmp.Diff(c.want, got); d != "" {
			t.Errorf("%s: (-want +got)\n%s", c.name, d)
		}
	}
	for _, c := range []struct{ text, want string }{
		{`{"id": 1, "ranking": []}` + "\n" + `{"id": 1, "ranking": []}`, "f:2: bad run file: query 1 twice"},
		{`{"id": 1, "ranking": [{"node": 4, "score": 1}, {"node": 4, "score": 0}]}`, "f:1: bad run file: node 4 twice in the ranking of query 1"},
		{`{"ranking": []}`, `f:1: bad run file: no "id"`},
		{`{"id": 1, "ranking": [{"node": 4}]}`, `f:1: bad run file: ranking entry 1 lacks "node" or "score"`},
		{`{"id": 1, "ranking": [{"node": -4, "score": 1}]}`, "f:1: bad run file: json"},
		{"1 Q0 4 1 0.5 run\n1 Q0 5 2 0.5", "f:2: bad run file: want 6 TREC fields"},
		{"1 Q0 4 1 high run", "f:1: bad run file: strconv.ParseFloat"},
		{"1 Q0 4 1 0.5 run\n1 Q0 4 2 0.25 run", "f:2: bad run file: node 4 twice in the ranking of query 1"},
		{"1 Q0 4 1 0.5 r\xffun", "f:1: bad run file: not UTF-8"},
		{"1 Q0 4 1 0.5 run\n2 Q0 4 1 0.5 run\n1 Q0 5 1 0.25 run", "f:3: bad run file: query 1 again after another query's lines"},
	} {
		_, _, err := readRankings(strings.NewReader(c.text), "f")
		if err == nil || !errors.Is(err, ErrRunFile) || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q...", c.text, err, c.want)
		}
	}
}

// A JSON-lines run lacking a query is an error (it was never scored); a
// TREC run writes no line for an unanswered query, which ranks nothing.
func TestRunFileMissingQuery(t *testing.T) {
	for _, trec := range []bool{false, true} {
		r := &RunFile{Path: "r", Rankings: map[int][]index.Hit{1: {{ID: 2, Score: 1}}}, TREC: trec}
		got, err := r.Rank(context.Background(), data.Query{ID: 1})
		if err != nil || len(got) != 1 || got[0].ID != 2 {
			t.Errorf("TREC %v, query 1: %v %v", trec, got, err)
		}
		got, err = r.Rank(context.Background(), data.Query{ID: 9})
		if trec && (err != nil || len(got) != 0) {
			t.Errorf("TREC, missing query: %v %v", got, err)
		}
		if !trec && (err == nil || err.Error() != "r has no ranking of query 9") {
			t.Errorf("JSONL, missing query: %v", err)
		}
	}
}

// TestOpenRunFileStopped: a run file with strata score's progress record
// beside it stopped before its end and is refused, naming both; once the
// record is gone (the run finished) it reads.
func TestOpenRunFileStopped(t *testing.T) {
	dir := t.TempDir()
	run := filepath.Join(dir, "part.jsonl")
	os.WriteFile(run, []byte(`{"id": 3, "ranking": [{"node": 7, "score": 2.5}]}`+"\n"), 0o644)
	os.WriteFile(run+ProgressSuffix, []byte("{}"), 0o644)
	if _, err := OpenRunFile(run); !errors.Is(err, ErrRunFile) || !strings.Contains(err.Error(), run+": ") || !strings.Contains(err.Error(), "part.jsonl.progress") {
		t.Errorf("a stopped run: %v", err)
	}
	os.Remove(run + ProgressSuffix)
	if r, err := OpenRunFile(run); err != nil || len(r.Rankings[3]) != 1 {
		t.Errorf("the finished run: %v, %v", r, err)
	}
}

func FuzzReadRankings(f *testing.F) {
	f.Add(`{"id": 3, "ranking": [{"node": 7, "score": 2.5}]}`)
	f.Add("3 Q0 7 1 2.5 run\n")
	f.Add(`{"id": 0, "ranking": [], "error": "x"}` + "\n\n")
	f.Fuzz(func(t *testing.T, s string) {
		rk, _, err := readRankings(strings.NewReader(s), "fuzz")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz:") {
				t.Fatalf("error without the file and line: %v", err)
			}
			return
		}
		for id, hs := range rk {
			seen := map[uint32]bool{}
			for _, h := range hs {
				if seen[h.ID] {
					t.Fatalf("query %d: node %d twice", id, h.ID)
				}
				seen[h.ID] = true
			}
		}
	})
}
