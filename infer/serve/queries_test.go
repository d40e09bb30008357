package serve

import (
	"encoding/json"
	"io"
	"slices"
	"strings"
	"testing"
)

// TestJSONQueryFields: a JSON lines query's fields match exactly, as
// serve's request fields do. An unknown field, one in other capitals and
// one given twice stop the run at their line, naming it and the field
// (encoding/json alone scored "hats" for {"query": "boots", "QUERY":
// "hats"} and ignored "k"); "plan" and "answer_ids" are read.
func TestJSONQueryFields(t *testing.T) {
	for _, c := range []struct{ line, want string }{
		{`{"id": 7, "query": "boots", "k": 3}`, `q.jsonl:2: unknown field "k" (a query line's fields are id, query, plan and answer_ids)`},
		{`{"id": 7, "querry": "boots"}`, `q.jsonl:2: unknown field "querry"`},
		{`{"id": 7, "QUERY": "boots"}`, `q.jsonl:2: unknown field "QUERY"`},
		{`{"id": 7, "query": "boots", "query": "hats"}`, `q.jsonl:2: field "query" given twice`},
		{`{"id": "7", "query": "boots"}`, `q.jsonl:2: field "id": json: cannot unmarshal string`},
		{`{"id": 7, "query": "boots", "answer_ids": [1, -2]}`, `q.jsonl:2: field "answer_ids": json: cannot unmarshal number -2`},
		{`{"id": 7}`, `q.jsonl:2: want {"id": <integer>, "query": <text>}`},
		{`null`, `q.jsonl:2: want {"id": <integer>, "query": <text>}`},
		{`[7, "boots"]`, `q.jsonl:2: json: cannot unmarshal array`},
	} {
		qr, err := NewQueryReader("q.jsonl", strings.NewReader(`{"id": 1, "query": "hats"}`+"\n"+c.line+"\n"))
		if err != nil {
			t.Fatal(err)
		}
		if q, err := qr.Next(); err != nil || q.ID != 1 || q.Text != "hats" {
			t.Fatalf("line 1: %+v, %v", q, err)
		}
		if _, err := qr.Next(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.line, err, c.want)
		}
	}
	qr, _ := NewQueryReader("q.jsonl", strings.NewReader(`{"answer_ids": [4, 2], "plan": {"Metapath": [["brand", "has_brand", "product"]]}, "query": "boots", "id": 7}`+"\n"))
	q, err := qr.Next()
	if err != nil || q.ID != 7 || q.Text != "boots" || !slices.Equal(q.Answers, []uint32{4, 2}) || q.Plan == nil || len(q.Plan.Paths) != 1 {
		t.Errorf("every field: %+v (plan %+v), %v", q, q.Plan, err)
	}
	if _, err := qr.Next(); err != io.EOF {
		t.Errorf("after the last line: %v, want EOF", err)
	}
}

// FuzzJSONQuery: a JSON lines query line is read or refused with an
// error, never a panic; one that is read holds an id and a query, and its
// fields written back read the same.
func FuzzJSONQuery(f *testing.F) {
	for _, s := range []string{`{"id": 7, "query": "boots"}`, `{"id": 7, "query": "boots", "k": 3}`, `{"id": 1e400, "query": "x"}`,
		`{"id": 7, "query": "x", "plan": {"Metapath": [["a", "r", "b"]]}}`, `{"id": 7, "query": "x", "answer_ids": [1, 2]}`, `null`, `[]`, `{"id": 7, "id": 8, "query": "x"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		q, err := jsonQuery(b)
		if err != nil {
			return
		}
		again, err := json.Marshal(map[string]any{"id": q.ID, "query": q.Text, "answer_ids": q.Answers})
		if err != nil {
			t.Fatal(err)
		}
		q2, err := jsonQuery(again)
		if err != nil || q2.ID != q.ID || q2.Text != q.Text || !slices.Equal(q2.Answers, q.Answers) {
			t.Fatalf("%q read as %+v reads back as %+v, %v", b, q, q2, err)
		}
	})
}
