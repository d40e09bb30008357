package planner

import (
	"bytes"
	"cmp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unicode"
	"unicode/utf8"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/data/index"
	"github.com/strata-retrieval/strata/data/lexicon"
	"github.com/strata-retrieval/strata/graphops/linking"
)

// The plan ranker's compositional evidence: which parts of a candidate's
// plan the question's words name, whatever their order or the sentence
// around them. A template classifier learns whole sentence frames; these
// features tie single words to single parts of a plan (the type it
// answers with, each relation it walks, a universal step, an
// intersection), so a question in a frame the training never used still
// counts "actors" for a plan that answers with people and "directed" for
// one that walks directed_by. Words never seen in training add nothing.

// PlanElements are the parts of a candidate's plan that a question's
// words can name: "A:" and the type it reaches (of its first node, or its
// target type without a reach), "R:" and each relation (PlanRelations),
// "U" for a universal step, "I" for an intersection of paths, "H" and the
// longest path's hop count, and "T" for an attribute filter.
func PlanElements(p *data.Plan, answerType string) []string {
	out := []string{"A:" + answerType}
	for _, rel := range PlanRelations(p) {
		out = append(out, "R:"+rel)
	}
	hops, every := 0, false
	for _, path := range p.Paths {
		hops = max(hops, path.Hops())
		for _, st := range path.Steps {
			every = every || st.Every
		}
	}
	if every {
		out = append(out, "U")
	}
	if len(p.Paths) > 1 {
		out = append(out, "I")
	}
	out = append(out, "H"+strconv.Itoa(hops))
	if len(p.Attributes) > 0 {
		out = append(out, "T")
	}
	return out
}

// schemaNames are the words (of three or more letters, singular) of each
// node type's and each relation's name: the schema's own words for what a
// question can ask for.
type schemaNames struct {
	types map[string][]string // type -> prefixes
	rels  map[string][]string // relation -> prefixes
	// lex, with AnchorConfig.Lexicon, also lets a word name a schema word
	// it shares a base form with ("wrote" written_by, "starring"
	// starred_actors); bases holds the schema words' base forms, looked up
	// once (setLexicon), as names compares every word with all of them.
	lex   *lexicon.Lexicon
	bases map[string][]string
	// memo holds what a question word names (namedBy), for the first
	// maxNamedMemo distinct words: the same words come in every candidate
	// of a question and in many questions.
	memo  *sync.Map
	nmemo *atomic.Int64
	// typeWordTypes counts the node types whose names have each word
	// (WordNet's "noun" names 26).
	typeWordTypes map[string]int
}

// maxNamedMemo bounds the words schemaNames remembers (a served planner
// sees any words).
const maxNamedMemo = 1 << 16

// namedBy is what one question word names: the node types and the
// relations (names).
type namedBy struct{ types, rels, synTypes, synRels map[string]bool }

// namedBy returns the types and relations w names, remembered.
func (n *schemaNames) namedBy(w string) *namedBy {
	if v, ok := n.memo.Load(w); ok {
		return v.(*namedBy)
	}
	x := n.word(w)
	nb := &namedBy{types: map[string]bool{}, rels: map[string]bool{}}
	for t, ws := range n.types {
		if n.wordNames(x, ws) {
			nb.types[t] = true
		}
	}
	for r, ws := range n.rels {
		if n.wordNames(x, ws) {
			nb.rels[r] = true
		}
	}
	if n.lex != nil && len(w) >= minResolveLen {
		for t, ws := range n.types {
			if !nb.types[t] && slices.ContainsFunc(ws, func(s string) bool { return n.lex.FirstNounSynonym(w, s) }) {
				if nb.synTypes == nil {
					nb.synTypes = map[string]bool{}
				}
				nb.synTypes[t] = true
			}
		}
		// A relation whose schema word's most frequent noun sense has w
		// among its lemmas ("component" of part: part, portion, component
		// part, component, constituent).
		for r, ws := range n.rels {
			if !nb.rels[r] && slices.ContainsFunc(ws, func(s string) bool { return len(s) >= minResolveLen && n.lex.FirstNounSynonym(s, w) }) {
				if nb.synRels == nil {
					nb.synRels = map[string]bool{}
				}
				nb.synRels[r] = true
			}
		}
	}
	if n.nmemo.Add(1) <= maxNamedMemo {
		n.memo.Store(w, nb)
	}
	return nb
}

// maxKindLevels: how many hypernym links may lead from a word's sense up
// to the type it names as a kind of it (KindTypes): "actors" are three
// from person, "screenwriters" and "directors" four.
const maxKindLevels = 4

// kindType is the node type whose schema word (one naming that type
// alone) has, as its most frequent noun sense, the nearest hypernym of
// w's most frequent noun sense, at most maxKindLevels links up
// (lexicon.KindLevel), and that many links; "" when none is, or two
// types are as near.
func (n *schemaNames) kindType(w string) (string, int) {
	found, best := "", maxKindLevels+1
	for t, ws := range n.types {
		lv := -1
		for _, s := range ws {
			if n.typeWordTypes[s] != 1 || len(s) < minResolveLen {
				continue
			}
			if k := n.lex.KindLevel(w, s, maxKindLevels); k >= 0 && (lv < 0 || k < lv) {
				lv = k
			}
		}
		switch {
		case lv < 0 || lv > best:
		case lv < best:
			found, best = t, lv
		case lv == best:
			found = ""
		}
	}
	return found, best
}

// maxGeneralLevels: how many hypernym links may lead from the most
// frequent noun sense of a type's schema word up to a sense of a word
// that names the type as a more general word (GeneralTypes): a genre is a
// kind, a kind is a category.
const maxGeneralLevels = 2

// generalType is the node type whose schema word (one naming that type
// alone), in its most frequent noun sense, has a noun sense of w at most
// maxGeneralLevels hypernym links up (lexicon.GeneralLevel; 0 when w's
// sense is the word's own), that many links and the schema word; "" when
// none has, or two types are as near.
func (n *schemaNames) generalType(w string) (string, int, string) {
	found, best, word := "", maxGeneralLevels+1, ""
	for t, ws := range n.types {
		lv, lw := -1, ""
		for _, s := range ws {
			if n.typeWordTypes[s] != 1 || len(s) < minResolveLen {
				continue
			}
			if k := n.lex.GeneralLevel(s, w, maxGeneralLevels); k >= 0 && (lv < 0 || k < lv) {
				lv, lw = k, s
			}
		}
		switch {
		case lv < 0 || lv > best:
		case lv < best:
			found, best, word = t, lv, lw
		case lv == best:
			found = ""
		}
	}
	if found == "" {
		return "", 0, ""
	}
	return found, best, word
}

// siblingType is generalType for one of the lemmas of the hypernyms of
// w's most frequent noun sense (lexicon.HypernymLemmas, one link): the
// type whose schema word lies at most maxGeneralLevels links below one,
// that many links, and the schema word; "" when none does, or two
// hypernyms' lemmas name different types, or one as near as another.
// "type" is a kind, as a genre is: "Which type of movie ..." asks for a
// genre.
func (n *schemaNames) siblingType(w string) (string, int, string) {
	found, best, word, tie := "", maxGeneralLevels+1, "", false
	for _, h := range n.lex.HypernymLemmas(w, 1) {
		t, lv, lw := n.generalType(h)
		switch {
		case t == "" || lv > best:
		case lv < best:
			found, best, word, tie = t, lv, lw, false
		case t != found:
			tie = true
		}
	}
	if found == "" || tie {
		return "", 0, ""
	}
	return found, best, word
}

// hyphenModifiers marks, for each token of text (index.TokenizeAll),
// whether it is a part of a hyphened word that a word other than a stop
// word follows: a word that modifies the noun after it ("Sioux-language
// movies", "well-known actors"; not "co-stars of X"), where a noun's slot
// is (NounSlots).
func hyphenModifiers(text string) []bool {
	var out []bool
	fields := strings.Fields(text)
	for i, f := range fields {
		toks := index.TokenizeAll(nil, f)
		mod := i < len(fields)-1 && strings.Contains(strings.Trim(f, "-"), "-")
		if mod {
			next := index.TokenizeAll(nil, fields[i+1])
			r, _ := utf8.DecodeRuneInString(fields[i+1])
			// "Which co-stars of X": the hyphened word is the noun.
			mod = (unicode.IsLetter(r) || unicode.IsDigit(r)) && len(next) > 0 && !index.IsStopword(next[0])
		}
		for range toks {
			out = append(out, mod)
		}
	}
	return out
}

// slotModifier reports whether lower-case w, in an asking word's slot,
// may be an adjective that names no type ("which new releases"), so the
// noun after it names what is asked (SlotHeads, clauseType).
func (p *LinkingPlanner) slotModifier(w string, kinds map[string]string) bool {
	lex := p.names.lex
	if lex == nil || !lex.IsAdjective(w) {
		return false
	}
	t, _ := p.slotType(w, kinds, true)
	return t == ""
}

// hyphenedFirst reports whether text's first word is joined by a hyphen
// to a word after it ("Second-generation", "Well-known"; not "-based").
func hyphenedFirst(text string) bool {
	f, _, _ := strings.Cut(strings.TrimLeftFunc(text, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }), " ")
	i := strings.IndexByte(f, '-')
	if i <= 0 || i == len(f)-1 {
		return false
	}
	r, _ := utf8.DecodeRuneInString(f[i+1:])
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

// setLexicon lets the names read words through lex.
func (n *schemaNames) setLexicon(lex *lexicon.Lexicon) {
	n.lex, n.bases = lex, map[string][]string{}
	n.memo.Clear()
	n.nmemo.Store(0)
	for _, m := range []map[string][]string{n.types, n.rels} {
		for _, ws := range m {
			for _, w := range ws {
				n.bases[w] = lex.Bases(w)
			}
		}
	}
}

func nameWords(name string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(strings.ToLower(name), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if len([]rune(w)) >= 3 {
			out = append(out, forms(w)...)
		}
	}
	return out
}

// forms are the readings of a lower-case question word as a singular:
// the word itself and, for a plural ending, the word without it
// ("actors" actor, "genres" genre and genr, "movies" movie, movi and
// movy, "classes" classe and class). A word names a schema word when one
// of its forms is that word, so no reading of English plurals has to be
// chosen.
func forms(w string) []string {
	out := []string{w}
	if strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && len(w) > 3 {
		out = append(out, w[:len(w)-1])
		if strings.HasSuffix(w, "es") && len(w) > 4 {
			out = append(out, w[:len(w)-2])
		}
		if strings.HasSuffix(w, "ies") && len(w) > 4 {
			out = append(out, w[:len(w)-3]+"y")
		}
	}
	return out
}

// names reports whether a lower-case question word names a schema word:
// whether a form of it is a form of one of a type's or relation's words
// (nameWords), so "actor" names starred_actors and "movies" names movie;
// with the lexicon, also whether it shares a base form with one ("wrote"
// written_by).
func (n *schemaNames) names(w string, schema []string) bool {
	return n.wordNames(n.word(w), schema)
}

// nameWord is a question word ready to be compared with schema words: its
// forms and, with the lexicon, its base forms, looked up once for the
// comparisons with every type and relation.
type nameWord struct {
	w            string
	forms, bases []string
}

func (n *schemaNames) word(w string) nameWord {
	x := nameWord{w: w, forms: forms(w)}
	if n.lex != nil && len(w) >= minResolveLen {
		x.bases = n.lex.Bases(w)
	}
	return x
}

// wordNames is names for a prepared word.
func (n *schemaNames) wordNames(x nameWord, schema []string) bool {
	for _, f := range x.forms {
		if slices.Contains(schema, f) {
			return true
		}
	}
	if n.lex != nil && len(x.w) >= minResolveLen {
		for _, s := range schema {
			bs, ok := n.bases[s]
			if !ok {
				bs = n.lex.Bases(s)
			}
			if lexicon.SameBases(x.w, x.bases, s, bs) {
				return true
			}
		}
	}
	return false
}

func newSchemaNames(s *data.Schema) schemaNames {
	n := schemaNames{types: map[string][]string{}, rels: map[string][]string{}, memo: &sync.Map{}, nmemo: &atomic.Int64{}}
	n.typeWordTypes = map[string]int{}
	for _, t := range s.NodeTypes {
		n.types[t] = nameWords(t)
		for _, w := range slices.Compact(slices.Sorted(slices.Values(n.types[t]))) {
			n.typeWordTypes[w]++
		}
	}
	for _, r := range s.RelationTypes {
		n.rels[r] = nameWords(r)
	}
	return n
}

// nameRoles returns, for each node type the question's words name
// (names), the part the type plays in the candidate: "answer" (the type
// it reaches), "anchor" (an anchor's type) or "other"; and how many
// relations the words name that the plan does not walk. words are the
// question's words outside the candidate's anchors (questionWords).
func (n schemaNames) nameRoles(words []string, p *data.Plan, answerType string) (roles []string, relsOut int) {
	nbs := make([]*namedBy, len(words))
	for i, w := range words {
		nbs[i] = n.namedBy(w)
	}
	named := func(pick func(*namedBy) bool) bool {
		return slices.ContainsFunc(nbs, pick)
	}
	for t := range n.types {
		if !named(func(nb *namedBy) bool { return nb.types[t] }) {
			continue
		}
		role := "other"
		if t == answerType {
			role = "answer"
		} else {
			for _, path := range p.Paths {
				if path.Anchor() == t {
					role = "anchor"
				}
			}
		}
		roles = append(roles, role)
	}
	slices.Sort(roles)
	in := PlanRelations(p)
	for r := range n.rels {
		if named(func(nb *namedBy) bool { return nb.rels[r] }) && !slices.Contains(in, r) {
			relsOut++
		}
	}
	return roles, relsOut
}

// askedType is the node type that the question asks for: the type a
// word right after an asking word (AnchorConfig.AskWords: "which", "what"
// where the training bears them out) names, else that of the first word
// of the question's words outside the candidate's anchors (restriction,
// in order) that names a type (wordType); "" when no word names a type.
// An asking word comes first because a verb may lean towards a type only
// through the frames it was trained in: "appeared" came only in questions
// asking for the directors of an actor's films, yet "X appeared in which
// pictures?" asks for films.
func (p *LinkingPlanner) askedType(restriction string) string {
	t, _ := p.askedTypeOf(restriction, nil, nil, false)
	return t
}

// askedTypeBy is askedType and whether the schema's own word named it
// (not a lift learned from the training questions).
//
// kinds maps words the question was read with (resolveRead) to the type
// the word read as them names as a kind (readSpan.kind): "Which
// screenwriters wrote ..." is read "Which written wrote ...", and asks
// for people all the same.
//
// Only what rules candidates out (typeConflict) reads words as kinds of a
// type (kinds, kindType) and a request's verb as an asking word
// (verbType); the plan ranker's features (askedType) do not, so the
// ranker trains as it did without them.
func (p *LinkingPlanner) askedTypeBy(restriction string, kinds map[string]string) (string, bool) {
	return p.askedTypeOf(restriction, kinds, nil, true)
}

// askedTypeRead is askedTypeBy for a question read with the words read
// (readWords): with SlotLifts, a noun after an asking determiner names
// the type a training lift borne out gives it (liftedSlot) only where
// the question writes it, not where the lexicon read an unseen word as
// it.
func (p *LinkingPlanner) askedTypeRead(restriction string, kinds map[string]string, read map[string]bool) (string, bool) {
	return p.askedTypeOf(restriction, kinds, read, true)
}

// askedTypeOf is askedTypeBy, reading words as kinds of a type only with
// byKind.
func (p *LinkingPlanner) askedTypeOf(restriction string, kinds map[string]string, read map[string]bool, byKind bool) (string, bool) {
	if p.Cfg.Anchors.SynonymTypes {
		// A quotation states a value ("described as 'for an individual
		// place setting'"); it asks for nothing.
		restriction = unquoted(restriction)
	}
	toks := index.TokenizeAll(nil, restriction)
	if ask := p.Cfg.Anchors.AskWords; len(ask) > 0 {
		var mods []bool
		if byKind && p.Cfg.Anchors.NounSlots {
			if mods = hyphenModifiers(restriction); len(mods) != len(toks) {
				mods = nil // the two tokenizations disagree: no slot is skipped
			}
		}
		// With WhSlotsFirst, a first pass reads only the slots of "which",
		// "what" and "whose", and only a type named there (the schema's
		// word or the lexicon) answers it: "Each picture X directed is a
		// film of which genre?" asks for a genre, though "is" asked in
		// the training and "film" comes first.
		passes := []bool{false}
		if byKind && p.Cfg.Anchors.WhSlotsFirst {
			passes = []bool{true, false}
		}
		for _, whOnly := range passes {
			for i := 1; i < len(toks); i++ {
				if _, ok := slices.BinarySearch(ask, toks[i-1]); !ok || whOnly && !askingDeterminers[toks[i-1]] {
					continue
				}
				// The word after the asking word and the values that
				// restrict it ("Which 2000 releases"): a number names no
				// type.
				j := i
				// "Which of the 2000 releases" and "which new releases"
				// ask as "Which 2000 releases" does (SlotHeads); "genre
				// of all their films" asks for a genre.
				heads := byKind && p.Cfg.Anchors.SlotHeads && askingDeterminers[toks[i-1]]
				if heads && toks[j] == "of" && j < len(toks)-1 {
					j++
					for j < len(toks)-1 && (index.IsStopword(toks[j]) || determiners[toks[j]]) {
						j++
					}
				}
				for heads && j < len(toks)-1 && p.slotModifier(toks[j], kinds) {
					j++
				}
				if len(p.Cfg.Anchors.TypeWords) > 0 {
					for j < len(toks)-1 && !alphabetic(toks[j]) {
						j++
					}
				}
				// Nor does a hyphened word before the noun ("Which
				// Sioux-language movies": movies, not the Sioux, a
				// people). After "who" the hyphened word is the verb, with
				// CoWords: "Who co-directed movies with X?" asks for
				// people.
				for j < len(toks)-1 && j < len(mods) && mods[j] && !(p.Cfg.Anchors.CoWords && toks[i-1] == "who") {
					j++
				}
				// A question word that determines no noun is followed by
				// its verb, which names no kind (WhVerbSlots): "Who shows
				// up ..." asks for no show.
				slotKind := byKind && !(p.Cfg.Anchors.WhVerbSlots && whWords[toks[i-1]] && !askingDeterminers[toks[i-1]])
				// "List everyone cast in ..." asks for people
				// (PersonSlots); "What has everyone ..." does not.
				if t := p.personSlotType(toks[j]); byKind && t != "" && !whWords[toks[i-1]] {
					return t, true
				}
				t, named := p.slotType(toks[j], kinds, slotKind)
				// With SlotLifts a noun the question writes there names the
				// type a training lift borne out gives it ("Which people
				// act in films X wrote?" asks for persons), also a lift
				// below the 2 wordType asks ("Which 1970 feature ...":
				// films).
				if lifts := slotKind && p.Cfg.Anchors.SlotLifts && askingDeterminers[toks[i-1]] && !read[toks[j]]; lifts && t == "" {
					t = p.borneOutType(toks[j])
					named = t != ""
				} else if lifts && !named && p.liftedSlot(toks[j], t) {
					named = true
				}
				if t == "" {
					continue
				}
				if slotKind && p.Cfg.Anchors.CompoundHeads {
					if ht, hn := p.compoundHead(toks, j, kinds); ht != "" {
						t, named = ht, hn
					}
				}
				if whOnly && !named {
					continue
				}
				return t, named
			}
		}
	}
	// "N of M" opening the question asks for N (NounHeads): M's first
	// word names no asked type ("cast of the films directed by X"), past
	// the values that restrict it with OfValues ("cast of X's 1926
	// films": the anchor is out of the restriction, the year in it).
	ofObject := -1
	if byKind && p.Cfg.Anchors.NounHeads && len(toks) > 2 && toks[1] == "of" {
		ofObject = 2
	}
	// With HeadsOf, so does the first "of" anywhere after nouns one of
	// which names the answers by a relation (an answer word, or a word
	// naming a relation: namedRelations): "Name the cast members of X's
	// 2000 films" asks for the cast, not films; "Give me a list of films"
	// still asks for films.
	if byKind && p.Cfg.Anchors.HeadsOf && ofObject < 0 && p.names.lex != nil {
		for k := 2; k < len(toks)-1 && ofObject < 0; k++ {
			if toks[k] != "of" {
				continue
			}
			for j := k - 1; j >= 0 && !index.IsStopword(toks[j]) && p.names.lex.IsNoun(toks[j]); j-- {
				if _, aw := p.Cfg.Anchors.AnswerWords[toks[j]]; aw || len(p.namedRelations(toks[j], nil)) > 0 {
					ofObject = k + 1
					break
				}
			}
		}
	}
	if ofObject >= 0 {
		for ofObject < len(toks)-1 && (index.IsStopword(toks[ofObject]) || p.Cfg.Anchors.OfValues && !alphabetic(toks[ofObject])) {
			ofObject++
		}
	}
	for i, w := range toks {
		if index.IsStopword(w) || i == ofObject || p.Cfg.Anchors.PlainDeterminers && determiners[w] && !askingDeterminers[w] {
			continue
		}
		// A word read as a kind of a type that opens the text, past
		// determiners alone, names that type as in an asking word's slot
		// (KindWords): "Screenwriters behind X's movies as an actor?",
		// read "Written behind ...", asks for people, not for X's movies;
		// "What western features list X in the credits as a performer?"
		// and "X as a writer: drama films?" still ask for films.
		if t := kinds[w]; byKind && p.Cfg.Anchors.KindWords && t != "" && !slices.ContainsFunc(toks[:i], func(d string) bool { return !determiners[d] }) {
			return t, true
		}
		if t, named := p.wordType(w); t != "" {
			return t, named
		}
	}
	return "", false
}

// compoundHead is the type named by the word after toks[j], a word in an
// asking word's slot that names a type itself, where that word is the
// head of a compound the slot's word modifies (CompoundHeads): a noun
// that no verb's form can be ("Which film directors has X worked for?"
// asks for directors, people; "Which film stars X?" still asks for a
// film: "stars" may be a verb) or a word read as a kind (resolveRead's
// "screenwriters", read "written"), and naming another type; "" where
// there is none.
func (p *LinkingPlanner) compoundHead(toks []string, j int, kinds map[string]string) (string, bool) {
	lex := p.names.lex
	if j+1 >= len(toks) || lex == nil {
		return "", false
	}
	h := toks[j+1]
	if kinds[h] == "" && (!alphabetic(h) || index.IsStopword(h) || !lex.IsNoun(h) || lex.IsVerbForm(h)) {
		return "", false
	}
	t, _ := p.slotType(toks[j], kinds, true)
	if ht, named := p.slotType(h, kinds, true); ht != "" && ht != t {
		return ht, named
	}
	return "", false
}

// wordType is the node type a lower-case word names: the one type whose
// schema name it names (namedType; named true) or, failing that, the
// answer type its lift towards is at least 2 (Elements, the "A:"
// labels); "" when it names none. A word that names several types
// (WordNet's "noun" names every noun.* type) names none.
func (p *LinkingPlanner) wordType(w string) (string, bool) {
	if t := p.namedType(w); t != "" {
		return t, true
	}
	ew := p.Cfg.Anchors.Elements
	if ew == nil {
		return "", false
	}
	best, bl := "", 2.0
	for _, t := range p.skb.Schema.NodeTypes {
		if l := ew.Lift(w, "A:"+t); l >= bl {
			best, bl = t, l
		}
	}
	return best, false
}

// Asking words: a word (letters only: "the 2001 films" states a value,
// it asks for nothing) is one when, in at least minAskQuestions training
// questions, the word after it names a type (wordType), and in at least
// minAskShare of them that type is the answer's.
const (
	minAskQuestions = 5
	minAskShare     = 0.9
)

// LearnAskWords returns the asking words of training questions (their
// restrictions and answer types; "" for none), sorted: the words after
// which a word naming a type names the type the question asks for
// ("which films", "what genre"; not "the" of "Who directed the films
// starring X?"). The planner's Elements must be set.
func (p *LinkingPlanner) LearnAskWords(restrictions, answerTypes []string) []string {
	n, same := map[string]int{}, map[string]int{}
	for i, r := range restrictions {
		if answerTypes[i] == "" {
			continue
		}
		toks := index.TokenizeAll(nil, r)
		seen := map[string]bool{}
		for j := 1; j < len(toks); j++ {
			w := toks[j-1]
			if seen[w] {
				continue
			}
			t, _ := p.wordType(toks[j])
			if t == "" {
				continue
			}
			seen[w] = true
			n[w]++
			if t == answerTypes[i] {
				same[w]++
			}
		}
	}
	var out []string
	for w, k := range n {
		if k >= minAskQuestions && float64(same[w]) >= minAskShare*float64(k) && alphabetic(w) {
			out = append(out, w)
		}
	}
	slices.Sort(out)
	return out
}

// namedType is the one node type whose name a question word names
// (names), "" when it names none or several (without NamedType, the first
// it names); with SynonymTypes, when it names none, the one type with a
// word in the most frequent noun sense of it in the lexicon ("films":
// movie; FirstNounSynonym), "" when several.
func (p *LinkingPlanner) namedType(w string) string {
	found := ""
	nb := p.names.namedBy(w)
	for _, t := range p.skb.Schema.NodeTypes {
		if nb.types[t] {
			if !p.Cfg.Anchors.NamedType {
				return t
			}
			if found != "" {
				return ""
			}
			found = t
		}
	}
	if found != "" || !p.Cfg.Anchors.SynonymTypes {
		return found
	}
	for _, t := range p.skb.Schema.NodeTypes {
		if nb.synTypes[t] {
			if found != "" {
				return ""
			}
			found = t
		}
	}
	return found
}

// slotType is the type word w names where a question names what it asks
// for (askedTypeOf), and whether the schema's own word (or the lexicon)
// named it rather than a training lift; "" when none.
func (p *LinkingPlanner) slotType(w string, kinds map[string]string, byKind bool) (string, bool) {
	if t := kinds[w]; t != "" {
		return t, true
	}
	// A type word names its type before a training lift does
	// ("releases" after "Find the cast of the 2003 ..." lifts
	// towards people).
	if t := p.namedType(w); t != "" {
		return t, true
	}
	if t := p.typeWordType(w); t != "" {
		return t, true
	}
	if t, named := p.wordType(w); t != "" {
		return t, named
	}
	if t := p.kindType(w, true); byKind && t != "" {
		return t, true
	}
	return "", false
}

// askedVerb is a question's verbType: the type and whether it was named.
type askedVerb struct {
	t     string
	named bool
}

// verbType is the type a request's verb asks for (LeadVerbAsks): the
// type its object's first word names (slotType), past stop words and
// numbers ("Name the 2008 releases ..."), read off the whole question,
// so every candidate sees the same whatever its anchors leave ("Recommend
// a busex item in the X category.": "busex", a value, names none), and
// whether the schema's word or the lexicon named it; "" when the
// question opens with no such verb (or with an asking word, or, with
// NounHeads, a word before a preposition) or its object's first word
// names no type.
func (p *LinkingPlanner) verbType(text string, kinds map[string]string) (string, bool) {
	if !p.Cfg.Anchors.LeadVerbAsks {
		return "", false
	}
	toks := index.TokenizeAll(nil, unquoted(text))
	// A request put as a question to its addressee ("Could you name the
	// screenwriters of ...", "Can you list ...") has its verb after
	// "you" (AddressedRequests).
	if p.Cfg.Anchors.AddressedRequests && len(toks) > 3 && toks[1] == "you" && p.leadVerb(toks[2]) {
		toks = toks[2:]
	}
	// A first word before a preposition is a noun ("Cast of films
	// directed by X"): a request's verb has its object next.
	if len(toks) < 2 || !p.leadVerb(toks[0]) || p.Cfg.Anchors.NounHeads && prepositions[toks[1]] {
		return "", false
	}
	// Nor is a first word hyphened to the next one, a compound's
	// modifier ("Second-generation hyponyms of X", HyphenedLeads).
	if p.Cfg.Anchors.HyphenedLeads && hyphenedFirst(text) {
		return "", false
	}
	// An asking word's slot is the word right after it (askedTypeBy); with
	// RequestObject a determiner there names nothing, and the request's
	// object past it does ("List the writers of ...").
	if _, ask := slices.BinarySearch(p.Cfg.Anchors.AskWords, toks[0]); ask && (!p.Cfg.Anchors.RequestObject || !index.IsStopword(toks[1])) {
		return "", false
	}
	j := 1
	// The addressee ("Give me the ...", "Show us ...") is not the object.
	if p.Cfg.Anchors.RequestObject && j < len(toks)-1 && (toks[j] == "me" || toks[j] == "us") {
		j++
	}
	for j < len(toks)-1 && (!alphabetic(toks[j]) || index.IsStopword(toks[j]) || p.Cfg.Anchors.ObjectModifiers && p.modifierOnly(toks[j])) {
		j++
	}
	// A bare singular noun right after the verb and before a name is the
	// name's title, and the first word no request's verb at all
	// (TitleObjects): "Cast member X; release year 2000; titles wanted."
	// asks for no member.
	if p.Cfg.Anchors.TitleObjects && j == 1 && p.titleObject(text, toks[1]) {
		return "", false
	}
	// "everyone" asks for what "who" asks for (PersonObjects).
	if p.Cfg.Anchors.PersonObjects && personPronouns[toks[j]] && p.Cfg.Anchors.Lead != nil {
		if t := p.whWordType("who"); t != "" {
			return t, true
		}
	}
	return p.slotType(toks[j], kinds, true)
}

// modifierOnly reports whether the lexicon has w as an adjective and
// neither as a noun nor as a verb's form ("other", "different"): a word
// before a request's object that names no type itself
// (ObjectModifiers). A verb's form may be a relation's word the planner
// reads in a noun's place ("Name the writers of ..." is read as "Name
// the written of ...").
func (p *LinkingPlanner) modifierOnly(w string) bool {
	lex := p.names.lex
	return lex != nil && lex.IsAdjective(w) && !lex.IsNoun(w) && !lex.IsVerbForm(w)
}

// titleObject reports whether w, the text's second word, is a noun in
// the singular, no particle of a phrasal verb ("Break down every kind of
// X ...") nor a pronoun ("Ask someone who ..."), that a mention starts
// right after, on a word no determiner, stop word or question word, and
// that no mention joins to that word ("Break mountain chain into its
// components", a compound): a title ("member" in "Cast member X ..."),
// with no determiner a request's object would have.
func (p *LinkingPlanner) titleObject(text, w string) bool {
	words := linking.MentionWords(text)
	if len(words) < 3 || words[1].Norm != w || particles[w] || personPronouns[w] || p.names.lex == nil || !p.names.lex.IsNounLemma(w) {
		return false
	}
	if n := words[2].Norm; determiners[n] || whWords[n] || index.IsStopword(n) {
		return false
	}
	ments := p.findMentions(text)
	if slices.ContainsFunc(ments, func(m linking.LinkedMention) bool { return m.TokStart <= 1 && m.TokEnd > 2 }) {
		return false
	}
	return slices.ContainsFunc(ments, func(m linking.LinkedMention) bool { return m.TokStart == 2 })
}

// particles are the adverbs English's phrasal verbs take ("break down",
// "look up", "find out").
var particles = map[string]bool{"down": true, "up": true, "out": true, "off": true, "over": true, "back": true, "away": true, "about": true, "around": true, "in": true, "on": true}

// personPronouns are English's indefinite pronouns for people, which a
// request may have as its object ("Give me everyone cast in ...").
var personPronouns = map[string]bool{"everyone": true, "everybody": true, "someone": true, "somebody": true, "anyone": true, "anybody": true}

// personSlotType is what an indefinite pronoun for people (personPronouns)
// asks for as a request's object where the request's verb is an asking
// word (PersonSlots): what "who" asked for opening the training questions
// (whWordType); "" for any other word.
func (p *LinkingPlanner) personSlotType(w string) string {
	if !p.Cfg.Anchors.PersonSlots || !personPronouns[w] || p.Cfg.Anchors.Lead == nil {
		return ""
	}
	return p.whWordType("who")
}

// openingPronouns are the indefinite pronouns for people that head a
// noun phrase typed as a question (personOpening); "someone" and
// "anyone" open statements and asides too ("Someone told me X ...",
// "Anyone know ...?").
var openingPronouns = map[string]bool{"everyone": true, "everybody": true}

// personOpening reports whether text opens with one of openingPronouns
// followed by more words (AnchorConfig.PersonOpenings): "everyone cast in
// X-directed films" asks for people, as "Give me everyone cast in ..."
// does (PersonObjects), though "films" is the first word naming a type.
func personOpening(text string) bool {
	words := linking.MentionWords(text)
	return len(words) > 1 && openingPronouns[words[0].Norm]
}

// leadVerb reports whether a question's first word w (lower case) asks
// as an asking word does (AnchorConfig.LeadVerbAsks): a verb's base form
// in the lexicon, the verb of a request ("Name the ...", "Show me the
// ..."); "name" asked nothing in movies-skb's training questions, so no
// asking word was learned from it.
func (p *LinkingPlanner) leadVerb(w string) bool {
	return p.Cfg.Anchors.LeadVerbAsks && p.names.lex != nil && p.names.lex.IsVerb(w)
}

// kindType is the node type lower-case w names as a kind of the type's
// schema word (schemaNames.kindType; AnchorConfig.KindTypes): only for a
// word the training questions never used (theirs say what they name
// through the lifts learned from them), that is a noun as written ("had"
// is no "have", a wealthy person), no verb's form ("gloss uses the word":
// a use is an event) and no adjective ("Which Korean-language films": a
// Korean is a person); and not when a word between it and the type's
// word (lexicon.HypernymLemmas) came in minRelWordQuestions training
// questions or more and names another type or none there (wordType): on
// WordNet "terminology" is a word, a part, a relation (noun.relation), and
// the training's "word" asked for adjectives. With GeneralTypes, a word
// that names no type so names the type whose schema word is a kind of it
// (schemaNames.generalType: "Which category does every film written by X
// fall into?", genre, a kind, a category), on the same terms, the words
// between being the schema word's hypernyms. With SiblingTypes, a word
// that names no type either names the one its hypernyms name so
// (siblingType: "Which type of movie ...": a type is a kind, and a genre
// is one too). "" otherwise.
//
// slot says w stands where only a noun may (after an asking word, or as a
// request's object: slotType); with NounSlots a verb's form names a type
// there all the same ("Which type of movie": type, not "to type").
func (p *LinkingPlanner) kindType(w string, slot bool) string {
	lex := p.names.lex
	a := p.Cfg.Anchors
	if !a.KindTypes || lex == nil || len(w) < minResolveLen || p.words != nil && p.words.known[w] || !lex.IsNoun(w) || !(slot && a.NounSlots) && lex.IsVerbForm(w) || lex.IsAdjective(w) {
		return ""
	}
	// A word the lexicon reads as a training word of its base form or a
	// synonym names what the training bears out for that word, if
	// anything (ReadNoKind): "types" reads as "type", "varieties" as
	// "kinds", whose questions asked for every type.
	if a.ReadNoKind && p.words != nil {
		close, t := false, ""
		for _, r := range p.words.word(w) {
			if lex.Distance(w, r) > lexicon.Synonym {
				continue
			}
			close = true
			if rt, named := p.wordType(r); named {
				if t != "" && rt != t {
					return ""
				}
				t = rt
			}
		}
		if close {
			return t
		}
	}
	t, lv := p.names.kindType(w)
	below := w // the word the words between lie above
	between := lv - 1
	if t == "" && a.GeneralTypes {
		t, lv, below = p.names.generalType(w)
		between = lv - 1
		if t == "" && a.SiblingTypes {
			// The hypernym itself may be a training word: it lies between.
			t, lv, below = p.names.siblingType(w)
			between = lv
		}
	}
	if t == "" || p.words == nil {
		return t
	}
	for _, h := range lex.HypernymLemmas(below, between) {
		if p.words.uses[h] < minRelWordQuestions {
			continue
		}
		if ht, _ := p.wordType(h); ht != t {
			return ""
		}
	}
	return t
}

// reachedType is the type a candidate answers with: its first reached
// node's, or its plan's target type when it reaches nothing.
func (p *LinkingPlanner) reachedType(c *PlanCandidate) string {
	if len(c.Reach) > 0 {
		return p.skb.Schema.NodeTypes[p.ws.Graph.Type(c.Reach[0])]
	}
	return c.Plan.TargetType()
}

// Relation words rule a candidate out only when the training questions
// bear them out: a word that names a relation must have come in at least
// minRelWordQuestions training questions, and the plans of at least
// minRelWordShare of them walk the relation.
const (
	minRelWordQuestions = 5
	minRelWordShare     = 0.7
)

// relationMisses counts the question's words (outside the candidate's
// anchors) that name relations with the schema's own words for them
// ("directed" directed_by, "actors" starred_actors) and that the training
// questions bear out (RelWords: the plans of 90% of the questions with
// the word walk the relation), of which the candidate walks none; 0
// without NamedRelations. WordNet's "verb" names its "verb group"
// relation, but its questions with "verb" rarely walk it.
func (p *LinkingPlanner) relationMisses(text string, ments []linking.LinkedMention, c *PlanCandidate, read map[string]bool) int {
	walked := PlanRelations(&c.Plan)
	n := 0
	for _, rels := range p.namedRelations(linking.RestrictionText(text, ments, c.Mentions), read) {
		if !slices.ContainsFunc(rels, func(r string) bool { return slices.Contains(walked, r) }) {
			n++
		}
	}
	return n
}

// namedRelations returns, for each word of text (quotes left out) that
// names relations with the schema's own words for them and that the
// training questions bear out (see relationMisses), the relations it
// names, sorted; nil without NamedRelations. With ReadRelations, a word
// of read (the words the question was read with: readWords) names the
// relations it names with the schema's words when it is a noun (the
// lexicon's) the training questions used in fewer than
// minRelWordQuestions questions: the lexicon read the question's word as
// the schema's name for a relation ("examples" as "instance": instance
// hypernym), which the training never bore out or against. A verb or
// adjective that names a relation with one of its words stays ("pertains"
// read as "related" in "derivationally related form"). With
// InflectedRelations, a word that names nothing as written and that no
// training question used outside its anchors names what its base forms
// (the lexicon's) name as written, with the schema's words and borne out
// by the training ("stars": "star"), and with FormRelations what the
// other inflections the training used name ("actor": "actors"
// inflections). With KinRelations, a word the
// training bears out for one relation alone (RelWords.aloneNames) names it
// where the lexicon puts it one link from one of the relation's schema
// words in some sense of each ("script": written_by). A word that explaining away narrowed
// (RelWords.Explained) names the relation left to it, with the schema's
// words or without: "acted" names starred_actors, which the plans of all
// of its training questions walk once "directed" has explained
// directed_by.
func (p *LinkingPlanner) namedRelations(text string, read map[string]bool) [][]string {
	rw := p.Cfg.Anchors.RelWords
	if !p.Cfg.Anchors.NamedRelations || rw == nil {
		return nil
	}
	schemaRead := func(w string) bool {
		return p.Cfg.Anchors.ReadRelations && read[w] && rw.Words[w] < minRelWordQuestions && p.names.lex != nil && p.names.lex.IsNoun(w)
	}
	var out [][]string
	// A synonym names a relation only outside every quotation, also one
	// that opens on an ellipsis ("defined as '... a low area ...'").
	var loose []string
	if p.Cfg.Anchors.SynonymRelations {
		loose = questionWords(unquotedLoose(text))
	}
	named := func(w string, asRead bool) []string {
		var rels []string
		nb := p.names.namedBy(w)
		for r := range p.names.rels {
			if nb.rels[r] && (rw.Words[w] >= minRelWordQuestions && float64(rw.Pairs[w][r]) >= minRelWordShare*float64(rw.Words[w]) || asRead && schemaRead(w)) ||
				rw.explainedNames(w, r) ||
				p.Cfg.Anchors.KinRelations && rw.aloneNames(w, r) && p.names.kin(w, r) ||
				asRead && p.Cfg.Anchors.SynonymRelations && nb.synRels[r] && synonymBorneOut(rw, w, r) && isLoose(loose, w) {
				rels = append(rels, r)
			}
		}
		return rels
	}
	for _, w := range questionWords(unquoted(text)) {
		rels := named(w, true)
		// A form whose questions bear out no relation, their plans mixed
		// (MixedForms), is read as one the training never used.
		mixed := len(rels) == 0 && p.Cfg.Anchors.MixedForms && rw.Words[w] >= minRelWordQuestions && len(rw.named(w, rw.Pairs[w])) == 0
		if len(rels) == 0 && p.Cfg.Anchors.InflectedRelations && (rw.Words[w] == 0 || mixed) && p.names.lex != nil {
			// A form the training never used names what its base form
			// names: "stars" as "star", which the training bore out.
			for _, b := range p.inflections(w) {
				for _, r := range named(b, false) {
					if !slices.Contains(rels, r) {
						rels = append(rels, r)
					}
				}
			}
			if mixed && (len(rels) != 1 || !rw.mostWalked(w, rels[0])) {
				rels = nil
			}
		}
		if len(rels) > 0 {
			slices.Sort(rels)
			out = append(out, rels)
		}
	}
	return out
}

// inflections are the other forms of a word no training question used
// that namedRelations reads it as (InflectedRelations): the lexicon's base
// forms of w, with StemRelations the verbs a noun is formed from
// (lexicon.StemVerbs: "direction", direct) and, with FormRelations, the words the training used in at
// least minRelWordQuestions questions that share one of them or w itself
// as a base form ("actors" for "actor"), each once.
func (p *LinkingPlanner) inflections(w string) []string {
	bases := p.names.lex.Bases(w)
	if p.Cfg.Anchors.StemRelations {
		bases = append(slices.Clone(bases), p.names.lex.StemVerbs(w)...)
	}
	var out []string
	for _, b := range bases {
		if b != w && !slices.Contains(out, b) {
			out = append(out, b)
		}
	}
	if p.Cfg.Anchors.FormRelations && p.words != nil {
		for _, b := range append([]string{w}, bases...) {
			for _, k := range p.words.forms[b] {
				if k != w && !slices.Contains(out, k) {
					out = append(out, k)
				}
			}
		}
	}
	return out
}

// kin reports whether w is one link from a schema word of relation rel
// in some sense of each (lexicon.Kin; KinRelations).
func (n *schemaNames) kin(w, rel string) bool {
	return n.lex != nil && len(w) >= minResolveLen && slices.ContainsFunc(n.rels[rel], func(s string) bool { return len(s) >= minResolveLen && n.lex.Kin(w, s) })
}

// isLoose reports whether w is among words (questionWords: sorted).
func isLoose(words []string, w string) bool {
	_, ok := slices.BinarySearch(words, w)
	return ok
}

// minSynonymLift: a word in the most frequent noun sense of a relation's
// schema word names the relation (SynonymRelations) when the plans of its
// training questions walk it at least this many times as often as the
// plans of all training questions do.
const minSynonymLift = 2

// synonymBorneOut reports whether the training questions bear out that w,
// a synonym of a schema word of rel, names rel: w came in at least
// minRelWordQuestions of them, and the share of those whose plan walks rel
// is at least minSynonymLift times rel's share of all. A share, not
// minRelWordShare: the miner answers many "a component of Y" questions
// with a restricted hypernym step, so "component" walks the part holonym
// in 54% of its questions against 11% of all; "part", which WordNet's
// region also has among its lemmas, never walks the domain region.
func synonymBorneOut(rw *RelWords, w, rel string) bool {
	n := rw.Words[w]
	if n < minRelWordQuestions || rw.N == 0 || rw.Rels[rel] == 0 {
		return false
	}
	return float64(rw.Pairs[w][rel])/float64(n) >= minSynonymLift*float64(rw.Rels[rel])/float64(rw.N)
}

// typeConflict reports whether the question names, with the schema's own
// word for it, an answer type the candidate does not reach ("Which person
// wrote the films starring X?" against a plan that answers with films).
//
// verb is the question's verbType, read once per question (ruleOutRead);
// where it names a type, it is the type asked for.
func (p *LinkingPlanner) typeConflict(text string, ments []linking.LinkedMention, c *PlanCandidate, kinds map[string]string, read map[string]bool, verb askedVerb) bool {
	t := p.namedAsked(text, ments, c, kinds, read, verb)
	return t != "" && t != p.reachedType(c)
}

// namedAsked is the type the question names as the one it asks for,
// read around candidate c's anchors (typeConflict's): a request's verb's
// (verbType), else askedTypeBy's; "" when none is named (or without
// NamedType).
func (p *LinkingPlanner) namedAsked(text string, ments []linking.LinkedMention, c *PlanCandidate, kinds map[string]string, read map[string]bool, verb askedVerb) string {
	if !p.Cfg.Anchors.NamedType {
		return ""
	}
	if p.Cfg.Anchors.AskingClause {
		if k := p.askingClause(text, ments); k > 0 {
			// The clause and those before it (where a pronoun the asking
			// clause ends with refers back), without the candidate's
			// anchors: a name's words name nothing asked for.
			blank := blankAnchors(text, ments, c)
			// With BackPastTypeWords a pronoun refers back past a type
			// word that says what the mention before it is ("the drama
			// kind ...: list them." refers to no genre).
			if p.Cfg.Anchors.BackPastTypeWords {
				blank = blankSpans(blank, p.typeAfterMentions(text, ments), k)
			}
			if t := p.clauseType(blank[k:], blank[:k], kinds); t != "" {
				return t
			}
			// A clause that asks with an answer word names what it asks
			// for by that word's step (answerStep), not by the type words
			// of the clauses that state ("X made some films, and I'd like
			// the casts of those").
			if p.Cfg.Anchors.ClauseAnswerWords && slices.ContainsFunc(p.clauseNounsAt(text, ments, c.Mentions, k), func(w string) bool { _, ok := p.Cfg.Anchors.AnswerWords[w]; return ok }) {
				return ""
			}
		}
	}
	if verb.t != "" {
		if verb.named {
			return verb.t
		}
		return ""
	}
	if t, ok := p.subjectAsked(text, kinds, read); ok {
		return t
	}
	if p.Cfg.Anchors.ClosingWh {
		if t := p.closingWhType(text); t != "" {
			return t
		}
		if p.Cfg.Anchors.ElidedQuestions {
			if t := p.elidedType(blankAnchors(text, ments, c), kinds); t != "" {
				return t
			}
		}
	}
	if p.Cfg.Anchors.HeldSlots && heldSlot(text, ments, c) {
		return ""
	}
	if p.Cfg.Anchors.PersonOpenings && personOpening(text) && p.Cfg.Anchors.Lead != nil {
		if t := p.whWordType("who"); t != "" {
			return t
		}
	}
	// A question no question word occurs in asks for the type the noun
	// it opens with names before any asking word's slot after it
	// (OpeningFirst): "Genre labels attached to films X penned?" asks for
	// genres, not for the films after "to".
	first := p.Cfg.Anchors.OpeningNoun && p.Cfg.Anchors.OpeningFirst && !hasWhWord(text)
	if first {
		if t := p.openingType(text, ments, c, kinds); t != "" {
			return t
		}
	}
	if t, named := p.askedTypeRead(linking.RestrictionText(p.withoutAnchorTypeWords(text, ments, c), ments, c.Mentions), kinds, read); named {
		return t
	}
	// The opening noun, read first above, is not read twice.
	if p.Cfg.Anchors.OpeningNoun && !first {
		if t := p.openingType(text, ments, c, kinds); t != "" {
			return t
		}
	}
	if p.Cfg.Anchors.WhAsks {
		return p.whType(text)
	}
	return ""
}

// whType is the type the question's first word asks for
// (AnchorConfig.WhAsks): an English question word (whWords) that opened
// at least minAskQuestions training questions, minAskShare of which
// asked for one type (LeadTypes.Firsts), asks for that type wherever it
// opens a question (movies-skb's "who", a person in all 495: "Who plays
// in X?" asks for no genre of X); "" for another first word or one whose
// questions asked for several types (movies-skb's "which": films in half
// of them).
func (p *LinkingPlanner) whType(text string) string {
	l := p.Cfg.Anchors.Lead
	words := linking.MentionWords(text)
	if l == nil || len(words) == 0 {
		return ""
	}
	o := p.opening(text, words)
	w := strings.ToLower(text[words[o].Start:words[o].End])
	if !whWords[w] {
		return ""
	}
	if t := p.possessorType(w); t != "" {
		return t
	}
	if t := p.objectFormType(w); t != "" {
		return t
	}
	return p.whWordType(w)
}

// possessorType is what question word w asks for where it is "whose" and
// opened fewer than minAskQuestions training questions (PossessorWh):
// what "who" asked for opening them (whWordType). "Whose" asks for the
// one "who" would name as the owner ("Whose faces are seen in the movies
// X wrote?" asks for people, as "Who is seen in ..." does); "" for any
// other word, or where the training says what "whose" asks for itself.
func (p *LinkingPlanner) possessorType(w string) string {
	if !p.Cfg.Anchors.PossessorWh || w != "whose" || p.openedBy(w) >= minAskQuestions {
		return ""
	}
	return p.whWordType("who")
}

// objectFormType is what question word w asks for where it is in another
// case than the subject's (subjectForms: "whom") and opened fewer than
// minAskQuestions training questions (ObjectWh): what its subject form
// asked for opening them. "Whom has X put in front of the camera?" asks
// for people, as "Who has X put ..." does, not for X's films; "" for any
// other word, or where the training says what w asks for itself.
func (p *LinkingPlanner) objectFormType(w string) string {
	s := subjectForms[w]
	if !p.Cfg.Anchors.ObjectWh || s == "" || p.openedBy(w) >= minAskQuestions {
		return ""
	}
	return p.whWordType(s)
}

// openedBy is how many training questions question word w opened
// (LeadTypes.Firsts); with no lead words read, minAskQuestions, so that
// no rule reads w as another word.
func (p *LinkingPlanner) openedBy(w string) int {
	l := p.Cfg.Anchors.Lead
	if l == nil {
		return minAskQuestions
	}
	n := 0
	for _, k := range l.Firsts[w] {
		n += k
	}
	return n
}

// subjectForms are the question words in another case, as their subject
// form: "whom" asks for what "who" asks for.
var subjectForms = map[string]string{"whom": "who"}

// closingWhType is the type an English question word closing a question
// that none opens asks for (AnchorConfig.ClosingWh): what it asks for
// opening one (whWordType), read in its subject form (subjectForms); ""
// for another last word, a question a question word opens, or one whose
// questions asked for several types.
func (p *LinkingPlanner) closingWhType(text string) string {
	loose := unquotedLoose(text)
	words := linking.MentionWords(loose)
	if p.Cfg.Anchors.Lead == nil || len(words) < 2 || whWords[words[p.opening(loose, words)].Norm] {
		return ""
	}
	at := len(words) - 1
	if !whWords[words[at].Norm] {
		if at = p.inSituWh(loose, words); at < 0 {
			return ""
		}
	}
	w := words[at].Norm
	return p.whWordType(cmp.Or(subjectForms[w], w))
}

// inSituWh is the index of the question word of text (words, its
// MentionWords) asked in place, followed by other words
// (AnchorConfig.InSituWh): the last question word, right after a
// preposition (prepositions, titlePrepositions), the word after one
// that may be a determiner ("what", "which", "whose") a stop word or a
// preposition unless a mark stands between them ("from whom over the
// years?", "in what, as it happens?"; not "in which films": the noun
// names what is asked), and no word after it in its clause (up to a mark of
// elidedMarks) a verb's form the lexicon knows as no noun ("the director
// with whom X worked" opens a relative clause on director); -1 where
// there is none.
func (p *LinkingPlanner) inSituWh(text string, words []linking.Word) int {
	lex := p.names.lex
	if !p.Cfg.Anchors.InSituWh || lex == nil {
		return -1
	}
	at := -1
	for i := len(words) - 2; i >= 1; i-- {
		if whWords[words[i].Norm] {
			at = i
			break
		}
	}
	if at < 0 || !preposition(words[at-1].Norm) && !p.objectInSitu(text, words, at) {
		return -1
	}
	next := words[at+1].Norm
	if determiners[words[at].Norm] && !index.IsStopword(next) && !preposition(next) && !strings.ContainsAny(text[words[at].End:words[at+1].Start], elidedMarks) {
		return -1
	}
	// A verb in the question word's own clause makes it a relative
	// pronoun; a clause a mark sets apart may have its own.
	for i := at + 1; i < len(words) && !strings.ContainsAny(text[words[i-1].End:words[i].Start], elidedMarks); i++ {
		if w := words[i].Norm; alphabetic(w) && !index.IsStopword(w) && lex.IsVerbForm(w) && !lex.IsNoun(w) {
			return -1
		}
	}
	return at
}

// objectInSitu reports whether question word at of text (words, its
// MentionWords) is the object of the verb right before it
// (InSituObjects): a content word the lexicon knows as a verb's form, no
// mark between them ("... put whom in front of the camera?").
func (p *LinkingPlanner) objectInSitu(text string, words []linking.Word, at int) bool {
	v := words[at-1].Norm
	return p.Cfg.Anchors.InSituObjects && alphabetic(v) && !index.IsStopword(v) && p.names.lex.IsVerbForm(v) &&
		strings.TrimSpace(text[words[at-1].End:words[at].Start]) == ""
}

// indefinites open the noun phrase an elided question refers back to.
var indefinites = map[string]bool{"a": true, "an": true, "some": true, "one": true}

// maxElidedWords is how many words the noun phrase an elided question
// refers back to may have after its determiner.
const maxElidedWords = 3

// elidedMarks are the marks that set a question word apart as a clause
// of its own.
const elidedMarks = ".?!;:,-\u2013\u2014"

// elidedType is the type a question word standing alone as the last
// clause of text asks for (AnchorConfig.ElidedQuestions): the one the
// last indefinite noun phrase before it names (one of indefinites, then
// up to maxElidedWords words within its clause, one of them naming a
// type by the schema's word, a type word, the lexicon or a kind:
// slotType's named), as "which category?" would say it: "The screenplays
// credited to X all share a category; which?" asks for a genre, not for
// X's films. "" where the question word does not stand alone, asks for
// one type itself (closingWhType), or the last such phrase names none.
func (p *LinkingPlanner) elidedType(text string, kinds map[string]string) string {
	words := linking.MentionWords(text)
	n := len(words)
	if n < 3 || !whWords[words[n-1].Norm] || strings.TrimSpace(text[words[n-1].End:]) != "?" || !strings.ContainsAny(text[words[n-2].End:words[n-1].Start], elidedMarks) {
		return ""
	}
	for i := n - 3; i >= 0; i-- {
		if !indefinites[words[i].Norm] {
			continue
		}
		for j := i + 1; j <= min(i+maxElidedWords, n-2); j++ {
			w := strings.ToLower(text[words[j].Start:words[j].End])
			if alphabetic(w) && !index.IsStopword(w) {
				if t, named := p.slotType(w, kinds, true); t != "" && named {
					return t
				}
			}
			if strings.ContainsAny(text[words[j].End:words[j+1].Start], elidedMarks) {
				break
			}
		}
		return ""
	}
	return ""
}

// blankSpans is text with the byte spans that end by end blanked.
func blankSpans(text string, spans [][2]int, end int) string {
	b := []byte(text)
	for _, s := range spans {
		if s[1] <= end {
			for i := s[0]; i < s[1]; i++ {
				b[i] = ' '
			}
		}
	}
	return string(b)
}

// blankAnchors is text with candidate c's anchors blanked: a name's
// words name nothing asked for.
func blankAnchors(text string, ments []linking.LinkedMention, c *PlanCandidate) string {
	blank := []byte(text)
	for _, a := range c.Mentions {
		for i := ments[a].Start; i < ments[a].End; i++ {
			blank[i] = ' '
		}
	}
	return string(blank)
}

// whWordType is the type question word w asked for opening training
// questions: the one type at least minAskShare of the minAskQuestions or
// more it opened asked for (LeadTypes.Firsts); "" otherwise.
func (p *LinkingPlanner) whWordType(w string) string {
	n, best, bn := 0, "", 0
	for t, k := range p.Cfg.Anchors.Lead.Firsts[w] {
		n += k
		if k > bn || k == bn && t < best {
			best, bn = t, k
		}
	}
	if n < minAskQuestions || float64(bn) < minAskShare*float64(n) {
		return ""
	}
	return best
}

// hasWhWord reports whether an English question word (whWords) occurs in
// text outside quotations.
func hasWhWord(text string) bool {
	return slices.ContainsFunc(linking.MentionWords(unquotedLoose(text)), func(w linking.Word) bool { return whWords[w.Norm] })
}

// openingType is the type the noun opening a question names
// (AnchorConfig.OpeningNoun): a search box's noun phrase says what it
// asks for with its first noun ("2005 releases directed by X, please":
// films, a type word of theirs), as an asking word's slot does
// (slotType, named by the schema's word, a type word, the lexicon or a
// kind; with OpeningLift, by a training lift where none of those does).
// Numbers before it are skipped (a year); "" when the first word left is
// no noun, a stop word, or no word before candidate c's first anchor.
func (p *LinkingPlanner) openingType(text string, ments []linking.LinkedMention, c *PlanCandidate, kinds map[string]string) string {
	lex := p.names.lex
	first, _ := anchorSpan(ments, c.Mentions)
	if lex == nil || first <= 0 {
		return ""
	}
	words := linking.MentionWords(text)
	i := 0
	for i < first && i < len(words) && !alphabetic(strings.ToLower(text[words[i].Start:words[i].End])) {
		i++
	}
	if i >= first || i >= len(words) {
		return ""
	}
	w := strings.ToLower(text[words[i].Start:words[i].End])
	if index.IsStopword(w) || whWords[w] || !lex.IsNoun(w) {
		return ""
	}
	if p.Cfg.Anchors.ImperativeOpenings && imperativeOpening(lex, text, words, i) {
		return ""
	}
	// A quoted word is mentioned, not used: "\"cake\" is the name of
	// which baked goods?" asks for no cake (QuotedOpening).
	if p.Cfg.Anchors.QuotedOpening && inSpans(words[i].Start, nil, quotedSpans(text, true)) {
		return ""
	}
	// With OpeningLift a training lift names it too, where nothing else
	// does and the training bears it out (liftBorneOut): "People seen on
	// screen in X's scripts?" asks for persons. An auxiliary opens a
	// question, not a noun phrase ("Have X and Y ever been in a movie
	// together?"), and a noun a colon sets apart labels what follows
	// ("Gloss: '...'. Broader term: X. Word?"), whatever their lifts.
	if t, named := p.slotType(w, kinds, true); named || t != "" && p.Cfg.Anchors.OpeningLift && !auxiliaries[w] && !colonAfter(text, words[i]) && p.liftBorneOut(w, t) {
		return t
	}
	return ""
}

// colonAfter reports whether a colon follows word w of text, past spaces.
func colonAfter(text string, w linking.Word) bool {
	return strings.HasPrefix(strings.TrimLeft(text[w.End:], " "), ":")
}

// liftBorneOut reports whether the training questions bear out that word
// w names answer type t, as they bear out an asking word: w came in at
// least minAskQuestions of them (Elements), and at least minAskShare of
// those asked for t. movies-skb's "people" came in 135, all asking for
// persons; WordNet's "parts" came in 65, 24 of them asking for a
// quantity, its best lift.
func (p *LinkingPlanner) liftBorneOut(w, t string) bool {
	ew := p.Cfg.Anchors.Elements
	if ew == nil {
		return false
	}
	n := ew.Words[w]
	return n >= minAskQuestions && float64(ew.Pairs[w]["A:"+t]) >= minAskShare*float64(n)
}

// liftedSlot reports whether word w, standing after an asking
// determiner, names answer type t by a training lift (SlotLifts): w is a
// noun to the lexicon and the training questions bear the lift out
// (liftBorneOut). movies-skb's "people" came in 135 training questions,
// all asking for persons, though none wrote "which people"; a verb there
// ("in which appeared") names nothing.
func (p *LinkingPlanner) liftedSlot(w, t string) bool {
	return p.names.lex != nil && p.names.lex.IsNoun(w) && p.liftBorneOut(w, t)
}

// borneOutType is the one node type noun w's training lift is borne out
// for (liftedSlot), "" for none.
func (p *LinkingPlanner) borneOutType(w string) string {
	for _, t := range p.skb.Schema.NodeTypes {
		if p.liftedSlot(w, t) {
			return t
		}
	}
	return ""
}

// imperativeOpening reports whether words[i] of text, the first word,
// is a verb in the lexicon (a lemma: "films" is none) followed by a
// determiner that is no relative word (ImperativeOpenings): a noun
// phrase's first noun is followed by no "every" or "the", a request's
// verb is ("Break every type of X into parts", "Take the ..."); "work
// that X did" may be a noun's.
func imperativeOpening(lex *lexicon.Lexicon, text string, words []linking.Word, i int) bool {
	if i+1 >= len(words) || !lex.IsVerb(strings.ToLower(text[words[i].Start:words[i].End])) {
		return false
	}
	d := strings.ToLower(text[words[i+1].Start:words[i+1].End])
	return determiners[d] && !whWords[d] && d != "that"
}

// withoutAnchorTypeWords blanks the word right before each anchor mention
// of candidate c when it names a type: it says what the anchor is
// ("shared by genes X and Y", "for the disease X"), not what the question
// asks for. With TypeAfterAnchor it also blanks the word right after an
// anchor mention that names the type of the anchor's node: "titles in the
// comedy genre that feature X" asks for no genre ("Ann Lee films", whose
// "films" names no type of a person, stays). Byte offsets stay as they
// were.
func (p *LinkingPlanner) withoutAnchorTypeWords(text string, ments []linking.LinkedMention, c *PlanCandidate) string {
	b := []byte(text)
	blank := func(start, end int) {
		for i := start; i < end; i++ {
			b[i] = ' '
		}
	}
	for pi, a := range c.Mentions {
		end := ments[a].Start
		for end > 0 && (b[end-1] == ' ' || b[end-1] == '\t') {
			end--
		}
		start := end
		for start > 0 {
			r, size := utf8.DecodeLastRune(b[:start])
			if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
				break
			}
			start -= size
		}
		if start < end {
			if t := p.namedType(strings.ToLower(string(b[start:end]))); t != "" && !p.askedBefore(b[:start], c, pi, t) {
				blank(start, end)
			}
		}
		if !p.Cfg.Anchors.TypeAfterAnchor {
			continue
		}
		start = ments[a].End
		for start < len(b) && (b[start] == ' ' || b[start] == '\t') {
			start++
		}
		end = start
		for end < len(b) {
			r, size := utf8.DecodeRune(b[end:])
			if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
				break
			}
			end += size
		}
		if start < end && start > ments[a].End {
			if t := p.namedType(strings.ToLower(string(b[start:end]))); t != "" && p.anchorOfType(c, pi, t) {
				blank(start, end)
			}
		}
	}
	if p.Cfg.Anchors.TypeAfterMention {
		for _, w := range p.typeAfterMentions(text, ments) {
			blank(w[0], w[1])
		}
	}
	return string(b)
}

// withoutTypeAfterMentions is text with the words typeAfterMentions
// finds blanked (byte offsets stay), with TypeAfterMention; text itself
// otherwise.
func (p *LinkingPlanner) withoutTypeAfterMentions(text string, ments []linking.LinkedMention) string {
	if !p.Cfg.Anchors.TypeAfterMention {
		return text
	}
	return blankSpans(text, p.typeAfterMentions(text, ments), len(text))
}

// typeAfterMentions returns the byte spans of the words that name a type
// right after a mention naming a node of that type, any mention ending
// there (AnchorConfig.TypeAfterMention): "genre" in "titles in the comedy
// genre that feature X" names what "comedy" is (the genre; "the comedy"
// names the film The Comedy) whether or not a candidate anchors on it.
// With AskingMentions, a mention that is an asking determiner alone asks
// for the type the word after it names: "in what film?" asks for a film,
// though "what" names the film What?.
func (p *LinkingPlanner) typeAfterMentions(text string, ments []linking.LinkedMention) [][2]int {
	words := linking.MentionWords(text)
	var out [][2]int
	for i := range ments {
		m := &ments[i]
		if m.TokEnd >= len(words) || p.Cfg.Anchors.AskingMentions && askingDeterminers[strings.ToLower(m.Text)] {
			continue
		}
		w := words[m.TokEnd]
		t := p.namedType(w.Norm)
		if t == "" || slices.Contains(out, [2]int{w.Start, w.End}) {
			continue
		}
		if slices.ContainsFunc(m.Nodes, func(n linking.FormNode) bool { return p.skb.Schema.NodeTypes[p.ws.Graph.Type(n.Node)] == t }) {
			out = append(out, [2]int{w.Start, w.End})
		}
	}
	return out
}

// askedBefore reports whether a word naming type t right before the
// anchor of candidate c's path pi, after the text before, is what an
// asking word asks for (AnchorConfig.AskedBeforeAnchor): the asking word
// comes right before it and the anchor is no node of type t ("Which
// person made the film X as its director?" anchored on "made", a film,
// asks for a person; "Which genre Comedy ..." names the anchor's kind).
func (p *LinkingPlanner) askedBefore(before []byte, c *PlanCandidate, pi int, t string) bool {
	if !p.Cfg.Anchors.AskedBeforeAnchor {
		return false
	}
	// The last word of before (its last field), with no copy of the rest.
	before = bytes.TrimRightFunc(before, unicode.IsSpace)
	if len(before) == 0 {
		return false
	}
	last := before[bytes.LastIndexFunc(before, unicode.IsSpace)+1:]
	if _, ask := slices.BinarySearch(p.Cfg.Anchors.AskWords, strings.ToLower(string(last))); !ask {
		return false
	}
	return !p.anchorOfType(c, pi, t)
}

// anchorOfType reports whether the anchor of candidate c's path pi is a
// node of type t (any of its linked nodes).
func (p *LinkingPlanner) anchorOfType(c *PlanCandidate, pi int, t string) bool {
	if pi >= len(c.Plan.Anchors) {
		return false
	}
	for _, n := range c.Plan.Anchors[pi].Nodes {
		if p.skb.Schema.NodeTypes[p.ws.Graph.Type(n)] == t {
			return true
		}
	}
	return false
}

// composeFeatures adds (add) the plan ranker's compositional features of
// candidate c of the question text (ments its mentions; paths the
// candidate's "pathsN" label):
//   - each frame word of the question (AnchorConfig.FrameWords) with each
//     structural element of the plan (PlanElements' "U", "I", "H"n and
//     "T"): "every" comes with a universal step, "both" with an
//     intersection, in whatever frame;
//   - whether the type the question asks for (askedType) is the type the
//     candidate reaches, another, or none is named, alone and with the
//     number of paths;
//   - the role of each type the question names (nameRoles) and how many
//     relations it names that the plan does not walk (0, 1, 2 or more).
//
// Relations and answer types are not crossed with words here: the
// relation-word lifts (RelWords) and the lead words carry those, and
// word-by-relation features learned the training frames' wording rather
// than the relation's (they lowered held-out frames on movies-skb).
func (p *LinkingPlanner) composeFeatures(add func(parts ...string), text string, ments []linking.LinkedMention, c *PlanCandidate, paths string) {
	at := p.reachedType(c)
	restr := linking.RestrictionText(text, ments, c.Mentions)
	qw := questionWords(restr)
	els := PlanElements(&c.Plan, at)
	for _, w := range qw {
		if _, ok := slices.BinarySearch(p.Cfg.Anchors.FrameWords, w); !ok {
			continue
		}
		for _, e := range els {
			if !strings.HasPrefix(e, "A:") && !strings.HasPrefix(e, "R:") {
				add("we", w, e)
			}
		}
	}
	asked := "asked-none"
	if t := p.askedType(restr); t == at {
		asked = "asked-same"
	} else if t != "" {
		asked = "asked-other"
	}
	add(asked)
	add(asked, paths)
	roles, relsOut := p.names.nameRoles(qw, &c.Plan, at)
	for _, r := range roles {
		add("tn", r)
	}
	add("rn-out", strconv.Itoa(min(2, relsOut)))
	if p.Cfg.Anchors.RepeatWords && repeatsWord(restr) {
		repeatFeatures(add, &c.Plan)
	}
}

// repeatsWord reports whether a word of text outside its quotations,
// not a stop word nor a number, comes twice (in its singular form): a
// question that applies a relation twice says its word twice ("the
// subtypes of the subtypes of X", "a specific kind of some specific kind
// of X"), in whatever words, where a question that names one step says
// it once.
func repeatsWord(text string) bool {
	seen := map[string]bool{}
	for _, w := range linking.MentionWords(unquoted(text)) {
		if len(w.Norm) < 3 || !alphabetic(w.Norm) || index.IsStopword(w.Norm) {
			continue
		}
		if seen[w.Norm] {
			return true
		}
		seen[w.Norm] = true
	}
	return false
}

// repeatFeatures adds the plan ranker's features of a question that
// repeats a word (repeatsWord): the candidate's hops (its longest path's)
// and whether a path walks the same relation twice in a row.
func repeatFeatures(add func(parts ...string), p *data.Plan) {
	hops := 0
	for _, path := range p.Paths {
		hops = max(hops, path.Hops())
	}
	add("rep", "H"+strconv.Itoa(hops))
	if walksTwice(p) {
		add("rep", "twice")
	} else {
		add("rep", "once")
	}
}

// walksTwice reports whether a path of p takes the same step twice in a
// row (the subtypes of the subtypes of X).
func walksTwice(p *data.Plan) bool {
	return stepsInRow(p, func(a, b string) bool { return a == b })
}

// stepsInRow reports whether a path of p takes two steps in a row whose
// plan tokens, in order, f holds for.
func stepsInRow(p *data.Plan, f func(a, b string) bool) bool {
	for _, path := range p.Paths {
		for i := 1; i < len(path.Steps); i++ {
			if f(path.Steps[i-1].Token(), path.Steps[i].Token()) {
				return true
			}
		}
	}
	return false
}

// walksBack reports whether a path of pl takes a step and then the same
// step the other way ("<-hypernym" then "->hypernym").
func walksBack(pl *data.Plan) bool {
	return stepsInRow(pl, func(a, b string) bool {
		if rel, ok := strings.CutPrefix(a, "<-"); ok {
			return b == "->"+rel
		}
		if rel, ok := strings.CutPrefix(a, "->"); ok {
			return b == "<-"+rel
		}
		return false
	})
}

// walksDeep reports whether a path of pl walks one relation twice in a
// row (walksTwice) or, with DepthSaid, two steps in a row that
// AnchorConfig.DepthPairs pairs.
func (p *LinkingPlanner) walksDeep(pl *data.Plan) bool {
	pairs := p.Cfg.Anchors.DepthPairs
	return walksTwice(pl) || p.Cfg.Anchors.DepthSaid && len(pairs) > 0 && stepsInRow(pl, func(a, b string) bool {
		return slices.Contains(pairs, [2]string{a, b})
	})
}

// repeatMisses reports whether c walks nothing deep (walksDeep) where
// the question nests a word outside c's anchors (RepeatTwice, nestsWord).
//
// With DepthSaid, a question that says a count of two outside c's
// anchors (saysTwo) nests as one that nests a word does.
//
// With DepthBack, a candidate that also walks a step straight back
// (walksBack: "<-hypernym <-hypernym ->hypernym", the siblings of the
// kinds) walks nothing deep: it ends one level short of the depth said.
func (p *LinkingPlanner) repeatMisses(text string, ments []linking.LinkedMention, c *PlanCandidate) bool {
	if !p.Cfg.Anchors.RepeatTwice || p.walksDeep(&c.Plan) && !(p.Cfg.Anchors.DepthBack && walksBack(&c.Plan)) {
		return false
	}
	restr := linking.RestrictionText(text, ments, c.Mentions)
	return p.nests(restr) || p.Cfg.Anchors.DepthSaid && saysTwo(restr, p.Cfg.Anchors.PairWords)
}

// nests reports whether text nests a word (nestsWord) or, with
// NestedRelations, two words of one relation (nestsRelation).
func (p *LinkingPlanner) nests(text string) bool {
	return nestsWordIn(text, p.Cfg.Anchors.MarkedNests) || p.Cfg.Anchors.PossessiveNests && nestsPossessive(text) ||
		p.Cfg.Anchors.PossessiveChains && possessiveChain(text) || p.Cfg.Anchors.RelativeChains && relativeChain(text) || p.Cfg.Anchors.SaidTwice && p.names.lex != nil && saidTwice(p.names.lex, text, p.Cfg.Anchors.SaidVerbs) || p.Cfg.Anchors.PrefixTwice && prefixTwice(text) || p.nestsRelation(text) ||
		p.Cfg.Anchors.DirectionNests && p.names.lex != nil && directionNest(p.names.lex, text, p.Cfg.Anchors.DirectionModifiers) ||
		p.Cfg.Anchors.TheirsTwice && p.names.lex != nil && theirsTwice(p.names.lex, text)
}

// possessiveDeterminers own the noun after them ("its subtypes").
var possessiveDeterminers = map[string]bool{"its": true, "their": true, "his": true, "her": true, "our": true, "your": true, "my": true}

// theirsTwice reports whether "theirs" of text outside its quotations
// comes after a noun's plural (pluralNoun) right after a possessive
// determiner: "X, then its subtypes, then theirs" says "their subtypes",
// the word said again of what it gave (AnchorConfig.TheirsTwice).
func theirsTwice(lex *lexicon.Lexicon, text string) bool {
	loose := unquotedLoose(text)
	ws := linking.MentionWords(loose)
	for e := range ws {
		if strings.ToLower(loose[ws[e].Start:ws[e].End]) != "theirs" {
			continue
		}
		for i := 1; i < e; i++ {
			w := strings.ToLower(loose[ws[i].Start:ws[i].End])
			if possessiveDeterminers[ws[i-1].Norm] && len(w) >= 3 && !index.IsStopword(w) && pluralNoun(lex, w) {
				return true
			}
		}
	}
	return false
}

// directionNest reports whether a preposition of place (directions) of
// text outside its quotations comes before a noun's plural (pluralNoun)
// and "of", past determiners: "What lies beneath the hyponyms of X?"
// says a level below the hyponyms, one step the noun names and one the
// preposition does (AnchorConfig.DirectionNests). "under the control of
// X" (a singular) says no level.
func directionNest(lex *lexicon.Lexicon, text string, modifiers bool) bool {
	loose := unquotedLoose(text)
	ws := linking.MentionWords(loose)
	for i := range ws {
		if !directions[ws[i].Norm] {
			continue
		}
		k := i + 1
		for k < len(ws) && determiners[ws[k].Norm] {
			k++
		}
		// With DirectionModifiers, past the adjectives that are no nouns
		// too: "What lies below the direct subcategories of X?"
		for modifiers && k+1 < len(ws) && ws[k+1].Norm != "of" && modifierAdjective(lex, strings.ToLower(loose[ws[k].Start:ws[k].End])) {
			k++
		}
		if k+1 >= len(ws) || ws[k+1].Norm != "of" {
			continue
		}
		if w := strings.ToLower(loose[ws[k].Start:ws[k].End]); len(w) >= 3 && !index.IsStopword(w) && pluralNoun(lex, w) {
			return true
		}
	}
	return false
}

// modifierAdjective reports whether lower-case w is an adjective (the
// lexicon's) that is no noun, nor a stop word: "direct", "immediate".
func modifierAdjective(lex *lexicon.Lexicon, w string) bool {
	return len(w) >= 3 && !index.IsStopword(w) && lex.IsAdjective(w) && !lex.IsNoun(w)
}

// prefixTwice reports whether a word of text outside its quotations is
// a prefix hyphened to a word that opens with it again, a plural noun's
// form (pluralNoun's spelling; "sub-subcategories", "sub-subtypes"): the
// prefix applies twice, as "subcategories of subcategories" says
// (AnchorConfig.PrefixTwice). "sub-Saharan" and "re-read" repeat
// nothing.
func prefixTwice(text string) bool {
	words := strings.FieldsFunc(unquotedLoose(text), func(r rune) bool { return !unicode.IsLetter(r) && r != '-' })
	for _, w := range words {
		parts := strings.Split(strings.ToLower(w), "-")
		for k := 0; k+1 < len(parts); k++ {
			pre, word := parts[k], parts[k+1]
			if len(pre) >= 2 && len(word) > len(pre)+3 && strings.HasPrefix(word, pre) && strings.HasSuffix(word, "s") && !strings.HasSuffix(word, "ss") {
				return true
			}
		}
	}
	return false
}

// directions are the English prepositions of place that say a level
// below or above ("the things directly below X"); "among" or "in" said
// twice says none ("Among the possible animal order, what is counted among
// the constituents of X?").
var directions = map[string]bool{"below": true, "beneath": true, "under": true, "underneath": true, "above": true, "over": true, "beyond": true, "down": true}

// saidTwice reports whether a word of text outside its quotations comes
// twice as written ("It's" is no "its"), apart, where it is a noun's
// plural (pluralNoun: "hyponyms ... their hyponyms"; not a noun in
// the singular: "Name the vaccinum labelled trade name") or a
// preposition of place (directions: "below the things directly below
// X"; AnchorConfig.SaidTwice).
//
// With verbs (AnchorConfig.SaidVerbs), a word one of whose occurrences
// has an object pronoun right after it (objectPronouns) is a verb's
// form there, no plural: "A X carries the usage note Y. Which X carries
// it?" says its verb twice and nests nothing.
func saidTwice(lex *lexicon.Lexicon, text string, verbs bool) bool {
	loose := unquotedLoose(text)
	ws := linking.MentionWords(loose)
	raw := func(i int) string { return strings.ToLower(loose[ws[i].Start:ws[i].End]) }
	for i := range ws {
		w := raw(i)
		if !directions[w] && (len(w) < 3 || index.IsStopword(w) || !pluralNoun(lex, w)) {
			continue
		}
		for j := i + 2; j < len(ws); j++ {
			if raw(j) == w && !(verbs && !directions[w] && (objectAfter(raw, len(ws), i) || objectAfter(raw, len(ws), j))) {
				return true
			}
		}
	}
	return false
}

// objectPronouns are English's pronouns that stand as a verb's object
// ("it" too), never right after a plural noun.
var objectPronouns = map[string]bool{"it": true, "them": true, "him": true, "me": true, "us": true}

// objectAfter reports whether word i of n (raw, lower case) has an
// object pronoun right after it (saidTwice).
func objectAfter(raw func(int) string, n, i int) bool {
	return i+1 < n && objectPronouns[raw(i+1)]
}

// pluralNoun reports whether lower-case w is an inflection of a noun the
// lexicon knows, not the noun itself ("steps", though WordNet's "steps"
// is a lemma too, a flight of stairs), or a word of four letters or more
// it does not know that ends as a plural does ("subtypes"; not "-ss").
func pluralNoun(lex *lexicon.Lexicon, w string) bool {
	if !alphabetic(w) {
		return false
	}
	bs := lex.Bases(w)
	if len(bs) == 0 {
		return len(w) >= 4 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss")
	}
	return slices.ContainsFunc(bs, func(b string) bool { return b != w && lex.IsNounLemma(b) })
}

// possessiveChain reports whether a word of text outside its
// quotations, not a stop word nor a number, ends in a possessive and
// comes again right after, in its singular form, ending its noun phrase
// (the text's last word or one before a stop word): "whose hypernym's
// hypernym is X", "X's hyponyms' hyponyms" apply one relation to what it
// gives (AnchorConfig.PossessiveChains).
func possessiveChain(text string) bool {
	loose := unquotedLoose(text)
	ws := linking.MentionWords(loose)
	for i := 0; i+1 < len(ws); i++ {
		w := ws[i].Norm
		if len(w) < 3 || !alphabetic(w) || index.IsStopword(w) || !possessiveAt(loose, ws[i]) {
			continue
		}
		// The word said again ends its noun phrase: "the dog's dog food"
		// names a food.
		ends := i+2 == len(ws) || index.IsStopword(ws[i+2].Norm)
		if ends && (ws[i+1].Norm == w || ws[i].Poss != "" && ws[i+1].Norm == ws[i].Poss) {
			return true
		}
	}
	return false
}

// relativeChain reports whether a word of text outside its quotations,
// not a stop word nor a number, comes right before "whose" and again
// right after it (past "own"), in the singular or the plural, ending its
// noun phrase (the text's last word or one before a stop word): "a
// hypernym whose own hypernym is X", "kinds whose kinds are X" apply one
// relation to what it gives, as "whose hypernym's hypernym is X" does
// (AnchorConfig.RelativeChains); "a parent whose parent company is X"
// does not.
func relativeChain(text string) bool {
	ws := linking.MentionWords(unquotedLoose(text))
	for i := 0; i+2 < len(ws); i++ {
		w := ws[i].Norm
		if len(w) < 3 || !alphabetic(w) || index.IsStopword(w) || ws[i+1].Norm != "whose" {
			continue
		}
		j := i + 2
		if ws[j].Norm == "own" {
			j++
		}
		if j < len(ws) && ws[j].Norm == w && (j+1 == len(ws) || index.IsStopword(ws[j+1].Norm)) {
			return true
		}
	}
	return false
}

// possessiveAt reports whether word w of text ends in a possessive: "'s"
// or "’s", or a plural's "s" with an apostrophe right after (which
// MentionWords leaves out of the word).
func possessiveAt(text string, w linking.Word) bool {
	raw := text[w.Start:w.End]
	if strings.HasSuffix(raw, "'s") || strings.HasSuffix(raw, "’s") {
		return true
	}
	rest := text[w.End:]
	return strings.HasSuffix(raw, "s") && (strings.HasPrefix(rest, "'") || strings.HasPrefix(rest, "’"))
}

// maxPossessorWords is how many words a possessor may have between a
// nested word's "of" and the word said again (nestsPossessive).
const maxPossessorWords = 4

// nestsPossessive reports whether a word of text outside its quotations,
// not a stop word nor a number, comes twice, first before "of" and then
// right after a possessor of at most maxPossessorWords words that opens
// right after that "of" ("hyponyms of fire fighter's hyponyms": the
// hyponyms of the hyponyms of fire fighter), or, the possessor an anchor
// left out of a restriction, right after that "of" with no "of" after it
// ("hyponyms of  hyponyms?"): one relation applied to what it gives
// (AnchorConfig.PossessiveNests).
func nestsPossessive(text string) bool {
	loose := unquotedLoose(text)
	ws := linking.MentionWords(loose)
	possessive := func(j int) bool { return possessiveAt(loose, ws[j]) }
	for i := 0; i+2 < len(ws); i++ {
		w := ws[i].Norm
		if !nestHead(ws, i) {
			continue
		}
		if ws[i+2].Norm == w && (i+3 == len(ws) || ws[i+3].Norm != "of") {
			return true
		}
		for j := i + 2; j+1 < len(ws) && j < i+2+maxPossessorWords; j++ {
			if possessive(j) {
				if ws[j+1].Norm == w {
					return true
				}
				break
			}
			if index.IsStopword(ws[j].Norm) && !determiners[ws[j].Norm] {
				break
			}
		}
	}
	return false
}

// nestsRelation reports whether two different words of text outside its
// quotations each come before "of", the second within maxNestGap words
// of the first "of" as in nestsWord, and the training bears out one
// relation, and no other, for both (the plans of minRelWordShare of at
// least minRelWordQuestions questions with each, as written, walk it):
// "the subtypes of the kinds of X" (hypernym for both on WordNet) applies
// one relation to what it gives; "the parts of the kinds of X" does not,
// nor does a word of two relations, nor a phrase an asking word opens
// ("X is made of which type of Y?" asks for a type of Y, of which X is
// made: NestedRelations).
func (p *LinkingPlanner) nestsRelation(text string) bool {
	rw := p.Cfg.Anchors.RelWords
	if !p.Cfg.Anchors.NestedRelations || rw == nil {
		return false
	}
	content := func(w string) bool { return len(w) >= 3 && alphabetic(w) && !index.IsStopword(w) }
	trained := func(w string) []string {
		if !content(w) || rw.Words[w] < minRelWordQuestions {
			return nil
		}
		if named := rw.named(w, rw.pairs(w)); len(named) == 1 {
			return named
		}
		return nil
	}
	kin := p.Cfg.Anchors.NestedKin && p.words != nil
	names := func(w string) []string {
		named := trained(w)
		if named != nil || !kin {
			return named
		}
		// A word no training question used: the one relation its
		// readings name ("varieties" read as "kinds").
		for _, r := range p.words.word(w) {
			switch rn := trained(r); {
			case rn == nil:
			case named == nil:
				named = rn
			case !slices.Equal(named, rn):
				return nil
			}
		}
		return named
	}
	// kinOf: with NestedKin, a word of no relation of its own nests with
	// one of a relation where the lexicon relates the two in the most
	// frequent sense of one (a shared synset or one hypernym link: "the
	// forms of the kinds of X", "the types of the varieties of X").
	kinOf := func(a, b string, na, nb []string) bool {
		if !kin || len(na) > 0 == (len(nb) > 0) {
			return false
		}
		lex := p.words.lex
		return min(lex.Distance(a, b), lex.Distance(b, a)) <= lexicon.Linked
	}
	text = unquotedLoose(text)
	ws := linking.MentionWords(text)
	raw := func(i int) string { return strings.ToLower(text[ws[i].Start:ws[i].End]) }
	for i := 0; i+1 < len(ws); i++ {
		a := raw(i)
		first := names(a)
		if ws[i+1].Norm != "of" || len(first) == 0 && (!kin || !content(a)) {
			continue
		}
		for j := i + 2; j+1 < len(ws) && j <= i+2+maxNestGap; j++ {
			// With MarkedNests a phrase mark ends the phrase the first "of"
			// opens: "Raw material of basalt, a kind of mineral?" says
			// what the material is, a kind of mineral, and nests nothing.
			if p.Cfg.Anchors.MarkedNests && markedAt(text, ws, j) {
				break
			}
			v := ws[j].Norm
			if v != ws[i].Norm && ws[j+1].Norm == "of" {
				b := raw(j)
				second := names(b)
				if slices.ContainsFunc(second, func(r string) bool { return slices.Contains(first, r) }) {
					return true
				}
				if content(b) && kinOf(a, b, first, second) {
					return true
				}
			}
			if index.IsStopword(v) && !determiners[v] || askingDeterminers[v] {
				break
			}
		}
	}
	return false
}

// twiceUnsaid reports whether c walks deep (one relation twice in a row,
// or a pair of DepthPairs: walksDeep) where the question says no depth
// outside c's anchors: it nests no word and says no count of two
// (DepthSaid).
func (p *LinkingPlanner) twiceUnsaid(text string, ments []linking.LinkedMention, c *PlanCandidate) bool {
	if !p.Cfg.Anchors.DepthSaid || !p.walksDeep(&c.Plan) {
		return false
	}
	restr := linking.RestrictionText(text, ments, c.Mentions)
	return !p.nests(restr) && !saysTwo(restr, p.Cfg.Anchors.PairWords)
}

// twoWords are the words that say a count of two: a step taken twice is
// said by how many times or how deep ("two levels below X", "the
// second-level subcategories of X", "X's subtypes, twice over").
var twoWords = map[string]bool{"two": true, "2": true, "second": true, "2nd": true, "twice": true}

// grandKin are the words "grand" makes a kin two generations away
// ("grandchildren", "grandparent"): the step from parent to child, taken
// twice.
var grandKin = map[string]bool{"child": true, "children": true, "kid": true, "kids": true, "parent": true, "parents": true, "son": true, "sons": true, "daughter": true, "daughters": true, "mother": true, "mothers": true, "father": true, "fathers": true}

// pairWords are the nouns for a set of two: "a couple of levels below X"
// says how deep as "two levels below X" does (PairWords).
var pairWords = map[string]bool{"couple": true, "pair": true}

// saysTwo reports whether a word of text outside its quotations says a
// count of two (twoWords, and with pairs pairWords) or a kin two
// generations away (grandKin).
func saysTwo(text string, pairs bool) bool {
	for _, w := range linking.MentionWords(unquotedLoose(text)) {
		if twoWords[w.Norm] || pairs && pairWords[w.Norm] || strings.HasPrefix(w.Norm, "grand") && grandKin[strings.TrimPrefix(w.Norm[len("grand"):], "-")] {
			return true
		}
	}
	return false
}

// minDepthQuestions is how many training questions must walk one
// relation twice in a row or say a depth for the training to bear
// DepthSaid out or against.
const minDepthQuestions = 20

// LearnDepthSaid reports whether the training questions bear out
// DepthSaid: at least minDepthQuestions of them walk one relation twice
// in a row (plans, the mined plans) or say a depth outside their anchors
// (restrs: linking.RestrictionText of their plans' anchors; nestsWord or
// saysTwo), and at least nine in ten of those do both. It returns the two
// counts too. On WordNet nearly every training question that walks a
// relation twice nests a word or says "two"; no movies-skb training
// question walks one twice.
func LearnDepthSaid(restrs []string, plans []*data.Plan) (bool, int, int) {
	n, both := 0, 0
	for i, r := range restrs {
		twice, said := walksTwice(plans[i]), nestsWord(r) || saysTwo(r, false)
		if twice || said {
			n++
			if twice && said {
				both++
			}
		}
	}
	return n >= minDepthQuestions && 10*both >= 9*n, n, both
}

// LearnDepthPairs returns the depth pairs of the training questions
// (AnchorConfig.DepthPairs), sorted: the two different steps in a row,
// as plan tokens, that the plans (the mined plans) of at least
// minDepthQuestions questions walk, nine in ten of which say a depth
// outside their anchors (restrs: linking.RestrictionText of their plans'
// anchors; nestsWord or saysTwo). On WordNet the two-step questions
// ("the kinds of the kinds of X") reach instances of kinds as well as
// kinds of kinds; the questions whose plans walk a hypernym step then a
// part holonym step ("the parts of the kinds of X") say no depth.
func LearnDepthPairs(restrs []string, plans []*data.Plan) [][2]string {
	n, said := map[[2]string]int{}, map[[2]string]int{}
	for i, r := range restrs {
		seen := map[[2]string]bool{}
		for _, path := range plans[i].Paths {
			for j := 1; j < len(path.Steps); j++ {
				pair := [2]string{path.Steps[j-1].Token(), path.Steps[j].Token()}
				if pair[0] == pair[1] || seen[pair] {
					continue
				}
				seen[pair] = true
				n[pair]++
				if nestsWord(r) || saysTwo(r, false) {
					said[pair]++
				}
			}
		}
	}
	var out [][2]string
	for pair, k := range n {
		if k >= minDepthQuestions && 10*said[pair] >= 9*k {
			out = append(out, pair)
		}
	}
	slices.SortFunc(out, func(a, b [2]string) int { return cmp.Or(cmp.Compare(a[0], b[0]), cmp.Compare(a[1], b[1])) })
	return out
}

// minNestedQuestions is how many training questions must nest a word
// (nestsWord) outside their anchors for the training to bear RepeatTwice
// out or against.
const minNestedQuestions = 20

// LearnRepeatTwice reports whether the training questions bear out
// RepeatTwice: at least minNestedQuestions of them nest a word outside
// their anchors (restrs: linking.RestrictionText of their plans'
// anchors), and at least half of those walk one relation twice in a row
// (plans, the mined plans). It returns the two counts too. WordNet's
// training nests its subtypes' words in the two-step questions (350
// questions nest a word, 331 of them walk one relation twice); no
// movies-skb training question nests one.
func LearnRepeatTwice(restrs []string, plans []*data.Plan) (bool, int, int) {
	n, twice := 0, 0
	for i, r := range restrs {
		if nestsWord(r) {
			n++
			if walksTwice(plans[i]) {
				twice++
			}
		}
	}
	return n >= minNestedQuestions && 2*twice >= n, n, twice
}

// nestsWord reports whether a word of text outside its quotations (also
// one that opens on an ellipsis), not a stop word nor a number, comes
// twice, each time before "of" (in its singular form), the second within
// maxNestGap words of the first "of", none of them a stop word but a
// determiner: "the subtypes of the subtypes of X", "a kind of some
// specific kind of X", "hyponyms of hyponyms of X" apply one relation to
// what it gives. A word said twice otherwise ("Among the possible X,
// which is counted among the members of Y?", a word of the type's name
// and of a quoted definition) is not, nor one said of two things ("a
// kind of fruit and a kind of dessert", "Which part of a car is part of
// the engine?").
func nestsWord(text string) bool { return nestsWordIn(text, false) }

// nestsWordIn is nestsWord; with marks a phrase mark between the first
// "of" and the word said again ends the nesting (AnchorConfig.MarkedNests).
func nestsWordIn(text string, marks bool) bool {
	loose := unquotedLoose(text)
	ws := linking.MentionWords(loose)
	for i := 0; i+1 < len(ws); i++ {
		w := ws[i].Norm
		if !nestHead(ws, i) {
			continue
		}
		for j := i + 2; j+1 < len(ws) && j <= i+2+maxNestGap; j++ {
			if marks && markedAt(loose, ws, j) {
				break
			}
			if ws[j].Norm == w {
				if ws[j+1].Norm == "of" {
					return true
				}
				break
			}
			if index.IsStopword(ws[j].Norm) && !determiners[ws[j].Norm] {
				break
			}
		}
	}
	return false
}

// markedAt reports whether a phrase mark (phraseMark) comes between
// words j-1 and j of ws, the words of text.
func markedAt(text string, ws []linking.Word, j int) bool {
	return j > 0 && phraseMark(text[ws[j-1].End:ws[j].Start])
}

// nestHead reports whether word i of ws may open a nesting (nestsWord,
// nestsPossessive): a word of three letters or more, no stop word nor
// number, right before "of".
func nestHead(ws []linking.Word, i int) bool {
	w := ws[i].Norm
	return i+1 < len(ws) && ws[i+1].Norm == "of" && len(w) >= 3 && alphabetic(w) && !index.IsStopword(w)
}

// askingDeterminers open a phrase that asks for its noun ("which type of
// Y"): what comes before them is not nested in it (nestsRelation).
var askingDeterminers = map[string]bool{"which": true, "what": true, "whose": true}

// maxNestGap is how many words may come between a nested word's "of" and
// the word said again ("of some specific kind of").
const maxNestGap = 2

// isQuote reports whether r is a quotation mark.
func isQuote(r rune) bool {
	return r == '\'' || r == '"' || r == '‘' || r == '’' || r == '“' || r == '”'
}

// unquoted is text without its quoted spans: a quotation mark that opens
// a word (at the start or after a character that is not a letter or
// digit) up to the next quotation mark that closes one (at the end or
// before such a character). Quoted words are mentioned, not used: "part"
// in "whose definition includes 'part of calculus'" names no relation.
// Apostrophes inside words ("O'Hara", "Pakistan's") neither open nor
// close; an unclosed quotation mark leaves the rest as it is.
func unquoted(text string) string { return withoutQuotes(text, false) }

// withoutQuotes is text with its quotations (quotedSpans) blanked.
func withoutQuotes(text string, loose bool) string {
	var b strings.Builder
	last := 0
	for _, q := range quotedSpans(text, loose) {
		b.WriteString(text[last:q[0]])
		b.WriteByte(' ')
		last = q[1]
	}
	b.WriteString(text[last:])
	return b.String()
}

// unquotedLoose is unquoted with quotations that open on anything but a
// space ("'... a bank ...'"; quotedSpans loose).
func unquotedLoose(text string) string { return withoutQuotes(text, true) }

// quotedSpans are the byte spans of text's quotations, quote marks
// included: a quote mark not after a word character and before one (or,
// loose, before anything: "'... a bank ...'"), up to the next quote mark
// not before one.
func quotedSpans(text string, loose bool) [][2]int {
	rs := []rune(text)
	offs := make([]int, 0, len(rs)+1)
	for i := range text {
		offs = append(offs, i)
	}
	offs = append(offs, len(text))
	word := func(i int) bool { return i >= 0 && i < len(rs) && (unicode.IsLetter(rs[i]) || unicode.IsDigit(rs[i])) }
	var out [][2]int
	for i := 0; i < len(rs); i++ {
		if isQuote(rs[i]) && !word(i-1) && (word(i+1) || loose && i+1 < len(rs) && rs[i+1] != ' ') {
			for j := i + 1; j < len(rs); j++ {
				if isQuote(rs[j]) && !word(j+1) && j > i+1 {
					out = append(out, [2]int{offs[i], offs[j+1]})
					i = j
					break
				}
			}
		}
	}
	return out
}

// heldSlot reports whether one of candidate c's anchors fills the slot of
// an asking determiner (askingDeterminers, the word right before it) and
// ends its clause, only spaces and then . ? ! ; : , or the text's end
// after it ("... would use which piece of ground?"; HeldSlots).
func heldSlot(text string, ments []linking.LinkedMention, c *PlanCandidate) bool {
	for _, a := range c.Mentions {
		m := ments[a]
		before := strings.TrimRight(text[:m.Start], " ")
		k := strings.LastIndexByte(before, ' ')
		if !askingDeterminers[strings.ToLower(before[k+1:])] {
			continue
		}
		after := strings.TrimLeft(text[m.End:], " ")
		if after == "" || strings.ContainsRune("?.!;:,", rune(after[0])) {
			return true
		}
	}
	return false
}
