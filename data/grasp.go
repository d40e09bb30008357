package data

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// GraspPlan is GRASP's query plan: anchors linked to graph nodes, typed
// hops between variables, and the target variable with its relevance text.
type GraspPlan struct {
	Anchors       []GraspAnchor `json:"anchors"`
	Hops          []GraspHop    `json:"hops"`
	Target        GraspTarget   `json:"target"`
	RiskLevel     string        `json:"risk_level"`
	RetrievalMode string        `json:"retrieval_mode,omitempty"` // Amazon plans may add it
}

// GraspAnchor is a variable bound to the nodes its text links to.
type GraspAnchor struct {
	Var       string `json:"var"`
	Text      string `json:"text"`
	Label     string `json:"label"`
	MatchMode string `json:"match_mode"` // "name" or "doc"
	// Nodes, strata's extension, are nodes the anchor is already linked
	// to (by the native planner's entity linking); linking then keeps them.
	Nodes []uint32 `json:"nodes,omitempty"`
}

// GraspHop is a typed step from a bound variable. Rel is a relation
// followed either way, as in GRASP, or strata's extensions: a direction
// ("->rel", "<-rel"), alternatives ("r1|r2") or "*" (any relation); to_label
// may be "*" (any node type).
type GraspHop struct {
	From    string `json:"from"`
	Rel     string `json:"rel"`
	ToVar   string `json:"to_var"`
	ToLabel string `json:"to_label"`
}

// GraspTarget names the answer variable.
type GraspTarget struct {
	Var           string   `json:"var"`
	Labels        []string `json:"labels"`
	RelevanceText string   `json:"relevance_text"`
	// Attributes, strata's extension (as data.Plan's), keeps only the
	// targets whose text states each (key, value), as "released 2007".
	Attributes []PlanAttr `json:"attributes,omitempty"`
}

// GRASP's risk levels.
const (
	RiskNoTrade    = "no_trade"
	RiskWeak       = "weak"
	RiskNormal     = "normal"
	RiskAggressive = "aggressive"
)

// RiskLevels lists them in order.
var RiskLevels = []string{RiskNoTrade, RiskWeak, RiskNormal, RiskAggressive}

// ErrInvalidPlan reports a plan that does not fit the schema.
var ErrInvalidPlan = errors.New("invalid GRASP plan")

// Validate checks the plan against the schema: labels are node types,
// relations are relation types, every hop starts at a bound variable, the
// target is bound, match modes and the risk level are GRASP's. Linked
// anchor nodes must be below n (n <= 0 skips that check).
func (p *GraspPlan) Validate(s *Schema) error { return p.ValidateNodes(s, 0) }

// ValidateNodes is Validate with the number of nodes of the graph.
func (p *GraspPlan) ValidateNodes(s *Schema, n int) error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: %s", ErrInvalidPlan, fmt.Sprintf(format, args...))
	}
	switch p.RiskLevel {
	case RiskNoTrade, RiskWeak, RiskNormal, RiskAggressive:
	default:
		return bad("risk_level %s (want no_trade, weak, normal or aggressive)", quoteClip(p.RiskLevel))
	}
	if p.RiskLevel == RiskNoTrade {
		return nil
	}
	bound := map[string]string{}
	if len(p.Anchors) == 0 {
		return bad("no anchors")
	}
	for i, a := range p.Anchors {
		if a.Var == "" || strings.TrimSpace(a.Text) == "" {
			return bad("anchor %d: empty var or text", i)
		}
		if _, ok := s.NodeTypeID(a.Label); !ok && a.Label != AnyType {
			return bad("anchor %d: label %s is not a node type", i, quoteClip(a.Label))
		}
		for _, v := range a.Nodes {
			if n > 0 && int(v) >= n {
				return bad("anchor %d: node %d out of range", i, v)
			}
		}
		if a.MatchMode != "name" && a.MatchMode != "doc" {
			return bad("anchor %d: match_mode %s (want name or doc)", i, quoteClip(a.MatchMode))
		}
		if _, dup := bound[a.Var]; dup {
			return bad("anchor %d: variable %s bound twice", i, quoteClip(a.Var))
		}
		bound[a.Var] = a.Label
	}
	for i, h := range p.Hops {
		if _, ok := bound[h.From]; !ok {
			return bad("hop %d: from %s is not bound by an anchor or an earlier hop", i, quoteClip(h.From))
		}
		if _, err := h.Path().Steps[0].ResolveRelations(s); err != nil {
			return bad("hop %d: rel %s: %v", i, quoteClip(h.Rel), err)
		}
		if _, ok := s.NodeTypeID(h.ToLabel); !ok && h.ToLabel != AnyType {
			return bad("hop %d: to_label %s is not a node type", i, quoteClip(h.ToLabel))
		}
		if l, ok := bound[h.ToVar]; ok && l != h.ToLabel && l != AnyType && h.ToLabel != AnyType {
			return bad("hop %d: %s was %s, now %s", i, quoteClip(h.ToVar), clip(l), clip(h.ToLabel))
		}
		if _, anchor := anchorVar(p, h.ToVar); anchor {
			return bad("hop %d: to_var %s is an anchor", i, quoteClip(h.ToVar))
		}
		if l, ok := bound[h.ToVar]; !ok || l == AnyType {
			bound[h.ToVar] = h.ToLabel
		}
	}
	if _, ok := bound[p.Target.Var]; !ok {
		return bad("target %s is not bound", quoteClip(p.Target.Var))
	}
	for _, l := range p.Target.Labels {
		if _, ok := s.NodeTypeID(l); !ok && l != AnyType {
			return bad("target label %s is not a node type", quoteClip(l))
		}
	}
	for i, a := range p.Target.Attributes {
		if strings.TrimSpace(a.Value) == "" {
			return bad("target attribute %d: empty value", i)
		}
	}
	return nil
}

func anchorVar(p *GraspPlan, v string) (int, bool) {
	for i, a := range p.Anchors {
		if a.Var == v {
			return i, true
		}
	}
	return -1, false
}

// GraspStats counts a plans file.
type GraspStats struct {
	Plans   int
	Invalid int // replaced by no_trade
	NoTrade int // no_trade after validation
}

// ReadGraspPlans reads {"q_id", "plan"} lines. A plan that does not fit
// the schema is counted and kept as no_trade (GRASP's rule); a line that
// is not JSON is an error naming the file and line.
func ReadGraspPlans(path string, s *Schema) (map[int]GraspPlan, GraspStats, error) {
	f, err := OpenInput(path)
	if err != nil {
		return nil, GraspStats{}, err
	}
	defer f.Close()
	return ParseGraspPlans(f, path, s)
}

// ParseGraspPlans parses GRASP plans JSONL from r.
func ParseGraspPlans(r io.Reader, file string, s *Schema) (map[int]GraspPlan, GraspStats, error) {
	type rec struct {
		QID  *int            `json:"q_id"`
		Plan json.RawMessage `json:"plan"`
	}
	out := map[int]GraspPlan{}
	var st GraspStats
	err := qidLines(r, file, func(v *rec) *int { return v.QID }, func(_, id int, v *rec) error {
		st.Plans++
		var p GraspPlan
		if err := json.Unmarshal(v.Plan, &p); err != nil || p.Validate(s) != nil {
			st.Invalid++
			p = GraspPlan{RiskLevel: RiskNoTrade}
		}
		if p.RiskLevel == RiskNoTrade {
			st.NoTrade++
		}
		out[id] = p
		return nil
	})
	if err != nil {
		return nil, st, err
	}
	return out, st, nil
}

// Path is the hop as a plan path of one step, from any type to its
// ToLabel: its Rel is a relation token ("∀->rel": a universal step).
func (h GraspHop) Path() Path {
	return Path{Nodes: []PathNode{{Type: AnyType}, {Type: h.ToLabel}}, Steps: []PathStep{parseStep(h.Rel)}}
}

// RelationResolver returns the relations that link nodes of two types (in
// either stored direction); it resolves MoR's "*" relations.
type RelationResolver func(from, to string) []string

// PlanToGrasp converts a MoR planning graph (metapaths with restrictions)
// into a GRASP plan: each path's anchor is the plan's linked anchor or its
// first type's next restriction (matched by name), its steps are hops,
// every path ends at the target variable, whose relevance text is the
// target's restriction and whose attributes are the plan's; a universal
// step ("∀->rel") stays one. A "*" relation between two typed nodes resolves
// through between to the alternatives "r1|r2|..." (with a nil resolver,
// or an untyped end, it stays "*": any relation); a "*" between types no
// relation links makes the plan no_trade. risk is the plan's risk level;
// a plan with no anchored path is no_trade.
func PlanToGrasp(p Plan, risk string, between RelationResolver) GraspPlan {
	p = p.WithoutRankMarks() // GRASP ranks its target only
	var g GraspPlan
	target := ""
	used := map[string]int{}
	for pi, path := range p.Paths {
		if path.Hops() == 0 {
			continue
		}
		text, ok := p.PathAnchorText(pi, used)
		if !ok {
			continue
		}
		if target == "" {
			target = "t"
			g.Target = GraspTarget{Var: target, Labels: []string{path.Target()}}
		}
		av := fmt.Sprintf("a%d", pi)
		a := GraspAnchor{Var: av, Text: text, Label: path.Anchor(), MatchMode: "name"}
		if len(p.Anchors) > 0 {
			a.Nodes = p.Anchors[pi].Nodes
		}
		g.Anchors = append(g.Anchors, a)
		prev := av
		for k, st := range path.Steps {
			next := target
			if k+1 != path.Hops() {
				next = fmt.Sprintf("v%d_%d", pi, 2*k+2)
			}
			from, to := path.Nodes[k].Type, path.Nodes[k+1].Type
			rel := st.Token()
			if st.Rels == nil && !st.Every && between != nil && from != AnyType && to != AnyType {
				rs := between(from, to)
				if len(rs) == 0 {
					return GraspPlan{RiskLevel: RiskNoTrade}
				}
				rel = strings.Join(rs, "|")
			}
			g.Hops = append(g.Hops, GraspHop{From: prev, Rel: rel, ToVar: next, ToLabel: to})
			prev = next
		}
	}
	if len(g.Anchors) == 0 {
		return GraspPlan{RiskLevel: RiskNoTrade}
	}
	if r := p.TargetRestriction(); len(r) > 0 {
		g.Target.RelevanceText = strings.Join(r, " ")
	}
	g.Target.Attributes = p.Attributes
	g.RiskLevel = risk
	return g
}
