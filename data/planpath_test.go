package data

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
)

// TestPlanJSONGolden: a plan with every token strata's paths know (a
// direction each way, alternatives, a universal step, a ranked middle,
// any type, any relation) is read into typed paths and written back to
// the same bytes, by strata's JSONL writer (HTML characters as written)
// and by json.Marshal (escaped, as before the paths were typed).
func TestPlanJSONGolden(t *testing.T) {
	const line = `{"Metapath":[["person","<-directed_by","movie~","∀->has_genre|<-x","*"],["*","*","*"]],"Restriction":{"*":["comedy"]},"Anchors":[{"text":"Ann","nodes":[3]},{"text":"b","nodes":null}],"Named":[7]}`
	var p Plan
	if err := json.Unmarshal([]byte(line), &p); err != nil {
		t.Fatal(err)
	}
	want := Path{
		Nodes: []PathNode{{Type: "person"}, {Type: "movie", Ranked: true}, {Type: AnyType}},
		Steps: []PathStep{
			{Rels: []RelStep{{Rel: "directed_by", Dir: Backward}}},
			{Rels: []RelStep{{Rel: "has_genre", Dir: Forward}, {Rel: "x", Dir: Backward}}, Every: true},
		},
	}
	if !reflect.DeepEqual(p.Paths[0], want) {
		t.Errorf("path 0: %+v\nwant %+v", p.Paths[0], want)
	}
	if got := p.Paths[1]; got.Hops() != 1 || got.Steps[0].Rels != nil || got.Steps[0].Every {
		t.Errorf("path 1: %+v, want any relation between any types", got)
	}
	var buf bytes.Buffer
	if err := WriteJSONL(&buf, []Plan{p}); err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSuffix(buf.String(), "\n"); got != line {
		t.Errorf("WriteJSONL:\n got %s\nwant %s", got, line)
	}
	b, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	if escaped := strings.NewReplacer("<", `\u003c`, ">", `\u003e`).Replace(line); string(b) != escaped {
		t.Errorf("json.Marshal:\n got %s\nwant %s", b, escaped)
	}
	for _, bad := range []string{`{"Metapath":[["a","r"]]}`, `{"Metapath":[[1]]}`} {
		if err := json.Unmarshal([]byte(bad), &p); err == nil {
			t.Errorf("%s: read without an error", bad)
		}
	}
}

// TestPathResolveLiteralNames: a name the schema has is read literally
// even where the token syntax would split it: a relation "a|b" or "->c",
// a type "x~"; the ends of a path are never ranked.
func TestPathResolveLiteralNames(t *testing.T) {
	s := &Schema{NodeTypes: []string{"x~", "x", "y"}, RelationTypes: []string{"a|b", "->c", "a", "d"}}
	p, err := ParsePath([]string{"y~", "a|b", "x~", "->c", "y", "a|d", "x"})
	if err != nil {
		t.Fatal(err)
	}
	if p.Nodes[0] != (PathNode{Type: "y~"}) {
		t.Errorf("anchor %+v, want the literal y~ (an end is not ranked)", p.Nodes[0])
	}
	if n := p.Nodes[1].ResolveType(s); n != (PathNode{Type: "x~"}) {
		t.Errorf("middle %+v, want the schema's type x~", n)
	}
	if n := p.Nodes[2].ResolveType(s); n != (PathNode{Type: "y"}) {
		t.Errorf("middle %+v, want y", n)
	}
	cases := []struct {
		step int
		want []RelStep
	}{
		{0, []RelStep{{Rel: "a|b"}}},
		{1, []RelStep{{Rel: "->c"}}},
		{2, []RelStep{{Rel: "a"}, {Rel: "d"}}},
	}
	for _, c := range cases {
		got, err := p.Steps[c.step].ResolveRelations(s)
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("step %d: %+v %v, want %+v", c.step, got, err, c.want)
		}
	}
	if _, err := parseStep("<-a|e").ResolveRelations(s); err == nil || !strings.Contains(err.Error(), `"e"`) {
		t.Errorf("unknown alternative: %v", err)
	}
	if got := strings.Join(p.Tokens(), " "); got != "y~ a|b x~ ->c y a|d x" {
		t.Errorf("tokens %q", got)
	}
}

// FuzzPlanJSON: any plan line that reads writes back to bytes that read
// as the same typed plan and write the same bytes again (the token form
// is a fixed point after one reading: ParsePath and Path.Tokens are
// inverses on what ParsePath returns).
func FuzzPlanJSON(f *testing.F) {
	for _, s := range []string{
		`{"Metapath":[["person","<-directed_by","movie~","∀->has_genre|<-x","*"]],"Restriction":{"*":["comedy"]}}`,
		`{"Metapath":[["a"," -> r ","b"],["~","∀∀","c~"]],"Anchors":[{"text":"A","nodes":[1]}],"Named":[2]}`,
		`{"Metapath":[["a","*|->r","b","","c"]],"Attributes":[{"key":"k","value":"v"}]}`,
		`{"Metapath":[["a"," ∀ * ","b"," ∀r","c"]]}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var p Plan
		if json.Unmarshal(b, &p) != nil {
			return
		}
		for _, path := range p.Paths {
			if len(path.Nodes) != len(path.Steps)+1 {
				t.Fatalf("%s: path %+v has %d positions for %d steps", b, path, len(path.Nodes), len(path.Steps))
			}
		}
		one, err := json.Marshal(p)
		if err != nil {
			t.Fatalf("%s: %v", b, err)
		}
		var q Plan
		if err := json.Unmarshal(one, &q); err != nil {
			t.Fatalf("%s: written %s does not read: %v", b, one, err)
		}
		two, _ := json.Marshal(q)
		if !bytes.Equal(one, two) {
			t.Fatalf("%s: written %s, then %s", b, one, two)
		}
	})
}

// TestPlanBounds: the readers accept a plan up to MaxPlanPaths paths of
// MaxPathSteps steps of MaxStepRelations relations, and refuse one more
// of each as a syntax error: in a plans file the line is counted invalid
// (its query falls back), in a query's own plan the line is an error.
func TestPlanBounds(t *testing.T) {
	path := func(steps, rels int) []string {
		out := []string{"a"}
		alts := strings.TrimSuffix(strings.Repeat("->r|", rels), "|")
		for range steps {
			out = append(out, alts, "a")
		}
		return out
	}
	plan := func(paths, steps, rels int) string {
		ps := make([][]string, paths)
		for i := range ps {
			ps[i] = path(steps, rels)
		}
		b, _ := json.Marshal(map[string]any{"Metapath": ps})
		return string(b)
	}
	for _, c := range []struct {
		paths, steps, rels int
		ok                 bool
	}{
		{16, 16, 64, true},
		{17, 1, 1, false},
		{1, 17, 1, false},
		{1, 1, 65, false},
	} {
		line := plan(c.paths, c.steps, c.rels)
		var p Plan
		err := json.Unmarshal([]byte(line), &p)
		if (err == nil) != c.ok || (!c.ok && !errors.Is(err, ErrSyntax)) {
			t.Errorf("%d paths of %d steps of %d relations: %v", c.paths, c.steps, c.rels, err)
		}
		if c.ok && (len(p.Paths) != c.paths || p.Paths[0].Hops() != c.steps || len(p.Paths[0].Steps[0].Rels) != c.rels) {
			t.Errorf("read %d paths, %d steps", len(p.Paths), p.Paths[0].Hops())
		}
		plans, st, err := ParsePlans(strings.NewReader(`{"q_id": 1, "plan": `+line+"}\n"), "p.jsonl")
		if err != nil || st.Invalid != map[bool]int{true: 0, false: 1}[c.ok] || (len(plans[1].Paths) > 0) != c.ok {
			t.Errorf("plans file, %d paths of %d steps of %d relations: %v, %+v", c.paths, c.steps, c.rels, err, st)
		}
	}
}

// TestParseRelStep: a step reads back as RelStep.String writes it, spaces
// around the arrow and the name trimmed; a name with no arrow follows its
// relation either way.
func TestParseRelStep(t *testing.T) {
	for _, c := range []struct {
		tok  string
		want RelStep
	}{
		{"->directed_by", RelStep{Rel: "directed_by", Dir: Forward}},
		{"<-written_by", RelStep{Rel: "written_by", Dir: Backward}},
		{" -> part holonym ", RelStep{Rel: "part holonym", Dir: Forward}},
		{"has_genre", RelStep{Rel: "has_genre"}},
	} {
		got := ParseRelStep(c.tok)
		if got != c.want {
			t.Errorf("ParseRelStep(%q) = %+v, want %+v", c.tok, got, c.want)
		}
		if back := ParseRelStep(got.String()); back != got {
			t.Errorf("ParseRelStep(%q.String()) = %+v, want %+v", c.tok, back, got)
		}
	}
}
