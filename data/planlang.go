package data

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// AnyType in a plan path matches every node type (strata's extension of
// MoR's paths: mined plans leave a position untyped when the training
// questions do not agree on its type).
const AnyType = "*"

// Direction of a relation step in a plan path.
type RelDir uint8

// A step follows its relation either way (MoR's reading of a relation
// name), along the stored direction from the earlier node of the path to
// the later one (written "->rel"), or against it ("<-rel").
const (
	Undirected RelDir = iota
	Forward
	Backward
)

// RelStep is one relation of a plan step, with its direction.
type RelStep struct {
	Rel string
	Dir RelDir
}

// String writes the step as a plan token: "rel", "->rel" or "<-rel".
func (r RelStep) String() string {
	switch r.Dir {
	case Forward:
		return "->" + r.Rel
	case Backward:
		return "<-" + r.Rel
	}
	return r.Rel
}

// EveryPrefix marks a universal step in a plan path (strata's extension
// of MoR's paths): "∀->has_genre" reaches the nodes that every node of the
// previous position has that relation to (the genre all of a person's
// films share), where "->has_genre" reaches those any of them has.
const EveryPrefix = "∀"

// RankMark ends a middle node element of a plan path (strata's extension):
// "movie~" ranks the nodes at that position by the plan's restriction (the
// question's text without its anchors), and the nodes the path reaches
// from them inherit the best of those scores, so "the cast of the 2007
// films directed by X" ranks first the people of X's films whose text
// matches. It ranks; it cuts nothing.
const RankMark = "~"

// WithoutRankMarks returns p with the RankMark of its positions removed,
// for consumers that rank only the target (a copy; p is not changed).
func (p Plan) WithoutRankMarks() Plan {
	out := p
	out.Paths = make([]Path, len(p.Paths))
	for i, path := range p.Paths {
		out.Paths[i] = path.Clone()
		for j := range out.Paths[i].Nodes {
			out.Paths[i].Nodes[j].Ranked = false
		}
	}
	if p.Paths == nil {
		out.Paths = nil
	}
	return out
}

// WithRankedMiddles returns p with the position before the last step of
// every path of two or more hops ranked (RankMark; a copy; p is not
// changed), the ranked twin of an unranked plan; ok is false when no path
// has two hops.
func (p Plan) WithRankedMiddles() (out Plan, ok bool) {
	out = p.WithoutRankMarks()
	for _, path := range out.Paths {
		if path.Hops() >= 2 {
			path.Nodes[len(path.Nodes)-2].Ranked = true
			ok = true
		}
	}
	return out, ok
}

// HasRankMarks reports whether a position of p is ranked (RankMark).
func (p *Plan) HasRankMarks() bool {
	for _, path := range p.Paths {
		for _, n := range path.Nodes {
			if n.Ranked {
				return true
			}
		}
	}
	return false
}

// RelToken writes steps as one plan token (the relation half of
// PathStep.Token; ParsePath reads it).
func RelToken(steps []RelStep) string {
	if len(steps) == 0 {
		return AnyRelation
	}
	parts := make([]string, len(steps))
	for i, s := range steps {
		parts[i] = s.String()
	}
	return strings.Join(parts, "|")
}

// Reverse returns the step read from the other end.
func (r RelStep) Reverse() RelStep {
	switch r.Dir {
	case Forward:
		r.Dir = Backward
	case Backward:
		r.Dir = Forward
	}
	return r
}

// PlanAnchor binds a plan path's first node to linked nodes: the mention
// of the question (Text) and the nodes it was linked to.
type PlanAnchor struct {
	Text  string   `json:"text"`
	Nodes []uint32 `json:"nodes"`
}

// PathAnchorText returns the text naming the anchor of path pi: the linked
// mention when the plan carries anchors, else the next unused restriction
// of the path's first type (MoR's convention; used counts the restrictions
// taken per type and is updated). ok is false when the path names none.
func (p *Plan) PathAnchorText(pi int, used map[string]int) (string, bool) {
	if len(p.Anchors) > 0 {
		if pi < len(p.Anchors) && strings.TrimSpace(p.Anchors[pi].Text) != "" {
			return p.Anchors[pi].Text, true
		}
		return "", false
	}
	first := p.Paths[pi].Anchor()
	if first == "" {
		return "", false
	}
	k := used[first]
	rs := p.Restriction[first]
	if k >= len(rs) {
		return "", false
	}
	used[first] = k + 1
	return rs[k], true
}

// Template names the plan's structure: its metapaths, node types and
// relations joined by spaces, paths by " & " ("(no plan)" without a path).
// eval --by-template groups queries by it.
func (p *Plan) Template() string {
	if len(p.Paths) == 0 {
		return "(no plan)"
	}
	parts := make([]string, len(p.Paths))
	for i, path := range p.Paths {
		parts[i] = strings.Join(path.Tokens(), " ")
	}
	return strings.Join(parts, " & ")
}

// Shape names the plan's shape and relations, node types left out: each
// path's hop count ("1-hop", paths meeting at the target joined by " ∩ "),
// then its relations ("/" between the hops of a path, " ∩ " between
// paths), paths ordered by hops, then relations, so that the same
// intersection written in either order is one shape: e.g. "1-hop ∩ 2-hop
// <-domain topic ∩ <-hypernym/<-part holonym" ("(no plan)" without a
// path). eval --by-shape groups queries by it.
func (p *Plan) Shape() string {
	if len(p.Paths) == 0 {
		return "(no plan)"
	}
	type path struct {
		hops int
		rels string
	}
	ps := make([]path, len(p.Paths))
	for i, mp := range p.Paths {
		rs := make([]string, len(mp.Steps))
		for j, st := range mp.Steps {
			rs[j] = st.Token()
		}
		ps[i] = path{len(rs), strings.Join(rs, "/")}
	}
	slices.SortFunc(ps, func(a, b path) int { return cmp.Or(cmp.Compare(a.hops, b.hops), cmp.Compare(a.rels, b.rels)) })
	hops := make([]string, len(ps))
	rels := make([]string, len(ps))
	for i, x := range ps {
		hops[i], rels[i] = fmt.Sprintf("%d-hop", x.hops), x.rels
	}
	return strings.Join(hops, " ∩ ") + " " + strings.Join(rels, " ∩ ")
}

// TargetType returns the node type the plan's paths end at ("" without a
// path).
func (p *Plan) TargetType() string {
	if len(p.Paths) == 0 {
		return ""
	}
	return p.Paths[0].Target()
}

// TargetRestriction returns the textual restriction of the plan's target.
// In MoR's plans an anchor and the target of the same type share one
// restriction list; plans with linked anchors keep only the target's text
// there.
func (p *Plan) TargetRestriction() []string {
	return p.Restriction[p.TargetType()]
}
