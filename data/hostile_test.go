package data

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Silent accepts that became errors, and errors that now say the truth and
// stay short: each names the file, the line and the field.
func TestSKBDirHostile(t *testing.T) {
	qa := "id,query,answer_ids\n1,q,[0]\n2,r,[1]\n"
	big := strings.Repeat("z", 10_000_000)
	cases := []struct {
		name     string
		files    map[string]string
		empty    string // a file written empty
		sentinel error
		file     string
		line     int
		field    string
		want     string
	}{
		{"empty nodes.jsonl", nil, "nodes.jsonl", ErrSyntax, "nodes.jsonl", 0, "", "no nodes"},
		{"header-only QA CSV", map[string]string{"stark_qa/stark_qa.csv": "id,query,answer_ids\n", "split/test.index": "1\n"}, "", ErrSyntax, "stark_qa.csv", 0, "", "lists 1 query ids"},
		{"overlapping train and test", map[string]string{"stark_qa/stark_qa.csv": qa, "split/train.index": "1\n2\n", "split/test.index": "2\n"}, "", ErrDuplicateID, "train.index", 2, "query_id", "also in"},
		{"duplicate CSV header column", map[string]string{"stark_qa/stark_qa.csv": "id,query,answer_ids,query\n1,q,[0],p\n"}, "", ErrSyntax, "stark_qa.csv", 1, "query", "appears twice"},
		{"invalid UTF-8 in nodes.jsonl", map[string]string{"nodes.jsonl": `{"id":0,"type":"a","name":"x"}` + "\n" + `{"id":1,"type":"b","name":"caf` + "\xe9" + `"}` + "\n"}, "", ErrEncoding, "nodes.jsonl", 2, "", "byte 0xe9 at column 31"},
		{"invalid UTF-8 in edges.tsv", map[string]string{"edges.tsv": "0\tr\xff\t1\n"}, "", ErrEncoding, "edges.tsv", 1, "", "0xff"},
		{"invalid UTF-8 in schema.json", map[string]string{"schema.json": "{\"format\":\"skbdir/1\",\n\"name\":\"t\xc3\",\"node_types\":[\"a\",\"b\"],\"relation_types\":[\"r\"]}"}, "", ErrEncoding, "schema.json", 2, "", ""},
		{"invalid UTF-8 in the QA CSV", map[string]string{"stark_qa/stark_qa.csv": "id,query,answer_ids\n1,q,[0]\n2,\"two\nlines \xfe\",[1]\n"}, "", ErrEncoding, "stark_qa.csv", 3, "query", ""},
		{"invalid UTF-8 in a split", map[string]string{"stark_qa/stark_qa.csv": qa, "split/val.index": "1\n\x802\n"}, "", ErrEncoding, "val.index", 2, "", ""},
		{"10 MB node type", map[string]string{"nodes.jsonl": `{"id":0,"type":"` + big + `","name":"x"}` + "\n"}, "", ErrUnknownType, "nodes.jsonl", 1, "type", "(10000000 bytes) is not in schema node_types"},
		{"10 MB relation", map[string]string{"edges.tsv": "0\t" + big + "\t1\n"}, "", ErrUnknownRelation, "edges.tsv", 1, "relation", "(10000000 bytes)"},
		{"10 MB field name", map[string]string{"nodes.jsonl": `{"id":0,"type":"a","name":"x","fields":{"` + big + `":"v"}}` + "\n"}, "", ErrUnknownField, "nodes.jsonl", 1, "fields." + big, "(10000000 bytes)"},
		{"10 MB answer list", map[string]string{"stark_qa/stark_qa.csv": "id,query,answer_ids\n1,q,[" + big + "]\n"}, "", ErrSyntax, "stark_qa.csv", 2, "answer_ids", "(10000000 bytes)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := writeDir(t, c.files)
			if c.empty != "" {
				os.WriteFile(filepath.Join(dir, c.empty), nil, 0o644)
			}
			_, err := ReadSKBDir(dir)
			if err == nil {
				t.Fatal("accepted")
			}
			if !errors.Is(err, c.sentinel) {
				t.Errorf("error %v is not %v", err, c.sentinel)
			}
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %v is not a *ParseError", err)
			}
			if !strings.HasSuffix(pe.File, c.file) || pe.Line != c.line || pe.Field != c.field {
				t.Errorf("located at %s:%d field %.40q, want %s:%d field %.40q (%.300v)", pe.File, pe.Line, pe.Field, c.file, c.line, c.field, err)
			}
			if msg := err.Error(); len(msg) > 1500 || !strings.Contains(msg, c.want) {
				t.Errorf("error of %d bytes %.600q lacks %q", len(msg), msg, c.want)
			}
		})
	}
}

// CheckSplits finds a query in two of train, val and test; other splits
// may overlap them.
func TestQACheckSplits(t *testing.T) {
	qa := &QA{Splits: map[string][]int{"train": {1, 2}, "test": {3}, "test-reachable": {3}, "val": {4}}}
	if err := qa.CheckSplits(); err != nil {
		t.Errorf("disjoint splits: %v", err)
	}
	qa.Splits["val"] = []int{4, 2}
	if err := qa.CheckSplits(); !errors.Is(err, ErrDuplicateID) || !strings.Contains(err.Error(), "splits train and val") || !strings.Contains(err.Error(), "query id 2") {
		t.Errorf("overlap: %v", err)
	}
}

// Every value an error quotes is clipped, and so is a whole message.
func TestErrorsStayShort(t *testing.T) {
	big := strings.Repeat("é", 3_000_000)
	err := perrf("f.jsonl", 3, big, ErrSyntax, "%s and %v", quoteClip(big), big)
	msg := err.Error()
	if len(msg) > 2000 || !strings.HasPrefix(msg, `f.jsonl:3: field "éé`) || !strings.Contains(msg, "(6000000 bytes)") || !strings.HasSuffix(msg, "ééé") {
		t.Errorf("error of %d bytes: %.300q...", len(msg), msg)
	}
	if got := quoteClip("short"); got != `"short"` {
		t.Errorf("quoteClip(short) = %s", got)
	}
}

// Every text reader refuses invalid UTF-8 the same way: ErrEncoding at the
// file and line, never a replaced byte.
func TestReadersRefuseInvalidUTF8(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	schema := &Schema{NodeTypes: []string{"a"}, RelationTypes: []string{"r"}, CandidateTypes: []string{"a"}}
	for _, c := range []struct {
		name string
		line int
		read func() error
	}{
		{"triples", 2, func() error {
			_, err := ReadTriples(write("kb.txt", "x|r|y\nx|r\xff|z\n"), '|')
			return err
		}},
		{"MetaQA questions", 2, func() error {
			_, _, err := ReadKGQAFile(write("qa.txt", "what is [x]\ty\nwho is [x\xc3]\tz\n"), "")
			return err
		}},
		{"PathQuestion", 1, func() error {
			_, _, err := ReadKGQAFile(write("pq.txt", "what \xfe is x\ty(y/)\tx#r#y#<end>#y\n"), "")
			return err
		}},
		{"plans", 2, func() error {
			_, _, err := ReadPlans(write("plans.jsonl", `{"q_id":1,"plan":{"Metapath":[["a"]]}}`+"\n"+`{"q_id":2,"query":"`+"\xe9"+`","plan":{"Metapath":[["a"]]}}`+"\n"))
			return err
		}},
		{"patterns", 1, func() error {
			_, err := ReadPatterns(write("patterns.jsonl", `{"q_id":1,"triples":[["x`+"\xff"+`","r","UNKNOWN a"]]}`+"\n"))
			return err
		}},
		{"GRASP plans", 1, func() error {
			_, _, err := ReadGraspPlans(write("grasp.jsonl", `{"q_id":1,"anchors":[{"text":"`+"\xc0"+`"}]}`+"\n"), schema)
			return err
		}},
		{"mined plans", 1, func() error {
			_, err := ReadMinedPlans(write("mined.jsonl", `{"q_id":1,"query":"`+"\xff"+`","plan":{"Metapath":[["a"]]}}`+"\n"))
			return err
		}},
	} {
		err := c.read()
		var pe *ParseError
		if !errors.Is(err, ErrEncoding) || !errors.As(err, &pe) || pe.Line != c.line {
			t.Errorf("%s: %v, want ErrEncoding at line %d", c.name, err, c.line)
		}
	}
}

// TestSKBDirByteOrderMark: a UTF-8 byte order mark at the start of
// nodes.jsonl, edges.tsv or a split file is read past (query files
// already were), and one inside a file is still an error (issue 37).
func TestSKBDirByteOrderMark(t *testing.T) {
	bom := "\ufeff"
	dir := writeDir(t, map[string]string{
		"nodes.jsonl":           bom + `{"id":0,"type":"a","name":"x","fields":{"f":"v"}}` + "\n" + `{"id":1,"type":"b","name":"y"}` + "\n",
		"edges.tsv":             bom + "0\tr\t1\n",
		"stark_qa/stark_qa.csv": bom + "id,query,answer_ids\n1,q,[0]\n",
		"split/test.index":      bom + "1\n",
	})
	skb, err := ReadSKBDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(skb.Nodes) != 2 || skb.Nodes[0].Name != "x" || skb.Edges.Len() != 1 || len(skb.QA.Splits["test"]) != 1 {
		t.Errorf("read %d nodes (first %q), %d edges, test split %v", len(skb.Nodes), skb.Nodes[0].Name, skb.Edges.Len(), skb.QA.Splits["test"])
	}
	dir = writeDir(t, map[string]string{"nodes.jsonl": `{"id":0,"type":"a","name":"x"}` + "\n" + bom + `{"id":1,"type":"b","name":"y"}` + "\n"})
	if _, err := ReadSKBDir(dir); err == nil || !strings.Contains(err.Error(), "nodes.jsonl:2") {
		t.Errorf("a mark on line 2: %v, want an error at nodes.jsonl:2", err)
	}
}
