// Package plan is strata's typed plan algebra: a plan is a tree of
// operators over node sets of the graph. Plans travel as data.Plan and are
// compiled to it where they execute (Compile, ExecuteRanked: on every
// call). plan-exec and the other planned baselines, SimGRAG's and KGQA's
// patterns (CompilePattern), GRASP's plans (CompileGrasp) and the
// planner's candidates execute through the algebra; MoR's mixed traversal
// (traverse.go) still walks plans its own way (issue 38).
//
//   - Anchor: the nodes a mention names (linked nodes, or a name lookup),
//     of one node type or any.
//   - Hop: the nodes one relation step (typed, with a direction) reaches
//     from a set.
//   - Intersect and Union of sets.
//   - Every: the nodes related by a step to every member of a set (the
//     genre all films of a person share), or, soft, to most of them.
//   - Filter: the nodes of a set whose text states an attribute ("2007",
//     "language: English"), on any node of a path, middle nodes included.
//   - Restrict: ranks (does not cut) a set by a text restriction on its
//     nodes' documents.
//
// An expression's value is a Set: nodes in ascending id order, each with a
// support (how many anchors, paths or members back it) and a text score
// (from restrictions). Ranking orders a set by support, then text score,
// then id. MoR's plans (data.Plan: metapaths, restrictions, linked
// anchors) compile to this algebra (Compile) and execute to exactly the
// node sets the executor it replaced computed (tested against that
// reference, kept in planref_test.go); GRASP's plans compile with
// CompileGrasp, their scores bit for bit those of GRASP's former executor
// (graspref_test.go).
package plan

import (
	"fmt"
	"strings"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/graphops"
)

// Expr is a plan operator.
type Expr interface {
	// Format writes the expression readably, with the schema's names.
	Format(s *data.Schema) string
	eval(x *executor) (Set, error)
}

// AnyType stands for "any node type" in Anchor, Hop and Every.
const AnyType = graphops.AnyTypeID

// Step is one relation of a hop with its direction (data.Forward: along
// the stored edge, data.Backward: against it, data.Undirected: either).
type Step struct {
	Rel data.RelID
	Dir data.RelDir
}

// Anchor is the set of nodes a mention names: Nodes when the mention was
// linked, else the nodes of type Type (AnyType: every type) whose name is
// Text.
type Anchor struct {
	Text  string
	Type  data.TypeID
	Nodes []uint32
}

// Hop is the set of nodes of type To (AnyType: any) that one of Steps
// reaches from a node of From (Steps nil: any relation, either way). A
// reached node's support and text score are the best of the nodes it is
// reached from.
type Hop struct {
	From  Expr
	Steps []Step
	To    data.TypeID
}

// Intersect is the set of nodes every argument holds; support and text
// score add up.
type Intersect struct{ Args []Expr }

// Union is the set of nodes any argument holds; support and text score add
// up, so a node two anchors reach ranks above a node one reaches.
type Union struct{ Args []Expr }

// Every is the set of nodes of type To related by one of Steps to every
// member of Members (universal quantification over the set, where a Hop is
// existential). Soft keeps the nodes related to at least one member,
// with support the fraction of members they relate to, so "most members"
// ranks first; strict Every keeps only those related to all (support 1).
// Members with no such relation at all are not counted: a film without a
// genre says nothing about which genre every film has. A node's text
// score is 0, or with BestText the best text score of the members related
// to it (GRASP's universal hop: the best path into it).
type Every struct {
	Members  Expr
	Steps    []Step
	To       data.TypeID
	Soft     bool
	BestText bool
}

// Attr is an attribute a node's text states: Value (words or a number),
// after Key when Key is not empty ("language: English", "released in
// 2007"; between the key and the value only ":" or one short word may
// stand).
type Attr struct {
	Key   string
	Value string
}

// Filter keeps the nodes of Of whose name or text fields state every Attr.
type Filter struct {
	Of    Expr
	Attrs []Attr
}

// Restrict adds to each node of Of the text scorer's score of Text on its
// document; it cuts nothing.
type Restrict struct {
	Of   Expr
	Text string
}

func typeName(s *data.Schema, t data.TypeID) string {
	if t == AnyType || int(t) >= len(s.NodeTypes) {
		return data.AnyType
	}
	return s.NodeTypes[t]
}

func stepsName(s *data.Schema, steps []Step) string {
	if steps == nil {
		return data.AnyType
	}
	parts := make([]string, len(steps))
	for i, st := range steps {
		name := fmt.Sprintf("#%d", st.Rel)
		if int(st.Rel) < len(s.RelationTypes) {
			name = s.RelationTypes[st.Rel]
		}
		parts[i] = data.RelStep{Rel: name, Dir: st.Dir}.String()
	}
	return strings.Join(parts, "|")
}

func formatArgs(s *data.Schema, op string, args []Expr) string {
	parts := make([]string, len(args))
	for i, a := range args {
		parts[i] = a.Format(s)
	}
	return op + "(" + strings.Join(parts, ", ") + ")"
}

// Format implements Expr: `person "Tom Hanks"` (with [n linked] when linked).
func (a *Anchor) Format(s *data.Schema) string {
	out := fmt.Sprintf("%s %q", typeName(s, a.Type), a.Text)
	if a.Nodes != nil {
		out += fmt.Sprintf(" [%d linked]", len(a.Nodes))
	}
	return out
}

// Format implements Expr, as a path reads: `FROM <-starred_actors movie`.
func (h *Hop) Format(s *data.Schema) string {
	return fmt.Sprintf("%s %s %s", h.From.Format(s), stepsName(s, h.Steps), typeName(s, h.To))
}

// Format implements Expr.
func (i *Intersect) Format(s *data.Schema) string { return formatArgs(s, "and", i.Args) }

// Format implements Expr.
func (u *Union) Format(s *data.Schema) string { return formatArgs(s, "or", u.Args) }

// Format implements Expr: `every(MEMBERS) ->has_genre genre`.
func (e *Every) Format(s *data.Schema) string {
	op := "every"
	if e.Soft {
		op = "most"
	}
	return fmt.Sprintf("%s(%s) %s %s", op, e.Members.Format(s), stepsName(s, e.Steps), typeName(s, e.To))
}

// Format implements Expr: `OF where "2007"`.
func (f *Filter) Format(s *data.Schema) string {
	parts := make([]string, len(f.Attrs))
	for i, a := range f.Attrs {
		if a.Key != "" {
			parts[i] = fmt.Sprintf("%s %q", a.Key, a.Value)
		} else {
			parts[i] = fmt.Sprintf("%q", a.Value)
		}
	}
	return fmt.Sprintf("(%s) where %s", f.Of.Format(s), strings.Join(parts, " and "))
}

// Format implements Expr: `OF ranked by "text"`.
func (r *Restrict) Format(s *data.Schema) string {
	return fmt.Sprintf("(%s) ranked by %q", r.Of.Format(s), r.Text)
}
