package data

import (
	"encoding/json"
	"errors"
	"io"
	"os"
)

// Plan is a query plan in MoR's JSON shape: a list of reasoning paths, each
// alternating node type and relation type (["brand","has_brand","product"]),
// and textual restrictions keyed by node type.
type Plan struct {
	Metapath    [][]string          `json:"Metapath"`
	Restriction map[string][]string `json:"Restriction"`
}

// PlanRecord is one line of a plans file.
type PlanRecord struct {
	QID       int      `json:"q_id"`
	Query     string   `json:"query"`
	AnswerIDs []uint32 `json:"answer_ids"`
	Plan      Plan     `json:"plan"`
}

// WritePlans writes one JSON object per line.
func WritePlans(w io.Writer, recs []PlanRecord) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for i := range recs {
		if err := enc.Encode(&recs[i]); err != nil {
			return err
		}
	}
	return nil
}

// ReadPlans reads a plans file written by WritePlans (strata's own list
// format). Lines are keyed by q_id; a repeated q_id is an error.
func ReadPlans(path string) (map[int]Plan, error) {
	f, err := os.Open(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, perrf(path, 0, "", ErrMissingFile, "file not found")
		}
		return nil, err
	}
	defer f.Close()
	return ParsePlans(f, path)
}

// ParsePlans parses plans JSONL from r.
func ParsePlans(r io.Reader, file string) (map[int]Plan, error) {
	sc := newLineScanner(r, file)
	out := map[int]Plan{}
	seen := map[int]int{}
	for {
		b, ok := sc.Next()
		if !ok {
			break
		}
		if len(b) == 0 {
			continue
		}
		var rec PlanRecord
		if err := json.Unmarshal(b, &rec); err != nil {
			return nil, jsonErr(file, sc.line, b, err)
		}
		if prev, dup := seen[rec.QID]; dup {
			return nil, perrf(file, sc.line, "q_id", ErrDuplicateID, "q_id %d already on line %d", rec.QID, prev)
		}
		seen[rec.QID] = sc.line
		for i, p := range rec.Plan.Metapath {
			if len(p)%2 == 0 {
				return nil, perrf(file, sc.line, "plan.Metapath", ErrSyntax, "path %d has %d elements; want node types alternating with relations (odd length)", i, len(p))
			}
		}
		out[rec.QID] = rec.Plan
	}
	return out, sc.Err()
}
