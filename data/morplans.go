package data

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// AnyRelation in a plan path matches every relation between two node types
// (MoR's MAG and Amazon plans name node types only).
const AnyRelation = "*"

// ParseMetapath converts a plan's metapath in either of MoR's formats into
// strata's paths (node types alternating with relations):
//   - a string of node types joined by arrows, as MoR's MAG and Amazon plans:
//     "institution -> author -> paper <- field_of_study" is two paths that
//     meet at the target, [institution * author * paper] and
//     [field_of_study * paper];
//   - a list of paths, each a list alternating node type and relation, as
//     MoR's Prime plans: [["drug", "target", "gene/protein"]].
//
// An empty metapath gives no paths and no error; an unusable one is an error.
func ParseMetapath(raw json.RawMessage) ([]Path, error) {
	raw = json.RawMessage(strings.TrimSpace(string(raw)))
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		paths, err := parseArrowPath(s)
		if err != nil {
			return nil, err
		}
		return ParsePaths(paths)
	}
	var paths [][]string
	if err := json.Unmarshal(raw, &paths); err != nil {
		// A single flat path ["a", "r", "b"].
		var flat []string
		if err2 := json.Unmarshal(raw, &flat); err2 != nil {
			return nil, fmt.Errorf("%w: metapath is neither a string nor a list of paths", ErrSyntax)
		}
		paths = [][]string{flat}
	}
	for i, p := range paths {
		if len(p)%2 == 0 {
			return nil, fmt.Errorf("%w: path %d has %d elements; want node types alternating with relations", ErrSyntax, i, len(p))
		}
		for j, el := range p {
			if strings.TrimSpace(el) == "" {
				return nil, fmt.Errorf("%w: path %d element %d is empty", ErrSyntax, i, j)
			}
		}
	}
	return ParsePaths(paths)
}

// parseArrowPath reads "a -> b <- c": node types joined by -> and <-.
func parseArrowPath(s string) ([][]string, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil, nil
	}
	var nodes []string
	var forward []bool // arrow i joins nodes i and i+1; true for ->
	rest := s
	for {
		i := strings.Index(rest, "->")
		j := strings.Index(rest, "<-")
		k, fwd := -1, false
		switch {
		case i >= 0 && (j < 0 || i < j):
			k, fwd = i, true
		case j >= 0:
			k = j
		}
		if k < 0 {
			nodes = append(nodes, strings.TrimSpace(rest))
			break
		}
		nodes = append(nodes, strings.TrimSpace(rest[:k]))
		forward = append(forward, fwd)
		rest = rest[k+2:]
	}
	for i, n := range nodes {
		if n == "" {
			return nil, fmt.Errorf("%w: metapath %s has an empty node type at position %d", ErrSyntax, quoteClip(s), i)
		}
	}
	// Edges follow the arrows; the target is the one node nothing leaves.
	next := make([]int, len(nodes))
	for i := range next {
		next[i] = -1
	}
	indeg := make([]int, len(nodes))
	for i, f := range forward {
		from, to := i, i+1
		if !f {
			from, to = i+1, i
		}
		if next[from] >= 0 {
			return nil, fmt.Errorf("%w: metapath %s: %s has two outgoing arrows", ErrSyntax, quoteClip(s), quoteClip(nodes[from]))
		}
		next[from] = to
		indeg[to]++
	}
	targets := 0
	for i := range nodes {
		if next[i] < 0 {
			targets++
		}
	}
	if targets != 1 {
		return nil, fmt.Errorf("%w: metapath %s has %d end nodes, want one target", ErrSyntax, quoteClip(s), targets)
	}
	var paths [][]string
	for i := range nodes {
		if indeg[i] != 0 || (next[i] < 0 && len(nodes) > 1) {
			continue
		}
		p := []string{nodes[i]}
		for v := next[i]; v >= 0; v = next[v] {
			p = append(p, AnyRelation, nodes[v])
		}
		paths = append(paths, p)
	}
	return paths, nil
}

// PlanStats counts what reading a plans file found.
type PlanStats struct {
	Plans   int // lines read
	Empty   int // no metapath: the query falls back to textual retrieval
	Invalid int // an unusable metapath: falls back as well
	Mined   int // lines of a mined plans file (mined from the answers)
}

// planJSON is a plan in any of the accepted shapes.
type planJSON struct {
	Metapath    json.RawMessage            `json:"Metapath"`
	Restriction map[string]json.RawMessage `json:"Restriction"`
	Anchors     []PlanAnchor               `json:"Anchors"`
	Attributes  []PlanAttr                 `json:"Attributes"`
	Named       []uint32                   `json:"Named"`
}

// restrictions converts restriction values, a list of strings or a single
// string (both occur in MoR's plans); other values are dropped and reported.
func (p planJSON) restrictions() (map[string][]string, error) {
	if p.Restriction == nil {
		return nil, nil
	}
	out := make(map[string][]string, len(p.Restriction))
	var bad error
	for k, raw := range p.Restriction {
		var list []string
		if err := json.Unmarshal(raw, &list); err == nil {
			out[k] = list
			continue
		}
		var one string
		if err := json.Unmarshal(raw, &one); err == nil {
			out[k] = []string{one}
			continue
		}
		// Numbers (a year) and mixed lists: keep every scalar as text.
		var anyList []any
		if err := json.Unmarshal(raw, &anyList); err != nil {
			var v any
			if json.Unmarshal(raw, &v) != nil {
				bad = fmt.Errorf("%w: restriction %s is not JSON", ErrSyntax, quoteClip(k))
				continue
			}
			anyList = []any{v}
		}
		var vals []string
		for _, v := range anyList {
			switch x := v.(type) {
			case string:
				vals = append(vals, x)
			case float64, bool:
				vals = append(vals, fmt.Sprint(x))
			default:
				bad = fmt.Errorf("%w: restriction %s holds a %T", ErrSyntax, quoteClip(k), v)
			}
		}
		out[k] = vals
	}
	return out, bad
}

func (p planJSON) toPlan() (Plan, error) {
	r, rerr := p.restrictions()
	paths, err := ParseMetapath(p.Metapath)
	if err != nil {
		return Plan{Restriction: r}, err
	}
	if len(p.Anchors) > 0 && len(p.Anchors) != len(paths) {
		return Plan{Restriction: r}, fmt.Errorf("%w: %d anchors for %d paths", ErrSyntax, len(p.Anchors), len(paths))
	}
	for i, a := range p.Attributes {
		if strings.TrimSpace(a.Value) == "" {
			return Plan{Restriction: r}, fmt.Errorf("%w: attribute %d has no value", ErrSyntax, i)
		}
	}
	return Plan{Paths: paths, Restriction: r, Anchors: p.Anchors, Attributes: p.Attributes, Named: p.Named}, rerr
}

// ParsePythonLiteral converts a Python literal (dicts, lists, tuples,
// strings in single or double quotes, numbers, True, False, None), as MoR's
// planner fine-tuning answers hold, to JSON.
func ParsePythonLiteral(s string) (json.RawMessage, error) {
	p := &pyParser{s: s}
	var out strings.Builder
	if err := p.value(&out); err != nil {
		return nil, err
	}
	p.space()
	if p.i != len(p.s) {
		return nil, fmt.Errorf("%w: trailing text at byte %d", ErrSyntax, p.i)
	}
	return json.RawMessage(out.String()), nil
}

type pyParser struct {
	s string
	i int
}

func (p *pyParser) space() {
	for p.i < len(p.s) && strings.ContainsRune(" \t\r\n", rune(p.s[p.i])) {
		p.i++
	}
}

func (p *pyParser) value(out *strings.Builder) error {
	p.space()
	if p.i >= len(p.s) {
		return fmt.Errorf("%w: unexpected end of literal", ErrSyntax)
	}
	switch c := p.s[p.i]; {
	case c == '{':
		return p.seq(out, '{', '}', true)
	case c == '[':
		return p.seq(out, '[', ']', false)
	case c == '(':
		return p.seq(out, '(', ')', false)
	case c == '\'' || c == '"':
		str, err := p.str()
		if err != nil {
			return err
		}
		out.WriteString(jsonString(str))
		return nil
	default:
		start := p.i
		for p.i < len(p.s) && !strings.ContainsRune(",:]}) \t\r\n", rune(p.s[p.i])) {
			p.i++
		}
		tok := p.s[start:p.i]
		switch tok {
		case "True":
			out.WriteString("true")
		case "False":
			out.WriteString("false")
		case "None":
			out.WriteString("null")
		default:
			if _, err := strconv.ParseFloat(tok, 64); err != nil {
				return fmt.Errorf("%w: unexpected %s at byte %d", ErrSyntax, quoteClip(tok), start)
			}
			out.WriteString(tok)
		}
		return nil
	}
}

func (p *pyParser) seq(out *strings.Builder, open, close byte, dict bool) error {
	p.i++
	if dict {
		out.WriteByte('{')
	} else {
		out.WriteByte('[')
	}
	first := true
	for {
		p.space()
		if p.i < len(p.s) && p.s[p.i] == close {
			p.i++
			break
		}
		if !first {
			if p.i >= len(p.s) || p.s[p.i] != ',' {
				return fmt.Errorf("%w: want ',' or '%c' at byte %d", ErrSyntax, close, p.i)
			}
			p.i++
			p.space()
			if p.i < len(p.s) && p.s[p.i] == close { // trailing comma
				p.i++
				break
			}
			out.WriteByte(',')
		}
		first = false
		if dict {
			p.space()
			if p.i >= len(p.s) || (p.s[p.i] != '\'' && p.s[p.i] != '"') {
				return fmt.Errorf("%w: want a string key at byte %d", ErrSyntax, p.i)
			}
			k, err := p.str()
			if err != nil {
				return err
			}
			out.WriteString(jsonString(k))
			p.space()
			if p.i >= len(p.s) || p.s[p.i] != ':' {
				return fmt.Errorf("%w: want ':' at byte %d", ErrSyntax, p.i)
			}
			p.i++
			out.WriteByte(':')
		}
		if err := p.value(out); err != nil {
			return err
		}
	}
	if dict {
		out.WriteByte('}')
	} else {
		out.WriteByte(']')
	}
	return nil
}

func (p *pyParser) str() (string, error) {
	q := p.s[p.i]
	p.i++
	var b strings.Builder
	for p.i < len(p.s) {
		c := p.s[p.i]
		switch {
		case c == q:
			p.i++
			return b.String(), nil
		case c == '\\' && p.i+1 < len(p.s):
			p.i++
			switch e := p.s[p.i]; e {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			default:
				b.WriteByte(e)
			}
			p.i++
		default:
			b.WriteByte(c)
			p.i++
		}
	}
	return "", fmt.Errorf("%w: unterminated string", ErrSyntax)
}

// jsonString quotes s as JSON without HTML escaping.
func jsonString(s string) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(s)
	return strings.TrimSuffix(b.String(), "\n")
}
