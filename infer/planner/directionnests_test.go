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
	nestRule(t, "directionNest", func(text string) bool { return directionNest(lex, text, false) }, map[string]bool{
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

// TestDirectionModifiers: with DirectionModifiers, adjectives that are no
// nouns may come between the determiner and the plural ("What lies below
// the direct subcategories of X?" nests as "below the subcategories of X"
// does); a number ("the two hyponyms"), a noun ("the box hyponyms") or no
// "of" still nest nothing.
func TestDirectionModifiers(t *testing.T) {
	lex, err := lexicon.WordNet()
	if err != nil {
		t.Fatal(err)
	}
	nestRule(t, "directionNest (modifiers)", func(text string) bool { return directionNest(lex, text, true) }, map[string]bool{
		"What lies below the direct subcategories of passementerie?":     true,
		"Beneath the direct hyponyms of passementerie, one level lower":  true,
		"What sits under the immediate subtypes of passementerie?":       true,
		"What lies beneath the hyponyms of passementerie?":               true,
		"What lies below the two hyponyms of passementerie?":             false,
		"What lies below the box hyponyms of passementerie?":             false,
		"What lies below the direct subcategories, passementerie?":       false,
		"Which term means 'below the direct subcategories of the line'?": false,
	}, "DirectionModifiers", func(a *AnchorConfig, on bool) { a.DirectionNests, a.DirectionModifiers = true, on }, "What lies below the direct subcategories of passementerie?")
	if directionNest(lex, "What lies below the direct subcategories of passementerie?", false) {
		t.Error("directionNest without modifiers nests past \"direct\"")
	}
}
