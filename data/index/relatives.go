package index

import (
	"index/suffixarray"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"
)

// Relatives finds a word's derived and compound forms in a vocabulary of
// names: the names' words that contain the word's stem. A dictionary
// defines a derived word by its root ("Resembling a wasp" is waspish,
// "Containing heresy" heretical, "One who works in a tin mine" a tinner)
// and a compound by its head ("A brother by the marriage of one's
// father" is a stepbrother); the stem finds them where stemming alone
// cannot ("waspish" stems to "waspish"). A suffix array over the joined
// words answers each lookup without scanning the vocabulary.
type Relatives struct {
	sa     *suffixarray.Index
	starts []int    // starts[i]: where word i begins in the joined text
	words  []string // sorted, distinct
	stems  []string // stems[i] = Stem(words[i])
}

const (
	// MinRelativeStem is the shortest stem (in letters: runes) Relatives.Of
	// looks up: shorter ones sit inside too many unrelated words ("art"
	// in "start", "cart", "party"; "не" in Russian's words by the
	// thousand).
	MinRelativeStem = 4
	// MaxRelatives bounds the relatives of one stem (the shortest words
	// first): "form" sits in hundreds of names.
	MaxRelatives = 64
	// MaxRelativeMatches bounds the words one lookup reads: a stem held by
	// more words than this is no word's root ("tion") and has none.
	MaxRelativeMatches = 4096
)

// NewRelatives indexes a vocabulary of lower-case words (repeats and
// empty words are dropped).
func NewRelatives(words []string) *Relatives {
	ws := slices.Clone(words)
	slices.Sort(ws)
	ws = slices.Compact(ws)
	if len(ws) > 0 && ws[0] == "" {
		ws = ws[1:]
	}
	r := &Relatives{words: ws, starts: make([]int, len(ws)), stems: make([]string, len(ws))}
	var b strings.Builder
	for i, w := range ws {
		b.WriteByte(0)
		r.starts[i] = b.Len()
		b.WriteString(w)
		r.stems[i] = Stem(w)
	}
	b.WriteByte(0)
	r.sa = suffixarray.New([]byte(b.String()))
	return r
}

// Len returns how many distinct words the vocabulary holds.
func (r *Relatives) Len() int { return len(r.words) }

// Of appends to dst the stems of the vocabulary's words that contain stem
// and whose own stem is another: "wasp" gives "waspish" (a word of
// "bristly; prickly; waspish"), not "wasp" or "wasps". At most MaxRelatives,
// from the shortest words up (words of one length in byte order), each
// stem once; none when stem is shorter than MinRelativeStem, holds a
// byte no word can (the separator) or sits in more than
// MaxRelativeMatches places.
func (r *Relatives) Of(dst []string, stem string) []string {
	if utf8.RuneCountInString(stem) < MinRelativeStem || strings.IndexByte(stem, 0) >= 0 {
		return dst
	}
	offs := r.sa.Lookup([]byte(stem), MaxRelativeMatches+1)
	if len(offs) > MaxRelativeMatches {
		return dst
	}
	idx := make([]int, 0, len(offs))
	for _, o := range offs {
		// the word holding offset o: the last one starting at or before it
		idx = append(idx, sort.SearchInts(r.starts, o+1)-1)
	}
	slices.Sort(idx)
	idx = slices.Compact(idx)
	slices.SortFunc(idx, func(a, b int) int {
		if la, lb := len(r.words[a]), len(r.words[b]); la != lb {
			return la - lb
		}
		return strings.Compare(r.words[a], r.words[b])
	})
	n := 0
	base := len(dst)
	for _, i := range idx {
		s := r.stems[i]
		if s == stem || slices.Contains(dst[base:], s) {
			continue
		}
		dst = append(dst, s)
		if n++; n == MaxRelatives {
			break
		}
	}
	return dst
}
