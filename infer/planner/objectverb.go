package planner

import (
	"fmt"
	"slices"
	"strings"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/data/index"
	"github.com/strata-retrieval/strata/graphops/linking"
)

// maxObjectLead is how many words may stand between an opening question
// word and the auxiliary of a question that asks for its verb's object
// ("What else did ...", "Which other films has ...").
const maxObjectLead = 3

// doHave are the auxiliaries that put a question's subject between
// themselves and its verb; a form of "be" there makes a passive or a
// copula ("What is X a type of?"), whose subject asks.
var doHave = map[string]bool{"did": true, "does": true, "do": true, "has": true, "have": true, "had": true}

// objectRule reads a question that asks for its verb's object
// (AnchorConfig.ObjectVerbs): an opening question word, within
// maxObjectLead words a do- or have-auxiliary, then the subject, which
// holds a candidate's first anchor after nouns and stop words alone,
// then the verb, the first word after that anchor the lexicon has as a
// verb's form, past nouns alone ("What else did the director of X
// direct?", "What did X star in that Y directed?", "What has X's
// director made?"). The answers are what the subject does: a
// candidate answers with the subject itself when a relation the
// subject's words name (namedRelations of the words between the
// auxiliary and the verb outside the candidate's anchors: "director") is
// walked by no step before its path's last, and misses the verb when a
// relation the verb names alone is walked by no path's last step ("Whose
// scripts has X directed?" asks for the owner of what the verb reaches:
// the verb's relation comes before the last step). With VerbFirst, where
// the subject's words name no relation, the subject is the anchor itself
// and the verb's relation is walked from it, by a path's first step:
// "Which stars has X directed?" asks for the cast of X's films, not for
// the directors of films X starred in; and with "with" right after the
// verb, by the last step too ("Who has X acted with?": X's co-stars). Read once per question
// (objectVerbRule) and once per anchoring.
type objectRule struct {
	p     *LinkingPlanner
	text  string
	read  map[string]bool
	words []linking.Word
	open  int // the opening question word's index (opening)
	aux   int // the auxiliary's word index
	// be: the auxiliary is a form of "be" right after a bare question
	// word (beAux), read for the bare reading alone.
	be   bool
	seen map[string]objectReading
	// asked is the type the opening question word asks for (whType),
	// read once, with ObjectBeyond; "" for none.
	asked string
}

// objectReading is what objectRule reads for one anchoring: the
// relations the verb names alone (none when it names none or several
// words' worth) and those the subject's words name; ok false where the
// anchoring leaves the question no such form.
type objectReading struct {
	verb    []string
	subject [][]string
	ok      bool
	// first: the subject names no relation, so the verb's relation is
	// walked from its anchor, by a path's first step (VerbFirst); with
	// "with" right after the verb, by its last step too ("Who has X
	// acted with?": the answers acted as well).
	first, with bool
	// bare: a bare question word opens the question (BareObject): the
	// verb's relation is walked by a path's first step and its last.
	bare bool
}

// objectVerbRule is the question's objectRule, nil where it has no
// auxiliary of that form or without ObjectVerbs.
func (p *LinkingPlanner) objectVerbRule(text string, read map[string]bool) *objectRule {
	words, open, aux := p.objectAux(text)
	be := false
	if aux < 0 {
		words, open, aux = p.beAux(text)
		be = true
	}
	if aux < 0 {
		return nil
	}
	o := &objectRule{p: p, text: text, read: read, words: words, open: open, aux: aux, be: be, seen: map[string]objectReading{}}
	if a := p.Cfg.Anchors; a.ObjectBeyond && a.BareObject && a.WhAsks {
		o.asked = p.whType(text)
	}
	return o
}

// beAux finds, with BeObject, a form of "be" right after a bare opening
// question word as objectAux finds a do- or have-auxiliary: "What was X
// acting in?" (a progressive, read as "What was X acted in?" where the
// training never said "acting") and "What was X directed by?" (a
// passive) both ask for what the verb's relation reaches from X, as
// "What has X acted in?" does (objectReading.bare); aux -1 for any other
// question.
func (p *LinkingPlanner) beAux(text string) (words []linking.Word, open, aux int) {
	a := p.Cfg.Anchors
	if !a.BeObject || !a.ObjectVerbs || !a.VerbFirst || !a.BareObject || p.names.lex == nil {
		return nil, 0, -1
	}
	words, o := p.whOpened(text)
	if o < 0 || !beForms[strings.ToLower(text[words[o+1].Start:words[o+1].End])] {
		return nil, 0, -1
	}
	return words, o, o + 1
}

// whOpened is text's words and the index of the question word that
// opens it (opening) with three or more words after it, -1 for none:
// where objectAux and beAux look for an auxiliary.
func (p *LinkingPlanner) whOpened(text string) ([]linking.Word, int) {
	words := linking.MentionWords(text)
	o := p.opening(text, words)
	if len(words)-o < 4 || !whWords[strings.ToLower(text[words[o].Start:words[o].End])] {
		return nil, -1
	}
	return words, o
}

// objectAux is text's words, the index of its opening question word
// (opening) and that of the do- or have-auxiliary within maxObjectLead
// words of it, -1 for none or without ObjectVerbs.
func (p *LinkingPlanner) objectAux(text string) (words []linking.Word, open, aux int) {
	if !p.Cfg.Anchors.ObjectVerbs || p.names.lex == nil {
		return nil, 0, -1
	}
	words, o := p.whOpened(text)
	if o < 0 {
		return nil, 0, -1
	}
	for i := o + 1; i <= o+maxObjectLead && i < len(words); i++ {
		if doHave[strings.ToLower(text[words[i].Start:words[i].End])] {
			return words, o, i
		}
	}
	// An embedded question says its subject and verb in a statement's
	// order ("Do you know what X directed?"): the auxiliary stands, unsaid,
	// at its question word.
	if o > 0 && o == p.embeddedOpening(text, words) {
		return words, o, o
	}
	return nil, 0, -1
}

// reading is what the question says for the anchoring anchors
// (objectReading), read once per anchoring.
func (o *objectRule) reading(ments []linking.LinkedMention, anchors []int) objectReading {
	k := fmt.Sprint(anchors)
	if r, ok := o.seen[k]; ok {
		return r
	}
	r := o.readFor(ments, anchors)
	o.seen[k] = r
	return r
}

func (o *objectRule) readFor(ments []linking.LinkedMention, anchors []int) objectReading {
	lex := o.p.names.lex
	first, _ := anchorSpan(ments, anchors)
	if first <= o.aux {
		return objectReading{}
	}
	lower := func(i int) string { return strings.ToLower(o.text[o.words[i].Start:o.words[i].End]) }
	inAnchor := func(i int) bool {
		return slices.ContainsFunc(anchors, func(a int) bool { return a >= 0 && a < len(ments) && ments[a].TokStart <= i && i < ments[a].TokEnd })
	}
	// The subject opens with nouns and stop words alone ("the director
	// of"; a word after a determiner is a noun, also one the question
	// was read with: "the written of"): "Who has been cast in X?" has
	// none.
	for i := o.aux + 1; i < first; i++ {
		if w := lower(i); !index.IsStopword(w) && (lex.IsVerbForm(w) || !lex.IsNoun(w)) && !determiners[lower(i-1)] {
			return objectReading{}
		}
		// After a form of "be", a preposition makes it a copula: "Who
		// was in the films X wrote?" asks for the cast of those films.
		if w := lower(i); o.be && index.IsStopword(w) && !determiners[w] {
			return objectReading{}
		}
	}
	// The verb comes after the subject's anchor.
	from := 0
	for _, a := range anchors {
		if a >= 0 && a < len(ments) && ments[a].TokStart == first {
			from = ments[a].TokEnd
		}
	}
	// Nouns alone may come between ("X's director direct"); a stop word
	// ends the subject with no verb ("had X as the director").
	at := -1
	for i := from; i < len(o.words) && at < 0; i++ {
		w := lower(i)
		switch {
		case inAnchor(i):
		case index.IsStopword(w):
			return objectReading{}
		case lex.IsVerbForm(w):
			at = i
		case !lex.IsNoun(w):
			return objectReading{}
		}
	}
	if at < 0 {
		return objectReading{}
	}
	r := objectReading{ok: true}
	if named := o.p.namedRelations(lower(at), o.read); len(named) == 1 {
		r.verb = named[0]
	}
	// "Whose N has X directed?" asks for the owner of what the verb
	// reaches: the verb's relation comes before the last step, as the
	// subject's does.
	if lower(o.open) == "whose" && r.verb != nil {
		r.verb, r.subject = nil, [][]string{r.verb}
	}
	// A noun right before the anchor says what the anchor is ("the
	// subject water travel"), not a relation to it.
	var b strings.Builder
	for i := o.aux + 1; i < at; i++ {
		if !inAnchor(i) && i != first-1 {
			b.WriteString(o.text[o.words[i].Start:o.words[i].End])
			b.WriteByte(' ')
		}
	}
	r.subject = append(r.subject, o.p.namedRelations(b.String(), o.read)...)
	// A subject that names no relation is the anchor itself; the verb's
	// relation is walked from it where the question names its object
	// with a noun ("Which stars has X directed?") or says "with" after
	// the verb ("Who has X acted with?"). A bare "What" ("What did X
	// write that Y directed?") asks for what the verb reaches.
	if o.p.Cfg.Anchors.VerbFirst && r.verb != nil && len(r.subject) == 0 {
		r.with = at+1 < len(o.words) && lower(at+1) == "with"
		for i := o.open + 1; i < o.aux && !r.first; i++ {
			w := lower(i)
			r.first = !index.IsStopword(w) && lex.IsNoun(w)
		}
		r.bare = o.p.Cfg.Anchors.BareObject && (o.aux == o.open+1 || o.aux == o.open)
		r.first = r.first || r.with || r.bare
	}
	if o.be && !r.bare {
		return objectReading{}
	}
	return r
}

// misses reports whether candidate c answers with the question's subject
// or walks no relation its verb names last (objectRule); false where c's
// anchoring leaves the question no such form.
func (o *objectRule) misses(ments []linking.LinkedMention, c *PlanCandidate) bool {
	if o == nil {
		return false
	}
	r := o.reading(ments, c.Mentions)
	if !r.ok {
		return false
	}
	walks := func(steps []data.PathStep, rels []string) bool {
		return slices.ContainsFunc(steps, func(s data.PathStep) bool {
			return slices.ContainsFunc(s.Rels, func(r data.RelStep) bool { return slices.Contains(rels, r.Rel) })
		})
	}
	if r.verb != nil && !slices.ContainsFunc(c.Plan.Paths, func(path data.Path) bool {
		if r.first {
			if len(path.Steps) == 0 || !walks(path.Steps[:1], r.verb) {
				return false
			}
			last := walks(path.Steps[len(path.Steps)-1:], r.verb)
			if r.bare && !r.with && o.beyond(path) {
				return !last
			}
			return !r.with && !r.bare || last
		}
		return len(path.Steps) > 0 && walks(path.Steps[len(path.Steps)-1:], r.verb)
	}) {
		return true
	}
	for _, rels := range r.subject {
		if !slices.ContainsFunc(c.Plan.Paths, func(path data.Path) bool {
			return len(path.Steps) > 1 && walks(path.Steps[:len(path.Steps)-1], rels)
		}) {
			return true
		}
	}
	return false
}

// beyond reports whether the opening question word asks for a type
// (objectRule.asked) that path's first step, the verb's, reaches no node
// of (ObjectBeyond): the answers are what the verb's object leads to.
func (o *objectRule) beyond(path data.Path) bool {
	return o.asked != "" && !slices.Contains(o.p.stepEndTypes(path.Steps[0].Token()), o.asked)
}

// verbRels are the relations the verb names for candidate c's anchoring
// (objectReading) where they end the plan, nil for none and where the
// verb's relation is walked first (objectReading.first).
func (o *objectRule) verbRels(ments []linking.LinkedMention, c *PlanCandidate) []string {
	if o == nil {
		return nil
	}
	if r := o.reading(ments, c.Mentions); !r.first || r.with {
		return r.verb
	}
	return nil
}

// withoutObjectSubject is text with its words from the auxiliary on
// blanked in a question that has an objectRule's auxiliary: its answer
// words stand before ("director" in "What else did the director of X
// direct?" names the subject, not the answers). text itself for any
// other; the same length either way.
func (p *LinkingPlanner) withoutObjectSubject(text string) string {
	if words, _, aux := p.objectAux(text); aux >= 0 {
		return text[:words[aux].Start] + strings.Repeat(" ", len(text)-words[aux].Start)
	}
	return text
}

// whoseStep is the step that ends the plan of a question that asks for
// its verb's object with "whose" and an answer word (objectAux): the
// word's step walked the other way, to the owner of what the word names
// ("Whose scripts has X directed?": "script", <-written_by from a writer
// to the films, asks for the writers, ->written_by); "" for any other.
func (p *LinkingPlanner) whoseStep(text string) string {
	words, o, aux := p.objectAux(text)
	if aux < o+2 || !strings.EqualFold(text[words[o].Start:words[o].End], "whose") {
		return ""
	}
	s, ok := p.Cfg.Anchors.AnswerWords[strings.ToLower(text[words[o+1].Start:words[o+1].End])]
	if !ok {
		return ""
	}
	if st := data.ParseRelStep(s); st.Dir != data.Undirected {
		return st.Reverse().String()
	}
	return ""
}
