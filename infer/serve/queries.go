package serve

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/strata-retrieval/strata/data"
)

// QueryReader streams queries from a file.
type QueryReader struct {
	file  string
	kind  string // csv, jsonl, text
	c     io.Closer
	sc    *bufio.Scanner
	cr    *csv.Reader
	col   map[string]int
	line  int
	count int
	seen  map[int]int // a CSV or JSON lines query's id -> its line
}

// OpenQueries opens a query file: STaRK-style CSV (.csv, with id and query
// columns), JSON lines (.jsonl/.json/.ndjson: {"id": 3, "query": "..."}) or
// plain text (.txt or no extension: one query per line; the id is the
// 0-based line number). Any other extension is an error, and so is an
// id a CSV or JSON lines file gives twice (Next names both lines). A JSONL
// line may carry its own "plan" (strata's list format: {"Metapath":
// [["brand", "has_brand", "product"]], "Restriction": {...}}).
func OpenQueries(path string) (*QueryReader, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	r, err := NewQueryReader(path, f)
	if err != nil {
		f.Close()
		return nil, err
	}
	return r, nil
}

// NewQueryReader reads queries from rd as OpenQueries reads the file
// name: the format comes from name's extension, errors name it and its
// line. Close closes rd when it is an io.Closer.
func NewQueryReader(name string, rd io.Reader) (*QueryReader, error) {
	r := &QueryReader{file: name}
	if c, ok := rd.(io.Closer); ok {
		r.c = c
	}
	br := bufio.NewReader(rd)
	if b, err := br.Peek(len(utf8BOM)); err == nil && bytes.Equal(b, utf8BOM) {
		br.Discard(len(utf8BOM)) // a byte-order mark opening the file is no text of it
	}
	switch strings.ToLower(filepath.Ext(name)) {
	case ".csv":
		r.kind = "csv"
		r.cr = csv.NewReader(br)
		r.cr.FieldsPerRecord = -1
		header, err := r.cr.Read()
		if err != nil {
			return nil, fmt.Errorf("%s:1: want a header with id and query: %v", name, err)
		}
		r.col = map[string]int{}
		for i, h := range header {
			r.col[strings.TrimSpace(h)] = i
		}
		for _, need := range []string{"id", "query"} {
			if _, ok := r.col[need]; !ok {
				return nil, fmt.Errorf("%s:1: header lacks column %q", name, need)
			}
		}
	case ".jsonl", ".json", ".ndjson":
		r.kind = "jsonl"
	case ".txt", "":
		r.kind = "text"
	default:
		// A .tsv read as text made its header a query and every id one
		// off; an .ndjson scored its JSON as the query's words.
		return nil, fmt.Errorf("%s: a query file's name ends in .csv (id and query columns), .jsonl, .json or .ndjson (JSON lines), or .txt or nothing (one query per line), not %q", name, filepath.Ext(name))
	}
	if r.kind != "csv" {
		r.sc = bufio.NewScanner(br)
		r.sc.Buffer(make([]byte, 0, 64<<10), maxQueryLine)
	}
	return r, nil
}

// utf8BOM is the byte-order mark some editors open a UTF-8 file with.
var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// maxQueryLine bounds a line of a JSON lines or text query file: one
// longer stops the run, naming its line (a query's text is bounded far
// below, by --max-query).
const maxQueryLine = 16 << 20

// once refuses a query id read before: a run's rankings are keyed by
// id, and eval refuses a run that ranks one twice (a text file's ids are
// its line numbers, never twice).
func (r *QueryReader) once(id, line int) error {
	if r.seen == nil {
		r.seen = map[int]int{}
	}
	if first, ok := r.seen[id]; ok {
		return fmt.Errorf("%s:%d: query id %d again (first on line %d): a run's rankings are keyed by id, and eval refuses a run that ranks one twice", r.file, line, id, first)
	}
	r.seen[id] = line
	return nil
}

// Close closes what the queries are read from.
func (r *QueryReader) Close() error {
	if r.c == nil {
		return nil
	}
	return r.c.Close()
}

// Next returns the next query, or io.EOF.
func (r *QueryReader) Next() (data.Query, error) {
	switch r.kind {
	case "csv":
		rec, err := r.cr.Read()
		if err == io.EOF {
			return data.Query{}, io.EOF
		}
		line, _ := r.cr.FieldPos(0)
		if err != nil {
			return data.Query{}, fmt.Errorf("%s:%d: %v", r.file, line, err)
		}
		idc, qc := r.col["id"], r.col["query"]
		if idc >= len(rec) || qc >= len(rec) {
			return data.Query{}, fmt.Errorf("%s:%d: record has %d columns", r.file, line, len(rec))
		}
		id, err := strconv.Atoi(strings.TrimSpace(rec[idc]))
		if err != nil {
			return data.Query{}, fmt.Errorf("%s:%d: field \"id\": %q is not an integer", r.file, line, rec[idc])
		}
		if err := r.once(id, line); err != nil {
			return data.Query{}, err
		}
		q := data.Query{ID: id, Text: rec[qc]}
		if ac, ok := r.col["answer_ids"]; ok && ac < len(rec) {
			if q.Answers, err = data.ParseIDList(rec[ac], 0); err != nil {
				return data.Query{}, fmt.Errorf("%s:%d: field \"answer_ids\": %v", r.file, line, err)
			}
		}
		return q, nil
	}
	for r.sc.Scan() {
		r.line++
		b := bytes.TrimSpace(r.sc.Bytes())
		if len(b) == 0 {
			if r.kind == "text" {
				r.count++
			}
			continue
		}
		if r.kind == "text" {
			q := data.Query{ID: r.count, Text: string(b)}
			r.count++
			return q, nil
		}
		q, err := jsonQuery(b)
		if err != nil {
			return data.Query{}, fmt.Errorf("%s:%d: %v", r.file, r.line, err)
		}
		if err := r.once(q.ID, r.line); err != nil {
			return data.Query{}, err
		}
		return q, nil
	}
	if err := r.sc.Err(); errors.Is(err, bufio.ErrTooLong) {
		return data.Query{}, fmt.Errorf("%s:%d: a line over %d MiB: not a query file line (a query is at most --max-query bytes)", r.file, r.line+1, maxQueryLine>>20)
	} else if err != nil {
		return data.Query{}, fmt.Errorf("%s:%d: %v", r.file, r.line+1, err)
	}
	return data.Query{}, io.EOF
}

// jsonQuery reads one JSON lines query: {"id": <integer>, "query":
// <text>}, optionally "plan" and "answer_ids" (a list of node ids, as a
// CSV file's column). Field names match exactly, as serve's request
// fields do: an unknown field ("querry", "k", "QUERY": encoding/json alone
// would take the last one or ignore it, and the run would score other
// text or default settings than the line says) and a field given twice
// are refused, naming the field.
func jsonQuery(b []byte) (data.Query, error) {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return data.Query{}, err
	}
	if key, ok := repeatedKey(b); ok {
		return data.Query{}, fmt.Errorf("field %q given twice", key)
	}
	keys := slices.Sorted(maps.Keys(raw))
	var (
		id      *int64
		text    *string
		plan    *data.Plan
		q       data.Query
		answers []uint32
	)
	for _, key := range keys {
		var dst any
		switch key {
		case "id":
			dst = &id
		case "query":
			dst = &text
		case "plan":
			dst = &plan
		case "answer_ids":
			dst = &answers
		default:
			return data.Query{}, fmt.Errorf("unknown field %q (a query line's fields are id, query, plan and answer_ids)", key)
		}
		if err := json.Unmarshal(raw[key], dst); err != nil {
			return data.Query{}, fmt.Errorf("field %q: %w", key, err)
		}
	}
	if id == nil || text == nil {
		return data.Query{}, fmt.Errorf("want {\"id\": <integer>, \"query\": <text>}")
	}
	q.ID, q.Text, q.Plan, q.Answers = int(*id), *text, plan, answers
	return q, nil
}
