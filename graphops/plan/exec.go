package plan

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/graphops"
	"github.com/strata-retrieval/strata/graphops/linking"
)

// Set is the value of an expression: nodes in ascending id order, each
// with its support and text score.
type Set struct {
	Nodes   []uint32
	Support []float32
	Text    []float32
}

// Len returns the number of nodes.
func (s *Set) Len() int { return len(s.Nodes) }

// add appends node v with its scores.
func (s *Set) add(v uint32, support, text float32) {
	s.Nodes = append(s.Nodes, v)
	s.Support = append(s.Support, support)
	s.Text = append(s.Text, text)
}

// Ranked returns the nodes by support, then text score (both descending),
// then id.
func (s *Set) Ranked() []uint32 {
	idx := make([]int, len(s.Nodes))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		return cmp.Or(cmp.Compare(s.Support[b], s.Support[a]), cmp.Compare(s.Text[b], s.Text[a]))
	})
	out := make([]uint32, len(idx))
	for i, j := range idx {
		out[i] = s.Nodes[j]
	}
	return out
}

// TextScorer scores a text against the documents of nodes: one score per
// node, 0 for no match.
type TextScorer interface {
	ScoreText(text string, nodes []uint32) []float32
}

// Env is what an expression executes against. Names resolves anchors
// without linked nodes; Text (optional) scores restrictions, which score 0
// without it.
type Env struct {
	Graph *graphops.Graph
	Names *linking.NameIndex
	Text  TextScorer
	// SoftEvery executes every universal step as soft (Every.Soft): the
	// nodes related to any member, supported by the fraction of members,
	// for a method that ranks candidates it found otherwise (SimGRAG's
	// answer step) rather than cutting them.
	SoftEvery bool
}

// Exec evaluates e. A plan that names an anchor the graph lacks, or
// relations and types outside its schema, fails with
// graphops.ErrInvalidPlan.
func Exec(env Env, e Expr) (Set, error) {
	x := &executor{Env: env}
	return e.eval(x)
}

type executor struct {
	Env
	buf []uint32
}

func (x *executor) schema() *data.Schema { return x.Graph.Schema() }

func (x *executor) checkType(t data.TypeID) error {
	if t != AnyType && int(t) >= len(x.schema().NodeTypes) {
		return fmt.Errorf("%w: node type id %d", graphops.ErrInvalidPlan, t)
	}
	return nil
}

func (x *executor) checkSteps(steps []Step) error {
	for _, st := range steps {
		if int(st.Rel) >= len(x.schema().RelationTypes) {
			return fmt.Errorf("%w: relation id %d", graphops.ErrInvalidPlan, st.Rel)
		}
	}
	return nil
}

// unit is a set of nodes with support 1 and text score 0.
func unit(nodes []uint32) Set {
	s := Set{Nodes: nodes, Support: make([]float32, len(nodes)), Text: make([]float32, len(nodes))}
	for i := range s.Support {
		s.Support[i] = 1
	}
	return s
}

func (a *Anchor) eval(x *executor) (Set, error) {
	if err := x.checkType(a.Type); err != nil {
		return Set{}, err
	}
	g := x.Graph
	var out []uint32
	if a.Nodes != nil {
		for _, v := range a.Nodes {
			if int(v) >= g.NumNodes() {
				return Set{}, fmt.Errorf("%w: anchor %q: node %d out of range", graphops.ErrInvalidPlan, a.Text, v)
			}
			if a.Type == AnyType || g.Type(v) == a.Type {
				out = append(out, v)
			}
		}
		if len(out) == 0 {
			return Set{}, fmt.Errorf("%w: anchor %q: no linked node of type %s", graphops.ErrInvalidPlan, a.Text, typeName(x.schema(), a.Type))
		}
	} else {
		if x.Names == nil {
			return Set{}, fmt.Errorf("%w: anchor %q is neither linked nor resolvable by name", graphops.ErrInvalidPlan, a.Text)
		}
		if a.Type == AnyType {
			for t := range x.schema().NodeTypes {
				out = append(out, x.Names.Lookup(data.TypeID(t), a.Text)...)
			}
		} else {
			out = slices.Clone(x.Names.Lookup(a.Type, a.Text))
		}
		if len(out) == 0 {
			return Set{}, fmt.Errorf("%w: no %s named %q", graphops.ErrInvalidPlan, typeName(x.schema(), a.Type), a.Text)
		}
	}
	slices.Sort(out)
	return unit(slices.Compact(out)), nil
}

// graphHop is the graph's compiled form of one step set.
func graphHop(steps []Step, to data.TypeID) graphops.Hop {
	h := graphops.Hop{To: to}
	for _, st := range steps {
		h.Rels = append(h.Rels, st.Rel)
		h.Dirs = append(h.Dirs, st.Dir)
	}
	return h
}

func (h *Hop) eval(x *executor) (Set, error) {
	if err := x.checkType(h.To); err != nil {
		return Set{}, err
	}
	if err := x.checkSteps(h.Steps); err != nil {
		return Set{}, err
	}
	from, err := h.From.eval(x)
	if err != nil {
		return Set{}, err
	}
	gh := graphHop(h.Steps, h.To)
	// pos[u] is 1 + u's index in out (0: not reached yet): a scratch
	// array over the graph's nodes, reset to zeros before it goes back.
	var out Set
	pos := getPos(x.Graph.NumNodes())
	defer func() { putPos(pos, out.Nodes) }()
	for i, v := range from.Nodes {
		x.buf = x.Graph.Step(x.buf[:0], v, gh)
		for _, u := range x.buf {
			j := pos[u] - 1
			if j < 0 {
				pos[u] = int32(len(out.Nodes)) + 1
				out.add(u, from.Support[i], from.Text[i])
				continue
			}
			if from.Support[i] > out.Support[j] || (from.Support[i] == out.Support[j] && from.Text[i] > out.Text[j]) {
				out.Support[j], out.Text[j] = from.Support[i], from.Text[i]
			}
		}
	}
	return sortSet(out), nil
}

// posPool holds Hop's scratch arrays (all zeros when pooled).
var posPool sync.Pool

func getPos(n int) []int32 {
	if p, ok := posPool.Get().(*[]int32); ok && len(*p) >= n {
		return (*p)[:n]
	}
	return make([]int32, n)
}

// putPos clears the entries of the nodes set and pools pos.
func putPos(pos []int32, set []uint32) {
	for _, u := range set {
		pos[u] = 0
	}
	posPool.Put(&pos)
}

// sortSet orders a set's nodes (distinct) ascending, keeping each node's
// scores.
func sortSet(s Set) Set {
	// Node id above, index below: sorting the keys sorts the indices by id.
	keys := make([]uint64, len(s.Nodes))
	for i, v := range s.Nodes {
		keys[i] = uint64(v)<<32 | uint64(i)
	}
	slices.Sort(keys)
	out := Set{Nodes: make([]uint32, len(keys)), Support: make([]float32, len(keys)), Text: make([]float32, len(keys))}
	for i, k := range keys {
		j := uint32(k)
		out.Nodes[i], out.Support[i], out.Text[i] = s.Nodes[j], s.Support[j], s.Text[j]
	}
	return out
}

func (in *Intersect) eval(x *executor) (Set, error) {
	if len(in.Args) == 0 {
		return Set{}, fmt.Errorf("%w: an intersection of nothing", graphops.ErrInvalidPlan)
	}
	return fold(x, in.Args, false)
}

func (u *Union) eval(x *executor) (Set, error) {
	if len(u.Args) == 0 {
		return Set{}, fmt.Errorf("%w: a union of nothing", graphops.ErrInvalidPlan)
	}
	return fold(x, u.Args, true)
}

// fold evaluates args and merges their sets in order: a node in several
// of them gets the sum of their scores; with union a node in only some is
// kept with its own, without (an intersection) it is dropped.
func fold(x *executor, args []Expr, union bool) (Set, error) {
	acc, err := args[0].eval(x)
	if err != nil {
		return Set{}, err
	}
	for _, a := range args[1:] {
		s, err := a.eval(x)
		if err != nil {
			return Set{}, err
		}
		var out Set
		i, j := 0, 0
		for i < len(acc.Nodes) || j < len(s.Nodes) {
			switch {
			case j == len(s.Nodes) || (i < len(acc.Nodes) && acc.Nodes[i] < s.Nodes[j]):
				if union {
					out.add(acc.Nodes[i], acc.Support[i], acc.Text[i])
				}
				i++
			case i == len(acc.Nodes) || acc.Nodes[i] > s.Nodes[j]:
				if union {
					out.add(s.Nodes[j], s.Support[j], s.Text[j])
				}
				j++
			default:
				out.add(acc.Nodes[i], acc.Support[i]+s.Support[j], acc.Text[i]+s.Text[j])
				i++
				j++
			}
		}
		acc = out
	}
	return acc, nil
}

func (e *Every) eval(x *executor) (Set, error) {
	if err := x.checkType(e.To); err != nil {
		return Set{}, err
	}
	if err := x.checkSteps(e.Steps); err != nil {
		return Set{}, err
	}
	members, err := e.Members.eval(x)
	if err != nil {
		return Set{}, err
	}
	var count map[uint32]int
	var counted int
	count, _, counted, x.buf = relatedCounts(x.Graph, members.Nodes, graphHop(e.Steps, e.To), x.buf)
	var best map[uint32]float32
	if e.BestText {
		best = map[uint32]float32{}
		gh := graphHop(e.Steps, e.To)
		for i, m := range members.Nodes {
			x.buf = x.Graph.Step(x.buf[:0], m, gh)
			for _, t := range x.buf {
				if b, ok := best[t]; !ok || members.Text[i] > b {
					best[t] = members.Text[i]
				}
			}
		}
	}
	var out Set
	for t, c := range count {
		if !e.Soft && !x.SoftEvery && c < counted {
			continue
		}
		out.add(t, float32(c)/float32(counted), best[t])
	}
	return sortSet(out), nil
}

// relatedCounts counts, for each node the step h reaches from members (in
// their order), how many members reach it, and the first member that does;
// counted is how many members reach any node (a universal step keeps the
// nodes every one of them reaches). buf is scratch space, returned for
// reuse.
func relatedCounts(g *graphops.Graph, members []uint32, h graphops.Hop, buf []uint32) (count map[uint32]int, first map[uint32]uint32, counted int, _ []uint32) {
	count, first = map[uint32]int{}, map[uint32]uint32{}
	for _, m := range members {
		buf = g.Step(buf[:0], m, h)
		if len(buf) == 0 {
			continue
		}
		counted++
		slices.Sort(buf)
		for _, t := range slices.Compact(buf) {
			if count[t] == 0 {
				first[t] = m
			}
			count[t]++
		}
	}
	return count, first, counted, buf
}

func (f *Filter) eval(x *executor) (Set, error) {
	s, err := f.Of.eval(x)
	if err != nil {
		return Set{}, err
	}
	want, err := f.wanted()
	if err != nil {
		return Set{}, err
	}
	var out Set
	for i, v := range s.Nodes {
		if statesAll(words(nodeText(x.Graph, v)), want) {
			out.add(v, s.Support[i], s.Text[i])
		}
	}
	return out, nil
}

// wanted is each attribute's key and value as words.
func (f *Filter) wanted() ([][2][]string, error) {
	want := make([][2][]string, len(f.Attrs))
	for i, a := range f.Attrs {
		want[i] = [2][]string{words(a.Key), words(a.Value)}
		if len(want[i][1]) == 0 {
			return nil, fmt.Errorf("%w: attribute %q has no value", graphops.ErrInvalidPlan, a.Key)
		}
	}
	return want, nil
}

// statesAll reports whether doc states every (key, value) of want.
func statesAll(doc []string, want [][2][]string) bool {
	for _, w := range want {
		if !statesAttr(doc, w[0], w[1]) {
			return false
		}
	}
	return true
}

func (r *Restrict) eval(x *executor) (Set, error) {
	s, err := r.Of.eval(x)
	if err != nil || x.Text == nil || strings.TrimSpace(r.Text) == "" || len(s.Nodes) == 0 {
		return s, err
	}
	sc := x.Text.ScoreText(r.Text, s.Nodes)
	out := Set{Nodes: s.Nodes, Support: s.Support, Text: slices.Clone(s.Text)}
	for i := range out.Text {
		out.Text[i] += sc[i]
	}
	return out, nil
}

// NodeWords returns a node's name and text fields as Filter reads them:
// lower-case runs of letters and digits.
func NodeWords(g *graphops.Graph, v uint32) []string { return words(nodeText(g, v)) }

// States reports whether doc (NodeWords) states a.
func States(doc []string, a Attr) bool { return statesAttr(doc, words(a.Key), words(a.Value)) }

// KeysBefore calls f with each one-word key Filter would read before
// doc[i] (a value word): doc[i-1], and doc[i-2] when doc[i-1] is a word
// of up to three letters ("released in 2007").
func KeysBefore(doc []string, i int, f func(key string)) {
	if i >= 1 {
		f(doc[i-1])
	}
	if i >= 2 && len([]rune(doc[i-1])) <= 3 {
		f(doc[i-2])
	}
}

// StatedAttrs returns the attributes doc (NodeWords) states whose value is
// one word of values and whose key (KeysBefore) keep accepts.
func StatedAttrs(doc []string, values map[string]bool, keep func(key string) bool) map[Attr]bool {
	out := map[Attr]bool{}
	for i, w := range doc {
		if !values[w] {
			continue
		}
		KeysBefore(doc, i, func(k string) {
			if keep(k) {
				out[Attr{Key: k, Value: w}] = true
			}
		})
	}
	return out
}

// nodeText is a node's name and text fields, one per line.
func nodeText(g *graphops.Graph, v uint32) string {
	var b strings.Builder
	b.WriteString(g.Name(v))
	for f, name := range g.Schema().TextFields {
		if name == data.NameField {
			continue
		}
		b.WriteByte('\n')
		b.WriteString(g.Field(v, f))
	}
	return b.String()
}

// words splits text into lower-case runs of letters and digits.
func words(text string) []string {
	for i := 0; i < len(text); i++ {
		if text[i] >= utf8.RuneSelf {
			return strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
		}
	}
	// ASCII: one pass lowers the text and finds its words, which share
	// the lowered copy.
	b := []byte(text)
	n := 0
	in := false
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
			b[i] = c
		}
		w := 'a' <= c && c <= 'z' || '0' <= c && c <= '9'
		if w && !in {
			n++
		}
		in = w
	}
	lower := string(b)
	out := make([]string, 0, n)
	start := -1
	for i := 0; i <= len(lower); i++ {
		w := i < len(lower) && ('a' <= lower[i] && lower[i] <= 'z' || '0' <= lower[i] && lower[i] <= '9')
		switch {
		case w && start < 0:
			start = i
		case !w && start >= 0:
			out = append(out, lower[start:i])
			start = -1
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// statesAttr reports whether doc holds the words of value, right after
// the words of key (with at most one word of up to three letters between,
// as in "released in 2007") when key is not empty.
func statesAttr(doc, key, value []string) bool {
	for p := 0; p+len(value) <= len(doc); p++ {
		if !slices.Equal(doc[p:p+len(value)], value) {
			continue
		}
		if len(key) == 0 {
			return true
		}
		for gap := 0; gap <= 1; gap++ {
			end := p - gap
			if end-len(key) < 0 {
				break
			}
			if gap == 1 && len([]rune(doc[p-1])) > 3 {
				break
			}
			if slices.Equal(doc[end-len(key):end], key) {
				return true
			}
		}
	}
	return false
}
