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

// SplitEvery returns a relation token without its EveryPrefix, and
// whether it had one.
func SplitEvery(tok string) (string, bool) {
	if rest, ok := strings.CutPrefix(tok, EveryPrefix); ok {
		return rest, true
	}
	return tok, false
}

// RankMark ends a middle node element of a plan path (strata's extension):
// "movie~" ranks the nodes at that position by the plan's restriction (the
// question's text without its anchors), and the nodes the path reaches
// from them inherit the best of those scores, so "the cast of the 2007
// films directed by X" ranks first the people of X's films whose text
// matches. It ranks; it cuts nothing.
const RankMark = "~"

// SplitRanked returns a node element without its RankMark, and whether it
// had one.
func SplitRanked(el string) (string, bool) {
	if rest, ok := strings.CutSuffix(el, RankMark); ok && rest != "" {
		return rest, true
	}
	return el, false
}

// WithoutRankMarks returns p with the RankMark of its node elements
// removed, for consumers that rank only the target (a copy; p is not
// changed).
func (p Plan) WithoutRankMarks() Plan {
	out := p
	out.Metapath = make([][]string, len(p.Metapath))
	for i, path := range p.Metapath {
		out.Metapath[i] = slices.Clone(path)
		for j := 0; j < len(path); j += 2 {
			out.Metapath[i][j], _ = SplitRanked(path[j])
		}
	}
	return out
}

// WithRankedMiddles returns p with the position before the last step of
// every path of two or more hops marked RankMark (a copy; p is not
// changed), the ranked twin of an unranked plan; ok is false when no path
// has two hops.
func (p Plan) WithRankedMiddles() (out Plan, ok bool) {
	out = p.WithoutRankMarks()
	for _, path := range out.Metapath {
		if len(path) >= 5 {
			path[len(path)-3] += RankMark
			ok = true
		}
	}
	return out, ok
}

// HasRankMarks reports whether a node element of p carries RankMark.
func (p *Plan) HasRankMarks() bool {
	for _, path := range p.Metapath {
		for j := 0; j < len(path); j += 2 {
			if _, ok := SplitRanked(path[j]); ok {
				return true
			}
		}
	}
	return false
}

// ParseRelToken reads the relation element of a plan path: AnyRelation;
// a relation name, possibly prefixed "->" or "<-"; or alternatives joined
// by "|" ("->hypernym|->instance hypernym"). A token that is itself a
// relation of the schema is that relation, whatever it contains. The
// result is nil for AnyRelation.
func ParseRelToken(s *Schema, tok string) ([]RelStep, error) {
	if tok == AnyRelation {
		return nil, nil
	}
	if _, ok := s.RelationID(tok); ok {
		return []RelStep{{Rel: tok}}, nil
	}
	var out []RelStep
	for _, alt := range strings.Split(tok, "|") {
		st := RelStep{Rel: alt}
		switch {
		case strings.HasPrefix(alt, "->"):
			st = RelStep{Rel: alt[2:], Dir: Forward}
		case strings.HasPrefix(alt, "<-"):
			st = RelStep{Rel: alt[2:], Dir: Backward}
		}
		st.Rel = strings.TrimSpace(st.Rel)
		if _, ok := s.RelationID(st.Rel); !ok {
			return nil, fmt.Errorf("unknown relation %s", quoteClip(alt))
		}
		out = append(out, st)
	}
	return out, nil
}

// RelToken writes steps as one plan token (the inverse of ParseRelToken).
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
	path := p.Metapath[pi]
	if len(path) == 0 {
		return "", false
	}
	k := used[path[0]]
	rs := p.Restriction[path[0]]
	if k >= len(rs) {
		return "", false
	}
	used[path[0]] = k + 1
	return rs[k], true
}

// Template names the plan's structure: its metapaths, node types and
// relations joined by spaces, paths by " & " ("(no plan)" without a path).
// eval --by-template groups queries by it.
func (p *Plan) Template() string {
	if len(p.Metapath) == 0 {
		return "(no plan)"
	}
	parts := make([]string, len(p.Metapath))
	for i, path := range p.Metapath {
		parts[i] = strings.Join(path, " ")
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
	if len(p.Metapath) == 0 {
		return "(no plan)"
	}
	type path struct {
		hops int
		rels string
	}
	ps := make([]path, len(p.Metapath))
	for i, mp := range p.Metapath {
		var rs []string
		for j := 1; j < len(mp); j += 2 {
			rs = append(rs, mp[j])
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
	if len(p.Metapath) == 0 || len(p.Metapath[0]) == 0 {
		return ""
	}
	return p.Metapath[0][len(p.Metapath[0])-1]
}

// TargetRestriction returns the textual restriction of the plan's target.
// In MoR's plans an anchor and the target of the same type share one
// restriction list; plans with linked anchors keep only the target's text
// there.
func (p *Plan) TargetRestriction() []string {
	return p.Restriction[p.TargetType()]
}
