package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/strata-retrieval/strata/graphops/workspace"
	"github.com/strata-retrieval/strata/internal/testws"
)

// TestImportWorldCup imports a KB and question files in IRN's WorldCup2014
// layout (WC-P1's one-hop questions and WC-C's conjunctions, with the KB
// storing every relation and its "_inverse"), and checks the imported
// plans: a conjunctive question's two paths meet at its answers, so the
// ground-truth plan ranks an answer first for every test question.
func TestImportWorldCup(t *testing.T) {
	dir := t.TempDir()
	clubs := []string{"Club_A", "Club_B", "Club_C"}
	positions := []string{"Forward", "Defender"}
	var kb, p1, wc strings.Builder
	fact := func(s, r, o string) {
		fmt.Fprintf(&kb, "%s\t%s\t%s\n%s\t%s_inverse\t%s\n", s, r, o, o, r, s)
	}
	type player struct{ name, club, pos string }
	var players []player
	for i := range 24 {
		p := player{fmt.Sprintf("Player_%02d", i), clubs[i%3], positions[i/3%2]}
		players = append(players, p)
		fact(p.name, "plays_in_club", p.club)
		fact(p.name, "plays_position", p.pos)
		fmt.Fprintf(&p1, "which club does %s play for ?\t%s\t%s#plays_in_club#%s\t%s/\t%s#plays_in_club#%s\n", p.name, p.club, p.name, p.club, p.club, p.name, p.club)
	}
	for _, c := range clubs {
		for _, pos := range positions {
			var ans []string
			for _, p := range players {
				if p.club == c && p.pos == pos {
					ans = append(ans, p.name)
				}
			}
			for range 5 {
				fmt.Fprintf(&wc, "name a player who plays at %s position at the club %s ?\t%s\t%s#plays_position_inverse#%s#<end>#%s*%s#plays_in_club_inverse#%s#<end>#%s\t%s/\tfacts\t%s/%s\n",
					pos, c, ans[0], pos, ans[0], ans[0], c, ans[0], ans[0], strings.Join(ans, "/"), pos, c)
			}
		}
	}
	write := func(name, s string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	kbf, p1f, wcf := write("WC2014.txt", kb.String()), write("WC-P1.txt", p1.String()), write("WC-C.txt", wc.String())
	ws := filepath.Join(dir, "ws")
	_, e, code := run(t, "import", "--format", "triples", "--in", kbf, "--kgqa", p1f, "--kgqa", wcf, "--seed", "2", "--out", ws)
	if code != 0 {
		t.Fatalf("import: %s", e)
	}
	for _, want := range []string{"WC-P1.txt (worldcup) -> split", "24 questions", "WC-C.txt (worldcup) -> split", "30 questions"} {
		if !strings.Contains(e, want) {
			t.Errorf("import report lacks %q: %s", want, e)
		}
	}
	w, err := workspace.Load(ws)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if len(w.Plans) != 54 || len(w.SKB.Schema.RelationTypes) != 4 {
		t.Fatalf("%d plans, relations %v", len(w.Plans), w.SKB.Schema.RelationTypes)
	}
	q, _ := w.SKB.QA.ByID(24) // the first WC-C question: Forward at Club_A = players 0, 6, 12, 18... of club A
	if q.Text != "name a player who plays at [Forward] position at the club [Club_A] ?" || len(q.Answers) != 4 {
		t.Errorf("conjunctive question %q, %d answers", q.Text, len(q.Answers))
	}
	if got := w.Plans[24].MetapathTokens(); !slices.EqualFunc(got, [][]string{{"entity", "->plays_position_inverse", "entity"}, {"entity", "->plays_in_club_inverse", "entity"}}, slices.Equal) {
		t.Errorf("conjunctive plan %v", got)
	}
	out, e, code := run(t, "eval", ws, "--method", "plan-structure,oracle-plan", "--split", "test", "--json")
	if code != 0 {
		t.Fatalf("eval: %s", e)
	}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var r struct {
			Method string  `json:"method"`
			N      int     `json:"n"`
			Hit1   float64 `json:"hit@1"`
			Recall float64 `json:"recall@20"`
		}
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatal(err)
		}
		// Every reached node is an answer: any order puts one first, and
		// the reached set is the answer set.
		if r.N == 0 || r.Hit1 != 1 || r.Recall != 1 {
			t.Errorf("%s: n %d hit@1 %.4f recall@20 %.4f, want 1, 1", r.Method, r.N, r.Hit1, r.Recall)
		}
	}
}

// TestPQL2HKGQA: PathQuestion's PQL-2H over its 363-relation KB (FB2M)
// imports, and KGQA trained on mined labels (100 epochs, split seed 1)
// answers 93.75% of the 160 test questions first (150; IRN published 72.5).
func TestPQL2HKGQA(t *testing.T) {
	pq := testws.SharedData(t, "pathquestion")
	ws := filepath.Join(t.TempDir(), "ws")
	o, e, code := run(t, "import", "--format", "triples", "--in", filepath.Join(pq, "PQL2-KB.txt"), "--kgqa", filepath.Join(pq, "PQL-2H.txt"), "--seed", "1", "--out", ws)
	if code != 0 || !strings.Contains(o, "5034 nodes, 4247 edges") {
		t.Fatalf("import: %s%s", o, e)
	}
	if _, e, code = run(t, "train", "encoder", ws, "--epochs", "1"); code != 0 {
		t.Fatalf("train encoder: %s", e)
	}
	if _, e, code = run(t, "train", "kgqa", ws, "--labels", "mined", "--epochs", "100", "--out", filepath.Join(ws, "runs", "kgqa")); code != 0 {
		t.Fatalf("train kgqa: %s", e)
	}
	out, e, code := run(t, "eval", ws, "--model", filepath.Join(ws, "runs", "kgqa", "best"), "--split", "test", "--json")
	if code != 0 {
		t.Fatalf("eval: %s", e)
	}
	var r struct {
		N    int     `json:"n"`
		Hit1 float64 `json:"hit@1"`
	}
	if err := json.Unmarshal([]byte(strings.TrimSpace(out)), &r); err != nil {
		t.Fatal(err)
	}
	if r.N != 160 || r.Hit1 != 150.0/160 {
		t.Errorf("PQL-2H test: n %d hit@1 %.4f, want 160, 0.9375", r.N, r.Hit1)
	}
}
