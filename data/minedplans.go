package data

import (
	"io"
)

// MinedInfo is how well a mined plan explains its question's answers.
type MinedInfo struct {
	F1         float64 `json:"f1"`        // after the textual restriction where it helps
	StructF1   float64 `json:"struct_f1"` // of the reached set alone
	Restricted bool    `json:"restricted,omitempty"`
	Attribute  bool    `json:"attribute,omitempty"` // the plan filters by an attribute (Plan.Attributes) and F1 is the filter's
	Shape      string  `json:"shape"`               // "1-hop", "1-hop ∩ 2-hop", ...
	Reach      int     `json:"reach"`               // candidates the structure reaches
	Hits       int     `json:"hits"`                // answers among them
}

// MinedPlanRecord is one line of a mined plans file: a plans-file line
// (q_id, query, answer_ids, plan) with how the plan was mined. ReadPlans
// reads these files too (it ignores "mined").
type MinedPlanRecord struct {
	QID       int       `json:"q_id"`
	Query     string    `json:"query"`
	AnswerIDs []uint32  `json:"answer_ids"`
	Plan      Plan      `json:"plan"`
	Mined     MinedInfo `json:"mined"`
}

// ReadMinedPlans reads a mined plans file keyed by q_id. Every line must
// carry a plan (mined files hold only questions that got one).
func ReadMinedPlans(path string) (map[int]MinedPlanRecord, error) {
	f, err := OpenInput(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ParseMinedPlans(f, path)
}

// ParseMinedPlans parses a mined plans file from r.
func ParseMinedPlans(r io.Reader, file string) (map[int]MinedPlanRecord, error) {
	type rec struct {
		QID   *int      `json:"q_id"`
		Query string    `json:"query"`
		Ans   []uint32  `json:"answer_ids"`
		Plan  planJSON  `json:"plan"`
		Mined MinedInfo `json:"mined"`
	}
	out := map[int]MinedPlanRecord{}
	err := qidLines(r, file, func(v *rec) *int { return v.QID }, func(line, id int, v *rec) error {
		p, err := v.Plan.toPlan()
		if err != nil {
			return perrf(file, line, "plan", ErrSyntax, "%v", err)
		}
		if len(p.Paths) == 0 {
			return perrf(file, line, "plan.Metapath", ErrSyntax, "empty")
		}
		out[id] = MinedPlanRecord{QID: id, Query: v.Query, AnswerIDs: v.Ans, Plan: p, Mined: v.Mined}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
