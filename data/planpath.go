package data

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// Path is one reasoning path of a plan: node positions joined by relation
// steps, from the anchor's type (Nodes[0]) to the target's (the last).
// A path of one node (the target type alone) constrains nothing. Plans
// carry paths in this form everywhere inside the program; the token lists
// of the file formats (["brand", "->has_brand", "product"], "∀", "~",
// "r1|r2", "*") are read by ParsePath and written by Path.Tokens only.
type Path struct {
	Nodes []PathNode // len(Steps)+1 positions
	Steps []PathStep // Steps[i] joins Nodes[i] and Nodes[i+1]
}

// PathNode is a position of a path: a node type (AnyType: any) and, for a
// middle position, whether the plan's restriction ranks it (RankMark).
type PathNode struct {
	Type   string
	Ranked bool
}

// PathStep is a relation step of a path: the relations it may follow
// (alternatives, each with its direction; nil: any relation, AnyRelation)
// and whether it is universal (EveryPrefix: the nodes every node of the
// previous position relates to, where a plain step reaches those any of
// them does).
type PathStep struct {
	Rels  []RelStep
	Every bool
}

// TypePath is the path that walks steps from the node type types[0]
// through types[1:] (len(types) = len(steps)+1), no position ranked.
func TypePath(types []string, steps []PathStep) Path {
	p := Path{Nodes: make([]PathNode, len(types)), Steps: slices.Clone(steps)}
	for i, t := range types {
		p.Nodes[i] = PathNode{Type: t}
	}
	return p
}

// Step is the plain step along rel in direction dir.
func Step(rel string, dir RelDir) PathStep {
	return PathStep{Rels: []RelStep{{Rel: rel, Dir: dir}}}
}

// AnyStep is the step along any relation.
func AnyStep() PathStep { return PathStep{} }

// Anchor returns the type of the path's first position.
func (p Path) Anchor() string {
	if len(p.Nodes) == 0 {
		return ""
	}
	return p.Nodes[0].Type
}

// Target returns the type of the path's last position.
func (p Path) Target() string {
	if len(p.Nodes) == 0 {
		return ""
	}
	return p.Nodes[len(p.Nodes)-1].Type
}

// Hops returns the number of relation steps.
func (p Path) Hops() int { return len(p.Steps) }

// Clone returns a deep copy.
func (p Path) Clone() Path {
	out := Path{Nodes: slices.Clone(p.Nodes), Steps: make([]PathStep, len(p.Steps))}
	for i, s := range p.Steps {
		out.Steps[i] = PathStep{Rels: slices.Clone(s.Rels), Every: s.Every}
	}
	if p.Steps == nil {
		out.Steps = nil
	}
	return out
}

// Token writes the position as a plan token: its type, RankMark after a
// ranked one.
func (n PathNode) Token() string {
	if n.Ranked {
		return n.Type + RankMark
	}
	return n.Type
}

// Token writes the step as a plan token: "∀" before a universal one, then
// its relations as RelToken writes them.
func (s PathStep) Token() string {
	if s.Every {
		return EveryPrefix + RelToken(s.Rels)
	}
	return RelToken(s.Rels)
}

// Relations returns the step's relations without its universal mark as a
// token ("->hypernym|->instance hypernym", AnyRelation for any).
func (s PathStep) Relations() string { return RelToken(s.Rels) }

// Tokens writes the path in the file formats' token form: node types
// alternating with relation tokens (the inverse of ParsePath).
func (p Path) Tokens() []string {
	out := make([]string, 0, len(p.Nodes)+len(p.Steps))
	for i, n := range p.Nodes {
		if i > 0 {
			out = append(out, p.Steps[i-1].Token())
		}
		out = append(out, n.Token())
	}
	return out
}

// ParsePath reads a path in token form: node types (AnyType: any; a
// middle one ending in RankMark is ranked) alternating with relation
// tokens (AnyRelation; a relation name, possibly prefixed "->" or "<-";
// alternatives joined by "|"; EveryPrefix before a universal step). It
// needs no schema: ResolveType and ResolveRelations give a name that is
// itself a type or relation of the schema ("a|b", "x~") its literal
// meaning.
func ParsePath(tokens []string) (Path, error) {
	if len(tokens)%2 == 0 {
		return Path{}, fmt.Errorf("%w: a path of %d elements; want node types alternating with relations", ErrSyntax, len(tokens))
	}
	if steps := len(tokens) / 2; steps > MaxPathSteps {
		return Path{}, fmt.Errorf("%w: a path of %d steps; at most %d", ErrSyntax, steps, MaxPathSteps)
	}
	p := Path{Nodes: make([]PathNode, 0, len(tokens)/2+1)}
	for i, tok := range tokens {
		if i%2 == 0 {
			n := PathNode{Type: tok}
			if rest, ok := strings.CutSuffix(tok, RankMark); ok && rest != "" && i > 0 && i < len(tokens)-1 {
				n = PathNode{Type: rest, Ranked: true}
			}
			p.Nodes = append(p.Nodes, n)
			continue
		}
		st := parseStep(tok)
		if len(st.Rels) > MaxStepRelations {
			return Path{}, fmt.Errorf("%w: a step of %d relations; at most %d", ErrSyntax, len(st.Rels), MaxStepRelations)
		}
		p.Steps = append(p.Steps, st)
	}
	return p, nil
}

// The largest plan the readers accept (a bigger one is a syntax error):
// its execution walks the graph once per step and relation, so these
// bound what one plan from a file or a request costs. STaRK's and MoR's
// plans have at most 3 steps, strata's mined ones MaxHops (3 by default).
const (
	MaxPathSteps     = 16 // relation steps of a path
	MaxStepRelations = 64 // alternative relations of a step
	MaxPlanPaths     = 16 // paths of a plan
)

// checkPaths refuses more than MaxPlanPaths paths.
func checkPaths(n int) error {
	if n > MaxPlanPaths {
		return fmt.Errorf("%w: a plan of %d paths; at most %d", ErrSyntax, n, MaxPlanPaths)
	}
	return nil
}

// parseStep reads a relation token (see ParsePath).
func parseStep(tok string) PathStep {
	var st PathStep
	tok, st.Every = strings.CutPrefix(strings.TrimSpace(tok), EveryPrefix)
	if tok = strings.TrimSpace(tok); tok == AnyRelation {
		return st
	}
	for _, alt := range strings.Split(tok, "|") {
		st.Rels = append(st.Rels, ParseRelStep(alt))
	}
	return st
}

// ParseRelStep reads one relation step as RelStep.String writes it: "rel",
// "->rel" or "<-rel", spaces around either part trimmed.
func ParseRelStep(tok string) RelStep {
	tok = strings.TrimSpace(tok)
	r := RelStep{Rel: tok}
	switch {
	case strings.HasPrefix(tok, "->"):
		r = RelStep{Rel: tok[2:], Dir: Forward}
	case strings.HasPrefix(tok, "<-"):
		r = RelStep{Rel: tok[2:], Dir: Backward}
	}
	r.Rel = strings.TrimSpace(r.Rel)
	return r
}

// ParsePaths reads paths in token form (ParsePath), naming the bad one.
func ParsePaths(tokens [][]string) ([]Path, error) {
	if tokens == nil {
		return nil, nil
	}
	if err := checkPaths(len(tokens)); err != nil {
		return nil, err
	}
	out := make([]Path, len(tokens))
	for i, t := range tokens {
		p, err := ParsePath(t)
		if err != nil {
			return nil, fmt.Errorf("path %d: %w", i, err)
		}
		out[i] = p
	}
	return out, nil
}

// MustPaths is ParsePaths for token paths written in the program (tests,
// generators); it panics on a path of even length.
func MustPaths(tokens ...[]string) []Path {
	out, err := ParsePaths(tokens)
	if err != nil {
		panic(err)
	}
	return out
}

// ResolveType returns the schema's reading of the position: a type's own
// name is that type whatever it ends with, so a position parsed as ranked
// whose written name (with RankMark) is a type of s is that type,
// unranked.
func (n PathNode) ResolveType(s *Schema) PathNode {
	if n.Ranked {
		if _, ok := s.NodeTypeID(n.Token()); ok {
			return PathNode{Type: n.Token()}
		}
	}
	return n
}

// ResolveRelations returns the step's relations as the schema reads them:
// nil for any relation; a step whose written token (without its universal
// mark) is itself a relation of s is that relation, whatever it contains;
// else each alternative, which must be a relation of s.
func (s PathStep) ResolveRelations(sc *Schema) ([]RelStep, error) {
	if s.Rels == nil {
		return nil, nil
	}
	if tok := RelToken(s.Rels); len(s.Rels) > 1 || s.Rels[0].Dir != Undirected {
		if _, ok := sc.RelationID(tok); ok {
			return []RelStep{{Rel: tok}}, nil
		}
	}
	for _, r := range s.Rels {
		if _, ok := sc.RelationID(r.Rel); !ok {
			return nil, fmt.Errorf("unknown relation %s", quoteClip(r.String()))
		}
	}
	return s.Rels, nil
}

// MarshalJSON writes the path in token form (Tokens), HTML characters
// ("<-") escaped as the encoder that calls it says.
func (p Path) MarshalJSON() ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	err := enc.Encode(p.Tokens())
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), err
}

// UnmarshalJSON reads a path in token form (ParsePath).
func (p *Path) UnmarshalJSON(b []byte) error {
	var tokens []string
	if err := json.Unmarshal(b, &tokens); err != nil {
		return err
	}
	path, err := ParsePath(tokens)
	if err != nil {
		return err
	}
	*p = path
	return nil
}
