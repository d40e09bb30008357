package data

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParsePattern(t *testing.T) {
	p, err := ParsePattern([][3]string{
		{"John Krasinski", "starred_actors", "UNKNOWN movie 1"},
		{"UNKNOWN movie 1", "directed_by", "UNKNOWN  person 1"},
	}, "")
	if err != nil {
		t.Fatal(err)
	}
	want := Pattern{
		Nodes: []PatternNode{
			{Text: "John Krasinski"},
			{Text: "UNKNOWN movie 1", Unknown: true, Type: "movie"},
			{Text: "UNKNOWN person 1", Unknown: true, Type: "person"},
		},
		Triples: []PatternTriple{{H: 0, Rel: "starred_actors", T: 1}, {H: 1, Rel: "directed_by", T: 2}},
		Target:  2,
	}
	if !cmp.Equal(p, want) {
		t.Errorf("got %+v", p)
	}
	if p, err = ParsePattern(p.Triples3(), "UNKNOWN movie 1"); err != nil || p.Target != 1 {
		t.Errorf("explicit target: %v %v", p.Target, err)
	}
	for _, bad := range []struct {
		triples [][3]string
		target  string
		msg     string
	}{
		{nil, "", "no triples"},
		{[][3]string{{"a", "r", "b"}}, "", "UNKNOWN"},
		{[][3]string{{"a", "", "UNKNOWN 1"}}, "", "empty relation"},
		{[][3]string{{"UNKNOWN 1", "r", "UNKNOWN 1"}}, "", "itself"},
		{[][3]string{{"a", "r", "UNKNOWN 1"}}, "UNKNOWN 2", "not a node"},
		{[][3]string{{" ", "r", "UNKNOWN 1"}}, "", "empty node"},
	} {
		if _, err := ParsePattern(bad.triples, bad.target); err == nil || !strings.Contains(err.Error(), bad.msg) {
			t.Errorf("%v: err %v, want %q", bad.triples, err, bad.msg)
		}
	}
}

// TestPatternUnknownMarker: only the exact upper-case word UNKNOWN opens an
// unknown (MetaQA has a film called "Unknown"); a known node whose name
// starts with the word UNKNOWN is escaped with a backslash and reads back as
// the same known node.
func TestPatternUnknownMarker(t *testing.T) {
	p, err := ParsePattern([][3]string{
		{"Unknown", "directed_by", "UNKNOWN person 1"},
		{"unknown movie 2", "directed_by", "UNKNOWN person 1"},
		{`\UNKNOWN  Soldier`, "directed_by", "UNKNOWN person 1"},
		{`\\x`, "r", "UNKNOWN person 1"},
	}, "")
	if err != nil {
		t.Fatal(err)
	}
	want := []PatternNode{
		{Text: "Unknown"},
		{Text: "UNKNOWN person 1", Unknown: true, Type: "person"},
		{Text: "unknown movie 2"},
		{Text: "UNKNOWN Soldier"},
		{Text: `\x`},
	}
	if d := cmp.Diff(want, p.Nodes); d != "" || p.Target != 1 {
		t.Errorf("nodes (-want +got):\n%s target %d", d, p.Target)
	}
	back := p.Triples3()
	if back[2][0] != `\UNKNOWN Soldier` || back[0][0] != "Unknown" || back[3][0] != `\\x` {
		t.Errorf("written back as %q", back)
	}
	again, err := ParsePattern(back, "")
	if err != nil || !cmp.Equal(again, p) {
		t.Errorf("round trip: %+v %v", again, err)
	}
	// The escaped known node and the unknown of the same words are two nodes.
	p, err = ParsePattern([][3]string{{`\UNKNOWN x 1`, "r", "UNKNOWN x 1"}}, "")
	if err != nil || len(p.Nodes) != 2 || p.Nodes[0].Unknown || !p.Nodes[1].Unknown || p.Nodes[0].Text != p.Nodes[1].Text {
		t.Errorf("escaped vs unknown: %+v %v", p, err)
	}
	for name, want := range map[string]string{
		"Unknown": "Unknown", "UNKNOWN": `\UNKNOWN`, " UNKNOWN  Soldier ": `\UNKNOWN Soldier`,
		"UNKNOWNS": "UNKNOWNS", `\d`: `\\d`, "Heat": "Heat",
	} {
		if got := KnownNodeText(name); got != want {
			t.Errorf("KnownNodeText(%q) = %q, want %q", name, got, want)
		}
	}
	if _, err := ParsePattern([][3]string{{`\`, "r", "UNKNOWN 1"}}, ""); err == nil || !strings.Contains(err.Error(), "empty node") {
		t.Errorf("a lone backslash: %v", err)
	}
}

// TestPlanPatternKnownNamedUnknown: plan anchors named "Unknown" or
// "UNKNOWN ..." stay known nodes of the pattern.
func TestPlanPatternKnownNamedUnknown(t *testing.T) {
	for _, anchor := range []string{"Unknown", "UNKNOWN", "UNKNOWN Soldier 2"} {
		p, ok := PlanPattern(Plan{
			Paths:       MustPaths([][]string{{"entity", "starred_actors", "entity", "directed_by", "entity"}}...),
			Restriction: map[string][]string{"entity": {anchor}},
		})
		if !ok {
			t.Fatalf("%q: not converted", anchor)
		}
		want := []PatternNode{
			{Text: anchor},
			{Text: "UNKNOWN entity 101", Unknown: true, Type: "entity"},
			{Text: "UNKNOWN entity 0", Unknown: true, Type: "entity"},
		}
		if d := cmp.Diff(want, p.Nodes); d != "" || p.Target != 2 {
			t.Errorf("%q (-want +got):\n%s", anchor, d)
		}
	}
}

func TestBracketedTopics(t *testing.T) {
	for _, c := range []struct {
		text string
		want []string
		ok   bool
	}{
		{"who directed [Heat]", []string{"Heat"}, true},
		{"films with [A] and [ B  ]", []string{"A", "B"}, true},
		{"[A][B] [A]", []string{"A", "B", "A"}, true},
		{"no topic", nil, false},
		{"who [A [B]]", nil, false},
		{"who ]A[", nil, false},
		{"who [A] and [", nil, false},
		{"who [A] and [ ]", nil, false},
	} {
		got, ok := BracketedTopics(c.text)
		if ok != c.ok || !cmp.Equal(got, c.want) {
			t.Errorf("BracketedTopics(%q) = %q %v, want %q %v", c.text, got, ok, c.want, c.ok)
		}
	}
	if _, ok := BracketedTopic("films with [A] and [B]"); ok {
		t.Error("BracketedTopic accepted two topics")
	}
}

// TestJoinPatterns joins two single-path patterns at their targets: known
// nodes of equal text merge, the other unknowns stay apart.
func TestJoinPatterns(t *testing.T) {
	a, _ := PlanPattern(Plan{Paths: MustPaths([][]string{{"entity", "starred_actors", "entity", "directed_by", "entity"}}...), Restriction: map[string][]string{"entity": {"A"}}})
	b, _ := PlanPattern(Plan{Paths: MustPaths([][]string{{"entity", "starred_actors", "entity", "directed_by", "entity"}}...), Restriction: map[string][]string{"entity": {"UNKNOWN B"}}})
	c, _ := PlanPattern(Plan{Paths: MustPaths([][]string{{"entity", "written_by", "entity"}}...), Restriction: map[string][]string{"entity": {"A"}}})
	p, err := JoinPatterns([]Pattern{a, b, c})
	if err != nil {
		t.Fatal(err)
	}
	want := [][3]string{
		{"A", "starred_actors", "UNKNOWN entity 1001"},
		{"UNKNOWN entity 1001", "directed_by", "UNKNOWN entity 0"},
		{`\UNKNOWN B`, "starred_actors", "UNKNOWN entity 2001"},
		{"UNKNOWN entity 2001", "directed_by", "UNKNOWN entity 0"},
		{"A", "written_by", "UNKNOWN entity 0"},
	}
	if d := cmp.Diff(want, p.Triples3()); d != "" || p.Nodes[p.Target].Text != "UNKNOWN entity 0" || len(p.Nodes) != 5 {
		t.Errorf("joined (-want +got):\n%s nodes %+v target %d", d, p.Nodes, p.Target)
	}
	if one, err := JoinPatterns([]Pattern{a}); err != nil || len(one.Nodes) != 3 || len(one.Triples) != 2 {
		t.Errorf("one pattern: %+v %v", one, err)
	}
	if _, err := JoinPatterns(nil); err == nil {
		t.Error("joined nothing")
	}
}

func TestParsePatternsFile(t *testing.T) {
	in := `{"q_id": 4, "query": "who directed [Heat]", "triples": [["Heat", "directed_by", "UNKNOWN person 1"]]}

{"q_id": 5, "triples": [["A", "r", "UNKNOWN x"], ["B", "s", "UNKNOWN x"]], "target": "UNKNOWN x"}
`
	ps, err := ParsePatterns(strings.NewReader(in), "p.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) != 2 || len(ps[5].Nodes) != 3 || ps[5].Target != 1 || ps[4].Nodes[1].Type != "person" {
		t.Errorf("%+v", ps)
	}
	_, err = ParsePatterns(strings.NewReader(in+`{"q_id": 6, "triples": [["A", "r", "B"]]}`+"\n"), "p.jsonl")
	var pe *ParseError
	if !errors.As(err, &pe) || pe.Line != 4 || pe.Field != "triples" {
		t.Errorf("no unknown: %v", err)
	}
	_, err = ParsePatterns(strings.NewReader(in+`{"q_id": 4, "triples": [["A", "r", "UNKNOWN"]]}`+"\n"), "p.jsonl")
	if !errors.Is(err, ErrDuplicateID) {
		t.Errorf("duplicate: %v", err)
	}
}

func TestPlanPattern(t *testing.T) {
	p, ok := PlanPattern(Plan{
		Paths: MustPaths([][]string{
			{"author", "writes", "paper", "cites", "paper"},
			{"field", "has_topic", "paper"},
		}...),
		Restriction: map[string][]string{"author": {"Ann Lee"}, "field": {"optics"}},
	})
	if !ok {
		t.Fatal("not converted")
	}
	got := p.Triples3()
	want := [][3]string{
		{"Ann Lee", "writes", "UNKNOWN paper 101"},
		{"UNKNOWN paper 101", "cites", "UNKNOWN paper 0"},
		{"optics", "has_topic", "UNKNOWN paper 0"},
	}
	if !cmp.Equal(got, want) || p.Nodes[p.Target].Text != "UNKNOWN paper 0" {
		t.Errorf("got %v target %d", got, p.Target)
	}
	if _, ok := PlanPattern(Plan{Paths: MustPaths([][]string{{"a", "r", "b"}}...)}); ok {
		t.Error("a plan without anchors converted")
	}
}

// Mined and planned plans: linked anchors, directed steps, untyped nodes,
// two known nodes; MoR's "*" resolved between typed nodes.
func TestPlanPatternDirectedLinked(t *testing.T) {
	p, ok := PlanPattern(Plan{
		Paths:   MustPaths([][]string{{"noun.plant", "<-hypernym", "*"}, {"noun.group", "<-member holonym|<-part holonym", "*"}}...),
		Anchors: []PlanAnchor{{Text: "fern", Nodes: []uint32{3}}, {Text: "genus Dryopteris", Nodes: []uint32{7, 8}}},
	})
	if !ok {
		t.Fatal("not converted")
	}
	want := [][3]string{
		{"UNKNOWN 0", "->hypernym", "fern"},
		{"UNKNOWN 0", "->member holonym|part holonym", "genus Dryopteris"},
	}
	if got := p.Triples3(); !cmp.Equal(got, want) {
		t.Errorf("triples %v, want %v", got, want)
	}
	if !p.Triples[0].Directed || p.Triples[0].Rel != "hypernym" || p.Nodes[p.Target].Type != "" {
		t.Errorf("pattern %+v", p)
	}
	for _, n := range p.Nodes {
		switch n.Text {
		case "fern":
			if !cmp.Equal(n.Nodes, []uint32{3}) {
				t.Errorf("fern linked to %v", n.Nodes)
			}
		case "genus Dryopteris":
			if !cmp.Equal(n.Nodes, []uint32{7, 8}) {
				t.Errorf("Dryopteris linked to %v", n.Nodes)
			}
		}
	}
	// The written form reads back the same triples.
	q, err := ParsePattern(p.Triples3(), "")
	if err != nil || !cmp.Equal(q.Triples, p.Triples) {
		t.Errorf("round trip %+v %v", q.Triples, err)
	}
	// "*" between typed nodes: resolved, or no pattern when nothing links them.
	between := func(a, b string) []string {
		if a == "brand" && b == "product" {
			return []string{"has_brand"}
		}
		return nil
	}
	mor := Plan{Paths: MustPaths([][]string{{"brand", "*", "product"}}...), Restriction: map[string][]string{"brand": {"Acme"}, "product": {"red"}}}
	if p, ok := PlanPatternResolved(mor, between); !ok || p.Triples3()[0] != [3]string{"Acme", "has_brand", "UNKNOWN product 0"} {
		t.Errorf("resolved: %v %v", p.Triples3(), ok)
	}
	if p, ok := PlanPattern(mor); !ok || p.Triples[0].Rel != "*" {
		t.Errorf("unresolved: %+v %v", p, ok)
	}
	mor.Paths[0].Nodes[0].Type, mor.Restriction = "color", map[string][]string{"color": {"red"}}
	if _, ok := PlanPatternResolved(mor, between); ok {
		t.Error("color * product converted although no relation links them")
	}
}

func FuzzParsePatterns(f *testing.F) {
	f.Add(`{"q_id": 1, "triples": [["A", "r", "UNKNOWN t 1"]]}`)
	f.Add(`{"q_id": 1, "triples": [["A", "r", "UNKNOWN"]], "target": "A"}`)
	f.Add(`{"q_id": 1, "triples": [["\\UNKNOWN A", "r", "UNKNOWN"], ["Unknown", "s", "UNKNOWN"]]}`)
	f.Fuzz(func(t *testing.T, s string) {
		ps, err := ParsePatterns(strings.NewReader(s), "f")
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("unlocated error %v", err)
			}
			return
		}
		for _, p := range ps {
			if p.Target < 0 || p.Target >= len(p.Nodes) || !p.Nodes[p.Target].Unknown {
				t.Fatalf("bad target %+v", p)
			}
			// Written back, a pattern reads as itself (known nodes escaped).
			back, err := ParsePattern(p.Triples3(), p.Nodes[p.Target].Text)
			if err != nil || !cmp.Equal(back, p) {
				t.Fatalf("round trip of %+v: %+v %v", p, back, err)
			}
			for _, tr := range p.Triples {
				if tr.H == tr.T || tr.H >= len(p.Nodes) || tr.T >= len(p.Nodes) {
					t.Fatalf("bad triple %+v", p)
				}
			}
		}
	})
}
