package data

import (
	"errors"
	"fmt"
	"io"
	"strings"
)

// Pattern is a SimGRAG pattern graph: triples over entity mentions and
// unknowns, as SimGRAG's query-to-pattern step writes them, e.g.
//
//	[["John Krasinski", "starred_actors", "UNKNOWN movie 1"],
//	 ["UNKNOWN movie 1", "directed_by", "UNKNOWN person 1"]]
//
// A node is unknown when its text's first word is exactly UNKNOWN (upper
// case, as SimGRAG writes it); an unknown's following words name its type
// ("UNKNOWN movie 1": type "movie"; a trailing number only tells unknowns
// apart). Every other text is a known node, named by it: "Unknown" (a film
// of MetaQA) is known. A known node whose own name starts with the word
// UNKNOWN is written escaped with a leading backslash (KnownNodeText:
// `\UNKNOWN Soldier`); one leading backslash is always removed from a
// known node's name. Equal texts are one node.
type Pattern struct {
	Nodes   []PatternNode
	Triples []PatternTriple
	Target  int // index of the node the question asks for
}

// PatternNode is a node of a pattern graph.
type PatternNode struct {
	Text    string // as written, without a known node's escape
	Unknown bool
	Type    string // an unknown's type word(s), "" if none
	// Nodes are the graph nodes a known node was linked to (by a planner);
	// nil means it is matched by its text. Not part of the written form.
	Nodes []uint32
}

// PatternTriple is one (head, relation, tail) of a pattern, by node index.
// Rel is a relation text, or strata's extensions: alternatives "r1|r2",
// "*" for any relation. Directed (written "->rel") maps the triple only
// onto stored triples from the head to the tail; otherwise direction is
// ignored, as SimGRAG's LLM-written patterns need.
type PatternTriple struct {
	H        int
	Rel      string
	T        int
	Directed bool
}

// PatternRecord is one line of a patterns file.
type PatternRecord struct {
	QID     int         `json:"q_id"`
	Query   string      `json:"query,omitempty"`
	Triples [][3]string `json:"triples"`
	Target  string      `json:"target,omitempty"`
}

// ParsePattern builds a pattern from triples. target names the unknown the
// question asks for; "" means the last unknown to appear.
func ParsePattern(triples [][3]string, target string) (Pattern, error) {
	var p Pattern
	if len(triples) == 0 {
		return p, errors.New("no triples")
	}
	idx := map[string]int{} // by the node's canonical text (PatternNode.written)
	node := func(s string) (int, error) {
		n, err := parsePatternNode(s)
		if err != nil {
			return 0, err
		}
		key := n.written()
		if i, ok := idx[key]; ok {
			return i, nil
		}
		idx[key] = len(p.Nodes)
		p.Nodes = append(p.Nodes, n)
		return idx[key], nil
	}
	for i, t := range triples {
		h, err := node(t[0])
		if err != nil {
			return p, fmt.Errorf("triple %d head: %w", i+1, err)
		}
		tl, err := node(t[2])
		if err != nil {
			return p, fmt.Errorf("triple %d tail: %w", i+1, err)
		}
		rel := strings.TrimSpace(t[1])
		directed := strings.HasPrefix(rel, "->")
		if directed {
			rel = strings.TrimSpace(rel[2:])
		}
		if rel == "" {
			return p, fmt.Errorf("triple %d: empty relation", i+1)
		}
		if h == tl {
			return p, fmt.Errorf("triple %d: %s relates to itself", i+1, quoteClip(t[0]))
		}
		p.Triples = append(p.Triples, PatternTriple{H: h, Rel: rel, T: tl, Directed: directed})
	}
	p.Target = -1
	if target != "" {
		n, err := parsePatternNode(target)
		i, ok := idx[n.written()]
		if err != nil || !ok {
			return p, fmt.Errorf("target %s is not a node of the triples", quoteClip(target))
		}
		p.Target = i
	} else {
		for i, n := range p.Nodes {
			if n.Unknown {
				p.Target = i
			}
		}
	}
	if p.Target < 0 || !p.Nodes[p.Target].Unknown {
		return p, errors.New("the target must be an UNKNOWN node")
	}
	return p, nil
}

// parsePatternNode reads one node text (whitespace runs count as one
// space).
func parsePatternNode(s string) (PatternNode, error) {
	w := strings.Fields(s)
	if len(w) == 0 {
		return PatternNode{}, errors.New("empty node")
	}
	if w[0] != UnknownMarker {
		n := PatternNode{Text: strings.TrimSpace(strings.TrimPrefix(strings.Join(w, " "), `\`))}
		if n.Text == "" {
			return n, errors.New("empty node")
		}
		return n, nil
	}
	n := PatternNode{Text: strings.Join(w, " "), Unknown: true}
	w = w[1:]
	if len(w) > 0 && isNumber(w[len(w)-1]) {
		w = w[:len(w)-1]
	}
	n.Type = strings.Join(w, " ")
	return n, nil
}

// UnknownMarker is the first word of an unknown pattern node's text.
const UnknownMarker = "UNKNOWN"

// IsUnknownRelation tells whether a pattern relation is one of SimGRAG's
// unknown relations ("UNKNOWN relation 1": first word exactly UNKNOWN),
// which match every relation at semantic distance 0 (section 5.1).
func IsUnknownRelation(rel string) bool {
	w := strings.Fields(rel)
	return len(w) > 0 && w[0] == UnknownMarker
}

// KnownNodeText is the pattern text of a known node named name: the name
// itself, or the name escaped with a leading backslash when ParsePattern
// would otherwise read it as an unknown (its first word is UNKNOWN) or strip
// a backslash of its own.
func KnownNodeText(name string) string {
	w := strings.Fields(name)
	s := strings.Join(w, " ")
	if len(w) > 0 && w[0] == UnknownMarker || strings.HasPrefix(s, `\`) {
		return `\` + s
	}
	return s
}

func isNumber(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return s != ""
}

// Triples3 writes the pattern back as triples (known nodes escaped by
// KnownNodeText, so ParsePattern reads back the same pattern).
func (p Pattern) Triples3() [][3]string {
	out := make([][3]string, len(p.Triples))
	for i, t := range p.Triples {
		rel := t.Rel
		if t.Directed {
			rel = "->" + rel
		}
		out[i] = [3]string{p.Nodes[t.H].written(), rel, p.Nodes[t.T].written()}
	}
	return out
}

// written is the node's pattern text.
func (n PatternNode) written() string {
	if n.Unknown {
		return n.Text
	}
	return KnownNodeText(n.Text)
}

// ReadPatterns reads a patterns file: one PatternRecord per line.
func ReadPatterns(path string) (map[int]Pattern, error) {
	f, err := OpenInput(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ParsePatterns(f, path)
}

// ParsePatterns parses patterns JSONL from r.
func ParsePatterns(r io.Reader, file string) (map[int]Pattern, error) {
	type rec struct {
		QID     *int        `json:"q_id"`
		Triples [][3]string `json:"triples"`
		Target  string      `json:"target"`
	}
	out := map[int]Pattern{}
	err := qidLines(r, file, func(v *rec) *int { return v.QID }, func(line, id int, v *rec) error {
		p, err := ParsePattern(v.Triples, v.Target)
		if err != nil {
			return perrf(file, line, "triples", ErrSyntax, "%v", err)
		}
		out[id] = p
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// WritePatterns writes one PatternRecord per line.
func WritePatterns(w io.Writer, recs []PatternRecord) error { return WriteJSONL(w, recs) }

// PlanPattern turns a metapath plan into a pattern graph: every path is a
// chain from its anchor (the plan's linked anchor, or the next restriction
// of the path's first type: a known node) through unknowns of the path's
// types (untyped for "*"), all paths ending at one shared target. A
// directed step becomes a directed triple in the stored direction ("<-r"
// from a to b is b -r-> a); alternatives stay alternatives; "*" is any
// relation. Paths without an anchor are skipped; ok is false when no path
// is left, or when a path has a universal step (data.EveryPrefix), which a
// pattern graph cannot say. Linked anchor nodes are kept on their known
// nodes.
func PlanPattern(p Plan) (Pattern, bool) { return PlanPatternResolved(p, nil) }

// PlanPatternResolved is PlanPattern with MoR's "*" relations between two
// typed nodes resolved to the alternatives between (see PlanToGrasp).
func PlanPatternResolved(p Plan, between RelationResolver) (Pattern, bool) {
	p = p.WithoutRankMarks() // a pattern ranks its target's bindings only
	for _, path := range p.Paths {
		for _, st := range path.Steps {
			if st.Every {
				return Pattern{}, false // a pattern graph says "some", not "every"
			}
		}
	}
	var triples [][3]string
	target := ""
	unknown := func(typ string, n int) string {
		if typ == AnyType || typ == "" {
			return fmt.Sprintf("%s %d", UnknownMarker, n)
		}
		return fmt.Sprintf("%s %s %d", UnknownMarker, typ, n)
	}
	used := map[string]int{}
	linked := map[string][]uint32{}
	for pi, path := range p.Paths {
		if path.Hops() == 0 {
			continue
		}
		text, ok := p.PathAnchorText(pi, used)
		if !ok {
			continue
		}
		if target == "" {
			target = unknown(path.Target(), 0)
		}
		prev := KnownNodeText(text)
		if len(p.Anchors) > 0 {
			linked[prev] = append(linked[prev], p.Anchors[pi].Nodes...)
		}
		for k, st := range path.Steps {
			next := target
			if k+1 != path.Hops() {
				next = unknown(path.Nodes[k+1].Type, (pi+1)*100+2*k+1)
			}
			rel, back := PatternRelation(path.Nodes[k].Type, st, path.Nodes[k+1].Type, between)
			if rel == "" {
				return Pattern{}, false
			}
			if back {
				triples = append(triples, [3]string{next, rel, prev})
			} else {
				triples = append(triples, [3]string{prev, rel, next})
			}
			prev = next
		}
	}
	if len(triples) == 0 {
		return Pattern{}, false
	}
	pat, err := ParsePattern(triples, target)
	if err != nil {
		return Pattern{}, false
	}
	for i := range pat.Nodes {
		if n := &pat.Nodes[i]; !n.Unknown {
			n.Nodes = linked[n.written()]
		}
	}
	return pat, true
}

// PatternRelation writes a plan's relation step between types a and b
// (AnyType: untyped) as a pattern relation: "->r" (back: the triple runs from the later node) when
// every alternative has one direction, "r1|r2" otherwise, "*" resolved
// through between when both types are known ("" when no relation links
// them).
func PatternRelation(a string, st PathStep, b string, between RelationResolver) (string, bool) {
	if st.Rels == nil {
		if between == nil || a == AnyType || b == AnyType {
			return AnyRelation, false
		}
		rs := between(a, b)
		return strings.Join(rs, "|"), false
	}
	dir := st.Rels[0].Dir
	names := make([]string, len(st.Rels))
	for i, r := range st.Rels {
		if r.Dir != dir {
			dir = Undirected
		}
		names[i] = r.Rel
	}
	rel := strings.Join(names, "|")
	switch dir {
	case Forward:
		return "->" + rel, false
	case Backward:
		return "->" + rel, true
	}
	return rel, false // undirected, or mixed directions
}

// JoinPatterns joins patterns at their targets: the result holds every
// pattern's triples, the targets become one node, known nodes of equal text
// are one node (as in ParsePattern), and the other unknowns stay apart. The
// target keeps the first pattern's type; unknowns are renumbered.
func JoinPatterns(ps []Pattern) (Pattern, error) {
	if len(ps) == 0 {
		return Pattern{}, errors.New("no patterns to join")
	}
	unknown := func(typ string, n int) string {
		if typ == "" {
			return fmt.Sprintf("%s %d", UnknownMarker, n)
		}
		return fmt.Sprintf("%s %s %d", UnknownMarker, typ, n)
	}
	target := unknown(ps[0].Nodes[ps[0].Target].Type, 0)
	var triples [][3]string
	for j, p := range ps {
		texts := make([]string, len(p.Nodes))
		n := 0
		for i, nd := range p.Nodes {
			switch {
			case i == p.Target:
				texts[i] = target
			case nd.Unknown:
				n++
				texts[i] = unknown(nd.Type, (j+1)*1000+n)
			default:
				texts[i] = nd.written()
			}
		}
		for _, t := range p.Triples {
			triples = append(triples, [3]string{texts[t.H], t.Rel, texts[t.T]})
		}
	}
	return ParsePattern(triples, target)
}

// BracketedTopics returns the entities a KGQA question marks in brackets,
// in order of mention ("which films starred [A] and [B]": A, B), and
// whether the brackets are well formed (at least one pair, none nested,
// unbalanced or empty).
func BracketedTopics(text string) ([]string, bool) {
	var out []string
	open := -1
	for i := 0; i < len(text); i++ {
		switch text[i] {
		case '[':
			if open >= 0 {
				return nil, false
			}
			open = i
		case ']':
			if open < 0 {
				return nil, false
			}
			t := strings.TrimSpace(text[open+1 : i])
			if t == "" {
				return nil, false
			}
			out = append(out, t)
			open = -1
		}
	}
	if open >= 0 || len(out) == 0 {
		return nil, false
	}
	return out, true
}

// BracketedTopic returns the entity a KGQA question marks in brackets
// (MetaQA: "who directed [Heat]"), and whether there is exactly one.
func BracketedTopic(text string) (string, bool) {
	open, close := strings.IndexByte(text, '['), strings.IndexByte(text, ']')
	if open < 0 || close < open || strings.Count(text, "[") != 1 || strings.Count(text, "]") != 1 {
		return "", false
	}
	t := strings.TrimSpace(text[open+1 : close])
	return t, t != ""
}
