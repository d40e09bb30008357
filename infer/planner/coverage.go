package planner

import (
	"cmp"
	"maps"
	"math"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/strata-retrieval/strata/data/index"
	"github.com/strata-retrieval/strata/data/lexicon"
	"github.com/strata-retrieval/strata/graphops"
	"github.com/strata-retrieval/strata/graphops/linking"
)

// Minimum occurrences of a mention's text in the training questions before
// its anchor rate can make it weak (LearnWeakMentions).
const minWeakMentionQuestions = 3

// LearnWeakMentions returns what makes a mention count for CoverMentions,
// from the training questions' mentions (ments) and the indexes of those
// their mined plans anchor on (anchors; a mention overlapping an anchor
// counts as anchoring: "the comedy" with "comedy"). types are the node
// types (typeOf) whose mentions anchored at least half of the time: a
// person's name, a genre, not a film title ("What", "Up") nor, on WordNet,
// a synset's lemma, which most words of a question are. weak are the
// texts (lower case) found in at least minWeakMentionQuestions questions
// that anchored in fewer than half of them ("what", a year stated as an
// attribute). Both sorted.
func LearnWeakMentions(ments [][]linking.LinkedMention, anchors [][]int, typeOf func(v uint32) string) (weak, types []string) {
	seen, anchored := mentionAnchorCounts(ments, anchors)
	tseen, tanchored := typeAnchorCounts(ments, anchors, typeOf, 1)
	for t, n := range seen {
		if n >= minWeakMentionQuestions && 2*anchored[t] < n {
			weak = append(weak, t)
		}
	}
	for t, n := range tseen {
		if 2*tanchored[t] >= n {
			types = append(types, t)
		}
	}
	slices.Sort(weak)
	slices.Sort(types)
	return weak, types
}

// LearnMultiwordTypes returns the node types (sorted) whose mentions of
// two or more words in the training questions (ments) anchored their
// mined plans (anchors; a mention overlapping an anchor counts, as for
// LearnWeakMentions) at least half of the time, borne out: the lower end
// of the share's 95% Wilson interval is at least a half. On WordNet a
// lemma of one word is most words of a question, but one of two or more
// ("dining room", "cut of meat") is mostly what the question is about
// (noun.artifact: 359 of 492); on movies-skb a film's title of two words
// anchored 37 of 64 times (the films "French Film", "The Comedy" are
// frame words too), which bears out nothing, and a person's name is
// strong anyway (LearnWeakMentions' types).
func LearnMultiwordTypes(ments [][]linking.LinkedMention, anchors [][]int, typeOf func(v uint32) string) []string {
	seen, anchored := typeAnchorCounts(ments, anchors, typeOf, 2)
	var out []string
	for t, n := range seen {
		if wilsonLower(anchored[t], n) >= 0.5 {
			out = append(out, t)
		}
	}
	slices.Sort(out)
	return out
}

// typeAnchorCounts counts, per node type (typeOf), the training
// questions' mentions of at least minWords words naming a node of it
// (each type once per mention) and those that anchored the mined plan or
// overlapped an anchor (anchorsOverlap).
func typeAnchorCounts(ments [][]linking.LinkedMention, anchors [][]int, typeOf func(v uint32) string, minWords int) (seen, anchored map[string]int) {
	seen, anchored = map[string]int{}, map[string]int{}
	for qi, ms := range ments {
		for mi, m := range ms {
			if m.TokEnd-m.TokStart < minWords {
				continue
			}
			a := anchorsOverlap(anchors[qi], ms, mi)
			mt := map[string]bool{}
			for _, n := range m.Nodes {
				mt[typeOf(n.Node)] = true
			}
			for t := range mt {
				seen[t]++
				if a {
					anchored[t]++
				}
			}
		}
	}
	return seen, anchored
}

// wilsonLower is the lower end of the 95% Wilson score interval of the
// share k of n (0 for n = 0).
func wilsonLower(k, n int) float64 {
	if n == 0 {
		return 0
	}
	const z = 1.959964
	p, fn := float64(k)/float64(n), float64(n)
	return (p + z*z/(2*fn) - z*math.Sqrt(p*(1-p)/fn+z*z/(4*fn*fn))) / (1 + z*z/fn)
}

// minNonAnchorQuestions is how many training questions a mention's text
// must come in, never anchoring, to be a non-anchor (LearnNonAnchors).
const minNonAnchorQuestions = 5

// maxNonAnchorShare is the share of its training questions a non-anchor
// may have anchored: mined plans are not the questions' own, and one of
// WordNet's 118 training questions "Among the adjectives similar to 'X',
// ..." was mined with "adjectives" as an anchor.
const maxNonAnchorShare = 0.02

// A text found in at least manyNonAnchorQuestions training questions is a
// non-anchor when their plans anchored it in at most maxManyNonAnchorShare
// of them: the more questions a word asks with, the more of the miner's
// slips it carries. movies-skb's "What" is the title of a comedy, and the
// miner explains 54 of 790 "What genre is common to every movie X starred
// in?"-like questions by that film's genre in one step (a name the
// question is about anchors 25% of its questions or more: genres 60-70%,
// "common", also a title, 25%).
const (
	manyNonAnchorQuestions = 100
	maxManyNonAnchorShare  = 0.10
)

// nonAnchorShare reports whether a text found in n training questions and
// anchored in a of them anchors seldom enough to be a non-anchor.
func nonAnchorShare(n, a int) bool {
	return n >= minNonAnchorQuestions && float64(a) <= maxNonAnchorShare*float64(n) ||
		n >= manyNonAnchorQuestions && float64(a) <= maxManyNonAnchorShare*float64(n)
}

// LearnNonAnchors returns the mention texts (lower case, sorted) found
// unquoted in at least minNonAnchorQuestions training questions (texts[i]
// with mentions ments[i]) whose plans anchored on them (or on a mention
// overlapping them) in at most maxNonAnchorShare of those questions (in
// at least manyNonAnchorQuestions, at most maxManyNonAnchorShare), and
// never quoted: the words a question asks with ("things", "kinds",
// "used"), which on WordNet name nodes too; a
// quoted word is a value the question states ("defined using the word
// 'purple'"), and the same word may well anchor another question. A
// candidate anchored on one competes only when every other is
// (AnchorConfig.NonAnchors).
//
// With norms (AnchorConfig.NonAnchorNorms), a text is counted in its
// singular form (nonAnchorKey: "terms" as "term") and only where it is
// unquoted: a quoted word states a value or names the word a question
// asks about ("What does 'term' refer to ...?"), which says nothing of
// how the question's own words anchor; the ruling out skips quoted
// mentions in turn (nonAnchorText).
func LearnNonAnchors(texts []string, ments [][]linking.LinkedMention, anchors [][]int, norms bool) []string {
	var seen, anchored map[string]int
	quoted := map[string]bool{}
	if norms {
		seen, anchored = mentionAnchorCountsBy(ments, anchors, func(qi int, m *linking.LinkedMention) (string, bool) {
			return nonAnchorKey(m.Text), !quotedMention(texts[qi], m)
		})
	} else {
		seen, anchored = mentionAnchorCounts(ments, anchors)
		for qi, ms := range ments {
			for mi := range ms {
				if quotedMention(texts[qi], &ms[mi]) {
					quoted[strings.ToLower(ms[mi].Text)] = true
				}
			}
		}
	}
	var out []string
	for t, n := range seen {
		if nonAnchorShare(n, anchored[t]) && !quoted[t] {
			out = append(out, t)
		}
	}
	slices.Sort(out)
	return out
}

// mentionAnchorCounts counts, per mention text (lower case), the training
// questions it comes in and those whose plan anchors on it or on a
// mention overlapping it ("the comedy" with "comedy").
func mentionAnchorCounts(ments [][]linking.LinkedMention, anchors [][]int) (seen, anchored map[string]int) {
	return mentionAnchorCountsBy(ments, anchors, func(_ int, m *linking.LinkedMention) (string, bool) {
		return strings.ToLower(m.Text), true
	})
}

// mentionAnchorCountsBy is mentionAnchorCounts with the mentions keyed by
// key (of question qi's mention m), which may leave a mention uncounted.
func mentionAnchorCountsBy(ments [][]linking.LinkedMention, anchors [][]int, key func(qi int, m *linking.LinkedMention) (string, bool)) (seen, anchored map[string]int) {
	seen, anchored = map[string]int{}, map[string]int{}
	for qi, ms := range ments {
		counted := map[string]bool{}
		for mi := range ms {
			t, ok := key(qi, &ms[mi])
			if !ok || counted[t] {
				continue
			}
			counted[t] = true
			seen[t]++
			if anchorsOverlap(anchors[qi], ms, mi) {
				anchored[t]++
			}
		}
	}
	return seen, anchored
}

// anchorsOverlap reports whether one of the anchor mentions overlaps
// mention mi of ms.
func anchorsOverlap(anchors []int, ms []linking.LinkedMention, mi int) bool {
	return slices.ContainsFunc(anchors, func(a int) bool { return a >= 0 && a < len(ms) && overlaps(&ms[a], &ms[mi]) })
}

// ruledOutAnchor reports whether a candidate anchored on mention m is
// ruled out for it: m's text is a non-anchor (NonAnchors) or m is written
// in a non-anchor form (NonAnchorForms).
func (p *LinkingPlanner) ruledOutAnchor(text string, m *linking.LinkedMention) bool {
	return p.nonAnchorText(text, m) || p.nonAnchorForm(text, m)
}

// nonAnchorText reports whether m's text is one the training questions
// never anchored (NonAnchors); with NonAnchorNorms, in its singular form
// and unquoted only.
func (p *LinkingPlanner) nonAnchorText(text string, m *linking.LinkedMention) bool {
	if p.Cfg.Anchors.NonAnchorNorms && quotedMention(text, m) {
		return false
	}
	return p.isNonAnchor(m.Text)
}

// isNonAnchor reports whether a mention's text t is a non-anchor's
// (NonAnchors), in the key the config learned them by.
func (p *LinkingPlanner) isNonAnchor(t string) bool {
	if p.Cfg.Anchors.NonAnchorNorms {
		t = nonAnchorKey(t)
	} else {
		t = strings.ToLower(t)
	}
	_, ok := slices.BinarySearch(p.Cfg.Anchors.NonAnchors, t)
	return ok
}

// nonAnchorKey is the key NonAnchorNorms learns a mention's text by: its
// words in their singular forms (linking.Word.Norm), joined by spaces.
func nonAnchorKey(t string) string {
	ws := linking.MentionWords(t)
	parts := make([]string, len(ws))
	for i, w := range ws {
		parts[i] = w.Norm
	}
	return strings.Join(parts, " ")
}

// anchoredOnNonAnchor reports whether one of c's anchor mentions is a
// text the training questions never anchored (NonAnchors).
func (p *LinkingPlanner) anchoredOnNonAnchor(text string, ments []linking.LinkedMention, c *PlanCandidate) bool {
	return anchoredOn(ments, c, func(m *linking.LinkedMention) bool { return p.nonAnchorText(text, m) })
}

// anchoredOn reports whether one of c's anchor mentions holds for f.
func anchoredOn(ments []linking.LinkedMention, c *PlanCandidate, f func(*linking.LinkedMention) bool) bool {
	return slices.ContainsFunc(c.Mentions, func(a int) bool { return a >= 0 && a < len(ments) && f(&ments[a]) })
}

// Forms a question may write a mention in that the training questions
// may never have anchored (LearnNonAnchorForms), read off the question's
// text and the general English lexicon, naming no data set's words.
const (
	// FormLeadVerb: the question's first word, unquoted, a verb's base
	// form in the lexicon: the verb of a request ("Tell me ...", "Name
	// ...", "Find ..."), which on WordNet names nodes too ("Tell": a
	// mound, William Tell).
	FormLeadVerb = "lead verb"
	// FormHeadOf: a mention followed by "of", the head of a noun phrase
	// whose complement names the thing ("type of cuisine", "part of
	// external ear", "meaning of 'odor'"), which WordNet's training
	// questions never anchored and which names nodes there ("type"); or
	// by a last "of", the relation a question asks along ("What is dhow
	// made up of?", where "made up" names an adjective).
	FormHeadOf = "head of"
	// FormInCompound: a mention that is a part of a hyphened word and not
	// all of it ("near" in "near-synonyms", "real" in "real-world"): the
	// compound is one word, whose meaning its part does not name.
	FormInCompound = "in compound"
	// FormPassive: a one-word mention right after a form of "be" that
	// the lexicon reads as an inflection of a verb ("used" in "when it is
	// used for", "What vocabulary is used in X?"): the verb of a passive,
	// which WordNet's training questions never anchored and which names
	// an adjective there ("used", similar to "secondhand").
	FormPassive = "passive"
	// FormRelativeVerb: a mention right after a relative pronoun ("that",
	// "which", "who") whose first word the lexicon reads as an inflection
	// of a verb ("falls" in "the sense that falls under X", "belongs" in
	// "a particle that belongs to X"): the verb of a relative clause,
	// which names nodes on WordNet ("falls": autumn, "falls under": a
	// verb of being included).
	FormRelativeVerb = "relative verb"
	// FormInPassage: a mention inside a quotation that holds more words
	// than it ("resist" in 'glossed "resist or withstand wear"'): the
	// words of a passage quoted to be matched, a definition or a line,
	// not a name (a quoted name is the whole quotation: "Of the meanings
	// of 'wolf'"). WordNet's training quotes glosses and never anchors
	// in them. It rules out a template's first anchor only
	// (anchoredInForm).
	FormInPassage = "in passage"
)

// relativePronouns open the relative clause whose verb FormRelativeVerb
// finds: English, no data set's words.
var relativePronouns = map[string]bool{"that": true, "which": true, "who": true}

// beForms are the forms of "be" a passive's participle follows
// (FormPassive): English, no data set's words.
var beForms = map[string]bool{"be": true, "is": true, "are": true, "was": true, "were": true, "been": true, "being": true, "am": true}

// mentionForms returns the forms (FormLeadVerb, FormHeadOf,
// FormInCompound, FormPassive) mention m of text is written in, read as
// planning with a reads them (nil: as learning NonAnchorForms does, as
// before the rules below): with ArgumentCompounds, a mention that opens
// an argument compound (argumentCompound) is in none of a compound; with
// RelativeAntecedents, a relative verb follows a pronoun that follows a
// word of its own (relativeVerb).
func mentionForms(lex *lexicon.Lexicon, text string, m *linking.LinkedMention, a *AnchorConfig) []string {
	args := a != nil && a.ArgumentCompounds
	antecedent := a != nil && a.RelativeAntecedents
	nounAntecedent := antecedent && a.NounAntecedents
	var out []string
	if inPassage(text, m) {
		out = append(out, FormInPassage)
	}
	if quotedMention(text, m) {
		return out
	}
	if m.TokStart == 0 && m.TokEnd == 1 && lex.IsVerb(strings.ToLower(m.Text)) {
		out = append(out, FormLeadVerb)
	}
	if m.End < len(text) && headOf(text[m.End:]) {
		out = append(out, FormHeadOf)
	}
	if inCompound(text, m) && !(args && argumentCompound(lex, text, m, a.KindCompounds)) {
		out = append(out, FormInCompound)
	}
	if m.TokEnd-m.TokStart == 1 && passive(lex, text, m) {
		out = append(out, FormPassive)
	}
	if relativeVerb(lex, text, m, antecedent, nounAntecedent) {
		out = append(out, FormRelativeVerb)
	}
	return out
}

// inPassage reports whether mention m of text lies inside one of its
// quotations (quotedSpans) that holds more words than m
// (FormInPassage).
func inPassage(text string, m *linking.LinkedMention) bool {
	for _, q := range quotedSpans(text, false) {
		if q[0] <= m.Start && m.End <= q[1] {
			return len(linking.MentionWords(text[q[0]:q[1]])) > len(linking.MentionWords(m.Text))
		}
	}
	return false
}

// relativeVerb reports whether mention m of text comes right after a
// relative pronoun (relativePronouns) that does not open the text and
// its first word is an inflection of a verb, not its base form
// (FormRelativeVerb). With antecedent, the pronoun follows a word that
// is no stop word, the noun it relates to ("the sense that falls under
// X"): after a preposition it asks ("\"cake\" is the name of which
// baked goods?": a noun follows, whose first word may be a verb's form).
// With nounAntecedent, that word must also be one the lexicon has as a
// noun: after a verb alone it asks too ("The word \"cake\" denotes which
// baked goods?").
func relativeVerb(lex *lexicon.Lexicon, text string, m *linking.LinkedMention, antecedent, nounAntecedent bool) bool {
	pron := letterRunBefore(text, m.Start)
	if !relativePronouns[strings.ToLower(pron)] {
		return false
	}
	// A pronoun that opens the question asks ("Which looking at is a
	// word from X?": a noun follows).
	at := strings.LastIndex(text[:m.Start], pron)
	if !strings.ContainsFunc(text[:at], unicode.IsLetter) {
		return false
	}
	if prev := strings.ToLower(letterRunBefore(text, at)); antecedent && index.IsStopword(prev) || nounAntecedent && prev != "" && !lex.IsNoun(prev) {
		return false
	}
	w := strings.ToLower(m.Text)
	if i := strings.IndexFunc(w, func(r rune) bool { return !unicode.IsLetter(r) }); i >= 0 {
		w = w[:i]
	}
	return w != "" && slices.ContainsFunc(lex.Bases(w), func(b string) bool { return b != w && lex.IsVerb(b) })
}

// doForms are the forms of "do" that support a question's inversion
// (questionAuxiliary): English, no data set's words.
var doForms = map[string]bool{"do": true, "does": true, "did": true}

// questionAuxiliary reports whether one-word mention m of text, unquoted,
// is a form of "do" (doForms) after an English question word (whWords)
// of its clause (no ".", ";", ":", "?" or "!" between them) and before
// a word, not right after "to": the auxiliary of a question's inversion
// ("What do you get two rungs down from X?", "Which vaccine does the
// dictionary tag brand name?"), which says nothing of what is asked
// about, though WordNet names nodes with it ("do", a syllable; "does",
// female deer; AnchorConfig.Auxiliaries).
func questionAuxiliary(text string, m *linking.LinkedMention) bool {
	if m.TokEnd-m.TokStart != 1 || !doForms[strings.ToLower(m.Text)] || quotedMention(text, m) {
		return false
	}
	if !strings.ContainsFunc(text[m.End:], unicode.IsLetter) || strings.EqualFold(letterRunBefore(text, m.Start), "to") {
		return false
	}
	clause := text[:m.Start]
	if i := strings.LastIndexAny(clause, ".;:?!"); i >= 0 {
		clause = clause[i+1:]
	}
	return slices.ContainsFunc(linking.MentionWords(clause), func(w linking.Word) bool { return whWords[w.Norm] })
}

// letterRunBefore is the run of letters that ends text[:at] past its spaces
// ("" when a space is followed by no letter).
func letterRunBefore(text string, at int) string {
	before := strings.TrimRight(text[:at], " \t")
	i := len(before)
	for i > 0 {
		r, size := utf8.DecodeLastRuneInString(before[:i])
		if !unicode.IsLetter(r) {
			break
		}
		i -= size
	}
	return before[i:]
}

// passive reports whether one-word mention m of text comes right after a
// form of "be" (beForms) and is an inflection of a verb, not its base
// form: the participle of a passive (FormPassive).
func passive(lex *lexicon.Lexicon, text string, m *linking.LinkedMention) bool {
	if !beForms[strings.ToLower(letterRunBefore(text, m.Start))] {
		return false
	}
	w := strings.ToLower(m.Text)
	return slices.ContainsFunc(lex.Bases(w), func(b string) bool { return b != w && lex.IsVerb(b) })
}

// inCompound reports whether mention m of text is joined by a hyphen to
// a letter or digit before or after it: a part of a hyphened word
// (FormInCompound).
func inCompound(text string, m *linking.LinkedMention) bool {
	if m.Start > 1 && text[m.Start-1] == '-' {
		if r, _ := utf8.DecodeLastRuneInString(text[:m.Start-1]); unicode.IsLetter(r) || unicode.IsDigit(r) {
			return true
		}
	}
	if m.End+1 < len(text) && text[m.End] == '-' {
		if r, _ := utf8.DecodeRuneInString(text[m.End+1:]); unicode.IsLetter(r) || unicode.IsDigit(r) {
			return true
		}
	}
	return false
}

// argumentCompound reports whether mention m of text, no part of a
// hyphened word before it, is joined by a hyphen to a word after it that
// takes it as its argument: "like" ("geared-like": like geared) or an
// inflection of a verb, not its base form ("X-directed titles": titles X
// directed), where it names what it names alone, unlike a word that
// modifies the rest ("near" in "near-synonyms";
// AnchorConfig.ArgumentCompounds). With kinds, a noun the lexicon has as
// "kind" or one link from it is such a word too ("impervious-type
// adjectives": adjectives of impervious's type; "sort", "variety";
// AnchorConfig.KindCompounds).
func argumentCompound(lex *lexicon.Lexicon, text string, m *linking.LinkedMention, kinds bool) bool {
	if m.Start > 0 && text[m.Start-1] == '-' || m.End+1 >= len(text) || text[m.End] != '-' {
		return false
	}
	rest := text[m.End+1:]
	end := strings.IndexFunc(rest, func(r rune) bool { return !unicode.IsLetter(r) })
	if end < 0 {
		end = len(rest)
	}
	w := strings.ToLower(rest[:end])
	if end < len(rest) && rest[end] == '-' {
		return false // one part of a longer compound ("X-like-ish")
	}
	if kinds && w != "" && lex.IsNoun(w) && lex.Distance(w, "kind") <= lexicon.Linked {
		return true
	}
	return w == "like" || w != "" && slices.ContainsFunc(lex.Bases(w), func(b string) bool { return b != w && lex.IsVerb(b) })
}

// headOf reports whether rest, the text after a mention, goes on with
// the word "of": before more words ("type of cuisine") or at the end of
// the question ("What is dhow made up of?"), where the mention is the
// relation the question asks along, not its anchor.
func headOf(rest string) bool {
	r := strings.TrimLeft(rest, " \t")
	if len(r) == len(rest) || len(r) < 2 || !strings.EqualFold(r[:2], "of") {
		return false
	}
	after := r[2:]
	if after == "" {
		return true
	}
	c, _ := utf8.DecodeRuneInString(after)
	return !unicode.IsLetter(c) && !unicode.IsDigit(c) && c != '\'' && c != '-' && c != '_'
}

// LearnNonAnchorForms returns the forms (sorted) in which at least
// minNonAnchorQuestions training questions (texts[i] with mentions
// ments[i] and anchor mentions anchors[i]) wrote a mention, at most
// maxNonAnchorShare of them anchoring on such a mention itself. A
// candidate anchored on a mention in one of them is ruled out when another
// is not (AnchorConfig.NonAnchorForms).
func LearnNonAnchorForms(lex *lexicon.Lexicon, texts []string, ments [][]linking.LinkedMention, anchors [][]int) []string {
	seen, anchored := map[string]int{}, map[string]int{}
	for qi, ms := range ments {
		has, anch := map[string]bool{}, map[string]bool{}
		for mi := range ms {
			for _, f := range mentionForms(lex, texts[qi], &ms[mi], nil) {
				has[f] = true
				anch[f] = anch[f] || slices.Contains(anchors[qi], mi)
			}
		}
		for f := range has {
			seen[f]++
			if anch[f] {
				anchored[f]++
			}
		}
	}
	var out []string
	for f, n := range seen {
		if n >= minNonAnchorQuestions && float64(anchored[f]) <= maxNonAnchorShare*float64(n) {
			out = append(out, f)
		}
	}
	slices.Sort(out)
	return out
}

// anchoredInForm reports whether one of c's anchor mentions is written in
// one of AnchorConfig.NonAnchorForms or, with Auxiliaries, is a question's
// auxiliary (questionAuxiliary). A mention in a quoted passage
// (FormInPassage) is ruled out as the anchor of a template's first path,
// the one the question names outside its quotations, but not of a later
// one: a definition may name the whole an answer is part of ("the urban
// center that is 'a city in central Chile'").
func (p *LinkingPlanner) anchoredInForm(text string, ments []linking.LinkedMention, c *PlanCandidate) bool {
	for k, a := range c.Mentions {
		if a >= 0 && a < len(ments) && p.nonAnchorFormAt(text, &ments[a], k > 0) {
			return true
		}
	}
	return false
}

// nonAnchorForm reports whether mention m of text is written in one of
// AnchorConfig.NonAnchorForms or, with Auxiliaries, is a question's
// auxiliary (questionAuxiliary).
func (p *LinkingPlanner) nonAnchorForm(text string, m *linking.LinkedMention) bool {
	return p.nonAnchorFormAt(text, m, false)
}

// nonAnchorFormAt is nonAnchorForm, with passages FormInPassage aside.
func (p *LinkingPlanner) nonAnchorFormAt(text string, m *linking.LinkedMention, passages bool) bool {
	if p.Cfg.Anchors.Auxiliaries && questionAuxiliary(text, m) {
		return true
	}
	forms := p.Cfg.Anchors.NonAnchorForms
	if len(forms) == 0 {
		return false
	}
	lex, err := lexicon.WordNet()
	if err != nil {
		return false
	}
	return slices.ContainsFunc(mentionForms(lex, text, m, p.Cfg.Anchors), func(f string) bool {
		return slices.Contains(forms, f) && !(passages && f == FormInPassage)
	})
}

// LearnQuotedSlots returns the template paths, (template, path) sorted,
// whose anchor the training questions quoted: at least
// minNonAnchorQuestions of them (texts[i] with mentions ments[i], asked
// with template tmpl[i]) anchored the path (anchors[i][k], the mention of
// path k, -1 for none) and at most maxNonAnchorShare of those anchors
// were unquoted. WordNet's training asks for an adjective's near-synonyms
// only of a quoted one ("similar to 'induced'"); a slot whose anchor is
// a name or a title (the movies') is not among them.
func LearnQuotedSlots(texts []string, ments [][]linking.LinkedMention, tmpl []int, anchors [][]int) [][2]int {
	type count struct{ n, unquoted int }
	counts := map[[2]int]*count{}
	for qi, as := range anchors {
		for k, a := range as {
			if a < 0 || a >= len(ments[qi]) {
				continue
			}
			s := [2]int{tmpl[qi], k}
			c := counts[s]
			if c == nil {
				c = &count{}
				counts[s] = c
			}
			c.n++
			if !quotedMention(texts[qi], &ments[qi][a]) {
				c.unquoted++
			}
		}
	}
	var out [][2]int
	for s, c := range counts {
		if c.n >= minNonAnchorQuestions && float64(c.unquoted) <= maxNonAnchorShare*float64(c.n) {
			out = append(out, s)
		}
	}
	slices.SortFunc(out, func(a, b [2]int) int { return cmp.Or(cmp.Compare(a[0], b[0]), cmp.Compare(a[1], b[1])) })
	return out
}

// unquotedSlot reports whether candidate c anchors a quoted slot
// (AnchorConfig.QuotedSlots) on an unquoted mention; with QuotedRival,
// only where the question quotes another mention that may anchor the
// slot (quotedRival).
func (p *LinkingPlanner) unquotedSlot(text string, ments []linking.LinkedMention, c *PlanCandidate) bool {
	qs := p.Cfg.Anchors.QuotedSlots
	for k, a := range c.Mentions {
		if a < 0 || a >= len(ments) || quotedMention(text, &ments[a]) {
			continue
		}
		if slices.Contains(qs, [2]int{c.Template, k}) && (!p.Cfg.Anchors.QuotedRival || p.quotedRival(text, ments, c.Template, k, a)) {
			return true
		}
	}
	return false
}

// quotedRival reports whether a quoted mention of text other than
// mention a may anchor path k of template ti (it names a node of the
// path's anchor type that has the path's first hop). A question that
// quotes a word the slot may take marks its anchor with quotes ("Which
// adjectives mean nearly the same as 'covered'?", not "same"); one that
// quotes none, or only words the slot cannot take, is written without
// the training's habit of quoting the slot ("near synonyms of inebriated
// defined with "influence"").
func (p *LinkingPlanner) quotedRival(text string, ments []linking.LinkedMention, ti, k, a int) bool {
	t := graphops.AnyTypeID
	if id, ok := p.skb.Schema.NodeTypeID(p.Cfg.Templates[ti][k].Anchor()); ok {
		t = id
	}
	var buf []uint32
	for j := range ments {
		if j == a || !quotedMention(text, &ments[j]) {
			continue
		}
		var nodes []uint32
		if nodes, _, buf = p.compatNodes(&ments[j], t, p.hops[ti][k], buf); len(nodes) > 0 {
			return true
		}
	}
	return false
}

func overlaps(a, b *linking.LinkedMention) bool {
	return a.TokStart < b.TokEnd && b.TokStart < a.TokEnd
}

// unexplained counts the mentions of the question that candidate c leaves
// unexplained: spans of overlapping mentions with a strong mention (one
// naming a node of an anchor type, AnchorConfig.AnchorTypes, and not weak,
// WeakMentions) that none of c's anchors explains (covers, or overlaps
// naming the same node), that names no node c reaches, and whose text the
// document of c's first answer does not contain. "Which comedy movies
// featuring X?" answered by X's films alone leaves "comedy" unexplained;
// so does "films with both X and Y" answered by X's films. c is scored
// (ScoreCandidates). Zero without CoverMentions.
func (p *LinkingPlanner) unexplained(ments []linking.LinkedMention, c *PlanCandidate) int {
	return len(p.unexplainedSpans(ments, c))
}

// unexplainedSpans returns the spans unexplained counts, each as the
// indexes of its strong mentions that c leaves unexplained. A span is
// explained as a whole when an anchor explains one of its strong mentions
// (explains); otherwise each strong mention must name a node c reaches or
// stand in the first answer's document.
func (p *LinkingPlanner) unexplainedSpans(ments []linking.LinkedMention, c *PlanCandidate) [][]int {
	a := p.Cfg.Anchors
	if !a.CoverMentions || len(c.Reach) == 0 {
		return nil
	}
	// The first answer's document, read once and only when a strong
	// mention needs it.
	doc, read := "", false
	inDoc := func(w string) bool {
		if !read {
			read = true
			if top, _ := rankedReach(c.Reach, c.Scores, 1); len(top) > 0 {
				doc = normWords(p.skb.Document(top[0]))
			}
		}
		return strings.Contains(doc, w)
	}
	var out [][]int
	done := make([]bool, len(ments))
	for i := range ments {
		if done[i] {
			continue
		}
		// The span of mentions overlapping ments[i], transitively.
		span := []int{i}
		done[i] = true
		for k := 0; k < len(span); k++ {
			for j := range ments {
				if !done[j] && overlaps(&ments[span[k]], &ments[j]) {
					done[j] = true
					span = append(span, j)
				}
			}
		}
		var open []int
		for _, mi := range span {
			m := &ments[mi]
			if !p.strong(m) {
				continue
			}
			if slices.ContainsFunc(c.Mentions, func(o int) bool { return explains(&ments[o], m) }) {
				open = nil
				break
			}
			// With StatedNames a node c reaches explains nothing, and its
			// own document neither.
			explained, stated := false, false
			for _, fn := range m.Nodes {
				if _, ok := slices.BinarySearch(c.Reach, fn.Node); ok {
					explained, stated = !a.StatedNames, a.StatedNames
				}
			}
			if w := normWords(m.Text); !explained && !stated && w != " " && inDoc(w) {
				explained = true
			}
			if !explained {
				open = append(open, mi)
			}
		}
		if len(open) > 0 {
			out = append(out, open)
		}
	}
	return out
}

// explains reports whether anchor mention a accounts for mention m: it
// covers m's words, or overlaps them naming one of m's nodes ("comedy"
// for "the comedy"; not the film "Bernie" for the person "Bernie Mac").
func explains(a, m *linking.LinkedMention) bool {
	if a.TokStart <= m.TokStart && a.TokEnd >= m.TokEnd {
		return true
	}
	if !overlaps(a, m) {
		return false
	}
	for _, x := range a.Nodes {
		for _, y := range m.Nodes {
			if x.Node == y.Node {
				return true
			}
		}
	}
	return false
}

// normWords is text's normalised words (linking.MentionWords) joined and
// framed by spaces.
func normWords(text string) string {
	var b strings.Builder
	b.WriteByte(' ')
	for _, w := range linking.MentionWords(text) {
		b.WriteString(w.Norm)
		b.WriteByte(' ')
	}
	return b.String()
}

// strong reports whether m is a strong mention: one that names a node of
// one of AnchorTypes, or of two or more words naming a node of one of
// MultiwordTypes, and is not weak (WeakMentions).
func (p *LinkingPlanner) strong(m *linking.LinkedMention) bool {
	return p.strongAlone(m) || m.TokEnd-m.TokStart >= 2 && !p.weak(m) && p.anchorType(m, p.Cfg.Anchors.MultiwordTypes)
}

// strongAlone reports whether m names a node of one of AnchorTypes and
// is not weak: strong whatever its length.
func (p *LinkingPlanner) strongAlone(m *linking.LinkedMention) bool {
	return !p.weak(m) && p.anchorType(m, p.Cfg.Anchors.AnchorTypes)
}

// weak reports whether m's text is one of WeakMentions.
func (p *LinkingPlanner) weak(m *linking.LinkedMention) bool {
	_, weak := slices.BinarySearch(p.Cfg.Anchors.WeakMentions, strings.ToLower(m.Text))
	return weak
}

// anchorType reports whether m names a node of one of types (sorted).
func (p *LinkingPlanner) anchorType(m *linking.LinkedMention, types []string) bool {
	for _, n := range m.Nodes {
		if _, ok := slices.BinarySearch(types, p.skb.Schema.NodeTypes[p.ws.Graph.Type(n.Node)]); ok {
			return true
		}
	}
	return false
}

// reachesOuter reports whether candidate c reaches a node that a longer
// mention around one of its anchor mentions names: "membrane" anchoring
// "What different varieties of semipermeable membrane are there?" reaches
// the node "semipermeable membrane", which the question names whole, so
// the question is about that node, not one of the answers, and the anchor
// is the longer mention (AnchorConfig.OuterAnchors).
func (p *LinkingPlanner) reachesOuter(ments []linking.LinkedMention, c *PlanCandidate) bool {
	if !p.Cfg.Anchors.OuterAnchors {
		return false
	}
	for _, a := range c.Mentions {
		if a < 0 || a >= len(ments) {
			continue
		}
		m := &ments[a]
		for j := range ments {
			o := &ments[j]
			if !around(o, m) {
				continue
			}
			for _, n := range o.Nodes {
				if _, ok := slices.BinarySearch(c.Reach, n.Node); ok {
					return true
				}
			}
		}
	}
	return false
}

// maxInnerAnchorShare: InnerAnchors is on when at most this share of the
// training questions' anchor mentions lie inside a longer mention.
const maxInnerAnchorShare = 0.05

// InnerAnchorShare returns the share of the anchor mentions (anchors[i]
// indexes ments[i]) that lie inside a longer mention of their question
// (0 without anchors).
func InnerAnchorShare(ments [][]linking.LinkedMention, anchors [][]int) float64 {
	n, inner := 0, 0
	for qi, ms := range ments {
		for _, a := range anchors[qi] {
			if a < 0 || a >= len(ms) {
				continue
			}
			n++
			if insideLonger(ms, a) {
				inner++
			}
		}
	}
	if n == 0 {
		return 0
	}
	return float64(inner) / float64(n)
}

// InnerAnchorsFrom says whether a planner rules out inner anchors
// (AnchorConfig.InnerAnchors), from the share of the training questions'
// anchors that were inner (InnerAnchorShare).
func InnerAnchorsFrom(share float64) bool { return share <= maxInnerAnchorShare }

// maxStatedShare is the share of the training questions that may state
// one of their answers for LearnStatedNames to bear StatedNames out.
const maxStatedShare = 0.01

// LearnStatedNames reports whether the training questions bear out
// AnchorConfig.StatedNames, and how many questions there are and how many
// of them state an answer: a mention of the question (ments) overlapping
// none of its mined plan's anchor mentions (anchors) names one of its
// answers. Of the workspaces' mined plans (training and val questions),
// none of movies-skb's 4,680 does, and 981 of WordNet's 4,797 do ("Which
// sense of the word 'Usbek' is a kind of Turkic language?": the word names
// the synset asked for).
func LearnStatedNames(ments [][]linking.LinkedMention, anchors [][]int, answers [][]uint32) (bool, int, int) {
	stated := 0
	for qi, ms := range ments {
		if slices.ContainsFunc(ms, func(m linking.LinkedMention) bool {
			return !slices.ContainsFunc(anchors[qi], func(a int) bool { return a >= 0 && a < len(ms) && overlaps(&ms[a], &m) }) &&
				slices.ContainsFunc(m.Nodes, func(fn linking.FormNode) bool { return slices.Contains(answers[qi], fn.Node) })
		}) {
			stated++
		}
	}
	n := len(ments)
	return n > 0 && float64(stated) <= maxStatedShare*float64(n), n, stated
}

// insideLonger reports whether mention a of ms lies inside a longer one.
func insideLonger(ms []linking.LinkedMention, a int) bool {
	return slices.ContainsFunc(ms, func(o linking.LinkedMention) bool { return around(&o, &ms[a]) })
}

// around reports whether mention o spans mention m's words and more.
func around(o, m *linking.LinkedMention) bool {
	return o.TokStart <= m.TokStart && o.TokEnd >= m.TokEnd && o.TokEnd-o.TokStart > m.TokEnd-m.TokStart
}

// longerAnchors adds 1<<15 to the key of each candidate that reaches a
// node and is anchored on a mention inside a longer one on which another
// candidate that reaches a node, with a key no greater, is anchored
// (AnchorConfig.LongerAnchors): "helmet" gives way to "crash helmet"
// whatever their templates.
func (p *LinkingPlanner) longerAnchors(ments []linking.LinkedMention, cs []PlanCandidate, key []int) {
	base := slices.Clone(key)
	for i := range cs {
		if len(cs[i].Reach) == 0 {
			continue
		}
		longer := false
		for _, a := range cs[i].Mentions {
			if a < 0 || a >= len(ments) {
				continue
			}
			for j := range cs {
				if j == i || len(cs[j].Reach) == 0 || base[j] > base[i] {
					continue
				}
				longer = longer || slices.ContainsFunc(cs[j].Mentions, func(b int) bool { return b >= 0 && b < len(ments) && aroundByWords(&ments[b], &ments[a]) })
			}
		}
		if longer {
			key[i] += 1 << 15
		}
	}
}

// casedAnchors adds 1<<8 to the key of each candidate that reaches a
// node and is anchored, in one path, on a mention written in lower case
// whose nodes' names all have a capital letter, where another candidate
// of the same template that reaches a node, with a key no greater, is
// anchored the same but on a mention with a capital letter in that path
// (AnchorConfig.CasedAnchors): "Which person made the film Germinal as
// its director?" is asked of Germinal, not of "made", the film Made. A
// question typed in lower case throughout has no such other candidate,
// and a genre typed in lower case beside a name ("comedy features
// directed by X") is no other anchoring of one path.
func (p *LinkingPlanner) casedAnchors(ments []linking.LinkedMention, cs []PlanCandidate, key []int) {
	if !p.Cfg.Anchors.CasedAnchors {
		return
	}
	upper := func(s string) bool { return strings.IndexFunc(s, unicode.IsUpper) >= 0 }
	// Each mention is looked at once: written in lower case, of names
	// that all have a capital letter. With none, no key changes.
	lowered := make([]bool, len(ments))
	anyLowered := false
	for mi := range ments {
		m := &ments[mi]
		lowered[mi] = !upper(m.Text) && len(m.Nodes) > 0 && !slices.ContainsFunc(m.Nodes, func(n linking.FormNode) bool { return !upper(p.ws.Graph.Name(n.Node)) })
		anyLowered = anyLowered || lowered[mi]
	}
	if !anyLowered {
		return
	}
	// other reports whether candidate j anchors as candidate i does but
	// on a mention with a capital letter in path pi, or, with
	// CasedAcross, is of another template and anchored on a mention with
	// a capital letter that i leaves unanchored, apart from i's mention
	// in path pi.
	other := func(i, j, pi int) bool {
		if j != i && len(cs[j].Reach) > 0 && cs[j].Template != cs[i].Template && p.Cfg.Anchors.CasedAcross {
			a := cs[i].Mentions[pi]
			return slices.ContainsFunc(cs[j].Mentions, func(b int) bool {
				return b >= 0 && b < len(ments) && upper(ments[b].Text) && !slices.Contains(cs[i].Mentions, b) &&
					(ments[b].TokEnd <= ments[a].TokStart || ments[a].TokEnd <= ments[b].TokStart)
			})
		}
		if j == i || cs[j].Template != cs[i].Template || len(cs[j].Reach) == 0 || len(cs[j].Mentions) != len(cs[i].Mentions) {
			return false
		}
		for pj, b := range cs[j].Mentions {
			if pj != pi && b != cs[i].Mentions[pj] {
				return false
			}
		}
		b := cs[j].Mentions[pi]
		return b >= 0 && b < len(ments) && upper(ments[b].Text)
	}
	base := slices.Clone(key)
	for i := range cs {
		if len(cs[i].Reach) == 0 {
			continue
		}
		cased := false
		for pi, a := range cs[i].Mentions {
			if a < 0 || a >= len(ments) || !lowered[a] {
				continue
			}
			for j := range cs {
				cased = cased || base[j] <= base[i] && other(i, j, pi)
			}
		}
		if cased {
			key[i] += 1 << 8
		}
	}
}

// unanchoredLonger returns, with LongerAnchors, the mentions around an
// anchor of every candidate left (reaching a node, key least) that no
// candidate reaching a node anchors on, and that a candidate could anchor
// on without being ruled out for it (not a non-anchor text, nor written
// in a non-anchor form: "made up" in "What is dhow made up of?"); nil
// when one of those candidates is anchored inside no such mention
// (deeper).
func (p *LinkingPlanner) unanchoredLonger(text string, ments []linking.LinkedMention, cs []PlanCandidate, key []int, least int) []int {
	if !p.Cfg.Anchors.LongerAnchors {
		return nil
	}
	anchored := map[int]bool{}
	for i := range cs {
		if len(cs[i].Reach) > 0 {
			for _, a := range cs[i].Mentions {
				anchored[a] = true
			}
		}
	}
	var out []int
	for i := range cs {
		if len(cs[i].Reach) == 0 || key[i] != least {
			continue
		}
		found := false
		for _, a := range cs[i].Mentions {
			if a < 0 || a >= len(ments) {
				continue
			}
			for o := range ments {
				if !anchored[o] && aroundByWords(&ments[o], &ments[a]) && !p.ruledOutAnchor(text, &ments[o]) {
					found = true
					if !slices.Contains(out, o) {
						out = append(out, o)
					}
				}
			}
		}
		if !found {
			return nil
		}
	}
	slices.Sort(out)
	return out
}

// aroundByWords reports whether mention o spans mention m's words and
// more, one of them a word BM25 does not drop as a stop word: "Jewish
// calendar" around "calendar", not "The Comedy" (a film) around "comedy"
// (a genre), which names a node by the same word.
func aroundByWords(o, m *linking.LinkedMention) bool {
	if !around(o, m) {
		return false
	}
	rest := strings.Replace(strings.ToLower(o.Text), strings.ToLower(m.Text), " ", 1)
	return len(index.Tokenize(nil, rest)) > 0
}

// anchoredInside reports whether candidate c is anchored on a mention
// inside a longer one that could take its place: a node the longer
// mention names has the first hop of the anchor's path ("golf" in "What
// different varieties of golf stroke are there?", where golf stroke has
// kinds too). A longer mention that cannot ("The Comedy", a film, around
// the genre "comedy" in "List the comedy films directed by X") rules
// nothing out.
func (p *LinkingPlanner) anchoredInside(ments []linking.LinkedMention, c *PlanCandidate) bool {
	if c.Template < 0 || c.Template >= len(p.Cfg.Templates) {
		return false
	}
	tmpl := p.Cfg.Templates[c.Template]
	var buf []uint32
	for k, a := range c.Mentions {
		if a < 0 || a >= len(ments) || k >= len(tmpl) || !insideLonger(ments, a) {
			continue
		}
		t := graphops.AnyTypeID
		if id, ok := p.skb.Schema.NodeTypeID(tmpl[k].Anchor()); ok {
			t = id
		}
		m := &ments[a]
		for o := range ments {
			om := &ments[o]
			if !around(om, m) {
				continue
			}
			var nodes []uint32
			if nodes, _, buf = p.compatNodes(om, t, p.hops[c.Template][k], buf); len(nodes) > 0 {
				return true
			}
		}
	}
	return false
}

// minAnchorAfterShare is the share of the mentions after a word that must
// have anchored for the word to be one anchors follow (LearnAnchorAfter).
const minAnchorAfterShare = 0.5

// LearnAnchorAfter returns the words (lower case, sorted) that stood
// right before a mention in at least minNonAnchorQuestions training
// questions (texts[i] with mentions ments[i] and anchor mentions
// anchors[i]), at least minAnchorAfterShare of them anchoring on such a
// mention (or one overlapping it): the places a question names what it
// is about ("a part of X", "a subtype of X"), where a word no training
// question used is a name, not another way to ask (ReadMentions).
func LearnAnchorAfter(texts []string, ments [][]linking.LinkedMention, anchors [][]int) []string {
	return wordsAfter(texts, ments, anchors, nil, func(_ string, n, anchored int) bool {
		return float64(anchored) >= minAnchorAfterShare*float64(n)
	})
}

// LearnNonAnchorAfter returns the words (lower case, sorted) that stood
// right before a mention in at least minNonAnchorQuestions training
// questions, at most maxNonAnchorShare of them anchoring on such a mention
// (or one overlapping it): the places a question asks with a word that
// names a node too ("Which things ...", "the parts of"). A candidate
// anchored on an unquoted mention after one is ruled out when another is
// not (AnchorConfig.NonAnchorAfter).
func LearnNonAnchorAfter(texts []string, ments [][]linking.LinkedMention, anchors [][]int) []string {
	return wordsAfter(texts, ments, anchors, nil, nonAnchorAfter)
}

// LearnNonAnchorAfterForms is LearnNonAnchorAfter learned for each form
// of mention apart: words, the words after which the training's mentions
// other than numbers were not anchored, and numbers, the further words
// after which its numbers were not (AnchorConfig.NumberNonAnchorAfter).
// movies-skb's training says "from" only before a year ("Find movies from
// 1990 that X directed"), which restricts and anchors nothing; that says
// nothing of a name after it ("films from Ridley Scott").
func LearnNonAnchorAfterForms(texts []string, ments [][]linking.LinkedMention, anchors [][]int) (words, numbers []string) {
	isWord := func(m *linking.LinkedMention) bool { return !numberMention(m) }
	words = wordsAfter(texts, ments, anchors, isWord, nonAnchorAfter)
	for _, w := range wordsAfter(texts, ments, anchors, numberMention, nonAnchorAfter) {
		if _, found := slices.BinarySearch(words, w); !found {
			numbers = append(numbers, w)
		}
	}
	return words, numbers
}

// nonAnchorAfter is LearnNonAnchorAfter's rule: at most maxNonAnchorShare
// of the n questions with a mention after w anchored on one, and w is no
// stop word.
func nonAnchorAfter(w string, n, anchored int) bool {
	return float64(anchored) <= maxNonAnchorShare*float64(n) && !index.IsStopword(w)
}

// numberMention reports whether m's text is digits alone ("1990").
func numberMention(m *linking.LinkedMention) bool {
	return m.Text != "" && strings.IndexFunc(m.Text, func(r rune) bool { return r < '0' || r > '9' }) < 0
}

// wordsAfter returns the words (sorted) that stood right before an
// unquoted mention (one of those form keeps, where form is not nil) in at
// least minNonAnchorQuestions training questions and for which keep holds,
// given those questions (n) and how many of them anchored on such a
// mention (anchorAfterCounts).
func wordsAfter(texts []string, ments [][]linking.LinkedMention, anchors [][]int, form func(*linking.LinkedMention) bool, keep func(w string, n, anchored int) bool) []string {
	seen, anchored := anchorAfterCounts(texts, ments, anchors, form)
	var out []string
	for w, n := range seen {
		if n >= minNonAnchorQuestions && keep(w, n, anchored[w]) {
			out = append(out, w)
		}
	}
	slices.Sort(out)
	return out
}

// anchorAfterCounts counts, per word (lower case), the training questions
// with an unquoted mention right after it and those anchoring on such a
// mention (or one overlapping it). Quoted mentions do not count: the rules
// learned from the counts act on unquoted words only, and what follows a
// word quoted ("What does 'X' refer to ...") says nothing of what follows
// it unquoted ("Which members does X have?"). With form not nil, only
// the mentions it keeps count.
func anchorAfterCounts(texts []string, ments [][]linking.LinkedMention, anchors [][]int, form func(*linking.LinkedMention) bool) (seen, anchored map[string]int) {
	seen, anchored = map[string]int{}, map[string]int{}
	for qi, ms := range ments {
		words := linking.MentionWords(texts[qi])
		has, anch := map[string]bool{}, map[string]bool{}
		for mi := range ms {
			prev, ok := wordBefore(texts[qi], words, &ms[mi])
			if !ok || quotedMention(texts[qi], &ms[mi]) || form != nil && !form(&ms[mi]) {
				continue
			}
			has[prev] = true
			anch[prev] = anch[prev] || anchorsOverlap(anchors[qi], ms, mi)
		}
		for w := range has {
			seen[w]++
			if anch[w] {
				anchored[w]++
			}
		}
	}
	return seen, anchored
}

// wordBefore is the word (lower case) right before mention m of text
// (words: its MentionWords); false at the start.
func wordBefore(text string, words []linking.Word, m *linking.LinkedMention) (string, bool) {
	if m.TokStart == 0 || m.TokStart > len(words) {
		return "", false
	}
	w := words[m.TokStart-1]
	return strings.ToLower(text[w.Start:w.End]), true
}

// anchoredAfterNonAnchor reports whether one of c's anchor mentions
// comes right after a non-anchor word (afterNonAnchor).
func (p *LinkingPlanner) anchoredAfterNonAnchor(text string, ments []linking.LinkedMention, c *PlanCandidate) bool {
	if len(p.Cfg.Anchors.NonAnchorAfter) == 0 && len(p.Cfg.Anchors.NumberNonAnchorAfter) == 0 {
		return false
	}
	words := linking.MentionWords(text)
	return slices.ContainsFunc(c.Mentions, func(a int) bool {
		return a >= 0 && a < len(ments) && p.afterNonAnchor(text, words, &ments[a])
	})
}

// afterNonAnchor reports whether mention m of text (words: its
// MentionWords), unquoted, comes right after one of NonAnchorAfter, or, a
// number, right after one of NumberNonAnchorAfter (with Appositive, not
// in an appositive: appositive).
func (p *LinkingPlanner) afterNonAnchor(text string, words []linking.Word, m *linking.LinkedMention) bool {
	if quotedMention(text, m) {
		return false
	}
	prev, ok := wordBefore(text, words, m)
	if !ok {
		return false
	}
	// With MarkedFollowers, a mark between the word and the mention ends
	// the word's phrase: "Broader term: swayer" names swayer after a
	// label, where "term" before a mention ("term denotes") was never
	// followed by an anchor.
	if p.Cfg.Anchors.MarkedFollowers && m.TokStart <= len(words) && phraseMark(text[words[m.TokStart-1].End:m.Start]) {
		return false
	}
	_, found := slices.BinarySearch(p.Cfg.Anchors.NonAnchorAfter, prev)
	if !found && numberMention(m) {
		_, found = slices.BinarySearch(p.Cfg.Anchors.NumberNonAnchorAfter, prev)
	}
	return found && !(p.Cfg.Anchors.Appositive && appositive(text, words, m)) && p.closedFollows(prev, m)
}

// closedFollows reports whether mention m, right after non-anchor word
// w, may be ruled out by it: always, unless w's followers are closed
// (AnchorConfig.ClosedFollowers) and w may be an adjective or is no noun
// in the lexicon; then only where m's first word is one of them or
// related to one in the lexicon ("sort" to "kind"), whose meaning the
// training bore out: "A more specific swayer ..." anchors on swayer,
// though "specific" stood only before "kind", "type", "way" and "manner"
// in the training. After
// an adjective, an adverb or a preposition comes a head noun or an
// object, any word; after a noun ("adjectives similar to X", "adjectives
// related to X") a modifier whose few forms the training did see.
func (p *LinkingPlanner) closedFollows(w string, m *linking.LinkedMention) bool {
	fs, closed := p.Cfg.Anchors.ClosedFollowers[w]
	lex := p.names.lex
	if !closed || lex == nil || lex.IsNoun(w) && !lex.IsAdjective(w) {
		return true
	}
	first := followerWord(m)
	if _, ok := slices.BinarySearch(fs, first); ok {
		return true
	}
	return slices.ContainsFunc(fs, func(f string) bool {
		return lex.Distance(first, f) < lexicon.Far || lex.Distance(f, first) < lexicon.Far
	})
}

// followerWord is mention m's first word, lower case: what
// LearnClosedFollowers records of a mention after a word.
func followerWord(m *linking.LinkedMention) string {
	if f := strings.Fields(strings.ToLower(m.Text)); len(f) > 0 {
		return f[0]
	}
	return ""
}

// LearnClosedFollowers returns, for each word of after (NonAnchorAfter)
// whose followers in the training are closed, those followers, sorted:
// the first words (followerWord) of the unquoted mentions right after it
// that no question anchored, counted once per question. Followers are
// closed where fewer than minNonAnchorQuestions of them were seen in one
// question alone: "specific" stood before "kind" in 393 questions, "type"
// in 62, "way" in 37, "manner" in 11, and never before another word, so
// it says nothing of a word after it the training never put there; "who"
// stood before 24 words, most once, and rules out any.
func LearnClosedFollowers(texts []string, ments [][]linking.LinkedMention, anchors [][]int, after []string) map[string][]string {
	seen := map[string]map[string]int{}
	for qi, ms := range ments {
		words := linking.MentionWords(texts[qi])
		got := map[[2]string]bool{}
		for mi := range ms {
			prev, ok := wordBefore(texts[qi], words, &ms[mi])
			if !ok || quotedMention(texts[qi], &ms[mi]) || numberMention(&ms[mi]) || anchorsOverlap(anchors[qi], ms, mi) {
				continue
			}
			if _, in := slices.BinarySearch(after, prev); !in {
				continue
			}
			if k := [2]string{prev, followerWord(&ms[mi])}; !got[k] {
				got[k] = true
				if seen[prev] == nil {
					seen[prev] = map[string]int{}
				}
				seen[prev][k[1]]++
			}
		}
	}
	out := map[string][]string{}
	for w, fs := range seen {
		once := 0
		for _, n := range fs {
			if n == 1 {
				once++
			}
		}
		if once < minNonAnchorQuestions {
			out[w] = slices.Sorted(maps.Keys(fs))
		}
	}
	return out
}

// appositive reports whether mention m of text (words: its MentionWords)
// follows "the" and one word: "the adjective fruitful", "the group
// Lycopersicon", where the word names what kind of thing the mention is
// and the mention is the thing named (AnchorConfig.Appositive). The
// training may only have asked with the word before a mention it never
// anchored ("Which adjective similar in meaning to 'discomposed' ...").
func appositive(text string, words []linking.Word, m *linking.LinkedMention) bool {
	if m.TokStart < 2 || m.TokStart > len(words) {
		return false
	}
	w := words[m.TokStart-2]
	return strings.EqualFold(text[w.Start:w.End], "the")
}
