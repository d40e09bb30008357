package linking

import (
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	ac "github.com/petar-dambovaliev/aho-corasick"

	"github.com/strata-retrieval/strata/data"
)

// Mention is a span of a text that names one or more nodes.
type Mention struct {
	Start, End int // byte offsets in the lower-cased text
	Text       string
	Nodes      []uint32
}

// Linker finds node names in text with Aho-Corasick: case-insensitive,
// whole words only, leftmost-longest among the whole-word matches.
type Linker struct {
	automaton ac.AhoCorasick
	nodes     [][]uint32 // pattern index -> node ids with that name
}

// NewLinker indexes the names of every node of skb (names shorter than
// minLen bytes are skipped: they would match everywhere).
func NewLinker(skb *data.SKB, minLen int) *Linker {
	byName := map[string][]uint32{}
	for i := range skb.Nodes {
		n := strings.ToLower(strings.TrimSpace(skb.Nodes[i].Name))
		if len(n) < minLen {
			continue
		}
		byName[n] = append(byName[n], uint32(i))
	}
	patterns := make([]string, 0, len(byName))
	for n := range byName {
		patterns = append(patterns, n)
	}
	sort.Strings(patterns)
	l := &Linker{nodes: make([][]uint32, len(patterns))}
	for i, p := range patterns {
		l.nodes[i] = byName[p]
	}
	b := ac.NewAhoCorasickBuilder(ac.Opts{MatchKind: ac.StandardMatch})
	l.automaton = b.Build(patterns)
	return l
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsNumber(r) }

// Link returns the mentions in text, left to right, non-overlapping.
func (l *Linker) Link(text string) []Mention {
	low := strings.ToLower(text)
	type cand struct{ start, end, pat int }
	var cs []cand
	it := l.automaton.IterOverlapping(low)
	for m := it.Next(); m != nil; m = it.Next() {
		s, e := m.Start(), m.End()
		if s > 0 {
			if r, _ := utf8.DecodeLastRuneInString(low[:s]); isWordRune(r) {
				continue
			}
		}
		if e < len(low) {
			if r, _ := utf8.DecodeRuneInString(low[e:]); isWordRune(r) {
				continue
			}
		}
		cs = append(cs, cand{s, e, m.Pattern()})
	}
	// Leftmost, then longest.
	sort.Slice(cs, func(i, j int) bool {
		if cs[i].start != cs[j].start {
			return cs[i].start < cs[j].start
		}
		return cs[i].end > cs[j].end
	})
	var out []Mention
	pos := 0
	for _, c := range cs {
		if c.start < pos {
			continue
		}
		out = append(out, Mention{Start: c.start, End: c.end, Text: low[c.start:c.end], Nodes: l.nodes[c.pat]})
		pos = c.end
	}
	return out
}

// TopicEntities returns the distinct nodes mentioned in text, ascending.
func (l *Linker) TopicEntities(text string) []uint32 {
	var out []uint32
	for _, m := range l.Link(text) {
		out = append(out, m.Nodes...)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	w := 0
	for i, v := range out {
		if i == 0 || v != out[w-1] {
			out[w] = v
			w++
		}
	}
	return out[:w]
}
