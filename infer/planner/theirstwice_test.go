package planner

import (
	"testing"

	"github.com/strata-retrieval/strata/data/lexicon"
)

// TestTheirsTwice: "theirs" after a plural a possessive determiner owns
// stands for that plural said again ("isopod, then its subtypes, then
// theirs": their subtypes), and with TheirsTwice nests as a word said
// twice does (theirsTwice). No possessive before the plural, a singular,
// "their" with its noun said, "theirs" before the plural and a quotation
// nest nothing.
func TestTheirsTwice(t *testing.T) {
	lex, err := lexicon.WordNet()
	if err != nil {
		t.Fatal(err)
	}
	nestRule(t, "theirsTwice", func(text string) bool { return theirsTwice(lex, text) }, map[string]bool{
		"isopod, then its subtypes, then theirs: list the last": true,
		"Name isopod's parts, its subtypes and theirs.":         true,
		"isopod, then the subtypes, then theirs: list the last": false,
		"isopod, then its member, then theirs: list the last":   false,
		"isopod, then its subtypes, then their name":            false,
		"Theirs or its subtypes?":                               false,
		"Which term means 'its subtypes and theirs'?":           false,
	}, "TheirsTwice", func(a *AnchorConfig, on bool) { a.TheirsTwice = on }, "isopod, then its subtypes, then theirs: list the last")
}
