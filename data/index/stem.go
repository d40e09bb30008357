package index

import (
	"unicode/utf8"

	"github.com/kljensen/snowball/english"
)

// Stem returns the Snowball (Porter2) English stem of a lower-case token:
// "praises" and "praise" -> "prais", "eagerness" -> "eager". Tokens of
// more than maxStemBytes bytes, and tokens with a non-ASCII letter, are
// returned as they are (the stemmer's rules are English ones).
func Stem(tok string) string {
	if len(tok) > maxStemBytes {
		return tok
	}
	for i := 0; i < len(tok); i++ {
		if tok[i] >= utf8.RuneSelf {
			return tok
		}
	}
	return english.Stem(tok, false)
}

// maxStemBytes bounds the tokens Stem reads: longer ones are not words.
const maxStemBytes = 64

// StemTokens appends to dst the tokens of s as Tokenize produces them
// (lower case, stop words removed), each stemmed by Stem.
func StemTokens(dst []string, s string) []string {
	return stemFrom(len(dst), Tokenize(dst, s))
}

// StemTokensAll is StemTokens keeping the stop words (which Stem leaves
// as they are).
func StemTokensAll(dst []string, s string) []string {
	return stemFrom(len(dst), TokenizeAll(dst, s))
}

// stemFrom stems the tokens of toks from index n on, in place.
func stemFrom(n int, toks []string) []string {
	for i := n; i < len(toks); i++ {
		toks[i] = Stem(toks[i])
	}
	return toks
}
