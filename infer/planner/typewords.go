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
	// maxTypeWordNodes: of a larger type, every k-th node is read, k the
	// smallest that leaves at most this many (one pass over a few hundred
	// megabytes of abstracts or reviews would take a minute; WordNet's
	// 117,659 short documents take a third of a second).
	maxTypeWordNodes = 50000
)

// LearnTypeWords returns the type words of s's documents (names and text
// fields' values, not the fields' names), per node type, sorted:
// lower-case words of letters, minResolveLen or more of them, no stop
// words. Nil when no type has one. One pass over the nodes, counting each
// word once per node, reading at most maxTypeWordNodes nodes of a type.
func LearnTypeWords(s *data.SKB) map[string][]string {
	total := make([]int, len(s.Schema.NodeTypes))
	for i := range s.Nodes {
		total[s.Nodes[i].Type]++
	}
	nt := make([]int, len(s.Schema.NodeTypes)) // nodes read per type
	df := make([]map[string]int, len(s.Schema.NodeTypes))
	all := map[string]int{}
	seen := map[string]bool{}
	at := make([]int, len(s.Schema.NodeTypes)) // nodes of the type so far
	for i := range s.Nodes {
		t := s.Nodes[i].Type
		at[t]++
		if stride := (total[t] + maxTypeWordNodes - 1) / maxTypeWordNodes; (at[t]-1)%stride != 0 {
			continue
		}
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
	read := 0
	for _, n := range nt {
		read += n
	}
	out := map[string][]string{}
	for t, name := range s.Schema.NodeTypes {
		if nt[t] < minTypeWordNodes {
			continue
		}
		others := read - nt[t]
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
// several, and, with TypeWordNouns, when the lexicon reads no noun in w.
func (p *LinkingPlanner) typeWordType(w string) string {
	if p.Cfg.Anchors.TypeWordNouns && p.names.lex != nil && !p.names.lex.IsNoun(w) {
		return ""
	}
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
