package data

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
)

// Plan is a query plan: reasoning paths that meet at the target (typed
// positions and relation steps, Path) and textual restrictions keyed by
// node type, as MoR plans, with strata's extensions. In JSON it is MoR's
// shape: "Metapath" lists each path as tokens alternating node type and
// relation (["brand","->has_brand","product"]; the relation "*" matches
// any), written by MarshalJSON and read by UnmarshalJSON (ParsePlans and
// ParseMetapath read MoR's other shapes).
type Plan struct {
	Paths       []Path
	Restriction map[string][]string
	// Anchors, strata's extension, gives each path its linked anchor:
	// path i starts at Anchors[i].Nodes. A plan with anchors keeps only
	// the target's text in Restriction (anchor names are not looked up).
	Anchors []PlanAnchor
	// Attributes, strata's extension, keeps only the targets whose text
	// states each attribute ("released in 2007", "language: French",
	// "chromosome: 19"): a filter, where the restriction ranks.
	Attributes []PlanAttr
	// Named, strata's extension, lists target nodes that the question
	// names and asks for ("which sense of the word 'root' ..."): they rank
	// first, in the restriction's order among themselves
	// (graphops/plan.NamedFirst; plan-exec and the planner apply it).
	Named []uint32
}

// planTokens is a plan's JSON form.
type planTokens struct {
	Metapath    []Path              `json:"Metapath"`
	Restriction map[string][]string `json:"Restriction"`
	Anchors     []PlanAnchor        `json:"Anchors,omitempty"`
	Attributes  []PlanAttr          `json:"Attributes,omitempty"`
	Named       []uint32            `json:"Named,omitempty"`
}

// MetapathTokens writes the plan's paths in token form (Path.Tokens), nil
// without a path: the "Metapath" of its JSON.
func (p Plan) MetapathTokens() [][]string {
	if p.Paths == nil {
		return nil
	}
	out := make([][]string, len(p.Paths))
	for i, path := range p.Paths {
		out[i] = path.Tokens()
	}
	return out
}

// MarshalJSON writes the plan in MoR's shape with strata's extensions,
// paths as tokens. HTML characters ("<-") are escaped as the encoder that
// calls it says.
func (p Plan) MarshalJSON() ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	err := enc.Encode(planTokens{Metapath: p.Paths, Restriction: p.Restriction, Anchors: p.Anchors, Attributes: p.Attributes, Named: p.Named})
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), err
}

// UnmarshalJSON reads the plan MarshalJSON writes; a path of even length,
// or a plan past the readers' bounds (MaxPlanPaths, MaxPathSteps,
// MaxStepRelations), is an error.
func (p *Plan) UnmarshalJSON(b []byte) error {
	var t planTokens
	if err := json.Unmarshal(b, &t); err != nil {
		return err
	}
	if err := checkPaths(len(t.Metapath)); err != nil {
		return err
	}
	*p = Plan{Paths: t.Metapath, Restriction: t.Restriction, Anchors: t.Anchors, Attributes: t.Attributes, Named: t.Named}
	return nil
}

// PlanAttr is an attribute a target's text states: Value after Key (see
// graphops/plan.Attr).
type PlanAttr struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

// PlanRecord is one line of a plans file.
type PlanRecord struct {
	QID       int      `json:"q_id"`
	Query     string   `json:"query"`
	AnswerIDs []uint32 `json:"answer_ids"`
	Plan      Plan     `json:"plan"`
}

// WritePlans writes one JSON object per line.
func WritePlans(w io.Writer, recs []PlanRecord) error { return WriteJSONL(w, recs) }

// WriteJSONL writes one JSON object per line, HTML characters unescaped.
func WriteJSONL[T any](w io.Writer, recs []T) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for i := range recs {
		if err := enc.Encode(&recs[i]); err != nil {
			return err
		}
	}
	return nil
}

// ReadPlans reads a plans file: strata's own (written by WritePlans) or
// MoR's (the same q_id/plan lines, with MAG and Amazon metapaths as arrow
// strings). Lines are keyed by q_id; a repeated q_id is an error. An empty
// or unusable metapath is kept as a plan without paths (the query falls back
// to textual retrieval, as in MoR) and counted in the stats.
func ReadPlans(path string) (map[int]Plan, PlanStats, error) {
	f, err := OpenInput(path)
	if err != nil {
		return nil, PlanStats{}, err
	}
	defer f.Close()
	return ParsePlans(f, path)
}

// ParsePlans parses plans JSONL from r.
func ParsePlans(r io.Reader, file string) (map[int]Plan, PlanStats, error) {
	type rec struct {
		QID   *int            `json:"q_id"`
		Plan  planJSON        `json:"plan"`
		Mined json.RawMessage `json:"mined"`
	}
	out := map[int]Plan{}
	var st PlanStats
	err := qidLines(r, file, func(v *rec) *int { return v.QID }, func(_, id int, v *rec) error {
		st.Plans++
		if len(v.Mined) > 0 && string(v.Mined) != "null" {
			st.Mined++
		}
		plan, err := v.Plan.toPlan()
		switch {
		case err != nil:
			st.Invalid++
			plan.Paths = nil
		case len(plan.Paths) == 0:
			st.Empty++
		}
		out[id] = plan
		return nil
	})
	if err != nil {
		return nil, st, err
	}
	return out, st, nil
}

// FinetuneExample is one query of MoR's planner fine-tuning set.
type FinetuneExample struct {
	Query string
	Plan  Plan
	Valid bool
}

// ReadMoRFinetune reads MoR's planner fine-tuning file: chat lines whose
// user turn is the query and whose assistant turn is the plan as a Python
// dict literal.
func ReadMoRFinetune(path string) ([]FinetuneExample, PlanStats, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, PlanStats{}, err
	}
	defer f.Close()
	sc := newLineScanner(f, path)
	var out []FinetuneExample
	var st PlanStats
	for {
		b, ok := sc.Next()
		if !ok {
			break
		}
		if len(b) == 0 {
			continue
		}
		var rec struct {
			Conversations []struct {
				Role    string `json:"role"`
				Content string `json:"content"`
			} `json:"conversations"`
		}
		if err := json.Unmarshal(b, &rec); err != nil {
			return nil, st, jsonErr(path, sc.line, b, err)
		}
		var ex FinetuneExample
		var answer string
		for _, c := range rec.Conversations {
			switch c.Role {
			case "user":
				ex.Query = c.Content
			case "assistant":
				answer = c.Content
			}
		}
		if ex.Query == "" || answer == "" {
			return nil, st, perrf(path, sc.line, "conversations", ErrSyntax, "want a user and an assistant turn")
		}
		st.Plans++
		raw, err := ParsePythonLiteral(answer)
		var pj planJSON
		if err == nil {
			err = json.Unmarshal(raw, &pj)
		}
		if err == nil {
			ex.Plan, err = pj.toPlan()
		}
		switch {
		case err != nil:
			st.Invalid++
		case len(ex.Plan.Paths) == 0:
			st.Empty++
		default:
			ex.Valid = true
		}
		out = append(out, ex)
	}
	return out, st, sc.Err()
}
