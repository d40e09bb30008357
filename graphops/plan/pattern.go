package plan

import (
	"errors"
	"fmt"
	"strings"

	"github.com/strata-retrieval/strata/data"
)

// ErrNoPattern reports a plan that has no pattern graph: no path starts at
// a named anchor, or an operator (Union) a pattern cannot say.
var ErrNoPattern = errors.New("plan has no pattern graph")

// CompilePattern compiles p for SimGRAG: the plan as a pattern graph
// (data.Pattern) and the expression it was written from, for the answer
// step to rank the target's bindings by (see Env.SoftEvery).
//
// Each path is a chain from its anchor (a known node: the linked anchor's
// nodes when the plan links it, else matched by its text) through
// unknowns of the path's node types (untyped for any type) to one shared
// target. A step along the stored direction is a directed triple, one
// against it a directed triple from the later node; an undirected step, or
// alternatives of mixed directions, is undirected; alternatives stay
// alternatives ("r1|r2"); any relation ("*") between two typed nodes is
// every relation the graph has between those types (between; nil: "*").
// A universal step is written as its existential triple: a pattern says
// "some", and the answer step counts the members. Ranked middle positions,
// attributes and the restriction are not triples; the expression keeps
// them. Paths whose anchor is named nowhere (or has no text) are left out
// of both. Unknown types and relations fail with graphops.ErrInvalidPlan
// (as Compile); a plan with no path left fails with ErrNoPattern.
func CompilePattern(s *data.Schema, p data.Plan, between data.RelationResolver) (Expr, data.Pattern, error) {
	paths, _, err := compilePaths(s, p, skipAnchorless)
	if err != nil {
		return nil, data.Pattern{}, err
	}
	w := patternWriter{s: s, between: between, linked: map[string][]uint32{}}
	for pi, e := range paths {
		if e == nil {
			continue
		}
		ok, err := w.path(pi, e)
		if err != nil {
			return nil, data.Pattern{}, err
		}
		if !ok {
			paths[pi] = nil
		}
	}
	if len(w.triples) == 0 {
		return nil, data.Pattern{}, fmt.Errorf("%w: no path starts at a named anchor", ErrNoPattern)
	}
	pat, err := data.ParsePattern(w.triples, w.target)
	if err != nil {
		return nil, data.Pattern{}, fmt.Errorf("%w: %v", ErrNoPattern, err)
	}
	for i := range pat.Nodes {
		if n := &pat.Nodes[i]; !n.Unknown {
			n.Nodes = w.linked[data.KnownNodeText(n.Text)]
		}
	}
	return assemble(p, paths), pat, nil
}

// patternWriter collects the triples of a plan's paths.
type patternWriter struct {
	s       *data.Schema
	between data.RelationResolver
	triples [][3]string
	target  string
	linked  map[string][]uint32
}

// link is one step of a path: the relations from a node of type from to
// one of type to.
type link struct {
	steps    []Step
	from, to data.TypeID
}

// path writes path pi's triples; false when its anchor has no text.
func (w *patternWriter) path(pi int, e Expr) (bool, error) {
	a, links, err := chain(e)
	if err != nil {
		return false, err
	}
	text := strings.TrimSpace(a.Text)
	if text == "" || len(links) == 0 {
		return false, nil
	}
	unknown := func(t data.TypeID, n int) string {
		if t == AnyType {
			return fmt.Sprintf("%s %d", data.UnknownMarker, n)
		}
		return fmt.Sprintf("%s %s %d", data.UnknownMarker, typeName(w.s, t), n)
	}
	if w.target == "" {
		w.target = unknown(links[len(links)-1].to, 0)
	}
	prev := data.KnownNodeText(a.Text)
	w.linked[prev] = append(w.linked[prev], a.Nodes...)
	for i, l := range links {
		next := w.target
		if i+1 < len(links) {
			next = unknown(l.to, (pi+1)*100+2*i+1) // numbered as the path's tokens
		}
		rel, back, ok := w.rel(l)
		if !ok {
			return false, fmt.Errorf("%w: path %d: no relation links %s and %s", ErrNoPattern, pi, typeName(w.s, l.from), typeName(w.s, l.to))
		}
		if back {
			w.triples = append(w.triples, [3]string{next, rel, prev})
		} else {
			w.triples = append(w.triples, [3]string{prev, rel, next})
		}
		prev = next
	}
	return true, nil
}

// rel writes a step's relations as a pattern relation
// (data.PatternRelation); ok is false when no relation links its types.
func (w *patternWriter) rel(l link) (rel string, back, ok bool) {
	var st data.PathStep
	if l.steps != nil {
		st.Rels = make([]data.RelStep, len(l.steps))
		for i, s := range l.steps {
			name := fmt.Sprintf("#%d", s.Rel)
			if int(s.Rel) < len(w.s.RelationTypes) {
				name = w.s.RelationTypes[s.Rel]
			}
			st.Rels[i] = data.RelStep{Rel: name, Dir: s.Dir}
		}
	}
	rel, back = data.PatternRelation(typeName(w.s, l.from), st, typeName(w.s, l.to), w.between)
	return rel, back, rel != ""
}

// chain reads a path's expression as its anchor and steps (ranked middle
// positions and filters are not part of the pattern).
func chain(e Expr) (*Anchor, []link, error) {
	switch x := e.(type) {
	case *Anchor:
		return x, nil, nil
	case *Hop:
		a, ls, err := chain(x.From)
		return a, append(ls, link{steps: x.Steps, from: typeOf(x.From), to: x.To}), err
	case *Every:
		a, ls, err := chain(x.Members)
		return a, append(ls, link{steps: x.Steps, from: typeOf(x.Members), to: x.To}), err
	case *Restrict:
		return chain(x.Of)
	case *Filter:
		return chain(x.Of)
	}
	return nil, nil, fmt.Errorf("%w: %T is not a path", ErrNoPattern, e)
}

// typeOf is the node type of an expression's nodes (AnyType when mixed or
// unknown).
func typeOf(e Expr) data.TypeID {
	switch x := e.(type) {
	case *Anchor:
		return x.Type
	case *Hop:
		return x.To
	case *Every:
		return x.To
	case *Restrict:
		return typeOf(x.Of)
	case *Filter:
		return typeOf(x.Of)
	case *Intersect:
		if len(x.Args) > 0 {
			return typeOf(x.Args[0])
		}
	}
	return AnyType
}
