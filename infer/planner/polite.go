package planner

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/strata-retrieval/strata/graphops/linking"
)

// politeWords are English's words of courtesy a request may carry, which
// say nothing of what it asks (AnchorConfig.PoliteWords); no data set's
// words.
var politeWords = map[string]bool{"please": true, "kindly": true}

// withoutPolite returns text without the words of courtesy (politeWords)
// that stand as such (AnchorConfig.PoliteWords): set off by a comma, which
// goes with the word ("Cast lists, please, for X's films" is read "Cast
// lists for X's films", whose opening nouns are the request's object),
// closing the text ("The titles, please."), or right before a verb's
// base form, the request's ("Could you please name ...", "Kindly list
// ..."), where the word stood between the request's verb and the words
// the rules read it by. A word opening the text hands its capital to the
// next. A quoted word stays, and so does one inside a name of more than
// one word (find's mentions: a film "Please Give"); find is called only
// when some word may go. isVerb is the lexicon's test for a verb's base
// form (nil: no such test).
func withoutPolite(text string, isVerb func(string) bool, find func(string) []linking.LinkedMention) string {
	words := linking.MentionWords(text)
	var drop [][2]int // byte spans to cut
	for i, w := range words {
		if !politeWords[w.Norm] {
			continue
		}
		before := strings.TrimRight(text[:w.Start], " ")
		rest := strings.TrimLeft(text[w.End:], " ")
		comma := len(text) - len(rest) // where rest starts: a comma after the word, or not
		switch {
		case strings.HasSuffix(before, ",") && strings.HasPrefix(rest, ","):
			// ", please,": both commas go ("Cast lists for ...").
			drop = append(drop, [2]int{len(before) - 1, comma + 1})
		case strings.HasSuffix(before, ",") && closes(rest):
			// ", please." closing the text: the comma before goes.
			drop = append(drop, [2]int{len(before) - 1, w.End})
		case strings.HasPrefix(rest, ","):
			// "Please, who ...": the comma after goes, and the spaces past it.
			end := comma + 1
			end += len(text[end:]) - len(strings.TrimLeft(text[end:], " "))
			drop = append(drop, [2]int{w.Start, end})
		case i+1 < len(words) && isVerb != nil && isVerb(words[i+1].Norm) && strings.TrimSpace(text[w.End:words[i+1].Start]) == "":
			// "Could you please name ...": the word and the space after.
			drop = append(drop, [2]int{w.Start, words[i+1].Start})
		}
	}
	if len(drop) == 0 {
		return text
	}
	quoted := quotedSpans(text, false)
	ments := find(text)
	var b strings.Builder
	last, capital := 0, false
	for _, d := range drop {
		if inSpans(d[0], nil, quoted) || inSpans(d[1]-1, nil, quoted) || inLongerName(ments, d) {
			continue
		}
		b.WriteString(text[last:d[0]])
		last = d[1]
		capital = capital || d[0] == 0
	}
	b.WriteString(text[last:])
	out := b.String()
	if capital {
		if r, n := utf8.DecodeRuneInString(out); n > 0 {
			out = string(unicode.ToUpper(r)) + out[n:]
		}
	}
	return out
}

// closes reports whether rest, past spaces, is the text's closing
// punctuation alone (".", "?", "!", or nothing).
func closes(rest string) bool {
	return strings.Trim(rest, ".?! ") == ""
}

// inLongerName reports whether span d meets a mention of more than one
// word of ments.
func inLongerName(ments []linking.LinkedMention, d [2]int) bool {
	for _, m := range ments {
		if m.TokEnd-m.TokStart > 1 && m.Start < d[1] && m.End > d[0] {
			return true
		}
	}
	return false
}
