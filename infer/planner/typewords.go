package planner

import (
	"slices"
	"strings"
	"unicode"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/data/index"
)

// The schema names a node type with one word ("movie"), a question with
// any word for it: "Which 2000 releases did X appear in?" asks for films,
// and nothing in the schema or the lexicon says so (a release is
// merchandise). The SKB's documents do: every film of movies-skb says
// "Released in 1994", no person or genre does. Type words are such words:
// nearly every document of one type says them, nearly no other document
// does. WordNet's are "adverb" (adv.all: its part-of-speech field),
// "satellite" (adj.all), "relating" (adj.pert: "relating to or
// characteristic of ..."), "unit" (noun.quantity). A type word names the
// type the question asks for right after an asking word, values between
// ("Which 2000 releases ..."; askedTypeBy), not wherever it stands ("Find
// the cast of the 2003 releases ..." asks for people), and it is no word
// the lexicon reads an unseen word as ("Name the genre ..." is no "Tag
// the genre ...").

// A type word is in at least minTypeWordShare of its type's documents and
// in at most maxTypeWordElsewhere of the others, of a type with at least
// minTypeWordNodes nodes.
const (
	minTypeWordShare     = 0.5
	maxTypeWordElsewhere = 0.01
	minTypeWordNodes     = 20
)

// LearnTypeWords returns the type words of s's documents (names and text
// fields' values, not the fields' names), per node type, sorted:
// lower-case words of letters, minResolveLen or more of them, no stop
// words. Nil when no type has one. One pass over the nodes, counting each
// word once per node and type.
func LearnTypeWords(s *data.SKB) map[string][]string {
	nt := make([]int, len(s.Schema.NodeTypes))
	df := make([]map[string]int, len(s.Schema.NodeTypes))
	all := map[string]int{}
	seen := map[string]bool{}
	for i := range s.Nodes {
		t := s.Nodes[i].Type
		nt[t]++
		if df[t] == nil {
			df[t] = map[string]int{}
		}
		clear(seen)
		text := strings.ToLower(s.Nodes[i].Name + " " + strings.Join(s.Nodes[i].Fields, " "))
		for _, w := range strings.FieldsFunc(text, func(r rune) bool { return !unicode.IsLetter(r) }) {
			if len(w) < minResolveLen || seen[w] || index.IsStopword(w) {
				continue
			}
			seen[w] = true
			df[t][w]++
			all[w]++
		}
	}
	out := map[string][]string{}
	for t, name := range s.Schema.NodeTypes {
		if nt[t] < minTypeWordNodes {
			continue
		}
		others := len(s.Nodes) - nt[t]
		for w, c := range df[t] {
			if float64(c) >= minTypeWordShare*float64(nt[t]) && float64(all[w]-c) <= maxTypeWordElsewhere*float64(others) {
				out[name] = append(out[name], w)
			}
		}
		slices.Sort(out[name])
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// typeWordType is the node type lower-case word w names as a type word
// (AnchorConfig.TypeWords: a form of it or, with the lexicon, a base form
// of it is one: "releases" of "released"); "" when it names none or
// several.
func (p *LinkingPlanner) typeWordType(w string) string {
	x := p.names.word(w)
	found := ""
	for _, t := range p.skb.Schema.NodeTypes {
		ws := p.Cfg.Anchors.TypeWords[t]
		if len(ws) == 0 || !p.names.wordNames(x, ws) {
			continue
		}
		if found != "" {
			return ""
		}
		found = t
	}
	return found
}
