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
	"github.com/strata-retrieval/strata/graphops"
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
// frequent sense ("helmed": directed, "performers": actors); ties go to
// the word the training used most. A word that names a node of the KB
// (inside any of the question's mentions) may be an anchor and is left as
// it is, and so are quoted words: on the WordNet SKB, where nearly every
// English word names a node, little is resolved; protecting only names
// that look like names ("Fred Astaire") rewrote anchors there ("a kind of
// penis" read as "a kind of member": val Hit@1 0.9725 -> 0.9067).
type wordResolver struct {
	lex     *lexicon.Lexicon
	match   *lexicon.Matcher
	known   map[string]bool
	uses    map[string]int      // training questions with the word
	forms   map[string][]string // a base form -> the words used in at least minRelWordQuestions questions with it
	targets []string            // most used first
	mu      sync.Mutex
	memo    map[string]string
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
	p.names.lex = lex
	rw := a.RelWords
	r := &wordResolver{lex: lex, known: map[string]bool{}, uses: rw.Words, memo: map[string]string{}}
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

// form is the inflection of target t to read w as: of the words the
// training used (in at least minRelWordQuestions questions) that share
// t's base form, the one whose ending is most like w's ("pictures" read as
// "movies", not the schema's "movie"), then the most used.
func (r *wordResolver) form(w, t string) string {
	best, bs, bu := t, commonSuffix(w, t), r.uses[t]
	for _, b := range append([]string{t}, r.lex.Bases(t)...) {
		for _, k := range r.forms[b] {
			if k == t {
				continue
			}
			if s := commonSuffix(w, k); s > bs || s == bs && (r.uses[k] > bu || r.uses[k] == bu && k < best) {
				best, bs, bu = k, s, r.uses[k]
			}
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

// word is the known word a lower-case question word is read as, "" when
// it is known itself, too short, a stop word, or the lexicon relates it
// to no target. Safe for concurrent use.
func (r *wordResolver) word(w string) string {
	if len(w) < minResolveLen || r.known[w] || !alphabetic(w) {
		return ""
	}
	if index.IsStopword(w) {
		return ""
	}
	r.mu.Lock()
	out, ok := r.memo[w]
	r.mu.Unlock()
	if ok {
		return out
	}
	if out, _ = r.match.Nearest(w); out != "" {
		out = r.form(w, out)
	}
	r.mu.Lock()
	r.memo[w] = out
	r.mu.Unlock()
	return out
}

// resolve returns text with each word outside the mentions and quotes
// that word() resolves replaced by its known word (capitalised when the
// word was), and whether any was. find gives the mentions; it is called
// only when some word resolves.
func (r *wordResolver) resolve(text string, find func(string) []graphops.LinkedMention) (string, bool) {
	words := graphops.MentionWords(text)
	repl := make([]string, len(words))
	any := false
	for i, w := range words {
		repl[i] = r.word(strings.ToLower(text[w.Start:w.End]))
		any = any || repl[i] != ""
	}
	if !any {
		return text, false
	}
	var ments []graphops.LinkedMention
	if find != nil {
		ments = find(text)
	}
	quoted := quotedSpans(text, true)
	var b strings.Builder
	last, changed := 0, false
	for i, w := range words {
		if repl[i] == "" || inSpans(w.Start, ments, quoted) {
			continue
		}
		t := repl[i]
		if c, _ := utf8.DecodeRuneInString(text[w.Start:]); unicode.IsUpper(c) {
			t = strings.ToUpper(t[:1]) + t[1:]
		}
		b.WriteString(text[last:w.Start])
		b.WriteString(t)
		last, changed = w.End, true
	}
	if !changed {
		return text, false
	}
	b.WriteString(text[last:])
	return b.String(), true
}

func inSpans(at int, ments []graphops.LinkedMention, quoted [][2]int) bool {
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
