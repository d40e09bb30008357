package index

import (
	"unicode"
	"unicode/utf8"
)

// StopwordsEN is the English stop word list bm25s uses for stopwords="en"
// (Lucene's classic English set).
var StopwordsEN = []string{
	"a", "an", "and", "are", "as", "at", "be", "but", "by", "for", "if", "in",
	"into", "is", "it", "no", "not", "of", "on", "or", "such", "that", "the",
	"their", "then", "there", "these", "they", "this", "to", "was", "will", "with",
}

var stopEN = func() map[string]struct{} {
	m := make(map[string]struct{}, len(StopwordsEN))
	for _, w := range StopwordsEN {
		m[w] = struct{}{}
	}
	return m
}()

// isWord reports whether r matches Python's \w for str patterns: letters,
// numbers and the underscore.
func isWord(r rune) bool {
	if r < utf8.RuneSelf {
		return r == '_' || ('a' <= r && r <= 'z') || ('A' <= r && r <= 'Z') || ('0' <= r && r <= '9')
	}
	return unicode.IsLetter(r) || unicode.IsNumber(r)
}

// Tokenize appends to dst the tokens of s as bm25s produces them with its
// defaults: the text is lower-cased, tokens are maximal runs of word
// characters of length two or more (the pattern \b\w\w+\b), and English stop
// words are removed.
func Tokenize(dst []string, s string) []string {
	return tokenize(dst, s, true)
}

func tokenize(dst []string, s string, dropStop bool) []string {
	var buf []byte
	start := -1
	runes := 0
	flush := func(end int) {
		if start >= 0 && runes >= 2 {
			tok := lower(&buf, s[start:end])
			if _, stop := stopEN[tok]; !dropStop || !stop {
				dst = append(dst, tok)
			}
		}
		start, runes = -1, 0
	}
	for i, r := range s {
		if isWord(r) {
			if start < 0 {
				start = i
			}
			runes++
			continue
		}
		flush(i)
	}
	flush(len(s))
	return dst
}

// lower returns the lower-case form of w, avoiding work when w is already
// lower-case ASCII.
func lower(buf *[]byte, w string) string {
	ascii := true
	for i := 0; i < len(w); i++ {
		c := w[i]
		if c >= utf8.RuneSelf || ('A' <= c && c <= 'Z') {
			ascii = false
			break
		}
	}
	if ascii {
		return w
	}
	b := (*buf)[:0]
	for _, r := range w {
		b = utf8.AppendRune(b, unicode.ToLower(r))
	}
	*buf = b
	return string(b)
}

// TokenizeAll is Tokenize keeping the stop words.
func TokenizeAll(dst []string, s string) []string {
	return tokenize(dst, s, false)
}

// IsStopword reports whether a lower-case token is one of StopwordsEN.
func IsStopword(w string) bool {
	_, ok := stopEN[w]
	return ok
}
