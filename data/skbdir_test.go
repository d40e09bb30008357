package data

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func tinySKB() *SKB {
	s := &SKB{Schema: Schema{
		Format: FormatSKBDir, Name: "tiny",
		NodeTypes:      []string{"product", "brand"},
		RelationTypes:  []string{"has_brand", "also_buy"},
		CandidateTypes: []string{"product"},
		TextFields:     []string{"title", "description"},
	}}
	s.Nodes = []Node{
		{Type: 0, Name: "Trail Shoe", Fields: []string{"Trail Shoe X", "light \"grippy\"\nsole"}},
		{Type: 0, Name: "Road Shoe", Fields: []string{"", "fast"}},
		{Type: 1, Name: "Acme", Fields: []string{"", ""}},
	}
	s.Edges.Add(0, 0, 2)
	s.Edges.Add(1, 0, 2)
	s.Edges.Add(0, 1, 1)
	s.QA = &QA{
		Queries: []Query{{ID: 3, Text: "acme trail, shoe", Answers: []uint32{0}}, {ID: 7, Text: "fast \"road\" shoe", Answers: []uint32{1, 0}}},
		Human:   []Query{{ID: 0, Text: "grippy", Answers: []uint32{0, 1}, Source: []uint32{0}}},
		Splits:  map[string][]int{"train": {3}, "test": {7}},
	}
	return s
}

func TestSKBDirRoundTrip(t *testing.T) {
	for _, compress := range []bool{false, true} {
		dir := filepath.Join(t.TempDir(), "skb")
		in := tinySKB()
		plans := []PlanRecord{{QID: 3, Query: "acme trail, shoe", AnswerIDs: []uint32{0}, Plan: Plan{
			Paths: MustPaths([][]string{{"brand", "has_brand", "product"}}...), Restriction: map[string][]string{"brand": {"Acme"}, "product": {"trail"}}}}}
		if err := WriteSKBDir(dir, in, WriteOptions{Compress: compress, Plans: plans}); err != nil {
			t.Fatal(err)
		}
		if compress {
			if _, err := os.Stat(filepath.Join(dir, "nodes.jsonl.zst")); err != nil {
				t.Fatal("nodes.jsonl.zst not written")
			}
		}
		out, err := ReadSKBDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		opts := cmp.Options{cmpopts.IgnoreUnexported(QA{})}
		if d := cmp.Diff(in, out, opts); d != "" {
			t.Errorf("compress=%v round trip (-in +out):\n%s", compress, d)
		}
		got, _, err := ReadPlans(filepath.Join(dir, PlansFile))
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(plans[0].Plan, got[3]); d != "" {
			t.Errorf("plans: %s", d)
		}
		// Writing again without Overwrite must refuse and keep the old data.
		if err := WriteSKBDir(dir, in, WriteOptions{Compress: compress}); err == nil {
			t.Error("second write without Overwrite succeeded")
		}
	}
}

func TestSKBDirGolden(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "skb")
	if err := WriteSKBDir(dir, tinySKB(), WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"nodes.jsonl": `{"id":0,"type":"product","name":"Trail Shoe","fields":{"title":"Trail Shoe X","description":"light \"grippy\"\nsole"}}
{"id":1,"type":"product","name":"Road Shoe","fields":{"description":"fast"}}
{"id":2,"type":"brand","name":"Acme","fields":{}}
`,
		"edges.tsv":             "0\thas_brand\t2\n1\thas_brand\t2\n0\talso_buy\t1\n",
		"stark_qa/stark_qa.csv": "id,query,answer_ids\n3,\"acme trail, shoe\",[0]\n7,\"fast \"\"road\"\" shoe\",\"[1, 0]\"\n",
		"stark_qa/stark_qa_human_generated_eval.csv": "id,query,answer_ids,answer_ids_source\n0,grippy,\"[0, 1]\",[0]\n",
		"split/train.index":                          "3\n",
		"split/test.index":                           "7\n",
	}
	for name, want := range files {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if string(b) != want {
			t.Errorf("%s:\n got %q\nwant %q", name, b, want)
		}
	}
	skb := tinySKB()
	if got, want := skb.Document(0), "Trail Shoe\ntitle: Trail Shoe X\ndescription: light \"grippy\"\nsole"; got != want {
		t.Errorf("Document(0) = %q, want %q", got, want)
	}
	if got := skb.Document(2); got != "Acme" {
		t.Errorf("Document(2) = %q", got)
	}
}

// writeDir writes a minimal skbdir with the given file contents overriding
// the valid defaults.
func writeDir(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	def := map[string]string{
		"schema.json": `{"format":"skbdir/1","name":"t","node_types":["a","b"],"relation_types":["r"],"candidate_types":["a"],"text_fields":["f"]}`,
		"nodes.jsonl": `{"id":0,"type":"a","name":"x","fields":{"f":"v"}}` + "\n" + `{"id":1,"type":"b","name":"y"}` + "\n",
		"edges.tsv":   "0\tr\t1\n",
	}
	for k, v := range files {
		def[k] = v
	}
	for k, v := range def {
		if v == "" {
			continue
		}
		p := filepath.Join(dir, k)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(v), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestSKBDirErrors(t *testing.T) {
	cases := []struct {
		name     string
		files    map[string]string
		sentinel error
		file     string
		line     int
		field    string
	}{
		{"unknown type", map[string]string{"nodes.jsonl": `{"id":0,"type":"a","name":"x"}` + "\n" + `{"id":1,"type":"zz","name":"y"}` + "\n"}, ErrUnknownType, "nodes.jsonl", 2, "type"},
		{"duplicate id", map[string]string{"nodes.jsonl": `{"id":0,"type":"a","name":"x"}` + "\n" + `{"id":0,"type":"a","name":"y"}` + "\n"}, ErrDuplicateID, "nodes.jsonl", 2, "id"},
		{"id gap", map[string]string{"nodes.jsonl": `{"id":0,"type":"a","name":"x"}` + "\n" + `{"id":5,"type":"a","name":"y"}` + "\n"}, ErrIDRange, "nodes.jsonl", 2, "id"},
		{"missing id", map[string]string{"nodes.jsonl": `{"type":"a","name":"x"}` + "\n"}, ErrSyntax, "nodes.jsonl", 1, "id"},
		{"bad json", map[string]string{"nodes.jsonl": `{"id":0,"type":"a","name":"x"}` + "\n" + `{"id":1,"type":` + "\n"}, ErrSyntax, "nodes.jsonl", 2, ""},
		{"field type", map[string]string{"nodes.jsonl": `{"id":0,"type":"a","name":7}` + "\n"}, ErrSyntax, "nodes.jsonl", 1, "name"},
		{"unknown field", map[string]string{"nodes.jsonl": `{"id":0,"type":"a","name":"x","fields":{"g":"v"}}` + "\n"}, ErrUnknownField, "nodes.jsonl", 1, "fields.g"},
		{"unknown relation", map[string]string{"edges.tsv": "0\tr\t1\n1\tq\t0\n"}, ErrUnknownRelation, "edges.tsv", 2, "relation"},
		{"edge out of range", map[string]string{"edges.tsv": "0\tr\t1\n\n0\tr\t2\n"}, ErrIDRange, "edges.tsv", 3, "dst"},
		{"edge not a number", map[string]string{"edges.tsv": "x\tr\t1\n"}, ErrSyntax, "edges.tsv", 1, "src"},
		{"edge columns", map[string]string{"edges.tsv": "0\tr\n"}, ErrSyntax, "edges.tsv", 1, ""},
		{"schema format", map[string]string{"schema.json": `{"format":"skbdir/2","node_types":["a"]}`}, ErrSchema, "schema.json", 0, "format"},
		{"schema candidate", map[string]string{"schema.json": `{"format":"skbdir/1","node_types":["a"],"candidate_types":["b"]}`}, ErrSchema, "schema.json", 0, ""},
		{"missing nodes", map[string]string{"nodes.jsonl": ""}, ErrMissingFile, "nodes.jsonl", 0, ""},
		{"qa answer range", map[string]string{"stark_qa/stark_qa.csv": "id,query,answer_ids\n1,q,[0]\n2,q,\"[1, 9]\"\n"}, ErrIDRange, "stark_qa.csv", 3, "answer_ids"},
		{"qa answer syntax", map[string]string{"stark_qa/stark_qa.csv": "id,query,answer_ids\n1,q,[0;1]\n"}, ErrSyntax, "stark_qa.csv", 2, "answer_ids"},
		{"qa duplicate", map[string]string{"stark_qa/stark_qa.csv": "id,query,answer_ids\n1,q,[0]\n1,q,[0]\n"}, ErrDuplicateID, "stark_qa.csv", 3, "id"},
		{"qa header", map[string]string{"stark_qa/stark_qa.csv": "id,text,answer_ids\n1,q,[0]\n"}, ErrSyntax, "stark_qa.csv", 1, "query"},
		{"qa columns", map[string]string{"stark_qa/stark_qa.csv": "id,query,answer_ids\n1,q\n"}, ErrSyntax, "stark_qa.csv", 2, ""},
		{"split unknown id", map[string]string{"stark_qa/stark_qa.csv": "id,query,answer_ids\n1,q,[0]\n", "split/test.index": "1\n4\n"}, ErrIDRange, "test.index", 2, "query_id"},
		{"split syntax", map[string]string{"stark_qa/stark_qa.csv": "id,query,answer_ids\n1,q,[0]\n", "split/test.index": "1\nabc\n"}, ErrSyntax, "test.index", 2, "query_id"},
		{"split duplicate", map[string]string{"stark_qa/stark_qa.csv": "id,query,answer_ids\n1,q,[0]\n", "split/test.index": "1\n1\n"}, ErrDuplicateID, "test.index", 2, "query_id"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := writeDir(t, c.files)
			_, err := ReadSKBDir(dir)
			if err == nil {
				t.Fatal("no error")
			}
			if !errors.Is(err, c.sentinel) {
				t.Errorf("error %v is not %v", err, c.sentinel)
			}
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %v is not a *ParseError", err)
			}
			if !strings.HasSuffix(pe.File, c.file) || pe.Line != c.line || pe.Field != c.field {
				t.Errorf("located at %s:%d field %q, want %s:%d field %q (%v)", pe.File, pe.Line, pe.Field, c.file, c.line, c.field, err)
			}
		})
	}
}

func TestParseIDList(t *testing.T) {
	cases := []struct {
		in   string
		want []uint32
		bad  bool
	}{
		{"[18423]", []uint32{18423}, false},
		{"[95312, 35882]", []uint32{95312, 35882}, false},
		{" [ 1 ,2 ] ", []uint32{1, 2}, false},
		{"[]", []uint32{}, false},
		{"[1,]", nil, true},
		{"[-1]", nil, true},
		{"1, 2", nil, true},
		{"[4294967296]", nil, true},
		{"[1.5]", nil, true},
	}
	for _, c := range cases {
		got, err := ParseIDList(c.in, 0)
		if (err != nil) != c.bad {
			t.Errorf("ParseIDList(%q) error = %v, want bad=%v", c.in, err, c.bad)
			continue
		}
		if !c.bad && !cmp.Equal(got, c.want) {
			t.Errorf("ParseIDList(%q) = %v, want %v", c.in, got, c.want)
		}
	}
}

func TestTriplesAndKGQA(t *testing.T) {
	skb, err := ParseTriples(strings.NewReader("A|r1|B\nB|r2|C\nA|r1|B\n\nC|r1|A\n"), "kb.txt", '|')
	if err != nil {
		t.Fatal(err)
	}
	if skb.Edges.Len() != 3 || len(skb.Nodes) != 3 || !cmp.Equal(skb.Schema.RelationTypes, []string{"r1", "r2"}) {
		t.Errorf("edges=%d nodes=%d rels=%v", skb.Edges.Len(), len(skb.Nodes), skb.Schema.RelationTypes)
	}
	if !cmp.Equal(skb.Edges.Dst, []uint32{1, 2, 0}) {
		t.Errorf("dst = %v", skb.Edges.Dst)
	}
	_, err = ParseTriples(strings.NewReader("A|r1|B\nA|r1\n"), "kb.txt", '|')
	var pe *ParseError
	if !errors.As(err, &pe) || pe.Line != 2 {
		t.Errorf("short triple: %v", err)
	}
	qs, err := ParseKGQA(strings.NewReader("who wrote [A]\tB|C\n"), "qa.txt")
	if err != nil {
		t.Fatal(err)
	}
	if qs[0].Topic != "A" || qs[0].Text != "who wrote [A]" || !cmp.Equal(qs[0].Answers, []string{"B", "C"}) {
		t.Errorf("%+v", qs[0])
	}
	st := KGQAToQA(skb, "dev", qs)
	if st.DroppedAnswers != 0 || !cmp.Equal(skb.QA.Queries[0].Answers, []uint32{1, 2}) {
		t.Errorf("%+v %+v", st, skb.QA.Queries)
	}
	qs, err = ParseKGQA(strings.NewReader("films with [A] and [ C ]\tB\n"), "qa.txt")
	if err != nil || qs[0].Topic != "A" || !cmp.Equal(qs[0].Topics, []string{"A", "C"}) {
		t.Errorf("two topics: %+v %v", qs, err)
	}
	for _, bad := range []string{"no tab here", "who [A\tB", "who [A [B]]\tC", "who ]A[\tC", "who [A] and []\tC", "who []\tB", "who [A]\t|"} {
		if _, err := ParseKGQA(strings.NewReader(bad+"\n"), "qa.txt"); !errors.As(err, &pe) || pe.Line != 1 {
			t.Errorf("ParseKGQA(%q) error = %v", bad, err)
		}
	}
}

func FuzzParseStarkQACSV(f *testing.F) {
	f.Add([]byte("id,query,answer_ids\n1,\"a, b\",\"[1, 2]\"\n"))
	f.Add([]byte("id,query,answer_ids,answer_ids_source\n0,q,[3],[3]\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		qs, err := ParseStarkQACSV(bytes.NewReader(b), "f.csv", 100)
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %v is not a ParseError", err)
			}
			return
		}
		for _, q := range qs {
			for _, a := range q.Answers {
				if a >= 100 {
					t.Fatalf("answer %d out of range accepted", a)
				}
			}
		}
	})
}

func FuzzParseNodeLine(f *testing.F) {
	f.Add([]byte(`{"id":0,"type":"a","name":"x","fields":{"f":"v"}}`))
	f.Add([]byte(`{"id":0,"type":"b"}`))
	schema := &Schema{NodeTypes: []string{"a", "b"}, TextFields: []string{"f"}}
	f.Fuzz(func(t *testing.T, b []byte) {
		n, err := parseNodeLine("n.jsonl", 1, b, schema)
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) || pe.Line != 1 {
				t.Fatalf("error %v is not located", err)
			}
			return
		}
		if int(n.Type) >= 2 || len(n.Fields) != 1 {
			t.Fatalf("bad node accepted: %+v", n)
		}
	})
}

func FuzzParseEdgeLine(f *testing.F) {
	f.Add([]byte("0\tr\t1"))
	f.Add([]byte("12\tr\t"))
	rels := map[string]RelID{"r": 0}
	f.Fuzz(func(t *testing.T, b []byte) {
		s, _, d, err := parseEdgeLine("e.tsv", 1, b, rels, 10)
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %v is not a ParseError", err)
			}
			return
		}
		if s >= 10 || d >= 10 {
			t.Fatalf("out-of-range edge accepted: %d %d", s, d)
		}
	})
}

func FuzzReadIndex(f *testing.F) {
	f.Add([]byte("1\n2\n\n3\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		ids, lines, err := ReadIndex(bytes.NewReader(b), "x.index")
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %v is not a ParseError", err)
			}
			return
		}
		seen := map[int]bool{}
		for i, id := range ids {
			if id < 0 || seen[id] || lines[i] < 1 {
				t.Fatalf("bad id %d accepted", id)
			}
			seen[id] = true
		}
	})
}

func FuzzParseKGQA(f *testing.F) {
	f.Add([]byte("who directed [X]\tA|B\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		qs, err := ParseKGQA(bytes.NewReader(b), "qa.txt")
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %v is not a ParseError", err)
			}
			return
		}
		for _, q := range qs {
			if q.Topic == "" || len(q.Answers) == 0 {
				t.Fatalf("bad question accepted: %+v", q)
			}
		}
	})
}

// TestSKBDirNameField: a schema listing "name" among its text fields (as
// ../shared/data/wordnet-skb does) makes that field the node's name: Field
// reads the name, fields.name in nodes.jsonl may give the name or repeat it
// but not differ, and the whole document is unchanged (the name first, not
// repeated as a "name:" line).
func TestSKBDirNameField(t *testing.T) {
	schema := `{"format":"skbdir/1","name":"t","node_types":["a"],"relation_types":["r"],"candidate_types":["a"],"text_fields":["name","definition"]}`
	dir := writeDir(t, map[string]string{
		"schema.json": schema,
		"nodes.jsonl": `{"id":0,"type":"a","name":"dog","fields":{"definition":"a domestic canine"}}
{"id":1,"type":"a","fields":{"name":"cat","definition":"a feline"}}
{"id":2,"type":"a","name":"fox","fields":{"name":"fox"}}
`,
		"edges.tsv": "0\tr\t1\n",
	})
	skb, err := ReadSKBDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []string{"dog", "cat", "fox"} {
		if got := skb.Field(uint32(i), "name"); got != want || skb.Nodes[i].Name != want {
			t.Errorf("node %d: Field(name) = %q, Name = %q, want %q", i, got, skb.Nodes[i].Name, want)
		}
		if skb.Nodes[i].Fields[0] != "" {
			t.Errorf("node %d: name slot holds %q", i, skb.Nodes[i].Fields[0])
		}
	}
	for i, want := range []string{"dog\ndefinition: a domestic canine", "cat\ndefinition: a feline", "fox"} {
		if got := skb.Document(uint32(i)); got != want {
			t.Errorf("Document(%d) = %q, want %q", i, got, want)
		}
	}
	if err := skb.Validate(); err != nil {
		t.Error(err)
	}
	// Written back, the name is not repeated under fields.
	out := filepath.Join(t.TempDir(), "out")
	if err := WriteSKBDir(out, skb, WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(filepath.Join(out, "nodes.jsonl"))
	if want := `{"id":1,"type":"a","name":"cat","fields":{"definition":"a feline"}}`; !strings.Contains(string(b), want) {
		t.Errorf("nodes.jsonl written as\n%s", b)
	}
	_, err = ReadSKBDir(writeDir(t, map[string]string{"schema.json": schema,
		"nodes.jsonl": `{"id":0,"type":"a","name":"dog","fields":{"name":"hound"}}` + "\n", "edges.tsv": "0\tr\t0\n"}))
	var pe *ParseError
	if !errors.As(err, &pe) || pe.Line != 1 || pe.Field != "fields.name" {
		t.Errorf("a differing fields.name: %v", err)
	}
	skb.Nodes[2].Fields[0] = "vixen"
	if err := skb.Validate(); err == nil {
		t.Error("Validate accepted a name slot that differs from the name")
	}
	// Without "name" in the schema, Field("name") is the name too.
	if got := tinySKB().Field(2, "name"); got != "Acme" {
		t.Errorf("tiny Field(2, name) = %q", got)
	}
}

// TestSchemaTypeLimits: a schema.json with 65,535 node types and 70,000
// relation types reads; one more node type than strata's limit is refused
// naming the file and the limit.
func TestSchemaTypeLimits(t *testing.T) {
	dir := t.TempDir()
	write := func(nt, nr int) string {
		s := Schema{Format: FormatSKBDir, Name: "wide"}
		for i := range nt {
			s.NodeTypes = append(s.NodeTypes, fmt.Sprintf("t%d", i))
		}
		for i := range nr {
			s.RelationTypes = append(s.RelationTypes, fmt.Sprintf("r%d", i))
		}
		b, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, fmt.Sprintf("schema-%d.json", nt))
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	s, err := ReadSchema(write(MaxNodeTypes, 70_000))
	if err != nil || len(s.NodeTypes) != 65_535 || len(s.RelationTypes) != 70_000 {
		t.Fatalf("%d node types, %d relation types: %v", len(s.NodeTypes), len(s.RelationTypes), err)
	}
	if id, ok := s.NodeTypeID("t65534"); !ok || id != 65_534 {
		t.Errorf("t65534 has id %d", id)
	}
	p := write(MaxNodeTypes+1, 1)
	_, err = ReadSchema(p)
	var pe *ParseError
	if !errors.As(err, &pe) || pe.File != p || !errors.Is(err, ErrSchema) || !strings.Contains(err.Error(), "at most 65535 node types") {
		t.Errorf("65,536 node types: %v", err)
	}
}
