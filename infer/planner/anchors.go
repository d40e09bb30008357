package planner

import (
	"hash/fnv"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/graphops"
	"github.com/strata-retrieval/strata/graphops/linking"
)

// AnchorView is what of a mention and its question the anchor features
// see: all of it at inference, and in training also each of two partial
// views, so that the scorer learns what each part tells alone.
type AnchorView uint8

const (
	// AnchorWhole: every feature.
	AnchorWhole AnchorView = iota
	// AnchorBare: without the mention's own words, which a mention no
	// training question used does not have ("Tell" in "Tell me which
	// ..."): its context and shape.
	AnchorBare
	// AnchorShape: without the words around the mention, which a frame no
	// training question used does not have ("Going two steps down from
	// X, which ..."): its own words and shape.
	AnchorShape
)

// anchorFeatures hashes the features of mention mi as the anchor of a path
// whose first hop is tok (a relation token), as view sees it: its words
// and the words around it (alone and with tok), its length, whether it is
// quoted, capitalised, an alias only, nested in or around another
// mention, its position, how many nodes it names and how many of them
// have the hop (compat nodes, with their hop neighbour count).
func anchorFeatures(dim int, text string, words []linking.Word, ments []linking.LinkedMention, mi int, tok string, compat, fanout int, view AnchorView) []uint32 {
	m := &ments[mi]
	var out []uint32
	h := fnv.New32a()
	add := func(parts ...string) {
		h.Reset()
		for _, p := range parts {
			h.Write([]byte(p))
			h.Write([]byte{0})
		}
		out = append(out, h.Sum32()%uint32(dim))
	}
	both := func(parts ...string) {
		add(parts...)
		add(append([]string{tok}, parts...)...)
	}
	word := func(i int) string {
		if i < 0 {
			return "<s>"
		}
		if i >= len(words) {
			return "</s>"
		}
		return words[i].Norm
	}
	both("bias")
	if view != AnchorBare {
		both("self", strings.ToLower(m.Text))
	}
	if view != AnchorShape {
		both("l1", word(m.TokStart-1))
		both("l2", word(m.TokStart-2), word(m.TokStart-1))
		both("r1", word(m.TokEnd))
		both("r2", word(m.TokEnd), word(m.TokEnd+1))
		for i := max(0, m.TokStart-4); i < m.TokStart-1; i++ {
			both("lw", word(i))
		}
		for i := m.TokEnd + 1; i < min(len(words), m.TokEnd+4); i++ {
			both("rw", word(i))
		}
	}
	both("len", strconv.Itoa(min(m.TokEnd-m.TokStart, 5)))
	if quotedMention(text, m) {
		both("quoted")
	}
	if r, _ := utf8.DecodeRuneInString(m.Text); r >= 'A' && r <= 'Z' && m.TokStart > 0 {
		both("cap")
	}
	alias := true
	for _, n := range m.Nodes {
		if !n.Alias {
			alias = false
		}
	}
	if alias {
		both("alias")
	}
	for j := range ments {
		o := &ments[j]
		if j == mi || o.TokEnd <= m.TokStart || o.TokStart >= m.TokEnd {
			continue
		}
		if o.TokEnd-o.TokStart > m.TokEnd-m.TokStart {
			both("inner")
		} else {
			both("outer")
		}
	}
	both("pos", strconv.Itoa(4*m.TokStart/max(1, len(words))))
	both("nodes", strconv.Itoa(bucket(len(m.Nodes))))
	if compat == 0 {
		both("nocompat")
	} else {
		both("compat", strconv.Itoa(bucket(compat)))
		both("fanout", strconv.Itoa(bucket(fanout)))
	}
	return out
}

// bucket is ⌊log2(n)⌋+1 for n > 0, capped at 12.
func bucket(n int) int {
	if n <= 0 {
		return 0
	}
	return min(12, 1+int(math.Log2(float64(n))))
}

// compatNodes returns the nodes of mention m of type t (AnyTypeID: any)
// that have hop h, and their hop neighbours in total.
func (p *LinkingPlanner) compatNodes(m *linking.LinkedMention, t data.TypeID, h graphops.Hop, buf []uint32) ([]uint32, int, []uint32) {
	var out []uint32
	fan := 0
	g := p.ws.Graph
	for _, n := range m.Nodes {
		if t != graphops.AnyTypeID && g.Type(n.Node) != t {
			continue
		}
		buf = g.Step(buf[:0], n.Node, h)
		if len(buf) > 0 {
			out = append(out, n.Node)
			fan += len(buf)
		}
	}
	return out, fan, buf
}

// slotScores scores every mention as the anchor of path pi of template
// ti: log-softmax over the mentions, and the compatible nodes of each.
func (p *LinkingPlanner) slotScores(text string, words []linking.Word, ments []linking.LinkedMention, ti, pi int) ([]float64, [][]uint32) {
	path := p.Cfg.Templates[ti][pi]
	t := graphops.AnyTypeID
	if id, ok := p.skb.Schema.NodeTypeID(path.Anchor()); ok {
		t = id
	}
	h := p.hops[ti][pi]
	scores := make([]float64, len(ments))
	nodes := make([][]uint32, len(ments))
	var buf []uint32
	for mi := range ments {
		var fan int
		nodes[mi], fan, buf = p.compatNodes(&ments[mi], t, h, buf)
		scores[mi] = float64(p.Anchor.Score(anchorFeatures(p.Cfg.Anchors.Dim, text, words, ments, mi, path.Steps[0].Token(), len(nodes[mi]), fan, AnchorWhole)))
	}
	logSoftmax(scores)
	return scores, nodes
}

func logSoftmax(s []float64) {
	mx := math.Inf(-1)
	for _, v := range s {
		mx = math.Max(mx, v)
	}
	var z float64
	for _, v := range s {
		z += math.Exp(v - mx)
	}
	lz := mx + math.Log(z)
	for i := range s {
		s[i] -= lz
	}
}

// AnchorGroup is one training example of the anchor scorer: the features
// of every mention that could anchor a template path (it has the path's
// first hop) and which of them the mined plan used.
type AnchorGroup struct {
	Feats [][]uint32
	Gold  int
}

// AnchorGroup builds the example of path pi of template ti whose mined
// anchor is mention gold; ok is false when fewer than two mentions could
// anchor the path or gold cannot. The mentions' features are as view sees
// them (AnchorBare: without their own words; AnchorShape: without the
// words around them).
func (p *LinkingPlanner) AnchorGroup(text string, ments []linking.LinkedMention, ti, pi, gold int, view AnchorView) (AnchorGroup, bool) {
	path := p.Cfg.Templates[ti][pi]
	t := graphops.AnyTypeID
	if id, ok := p.skb.Schema.NodeTypeID(path.Anchor()); ok {
		t = id
	}
	words := linking.MentionWords(text)
	var g AnchorGroup
	g.Gold = -1
	var buf []uint32
	for mi := range ments {
		var nodes []uint32
		var fan int
		nodes, fan, buf = p.compatNodes(&ments[mi], t, p.hops[ti][pi], buf)
		if len(nodes) == 0 {
			continue
		}
		if mi == gold {
			g.Gold = len(g.Feats)
		}
		g.Feats = append(g.Feats, anchorFeatures(p.Cfg.Anchors.Dim, text, words, ments, mi, path.Steps[0].Token(), len(nodes), fan, view))
	}
	return g, g.Gold >= 0 && len(g.Feats) > 1
}

// quotedMention reports whether a quote mark stands right before or right
// after mention m of text.
func quotedMention(text string, m *linking.LinkedMention) bool {
	if m.Start > 0 {
		r, _ := utf8.DecodeLastRuneInString(text[:m.Start])
		if strings.ContainsRune(`'"‘“`, r) {
			return true
		}
	}
	if m.End < len(text) {
		r, _ := utf8.DecodeRuneInString(text[m.End:])
		return strings.ContainsRune(`'"’”`, r)
	}
	return false
}
