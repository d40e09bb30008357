package planner

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/strata-retrieval/strata/data/index"
	"github.com/strata-retrieval/strata/graphops/linking"
)

// A user types names as they remember them: "Who directed the movies that
// Tom Hansk starred in?" names no node, so no plan starts anywhere and the
// text channel answered with strangers. With FuzzyNames, a question with a
// word that neither the lexicon nor any training question knows is read
// once more: the planner looks for one span of its words that names no
// node as typed but does with one letter of that word dropped, added,
// changed or swapped with the next, reads the question with the node's
// name in its place ("read as: ... Tom Hanks ..."), and plans that where
// it finds a plan (the question as typed is planned otherwise). A
// question whose words the lexicon or the training all know is never read
// so, with or without a plan as typed.

const (
	// maxFuzzyWords: the longest span of words read with a misspelling
	// (names of people and films; linking.MentionConfig.MaxTokens is 8).
	maxFuzzyWords = 4
	// minFuzzyLetters: the fewest letters a misspelt word may have (a
	// short word is one letter from many others: "cat", bat, cot, car),
	// and minFuzzyAlone the fewest a span of that word alone may have,
	// capitalised; in a longer span the other words narrow it ("Menahem
	// Glan").
	minFuzzyLetters = 4
	minFuzzyAlone   = 5
	// maxFuzzyLookups bounds a question's work: each variant is one
	// lookup in the mention index (a word of n letters has at most 53n + 25
	// variants), so a 128-word question costs at most this many.
	maxFuzzyLookups = 200_000
)

// fuzzyRead returns text with the one span, of one to maxFuzzyWords words,
// that names no node as typed and names some with one edit to one of its
// words (edits1), replaced by the name of the first node the edited form
// names by name (or alias); ok is false where there is no such span, or
// the longest such spans read as more than one name or span (an
// ambiguous misspelling is left as typed). The word edited is inside no mention of text and has
// minFuzzyLetters letters; spans of stop words only are not read.
// Only a word that neither the lexicon nor any training question knows is
// edited: "Find movies from
// 2008 that Jeremy Boock wrote." plans from the film "Jeremy" as typed,
// and "Boock", no English word, is one letter from the writer Jeremy
// Brock.
func (p *LinkingPlanner) fuzzyRead(text string) (string, bool) {
	lex, rw := p.names.lex, p.Cfg.Anchors.RelWords
	if lex == nil || rw == nil {
		return text, false
	}
	unknown := func(w string) bool { return rw.Words[w] == 0 && !index.IsStopword(w) && len(lex.Bases(w)) == 0 }
	ws := linking.MentionWords(text)
	ments := p.ments.Find(text)
	covered := make([]bool, len(ws))
	for _, m := range ments {
		for i := m.TokStart; i < m.TokEnd; i++ {
			covered[i] = true
		}
	}
	type hit struct {
		start, end int    // word span
		name       string // the name it is read as
	}
	var best []hit
	lookups := 0
	for n := maxFuzzyWords; n >= 1 && len(best) == 0; n-- {
		for i := 0; i+n <= len(ws); i++ {
			span := ws[i : i+n]
			if onlyStopwords(span) || len(p.ments.Lookup(text[span[0].Start:span[n-1].End])) > 0 {
				continue
			}
			for k := range span {
				w := strings.ToLower(text[span[k].Start:span[k].End])
				// A sentence's first word is capitalised whatever it is
				// ("Whose" is one letter from the film Whore):
				// no name by its capital alone (FuzzyOpenings).
				alone := capitalised(text[span[k].Start:], minFuzzyAlone) && !(p.Cfg.Anchors.FuzzyOpenings && opensSentence(text, span[k].Start))
				if covered[i+k] || !letters(w, minFuzzyLetters) || n == 1 && !alone || !unknown(w) {
					continue
				}
				before, after := text[span[0].Start:span[k].Start], text[span[k].End:span[n-1].End]
				for _, e := range edits1(w) {
					if lookups++; lookups > maxFuzzyLookups {
						return text, false
					}
					form := before + e + after
					nodes := p.ments.Lookup(form)
					if len(nodes) == 0 {
						continue
					}
					name := p.skb.Nodes[nodes[0].Node].Name
					for _, fn := range nodes {
						if !fn.Alias {
							name = p.skb.Nodes[fn.Node].Name
							break
						}
					}
					best = append(best, hit{i, i + n, name})
				}
			}
		}
	}
	if len(best) == 0 {
		return text, false
	}
	for _, h := range best[1:] {
		if h.start != best[0].start || h.end != best[0].end || h.name != best[0].name {
			return text, false
		}
	}
	h := best[0]
	return text[:ws[h.start].Start] + h.name + text[ws[h.end-1].End:], true
}

func onlyStopwords(ws []linking.Word) bool {
	for _, w := range ws {
		if !index.IsStopword(w.Norm) {
			return false
		}
	}
	return true
}

// capitalised reports whether the word text starts with opens with an
// upper-case letter and has at least n letters: a name of one word, as
// names are typed ("where" is one letter from the film Whore, and the
// lexicon knows no adverb).
func capitalised(text string, n int) bool {
	r, _ := utf8.DecodeRuneInString(text)
	if !unicode.IsUpper(r) {
		return false
	}
	k := 0
	for _, r := range text {
		if !unicode.IsLetter(r) {
			break
		}
		k++
	}
	return k >= n
}

// opensSentence reports whether the word at byte at of text opens a
// sentence: nothing but spaces and brackets before it, back to the
// text's start or a sentence's end (".", "?", "!", ":"). A quoted word
// is quoted as a name or a term ("'Unitarian' can mean several
// things."), whatever opens the sentence: it does not.
func opensSentence(text string, at int) bool {
	for at > 0 {
		r, size := utf8.DecodeLastRuneInString(text[:at])
		switch {
		case strings.ContainsRune(".?!:", r):
			return true
		case unicode.IsSpace(r) || strings.ContainsRune("([{", r):
			at -= size
		default:
			return false
		}
	}
	return true
}

// letters reports whether w is made of letters only, at least n of them.
func letters(w string, n int) bool {
	if utf8.RuneCountInString(w) < n {
		return false
	}
	for _, r := range w {
		if !unicode.IsLetter(r) {
			return false
		}
	}
	return true
}

// edits1 are the words one edit from lower-case w: a letter dropped, two
// neighbours swapped, a letter changed or added (a to z), each once, in
// that order.
func edits1(w string) []string {
	rs := []rune(w)
	seen := map[string]bool{w: true}
	var out []string
	add := func(s string) {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	for i := range rs {
		add(string(rs[:i]) + string(rs[i+1:]))
	}
	for i := 0; i+1 < len(rs); i++ {
		t := append([]rune(nil), rs...)
		t[i], t[i+1] = t[i+1], t[i]
		add(string(t))
	}
	for i := range rs {
		for c := 'a'; c <= 'z'; c++ {
			t := append([]rune(nil), rs...)
			t[i] = c
			add(string(t))
		}
	}
	for i := 0; i <= len(rs); i++ {
		for c := 'a'; c <= 'z'; c++ {
			add(string(rs[:i]) + string(c) + string(rs[i:]))
		}
	}
	return out
}
