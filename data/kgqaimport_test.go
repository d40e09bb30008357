package data

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParsePathQuestion(t *testing.T) {
	in := "which nationality is frederica_of_mecklenburg-strelitz 's couple ?\tunited_kingdom(united_kingdom/)\tfrederica_of_mecklenburg-strelitz#spouse#ernest_augustus_i_of_hanover#nationality#united_kingdom#<end>#united_kingdom\n" +
		"\n" +
		" what is the rating of Up 's film ?\tPG_(USA)(G/PG_(USA)/)\tUp#__film__film#Up_(film)#__film__rating#PG_(USA)\n" +
		"who is the child of shah_shuja_x 's parent shah_shuja ?\tshah_shuja(shah_shuja/dara/)\tshah_shuja#parents#mumtaz_mahal#children#shah_shuja#<end>#shah_shuja\n"
	qs, err := ParsePathQuestion(strings.NewReader(in), "PQ.txt")
	if err != nil {
		t.Fatal(err)
	}
	want := []KGQuestion{
		{Line: 1, Text: "which nationality is [frederica_of_mecklenburg-strelitz] 's couple ?", Topic: "frederica_of_mecklenburg-strelitz",
			Topics: []string{"frederica_of_mecklenburg-strelitz"}, Answers: []string{"united_kingdom"}, Paths: [][]string{{"spouse", "nationality"}}},
		{Line: 3, Text: "what is the rating of [Up] 's film ?", Topic: "Up", Topics: []string{"Up"},
			Answers: []string{"G", "PG_(USA)"}, Paths: [][]string{{"__film__film", "__film__rating"}}},
		// The topic is marked where it stands as a whole word, not inside
		// shah_shuja_x.
		{Line: 4, Text: "who is the child of shah_shuja_x 's parent [shah_shuja] ?", Topic: "shah_shuja", Topics: []string{"shah_shuja"},
			Answers: []string{"shah_shuja", "dara"}, Paths: [][]string{{"parents", "children"}}},
	}
	if d := cmp.Diff(want, qs); d != "" {
		t.Errorf("questions (-want +got):\n%s", d)
	}
	p, ok := qs[0].Plan()
	wantPlan := Plan{Paths: MustPaths([][]string{{"entity", "->spouse", "entity", "->nationality", "entity"}}...),
		Restriction: map[string][]string{"entity": {"frederica_of_mecklenburg-strelitz"}}}
	if !ok || !cmp.Equal(p, wantPlan) {
		t.Errorf("plan %+v", p)
	}
	for _, c := range []struct{ line, field string }{
		{"q a\tA(A/)", ""},
		{"q a\tA(A/)\ta#r#b\textra", ""},
		{" \tA(A/)\ta#r#b", "question"},
		{"q a\tA(B/)\ta#r#b", "answers"},
		{"q a\tA(A)\ta#r#b", "answers"},
		{"q a\tA(A//)\ta#r#b", "answers"},
		{"q a\tA\ta#r#b", "answers"},
		{"q a\tb(b/)\ta#r", "path"},
		{"q a\tb(b/)\ta#r#b#<end>", "path"},
		{"q a\tb(b/)\ta#r#b#<end>#c", "path"},
		{"q a\tb(b/)\ta##b", "path"},
		{"q a\tb(b/)\t[a]#r#b", "path"},
		{"q [a]\tb(b/)\ta#r#b", "question"},
		{"q ab\tb(b/)\ta#r#b", "question"},
	} {
		_, err := ParsePathQuestion(strings.NewReader("q a\tb(b/)\ta#r#b\n"+c.line+"\n"), "PQ.txt")
		var pe *ParseError
		if !errors.As(err, &pe) || pe.File != "PQ.txt" || pe.Line != 2 || pe.Field != c.field || !errors.Is(err, ErrSyntax) {
			t.Errorf("%q: error %v, want PQ.txt:2 field %q", c.line, err, c.field)
		}
	}
}

// TestParseWorldCup reads lines written in the WorldCup2014 files' layout
// (one-path and conjunctive questions) and checks every field, the plan of
// each, and that malformed lines name their file, line and field.
func TestParseWorldCup(t *testing.T) {
	in := "which club does Ann_LEE play for ?\tClub_X\tAnn_LEE#plays_in_club#Club_X\tClub_X/\tAnn_LEE#plays_in_club#Club_X///Ann_LEE#is_aged#23\n" +
		"name a player who plays at Forward from Spain ?\tAnn_LEE\tForward#plays_position_inverse#Ann_LEE#<end>#Ann_LEE*Spain#plays_for_country_inverse#Ann_LEE#<end>#Ann_LEE" +
		"\tAnn_LEE/Bo_KIM/\tAnn_LEE#plays_position#Forward\tForward/Spain\r\n"
	qs, err := ParseWorldCup(strings.NewReader(in), "WC.txt")
	if err != nil {
		t.Fatal(err)
	}
	want := []KGQuestion{
		{Line: 1, Text: "which club does [Ann_LEE] play for ?", Topic: "Ann_LEE", Topics: []string{"Ann_LEE"},
			Answers: []string{"Club_X"}, Paths: [][]string{{"plays_in_club"}}},
		{Line: 2, Text: "name a player who plays at [Forward] from [Spain] ?", Topic: "Forward", Topics: []string{"Forward", "Spain"},
			Answers: []string{"Ann_LEE", "Bo_KIM"}, Paths: [][]string{{"plays_position_inverse"}, {"plays_for_country_inverse"}}},
	}
	if d := cmp.Diff(want, qs); d != "" {
		t.Fatalf("questions (-want +got):\n%s", d)
	}
	p, ok := qs[1].Plan()
	wantPlan := Plan{Paths: MustPaths([][]string{{"entity", "->plays_position_inverse", "entity"}, {"entity", "->plays_for_country_inverse", "entity"}}...),
		Restriction: map[string][]string{"entity": {"Forward", "Spain"}}}
	if !ok || !cmp.Equal(p, wantPlan) {
		t.Errorf("conjunctive plan %+v", p)
	}
	for _, c := range []struct{ line, field string }{
		{"q a\tb\ta#r#b\tb/", ""},
		{"q a\tb\ta#r#b\tb/\tf\ta\textra", ""},
		{" \tb\ta#r#b\tb/\tf", "question"},
		{"q [a]\tb\ta#r#b\tb/\tf", "question"},
		{"q a\tb\ta#r#b\tb\tf", "answers"},
		{"q a\tb\ta#r#b\tb//\tf", "answers"},
		{"q a\tb\ta#r\tb/\tf", "path"},
		{"q a\tb\ta#r#b*\tb/\tf", "path"},
		{"q a\tb\ta#r#b*a#s#b\tb/\tf", "path"},
		{"q a c\tb\ta#r#b*c#s#b\tb/\tf\tc/a", "topics"},
		{"q a\tb\ta#r#b*c#s#b\tb/\tf", "question"},
	} {
		_, err := ParseWorldCup(strings.NewReader("q a\tb\ta#r#b\tb/\tf\n"+c.line+"\n"), "WC.txt")
		var pe *ParseError
		if !errors.As(err, &pe) || pe.File != "WC.txt" || pe.Line != 2 || pe.Field != c.field || !errors.Is(err, ErrSyntax) {
			t.Errorf("%q: error %v, want WC.txt:2 field %q", c.line, err, c.field)
		}
	}
}

func FuzzParseWorldCup(f *testing.F) {
	f.Add([]byte("which club does A play for ?\tC\tA#r#C\tC/\tA#r#C\n"))
	f.Add([]byte("who is at F from S ?\tA\tF#p#A#<end>#A*S#q#A#<end>#A\tA/B/\tA#p#F\tF/S\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		qs, err := ParseWorldCup(bytes.NewReader(b), "wc.txt")
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) || pe.File != "wc.txt" {
				t.Fatalf("error %v is not a located ParseError", err)
			}
			return
		}
		for _, q := range qs {
			topics, ok := BracketedTopics(q.Text)
			if !ok || len(q.Topics) == 0 || len(q.Paths) != len(q.Topics) || len(q.Answers) == 0 || q.Topic != q.Topics[0] {
				t.Fatalf("bad question accepted: %+v (topics %v)", q, topics)
			}
			p, ok := q.Plan()
			if !ok || len(p.MetapathTokens()) != len(q.Paths) {
				t.Fatalf("plan of %+v: %+v", q, p)
			}
			for i, rels := range q.Paths {
				if len(rels) == 0 || len(p.MetapathTokens()[i]) != 2*len(rels)+1 {
					t.Fatalf("plan of %+v: %+v", q, p)
				}
			}
		}
	})
}

func TestDetectKGQAFormat(t *testing.T) {
	for in, want := range map[string]string{
		"who directed [Heat]\tMichael Mann\n": KGQAMetaQA,
		"\n\nq a\tA(A/)\ta#r#A\n":             KGQAPathQuestion,
		"q a\tA(A/)\tno path here\n":          KGQAMetaQA,
		"":                                    KGQAMetaQA,
		" what is x 's y ?\tY(Y/)\tx#r#Y\nwho [a]\tb\n":    KGQAPathQuestion,
		"where is x ?\tY\tx#r#Y\tY/\tx#r#Y\n":              KGQAWorldCup,
		"who is x and z ?\tY\tx#r#Y*z#s#Y\tY/W/\tf\tx/z\n": KGQAWorldCup,
		"where is x ?\tY\tx#r#Y\tY\tx#r#Y\n":               KGQAMetaQA,
	} {
		if got := DetectKGQAFormat([]byte(in)); got != want {
			t.Errorf("DetectKGQAFormat(%q) = %s, want %s", in, got, want)
		}
	}
}

func TestSplitByPosition(t *testing.T) {
	ids := []int{10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21}
	want := map[string][]int{"train": {10, 11, 12, 13, 14, 15, 20, 21}, "val": {16, 17}, "test": {18, 19}}
	if d := cmp.Diff(want, SplitByPosition(ids)); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

func TestSplitRandom(t *testing.T) {
	ids := make([]int, 1908) // PQ-2H's size
	for i := range ids {
		ids[i] = 100 + i
	}
	a := SplitRandom(ids, 1)
	if len(a["train"]) != 1526 || len(a["val"]) != 190 || len(a["test"]) != 192 {
		t.Fatalf("sizes %d/%d/%d, want 1526/190/192", len(a["train"]), len(a["val"]), len(a["test"]))
	}
	all := slices.Concat(a["train"], a["val"], a["test"])
	slices.Sort(all)
	if !slices.Equal(all, ids) {
		t.Error("the splits do not partition the ids")
	}
	for s, v := range a {
		if !slices.IsSorted(v) {
			t.Errorf("%s not in file order", s)
		}
	}
	if !cmp.Equal(a, SplitRandom(ids, 1)) {
		t.Error("the same seed gave another split")
	}
	if cmp.Equal(a["test"], SplitRandom(ids, 2)["test"]) {
		t.Error("seeds 1 and 2 gave the same test split")
	}
	// Not by position: the test split is not the last tenth.
	if slices.Equal(a["test"], ids[len(ids)-192:]) {
		t.Error("the random split kept file order")
	}
}

// TestImportKGQA: a MetaQA file without a split is spread 60/20/20 by
// position; one given as FILE:test lands in test only; a PathQuestion file
// without a split is spread 80/10/10 at random; plans come from question
// types and paths.
func TestImportKGQA(t *testing.T) {
	dir := t.TempDir()
	write := func(name, s string) string {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	kb := write("kb.tsv", "A\tr\tB\nB\ts\tC\nC\tr\tA\n")
	skb, err := ReadTriples(kb, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(skb.Nodes) != 3 || skb.Edges.Len() != 3 || !cmp.Equal(skb.Schema.RelationTypes, []string{"r", "s"}) {
		t.Fatalf("TSV kb: %d nodes %d edges %v", len(skb.Nodes), skb.Edges.Len(), skb.Schema.RelationTypes)
	}
	var mq, pq strings.Builder
	for range 10 {
		mq.WriteString("what is [A] r to\tB\n")
		pq.WriteString("what is A 's r 's s ?\tC(C/)\tA#r#B#s#C#<end>#C\n")
	}
	dev := write("1-hop/qa_dev.txt", mq.String())
	write("1-hop/qa_dev_qtype.txt", strings.Repeat("movie_to_director\n", 10))
	test := write("2-hop/qa_test.txt", mq.String())
	pqf := write("pq/PQ-2H.txt", pq.String())
	imp, err := ImportKGQA(skb, []KGQAFileSpec{{Path: dev}, ParseKGQAFileSpec(test + ":test"), {Path: pqf}}, 7)
	if err != nil {
		t.Fatal(err)
	}
	// Query ids: dev 0-9, test file 10-19, PathQuestion 20-29.
	sp := skb.QA.Splits
	pqParts := SplitRandom([]int{20, 21, 22, 23, 24, 25, 26, 27, 28, 29}, 7)
	want := map[string][]int{
		"1-hop-dev": {0, 1, 2, 3, 4, 5, 6, 7, 8, 9},
		"test":      slices.Concat([]int{8, 9}, []int{10, 11, 12, 13, 14, 15, 16, 17, 18, 19}, pqParts["test"]),
		"train":     slices.Concat([]int{0, 1, 2, 3, 4, 5}, pqParts["train"]),
		"val":       slices.Concat([]int{6, 7}, pqParts["val"]),
		"pq-PQ-2H":  {20, 21, 22, 23, 24, 25, 26, 27, 28, 29},
	}
	slices.Sort(want["test"])
	got := map[string][]int{}
	for k, v := range sp {
		got[k] = slices.Sorted(slices.Values(v))
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("splits (-want +got):\n%s", d)
	}
	if len(pqParts["train"]) != 8 || len(pqParts["val"]) != 1 || len(pqParts["test"]) != 1 {
		t.Errorf("PathQuestion parts %v", pqParts)
	}
	// Plans: MetaQA's question type (movie_to_director: directed_by) for
	// the dev file, none for the test file (no qtype file), the path for
	// PathQuestion.
	if len(imp.Plans) != 20 || imp.Plans[0].MetapathTokens()[0][1] != "directed_by" ||
		!cmp.Equal(imp.Plans[25].MetapathTokens(), [][]string{{"entity", "->r", "entity", "->s", "entity"}}) {
		t.Errorf("plans %v", imp.Plans)
	}
	if q, _ := skb.QA.ByID(20); q.Text != "what is [A] 's r 's s ?" || !cmp.Equal(q.Answers, []uint32{2}) {
		t.Errorf("PathQuestion query %+v", q)
	}
	wantFiles := []KGQAFileResult{
		{File: dev, Format: KGQAMetaQA, Split: "1-hop-dev", Assigned: "train/val/test by position, 60/20/20", Stats: KGQAStats{Questions: 10}},
		{File: test, Format: KGQAMetaQA, Split: "test", Assigned: "that split only", Stats: KGQAStats{Questions: 10}},
		{File: pqf, Format: KGQAPathQuestion, Split: "pq-PQ-2H", Assigned: "train/val/test at random, 80/10/10, seed 7", Stats: KGQAStats{Questions: 10}},
	}
	if d := cmp.Diff(wantFiles, imp.Files); d != "" {
		t.Errorf("file reports (-want +got):\n%s", d)
	}
	if _, err := ImportKGQA(skb, []KGQAFileSpec{{Path: write("bad/PQ.txt", "q A\tA(A/)\tA#r#B\nq\tB(B/)\tA#r\n")}}, 1); err == nil ||
		!strings.Contains(err.Error(), "PQ.txt:2") {
		t.Errorf("malformed PathQuestion file: %v", err)
	}
}

func TestReadTriplesSeparator(t *testing.T) {
	for _, in := range []string{"\nA|r|B\nB|s|C\n", "A\tr\tB\nB\ts\tC\n", "A\tr|x\tB\nB\ts\tC\n"} {
		skb, err := ParseTriples(strings.NewReader(in), "kb", 0)
		if err != nil {
			t.Fatalf("%q: %v", in, err)
		}
		if len(skb.Nodes) != 3 || skb.Edges.Len() != 2 {
			t.Errorf("%q: %d nodes, %d edges", in, len(skb.Nodes), skb.Edges.Len())
		}
	}
	// The first line decides: a TAB there makes the file TSV.
	_, err := ParseTriples(strings.NewReader("A|r\tx|B\nB|s|C\n"), "kb", 0)
	var pe *ParseError
	if !errors.As(err, &pe) || pe.Line != 1 {
		t.Errorf("mixed separators: %v", err)
	}
}

func FuzzParsePathQuestion(f *testing.F) {
	f.Add([]byte("who is x 's y ?\tA(A/B/)\tx#y#A#<end>#A\n"))
	f.Add([]byte(" what is X 's r ?\tP_(Q)(P_(Q)/)\tX#r#P_(Q)\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		qs, err := ParsePathQuestion(bytes.NewReader(b), "pq.txt")
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) || pe.File != "pq.txt" {
				t.Fatalf("error %v is not a located ParseError", err)
			}
			return
		}
		for _, q := range qs {
			topics, ok := BracketedTopics(q.Text)
			if !ok || len(topics) != 1 || topics[0] != q.Topic || len(q.Answers) == 0 || len(q.Paths) != 1 || len(q.Paths[0]) == 0 {
				t.Fatalf("bad question accepted: %+v", q)
			}
			if p, ok := q.Plan(); !ok || len(p.MetapathTokens()[0]) != 2*len(q.Paths[0])+1 {
				t.Fatalf("plan of %+v: %+v", q, p)
			}
		}
	})
}

// TestTriplesManyRelationTypes reads a generated KB with 100,000 relation
// types (ids past one and two bytes) and checks every triple's relation
// against its line; past the limit (lowered here to 300) the reader names
// the file, the line and the limit.
func TestTriplesManyRelationTypes(t *testing.T) {
	const nrel, ntrip = 100_000, 150_000
	var b strings.Builder
	for i := range ntrip {
		fmt.Fprintf(&b, "e%d\tr%d\te%d\n", i%7000, i%nrel, (i*7+3)%7000)
	}
	skb, err := ParseTriples(strings.NewReader(b.String()), "big.tsv", 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(skb.Schema.RelationTypes) != nrel || skb.Edges.Len() != ntrip || len(skb.Nodes) != 7000 || skb.Edges.Rel.Hi == nil {
		t.Fatalf("%d relation types, %d triples, %d entities, wide %v", len(skb.Schema.RelationTypes), skb.Edges.Len(), len(skb.Nodes), skb.Edges.Rel.Hi != nil)
	}
	for i := range ntrip {
		if got, want := skb.Schema.RelationTypes[skb.Edges.Rel.At(i)], fmt.Sprintf("r%d", i%nrel); got != want {
			t.Fatalf("triple %d: relation %s, want %s", i, got, want)
		}
	}
	if err := skb.Validate(); err != nil {
		t.Fatal(err)
	}
	if c := skb.RelationCounts(); c[99_999] != 1 || c[0] != 2 || c[65_536] != 1 {
		t.Errorf("relation counts %d %d %d", c[0], c[65_536], c[99_999])
	}

	defer func(old int) { relationTypeLimit = old }(relationTypeLimit)
	relationTypeLimit = 300
	_, err = ParseTriples(strings.NewReader(b.String()), "big.tsv", 0)
	var pe *ParseError
	if !errors.As(err, &pe) || pe.File != "big.tsv" || pe.Line != 301 || pe.Field != "relation" || !errors.Is(err, ErrSchema) ||
		!strings.Contains(err.Error(), "limit of 300") {
		t.Errorf("301st relation type: %v, want big.tsv:301 past the limit of 300", err)
	}
}

// FuzzParseTriples reads arbitrary triples after a prefix of k distinct
// relation types (so ids cross 255 and 65,535): it either fails with a
// located error or returns a valid SKB whose every relation id names a
// relation type.
func FuzzParseTriples(f *testing.F) {
	f.Add([]byte("a\tr\tb\nb\ts\tc\n"), uint32(0))
	f.Add([]byte("a|r|b\n"), uint32(300))
	f.Add([]byte("x\tq\ty\n\n y \t q \t z\n"), uint32(70_000))
	f.Fuzz(func(t *testing.T, in []byte, k uint32) {
		k %= 70_001
		var b bytes.Buffer
		for i := range k {
			fmt.Fprintf(&b, "p\tpre%d\tq\n", i)
		}
		b.Write(in)
		skb, err := ParseTriples(&b, "kb.tsv", '\t')
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) || pe.File != "kb.tsv" {
				t.Fatalf("error %v is not a located ParseError", err)
			}
			return
		}
		if err := skb.Validate(); err != nil {
			t.Fatal(err)
		}
		if nr := len(skb.Schema.RelationTypes); nr < int(k) || (nr > 256) != (skb.Edges.Rel.Hi != nil) {
			t.Fatalf("%d relation types after a prefix of %d, wide %v", len(skb.Schema.RelationTypes), k, skb.Edges.Rel.Hi != nil)
		}
		for i := range int(min(k, uint32(skb.Edges.Len()))) {
			if got := skb.Schema.RelationTypes[skb.Edges.Rel.At(i)]; got != fmt.Sprintf("pre%d", i) {
				t.Fatalf("triple %d: relation %s", i, got)
			}
		}
	})
}
