package data

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// sharedData returns ../shared/data (relative to the repository root) or
// skips the test when it is absent, as in a user's clone.
func sharedData(t testing.TB, sub string) string {
	t.Helper()
	for _, base := range []string{"../../shared/data", "../../../shared/data", "../shared/data"} {
		p := filepath.Join(base, sub)
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	t.Skipf("shared data %s not present", sub)
	return ""
}

func TestRealStarkQA(t *testing.T) {
	want := map[string]struct{ all, train, val, test, human, multi int }{
		"amazon": {9100, 5910, 1548, 1642, 81, 0},
		"mag":    {13323, 7993, 2665, 2665, 84, 0},
		"prime":  {11204, 6162, 2241, 2801, 109, 0},
	}
	for name, w := range want {
		t.Run(name, func(t *testing.T) {
			dir := sharedData(t, filepath.Join("stark-qa", name))
			qa, err := ReadStarkQA(dir, 0)
			if err != nil {
				t.Fatal(err)
			}
			got := []int{len(qa.Queries), len(qa.Splits[SplitTrain]), len(qa.Splits[SplitVal]), len(qa.Splits[SplitTest]), len(qa.Human)}
			exp := []int{w.all, w.train, w.val, w.test, w.human}
			for i := range got {
				if got[i] != exp[i] {
					t.Errorf("counts (all, train, val, test, human) = %v, want %v", got, exp)
					break
				}
			}
			if n := len(qa.Splits[SplitTrain]) + len(qa.Splits[SplitVal]) + len(qa.Splits[SplitTest]); n != len(qa.Queries) {
				t.Errorf("splits cover %d queries, want %d", n, len(qa.Queries))
			}
			multi := 0
			for _, q := range qa.Queries {
				if len(q.Answers) == 0 {
					t.Errorf("query %d has no answers", q.ID)
				}
				if len(q.Answers) > 1 {
					multi++
				}
			}
			if multi == 0 {
				t.Errorf("no multi-answer (quoted) rows parsed")
			}
			for _, q := range qa.Human {
				if len(q.Source) == 0 {
					t.Errorf("human query %d has no answer_ids_source", q.ID)
				}
			}
		})
	}
}

func TestRealStarkQAFirstRows(t *testing.T) {
	dir := sharedData(t, "stark-qa/mag")
	qa, err := ReadStarkQA(dir, 0)
	if err != nil {
		t.Fatal(err)
	}
	q, ok := qa.ByID(5624)
	if !ok {
		t.Fatal("query 5624 missing")
	}
	if len(q.Answers) != 2 || q.Answers[0] != 1714677 || q.Answers[1] != 1712487 {
		t.Errorf("query 5624 answers = %v, want [1714677 1712487]", q.Answers)
	}
	if q.Text[:22] != "What are some other st" {
		t.Errorf("query 5624 text = %q", q.Text)
	}
	pdir := sharedData(t, "stark-qa/prime")
	pqa, err := ReadStarkQA(pdir, 0)
	if err != nil {
		t.Fatal(err)
	}
	h := pqa.Human[1]
	if h.ID != 1 || len(h.Answers) != 2 || h.Answers[0] != 95312 || h.Answers[1] != 35882 || len(h.Source) != 1 || h.Source[0] != 35882 {
		t.Errorf("prime human row 1 = %+v", h)
	}
}

func TestRealMetaQA(t *testing.T) {
	dir := sharedData(t, "metaqa")
	skb, err := ReadTriples(filepath.Join(dir, "kb.txt"), '|')
	if err != nil {
		t.Fatal(err)
	}
	if skb.Edges.Len() != 129660 {
		t.Errorf("triples = %d, want 129660", skb.Edges.Len())
	}
	if len(skb.Schema.RelationTypes) != 9 {
		t.Errorf("relations = %d %v, want 9", len(skb.Schema.RelationTypes), skb.Schema.RelationTypes)
	}
	if skb.Schema.RelationTypes[0] != "directed_by" {
		t.Errorf("first relation = %q, want directed_by", skb.Schema.RelationTypes[0])
	}
	for hop, want := range map[string]int{"1-hop": 9992, "2-hop": 14872, "3-hop": 14274} {
		qs, err := ReadKGQA(filepath.Join(dir, "vanilla", hop, "qa_dev.txt"), filepath.Join(dir, "vanilla", hop, "qa_dev_qtype.txt"))
		if err != nil {
			t.Fatal(err)
		}
		if len(qs) != want {
			t.Errorf("%s: %d questions, want %d", hop, len(qs), want)
		}
		for _, q := range qs[:50] {
			if q.Topic == "" || q.QType == "" || len(q.Answers) == 0 {
				t.Fatalf("%s line %d: %+v", hop, q.Line, q)
			}
		}
		st := KGQAToQA(skb, "dev-"+hop, qs)
		t.Logf("%s: %+v", hop, st)
		if hop == "1-hop" && st.DroppedAnswers != 0 {
			t.Errorf("1-hop: %d answers not in the KB; the README says every 1-hop answer is reachable", st.DroppedAnswers)
		}
	}
	qs, _ := ReadKGQA(filepath.Join(dir, "vanilla", "2-hop", "qa_dev.txt"), "")
	if qs[0].Topic != "Joel Zwick" || qs[0].Text != "what are the languages spoken in the films directed by [Joel Zwick]" || qs[0].Answers[0] != "Greek" {
		t.Errorf("2-hop first question = %+v", qs[0])
	}
	if len(skb.QA.Queries) != 9992+14872+14274 {
		t.Errorf("QA has %d queries", len(skb.QA.Queries))
	}
}

func TestMetaQAPlans(t *testing.T) {
	p, ok := MetaQAPlan("actor_to_movie_to_director", "John Krasinski")
	if !ok || len(p.MetapathTokens()) != 1 || strings.Join(p.MetapathTokens()[0], ",") != "entity,starred_actors,entity,directed_by,entity" || p.Restriction["entity"][0] != "John Krasinski" {
		t.Errorf("plan %+v", p)
	}
	if _, ok := MetaQAPlan("actor_to_writer", "x"); ok {
		t.Error("a hop without a movie accepted")
	}
	dir := sharedData(t, "metaqa")
	for _, hop := range []string{"1-hop", "2-hop", "3-hop"} {
		qs, err := ReadKGQA(filepath.Join(dir, "vanilla", hop, "qa_dev.txt"), filepath.Join(dir, "vanilla", hop, "qa_dev_qtype.txt"))
		if err != nil {
			t.Fatal(err)
		}
		for _, q := range qs {
			if _, ok := MetaQAPlan(q.QType, q.Topic); !ok {
				t.Fatalf("%s line %d: no plan for qtype %q", hop, q.Line, q.QType)
			}
		}
	}
}

// TestRealPathQuestion imports IRN's PathQuestion files with their KBs:
// counts from the data's README and an independent count of the files
// (questions, triples, relations, entities, answers over all questions);
// every topic and answer is a KB entity.
func TestRealPathQuestion(t *testing.T) {
	dir := sharedData(t, "pathquestion")
	for _, c := range []struct {
		qa, kb                                      string
		questions, triples, rels, entities, answers int
	}{
		{"PQ-2H.txt", "2H-kb.txt", 1908, 1211, 13, 1056, 2058},
		{"PQ-3H.txt", "3H-kb.txt", 5198, 2839, 13, 1836, 6448},
	} {
		skb, err := ReadTriples(filepath.Join(dir, c.kb), 0)
		if err != nil {
			t.Fatal(err)
		}
		if skb.Edges.Len() != c.triples || len(skb.Schema.RelationTypes) != c.rels || len(skb.Nodes) != c.entities {
			t.Errorf("%s: %d triples, %d relations, %d entities; want %d, %d, %d", c.kb, skb.Edges.Len(), len(skb.Schema.RelationTypes), len(skb.Nodes), c.triples, c.rels, c.entities)
		}
		imp, err := ImportKGQA(skb, []KGQAFileSpec{{Path: filepath.Join(dir, c.qa)}}, 1)
		if err != nil {
			t.Fatal(err)
		}
		f := imp.Files[0]
		if f.Format != KGQAPathQuestion || f.Stats != (KGQAStats{Questions: c.questions}) || len(imp.Plans) != c.questions {
			t.Errorf("%s: %+v, %d plans", c.qa, f, len(imp.Plans))
		}
		n := 0
		for _, q := range skb.QA.Queries {
			n += len(q.Answers)
		}
		if n != c.answers {
			t.Errorf("%s: %d answers, want %d", c.qa, n, c.answers)
		}
		tr, va, te := len(skb.QA.Splits[SplitTrain]), len(skb.QA.Splits[SplitVal]), len(skb.QA.Splits[SplitTest])
		if tr != c.questions*8/10 || va != c.questions/10 || tr+va+te != c.questions {
			t.Errorf("%s: split %d/%d/%d", c.qa, tr, va, te)
		}
	}
	// PQL-2H: the questions parse (lines start with a space, names hold
	// parentheses, up to 52 answers), and its KB has 363 relation types,
	// past the one-byte ids strata stored until it took wide ones.
	qs, format, err := ReadKGQAFile(filepath.Join(dir, "PQL-2H.txt"), "")
	n := 0
	for _, q := range qs {
		n += len(q.Answers)
	}
	if err != nil || format != KGQAPathQuestion || len(qs) != 1594 || n != 9470 {
		t.Errorf("PQL-2H: %d questions, %d answers (%s, %v), want 1594, 9470", len(qs), n, format, err)
	}
	kb, err := ReadTriples(filepath.Join(dir, "PQL2-KB.txt"), 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(kb.Schema.RelationTypes) != 363 || len(kb.Nodes) != 5034 || kb.Edges.Len() != 4247 || kb.Edges.Rel.Hi == nil {
		t.Errorf("PQL2-KB.txt: %d relation types, %d entities, %d triples, wide ids %v; want 363, 5034, 4247, true",
			len(kb.Schema.RelationTypes), len(kb.Nodes), kb.Edges.Len(), kb.Edges.Rel.Hi != nil)
	}
	// Every triple keeps its relation, read back from the file by line: the
	// relation first seen at line 1720 is the 256th (id 255), the next new
	// one id 256.
	raw, err := os.ReadFile(filepath.Join(dir, "PQL2-KB.txt"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(raw), "\n"), "\n")
	for i := 0; i < kb.Edges.Len() && i < len(lines); i++ {
		if got, want := kb.Schema.RelationTypes[kb.Edges.Rel.At(i)], strings.Split(lines[i], "\t")[1]; got != want {
			t.Fatalf("PQL2-KB.txt line %d: relation %q, want %q", i+1, got, want)
		}
	}
	if r, _ := kb.Schema.RelationID(strings.Split(lines[1719], "\t")[1]); r != 255 || kb.Edges.Rel.At(1719) != 255 {
		t.Errorf("line 1720's relation has id %d, want 255", r)
	}
	qs, _, err = ReadKGQAFile(filepath.Join(dir, "PQ-2H.txt"), "")
	if err != nil {
		t.Fatal(err)
	}
	want := KGQuestion{Line: 1, Text: "which nationality is [frederica_of_mecklenburg-strelitz] 's couple ?", Topic: "frederica_of_mecklenburg-strelitz",
		Topics: []string{"frederica_of_mecklenburg-strelitz"}, Answers: []string{"united_kingdom"}, Paths: [][]string{{"spouse", "nationality"}}}
	if d := cmp.Diff(want, qs[0]); d != "" {
		t.Errorf("first PQ-2H question (-want +got):\n%s", d)
	}
}
