package planner

import (
	"slices"
	"strings"
	"unicode"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/data/index"
	"github.com/strata-retrieval/strata/data/lexicon"
	"github.com/strata-retrieval/strata/graphops/linking"
)

// A question says what it asks for before its anchors, in English, in
// the words of its lead ("Which directors ...", "Name the cast of ...",
// "Find the parts of ..."), and when the answers are people, the type
// says nothing of the role: "Which filmmakers have cast X?" asks for the
// people at the end of a directed_by step, not for X's films, though the
// classifier, which learned "cast" from "Which films have X in the
// cast?", prefers those. Answer words tie such a noun to the step that
// ends the plans of the training questions that used it before their
// first anchor, learned from those plans and nothing else; the lexicon
// reads a word no training question used as one that did ("filmmakers"
// as "directors", lexwords.go) before the rule sees it.

// Answer words are learned from at least minAnswerWordQuestions training
// questions, minAnswerWordShare of whose plans end with the word's step.
const (
	minAnswerWordQuestions = 5
	minAnswerWordShare     = 0.9
)

// finalSteps are the steps (one direction each, RelStep.String) that end
// the plan's paths, each once, sorted: where the answers are reached
// from.
func finalSteps(p *data.Plan) []string {
	var out []string
	for _, path := range p.Paths {
		if len(path.Steps) == 0 {
			continue
		}
		for _, r := range path.Steps[len(path.Steps)-1].Rels {
			if s := r.String(); !slices.Contains(out, s) {
				out = append(out, s)
			}
		}
	}
	slices.Sort(out)
	return out
}

// leadNouns are the words (lower case, each once) of text before the
// first of the mentions anchors names that the lexicon reads as nouns
// there, unquoted, of minResolveLen letters or more, no stop words; none
// when no mention is anchored. A word that is a verb too is a noun only
// after a determiner or, with NounHeads, opening the question before a
// preposition (determinedNoun: "Find the cast of X", "cast of films
// directed by X", not "Who did cast X?"); nil without the lexicon.
func (p *LinkingPlanner) leadNouns(text string, ments []linking.LinkedMention, anchors []int) []string {
	first, _ := anchorSpan(ments, anchors)
	if first < 0 || p.names.lex == nil {
		return nil
	}
	return p.nounsIn(text, linking.MentionWords(text), 0, first, false)
}

// statedLead reports whether the first of the mentions anchors names
// stands in a sentence of text that states, before a last sentence that
// asks (AnchorConfig.StatedLeads): text ends with "?", and the sentence
// before its last (lastSentenceOf, outside every mention: "Dr. X" is one
// name) ends with a full stop or "!". The nouns before that anchor
// (leadNouns) are the statement's, saying what the anchor is ("My two
// favourite actors are X and Y."), not what the last sentence asks.
func statedLead(text string, ments []linking.LinkedMention, anchors []int) bool {
	if !strings.HasSuffix(strings.TrimSpace(text), "?") {
		return false
	}
	at := lastSentenceOf(text, false, outsideMentions(ments))
	before := strings.TrimSpace(text[:at])
	if at <= 0 || !strings.HasSuffix(before, ".") && !strings.HasSuffix(before, "!") {
		return false
	}
	first := -1
	for _, a := range anchors {
		if a >= 0 && a < len(ments) && (first < 0 || ments[a].Start < first) {
			first = ments[a].Start
		}
	}
	return first >= 0 && first < at
}

// trailNouns are leadNouns for a question whose words before its first
// anchor name nothing (no noun but a question word: "The Bang Bang Club
// director", "Who are X's directors?"): the nouns right after its last
// anchor, up to the first stop word, where English puts the head of a
// noun phrase, also the question's last word when it may be a verb too
// ("Heat cast"); nil when a noun comes before the first anchor, or
// without the lexicon.
func (p *LinkingPlanner) trailNouns(text string, ments []linking.LinkedMention, anchors []int) []string {
	first, last := anchorSpan(ments, anchors)
	if first < 0 || p.names.lex == nil {
		return nil
	}
	words := linking.MentionWords(text)
	if len(p.nounsIn(text, words, 0, first, true)) > 0 {
		return nil
	}
	// The phrase after the anchor ends at its first stop word: "Any
	// thriller pictures with X in the cast?" asks for no cast.
	end := last
	for end < len(words) && !index.IsStopword(strings.ToLower(text[words[end].Start:words[end].End])) {
		end++
	}
	return p.nounsIn(text, words, last, end, true)
}

// clauseNouns are leadNouns read in the asking clause (askingClause)
// where it starts after the first of the mentions anchors names: the
// nouns from the clause's start up to the first of those mentions in it
// ("For X's films as director, list the cast members.": "cast",
// "members"; ClauseAnswerWords), a word that may be a verb too counting
// as a noun after a determiner and adjectives that name no type ("I'd
// like the full casts of those"). nil where no clause asks after the
// anchor.
func (p *LinkingPlanner) clauseNouns(text string, ments []linking.LinkedMention, anchors []int) []string {
	if p.names.lex == nil {
		return nil
	}
	return p.clauseNounsAt(text, ments, anchors, p.askingClause(text, ments))
}

// clauseNounsAt is clauseNouns for the asking clause starting at byte k
// of text (0: none), for a caller that found it already.
func (p *LinkingPlanner) clauseNounsAt(text string, ments []linking.LinkedMention, anchors []int, k int) []string {
	if p.names.lex == nil {
		return nil
	}
	// Byte offsets: answerStep reads a text some words were blanked out of.
	first, end := -1, len(text)
	for _, a := range anchors {
		if a < 0 || a >= len(ments) {
			continue
		}
		if first < 0 || ments[a].Start < first {
			first = ments[a].Start
		}
		if ments[a].Start >= k {
			end = min(end, ments[a].Start)
		}
	}
	if k == 0 || first < 0 || first >= k {
		return nil
	}
	// Adjectives naming no type after a determiner (slotModifier) are
	// passed over: the noun after them is determined ("the full casts").
	blank := []byte(text)
	words := linking.MentionWords(text)
	lower := func(w linking.Word) string { return strings.ToLower(text[w.Start:w.End]) }
	for i, w := range words {
		if w.Start < k || w.Start >= end || !determiners[lower(w)] {
			continue
		}
		for j := i + 1; j+1 < len(words) && words[j+1].Start < end && p.slotModifier(lower(words[j]), nil); j++ {
			for b := words[j].Start; b < words[j].End; b++ {
				blank[b] = ' '
			}
		}
	}
	text = string(blank)
	words = linking.MentionWords(text)
	from := slices.IndexFunc(words, func(w linking.Word) bool { return w.Start >= k })
	if from < 0 {
		return nil
	}
	to := from
	for to < len(words) && words[to].Start < end {
		to++
	}
	return p.nounsIn(text, words, from, to, false)
}

// anchorSpan returns the first word of the first of the mentions anchors
// names and the word past the last of them; -1, -1 when none is anchored.
func anchorSpan(ments []linking.LinkedMention, anchors []int) (first, end int) {
	first, end = -1, -1
	for _, a := range anchors {
		if a < 0 || a >= len(ments) {
			continue
		}
		if first < 0 || ments[a].TokStart < first {
			first = ments[a].TokStart
		}
		end = max(end, ments[a].TokEnd)
	}
	return first, end
}

// nounsIn are the words (lower case, each once) of words[from:to] that
// the lexicon reads as nouns there, unquoted, of minResolveLen letters or
// more, no stop words: a word that is a verb too only where
// determinedNoun reads a noun. Read for the trailing rule (trailNouns),
// question words are no nouns (whWords) and the text's last word, a noun
// phrase's head, is one when it may be a verb too.
func (p *LinkingPlanner) nounsIn(text string, words []linking.Word, from, to int, trailing bool) []string {
	lex := p.names.lex
	quoted := quotedSpans(text, false)
	var out []string
	for i := from; i < to && i < len(words); i++ {
		w := words[i]
		if slices.ContainsFunc(quoted, func(q [2]int) bool { return w.Start >= q[0] && w.Start < q[1] }) {
			continue
		}
		n := strings.ToLower(text[w.Start:w.End]) // as written: "does" is no "doe"
		if len(n) < minResolveLen || !alphabetic(n) || index.IsStopword(n) || trailing && whWords[n] || slices.Contains(out, n) {
			continue
		}
		head := trailing && i == len(words)-1
		if !lex.IsNoun(n) || lex.IsVerb(n) && !head && !determinedNoun(text, words, i, determinedOpts{heads: p.Cfg.Anchors.NounHeads, values: p.Cfg.Anchors.DeterminedValues, relative: p.Cfg.Anchors.RelativeThat, isVerb: lex.IsVerb}, lex.IsNoun, p.namesType) {
			continue
		}
		out = append(out, n)
	}
	return out
}

// namesType reports whether w names a node type with the schema's words
// or as a synonym (namedBy).
func (p *LinkingPlanner) namesType(w string) bool {
	nb := p.names.namedBy(w)
	return len(nb.types) > 0 || len(nb.synTypes) > 0
}

// whWords are English's question words, no nouns whatever a lexicon
// says ("who": the World Health Organization).
var whWords = map[string]bool{"who": true, "whom": true, "whose": true, "what": true, "which": true, "where": true, "when": true, "why": true, "how": true}

// determinedNoun reports whether words[i], a word that may be a noun or
// a verb, is a noun where it stands: after a determiner ("Find the cast
// of X"), with values also past values after one ("Give the 1998 cast of
// ...": numbers, words of no letters), or, with heads (AnchorConfig.NounHeads), in the words opening
// the text before a preposition, up to maxOpeningNouns of them, each of
// which may be a noun (isNoun), where a request's verb would have its
// object ("cast of films directed by X", "cast list for pictures X
// directed"); not in "Who did cast X?", nor in "film script by X", which
// the lexicon read off "film scripted by X", nor before a word that
// names a node type (namesType), a request's object ("Cast films with
// X"). With o.relative, "that" or "which" opening a relative clause
// (relativeVerbAt) determines nothing: in "films that cast X" the word
// after it is the clause's verb.
func determinedNoun(text string, words []linking.Word, i int, o determinedOpts, isNoun, namesType func(string) bool) bool {
	at := func(j int) string { return strings.ToLower(text[words[j].Start:words[j].End]) }
	if i > 0 && determiners[at(i-1)] && !(o.relative && relativeVerbAt(text, words, i, isNoun, o.isVerb)) {
		return true
	}
	heads, values := o.heads, o.values
	if values {
		// Past values: "the 1998 cast".
		j := i - 1
		for j >= 0 && !alphabetic(at(j)) {
			j--
		}
		if j >= 0 && j < i-1 && determiners[at(j)] {
			return true
		}
	}
	if !heads || i >= maxOpeningNouns {
		return false
	}
	for j := 0; j < maxOpeningNouns && j+1 < len(words); j++ {
		if w := at(j); !isNoun(w) || index.IsStopword(w) || j > 0 && namesType(w) {
			return false
		}
		if prepositions[at(j+1)] {
			return i <= j
		}
	}
	return false
}

// relativeVerbAt reports whether words[i] follows "that" or "which"
// (relativePronouns) right after a word that may be a noun (isNoun, no
// stop word; as the text's first word, no verb either, isVerb: "Find that
// cast" requests), with nothing but white space between: the verb of a
// relative clause, "cast" in "films that cast X"
// (AnchorConfig.RelativeThat). A word blanked out of text right before
// the pronoun (answerStep blanks the type word after a mention, keeping
// the text's length) was a noun.
func relativeVerbAt(text string, words []linking.Word, i int, isNoun, isVerb func(string) bool) bool {
	if i < 2 || i >= len(words) {
		return false
	}
	at := func(j int) string { return strings.ToLower(text[words[j].Start:words[j].End]) }
	if !determiners[at(i-1)] || !relativePronouns[at(i-1)] {
		return false
	}
	gap := text[words[i-2].End:words[i-1].Start]
	if strings.TrimSpace(gap) != "" {
		return false // "movies, that cast X"
	}
	if len(gap) > 1 {
		return true
	}
	// The question's first word is a request's verb as often as a noun
	// ("Find that cast").
	return isNoun(at(i-2)) && !index.IsStopword(at(i-2)) && (i > 2 || !isVerb(at(i-2)))
}

// determinedOpts are determinedNoun's rules: AnchorConfig.NounHeads,
// DeterminedValues and RelativeThat (with the lexicon's verbs, isVerb).
type determinedOpts struct {
	heads, values, relative bool
	isVerb                  func(string) bool
}

// maxOpeningNouns is how many words opening a question may make the noun
// phrase before its first preposition (determinedNoun): a noun and the
// one it modifies ("cast list").
const maxOpeningNouns = 2

// prepositions are English's common prepositions.
// ("to" is none here: "close to X" is no noun, "want to" no object).
var prepositions = map[string]bool{"of": true, "for": true, "in": true, "from": true, "by": true, "with": true, "about": true, "on": true, "at": true}

// preposition reports whether lower-case w is one of prepositions or of
// titlePrepositions.
func preposition(w string) bool { return prepositions[w] || titlePrepositions[w] }

// determiners are the English words after which a word that may be a
// noun or a verb is a noun.
var determiners = map[string]bool{"the": true, "a": true, "an": true, "which": true, "what": true, "whose": true, "these": true, "those": true, "this": true, "that": true, "every": true, "each": true, "all": true, "any": true, "some": true, "its": true, "their": true, "his": true, "her": true}

// LearnAnswerWords returns the answer words of the training questions
// (their texts, mentions, the mentions their plans anchor, their plans and
// their answers' types, "" for none): the nouns (the lexicon's) before a
// question's first anchor (leadNouns) in at least minAnswerWordQuestions questions,
// minAnswerWordShare of whose plans end with one step, the word's; a word
// that names a type (typesNamedLoosely) must name the type those
// questions ask for ("film", before the anchor only in "Every film X
// directed belongs to which genre?", names movies, not genres, though
// that frame gave it a lift towards genres). Nil without the lexicon.
func (p *LinkingPlanner) LearnAnswerWords(texts []string, ments [][]linking.LinkedMention, anchors [][]int, plans []*data.Plan, types []string) map[string]string {
	if p.names.lex == nil {
		return nil
	}
	n := map[string]int{}
	steps := map[string]map[string]int{}
	asked := map[string]map[string]int{}
	for qi, text := range texts {
		fs := finalSteps(plans[qi])
		if len(fs) == 0 {
			continue
		}
		for _, w := range p.leadNouns(text, ments[qi], anchors[qi]) {
			n[w]++
			if steps[w] == nil {
				steps[w], asked[w] = map[string]int{}, map[string]int{}
			}
			for _, s := range fs {
				steps[w][s]++
			}
			asked[w][types[qi]]++
		}
	}
	out := map[string]string{}
	for w, k := range n {
		if k < minAnswerWordQuestions {
			continue
		}
		best, bk := "", 0
		for s, c := range steps[w] {
			if c > bk || c == bk && s < best {
				best, bk = s, c
			}
		}
		if float64(bk) < minAnswerWordShare*float64(k) {
			continue
		}
		if slices.ContainsFunc(p.typesNamedLoosely(w), func(t string) bool { return float64(asked[w][t]) < minAnswerWordShare*float64(k) }) {
			continue
		}
		out[w] = best
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// answerMisses reports whether the first answer word of the question's
// lead (before the candidate's first anchor) names a step that ends none
// of the candidate's paths (AnchorConfig.AnswerWords). The first: English
// names what it asks for before it says how ("Which directors have cast
// X?": "cast" is an answer word too, from "Find the cast of ...").
func (p *LinkingPlanner) answerMisses(text string, ments []linking.LinkedMention, c *PlanCandidate, kinds map[string]string, read map[string]bool) bool {
	s := p.answerStep(text, ments, c, kinds, read)
	return s != "" && !slices.Contains(finalSteps(&c.Plan), s)
}

// leadRulesOut reports whether answer word w, naming step, is the object
// of a verb before it (past the question's first word: a word the
// lexicon has as a verb's form and not as a noun) while the question's
// lead words (LeadWords) give every node type step ends at a probability
// below minLeadTypeProb (AnchorConfig.AnswerWordsLead): "Who wrote the
// screenplay for X?" asks for a person, whatever "screenplay" (read
// "script", the answer word of "Which scripts did X write?", ending with
// <-written_by at films) names elsewhere; "List the performers ..." asks
// for what its answer word names, whatever "list the" asked for in the
// training.
func (p *LinkingPlanner) leadRulesOut(text string, ments []linking.LinkedMention, c *PlanCandidate, w, step string) bool {
	l := p.Cfg.Anchors.Lead
	if !p.Cfg.Anchors.AnswerWordsLead || l == nil || !p.verbBefore(text, w) {
		return false
	}
	lead := LeadWords(text, ments, c.Mentions)
	ends := p.stepEndTypes(step)
	for _, t := range ends {
		if l.Prob(lead, t) >= minLeadTypeProb {
			return false
		}
	}
	return len(ends) > 0
}

// verbBefore reports whether a word of text after its first and before
// the first w (lower case) is a verb's form and no noun in the lexicon,
// and no stop word ("wrote" in "Who wrote the screenplay ...", not "are"
// or "the").
func (p *LinkingPlanner) verbBefore(text, w string) bool {
	lex := p.names.lex
	if lex == nil {
		return false
	}
	words := linking.MentionWords(text)
	for i := 1; i < len(words); i++ {
		n := strings.ToLower(text[words[i].Start:words[i].End])
		if n == w {
			return false
		}
		if !index.IsStopword(n) && lex.IsVerbForm(n) && !lex.IsNoun(n) {
			return true
		}
	}
	return false
}

// stepEndTypes are the node types a relation step ("->directed_by",
// "<-written_by") ends at in the graph (graphops.Graph.RelationEnds,
// read off its edges once); none for a step the schema does not name.
func (p *LinkingPlanner) stepEndTypes(step string) []string {
	ends, _ := p.relStepTypes(data.PathStep{Rels: []data.RelStep{data.ParseRelStep(step)}}, false)
	var out []string
	for _, t := range ends {
		out = append(out, p.skb.Schema.NodeTypes[t])
	}
	return out
}

// answerStep is the step the first answer word of the question's lead
// (before the candidate's first anchor) names; with KindAnswerWords,
// where none stands there, the step a kind's word read there names
// (kindStep); or with TrailingAnswerWords, of a question with no noun
// before its first anchor, the first after its last anchor (trailNouns);
// "" for none. kinds are the words the question was read with that name
// a kind (readKinds).
func (p *LinkingPlanner) answerStep(text string, ments []linking.LinkedMention, c *PlanCandidate, kinds map[string]string, read map[string]bool) string {
	aw := p.Cfg.Anchors.AnswerWords
	if len(aw) == 0 {
		return ""
	}
	asked := "" // the type the question names as asked for, as typeConflict reads it
	if p.Cfg.Anchors.AskedAnswerWords {
		var verb askedVerb
		verb.t, verb.named = p.verbType(text, kinds)
		asked = p.namedAsked(text, ments, c, kinds, read, verb)
	}
	// A step that ends at no type asked for is no answer word's.
	fits := func(s string) bool {
		ends := p.stepEndTypes(s)
		return asked == "" || len(ends) == 0 || slices.Contains(ends, asked)
	}
	if s := p.whoseStep(text); s != "" {
		return s
	}
	// A type word that says what a mention is ("the comedy genre") is no
	// answer word (TypeAfterMention).
	text = p.withoutObjectSubject(p.withoutTypeAfterMentions(text, ments))
	words := p.leadNouns(text, ments, c.Mentions)
	if p.Cfg.Anchors.StatedLeads && statedLead(text, ments, c.Mentions) {
		words = nil
	}
	// An answer word in an asking clause is its request's object, no
	// other verb's (leadRulesOut).
	clause := false
	if p.Cfg.Anchors.ClauseAnswerWords && !slices.ContainsFunc(words, func(w string) bool { _, ok := aw[w]; return ok }) {
		words = p.clauseNouns(text, ments, c.Mentions)
		clause = len(words) > 0
	}
	if !slices.ContainsFunc(words, func(w string) bool { _, ok := aw[w]; return ok }) {
		if p.Cfg.Anchors.KindAnswerWords {
			if s := p.kindStep(text, ments, c, kinds); s != "" && fits(s) {
				return s
			}
		}
		if p.Cfg.Anchors.TrailingAnswerWords {
			words = p.trailNouns(text, ments, c.Mentions)
		}
	}
	for _, w := range words {
		if s, ok := aw[w]; ok {
			// "X from 2000 whose cast includes Y": what has the cast
			// is asked for, not the cast (WhoseRelatives).
			if p.Cfg.Anchors.WhoseRelatives && relativeWhose(text, w) {
				continue
			}
			if !clause && p.leadRulesOut(text, ments, c, w, s) {
				return ""
			}
			if !fits(s) {
				continue
			}
			return s
		}
	}
	return ""
}

// relativeWhose reports whether the first w (lower case) of text comes
// right after a "whose" that opens a relative clause: one with a word
// before it and no mark of a phrase's end between them (phraseMark),
// whose antecedent has what w names ("Features from 2000 whose cast
// includes X" asks for what has the cast). A "whose" opening the text or
// a phrase asks for an owner itself (whoseStep, possessorType).
func relativeWhose(text, w string) bool {
	words := linking.MentionWords(text)
	for i := 0; i < len(words); i++ {
		if !strings.EqualFold(text[words[i].Start:words[i].End], w) {
			continue
		}
		return i >= 2 && strings.EqualFold(text[words[i-1].Start:words[i-1].End], "whose") && !phraseMark(text[words[i-2].End:words[i-1].Start])
	}
	return false
}

// unknownWord reports whether w, as written, is a lower-case word of
// letters that the lexicon reads as no form of any lemma (Bases): a
// noun it lacks ("helmers", "biopics") is read, after a question word
// that asks with nouns, as the nouns it knows are (WhichUnknown). A
// capitalised word is more likely a name's.
func unknownWord(lex *lexicon.Lexicon, w string) bool {
	for _, r := range w {
		if !unicode.IsLower(r) {
			return false
		}
	}
	return w != "" && len(lex.Bases(w)) == 0
}

// unknownNoun reports whether word i of text is a word the lexicon knows
// in no form (unknownWord) followed by a verb or an auxiliary (WhichUnknown):
// "Which helmers directed ...". A verb that is a noun too ("Which giallo
// films ...") is more likely the noun an unknown modifier comes before.
func (p *LinkingPlanner) unknownNoun(text string, words []linking.Word, i int) bool {
	lex := p.names.lex
	if !p.Cfg.Anchors.WhichUnknown || i+1 >= len(words) || !unknownWord(lex, text[words[i].Start:words[i].End]) {
		return false
	}
	next := strings.ToLower(text[words[i+1].Start:words[i+1].End])
	return auxiliaries[next] || !index.IsStopword(next) && lex.IsVerbForm(next) && !lex.IsNoun(next)
}

// maxWhichNouns is how many nouns may follow a question word that asks
// with them before its subject verb (WhichVerbs: "Which film actors
// starred in X?").
const maxWhichNouns = 2

// subjectVerb is the verb of a question whose answers are its subject
// (SubjectVerbs): the word right after an opening question word that
// asks for one type (whType: "who" on movies-skb), or after an auxiliary
// that follows it, when the lexicon reads it as a verb and it is no stop
// word ("Who directed X?", "Who has acted in a movie alongside X?"), with
// its word index; "" and -1 otherwise ("Who did X direct?": the word
// after the auxiliary is X's).
func (p *LinkingPlanner) subjectVerb(text string) (string, int) {
	lex := p.names.lex
	if !p.Cfg.Anchors.SubjectVerbs || lex == nil {
		return "", -1
	}
	words := linking.MentionWords(text)
	o := p.opening(text, words)
	i := o + 1
	if p.whType(text) == "" {
		// With WhichVerbs, a question word and the nouns it asks with
		// ("Which actors appeared in films with X?") are the subject too.
		if !p.Cfg.Anchors.WhichVerbs || len(words)-o < 3 || !whWords[strings.ToLower(text[words[o].Start:words[o].End])] {
			return "", -1
		}
		for i < len(words) && i <= o+maxWhichNouns {
			w := strings.ToLower(text[words[i].Start:words[i].End])
			if index.IsStopword(w) || !(lex.IsNoun(w) || p.unknownNoun(text, words, i)) || i > o+1 && lex.IsVerbForm(w) {
				break
			}
			i++
		}
		if i == o+1 {
			return "", -1
		}
	}
	if i < len(words) && auxiliaries[strings.ToLower(text[words[i].Start:words[i].End])] {
		i++
	}
	if i >= len(words) {
		return "", -1
	}
	w := strings.ToLower(text[words[i].Start:words[i].End])
	if index.IsStopword(w) || !lex.IsVerbForm(w) {
		return "", -1
	}
	return w, i
}

// subjectAsked is the type the question names as the one it asks for
// when a question word and the nouns it asks with come before its subject
// verb (subjectVerb, WhichVerbs; WhichSubject): what those words name
// (askedTypeRead over the text up to the verb), or "" when they name
// none, and ok. A type word after the verb is its object or in its
// complement ("Which helmers directed the films X starred in?", "Which
// folks starred in the films X wrote?"): the subject verb's relation says
// what is asked (subjectVerbMisses). ok is false where there is no such
// subject verb, or a question word asks for one type (whType).
func (p *LinkingPlanner) subjectAsked(text string, kinds map[string]string, read map[string]bool) (t string, ok bool) {
	if !p.Cfg.Anchors.WhichSubject || p.whType(text) != "" {
		return "", false
	}
	_, i := p.subjectVerb(text)
	if i < 0 {
		return "", false
	}
	words := linking.MentionWords(text)
	if t, named := p.askedTypeRead(text[:words[i].End], kinds, read); named {
		return t, true
	}
	return "", true
}

// subjectRels are the relations the question's subject verb
// (subjectVerb) names alone (namedRelations), with the verb's word
// index; nil and -1 when it names none or several words' worth. Read
// once per question: subjectVerbMisses tests each candidate against it.
func (p *LinkingPlanner) subjectRels(text string, read map[string]bool) ([]string, int) {
	w, i := p.subjectVerb(text)
	if i < 0 {
		return nil, -1
	}
	named := p.namedRelations(w, read)
	if len(named) != 1 {
		return nil, -1
	}
	return named[0], i
}

// subjectVerbMisses reports whether no last step of c walks one of rels,
// the relations the subject verb at word at names (subjectRels), when
// the verb comes before c's first anchor.
func subjectVerbMisses(rels []string, at int, ments []linking.LinkedMention, c *PlanCandidate) bool {
	if at < 0 {
		return false
	}
	if first, _ := anchorSpan(ments, c.Mentions); first >= 0 && at >= first {
		return false
	}
	for _, path := range c.Plan.Paths {
		if n := len(path.Steps); n > 0 && slices.ContainsFunc(path.Steps[n-1].Rels, func(r data.RelStep) bool { return slices.Contains(rels, r.Rel) }) {
			return false
		}
	}
	return true
}

// coVerbMisses reports whether a path of c anchored on a co-participant
// of the subject verb at word at walks none of rels, the relations the
// verb names (subjectRels), by its first step (CoAnchors). An anchor
// right after "alongside", "together with", or "with" right after the
// verb does what the answers do: "Which actors appeared in films together
// with X?" asks for X's co-stars, whose films X appeared in too, not the
// cast of the films X directed. A "with" after a noun states what the
// answers' films have ("Who directed films with X?").
func (p *LinkingPlanner) coVerbMisses(text string, rels []string, at int, ments []linking.LinkedMention, c *PlanCandidate) bool {
	if !p.Cfg.Anchors.CoAnchors || at < 0 || len(rels) == 0 {
		return false
	}
	var words []linking.Word
	lower := func(i int) string { return strings.ToLower(text[words[i].Start:words[i].End]) }
	for pi, a := range c.Mentions {
		if a < 0 || a >= len(ments) || pi >= len(c.Plan.Paths) {
			continue
		}
		if words == nil {
			words = linking.MentionWords(text)
		}
		s := ments[a].TokStart
		co := s >= 1 && s <= len(words) && lower(s-1) == "alongside" ||
			s >= 2 && s <= len(words) && lower(s-1) == "with" && (lower(s-2) == "together" || s-2 == at)
		if !co {
			continue
		}
		if st := c.Plan.Paths[pi].Steps; len(st) == 0 || !slices.ContainsFunc(st[0].Rels, func(r data.RelStep) bool { return slices.Contains(rels, r.Rel) }) {
			return true
		}
	}
	return false
}

// typesNamedLoosely are the node types w names (wordType) or with a
// schema word in w's most frequent noun sense in the lexicon ("film":
// movie; FirstNounSynonym), with SynonymTypes or not.
func (p *LinkingPlanner) typesNamedLoosely(w string) []string {
	var out []string
	if t, _ := p.wordType(w); t != "" {
		out = append(out, t)
	}
	for t, words := range p.names.types {
		if slices.Contains(out, t) {
			continue
		}
		for _, s := range words {
			if p.names.lex.FirstNounSynonym(w, s) {
				out = append(out, t)
				break
			}
		}
	}
	slices.Sort(out)
	return out
}

// kindStep is the step that the first word of the question's lead
// (before the candidate's first anchor) read from a noun no training
// question used names (AnchorConfig.KindAnswerWords): the word it was
// read as names relations (namedRelations: "written", read off
// "writers" or "screenwriters"), the noun is a kind of a node type
// (readKinds: a writer is a person), and of the steps along those
// relations just one ends at that type in the data's edges
// (stepEndTypes: ->written_by, from films to people). A noun names
// what the question asks for, and its verb how it is reached: "Name the
// writers behind the films X appeared in" asks for the films'
// ->written_by, not for the cast of the films X wrote, which "written"
// alone leaves standing. A word whose relations end at its type by no
// step names none ("pictures", read "movies"); "" when no word names
// one, or when the first that does names more than one.
func (p *LinkingPlanner) kindStep(text string, ments []linking.LinkedMention, c *PlanCandidate, kinds map[string]string) string {
	first, _ := anchorSpan(ments, c.Mentions)
	if first < 0 || len(kinds) == 0 {
		return ""
	}
	words := linking.MentionWords(text)
	for i := 0; i < first && i < len(words); i++ {
		w := strings.ToLower(text[words[i].Start:words[i].End])
		kind, ok := kinds[w]
		if !ok {
			continue
		}
		var steps []string
		for _, rels := range p.namedRelations(w, map[string]bool{w: true}) {
			for _, r := range rels {
				for _, s := range []string{"->" + r, "<-" + r} {
					if slices.Contains(p.stepEndTypes(s), kind) && !slices.Contains(steps, s) {
						steps = append(steps, s)
					}
				}
			}
		}
		switch len(steps) {
		case 0:
			continue
		case 1:
			return steps[0]
		}
		return ""
	}
	return ""
}
