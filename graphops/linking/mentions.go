package linking

import (
	"cmp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/data/index"
)

// MentionConfig configures a MentionIndex; zero values mean defaults.
type MentionConfig struct {
	// AliasFields are text fields whose values list other names of the
	// node; nil detects them (DetectAliasFields).
	AliasFields []string `json:"alias_fields,omitempty"`
	// MaxTokens is the longest surface form indexed, in tokens (default 8).
	MaxTokens int `json:"max_tokens,omitempty"`
}

// MentionIndex finds the nodes a text names: by their name, by the items
// of alias-like text fields (lemmas, synonyms) and by their name without a
// parenthesised qualifier ("Georgia (country)" -> "Georgia"). Matching is
// on normalised word sequences: case-folded, punctuation inside a word
// dropped ("men's" = "mens", "U.S." = "us"), other punctuation splitting
// words, and every word reduced to a singular form (so "fungi" is not
// "fungus", but "trucks" is "truck"). A mention may name several nodes
// (ambiguous names keep all of them); surfaces made only of stop words or
// of one character are not indexed.
type MentionIndex struct {
	cfg   MentionConfig
	forms map[string]int32 // normalised surface -> index in nodes
	nodes [][]FormNode
}

// FormNode is a node a surface form names, and how.
type FormNode struct {
	Node uint32
	// Alias is true when the form is one of the node's alias items or a
	// shortened name, not its name.
	Alias bool
}

// LinkedMention is a span of a text that names nodes.
type LinkedMention struct {
	Start, End int // byte offsets in the original text
	TokStart   int // word positions (of MentionWords) [TokStart, TokEnd)
	TokEnd     int
	Text       string // the original text of the span
	Nodes      []FormNode
}

// NodeIDs returns the mention's nodes, ascending.
func (m *LinkedMention) NodeIDs() []uint32 {
	out := make([]uint32, len(m.Nodes))
	for i, n := range m.Nodes {
		out[i] = n.Node
	}
	return out
}

// Word is a normalised word of a text with its byte span.
type Word struct {
	Start, End int
	Norm       string
	// Poss is the normalised word without a possessive "'s" that ends it,
	// where that differs from Norm ("Cross's": cross, while Norm is
	// "crosss"; "Davies's": davy, the form "Davies" indexes under); "" for
	// every other word.
	Poss string
}

// MentionWords splits text into normalised words.
func MentionWords(text string) []Word {
	var out []Word
	start := -1
	var b strings.Builder
	poss := -1 // b's length before a "'s" that may end the word
	flush := func(end int) {
		if start >= 0 && b.Len() > 0 {
			w := Word{Start: start, End: end, Norm: singular(b.String())}
			if poss == b.Len()-1 && b.String()[poss] == 's' {
				if p := singular(b.String()[:poss]); p != w.Norm {
					w.Poss = p
				}
			}
			out = append(out, w)
		}
		start = -1
		poss = -1
		b.Reset()
	}
	for i, r := range text {
		switch {
		case unicode.IsLetter(r) || unicode.IsNumber(r):
			if start < 0 {
				start = i
			}
			b.WriteRune(unicode.ToLower(r))
		case (r == '\'' || r == '’' || r == '.') && start >= 0:
			// inside a word: dropped ("men's", "U.S.")
			nx, _ := utf8.DecodeRuneInString(text[i+utf8.RuneLen(r):])
			if !(unicode.IsLetter(nx) || unicode.IsNumber(nx)) {
				flush(i)
			} else if r != '.' {
				poss = b.Len()
			}
		default:
			flush(i)
		}
	}
	flush(len(text))
	return out
}

// singular reduces an English plural to a singular form: -ies -> -y,
// -sses -> -ss, -xes/-ches/-shes/-zes -> drop -es, otherwise a final -s
// after a consonant other than s (and not -us, -is) is dropped. Words of
// three letters or fewer are kept.
func singular(w string) string {
	n := len(w)
	if n <= 3 || w[n-1] != 's' {
		return w
	}
	switch {
	case strings.HasSuffix(w, "ies") && n > 4:
		return w[:n-3] + "y"
	case strings.HasSuffix(w, "sses"):
		return w[:n-2]
	case strings.HasSuffix(w, "xes"), strings.HasSuffix(w, "ches"), strings.HasSuffix(w, "shes"), strings.HasSuffix(w, "zes"):
		return w[:n-2]
	case strings.HasSuffix(w, "ss"), strings.HasSuffix(w, "us"), strings.HasSuffix(w, "is"):
		return w
	}
	return w[:n-1]
}

// normForm is the normalised key of a surface form ("" when it is not
// indexable).
func normForm(s string, maxTok int) string {
	ws := MentionWords(s)
	if len(ws) == 0 || len(ws) > maxTok {
		return ""
	}
	allStop := true
	parts := make([]string, len(ws))
	for i, w := range ws {
		parts[i] = w.Norm
		if !isStopword(w.Norm) {
			allStop = false
		}
	}
	key := strings.Join(parts, " ")
	if allStop || utf8.RuneCountInString(key) < 2 {
		return ""
	}
	return key
}

var stopwords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range index.StopwordsEN {
		m[w] = true
	}
	return m
}()

func isStopword(w string) bool { return stopwords[w] }

// aliasDelims are the separators tried when splitting an alias field.
var aliasDelims = []string{";", "|", ","}

// SplitAliases splits a field value into items by delim.
func SplitAliases(v, delim string) []string {
	var out []string
	for _, p := range strings.Split(v, delim) {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// DetectAliasFields returns the text fields that list other names of their
// node: split by a common delimiter (";", "|" or ","), at least half of
// the non-empty values contain the node's own name as an item, and items
// average at most five words. Up to 20,000 nodes with the field are
// sampled (evenly, so the result is deterministic).
func DetectAliasFields(skb *data.SKB) []string {
	var out []string
	for fi, f := range skb.Schema.TextFields {
		if f == "name" {
			continue
		}
		var have []int
		for i := range skb.Nodes {
			if fi < len(skb.Nodes[i].Fields) && skb.Nodes[i].Fields[fi] != "" {
				have = append(have, i)
			}
		}
		if len(have) == 0 {
			continue
		}
		step := max(1, len(have)/20000)
		for _, d := range aliasDelims {
			hit, n, words, items := 0, 0, 0, 0
			for j := 0; j < len(have); j += step {
				nd := &skb.Nodes[have[j]]
				name := normForm(nd.Name, 1<<20)
				n++
				for _, it := range SplitAliases(nd.Fields[fi], d) {
					items++
					words += len(strings.Fields(it))
					if name != "" && normForm(it, 1<<20) == name {
						hit++
						break
					}
				}
			}
			if n > 0 && 2*hit >= n && items > 0 && words <= 5*items {
				out = append(out, f)
				break
			}
		}
	}
	return out
}

// AliasDelim returns the delimiter that splits field fi best (the one
// DetectAliasFields accepted).
func AliasDelim(skb *data.SKB, fi int) string {
	best, bestN := aliasDelims[0], -1
	for _, d := range aliasDelims {
		n := 0
		for i := 0; i < len(skb.Nodes) && i < 20000; i++ {
			if fi < len(skb.Nodes[i].Fields) {
				n += strings.Count(skb.Nodes[i].Fields[fi], d)
			}
		}
		if n > bestN {
			best, bestN = d, n
		}
	}
	return best
}

// NewMentionIndex indexes the surface forms of every node of skb.
func NewMentionIndex(skb *data.SKB, cfg MentionConfig) *MentionIndex {
	if cfg.MaxTokens == 0 {
		cfg.MaxTokens = 8
	}
	if cfg.AliasFields == nil {
		cfg.AliasFields = DetectAliasFields(skb)
	}
	ix := &MentionIndex{cfg: cfg, forms: map[string]int32{}}
	add := func(form string, v uint32, alias bool) {
		key := normForm(form, cfg.MaxTokens)
		if key == "" {
			return
		}
		k, ok := ix.forms[key]
		if !ok {
			k = int32(len(ix.nodes))
			ix.forms[key] = k
			ix.nodes = append(ix.nodes, nil)
		}
		list := ix.nodes[k]
		if n := len(list); n > 0 && list[n-1].Node == v {
			if !alias {
				list[n-1].Alias = false
			}
			return
		}
		ix.nodes[k] = append(list, FormNode{Node: v, Alias: alias})
	}
	type af struct {
		fi    int
		delim string
	}
	var afs []af
	for _, f := range cfg.AliasFields {
		if fi, ok := skb.Schema.FieldIndex(f); ok {
			afs = append(afs, af{fi, AliasDelim(skb, fi)})
		}
	}
	for i := range skb.Nodes {
		v := uint32(i)
		nd := &skb.Nodes[i]
		add(nd.Name, v, false)
		if p := strings.IndexByte(nd.Name, '('); p > 0 && strings.HasSuffix(strings.TrimSpace(nd.Name), ")") {
			add(nd.Name[:p], v, true)
		}
		for _, a := range afs {
			if a.fi < len(nd.Fields) {
				for _, it := range SplitAliases(nd.Fields[a.fi], a.delim) {
					add(it, v, true)
				}
			}
		}
	}
	return ix
}

// Config returns the index's settings (with the detected alias fields).
func (ix *MentionIndex) Config() MentionConfig { return ix.cfg }

// Lookup returns the nodes a surface form names.
func (ix *MentionIndex) Lookup(form string) []FormNode {
	k, ok := ix.forms[normForm(form, ix.cfg.MaxTokens)]
	if !ok {
		return nil
	}
	return ix.nodes[k]
}

// Find returns every mention in text: each span of whole words that is a
// surface form, overlapping spans included, ordered by start then by
// decreasing length.
func (ix *MentionIndex) Find(text string) []LinkedMention {
	ws := MentionWords(text)
	var out []LinkedMention
	var b strings.Builder
	for i := range ws {
		b.Reset()
		for j := i; j < len(ws) && j-i < ix.cfg.MaxTokens; j++ {
			if j > i {
				b.WriteByte(' ')
			}
			n := b.Len()
			b.WriteString(ws[j].Norm)
			k, ok := ix.forms[b.String()]
			if !ok && ws[j].Poss != "" {
				// A name in the possessive: "Helen Cross's scripts".
				k, ok = ix.forms[b.String()[:n]+ws[j].Poss]
			}
			if !ok {
				continue
			}
			out = append(out, LinkedMention{Start: ws[i].Start, End: ws[j].End, TokStart: i, TokEnd: j + 1,
				Text: text[ws[i].Start:ws[j].End], Nodes: ix.nodes[k]})
		}
	}
	slices.SortStableFunc(out, func(a, b LinkedMention) int {
		if a.TokStart != b.TokStart {
			return a.TokStart - b.TokStart
		}
		return b.TokEnd - a.TokEnd
	})
	return out
}

// RestrictionText is the question without the anchor mentions: the
// target's textual restriction.
func RestrictionText(text string, ments []LinkedMention, anchors []int) string {
	spans := make([][2]int, 0, len(anchors))
	for _, a := range anchors {
		spans = append(spans, [2]int{ments[a].Start, ments[a].End})
	}
	slices.SortFunc(spans, func(a, b [2]int) int { return cmp.Compare(a[0], b[0]) })
	var b strings.Builder
	pos := 0
	for _, s := range spans {
		if s[0] < pos {
			continue
		}
		b.WriteString(text[pos:s[0]])
		b.WriteByte(' ')
		pos = s[1]
	}
	b.WriteString(text[pos:])
	return strings.Join(strings.Fields(b.String()), " ")
}
