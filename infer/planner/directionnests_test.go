package planner

import (
	"testing"

	"github.com/strata-retrieval/strata/data/lexicon"
)

// TestDirectionNests: a preposition of place before a noun's plural and
// "of", past determiners, says a level below (or above) what the noun
// names: "What lies beneath the hyponyms of passementerie?" asks for
// what is two steps down, and with DirectionNests it nests as a word said
// twice does (directionNest). A singular ("under the control of"), no
// "of" after the plural ("beneath the hyponyms"), a word between
// ("below the two hyponyms of"), the words in a quotation and a
// preposition of no place ("among the hyponyms of") nest nothing.
func TestDirectionNests(t *testing.T) {
	lex, err := lexicon.WordNet()
	if err != nil {
		t.Fatal(err)
	}
	nestRule(t, "directionNest", func(text string) bool { return directionNest(lex, text) }, map[string]bool{
		"What lies beneath the hyponyms of passementerie?":     true,
		"Which terms sit under the subtypes of passementerie?": true,
		"What is above all the hypernyms of passementerie?":    true,
		"What falls under the control of passementerie?":       false,
		"What lies beneath the hyponyms, passementerie?":       false,
		"What lies below the two hyponyms of passementerie?":   false,
		"Which term means 'beneath the hyponyms of the line'?": false,
		"What lies among the hyponyms of passementerie?":       false,
	}, "DirectionNests", func(a *AnchorConfig, on bool) { a.DirectionNests = on }, "What lies beneath the hyponyms of passementerie?")
}
