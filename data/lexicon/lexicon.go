// Package lexicon is a general English lexicon: which words share a base
// form ("wrote", "written": write), which share a meaning ("pen", "write"),
// which are one step more or less general ("performer", "actor") and which
// are a noun and a verb of one act ("writer", "write"). The planner reads
// it to relate a question word its training never saw to the words it
// knows; nothing in it is tied to a data set.
//
// The data is Princeton WordNet 3.0 (data/lexicon/LICENSE), reduced by
// scripts/gen_lexicon.py to one-word lemmas, hypernym and similar-to
// links, derivational links between nouns and verbs and the morphological
// exception lists, embedded in the binary (about 0.9 MB): nothing is read
// or downloaded at run time.
package lexicon

import (
	"bufio"
	"bytes"
	"compress/gzip"
	_ "embed"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"
)

//go:embed wordnet.lex.gz
var wordnetGz []byte

// Parts of speech of a synset.
const (
	Noun = 'n'
	Verb = 'v'
	Adj  = 'a'
)

type synset struct {
	pos    byte
	lemmas []string
	links  []int32 // hypernyms (nouns, verbs), similar-to (adjectives)
	derivs []int32 // derivationally related synsets of the other part of speech (nouns, verbs)
}

// Lexicon holds synsets, their links both ways and the exceptions to the
// regular inflections.
type Lexicon struct {
	syns  []synset
	down  [][]int32            // the reverse of links (hyponyms)
	lemma map[string][]int32   // lemma -> synsets
	first map[string][]int32   // lemma -> its most frequent synset per part of speech
	exc   map[string][]string  // pos + inflected -> bases
	bases map[string]*[]string // memo of Bases, guarded by mu
	mu    sync.RWMutex
}

var (
	wnOnce sync.Once
	wn     *Lexicon
	wnErr  error
)

// WordNet is the embedded lexicon, parsed once.
func WordNet() (*Lexicon, error) {
	wnOnce.Do(func() {
		zr, err := gzip.NewReader(bytes.NewReader(wordnetGz))
		if err != nil {
			wnErr = fmt.Errorf("lexicon: embedded wordnet.lex.gz: %w", err)
			return
		}
		wn, wnErr = Parse(zr, "wordnet.lex.gz")
	})
	return wn, wnErr
}

// Parse reads a lexicon in scripts/gen_lexicon.py's format; name is used
// in errors, which give the line and field.
func Parse(r io.Reader, name string) (*Lexicon, error) {
	l := &Lexicon{lemma: map[string][]int32{}, first: map[string][]int32{}, exc: map[string][]string{}, bases: map[string]*[]string{}}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	line, version := 0, 1
	bad := func(field, why string) error {
		return fmt.Errorf("lexicon: %s line %d: %s: %s", name, line, field, why)
	}
	for sc.Scan() {
		line++
		t := sc.Text()
		if line == 1 {
			switch {
			case strings.HasPrefix(t, "strata-lexicon 1 "):
			case strings.HasPrefix(t, "strata-lexicon 2 "):
				version = 2
			default:
				return nil, bad("header", fmt.Sprintf("%q is not a strata-lexicon 1 or 2 header", t))
			}
			continue
		}
		f := strings.Fields(t)
		if len(f) != 4 || len(f[1]) != 1 || !strings.Contains("nva", f[1]) {
			return nil, bad("record", fmt.Sprintf("want \"S|D|X <n|v|a> A B\", got %q", t))
		}
		pos := f[1][0]
		switch f[0] {
		case "S":
			s := synset{pos: pos}
			if f[2] != "-" {
				s.lemmas = strings.Split(f[2], ",")
			}
			if f[3] != "-" {
				for _, x := range strings.Split(f[3], ",") {
					n, err := strconv.ParseInt(x, 10, 32)
					if err != nil || n < 0 {
						return nil, bad("links", fmt.Sprintf("%q is not a synset number", x))
					}
					s.links = append(s.links, int32(n))
				}
			}
			id := int32(len(l.syns))
			for i, w := range s.lemmas {
				w, first := strings.CutSuffix(w, "*")
				if w == "" {
					return nil, bad("lemmas", fmt.Sprintf("empty lemma in %q", f[2]))
				}
				s.lemmas[i] = w
				l.lemma[w] = append(l.lemma[w], id)
				if first {
					l.first[w] = append(l.first[w], id)
				}
			}
			l.syns = append(l.syns, s)
		case "D":
			if version < 2 {
				return nil, bad("record", "derivational links (D) need a strata-lexicon 2 header")
			}
			from, err := strconv.ParseInt(f[2], 10, 32)
			if err != nil || from < 0 || int(from) >= len(l.syns) || l.syns[from].pos != pos {
				return nil, bad("synset", fmt.Sprintf("%q is not the number of a %c synset before it", f[2], pos))
			}
			for _, x := range strings.Split(f[3], ",") {
				n, err := strconv.ParseInt(x, 10, 32)
				if err != nil || n < 0 {
					return nil, bad("derivs", fmt.Sprintf("%q is not a synset number", x))
				}
				l.syns[from].derivs = append(l.syns[from].derivs, int32(n))
			}
		case "X":
			l.exc[f[1]+f[2]] = strings.Split(f[3], ",")
		default:
			return nil, bad("record", fmt.Sprintf("unknown kind %q", f[0]))
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("lexicon: %s line %d: %w", name, line+1, err)
	}
	if line == 0 {
		return nil, fmt.Errorf("lexicon: %s: empty", name)
	}
	l.down = make([][]int32, len(l.syns))
	for i, s := range l.syns {
		for _, h := range s.links {
			if int(h) >= len(l.syns) {
				return nil, fmt.Errorf("lexicon: %s: synset %d links to %d of %d", name, i, h, len(l.syns))
			}
			l.down[h] = append(l.down[h], int32(i))
		}
		for _, d := range s.derivs {
			if int(d) >= len(l.syns) {
				return nil, fmt.Errorf("lexicon: %s: synset %d derives from %d of %d", name, i, d, len(l.syns))
			}
		}
	}
	return l, nil
}

// detach are WordNet's regular inflection endings per part of speech
// (morphy's detachment rules): the ending and what replaces it.
var detach = map[byte][][2]string{
	Noun: {{"s", ""}, {"ses", "s"}, {"xes", "x"}, {"zes", "z"}, {"ches", "ch"}, {"shes", "sh"}, {"men", "man"}, {"ies", "y"}},
	Verb: {{"s", ""}, {"ies", "y"}, {"es", "e"}, {"es", ""}, {"ed", "e"}, {"ed", ""}, {"ing", "e"}, {"ing", ""}},
	Adj:  {{"er", ""}, {"est", ""}, {"er", "e"}, {"est", "e"}},
}

// Bases are the lemmas a lower-case word may be an inflection of, over
// every part of speech (WordNet's morphy: the word itself when it is a
// lemma, its listed exceptions, and the regular endings whose stem is a
// lemma), sorted; none for a word the lexicon does not know. Safe for
// concurrent use.
func (l *Lexicon) Bases(w string) []string {
	l.mu.RLock()
	if b, ok := l.bases[w]; ok {
		l.mu.RUnlock()
		return *b
	}
	l.mu.RUnlock()
	var out []string
	if _, ok := l.lemma[w]; ok {
		out = append(out, w)
	}
	for _, pos := range []byte{Noun, Verb, Adj} {
		for _, b := range l.exc[string(pos)+w] {
			if l.hasPOS(b, pos) {
				out = append(out, b)
			}
		}
		for _, d := range detach[pos] {
			if stem, ok := strings.CutSuffix(w, d[0]); ok && stem != "" {
				if b := stem + d[1]; l.hasPOS(b, pos) {
					out = append(out, b)
				}
			}
		}
	}
	slices.Sort(out)
	out = slices.Compact(out)
	l.mu.Lock()
	l.bases[w] = &out
	l.mu.Unlock()
	return out
}

// IsVerb reports whether lower-case w, as written, is a lemma with a verb
// sense: a verb's base form, the form of an imperative ("tell", "give";
// not "tells"). Many such words are nouns too.
func (l *Lexicon) IsVerb(w string) bool { return l.hasPOS(w, Verb) }

// IsVerbForm reports whether lower-case w may be a verb: w or a base form
// of it (Bases) is a lemma with a verb sense ("uses", "cast"; not
// "screenwriters").
func (l *Lexicon) IsVerbForm(w string) bool {
	return l.hasPOS(w, Verb) || slices.ContainsFunc(l.Bases(w), func(b string) bool { return l.hasPOS(b, Verb) })
}

// IsAdjective reports whether lower-case w, as written, is a lemma with
// an adjective sense ("korean", "english"; not "koreans").
func (l *Lexicon) IsAdjective(w string) bool { return l.hasPOS(w, Adj) }

// IsNoun reports whether lower-case w is a noun: a lemma with a noun
// sense or a noun's inflection ("instance", "parts", "men"; not
// "related").
func (l *Lexicon) IsNoun(w string) bool {
	if l.hasPOS(w, Noun) {
		return true
	}
	for _, b := range l.exc[string(Noun)+w] {
		if l.hasPOS(b, Noun) {
			return true
		}
	}
	for _, d := range detach[Noun] {
		if stem, ok := strings.CutSuffix(w, d[0]); ok && stem != "" && l.hasPOS(stem+d[1], Noun) {
			return true
		}
	}
	return false
}

// IsNounLemma reports whether lower-case w, as written, is a lemma with a
// noun sense: a noun in the singular ("director", "cast"; not
// "directors").
func (l *Lexicon) IsNounLemma(w string) bool { return l.hasPOS(w, Noun) }

func (l *Lexicon) hasPOS(lemma string, pos byte) bool {
	for _, s := range l.lemma[lemma] {
		if l.syns[s].pos == pos {
			return true
		}
	}
	return false
}

// How related two words are (Distance).
const (
	SameBase = 0                  // an inflection of one lemma: "wrote", "written"
	Synonym  = 1                  // bases that share a synset, the most frequent sense of one: "penned", "wrote"; not "give", "have"
	Linked   = 2                  // a's most frequent sense one hypernym or similar-to link from a sense of b: "performers", "actors"
	Derived  = 3                  // a's most frequent sense a noun or verb derivationally related to b's most frequent sense of that part of speech: "writers", "wrote"; not "work", "actors"
	Head     = 4                  // a a compound whose head is at Head+d of b, d up to Derived: "screenwriters" (screen + writers), "wrote" at Head+Derived
	Far      = Head + Derived + 1 // none of these
)

// Distance is how related lower-case word a is to b: SameBase, Synonym,
// Linked or Far (also when either is unknown). Synonyms share a synset
// that is the most frequent sense (in its part of speech) of a or of b:
// "pictures" means movies in movie's first sense, "give" and "have" share
// only a rare sense of both (to give or have a party), which read "Give me
// the movies ..." as "Have me the movies ...". Linked looks only at a's
// most frequent sense in each part of speech ("helm", "featuring",
// "performer", but not "tell" to "direct" through "order, tell, enjoin,
// say"), so it is not symmetric: a is the word to explain, b a word known.
// Derived looks only at a's most frequent senses ("writers": writer,
// author, whose act is to write; "performed" is not derived from
// "performer" through perform's rarer senses), and reaches only b's most
// frequent sense of the part of speech it reaches ("work", whose doer is
// a worker, is no "actors": {actor, doer, worker} is actor's second
// sense, the first a performer). Head reads a compound the lexicon
// cannot relate whole by its last word (compoundHeads).
func (l *Lexicon) Distance(a, b string) int {
	return l.distanceIn(a, b, false)
}

// distanceIn is Distance, Derived reaching any sense of b with
// anyDerived (Matcher.AnySenseDerived).
func (l *Lexicon) distanceIn(a, b string, anyDerived bool) int {
	if d := l.distance(a, b, anyDerived); d < Far {
		return d
	}
	d := Far
	for _, h := range l.compoundHeads(a) {
		if hd := l.distance(h, b, anyDerived); hd < Far {
			d = min(d, Head+hd)
		}
	}
	return d
}

// distance is distanceIn up to Derived, Far beyond.
func (l *Lexicon) distance(a, b string, anyDerived bool) int {
	if l.SameBase(a, b) {
		return SameBase
	}
	ba, bb := l.Bases(a), l.Bases(b)
	if len(ba) == 0 || len(bb) == 0 {
		return Far
	}
	sa, sb := l.synsets(l.lemma, ba), l.synsets(l.lemma, bb)
	fa, fb := l.synsets(l.first, ba), l.synsets(l.first, bb)
	for _, s := range sa {
		_, inB := slices.BinarySearch(sb, s)
		_, firstA := slices.BinarySearch(fa, s)
		_, firstB := slices.BinarySearch(fb, s)
		if inB && (firstA || firstB) {
			return Synonym
		}
	}
	for _, s := range l.synsets(l.first, ba) {
		for _, n := range l.syns[s].links {
			if _, ok := slices.BinarySearch(sb, n); ok {
				return Linked
			}
		}
		for _, n := range l.down[s] {
			if _, ok := slices.BinarySearch(sb, n); ok {
				return Linked
			}
		}
	}
	reach := fb
	if anyDerived {
		reach = sb
	}
	for _, s := range l.synsets(l.first, ba) {
		for _, n := range l.syns[s].derivs {
			if _, ok := slices.BinarySearch(reach, n); ok {
				return Derived
			}
		}
	}
	return Far
}

// compoundHeads are the heads w may be a compound of, longest first: the
// ends of w that follow a lemma of at least 3 letters and name, as a noun
// of at least 4 letters, a hypernym at most maxHeadLevels above w's most
// frequent noun sense ("screenwriters": writers after screen, screenwriter
// a scriptwriter, a writer; not "typewriters", a printer, nor
// "underwriter", an insurer). None for a word the lexicon does not know.
func (l *Lexicon) compoundHeads(w string) []string {
	var out []string
	for i := 3; i+4 <= len(w); i++ {
		if _, ok := l.lemma[w[:i]]; !ok || !l.IsNoun(w[i:]) {
			continue
		}
		hb := l.Bases(w[i:])
		level := l.synsets(l.first, l.Bases(w))
		for k := 0; k < maxHeadLevels && len(level) > 0; k++ {
			var up []int32
			for _, s := range level {
				if l.syns[s].pos == Noun {
					up = append(up, l.syns[s].links...)
				}
			}
			if slices.ContainsFunc(up, func(s int32) bool {
				return slices.ContainsFunc(l.syns[s].lemmas, func(x string) bool { return slices.Contains(hb, x) })
			}) {
				out = append(out, w[i:])
				break
			}
			level = up
		}
	}
	return out
}

// maxHeadLevels: how far above a compound its head's sense may be.
const maxHeadLevels = 3

// Kin reports whether lower-case a and b (or base forms of them) are one
// link apart in some sense of each: a synset shared, a hypernym either
// way, or a noun and a verb of one act ("script", whose verb is to write
// a script, and "written"; "feature" and "starred": to star is to feature
// as the star). Any sense counts, so Kin alone relates too much ("made"
// is kin to "directed" and "written" both); callers use it to confirm
// what other evidence says.
func (l *Lexicon) Kin(a, b string) bool {
	if l.SameBase(a, b) {
		return true
	}
	sa := l.synsets(l.lemma, append([]string{a}, l.Bases(a)...))
	sb := l.synsets(l.lemma, append([]string{b}, l.Bases(b)...))
	in := func(ns []int32) bool {
		return slices.ContainsFunc(ns, func(n int32) bool { _, ok := slices.BinarySearch(sb, n); return ok })
	}
	for _, s := range sa {
		if in([]int32{s}) || in(l.syns[s].links) || in(l.down[s]) || in(l.syns[s].derivs) {
			return true
		}
	}
	return false
}

// StemVerbs are the verbs a lower-case noun w (or a base form of it) is
// formed from by a suffix that makes a noun of an act (-ion, -ation,
// -ition, -ment, -ance, -ence): the stem of at least 4 letters, or it and
// a final "e", a verb lemma ("direction": direct, "composition": compose,
// "appearance": appear, "performances": perform). WordNet links few such
// pairs (its "direction" derives from guide, manage and focus, never
// direct), so the suffix decides; a stem of 3 letters is too short to
// trust ("action" is no act, "notion" no note). Sorted, each once; none for a word that
// is no noun.
func (l *Lexicon) StemVerbs(w string) []string {
	var out []string
	for _, b := range l.Bases(w) {
		if !l.hasPOS(b, Noun) {
			continue
		}
		for _, suf := range stemSuffixes {
			stem, ok := strings.CutSuffix(b, suf)
			if !ok {
				continue
			}
			if len(stem) < 4 {
				continue
			}
			for _, v := range []string{stem, stem + "e"} {
				if l.hasPOS(v, Verb) && !slices.Contains(out, v) {
					out = append(out, v)
				}
			}
		}
	}
	slices.Sort(out)
	return out
}

// stemSuffixes make nouns of verbs' acts (StemVerbs).
var stemSuffixes = []string{"ion", "ation", "ition", "ment", "ance", "ence"}

// FirstNounSynonym reports whether lower-case b (or a base form of it) is
// a lemma of the most frequent noun sense of a: "films" of movie (film's
// first sense is the motion picture), "individuals" of person; not "form"
// of shape (form's first sense is a word's form; shape's is "shape,
// form"), nor "tell" of state (a verb sense shared).
func (l *Lexicon) FirstNounSynonym(a, b string) bool {
	bb := append([]string{b}, l.Bases(b)...)
	for _, s := range l.synsets(l.first, l.Bases(a)) {
		if l.syns[s].pos != Noun {
			continue
		}
		for _, w := range l.syns[s].lemmas {
			if slices.Contains(bb, w) {
				return true
			}
		}
	}
	return false
}

// FirstNounLemmas are the lemmas of the most frequent noun senses of
// lower-case a (of each base form of it), a's own among them, sorted and
// each once: "movie" has film, flick, pic, picture (the lexicon keeps the
// lemmas of one word). None for a word with no noun sense.
func (l *Lexicon) FirstNounLemmas(a string) []string {
	var out []string
	for _, s := range l.synsets(l.first, l.Bases(a)) {
		if l.syns[s].pos == Noun {
			out = append(out, l.syns[s].lemmas...)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// KindLevel is how many hypernym links lead up from the most frequent
// noun sense of lower-case a to the most frequent noun sense of b: 1 for
// "writer" and person (a communicator, a person: 2), 0 when the senses
// are one; -1 when more than maxLevels do or none does. Every hypernym of
// a level is followed (WordNet gives some senses two).
func (l *Lexicon) KindLevel(a, b string, maxLevels int) int {
	return l.levelUp(a, l.nounSenses(l.first, b), maxLevels)
}

// GeneralLevel is KindLevel towards any noun sense of b, not only its
// most frequent: how many hypernym links lead up from the most frequent
// noun sense of a to a sense of b, the word more general. "genre" is a
// kind (1), and a kind is a category (2), though category's most
// frequent sense is a collection of things.
func (l *Lexicon) GeneralLevel(a, b string, maxLevels int) int {
	return l.levelUp(a, l.nounSenses(l.lemma, b), maxLevels)
}

// nounSenses are the noun synsets of lower-case w's base forms in m
// (lemma or first).
func (l *Lexicon) nounSenses(m map[string][]int32, w string) []int32 {
	var out []int32
	for _, s := range l.synsets(m, l.Bases(w)) {
		if l.syns[s].pos == Noun {
			out = append(out, s)
		}
	}
	return out
}

// levelUp is how many hypernym links lead up from the most frequent noun
// sense of a to one of want; -1 when more than maxLevels do or none does.
func (l *Lexicon) levelUp(a string, want []int32, maxLevels int) int {
	if len(want) == 0 {
		return -1
	}
	level := l.nounSenses(l.first, a)
	seen := map[int32]bool{}
	for k := 0; k <= maxLevels && len(level) > 0; k++ {
		var up []int32
		for _, s := range level {
			if slices.Contains(want, s) {
				return k
			}
			if seen[s] {
				continue
			}
			seen[s] = true
			up = append(up, l.syns[s].links...)
		}
		level = up
	}
	return -1
}

// HypernymLemmas are the lemmas of the synsets 1 to levels hypernym links
// above the most frequent noun sense of lower-case a, each once, nearest
// first: "screenwriter"'s with 2 are scriptwriter, author and writer.
func (l *Lexicon) HypernymLemmas(a string, levels int) []string {
	var level []int32
	for _, s := range l.synsets(l.first, l.Bases(a)) {
		if l.syns[s].pos == Noun {
			level = append(level, s)
		}
	}
	var out []string
	seen := map[int32]bool{}
	for k := 0; k < levels && len(level) > 0; k++ {
		var up []int32
		for _, s := range level {
			for _, h := range l.syns[s].links {
				if !seen[h] {
					seen[h] = true
					up = append(up, h)
				}
			}
		}
		for _, s := range up {
			for _, w := range l.syns[s].lemmas {
				if !slices.Contains(out, w) {
					out = append(out, w)
				}
			}
		}
		level = up
	}
	return out
}

// SameBase reports whether Distance(a, b) is SameBase: a is b, or one is
// a base form of the other, or they share one.
func (l *Lexicon) SameBase(a, b string) bool {
	if a == b {
		return true
	}
	return SameBases(a, l.Bases(a), b, l.Bases(b))
}

// SameBases is SameBase for two words given with their base forms (Bases),
// so that a caller comparing one word with many looks each up once.
func SameBases(a string, ba []string, b string, bb []string) bool {
	if a == b || slices.Contains(ba, b) || slices.Contains(bb, a) {
		return true
	}
	for _, x := range ba {
		if _, ok := slices.BinarySearch(bb, x); ok {
			return true
		}
	}
	return false
}

// sensesOf are synsets(m, lemmas) of part of speech pos (0: any).
func (l *Lexicon) sensesOf(m map[string][]int32, lemmas []string, pos byte) []int32 {
	out := l.synsets(m, lemmas)
	if pos == 0 {
		return out
	}
	return slices.DeleteFunc(out, func(s int32) bool { return l.syns[s].pos != pos })
}

// synsets of any of the lemmas in m (lemma or first), sorted, each once.
func (l *Lexicon) synsets(m map[string][]int32, lemmas []string) []int32 {
	var out []int32
	for _, w := range lemmas {
		out = append(out, m[w]...)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// Matcher finds, for a word, the nearest of a fixed list of words
// (Distance, first in the list on ties) through indexes built once, so a
// look-up costs the word's own senses, not one Distance per listed word.
type Matcher struct {
	// AnySenseDerived: Derived reaches any sense of a listed word, as it
	// did before it reached only the most frequent one (set before the
	// first look-up; planners saved before it read words so).
	AnySenseDerived bool
	// FormSenses: a word's senses are those of the parts of speech it is
	// a form of each base in (Lexicon.formOf): "narrower", an adjective's
	// comparative, has narrow's adjective senses, not the verb's ("make
	// narrower", a kind of change). Set before the first look-up;
	// planners saved before it read every sense of every base.
	FormSenses bool
	l          *Lexicon
	words      []string
	byBase     map[string][]int // a base form -> the words with it
	bySyn      map[int32][]int  // a synset -> the words with a sense in it
	byFirst    map[int32][]int  // a synset -> the words whose most frequent sense (per part of speech) it is
}

// NewMatcher indexes words (lower case, in order of preference).
func (l *Lexicon) NewMatcher(words []string) *Matcher {
	m := &Matcher{l: l, words: words, byBase: map[string][]int{}, bySyn: map[int32][]int{}, byFirst: map[int32][]int{}}
	for i, w := range words {
		bs := l.Bases(w)
		for _, b := range append([]string{w}, bs...) {
			if !slices.Contains(m.byBase[b], i) {
				m.byBase[b] = append(m.byBase[b], i)
			}
		}
		for _, s := range l.synsets(l.lemma, bs) {
			m.bySyn[s] = append(m.bySyn[s], i)
		}
		for _, s := range l.synsets(l.first, bs) {
			m.byFirst[s] = append(m.byFirst[s], i)
		}
	}
	return m
}

// Nearest is the listed word nearest to w and its Distance; "" and Far
// when none is nearer than Far. It agrees with taking, over the list in
// order, the first word of least Distance(w, word).
func (m *Matcher) Nearest(w string) (string, int) {
	ws, d := m.NearestAll(w)
	if len(ws) == 0 {
		return "", Far
	}
	return ws[0], d
}

// NearestAll is every listed word at the least Distance from w (nearer
// than Far), in list order, and that Distance; nil and Far when none is.
func (m *Matcher) NearestAll(w string) ([]string, int) {
	return m.nearestAll(w, 0)
}

// NearestNoun is NearestAll through w's noun senses alone: where w stands
// as a noun ("Which type of movie"), a listed word related only to one of
// its verb senses ("wrote", through to type) is not near it. The same
// base form is near whatever w is, and so is a listed word near the head
// of a compound (compoundHeads: nouns).
func (m *Matcher) NearestNoun(w string) ([]string, int) {
	return m.nearestAll(w, Noun)
}

// nearestAll is NearestAll through w's senses of part of speech pos (0:
// any).
func (m *Matcher) nearestAll(w string, pos byte) ([]string, int) {
	hit, d := m.nearest(w, pos)
	if d == Far {
		// A compound: the listed words nearest to any of its heads.
		for _, h := range m.l.compoundHeads(w) {
			switch hh, hd := m.nearest(h, pos); {
			case hd == Far:
			case Head+hd < d:
				hit, d = hh, Head+hd
			case Head+hd == d:
				hit = append(hit, hh...)
			}
		}
	}
	if len(hit) == 0 {
		return nil, Far
	}
	slices.Sort(hit)
	hit = slices.Compact(hit)
	out := make([]string, len(hit))
	for j, i := range hit {
		out[j] = m.words[i]
	}
	return out, d
}

// senses are the synsets of w's bases bs in table (lemma or first) of
// part of speech pos (0: any); with FormSenses, only those of the parts
// of speech w is a form of each base in.
func (m *Matcher) senses(table map[string][]int32, w string, bs []string, pos byte) []int32 {
	out := m.l.sensesOf(table, bs, pos)
	if !m.FormSenses {
		return out
	}
	return slices.DeleteFunc(out, func(s int32) bool {
		p := m.l.syns[s].pos
		return !slices.ContainsFunc(bs, func(b string) bool {
			return slices.Contains(table[b], s) && m.l.formOf(w, b, p)
		})
	})
}

// formOf reports whether lower-case w is a form of lemma b as a word of
// part of speech pos: b itself, one of its listed exceptions, or a
// regular ending of pos detached (morphy's rules), b having a sense of
// pos.
func (l *Lexicon) formOf(w, b string, pos byte) bool {
	if !l.hasPOS(b, pos) {
		return false
	}
	if w == b || slices.Contains(l.exc[string(pos)+w], b) {
		return true
	}
	for _, d := range detach[pos] {
		if stem, ok := strings.CutSuffix(w, d[0]); ok && stem != "" && stem+d[1] == b {
			return true
		}
	}
	return false
}

// nearest is nearestAll up to Derived, as indexes into the list
// (unsorted).
func (m *Matcher) nearest(w string, pos byte) ([]int, int) {
	var hit []int
	pick := func(is []int) {
		for _, i := range is {
			if !slices.Contains(hit, i) {
				hit = append(hit, i)
			}
		}
	}
	done := func(d int) ([]int, int) { return hit, d }
	pick(m.byBase[w])
	bs := m.l.Bases(w)
	for _, b := range bs {
		pick(m.byBase[b])
	}
	if len(hit) > 0 {
		return done(SameBase)
	}
	if len(bs) == 0 {
		return nil, Far
	}
	for _, s := range m.senses(m.l.first, w, bs, pos) {
		pick(m.bySyn[s])
	}
	for _, s := range m.senses(m.l.lemma, w, bs, pos) {
		pick(m.byFirst[s])
	}
	if len(hit) > 0 {
		return done(Synonym)
	}
	for _, s := range m.senses(m.l.first, w, bs, pos) {
		for _, n := range m.l.syns[s].links {
			pick(m.bySyn[n])
		}
		for _, n := range m.l.down[s] {
			pick(m.bySyn[n])
		}
	}
	if len(hit) > 0 {
		return done(Linked)
	}
	reach := m.byFirst
	if m.AnySenseDerived {
		reach = m.bySyn
	}
	for _, s := range m.senses(m.l.first, w, bs, pos) {
		for _, n := range m.l.syns[s].derivs {
			pick(reach[n])
		}
	}
	if len(hit) > 0 {
		return done(Derived)
	}
	return nil, Far
}
