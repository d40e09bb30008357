package planner

import (
	"cmp"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/strata-retrieval/strata/data/index"
	"github.com/strata-retrieval/strata/data/lexicon"
	"github.com/strata-retrieval/strata/graphops/linking"
)

// A question word no training question used says nothing to the planner's
// learned parts (the template classifier's bag of words, the relation and
// answer-type lifts, the lead words): "Who helmed the films X penned?" is
// a question the training asked as "Who directed the films X wrote?". The
// lexicon (data/lexicon, general English, tied to no data set) relates
// such a word to the words the planner knows that name something: the
// schema's words for types and relations, and the training words the
// training questions bear out for a relation (RelWords: the plans of 70%
// of at least 5 questions with the word walk it) or for an answer type
// (Elements: lift of at least 2). The question is read with the closest
// such word in its place: the same base form ("wrote" for "written"), a
// synonym ("penned": wrote), or one hypernym link from the word's most
// frequent sense ("helmed": directed, "performers": actors), in the form
// pick chooses (the schema's word first, then the inflection the training
// used between the same neighbours); a word whose nearest known words
// name different relations stays (readings). A word that names a node of the KB
// (inside any of the question's mentions) may be an anchor and is left as
// it is, and so are quoted words: on the WordNet SKB, where nearly every
// English word names a node, little is resolved; protecting only names
// that look like names ("Fred Astaire") rewrote anchors there ("a kind of
// penis" read as "a kind of member": val Hit@1 0.9725 -> 0.9067). With
// ReadMentions, such a word is read all the same where the question is
// unlikely to name a node with it (readInMention): "Which pieces make up
// X?" read as "Which parts make up X?".
type wordResolver struct {
	lex     *lexicon.Lexicon
	match   *lexicon.Matcher
	known   map[string]bool
	uses    map[string]int      // training questions with the word
	forms   map[string][]string // a base form -> the words used in at least minRelWordQuestions questions with it
	targets []string            // most used first
	mu      sync.Mutex
	memo    map[string][]string
	next    map[string]map[string]int // RelWords.Next
	names   map[string]string         // the types and relations of the schema a reading names, joined; "" none
	// inMentions, when set, reports whether word i of text, inside some of
	// ments, may be read as its known word all the same.
	inMentions func(text string, ments []linking.LinkedMention, i int, reading string) bool
	// relOnly, when set, reports whether a reading names a relation of
	// the schema and no type: such a reading of a word that labels a
	// quotation is not made (AnchorConfig.QuoteLabels, quoteLabel).
	relOnly func(reading string) bool
	// samePOS: pick prefers a reading that is a noun where the word is
	// (AnchorConfig.ReadSamePOS).
	samePOS bool
	// nounSlots: planning reads a word that may be a noun where only a
	// noun may stand (nounSlot) through its noun senses alone (nounWord;
	// AnchorConfig.NounSlots).
	nounSlots bool
	// markedSlots: with nounSlots, an asking word a mark sets apart from
	// the noun before it opens a noun slot (AnchorConfig.MarkedSlots).
	markedSlots bool
	// compoundSlots: with nounSlots, the word after a singular noun read
	// in a noun slot is read as the compound's head (compoundHead;
	// AnchorConfig.CompoundSlots).
	compoundSlots bool
	// prepSlots: a word right after a preposition is in a noun slot
	// (AnchorConfig.PrepositionSlots).
	prepSlots bool
	// compounds: planning reads a closed compound the lexicon knows in no
	// form by its parts: as the compound of a synonymous modifier the
	// lexicon knows (compoundTwin), else as its head noun (compoundTail;
	// AnchorConfig.CompoundWords).
	compounds bool
	// context: an ambiguous word is read in context (inContext;
	// AnchorConfig.ReadInContext).
	context bool
	// titles: planning reads a title as a verb of the relation it names,
	// or leaves it unread (title, titleVerb; AnchorConfig.Titles).
	titles bool
	// openingTitles: a title may open the text too (title;
	// AnchorConfig.OpeningTitles).
	openingTitles bool
	// requestTitles: a title may follow a request's verb opening the text
	// (title; AnchorConfig.RequestTitles).
	requestTitles bool
	// markTitles: a title may open a phrase after a mark (title;
	// AnchorConfig.MarkTitles).
	markTitles bool
	// roles: planning reads a role after "as" as a verb of the relation
	// it names (role, titleVerb; AnchorConfig.Roles).
	roles bool
	// speaker: planning leaves a verb the speaker or the addressee is
	// the subject of unread (speakerVerb; AnchorConfig.SpeakerVerbs).
	speaker bool
	// openingAdverbs: with speaker, an opening participle's preposition
	// may come past adverbs (speakerVerb; AnchorConfig.OpeningAdverbs).
	openingAdverbs bool
	// titlePreps: a title may follow one of titlePrepositions too
	// (AnchorConfig.TitlePrepositions).
	titlePreps bool
	// rels, when set, are the relations a word names, with the schema's
	// words or as namedRelations has it (sorted).
	rels func(w string) []string
	// kind, when set, is the node type a word names as a kind of the
	// type's schema word (AnchorConfig.KindTypes; "" none), kept with
	// the word it is read as (readSpan.kind); slot says the word was
	// read in a noun slot (nounSlot).
	kind func(w string, slot bool) string
}

// minResolveLen: shorter words ("do", "in") are left alone.
const minResolveLen = 3

// newWordResolver builds the resolver from the planner's saved counts;
// nil when the config has none to resolve towards.
func (p *LinkingPlanner) newWordResolver() (*wordResolver, error) {
	a := p.Cfg.Anchors
	if !a.Lexicon || a.RelWords == nil {
		return nil, nil
	}
	lex, err := lexicon.WordNet()
	if err != nil {
		return nil, err
	}
	p.names.setLexicon(lex)
	rw := a.RelWords
	r := &wordResolver{names: map[string]string{}, lex: lex, known: map[string]bool{}, uses: rw.Words, memo: map[string][]string{}, next: rw.Next, samePOS: a.ReadSamePOS, compounds: a.CompoundWords, nounSlots: a.NounSlots, markedSlots: a.NounSlots && a.MarkedSlots, compoundSlots: a.NounSlots && a.CompoundSlots, prepSlots: a.NounSlots && a.PrepositionSlots, context: a.ReadInContext, titles: a.Titles, openingTitles: a.Titles && a.OpeningTitles, requestTitles: a.Titles && a.RequestTitles, markTitles: a.Titles && a.MarkTitles, roles: a.Titles && a.Roles, speaker: a.SpeakerVerbs, openingAdverbs: a.SpeakerVerbs && a.OpeningAdverbs, titlePreps: a.Titles && a.TitlePrepositions}
	if a.KindTypes {
		// With SlotKinds a word read in a noun slot names its kind there
		// as a slot's word does, though it is a verb's form too: "Which
		// authors supplied scripts to ..." is read "Which written ...",
		// and the reading asks for people, as "authors" did.
		r.kind = func(w string, slot bool) string { return p.kindType(w, slot && a.SlotKinds) }
	}
	if a.Titles {
		r.rels = func(w string) []string {
			var out []string
			for rel, ok := range p.names.namedBy(w).rels {
				if ok {
					out = append(out, rel)
				}
			}
			for _, rels := range p.namedRelations(w, map[string]bool{w: true}) {
				for _, rel := range rels {
					if !slices.Contains(out, rel) {
						out = append(out, rel)
					}
				}
			}
			slices.Sort(out)
			return out
		}
	}
	count := map[string]int{}
	for w, n := range rw.Words {
		r.known[w] = true
		if n < minRelWordQuestions || len(w) < minResolveLen || !alphabetic(w) {
			continue
		}
		named := false
		for _, k := range rw.Pairs[w] {
			named = named || float64(k) >= minRelWordShare*float64(n)
		}
		if !named && a.Elements != nil {
			for _, t := range p.skb.Schema.NodeTypes {
				named = named || a.Elements.Lift(w, "A:"+t) >= 2
			}
		}
		if named {
			count[w] = n
		}
	}
	for _, ws := range [][]map[string][]string{{p.names.types}, {p.names.rels}} {
		for _, m := range ws {
			for _, words := range m {
				for _, w := range words {
					r.known[w] = true
					if len(w) >= minResolveLen && alphabetic(w) {
						count[w] = max(count[w], minRelWordQuestions)
					}
				}
			}
		}
	}
	for w := range count {
		r.targets = append(r.targets, w)
	}
	slices.SortFunc(r.targets, func(a, b string) int {
		return cmp.Or(cmp.Compare(count[b], count[a]), cmp.Compare(a, b))
	})
	r.match = lex.NewMatcher(r.targets)
	r.match.AnySenseDerived = !a.DerivedFirstSense
	r.match.FormSenses = a.FormSenses
	names := func(w string) string {
		var out []string
		for _, m := range []map[string][]string{p.names.types, p.names.rels} {
			for name, ws := range m {
				if p.names.names(w, ws) {
					out = append(out, name)
				}
			}
		}
		slices.Sort(out)
		return strings.Join(out, "\x00")
	}
	r.forms = map[string][]string{}
	for k, n := range rw.Words {
		if n < minRelWordQuestions || !alphabetic(k) {
			continue
		}
		for _, b := range append([]string{k}, lex.Bases(k)...) {
			if !slices.Contains(r.forms[b], k) {
				r.forms[b] = append(r.forms[b], k)
			}
		}
		r.names[k] = names(k)
	}
	for _, t := range r.targets {
		r.names[t] = names(t)
	}
	return r, nil
}

func alphabetic(w string) bool {
	for _, c := range w {
		if !unicode.IsLetter(c) {
			return false
		}
	}
	return w != ""
}

// readings are the words w may be read as: the words the training used
// (in at least minRelWordQuestions questions) that share a base form with
// one of the targets nearest to w, and those targets; nil when none is,
// or when two of the nearest name different parts of the schema: "perform"
// is as near "directed" (through conduct, direct) as "starred" (star's
// "be the star in a performance"), and which one the question means the
// lexicon cannot say.
func (r *wordResolver) readings(w string) []string {
	ts, _ := r.match.NearestAll(w)
	return r.readingsOf(ts)
}

// readingsOf is readings from the nearest targets ts.
func (r *wordResolver) readingsOf(ts []string) []string {
	meant := ""
	for _, t := range ts {
		switch n := r.names[t]; {
		case n == "":
		case meant == "":
			meant = n
		case n != meant:
			return nil
		}
	}
	return r.withForms(ts)
}

// withForms are targets ts and the words the training used that share a
// base form with one of them.
func (r *wordResolver) withForms(ts []string) []string {
	var out []string
	for _, t := range ts {
		if !slices.Contains(out, t) {
			out = append(out, t)
		}
		for _, b := range append([]string{t}, r.lex.Bases(t)...) {
			for _, k := range r.forms[b] {
				if !slices.Contains(out, k) {
					out = append(out, k)
				}
			}
		}
	}
	return out
}

// inContext are the readings of a word w whose nearest targets name
// different parts of the schema (readings' nil) before the raw word
// next: those of the one meaning whose training words (all of them
// together) are followed by next in at least minContextShare of their
// questions, contextMargin times as often as any other meaning's
// ("performed in": the training said "starred in", "star in" or
// "starring in" in 35% of its questions with one of them, "directed in"
// or "direct in" in 4%); nil when none is so.
func (r *wordResolver) inContext(w, next string) []string {
	if !r.context || next == "" {
		return nil
	}
	ts, _ := r.match.NearestAll(w)
	followed, uses := map[string]int{}, map[string]int{}
	counted := map[string]bool{}
	for _, t := range ts {
		n := r.names[t]
		if n == "" {
			continue
		}
		for _, k := range r.withForms([]string{t}) {
			if u := r.uses[k]; u >= minRelWordQuestions && !counted[k] {
				counted[k] = true
				followed[n] += r.next[k][next]
				uses[n] += u
			}
		}
	}
	share := map[string]float64{}
	for n, u := range uses {
		share[n] = float64(followed[n]) / float64(u)
	}
	best, bs := "", 0.0
	for n, s := range share {
		if s > bs || s == bs && n < best {
			best, bs = n, s
		}
	}
	if bs < minContextShare {
		return nil
	}
	for n, s := range share {
		if n != best && s*contextMargin > bs {
			return nil
		}
	}
	var keep []string
	for _, t := range ts {
		if n := r.names[t]; n == "" || n == best {
			keep = append(keep, t)
		}
	}
	return r.withForms(keep)
}

// An ambiguous word is read in context (inContext) when one meaning's
// words are followed by the next word in minContextShare of their
// questions, contextMargin times as often as another's.
const (
	minContextShare = 0.2
	contextMargin   = 5
)

// pick is the reading of w between the raw words prev and next (lower
// case, "" at an end): with schemaFirst, one that names a type or
// relation with the schema's own word if any does ("pictures" read as "movies", which names
// the type movie, not as "films"), then (with ReadSamePOS) one that may
// be a noun and may be a verb where w may ("performers" read as "actors",
// not "star" or "starred", though "star in" is the more common), then the one the training questions
// used most between such words (RelWords.Next: "penned the" read as
// "wrote the", "penned by" as "written by"), then the one whose ending is
// most like w's ("pictures" as "movies", not the schema's "movie";
// "performers" as "actors", not "starring"), then the most used, then the
// first.
func (r *wordResolver) pick(w, prev, next string, reads []string, schemaFirst bool) string {
	best, bk := "", []int(nil)
	for _, k := range reads {
		if !schemaFirst && k != reads[0] && !r.lex.SameBase(k, reads[0]) {
			continue // the gate reads the most used nearest word's forms
		}
		key := []int{0, 0, 0, commonSuffix(w, k), r.uses[k]}
		if schemaFirst {
			key[2] = r.next[prev][k] + r.next[k][next]
			if r.names[k] != "" {
				key[0] = 1
			}
			if r.samePOS && r.lex.IsNoun(w) == r.lex.IsNoun(k) && r.lex.IsVerb(w) == r.lex.IsVerb(k) {
				key[1] = 1
			}
		}
		if best == "" || slices.Compare(key, bk) > 0 {
			best, bk = k, key
		}
	}
	return best
}

func commonSuffix(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[len(a)-1-n] == b[len(b)-1-n] {
		n++
	}
	return n
}

// ambiguous reports whether w is a word the resolver would read but for
// the different parts of the schema its nearest targets name.
func (r *wordResolver) ambiguous(w string) bool {
	if !r.context || len(w) < minResolveLen || r.known[w] || !alphabetic(w) || index.IsStopword(w) {
		return false
	}
	ts, _ := r.match.NearestAll(w)
	return len(ts) > 0 && r.readings(w) == nil
}

// word is the readings of a lower-case question word, nil when it is
// known itself, too short, a stop word, or the lexicon relates it to no
// target. Safe for concurrent use.
func (r *wordResolver) word(w string) []string {
	if len(w) < minResolveLen || r.known[w] || !alphabetic(w) || index.IsStopword(w) {
		return nil
	}
	r.mu.Lock()
	out, ok := r.memo[w]
	r.mu.Unlock()
	if ok {
		return out
	}
	out = r.readings(w)
	r.mu.Lock()
	r.memo[w] = out
	r.mu.Unlock()
	return out
}

// Closed compounds (compoundTail): a modifier of at least minCompoundLead
// letters and a head noun of at least minCompoundHead.
const (
	minCompoundLead = 4
	minCompoundHead = 4
)

// meaningPrefixes are English's prefixes of four letters or more that
// change what the word after them means ("subcategories" are no
// categories, "supertypes" no types): a word opening with one is no
// compound of a modifier and its head (compoundTail), though the
// lexicon knows some of them as nouns ("over", "super", "anti").
var meaningPrefixes = map[string]bool{"anti": true, "counter": true, "extra": true, "hyper": true, "hypo": true, "infra": true, "inter": true, "intra": true, "mega": true, "micro": true, "mini": true, "multi": true, "over": true, "post": true, "proto": true, "pseudo": true, "self": true, "semi": true, "super": true, "trans": true, "ultra": true, "under": true}

// compoundTail is the head of w read as a closed compound
// (AnchorConfig.CompoundWords): where neither the training nor the
// lexicon knows w in any form, the longest ending of w that the lexicon
// knows as a noun, after a beginning it knows as a noun and no prefix
// that changes a word's meaning (meaningPrefixes) is ("moviemakers":
// movie, makers; "filmgoers": film, goers); "" when none ("helmers": no
// noun begins it; "subcategories": "sub" is too short, and a prefix).
// English writes a compound's head last, and the head says what the
// compound is.
func (r *wordResolver) compoundTail(w string) string {
	if len(w) < minCompoundLead+minCompoundHead || r.known[w] || !alphabetic(w) || len(r.lex.Bases(w)) > 0 {
		return ""
	}
	for k := minCompoundLead; k <= len(w)-minCompoundHead; k++ {
		if lead := w[:k]; !meaningPrefixes[lead] && r.lex.IsNounLemma(lead) && r.lex.IsNoun(w[k:]) {
			return w[k:]
		}
	}
	return ""
}

// compoundTwin is the word the lexicon knows that is compound w with its
// modifier replaced by another lemma of the modifier's most frequent noun
// sense (lexicon.FirstNounLemmas), head being w's head (compoundTail):
// "moviemakers" as "filmmakers" (movie's first sense is film's); the
// first such in the lemmas' order, "" when none is. A compound says more
// than its head: a maker of films directs them.
func (r *wordResolver) compoundTwin(w, head string) string {
	lead := w[:len(w)-len(head)]
	for _, s := range r.lex.FirstNounLemmas(lead) {
		if s != lead && alphabetic(s) && len(r.lex.Bases(s+head)) > 0 {
			return s + head
		}
	}
	return ""
}

// slotArticles are the determiners after which a word that may be a
// noun is one; slotAsking those after which it is one unless a noun
// comes before them (a relative clause: "films which feature X", where
// "feature" is a verb). "that", "all", "some" and "her" stand as pronouns
// too often to say.
var (
	slotArticles = map[string]bool{"the": true, "a": true, "an": true, "every": true, "each": true, "these": true, "those": true, "this": true, "its": true, "their": true, "his": true}
	slotAsking   = map[string]bool{"which": true, "what": true, "whose": true}
)

// nounSlot reports whether word i of a text, raw[i+1] in the lower-case
// words raw ("" at both ends), stands where only a noun may: right after
// one of slotArticles, or after one of slotAsking that no noun (a word
// the lexicon knows as one, no stop word) comes right before, or that a
// mark sets apart from the words before it (marked, with markedSlots:
// "... directorial output; which label is it?" asks with "which", which
// opens no relative clause on "output"), or with prepSlots right after one
// of prepositions, which a verb's base form never follows ("Sort by type
// the pictures that cast X" read "type" as the training's "wrote").
func (r *wordResolver) nounSlot(raw []string, i int, marked bool) bool {
	if slotArticles[raw[i]] || r.prepSlots && prepositions[raw[i]] {
		return true
	}
	if !slotAsking[raw[i]] {
		return false
	}
	prev := ""
	if i > 0 {
		prev = raw[i-1]
	}
	return prev == "" || marked || index.IsStopword(prev) || !alphabetic(prev) || !r.lex.IsNoun(prev)
}

// compoundHead reports whether word i of a text, raw[i+1] in the
// lower-case words raw ("" at both ends), is the head of a compound
// whose first noun, raw[i], was read in a noun slot (CompoundSlots): both
// are nouns in the singular as written, with only spaces between them
// (gap). A singular noun before a verb would take the verb's -s form
// ("the genre labels ..."), so a word in its base form there ("Pick the
// genre label for X's writing work") is the noun phrase's head, not a
// verb to be read as the training's "directed".
func (r *wordResolver) compoundHead(raw []string, i int, gap string) bool {
	return strings.TrimSpace(gap) == "" && r.lex.IsNounLemma(raw[i]) && r.lex.IsNounLemma(raw[i+1])
}

// titlePrepositions are the English prepositions, past the common ones
// (prepositions), after which a bare singular noun before a name is the
// name's title with TitlePrepositions: "between director X and writer Y".
var titlePrepositions = map[string]bool{"between": true, "among": true, "under": true, "like": true, "after": true, "before": true, "than": true, "alongside": true, "beside": true, "besides": true, "opposite": true, "against": true, "behind": true, "without": true, "within": true, "including": true, "except": true, "beyond": true, "near": true, "toward": true, "towards": true, "through": true, "over": true, "into": true, "onto": true, "upon": true, "via": true, "per": true}

// title reports whether word i of a text, raw[i+1] in the lower-case
// words raw ("" at both ends), is a noun in the singular with no
// determiner, right after a preposition (with titlePreps, one of
// titlePrepositions too) or an auxiliary verb, or with
// openingTitles opening the text, or with requestTitles right after a
// first word that is a verb's base form (a request's), and right before a
// mention that starts there (of those ments finds): "director" in "movies
// by director Julia Loktev" and "Which films did writer Nora Ephron
// direct?", "actor" in "Films with actor Tom Hanks", "Director" in
// "Director X: any comedy titles?", "director" in "Name director X's
// features", and with markTitles opening a phrase after a mark (marked:
// "Japanese language films, director X"). English puts a bare
// count noun before a name only as the name's title: it says what the
// node is, not what the question asks for, and read as the training's
// "directors" it would ask for directors (titleVerb reads it). A plural
// there opens a reduced relative clause ("the cast of films X directed"),
// and is read as any word.
func (r *wordResolver) title(raw []string, i int, marked bool, ments func() []linking.LinkedMention) bool {
	if !prepositions[raw[i]] && !(r.titlePreps && titlePrepositions[raw[i]]) && !auxiliaries[raw[i]] && !(r.openingTitles && i == 0) && !(r.requestTitles && i == 1 && r.lex.IsVerb(raw[1])) && !(r.markTitles && marked) || !r.lex.IsNounLemma(raw[i+1]) {
		return false
	}
	return slices.ContainsFunc(ments(), func(m linking.LinkedMention) bool { return m.TokStart == i+1 })
}

// titleMarks are the marks after which a phrase opens (title): a comma,
// colon, semicolon, a sentence's end, an opening bracket or a dash (a
// hyphen only with a space after it: "Alterman-directed" is one word's).
const titleMarks = ",;:.?!([\u2013\u2014"

// phraseMark reports whether gap, the text between two words, holds a
// mark a phrase opens after (titleMarks, or a hyphen with a space after
// it).
func phraseMark(gap string) bool {
	return strings.ContainsAny(gap, titleMarks) || strings.Contains(gap, "- ")
}

// titleVerb is what word i of a text, a title (raw as for title), is
// read as: the known word most used that may be a verb and no noun and
// names, with the schema's words, the one relation the title names as
// written or as read ("director", read "directors", names directed_by:
// "directed"; "movies by director X" is read "movies by directed X"). A
// title says how its name is related, never what the question asks for,
// and a verb names no answer type. "" (unread) when it names no relation
// or several, or when another word of the text names another: the
// question's verb says how the name is related ("Which films did writer
// X direct?"); without others another word's relation does not count (a
// role: "Which of X's movies as director had Y acting in them?").
func (r *wordResolver) titleVerb(raw []string, i int, others bool) string {
	if r.rels == nil {
		return ""
	}
	read := func(j int) string {
		w := raw[j+1]
		if reads := r.word(w); reads != nil {
			w = r.pick(w, raw[j], raw[j+2], reads, true)
		}
		return w
	}
	rels := r.rels(read(i))
	if len(rels) != 1 {
		return ""
	}
	for j := range len(raw) - 2 {
		if others && j != i && slices.ContainsFunc(r.rels(read(j)), func(rel string) bool { return rel != rels[0] }) {
			return ""
		}
	}
	for _, t := range r.targets {
		if r.names[t] == rels[0] && r.lex.IsVerbForm(t) && !r.lex.IsNoun(t) {
			return t
		}
	}
	return ""
}

// role reports whether word i of a text (raw as for title) is a noun in
// the singular with no determiner right after "as": the role a name
// played ("X's movies as director", "Screen credits as writer for X"),
// which says how the name is related, not what the question asks for.
// "such as" introduces examples, no role, and a word a mention starts
// at (of those ments finds) is a value ("Which of the films X wrote
// count as sport?": the genre Sport).
func (r *wordResolver) role(raw []string, i int, ments func() []linking.LinkedMention) bool {
	if raw[i] != "as" || i > 0 && raw[i-1] == "such" || !r.lex.IsNounLemma(raw[i+1]) {
		return false
	}
	return !slices.ContainsFunc(ments(), func(m linking.LinkedMention) bool { return m.TokStart == i })
}

// auxiliaries are English's auxiliary verbs a question's subject follows
// ("Which films did writer X direct?").
var auxiliaries = map[string]bool{"did": true, "does": true, "do": true, "has": true, "have": true, "had": true, "is": true, "was": true, "are": true, "were": true}

// nounWord is word for w where it stands as a noun (nounSlot): the
// readings of its noun senses alone (NearestNoun), so
// "Which type of movie ..." is not read "Which wrote of movie ...", though
// to type is to write; "the screenwriters behind ..." is read "the
// written behind ..." as before (a screenwriter writes). Safe for
// concurrent use.
func (r *wordResolver) nounWord(w string) []string {
	if len(w) < minResolveLen || r.known[w] || !alphabetic(w) || index.IsStopword(w) {
		return nil
	}
	key := "\x00" + w
	r.mu.Lock()
	out, ok := r.memo[key]
	r.mu.Unlock()
	if ok {
		return out
	}
	ts, _ := r.match.NearestNoun(w)
	out = r.readingsOf(ts)
	r.mu.Lock()
	r.memo[key] = out
	r.mu.Unlock()
	return out
}

// resolve returns text with each word outside the mentions and quotes
// that word() resolves replaced by its known word (capitalised when the
// word was), and whether any was. find gives the mentions; it is called
// only when some word resolves.
func (r *wordResolver) resolve(text string, find func(string) []linking.LinkedMention) (string, bool) {
	out, changed, _ := r.resolveRead(text, find)
	return out, changed
}

// readSpan is a word a question was read with (resolveRead): its byte
// offsets in the text as read, and whether it was read inside a mention.
type readSpan struct {
	start, end int
	inMention  bool
	// kind is the node type the word read names as a kind of the type's
	// schema word (wordResolver.kind), "" none.
	kind string
}

// readWords are the words (lower case) of text, as read, at spans.
func readWords(text string, spans []readSpan) map[string]bool {
	if len(spans) == 0 {
		return nil
	}
	out := map[string]bool{}
	for _, s := range spans {
		out[strings.ToLower(text[s.start:s.end])] = true
	}
	return out
}

// readKinds maps the words (lower case) of text, as read, at spans to the
// node type the words read as them name as a kind (readSpan.kind); nil
// when none does.
func readKinds(text string, spans []readSpan) map[string]string {
	var out map[string]string
	for _, s := range spans {
		if s.kind != "" {
			if out == nil {
				out = map[string]string{}
			}
			out[strings.ToLower(text[s.start:s.end])] = s.kind
		}
	}
	return out
}

// resolveRead is resolve, also returning the spans of the words read.
func (r *wordResolver) resolveRead(text string, find func(string) []linking.LinkedMention) (string, bool, []readSpan) {
	// Planning reads words as the schema's where it can (its rules act on
	// them); the text-fit gate, which asks how a query is worded, reads
	// them as the training wrote them.
	schemaFirst := find != nil
	words := linking.MentionWords(text)
	raw := make([]string, len(words)+2) // with "" at both ends
	for i, w := range words {
		raw[i+1] = strings.ToLower(text[w.Start:w.End])
	}
	repl := make([]string, len(words))
	any := false
	titles := make([]bool, len(words))
	slotted := make([]bool, len(words)) // read in a noun slot
	// The mentions are found once, and only when needed: for a word that
	// may be a title, or to place the words read.
	var ments []linking.LinkedMention
	found := false
	mentions := func() []linking.LinkedMention {
		if !found {
			ments, found = find(text), true
		}
		return ments
	}
	for i := range words {
		if schemaFirst && r.titles && r.title(raw, i, i > 0 && phraseMark(text[words[i-1].End:words[i].Start]), mentions) {
			if t := r.titleVerb(raw, i, true); t != "" {
				repl[i], titles[i], any = t, true, true
			}
			continue
		}
		if schemaFirst && r.roles && r.role(raw, i, mentions) {
			if t := r.titleVerb(raw, i, false); t != "" {
				repl[i], titles[i], any = t, true, true
				continue
			}
		}
		if schemaFirst && r.speaker && r.speakerVerb(raw, i) {
			continue
		}
		reads := r.word(raw[i+1])
		if reads == nil && schemaFirst && r.compounds {
			if head := r.compoundTail(raw[i+1]); head != "" {
				word := head
				if twin := r.compoundTwin(raw[i+1], head); twin != "" {
					word = twin
				}
				if reads = r.word(word); reads == nil {
					reads = []string{word}
				}
			}
		}
		if reads == nil && schemaFirst && r.ambiguous(raw[i+1]) {
			reads = r.inContext(raw[i+1], raw[i+2])
		}
		// The gap before an asking word is looked at only with markedSlots.
		marked := r.markedSlots && i > 1 && slotAsking[raw[i]] && phraseMark(text[words[i-2].End:words[i-1].Start])
		if schemaFirst && r.nounSlots && r.nounSlot(raw, i, marked) && r.lex.IsNoun(raw[i+1]) {
			reads, slotted[i] = r.nounWord(raw[i+1]), true
		} else if schemaFirst && r.compoundSlots && reads != nil && i > 0 && slotted[i-1] && r.compoundHead(raw, i, text[words[i-1].End:words[i].Start]) {
			reads = r.nounWord(raw[i+1])
		}
		if reads != nil {
			repl[i] = r.pick(raw[i+1], raw[i], raw[i+2], reads, schemaFirst)
			any = true
		}
	}
	if !any {
		return text, false, nil
	}
	if find != nil {
		ments = mentions()
	}
	quoted := quotedSpans(text, true)
	var b strings.Builder
	var read []readSpan
	last, changed := 0, false
	for i, w := range words {
		if repl[i] == "" || inSpans(w.Start, nil, quoted) {
			continue
		}
		if schemaFirst && r.relOnly != nil && quoteLabel(text, w.End, quoted, ments) && r.relOnly(repl[i]) {
			continue
		}
		inMention := inSpans(w.Start, ments, nil)
		if inMention && (r.inMentions == nil || !r.inMentions(text, ments, i, repl[i])) {
			continue
		}
		t := repl[i]
		if c, _ := utf8.DecodeRuneInString(text[w.Start:]); unicode.IsUpper(c) {
			t = strings.ToUpper(t[:1]) + t[1:]
		}
		b.WriteString(text[last:w.Start])
		kind := ""
		if r.kind != nil && !titles[i] {
			kind = r.kind(raw[i+1], slotted[i])
		}
		read = append(read, readSpan{b.Len(), b.Len() + len(t), inMention, kind})
		b.WriteString(t)
		last, changed = w.End, true
	}
	if !changed {
		return text, false, nil
	}
	b.WriteString(text[last:])
	return b.String(), true, read
}

// quoteLabel reports whether a quotation (of quoted) that names no node
// (no mention of ments is the quoted text) opens right after a word
// ending at end, past spaces: the word labels the quoted text ("the
// fragment 'travel at an excessive velocity'", "the phrase ...") and
// names what the quotation is, not a step from it; read as a word of a
// relation ("fragment": part) it ruled out the plans the question asks
// for, which walk none. A quoted name ("the helmer 'Paul Smith'") is an
// anchor, and the word before it may say its role.
func quoteLabel(text string, end int, quoted [][2]int, ments []linking.LinkedMention) bool {
	at := end + len(text[end:]) - len(strings.TrimLeft(text[end:], " "))
	for _, q := range quoted {
		if q[0] != at {
			continue
		}
		_, open := utf8.DecodeRuneInString(text[q[0]:])
		_, close := utf8.DecodeLastRuneInString(text[:q[1]])
		for _, m := range ments {
			if m.Start == q[0]+open && m.End == q[1]-close {
				return false
			}
		}
		return true
	}
	return false
}

func inSpans(at int, ments []linking.LinkedMention, quoted [][2]int) bool {
	for _, m := range ments {
		if at >= m.Start && at < m.End {
			return true
		}
	}
	for _, q := range quoted {
		if at >= q[0] && at < q[1] {
			return true
		}
	}
	return false
}

// relationOnly reports whether a reading names a relation of the schema
// and no type (readInMention, QuoteLabels).
func (p *LinkingPlanner) relationOnly(reading string) bool {
	nb := p.names.namedBy(strings.ToLower(reading))
	return len(nb.rels) > 0 && len(nb.types) == 0
}

// readInMention reports whether word i of text, inside some of ments,
// may be read as reading all the same (AnchorConfig.ReadMentions): no
// longer mention covers it, reading names a relation of the schema and no
// type, the word before it is none of AnchorAfter, and another mention,
// not overlapping it, is one the question may anchor on (neither a
// non-anchor text nor a weak mention, nor an unseen word the lexicon
// reads).
func (p *LinkingPlanner) readInMention(text string, ments []linking.LinkedMention, i int, reading string) bool {
	a := p.Cfg.Anchors
	if !p.relationOnly(reading) {
		return false
	}
	if i > 0 {
		words := linking.MentionWords(text)
		prev := strings.ToLower(text[words[i-1].Start:words[i-1].End])
		if _, ok := slices.BinarySearch(a.AnchorAfter, prev); ok {
			return false
		}
	}
	other := false
	for mi := range ments {
		m := &ments[mi]
		if i >= m.TokStart && i < m.TokEnd {
			if m.TokEnd-m.TokStart > 1 {
				return false
			}
			continue
		}
		t := strings.ToLower(m.Text)
		if p.isNonAnchor(m.Text) {
			continue
		}
		if _, weak := slices.BinarySearch(a.WeakMentions, t); weak {
			continue
		}
		if p.words.word(t) != nil {
			continue // an unseen word that may be read itself
		}
		other = true
	}
	return other
}

// speakerSubjects are the words by which a question's speaker or its
// addressee is a verb's subject ("I'm", "you").
var speakerSubjects = map[string]bool{"i": true, "we": true, "you": true, "i'm": true, "we're": true, "you're": true, "i've": true, "we've": true, "you've": true, "i'd": true, "we'd": true, "you'd": true, "i'll": true, "we'll": true, "you'll": true}

// speakerVerb reports whether raw[i+1] (resolveRead's words, "" at both
// ends) is a verb's form whose subject is the speaker or the addressee
// (AnchorConfig.SpeakerVerbs): right after one of speakerSubjects, or
// after a form of "be" right after one ("I am looking"), or a present
// participle opening the text before a preposition, with no subject said
// ("Looking for movies ...", with OpeningAdverbs also past adverbs:
// "Looking only at films in Spanish, ..."). Such a verb says how the question is put,
// not what the graph holds: read as a known word ("looking" as
// "appeared", a synonym in one sense) it named a relation the question
// never asks about.
func (r *wordResolver) speakerVerb(raw []string, i int) bool {
	w := raw[i+1]
	if !r.lex.IsVerbForm(w) {
		return false
	}
	prev := strings.ReplaceAll(raw[i], "’", "'")
	switch {
	case speakerSubjects[prev]:
		return true
	case beForms[prev] && i > 0 && speakerSubjects[strings.ReplaceAll(raw[i-1], "’", "'")]:
		return true
	}
	if i != 0 || !strings.HasSuffix(w, "ing") {
		return false
	}
	// With openingAdverbs, past up to maxOpeningAdverbs words the lexicon
	// has as neither a noun nor a verb's form, adverbs, which it does not
	// hold ("Looking only at films in Spanish, ...").
	j := i + 2
	for k := 0; r.openingAdverbs && k < maxOpeningAdverbs && j < len(raw)-1 && alphabetic(raw[j]) && !prepositions[raw[j]] && !index.IsStopword(raw[j]) && !r.lex.IsNoun(raw[j]) && !r.lex.IsVerbForm(raw[j]); k++ {
		j++
	}
	return prepositions[raw[j]]
}

// maxOpeningAdverbs is how many adverbs may stand between a participle
// opening a question and its preposition (speakerVerb).
const maxOpeningAdverbs = 2
