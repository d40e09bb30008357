package serve

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"unicode/utf8"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/data/index"
	"github.com/strata-retrieval/strata/infer"
)

// ErrRunFile marks a run file (strata score's output) that cannot be read.
var ErrRunFile = errors.New("bad run file")

// ReadRankings reads a run file as strata score writes it, JSON lines
// ({"id", "ranking": [{"node", "score", ...}]}, an unanswered query's
// ranking empty) or TREC (qid Q0 docid rank score tag), back as rankings
// keyed by query id, in the file's order. A query twice (JSONL; TREC: its
// lines apart, after another query's), a node twice in one query's
// ranking, or a malformed line is an error naming the file and line.
// Scores are float32 and written exactly, so the rankings are the ones
// scored.
func ReadRankings(path string) (map[int][]index.Hit, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	rk, _, err := readRankings(f, path)
	return rk, err
}

// readRankings reads a run file; trec says it was a TREC run.
func readRankings(r io.Reader, path string) (rk map[int][]index.Hit, trec bool, err error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 1<<20), 256<<20)
	out := map[int][]index.Hit{}
	seen := map[[2]uint64]bool{} // (query, node) pairs
	format := -1                 // 0 JSONL, 1 TREC; unknown until the first line
	line := 0
	last := 0 // the query of the previous TREC line: a query's lines come together
	bad := func(format string, a ...any) error {
		return fmt.Errorf("%s:%d: %w: %s", path, line, ErrRunFile, fmt.Sprintf(format, a...))
	}
	add := func(id int, node uint32, score float32) error {
		k := [2]uint64{uint64(int64(id)), uint64(node)}
		if seen[k] {
			return bad("node %d twice in the ranking of query %d", node, id)
		}
		seen[k] = true
		out[id] = append(out[id], index.Hit{ID: node, Score: score})
		return nil
	}
	for sc.Scan() {
		line++
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 {
			continue
		}
		if !utf8.Valid(b) {
			return nil, false, bad("not UTF-8")
		}
		if format < 0 {
			format = 0
			if b[0] != '{' {
				format = 1
			}
		}
		if format == 0 {
			var rec struct {
				ID      *int `json:"id"`
				Ranking []struct {
					Node  *uint32  `json:"node"`
					Score *float32 `json:"score"`
				} `json:"ranking"`
			}
			if err := json.Unmarshal(b, &rec); err != nil {
				return nil, false, bad("%v", err)
			}
			if rec.ID == nil {
				return nil, false, bad(`no "id"`)
			}
			if _, dup := out[*rec.ID]; dup {
				return nil, false, bad("query %d twice", *rec.ID)
			}
			out[*rec.ID] = []index.Hit{}
			for i, h := range rec.Ranking {
				if h.Node == nil || h.Score == nil {
					return nil, false, bad(`ranking entry %d lacks "node" or "score"`, i+1)
				}
				if err := add(*rec.ID, *h.Node, *h.Score); err != nil {
					return nil, false, err
				}
			}
			continue
		}
		f := bytes.Fields(b)
		if len(f) != 6 {
			return nil, false, bad("want 6 TREC fields (qid Q0 docid rank score tag), got %d", len(f))
		}
		id, err1 := strconv.Atoi(string(f[0]))
		node, err2 := strconv.ParseUint(string(f[2]), 10, 32)
		_, err3 := strconv.Atoi(string(f[3]))
		score, err4 := strconv.ParseFloat(string(f[4]), 32)
		if err := errors.Join(err1, err2, err3, err4); err != nil {
			return nil, false, bad("%v", err)
		}
		if _, ok := out[id]; ok && id != last {
			return nil, false, bad("query %d again after another query's lines (a query id twice in the scored file?)", id)
		}
		last = id
		if err := add(id, uint32(node), float32(score)); err != nil {
			return nil, false, err
		}
	}
	if err := sc.Err(); err != nil {
		return nil, false, fmt.Errorf("%s:%d: %w", path, line+1, err)
	}
	return out, format == 1, nil
}

// RunFile is a run file as a method: each query's ranking is the file's
// (strata eval --run), so a scored file is evaluated exactly as the
// pipeline that wrote it. A query a JSON-lines file lacks is an error (it
// was never scored; an unanswered one has its line); a TREC run writes no
// line for an unanswered query, so there a query it lacks ranks nothing.
type RunFile struct {
	Path     string
	Rankings map[int][]index.Hit
	TREC     bool
}

var _ infer.Method = (*RunFile)(nil)

// OpenRunFile reads a run file for evaluation. A run file with strata
// score's progress record beside it (path+ProgressSuffix) is a run that
// stopped before its end: an error, not the queries it got to.
func OpenRunFile(path string) (*RunFile, error) {
	if _, err := os.Stat(path + ProgressSuffix); err == nil {
		return nil, fmt.Errorf("%s: %w: its run stopped before the end (%s is beside it); run the same strata score again to finish it", path, ErrRunFile, filepath.Base(path+ProgressSuffix))
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	rk, trec, err := readRankings(f, path)
	if err != nil {
		return nil, err
	}
	return &RunFile{Path: path, Rankings: rk, TREC: trec}, nil
}

func (r *RunFile) Name() string { return "run:" + filepath.Base(r.Path) }

func (r *RunFile) Rank(_ context.Context, q data.Query) ([]index.Hit, error) {
	hs, ok := r.Rankings[q.ID]
	if !ok && !r.TREC {
		return nil, fmt.Errorf("%s has no ranking of query %d", r.Path, q.ID)
	}
	return append([]index.Hit(nil), hs...), nil
}
