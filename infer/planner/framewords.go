package planner

import (
	"slices"
	"strings"
	"unicode"

	"github.com/strata-retrieval/strata/graphops/workspace"
)

// Frame words are the words a question uses to ask ("what", "films",
// "starring") rather than to say what it asks for: its restriction (the
// question without its anchors) ranks the target nodes by BM25, and a
// frame word the training never used that way still scores against the
// few documents that happen to hold it ("What is the 2000 film starring
// X?" puts "What We Did on Our Holiday" first). They are learned from the
// training questions: words in the restrictions of many of them that the
// documents of their answers almost never hold. The plan's restriction
// drops them (AnchorConfig.FrameWords); the plan ranker still reads them.

// LearnFrameWords returns the frame words of exs, sorted: BM25 terms in
// the restrictions of at least minQuestions questions, held by the
// document of some answer in under a tenth of those questions.
func LearnFrameWords(ws *workspace.Workspace, exs []AttrExample, minQuestions int) []string {
	seen, held := map[string]int{}, map[string]int{}
	for _, e := range exs {
		if len(e.Answers) == 0 {
			continue
		}
		for _, w := range questionWords(e.Restriction) {
			seen[w]++
			docs := ws.Doc.Postings(w)
			for _, a := range e.Answers {
				if d, ok := ws.DocOf(a); ok && holds(docs, d) {
					held[w]++
					break
				}
			}
		}
	}
	var out []string
	for w, n := range seen {
		if n >= max(1, minQuestions) && 10*held[w] < n {
			out = append(out, w)
		}
	}
	slices.Sort(out)
	return out
}

// holds reports whether sorted docs contains d.
func holds(docs []uint32, d uint32) bool {
	_, ok := slices.BinarySearch(docs, d)
	return ok
}

// StripFrameWords returns restriction without the frame words (sorted,
// lower case): its words, separated by single spaces, those whose lower
// case is a frame word left out. Punctuation goes too (BM25 and its
// phrases read only words).
func StripFrameWords(restriction string, frame []string) string {
	if len(frame) == 0 {
		return restriction
	}
	words := strings.FieldsFunc(restriction, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsNumber(r) && r != '_' })
	kept := words[:0]
	for _, w := range words {
		if _, ok := slices.BinarySearch(frame, strings.ToLower(w)); !ok {
			kept = append(kept, w)
		}
	}
	return strings.Join(kept, " ")
}
