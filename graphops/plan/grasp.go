package plan

import (
	"fmt"
	"slices"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/graphops"
)

// Binding is a node a GRASP anchor binds to, with its cosine to the
// anchor's text.
type Binding struct {
	Node uint32
	Cos  float32
}

// Given is a set given node by node with text scores (a GRASP anchor's
// bindings: the nodes it links to and their cosines), support 1 each. A
// node given twice keeps its best score; an empty set is allowed.
type Given struct {
	Text  string // what the nodes were bound to, for Format
	Nodes []Binding
}

// Format implements Expr: `"text" [n bound]`.
func (g *Given) Format(*data.Schema) string {
	return fmt.Sprintf("%q [%d bound]", g.Text, len(g.Nodes))
}

func (g *Given) eval(x *executor) (Set, error) {
	var out Set
	pos := map[uint32]int{}
	for _, b := range g.Nodes {
		if int(b.Node) >= x.Graph.NumNodes() {
			return Set{}, fmt.Errorf("%w: %q: node %d out of range", graphops.ErrInvalidPlan, g.Text, b.Node)
		}
		if j, ok := pos[b.Node]; ok {
			out.Text[j] = max(out.Text[j], b.Cos)
			continue
		}
		pos[b.Node] = len(out.Nodes)
		out.add(b.Node, 1, b.Cos)
	}
	return sortSet(out), nil
}

// CompileGrasp compiles a GRASP plan (data.GraspPlan) to the algebra, its
// anchors bound as anchors gives (by variable): each anchor variable is
// the set of its bindings (Given; a variable bound twice keeps the last),
// each hop a Hop (or, for a universal token "∀->rel", strata's extension,
// an Every that keeps its members' best text score) from its source
// variable's expression to its label, and a variable several hops reach
// the Intersect of what each reaches (paths meeting), in hop order; the
// target's attributes (strata's extension) Filter it. The value's text
// scores are GRASP's: the best (over paths) sum of anchor cosines along a
// matched path. The target's labels are not applied (Set nodes of any
// type; see GraspTargets).
func CompileGrasp(s *data.Schema, p *data.GraspPlan, anchors map[string][]Binding) (Expr, error) {
	vars := map[string]Expr{}
	for _, a := range p.Anchors {
		vars[a.Var] = &Given{Text: a.Text, Nodes: anchors[a.Var]}
	}
	for i, h := range p.Hops {
		from, ok := vars[h.From]
		if !ok {
			return nil, fmt.Errorf("%w: hop %d: %q unbound", graphops.ErrInvalidPlan, i, h.From)
		}
		_, hops, err := graphops.CompilePath(s, i, h.Path())
		if err != nil {
			return nil, fmt.Errorf("hop %d: %w", i, err)
		}
		var steps []Step
		if hops[0].Rels != nil {
			steps = make([]Step, len(hops[0].Rels))
			for j, r := range hops[0].Rels {
				steps[j] = Step{Rel: r, Dir: hops[0].Dirs[j]}
			}
		}
		var e Expr = &Hop{From: from, Steps: steps, To: hops[0].To}
		if hops[0].Every {
			e = &Every{Members: from, Steps: steps, To: hops[0].To, BestText: true}
		}
		if prev, ok := vars[h.ToVar]; ok {
			e = &Intersect{Args: []Expr{prev, e}}
		}
		vars[h.ToVar] = e
	}
	target, ok := vars[p.Target.Var]
	if !ok {
		return nil, fmt.Errorf("%w: target %q unbound", graphops.ErrInvalidPlan, p.Target.Var)
	}
	if len(p.Target.Attributes) > 0 {
		f := &Filter{Of: target}
		for _, a := range p.Target.Attributes {
			f.Attrs = append(f.Attrs, Attr{Key: a.Key, Value: a.Value})
		}
		target = f
	}
	return target, nil
}

// GraspTargets returns the nodes of set (CompileGrasp's value) whose type
// is one of labels (all of them when labels is empty or holds "*") with
// their scores, in ascending node order.
func GraspTargets(g *graphops.Graph, set Set, labels []string) ([]uint32, []float32) {
	s := g.Schema()
	if len(labels) == 0 || slices.Contains(labels, data.AnyType) {
		return set.Nodes, set.Text
	}
	allowed := map[data.TypeID]bool{}
	for _, l := range labels {
		if t, ok := s.NodeTypeID(l); ok {
			allowed[t] = true
		}
	}
	var nodes []uint32
	var scores []float32
	for i, v := range set.Nodes {
		if allowed[g.Type(v)] {
			nodes = append(nodes, v)
			scores = append(scores, set.Text[i])
		}
	}
	return nodes, scores
}
