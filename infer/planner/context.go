package planner

import (
	"cmp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/strata-retrieval/strata/data/index"
	"github.com/strata-retrieval/strata/graphops/linking"
)

// askingSentence returns the last sentence of text when the sentences
// before it are context (AnchorConfig.ContextSentences): the text has
// more than one sentence, the last asks (ends with a question mark), the
// earlier ones name some node of an anchor type (a strong mention: one of
// AnchorTypes, not weak), and every such mention names a node that one of
// the last sentence's strong mentions names too. "I love the films of X.
// Which genre does every film written by X belong to?" asks what its
// second sentence asks; its first one's "films", read as what the question
// asks for, answered with X's films. A restriction said only in the
// context keeps the whole text: a node ("In 2001, X directed some
// movies. Which actors were in them?": its last sentence names no X) or a
// number the last sentence does not say. Otherwise text.
//
// With CasualContext, text typed in lower case (its first letter is) may
// start its sentences so ("i'm trying to remember something. what did X
// helm in 2005?"), and a context that names no node of an anchor type is
// a scene too when none of its words names a type or relation of the
// schema (schemaNames.namedBy: "I like films." still keeps the text) and
// the last names a node of an anchor type itself and refers back to it by
// no pronoun (refersBack; "X -- the one that's a kind of Y. which entry is
// that?" keeps the text).
func (p *LinkingPlanner) askingSentence(text string) string {
	if !p.Cfg.Anchors.ContextSentences || p.ments == nil {
		return text
	}
	casual := p.Cfg.Anchors.CasualContext
	// A node's name may hold a period: "Who plays in Dr. Terror's House
	// of Horrors?" is one sentence.
	var names []linking.LinkedMention
	if lastSentenceOf(text, casual && lowerStart(text), nil) > 0 {
		names = p.findMentions(text)
	}
	at := lastSentenceOf(text, casual && lowerStart(text), outsideMentions(names))
	if at <= 0 || !strings.HasSuffix(strings.TrimSpace(text[at:]), "?") {
		return text
	}
	// A number the context says and the question does not is a
	// restriction the question leans on ("X made two films in 1999.
	// Which of X's films did Y write?").
	asked := linking.MentionWords(text[at:])
	for _, w := range linking.MentionWords(text[:at]) {
		if strings.ContainsAny(w.Norm, "0123456789") && !slices.ContainsFunc(asked, func(v linking.Word) bool { return v.Norm == w.Norm }) {
			return text
		}
	}
	before := p.strongMentions(text[:at])
	if len(before) == 0 && !casual {
		return text
	}
	asks := p.strongMentions(text[at:])
	if len(before) == 0 && (len(asks) == 0 || p.namesSchema(text[:at]) || refersBack(text[at:])) {
		return text
	}
	last := map[uint32]bool{}
	for _, m := range asks {
		for _, n := range m.Nodes {
			last[n.Node] = true
		}
	}
	for _, m := range before {
		if !slices.ContainsFunc(m.Nodes, func(n linking.FormNode) bool { return last[n.Node] }) {
			return text
		}
	}
	return text[at:]
}

// maxFrontedWords is how many words a phrase fronted before a question's
// question word may have (FrontedPhrase).
const maxFrontedWords = 8

// opening is the index, among text's words (its MentionWords), of the word
// that opens its question: the first, or with FrontedPhrase the question
// word after a phrase that opens text before it, closed by a comma ("In
// Hebrew, what has X appeared in?": "what"), which the rules that read a
// question's opening words read from (whType, objectAux, subjectVerb). The
// first where text does not end with "?", where a question word stands in
// the phrase, where the phrase is longer than maxFrontedWords words, or
// where no question word and two more words follow its comma.
func (p *LinkingPlanner) opening(text string, words []linking.Word) int {
	if k := p.embeddedOpening(text, words); k > 0 {
		return k
	}
	// With PrepositionWh, a question word right after an opening
	// preposition, three or more words before the end ("By whom has X
	// been directed?", "In which films ...").
	if p.Cfg.Anchors.PrepositionWh && len(words) >= 5 && preposition(words[0].Norm) && whWords[words[1].Norm] {
		return 1
	}
	if !p.Cfg.Anchors.FrontedPhrase || len(words) == 0 || !strings.HasSuffix(strings.TrimSpace(text), "?") {
		return 0
	}
	for i := 1; i < len(words) && i <= maxFrontedWords; i++ {
		if whWords[words[i-1].Norm] {
			return 0
		}
		if !strings.Contains(text[words[i-1].End:words[i].Start], ",") {
			continue
		}
		if whWords[words[i].Norm] && len(words)-i >= 3 {
			return i
		}
		return 0
	}
	return 0
}

// namesSchema reports whether a word of text names a node type or a
// relation of the schema (namedBy: its own words, their forms and base
// forms, and the lexicon's most frequent noun senses).
func (p *LinkingPlanner) namesSchema(text string) bool {
	for _, w := range linking.MentionWords(text) {
		nb := p.names.namedBy(strings.ToLower(text[w.Start:w.End]))
		if len(nb.types) > 0 || len(nb.rels) > 0 || len(nb.synTypes) > 0 || len(nb.synRels) > 0 {
			return true
		}
	}
	return false
}

// backWords are pronouns by which a sentence refers to what an earlier
// one named.
var backWords = map[string]bool{"it": true, "its": true, "they": true, "them": true, "their": true, "theirs": true, "these": true, "those": true, "he": true, "him": true, "his": true, "she": true, "her": true, "hers": true}

// refersBack reports whether text has a word of backWords ("'rachitis'
// can mean several things. Which meaning of it denotes ...?").
func refersBack(text string) bool {
	return slices.ContainsFunc(linking.MentionWords(text), func(w linking.Word) bool { return backWords[strings.ToLower(text[w.Start:w.End])] })
}

// lowerStart reports whether text's first letter is lower case.
func lowerStart(text string) bool {
	for _, r := range text {
		if unicode.IsLetter(r) {
			return unicode.IsLower(r)
		}
	}
	return false
}

// strongMentions are text's mentions that name a node of one of
// AnchorTypes and are not weak (WeakMentions). A mention of several
// words strong by MultiwordTypes alone is not one here: a scene's "My
// friend" names the film "My Friends", no node the question leans on.
func (p *LinkingPlanner) strongMentions(text string) []linking.LinkedMention {
	var out []linking.LinkedMention
	for _, m := range p.findMentions(text) {
		if p.strongAlone(&m) {
			out = append(out, m)
		}
	}
	return out
}

// lastSentence returns the byte offset where text's last sentence starts:
// after the last full stop, question or exclamation mark that follows a
// word of two letters or digits or more (no initial: "Peter S. Seaman") and is
// followed by white space and a capital letter; 0 when there is none.
func lastSentence(text string) int { return lastSentenceOf(text, false, nil) }

// resumeAfter is the offset where text goes on after a mark at byte i
// that ends a sentence or a clause there: the mark follows a word of two
// letters or digits or more (no initial: "Peter S. Seaman") and white
// space follows it, then more text; 0 where it ends none.
func resumeAfter(text string, i int) int {
	k := i
	for k > 0 {
		r, n := utf8.DecodeLastRuneInString(text[:k])
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			break
		}
		k -= n
	}
	if utf8.RuneCountInString(text[k:i]) < 2 {
		return 0
	}
	j := i + 1
	for j < len(text) && (text[j] == ' ' || text[j] == '\t' || text[j] == '\n') {
		j++
	}
	if j == i+1 || j >= len(text) {
		return 0
	}
	return j
}

// outsideMentions reports of a byte offset whether it falls inside no
// mention of ments: a sentence does not start inside a name ("Dr. X").
func outsideMentions(ments []linking.LinkedMention) func(at int) bool {
	return func(at int) bool {
		return !slices.ContainsFunc(ments, func(m linking.LinkedMention) bool { return m.Start < at && m.End > at })
	}
}

// lastSentenceOf is lastSentence, with lower also after white space and a
// lower-case letter, and, with ok, only where ok(at) holds.
func lastSentenceOf(text string, lower bool, ok func(at int) bool) int {
	at := 0
	for i := 1; i < len(text); i++ {
		if c := text[i]; c != '.' && c != '?' && c != '!' {
			continue
		}
		j := resumeAfter(text, i)
		if j == 0 {
			continue
		}
		if r, _ := utf8.DecodeRuneInString(text[j:]); (unicode.IsUpper(r) || lower && unicode.IsLower(r)) && (ok == nil || ok(j)) {
			at = j
		}
	}
	return at
}

// clauseMarks end a clause: a sentence's marks, a semicolon and a colon.
const clauseMarks = ".?!;:"

// askingClause returns the byte offset where text's last clause starts
// when that clause asks and the clauses before it state
// (AnchorConfig.AskingClause): the clause follows a mark of clauseMarks
// after a word of two letters or digits or more and white space, outside
// every mention of ments ("Star Wars: Return of the Jedi" is one name),
// has two words or more and opens with a question word or a request's
// verb (leadVerb), or with NounClauses is a noun phrase put as a question
// (nounQuestion: "...; their casts?"), and the words before it hold no question word and do
// not open with such a verb (a question already, read as one). "X
// directs films of only one genre. Name that genre." and "X directed
// some films; who filled the acting roles in them?" ask in their last
// clause. With FrontedClause, where no such clause follows such a mark,
// the first clause after a comma that asks so after a phrase that states
// and names a type outside the mentions ("For films whose scripts came
// from X, list the cast members.", "Among the writers of X's films, who
// is there?"; not "Under X, what are ..."): a question word
// right after a noun or a preposition in that phrase opens a relative
// clause ("films whose scripts", "films of which") and asks nothing. 0
// otherwise.
func (p *LinkingPlanner) askingClause(text string, ments []linking.LinkedMention) int {
	at := 0
	for i := 1; i < len(text); i++ {
		if strings.ContainsRune(clauseMarks, rune(text[i])) {
			if j := p.clauseAfter(text, i, ments); j > 0 {
				at = j
			}
		}
	}
	if at > 0 && p.asksAfter(text, at, false) {
		return at
	}
	if at > 0 && p.Cfg.Anchors.RequestClauses {
		if v := p.requestAt(text, at); v > 0 && p.asksAfter(text, v, false) {
			return v
		}
	}
	if !p.Cfg.Anchors.FrontedClause {
		return 0
	}
	for i := 1; i < len(text); i++ {
		if text[i] != ',' {
			continue
		}
		j := p.clauseAfter(text, i, ments)
		if j == 0 {
			continue
		}
		if p.asksAfter(text, j, true) && (p.namesTypeOutside(text[:i], ments) || p.Cfg.Anchors.FrontedRoles && p.capacityPhrase(text[:i], ments)) {
			return j
		}
		if p.Cfg.Anchors.RequestClauses {
			if v := p.requestAt(text, j); v > 0 && p.asksAfter(text, v, true) {
				return v
			}
		}
	}
	return 0
}

// coordinators are the conjunctions that join a clause to the one
// before it ("..., and I'd like the casts of those").
var coordinators = map[string]bool{"and": true, "so": true}

// requestAt is where a request opens the clause of text starting at byte
// j (RequestClauses), past a coordinating conjunction (coordinators) and
// the request's speaker (speakerRequest: "I'd like", "we want"): the
// byte offset of its verb where that is a request's verb (leadVerb) and
// no question word ("list the cast members", "and I'd like the full
// casts of those"), or of a question word right after a conjunction
// ("and which actors were in them?"); 0 otherwise. A question word right
// after a comma alone asks only where the phrase before names a type
// (askingClause).
func (p *LinkingPlanner) requestAt(text string, j int) int {
	words := linking.MentionWords(text[j:])
	if len(words) < 2 {
		return 0
	}
	joined := coordinators[words[0].Norm]
	at := j + words[0].Start
	if joined {
		at = j + words[1].Start
	}
	if v := speakerRequest(text[at:]); v > 0 {
		at += v
	}
	rest := linking.MentionWords(text[at:])
	if len(rest) < 2 {
		return 0
	}
	w := strings.ToLower(text[at+rest[0].Start : at+rest[0].End])
	if whWords[rest[0].Norm] {
		if joined {
			return at
		}
		return 0
	}
	if p.leadVerb(w) {
		return at
	}
	return 0
}

// namesTypeOutside reports whether a word of text outside every mention
// of ments names a type by the schema's word or the lexicon (slotType):
// a phrase fronted before a comma that names none ("Under X", "As of
// 1937") leaves the question's type to be read as a whole.
func (p *LinkingPlanner) namesTypeOutside(text string, ments []linking.LinkedMention) bool {
	blank := []byte(text)
	for _, m := range ments {
		for i := m.Start; i < min(m.End, len(blank)); i++ {
			blank[i] = ' '
		}
	}
	for _, w := range index.TokenizeAll(nil, unquoted(string(blank))) {
		if alphabetic(w) && !index.IsStopword(w) {
			if t, named := p.slotType(w, nil, true); t != "" && named {
				return true
			}
		}
	}
	return false
}

// capacityPhrase reports whether text, a phrase fronted before a comma,
// states a capacity (FrontedRoles): it opens with "as" and a determiner,
// and a word of it outside every mention names a type, by the lexicon
// too ("As a director, what is the only genre X has worked in?": the
// role the subject acts in, which the question does not ask for; not "As
// of 1937").
func (p *LinkingPlanner) capacityPhrase(text string, ments []linking.LinkedMention) bool {
	words := linking.MentionWords(text)
	if len(words) < 3 || words[0].Norm != "as" || !determiners[words[1].Norm] {
		return false
	}
	for _, w := range words[2:] {
		if slices.ContainsFunc(ments, func(m linking.LinkedMention) bool { return m.Start <= w.Start && m.End > w.Start }) {
			continue
		}
		n := strings.ToLower(text[w.Start:w.End])
		if alphabetic(n) && !index.IsStopword(n) {
			if t, _ := p.slotType(n, nil, true); t != "" {
				return true
			}
		}
	}
	return false
}

// clauseAfter is where a clause starts after a mark at byte i that ends
// one there (resumeAfter) outside every mention of ments; 0 where none
// does.
func (p *LinkingPlanner) clauseAfter(text string, i int, ments []linking.LinkedMention) int {
	if slices.ContainsFunc(ments, func(m linking.LinkedMention) bool { return m.Start <= i && m.End > i }) {
		return 0
	}
	return resumeAfter(text, i)
}

// asksAfter reports whether the clause of text starting at byte at asks
// after words that state (askingClause): it has two words or more and
// opens with a question word or a request's verb, and the words before
// it hold no question word (with relative, none but one right after a
// noun or a preposition) and do not open with such a verb (with
// PrepositionOpenings, one followed by a preposition opens none: "Back
// in 1998, X directed a film. Who starred in it?").
func (p *LinkingPlanner) asksAfter(text string, at int, relative bool) bool {
	clause, before := linking.MentionWords(text[at:]), linking.MentionWords(text[:at])
	if len(clause) < 2 || len(before) == 0 || p.leadVerb(before[0].Norm) && !(p.Cfg.Anchors.PrepositionOpenings && len(before) > 1 && prepositions[before[1].Norm]) {
		return false
	}
	lex := p.names.lex
	for i, w := range before {
		if !whWords[w.Norm] {
			continue
		}
		if !relative || i == 0 || whWords[before[i-1].Norm] {
			return false
		}
		if prev := strings.ToLower(text[before[i-1].Start:before[i-1].End]); !prepositions[prev] && (lex == nil || !lex.IsNoun(prev)) {
			return false
		}
	}
	w := clause[0].Norm
	colon := p.Cfg.Anchors.ColonNouns && strings.HasSuffix(strings.TrimRight(text[:at], " \t\n"), ":")
	return whWords[w] || p.leadVerb(w) || p.Cfg.Anchors.NounClauses && p.nounQuestion(text[at:], colon)
}

// nounDeterminers open the noun phrase a nounQuestion asks with: English
// possessives and demonstratives, which refer back to what the clauses
// before it state.
var nounDeterminers = map[string]bool{"their": true, "its": true, "his": true, "her": true, "those": true, "these": true, "the": true}

// namingParticiples are the English participles a naming verb's passive
// closes a question with (NamingClauses): "the movie is called?" asks
// what "what is the movie called?" does.
var namingParticiples = map[string]bool{"called": true, "named": true, "titled": true, "entitled": true}

// quantifiers are English's quantifiers that may close a question set
// apart by a comma ("..., all of them?", "..., every one?", "..., if
// any?"), and tailWords the words that may stand with one there.
var (
	quantifiers = map[string]bool{"all": true, "each": true, "every": true, "any": true, "both": true}
	tailWords   = map[string]bool{"of": true, "them": true, "those": true, "these": true, "one": true, "ones": true, "if": true}
)

// quantifierTail is how many of words (clause's) stand before a closing
// tail set apart by a comma made of one of quantifiers and tailWords
// alone ("their directors, all of them?"; QuantifierTails): the tail adds
// nothing to what the phrase before it asks for. len(words) where the
// clause closes otherwise.
func quantifierTail(clause string, words []linking.Word) int {
	for k := len(words) - 1; k >= 1 && len(words)-k <= 4; k-- {
		if !quantifiers[words[k].Norm] && !tailWords[words[k].Norm] {
			break
		}
		if strings.TrimSpace(clause[words[k-1].End:words[k].Start]) != "," {
			continue
		}
		if slices.ContainsFunc(words[k:], func(w linking.Word) bool { return quantifiers[w.Norm] }) {
			return k
		}
		break
	}
	return len(words)
}

// maxNounQuestion is how many words a nounQuestion's noun phrase may
// have, its determiner among them.
const maxNounQuestion = 4

// nounQuestion reports whether clause (an asking clause's text) is a
// noun phrase put as a question (AnchorConfig.NounClauses): one of
// nounDeterminers, then up to maxNounQuestion-1 words the lexicon has as
// nouns, no question word, and a closing "?": "X penned a number of
// films; their casts?" asks for the casts as "...; name their casts."
// does. After a colon (colon: ColonNouns) the phrase asks closing the
// text without one too ("X 2008 films: the directors", "... : the
// directors."): a colon announces what follows, where a semicolon or a
// sentence's end may close a statement ("...; their directors.").
func (p *LinkingPlanner) nounQuestion(clause string, colon bool) bool {
	lex := p.names.lex
	words := linking.MentionWords(clause)
	if len(words) < 2 {
		return false
	}
	if end := strings.TrimSpace(clause[words[len(words)-1].End:]); end != "?" && !(colon && (end == "" || end == ".")) {
		return false
	}
	// With NamingClauses the phrase may be the subject of a naming verb's
	// passive closing the question: "...: the movie is called?".
	if n := len(words); p.Cfg.Anchors.NamingClauses && n > 3 && beForms[strings.ToLower(clause[words[n-2].Start:words[n-2].End])] && namingParticiples[strings.ToLower(clause[words[n-1].Start:words[n-1].End])] {
		words = words[:n-2]
	}
	// With QuantifierTails a quantifier set apart by a comma closes it:
	// "their directors, all of them?".
	if p.Cfg.Anchors.QuantifierTails {
		words = words[:quantifierTail(clause, words)]
	}
	if lex == nil || len(words) < 2 || len(words) > maxNounQuestion || !nounDeterminers[words[0].Norm] {
		return false
	}
	for _, w := range words[1:] {
		n := strings.ToLower(clause[w.Start:w.End])
		if whWords[n] || !alphabetic(n) || !lex.IsNoun(n) {
			return false
		}
	}
	return true
}

// clauseType is the type an asking clause (askingClause) names as the
// one asked for: a request verb's object's (verbType, past a determiner
// and words that may be adjectives naming no type: "Name that genre.",
// "name the one genre they all have"), the slot's of the question word
// opening it or the request's object ("which genre is that?", "tell me
// who was cast"), or that question word's own (whWordType: "who"), each
// only where the schema's word or the lexicon names it. A pronoun of
// backWords closing the clause there ("... shares a genre; what is
// it?", "name them") refers back: the type is the one the last word of
// before (the clauses before it) naming one names, with OfHeads the one
// the head before "of" names where it names one ("one genre of film").
// "" when none is named, and the whole question is read.
func (p *LinkingPlanner) clauseType(clause, before string, kinds map[string]string) string {
	toks := index.TokenizeAll(nil, unquoted(clause))
	if len(toks) < 2 {
		return ""
	}
	lifts := p.Cfg.Anchors.ClauseSlots
	j := 1
	if p.leadVerb(toks[0]) && !whWords[toks[0]] {
		if toks[1] == "me" || toks[1] == "us" {
			j++
		}
		// A question as the request's object asks as it would alone:
		// "tell me who was cast".
		if j < len(toks)-1 && whWords[toks[j]] {
			toks, j = toks[j:], 1
		} else if t, named := p.verbType(clause, kinds); t != "" {
			if named {
				return t
			}
			// A lift counts below, where its word is a noun
			// (liftedNoun).
			if !lifts {
				return ""
			}
		}
	}
	// "whose director was X" asks for what has the director, not for
	// the director; opening a sentence or following a colon or a
	// semicolon, "whose" asks (possessorType: "X's films as an actor:
	// whose pens wrote them?" asks for people).
	if lifts && toks[0] == "whose" {
		if b := strings.TrimSpace(before); b == "" || strings.ContainsRune(".?!:;", rune(b[len(b)-1])) {
			return p.possessorType(toks[0])
		}
		return ""
	}
	if whWords[toks[0]] && p.Cfg.Anchors.Lead != nil {
		if t := p.whWordType(cmp.Or(subjectForms[toks[0]], toks[0])); t != "" {
			return t
		}
	}
	// Past determiners and words that name no type and may be
	// adjectives: "name the one genre they all have".
	for j < len(toks)-1 && (!alphabetic(toks[j]) || index.IsStopword(toks[j]) || determiners[toks[j]] || p.slotModifier(toks[j], kinds)) {
		j++
	}
	if t, named := p.slotType(toks[j], kinds, true); named || lifts && t != "" && p.liftedNoun(toks[j]) {
		// With ClauseCompounds the compound's head names it where the
		// slot's word names a type too, as in the question's own slot
		// (askedTypeBy): "which film categories do they fall under?"
		// asks for genres.
		if lifts && p.Cfg.Anchors.ClauseCompounds {
			if ht, hn := p.compoundHead(toks, j, kinds); ht != "" && (hn || p.liftedNoun(toks[j+1])) {
				return ht
			}
		}
		return t
	} else if lifts && t == "" && p.Cfg.Anchors.CompoundHeads {
		// "list the cast members": the compound's head names it.
		if ht, hn := p.compoundHead(toks, j, kinds); ht != "" && (hn || p.liftedNoun(toks[j+1])) {
			return ht
		}
	}
	if j != len(toks)-1 || !backWords[toks[j]] {
		return ""
	}
	prior := index.TokenizeAll(nil, unquoted(before))
	for i := len(prior) - 1; i >= 0; i-- {
		if w := prior[i]; alphabetic(w) && !index.IsStopword(w) && !determiners[w] {
			if p.Cfg.Anchors.BackPastRoles && statedRole(prior, i) {
				continue
			}
			if t, named := p.slotType(w, kinds, true); t != "" {
				if !named && (!lifts || !p.liftedNoun(w)) {
					return ""
				}
				// With OfHeads, "one genre of film" is a genre: the head
				// before "of", where it names a type too.
				if p.Cfg.Anchors.OfHeads && i >= 2 && prior[i-1] == "of" {
					if h := prior[i-2]; alphabetic(h) && !index.IsStopword(h) {
						if ht, hn := p.slotType(h, kinds, true); ht != "" && (hn || lifts && p.liftedNoun(h)) {
							return ht
						}
					}
				}
				return t
			}
		}
	}
	return ""
}

// statedRole reports whether word i of toks states a capacity with "as"
// ("as director", "as a director", "as the director"), which a pronoun
// does not refer back to (BackPastRoles).
func statedRole(toks []string, i int) bool {
	return i >= 1 && toks[i-1] == "as" || i >= 2 && toks[i-2] == "as" && determiners[toks[i-1]]
}

// liftedNoun reports whether lower-case w may name the type a training
// lift gives it in an asking clause (ClauseSlots): a noun that no verb's
// form and no adjective can be ("actors"; not "have", which lifted
// towards genres in movies-skb's training questions, nor "one" of "pick
// the one classified under X" or "two" of "what lies two kinds below
// it?", which lifted towards adjectives and relations in WordNet's),
// lifted towards that one type alone (wordType's threshold).
func (p *LinkingPlanner) liftedNoun(w string) bool {
	lex := p.names.lex
	if lex == nil || !lex.IsNoun(w) || lex.IsVerbForm(w) || lex.IsAdjective(w) {
		return false
	}
	// One type alone lifted so: WordNet's "verb" lifts towards every
	// verb.* type, and names none.
	n := 0
	if ew := p.Cfg.Anchors.Elements; ew != nil {
		for _, t := range p.skb.Schema.NodeTypes {
			if ew.Lift(w, "A:"+t) >= 2 {
				n++
			}
		}
	}
	return n == 1
}

// maxEmbedding is how many words may stand before the question word of a
// question put inside the speaker's or the addressee's words
// (embeddedOpening).
const maxEmbedding = 5

// embeddedOpening is the index, among text's words, of the question word
// of a question put inside the speaker's or the addressee's words
// (AnchorConfig.EmbeddedQuestions): the first question word, within
// maxEmbedding words, after words one of which is one of speakerSubjects
// ("Do you know what ...", "I wonder which ...", "Can you tell me who
// ..."), with three words or more after it; 0 for any other text.
func (p *LinkingPlanner) embeddedOpening(text string, words []linking.Word) int {
	if !p.Cfg.Anchors.EmbeddedQuestions {
		return 0
	}
	speaker := false
	for i := 0; i < len(words) && i <= maxEmbedding; i++ {
		w := strings.ReplaceAll(strings.ToLower(text[words[i].Start:words[i].End]), "\u2019", "'")
		if whWords[w] {
			if speaker && i > 0 && len(words)-i >= 4 {
				return i
			}
			return 0
		}
		speaker = speaker || speakerSubjects[w]
	}
	return 0
}
