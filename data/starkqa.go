package data

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/strata-retrieval/strata/internal/atomicfile"
)

// Paths of the QA half of a STaRK-style directory, relative to its root.
const (
	StarkQAFile    = "stark_qa/stark_qa.csv"
	StarkHumanFile = "stark_qa/stark_qa_human_generated_eval.csv"
	SplitDir       = "split"
)

// ReadStarkQA reads stark_qa/stark_qa.csv, the optional human-generated file
// and every split/*.index file under dir. When numNodes > 0, answer ids must
// be below it.
func ReadStarkQA(dir string, numNodes int) (*QA, error) {
	qa := &QA{Splits: map[string][]int{}}
	var err error
	if qa.Queries, err = ReadStarkQACSV(filepath.Join(dir, StarkQAFile), numNodes); err != nil {
		return nil, err
	}
	qa.Index()
	human := filepath.Join(dir, StarkHumanFile)
	if _, statErr := os.Stat(human); statErr == nil {
		if qa.Human, err = ReadStarkQACSV(human, numNodes); err != nil {
			return nil, err
		}
	}
	matches, err := splitFiles(filepath.Join(dir, SplitDir))
	if err != nil {
		return nil, err
	}
	type where struct {
		file string
		line int
	}
	inSplit := map[int]where{} // query id -> where train, val or test listed it
	for _, m := range matches {
		rel, _ := filepath.Rel(filepath.Join(dir, SplitDir), m)
		name := strings.TrimSuffix(filepath.ToSlash(rel), ".index")
		if err := CheckSplitName(name); err != nil {
			return nil, perr(m, 0, "", err)
		}
		f, err := os.Open(m)
		if err != nil {
			return nil, err
		}
		ids, lines, err := ReadIndex(f, m)
		f.Close()
		if err != nil {
			return nil, err
		}
		if len(qa.Queries) == 0 && len(ids) > 0 {
			return nil, perrf(filepath.Join(dir, StarkQAFile), 0, "", ErrSyntax, "no queries (a header only), while %s lists %d query ids", filepath.Join(SplitDir, filepath.Base(m)), len(ids))
		}
		disjoint := name == SplitTrain || name == SplitVal || name == SplitTest
		for i, id := range ids {
			if _, ok := qa.ByID(id); !ok {
				return nil, perrf(m, lines[i], "query_id", ErrIDRange, "query id %d is not in %s", id, StarkQAFile)
			}
			if !disjoint {
				continue
			}
			if w, dup := inSplit[id]; dup {
				return nil, perrf(m, lines[i], "query_id", ErrDuplicateID, "query id %d is also in %s:%d (train, val and test must not overlap)", id, w.file, w.line)
			}
			inSplit[id] = where{m, lines[i]}
		}
		qa.Splits[name] = ids
	}
	return qa, nil
}

// splitFiles lists the *.index files below splitDir, nested directories
// included (split/1-hop-dev/test-reachable.index is the split
// "1-hop-dev/test-reachable"), sorted; no directory is no splits.
func splitFiles(splitDir string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(splitDir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			if path == splitDir && errors.Is(err, fs.ErrNotExist) {
				return filepath.SkipAll
			}
			return err
		}
		if !d.IsDir() && strings.HasSuffix(d.Name(), ".index") {
			out = append(out, path)
		}
		return nil
	})
	sort.Strings(out)
	return out, err
}

// ReadStarkQACSV reads a STaRK QA CSV file: a header with id, query and
// answer_ids (and optionally answer_ids_source), then one query per record.
func ReadStarkQACSV(path string, numNodes int) ([]Query, error) {
	f, err := os.Open(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, perrf(path, 0, "", ErrMissingFile, "file not found")
		}
		return nil, err
	}
	defer f.Close()
	return ParseStarkQACSV(f, path, numNodes)
}

// ParseStarkQACSV parses STaRK QA CSV from r; file names the input in errors.
func ParseStarkQACSV(r io.Reader, file string, numNodes int) ([]Query, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1
	cr.ReuseRecord = true
	header, err := cr.Read()
	if err != nil {
		if errors.Is(err, io.EOF) {
			return nil, perrf(file, 1, "", ErrSyntax, "empty file: want a header id,query,answer_ids")
		}
		return nil, csvErr(file, err)
	}
	header = append([]string(nil), header...) // ReuseRecord: keep the header
	if err := checkRecordUTF8(file, 1, header, nil); err != nil {
		return nil, err
	}
	col := map[string]int{}
	for i, h := range header {
		name := strings.TrimPrefix(strings.TrimSpace(h), "\ufeff")
		if prev, dup := col[name]; dup {
			return nil, perrf(file, 1, name, ErrSyntax, "column %s appears twice in the header (columns %d and %d)", quoteClip(name), prev+1, i+1)
		}
		col[name] = i
	}
	for _, need := range []string{"id", "query", "answer_ids"} {
		if _, ok := col[need]; !ok {
			return nil, perrf(file, 1, need, ErrSyntax, "header lacks column %q (have %s)", need, clip(strings.Join(header, ",")))
		}
	}
	srcCol, hasSrc := col["answer_ids_source"]
	var out []Query
	seen := map[int]int{}
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, csvErr(file, err)
		}
		line, _ := cr.FieldPos(0)
		if len(rec) != len(header) {
			return nil, perrf(file, line, "", ErrSyntax, "record has %d columns, header has %d", len(rec), len(header))
		}
		if err := checkRecordUTF8(file, line, rec, header); err != nil {
			return nil, err
		}
		id, err := strconv.Atoi(strings.TrimSpace(rec[col["id"]]))
		if err != nil || id < 0 {
			return nil, perrf(file, line, "id", ErrSyntax, "%s is not a non-negative integer", quoteClip(rec[col["id"]]))
		}
		if prev, dup := seen[id]; dup {
			return nil, perrf(file, line, "id", ErrDuplicateID, "query id %d already on line %d", id, prev)
		}
		seen[id] = line
		q := Query{ID: id, Text: rec[col["query"]]}
		if q.Answers, err = ParseIDList(rec[col["answer_ids"]], numNodes); err != nil {
			return nil, perr(file, line, "answer_ids", err)
		}
		if hasSrc {
			if q.Source, err = ParseIDList(rec[srcCol], numNodes); err != nil {
				return nil, perr(file, line, "answer_ids_source", err)
			}
		}
		out = append(out, q)
	}
	return out, nil
}

// checkRecordUTF8 refuses a CSV record holding text that is not valid
// UTF-8, naming the column (by its header name when header is given).
func checkRecordUTF8(file string, line int, rec, header []string) error {
	for i, v := range rec {
		if err := checkUTF8([]byte(v)); err != nil {
			name := fmt.Sprintf("column %d", i+1)
			if header != nil && utf8.ValidString(header[i]) {
				name = header[i]
			}
			return perr(file, line, name, err)
		}
	}
	return nil
}

func csvErr(file string, err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return perrf(file, pe.Line, fmt.Sprintf("column %d", pe.Column), ErrSyntax, "%v", pe.Err)
	}
	return perr(file, 0, "", err)
}

// ParseIDList parses a Python-style list of non-negative integers such as
// "[12, 57]" or "[]". When numNodes > 0 every id must be below it.
func ParseIDList(s string, numNodes int) ([]uint32, error) {
	s = strings.TrimSpace(s)
	if len(s) < 2 || s[0] != '[' || s[len(s)-1] != ']' {
		return nil, fmt.Errorf("%w: %s is not a bracketed list like [1, 2]", ErrSyntax, quoteClip(s))
	}
	body := strings.TrimSpace(s[1 : len(s)-1])
	if body == "" {
		return []uint32{}, nil
	}
	parts := strings.Split(body, ",")
	out := make([]uint32, 0, len(parts))
	for _, p := range parts {
		p = strings.TrimSpace(p)
		v, err := strconv.ParseUint(p, 10, 32)
		if err != nil {
			return nil, fmt.Errorf("%w: list element %s is not a non-negative integer", ErrSyntax, quoteClip(p))
		}
		if numNodes > 0 && v >= uint64(numNodes) {
			return nil, fmt.Errorf("%w: node id %d, the SKB has %d nodes", ErrIDRange, v, numNodes)
		}
		out = append(out, uint32(v))
	}
	return out, nil
}

// ReadIndex parses a split index: one non-negative query id per line, blank
// lines ignored. It returns the ids and their line numbers.
func ReadIndex(r io.Reader, file string) ([]int, []int, error) {
	sc := newLineScanner(r, file)
	var ids, lines []int
	seen := map[int]int{}
	for {
		b, ok := sc.Next()
		if !ok {
			break
		}
		s := strings.TrimSpace(string(b))
		if s == "" {
			continue
		}
		id, err := strconv.Atoi(s)
		if err != nil || id < 0 {
			return nil, nil, perrf(file, sc.line, "query_id", ErrSyntax, "%s is not a non-negative integer", quoteClip(s))
		}
		if prev, dup := seen[id]; dup {
			return nil, nil, perrf(file, sc.line, "query_id", ErrDuplicateID, "query id %d already on line %d", id, prev)
		}
		seen[id] = sc.line
		ids = append(ids, id)
		lines = append(lines, sc.line)
	}
	return ids, lines, sc.Err()
}

// WriteStarkQA writes qa under dir in STaRK's layout (stark_qa/ and split/).
func WriteStarkQA(dir string, qa *QA) error {
	for _, sub := range []string{"stark_qa", SplitDir} {
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o755); err != nil {
			return err
		}
	}
	if err := writeQACSV(filepath.Join(dir, StarkQAFile), qa.Queries, false); err != nil {
		return err
	}
	if len(qa.Human) > 0 {
		if err := writeQACSV(filepath.Join(dir, StarkHumanFile), qa.Human, true); err != nil {
			return err
		}
	}
	names := make([]string, 0, len(qa.Splits))
	for n := range qa.Splits {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		ids := qa.Splits[n]
		path, err := splitPath(dir, n)
		if err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := atomicfile.WriteFile(path, func(w io.Writer) error {
			for _, id := range ids {
				if _, err := fmt.Fprintf(w, "%d\n", id); err != nil {
					return err
				}
			}
			return nil
		}); err != nil {
			return err
		}
	}
	return nil
}

// splitPath is where WriteStarkQA writes split name below dir: a name
// CheckSplitName accepts, as dir/split/<name>.index with its '/' as
// nested directories, and never outside dir/split.
func splitPath(dir, name string) (string, error) {
	if err := CheckSplitName(name); err != nil {
		return "", err
	}
	root := filepath.Join(dir, SplitDir)
	path := filepath.Join(root, filepath.FromSlash(name)+".index")
	if rel, err := filepath.Rel(root, path); err != nil || !filepath.IsLocal(rel) {
		return "", fmt.Errorf("split name %s: %w: resolves outside %s", quoteClip(name), ErrSyntax, root)
	}
	return path, nil
}

// FormatIDList formats ids as STaRK does: "[12, 57]".
func FormatIDList(ids []uint32) string {
	var b strings.Builder
	b.WriteByte('[')
	for i, id := range ids {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.FormatUint(uint64(id), 10))
	}
	b.WriteByte(']')
	return b.String()
}

func writeQACSV(path string, qs []Query, withSource bool) error {
	return atomicfile.WriteFile(path, func(w io.Writer) error {
		cw := csv.NewWriter(w)
		header := []string{"id", "query", "answer_ids"}
		if withSource {
			header = append(header, "answer_ids_source")
		}
		if err := cw.Write(header); err != nil {
			return err
		}
		for _, q := range qs {
			rec := []string{strconv.Itoa(q.ID), q.Text, FormatIDList(q.Answers)}
			if withSource {
				src := q.Source
				if src == nil {
					src = q.Answers
				}
				rec = append(rec, FormatIDList(src))
			}
			if err := cw.Write(rec); err != nil {
				return err
			}
		}
		cw.Flush()
		return cw.Error()
	})
}
