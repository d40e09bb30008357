package data

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// Validating plan-like files against the SKB they are used with. Reading a
// plans file is lenient by design (MoR's LLM-written plans name types that
// do not exist; such a plan is kept without paths and counted, as MoR
// does), so a plans file written for another data set would silently turn
// every query into a textual fallback. The Validate functions below report
// every line that does not fit, each as a *ParseError at file:line with the
// field (q_id, plan.Metapath[i][j], plan.Restriction.<type>,
// plan.Anchors[i].nodes[k], ...); callers decide whether any problem is
// fatal (files strata wrote) or a share of them is tolerated (an LLM's).

// PlanScope is what a plan-like file is checked against.
type PlanScope struct {
	Schema *Schema
	// QA holds the query ids a line's q_id must be one of (its queries
	// and human-generated queries); nil leaves q_ids unchecked.
	QA *QA
	// Nodes, when > 0, is the node count linked anchor nodes must be below.
	Nodes int
}

// ScopeOf is the PlanScope of an SKB.
func ScopeOf(skb *SKB) PlanScope {
	return PlanScope{Schema: &skb.Schema, QA: skb.QA, Nodes: len(skb.Nodes)}
}

// maxProblems bounds the problems a Validate function collects.
const maxProblems = 1000

type problems struct {
	file string
	list []*ParseError
	n    int // all problems, also those not kept
	// lines with a problem, and with a q_id problem (problems come in
	// line order)
	badLines, qidLines, last, lastQID int
}

func (p *problems) add(line int, field string, format string, args ...any) {
	p.n++
	if line != p.last {
		p.badLines, p.last = p.badLines+1, line
	}
	if field == "q_id" && line != p.lastQID {
		p.qidLines, p.lastQID = p.qidLines+1, line
	}
	if len(p.list) < maxProblems {
		p.list = append(p.list, &ParseError{File: p.file, Line: line, Field: field, Err: fmt.Errorf(format, args...)})
	}
}

// qidKnown reports whether id is a query of qa (nil: any id).
func qidKnown(qa *QA, id int) bool {
	if qa == nil {
		return true
	}
	if _, ok := qa.ByID(id); ok {
		return true
	}
	for _, q := range qa.Human {
		if q.ID == id {
			return true
		}
	}
	return false
}

// ValidatePlans checks a plans file (strata's, a mined one or MoR's, as
// ReadPlans reads them) against scope: q_ids are queries; every metapath
// parses, its node types are schema node types (or "*"), its relation
// tokens name schema relations (PathStep.ResolveRelations: "*", "->r", "<-r", "a|b");
// restriction keys are node types; linked anchor nodes exist. It returns
// the problems in line order (at most 1000, and how many there were); err
// is a file that cannot be read as JSON lines at all.
func ValidatePlans(path string, scope PlanScope) (probs []*ParseError, total int, err error) {
	f, err := OpenInput(path)
	if err != nil {
		return nil, 0, err
	}
	defer f.Close()
	return ValidatePlansFrom(f, path, scope)
}

// ValidatePlansFrom is ValidatePlans over a reader.
func ValidatePlansFrom(r io.Reader, file string, scope PlanScope) ([]*ParseError, int, error) {
	p, _, err := validatePlans(r, file, scope)
	return p.list, p.n, err
}

// validatePlans checks plans lines from r and also returns how many lines
// it read.
func validatePlans(r io.Reader, file string, scope PlanScope) (*problems, int, error) {
	type rec struct {
		QID  *int     `json:"q_id"`
		Plan planJSON `json:"plan"`
	}
	p := &problems{file: file}
	lines := 0
	err := qidLines(r, file, func(v *rec) *int { return v.QID }, func(line, id int, v *rec) error {
		lines++
		if !qidKnown(scope.QA, id) {
			p.add(line, "q_id", "%w: query %d is not in the workspace's questions", ErrIDRange, id)
		}
		plan, perr := v.Plan.toPlan()
		if perr != nil {
			p.add(line, "plan", "%w", perr)
			return nil
		}
		checkPlan(p, line, scope, &plan)
		return nil
	})
	return p, lines, err
}

// PlanPolicy says how many problems of a plans file CheckPlans tolerates.
type PlanPolicy int

const (
	// Lenient is for plans from elsewhere (MoR's LLM-written plans name
	// types that do not exist, and those queries fall back to textual
	// retrieval): a q_id that is not a question is fatal (a plans file
	// for other questions), other problems are reported and fatal only
	// on more than half of the lines (a plans file for another schema).
	Lenient PlanPolicy = iota
	// Strict is for plans strata wrote itself (mined plans): any problem
	// is fatal.
	Strict
)

// countOf writes "1 problem", "2 problems".
func countOf(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// maxShown bounds the problem locations a CheckPlans message lists.
const maxShown = 3

// CheckPlans validates a plans file against scope (ValidatePlans) and
// applies policy. err is the file's verdict: a file that cannot be read,
// or problems the policy does not tolerate, with how many there were and
// the first few (file:line: field: problem). warning, when not empty, is
// one line to show the user: the tolerated problems, counted, with the
// first few locations.
func CheckPlans(path string, scope PlanScope, policy PlanPolicy) (warning string, err error) {
	f, err := OpenInput(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	p, lines, err := validatePlans(f, path, scope)
	if err != nil || p.n == 0 {
		return "", err
	}
	first := func(qidOnly bool) string {
		var parts []string
		for _, e := range p.list {
			if len(parts) == maxShown {
				parts = append(parts, "...")
				break
			}
			if !qidOnly || e.Field == "q_id" {
				parts = append(parts, e.Error())
			}
		}
		return strings.Join(parts, "; ")
	}
	switch {
	case policy == Strict:
		return "", fmt.Errorf("%s: %s on %d of %d lines (a plans file strata wrote must fit its workspace: was it made for another?): %s", path, countOf(p.n, "problem"), p.badLines, lines, first(false))
	case p.qidLines > 0:
		return "", fmt.Errorf("%s: %d of %d lines name questions the workspace does not have (a plans file for other questions?): %s", path, p.qidLines, lines, first(true))
	case 2*p.badLines > lines:
		return "", fmt.Errorf("%s: %d of %d plans do not fit the workspace's schema (a plans file for another data set?): %s", path, p.badLines, lines, first(false))
	}
	return fmt.Sprintf("%s: %d of %d plans name node types or relations the schema lacks (%s; such queries fall back to textual retrieval): %s", path, p.badLines, lines, countOf(p.n, "problem"), first(false)), nil
}

// checkPlan adds the problems of one parsed plan.
func checkPlan(p *problems, line int, scope PlanScope, plan *Plan) {
	s := scope.Schema
	for i, path := range plan.Paths {
		for j, n := range path.Nodes {
			field := fmt.Sprintf("plan.Metapath[%d][%d]", i, 2*j)
			if t := n.ResolveType(s).Type; t != AnyType {
				if _, ok := s.NodeTypeID(t); !ok {
					p.add(line, field, "%w: %s is not a node type of the schema", ErrUnknownType, quoteClip(t))
				}
			}
		}
		for j, st := range path.Steps {
			if _, err := st.ResolveRelations(s); err != nil {
				p.add(line, fmt.Sprintf("plan.Metapath[%d][%d]", i, 2*j+1), "%w: %v", ErrUnknownRelation, err)
			}
		}
	}
	for k := range plan.Restriction {
		if _, ok := s.NodeTypeID(k); !ok && k != AnyType {
			p.add(line, "plan.Restriction."+k, "%w: restriction key %s is not a node type of the schema", ErrUnknownType, quoteClip(k))
		}
	}
	for i, a := range plan.Anchors {
		for k, n := range a.Nodes {
			if scope.Nodes > 0 && int(n) >= scope.Nodes {
				p.add(line, fmt.Sprintf("plan.Anchors[%d].nodes[%d]", i, k), "%w: node %d, the SKB has %d nodes", ErrIDRange, n, scope.Nodes)
			}
		}
	}
	for k, n := range plan.Named {
		if scope.Nodes > 0 && int(n) >= scope.Nodes {
			p.add(line, fmt.Sprintf("plan.Named[%d]", k), "%w: node %d, the SKB has %d nodes", ErrIDRange, n, scope.Nodes)
		}
	}
}

// ValidateGraspPlans checks a GRASP plans file against scope: q_ids are
// queries and every plan fits the schema (GraspPlan.ValidateNodes), where
// ReadGraspPlans keeps a plan that does not as no_trade.
func ValidateGraspPlans(path string, scope PlanScope) ([]*ParseError, int, error) {
	f, err := OpenInput(path)
	if err != nil {
		return nil, 0, err
	}
	defer f.Close()
	type rec struct {
		QID  *int            `json:"q_id"`
		Plan json.RawMessage `json:"plan"`
	}
	p := &problems{file: path}
	err = qidLines(f, path, func(v *rec) *int { return v.QID }, func(line, id int, v *rec) error {
		if !qidKnown(scope.QA, id) {
			p.add(line, "q_id", "%w: query %d is not in the workspace's questions", ErrIDRange, id)
		}
		var g GraspPlan
		if err := json.Unmarshal(v.Plan, &g); err != nil {
			p.add(line, "plan", "%w: %v", ErrSyntax, err)
			return nil
		}
		if err := g.ValidateNodes(scope.Schema, scope.Nodes); err != nil {
			p.add(line, "plan", "%w", err)
		}
		return nil
	})
	return p.list, p.n, err
}

// ValidatePatterns checks the q_ids of a patterns file (SimGRAG's pattern
// graphs name entities, not types).
func ValidatePatterns(path string, qa *QA) ([]*ParseError, int, error) {
	f, err := OpenInput(path)
	if err != nil {
		return nil, 0, err
	}
	defer f.Close()
	type rec struct {
		QID *int `json:"q_id"`
	}
	p := &problems{file: path}
	err = qidLines(f, path, func(v *rec) *int { return v.QID }, func(line, id int, v *rec) error {
		if !qidKnown(qa, id) {
			p.add(line, "q_id", "%w: query %d is not in the workspace's questions", ErrIDRange, id)
		}
		return nil
	})
	return p.list, p.n, err
}
