package infer

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"unicode"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/data/index"
	"github.com/strata-retrieval/strata/data/lexicon"
	"github.com/strata-retrieval/strata/graphops/linking"
	"github.com/strata-retrieval/strata/graphops/workspace"
	"github.com/strata-retrieval/strata/internal/parallel"
)

// ReadingNeighbors is how many neighbours (BothWaysAliasLine) the reading
// index reads a candidate's document with, as many as train encoder reads
// by default (by its edges out alone).
const ReadingNeighbors = 8

// Reading is the SKB as the text channel "reading" reads it (docs/real-data.md,
// "A text channel that reads"): a BM25 index over every candidate's
// document and neighbour line (edges out, then in: BothWaysAliasLine),
// each neighbour read by its other names ("book; volume"), stemmed
// (index.StemTokens); a naive Bayes model of a candidate's node type given
// text, learned from the candidates' own text (TypeFeatures of each one's
// longest text field other than the name); and the words of the
// candidates' names and other names (Relatives: the derived and compound
// forms a query's words stand for) and their profiles (Profiles: what a
// passage is read with). All come from the SKB alone; no question is
// read.
type Reading struct {
	// BM25's document d is candidate d (ws.Candidates[d]), as ws.Doc's.
	BM25 *index.BM25
	// Prior is nil when fewer than two of the candidates' node types have
	// a candidate with text besides its name (a type prior could not tell
	// them apart).
	Prior *index.NaiveBayes
	// Label[d] is candidate d's node type as a label of Prior.
	Label []int32
	// Names holds the words of the candidates' names and alias fields
	// (linking.DetectAliasFields).
	Names *index.Relatives
	// Profiles is BM25 over one document per stemmed word of those names,
	// the word's profile: the documents (as BM25 reads them) of the first
	// MaxProfileDocs candidates whose names hold it, pooled. "exploit"
	// reads the glosses of its four WordNet synsets (a notable
	// achievement; use to one's advantage; draw from; work excessively
	// hard) at once. ProfileDocs[p] lists every candidate
	// (ascending) whose names hold profile p's word; a word in more than
	// MaxProfileNamed candidates' names has an empty profile and lists
	// none, so one passage's profiles touch at most 30 * MaxProfileNamed
	// candidates (baseline's withProfiles).
	Profiles    *index.BM25
	ProfileDocs [][]int32

	// nameFields are the candidates' alias fields (indexes into the
	// schema's text fields) and nameDelims the delimiter that splits each
	// (linking.AliasDelim): SaysEveryName reads a node's names from them.
	nameFields []int
	nameDelims []string
	// profileOf maps a stemmed name word to its profile (Profiles' document).
	profileOf map[string]int32
	// verbLabels[l] says whether most candidates of label l are named by
	// a verb's base form (NamesVerb).
	verbLabels []bool
}

// MaxProfileDocs bounds the candidates one name word's profile pools:
// "genus" names thousands of WordNet's. MaxProfileNamed bounds the
// candidates a word may name and still have a profile.
const (
	MaxProfileDocs  = 20
	MaxProfileNamed = 4096
)

// ReadingOf returns ws's reading, built on first use (a few seconds on
// WordNet's 117,659 synsets) and kept with the workspace.
func ReadingOf(ws *workspace.Workspace) (*Reading, error) {
	v, err := ws.Memo("infer.reading", func() (any, error) { return buildReading(ws) })
	if err != nil {
		return nil, err
	}
	r, ok := v.(*Reading)
	if !ok {
		return nil, fmt.Errorf("infer: the workspace's reading index: %T", v)
	}
	return r, nil
}

func buildReading(ws *workspace.Workspace) (*Reading, error) {
	skb := ws.SKB
	aliases := linking.DetectAliasFields(skb)
	line := BothWaysAliasLine(skb, ReadingNeighbors, aliases)
	text := func(v uint32) string { return skb.Document(v) + line(v) }
	var nameFields []int
	for i, f := range skb.Schema.TextFields {
		if slices.Contains(aliases, f) {
			nameFields = append(nameFields, i)
		}
	}
	n := len(ws.Candidates)
	toks := make([][]string, n)
	feats := make([][]string, n)
	names := make([][]string, n)
	if err := parallel.Chunks(context.Background(), n, 512, 0, func(lo, hi int) {
		for d := lo; d < hi; d++ {
			v := ws.Candidates[d]
			toks[d] = index.StemTokens(nil, text(v))
			_, words := LongestField(skb, v)
			feats[d] = TypeFeatures(strings.Join(words, " "))
			node := &skb.Nodes[v]
			names[d] = index.Tokenize(nil, node.Name)
			for _, fi := range nameFields {
				if fi < len(node.Fields) {
					names[d] = index.Tokenize(names[d], node.Fields[fi])
				}
			}
		}
	}); err != nil {
		return nil, err
	}
	cfg := ws.Config.BM25
	cfg.Stem = true // the tokens below are stemmed (on all cores); queries are stemmed alike
	b := index.NewBuilder(cfg)
	for d := range toks {
		b.AddTokens(toks[d])
	}
	vocab := map[string]struct{}{} // distinct first: a title-named SKB repeats words by the million
	for _, ws := range names {
		for _, w := range ws {
			vocab[w] = struct{}{}
		}
	}
	r := &Reading{BM25: b.Build(), Label: make([]int32, n), Names: index.NewRelatives(slices.Collect(maps.Keys(vocab))), nameFields: nameFields}
	for _, fi := range nameFields {
		r.nameDelims = append(r.nameDelims, linking.AliasDelim(skb, fi))
	}
	r.Profiles, r.ProfileDocs, r.profileOf = nameProfiles(cfg, names, toks)
	labels := map[int32]int32{}
	for d, v := range ws.Candidates {
		t := skb.Nodes[v].Type
		l, ok := labels[int32(t)]
		if !ok {
			l = int32(len(labels))
			labels[int32(t)] = l
		}
		r.Label[d] = l
	}
	lex, err := lexicon.WordNet()
	if err != nil {
		return nil, err
	}
	r.verbLabels = verbLabels(skb, ws.Candidates, r.Label, len(labels), lex)
	if len(labels) < 2 {
		return r, nil
	}
	prior := index.NewNaiveBayes(len(labels), 0)
	learned := map[int32]bool{}
	for d, fs := range feats {
		if len(fs) > 2 { // more than the two opening marks: some text
			prior.Add(int(r.Label[d]), fs)
			learned[r.Label[d]] = true
		}
	}
	if len(learned) >= 2 {
		r.Prior = prior
	}
	return r, nil
}

// verbLabels returns, for each of n labels (label[d] is candidate d's),
// whether more than half of its candidates are named by a verb's base
// form in lex (the name as a whole, in lower case). On WordNet that is
// each verb.* type (83-91% of their synsets' first lemmas) and no other
// (noun.event is the most, 33%); on movies-skb no type.
func verbLabels(skb *data.SKB, cands []uint32, label []int32, n int, lex *lexicon.Lexicon) []bool {
	all, verbs := make([]int, n), make([]int, n)
	for d, v := range cands {
		all[label[d]]++
		if lex.IsVerb(strings.ToLower(skb.Nodes[v].Name)) {
			verbs[label[d]]++
		}
	}
	out := make([]bool, n)
	for l := range out {
		out[l] = 2*verbs[l] > all[l]
	}
	return out
}

// NamesVerb reports whether candidate d's node type names verbs: more
// than half of that type's candidates are named by a verb's base form
// (DefinesVerb).
func (r *Reading) NamesVerb(d int) bool {
	return d >= 0 && d < len(r.Label) && int(r.Label[d]) < len(r.verbLabels) && r.verbLabels[r.Label[d]]
}

// DefinesVerb reports whether a passage's words ws (PassageWords) open
// with an infinitive: "to" and a verb's base form in the lexicon. English
// defines a verb by one ("To dwell in; to abide within", "To restore to
// one's own country"): of the 1,600 GCIDE development definitions 181
// open so, 167 of them defining a verb. WordNet's glosses open with the
// verb bare ("admit back into the country"), so the type prior, learned
// from them, cannot read it.
func DefinesVerb(ws []string) bool {
	if len(ws) < 2 || ws[0] != "to" {
		return false
	}
	lex, err := lexicon.WordNet()
	return err == nil && lex.IsVerb(ws[1])
}

// SaysEveryName reports whether the words ts of a text (SaidWords,
// PassageWords) say every name of node v, its name and each item of its
// alias fields, each as a run of consecutive words. A
// definition does not say the word it defines, so the synset whose every
// lemma "Swiftness rapidity velocity celerity speed" says (speed,
// velocity) is not what it defines, while the one named also by a word it
// does not say (celerity, fleetness, ...) may be. A name with no token
// ("A", a lone letter) is not said. The words are compared as written:
// stemmed, "condition" would say "conditionally", the very word
// "In a manner subject to a condition" defines.
func (r *Reading) SaysEveryName(skb *data.SKB, v uint32, ts []string) bool {
	node := &skb.Nodes[v]
	var buf []string
	says := func(name string) bool {
		buf = SaidWords(buf[:0], name)
		return len(buf) > 0 && holdsRun(ts, buf)
	}
	if !says(node.Name) {
		return false
	}
	for i, fi := range r.nameFields {
		if fi >= len(node.Fields) {
			continue
		}
		for _, it := range linking.SplitAliases(node.Fields[fi], r.nameDelims[i]) {
			if !says(it) {
				return false
			}
		}
	}
	return true
}

// SaidWords appends the words of s to dst as SaysEveryName compares them:
// runs of letters and digits, in lower case, each kept ("vitamin A" is
// two words, and "vitamin" alone does not say it).
func SaidWords(dst []string, s string) []string {
	for _, w := range strings.FieldsFunc(s, func(c rune) bool { return !unicode.IsLetter(c) && !unicode.IsDigit(c) }) {
		dst = append(dst, strings.ToLower(w))
	}
	return dst
}

// PassageWords returns SaidWords of a passage's text outside its quoted
// spans (between two straight double quotes, or an opening and a closing
// curly one): a word in quotes is spoken of, not used, so '"fowler" in
// the sense of a huntsman' does not say fowler the way a definition would.
// A quote left open quotes nothing.
func PassageWords(text string) []string {
	var b strings.Builder
	rest := text
	for {
		i := strings.IndexAny(rest, "\"\u201c")
		if i < 0 {
			break
		}
		opener, closer := "\u201c", "\u201d"
		if rest[i] == '"' {
			opener, closer = "\"", "\""
		}
		_, after, ok := strings.Cut(rest[i+len(opener):], closer)
		if !ok {
			break
		}
		b.WriteString(rest[:i])
		b.WriteByte(' ')
		rest = after
	}
	b.WriteString(rest)
	return SaidWords(nil, b.String())
}

// holdsRun reports whether run occurs in ts as consecutive tokens.
func holdsRun(ts, run []string) bool {
	for i := 0; i+len(run) <= len(ts); i++ {
		if slices.Equal(ts[i:i+len(run)], run) {
			return true
		}
	}
	return false
}

// nameProfiles builds Reading.Profiles, ProfileDocs and profileOf from
// each candidate's name words and document tokens (stemmed).
func nameProfiles(cfg index.Config, names, toks [][]string) (*index.BM25, [][]int32, map[string]int32) {
	ids := map[string]int32{}
	var docs [][]int32
	for d, ws := range names {
		for _, w := range ws {
			s := index.Stem(w)
			p, ok := ids[s]
			if !ok {
				p = int32(len(docs))
				ids[s] = p
				docs = append(docs, nil)
			}
			if l := docs[p]; len(l) == 0 || l[len(l)-1] != int32(d) { // a word twice in one candidate's names: once
				docs[p] = append(l, int32(d))
			}
		}
	}
	b := index.NewBuilder(cfg)
	var buf []string
	for p, ds := range docs {
		buf = buf[:0]
		if len(ds) > MaxProfileNamed {
			docs[p] = nil // an empty profile, matching nothing
		} else {
			for _, d := range ds[:min(len(ds), MaxProfileDocs)] {
				buf = append(buf, toks[d]...)
			}
		}
		b.AddTokens(buf)
	}
	return b.Build(), docs, ids
}

// SaidProfiles returns the profiles of the stems of the words in said
// (SaidWords of a passage, as a set), each with its stem.
func (r *Reading) SaidProfiles(said map[string]bool) map[int32]string {
	out := map[int32]string{}
	for w := range said {
		s := index.Stem(w)
		if p, ok := r.profileOf[s]; ok {
			out[p] = s
		}
	}
	return out
}

// NameSaysStem reports whether node v's names (its name and alias fields,
// as the profiles read them) hold a word of the stem stem and every such
// word is in said. A passage does not say the word it defines, so a word
// it says lends no profile to the candidates it names: "Abounding in
// mud" lifts no candidate by the profile of "mud", while "muddy" (stem
// "muddi") keeps its own.
func (r *Reading) NameSaysStem(skb *data.SKB, v uint32, stem string, said map[string]bool) bool {
	node := &skb.Nodes[v]
	found := false
	check := func(text string) bool {
		for _, w := range index.Tokenize(nil, text) {
			if index.Stem(w) == stem {
				if !said[w] {
					return false
				}
				found = true
			}
		}
		return true
	}
	if !check(node.Name) {
		return false
	}
	for _, fi := range r.nameFields {
		if fi < len(node.Fields) && !check(node.Fields[fi]) {
			return false
		}
	}
	return found
}

// Expand returns a query's weighted terms as the reading reads it: every
// stemmed token of text at weight 1 (a repeated token once per
// occurrence), then, for each distinct stem of a token of letters alone,
// the stems of its relatives among the candidates' names (Names.Of) that
// the query does not hold, each at weight rel (a relative two stems share
// sums both; "wasp" and "wasps" are one stem). "Resembling a wasp" reads
// "resembl", "wasp" and, at rel, "waspish". A query takes at most
// MaxQueryRelatives relatives (its first words' first; one it took
// still sums past the bound) and looks up at most MaxRelativeWords words,
// so the relatives of a megabyte of text cost what its first words' cost
// (its tokens are still stemmed and weighed, each occurrence); Expand
// stops with ctx.Err() when ctx ends.
func (r *Reading) Expand(ctx context.Context, text string, rel float32) ([]string, []float32, error) {
	raw := index.Tokenize(nil, text)
	toks := make([]string, len(raw))
	for i, t := range raw {
		toks[i] = index.Stem(t)
	}
	w := make([]float32, len(toks), 2*len(toks))
	for i := range w {
		w[i] = 1
	}
	if r.Names == nil || rel == 0 {
		return toks, w, nil
	}
	seen := map[string]bool{}
	have := map[string]bool{}
	for _, t := range toks {
		have[t] = true
	}
	at := map[string]int{} // a relative's place in toks
	var rels []string
	for i, t := range raw {
		if seen[toks[i]] || !letters(t) {
			continue
		}
		if len(seen) == MaxRelativeWords {
			break
		}
		if len(seen)%64 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, nil, err
			}
		}
		seen[toks[i]] = true
		rels = r.Names.Of(rels[:0], toks[i])
		for _, s := range rels {
			if have[s] {
				continue
			}
			if j, ok := at[s]; ok {
				w[j] += rel
				continue
			}
			if len(at) == MaxQueryRelatives {
				continue // one taken already may come later in rels
			}
			at[s] = len(toks)
			toks = append(toks, s)
			w = append(w, rel)
		}
	}
	return toks, w, nil
}

// The bounds on one query's relatives (Reading.Expand): a definition of
// 30 words takes about 300.
const (
	MaxQueryRelatives = 1024
	MaxRelativeWords  = 256
)

// letters reports whether a token is letters alone (no digit or "_").
func letters(t string) bool {
	for _, c := range t {
		if !unicode.IsLetter(c) {
			return false
		}
	}
	return true
}

// LongestField returns a node's longest text field other than its name, by
// words: its index in the schema's text fields and its words (-1 and none
// when it has none; the first of equal lengths). On WordNet it is a
// synset's gloss, on STaRK a product's description: the text that
// describes a node rather than names it (the type prior learns from it,
// the encoder's span pairs are cut from it).
func LongestField(skb *data.SKB, v uint32) (int, []string) {
	node := &skb.Nodes[v]
	best, words := -1, []string(nil)
	for i, f := range skb.Schema.TextFields {
		if f == data.NameField || i >= len(node.Fields) {
			continue
		}
		if w := strings.Fields(node.Fields[i]); len(w) > len(words) {
			best, words = i, w
		}
	}
	return best, words
}

// TypeFeatures returns the features the type prior reads in a text: every
// token stemmed, stop words kept (index.StemTokensAll: "one who", "to",
// "of" say what a definition defines), and the opening token and opening
// two tokens, marked ("^one", "^one who"): "To conquer" opens a verb's
// definition, "The state of" a noun's.
func TypeFeatures(text string) []string {
	ts := index.StemTokensAll(nil, text)
	open1, open2 := "^", "^"
	if len(ts) > 0 {
		open1 += ts[0]
		open2 += ts[0]
	}
	if len(ts) > 1 {
		open2 += " " + ts[1]
	}
	return append(ts, open1, open2)
}
