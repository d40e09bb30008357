package lexicon

import (
	"slices"
	"strings"
	"testing"
)

// The relations below are read off Princeton WordNet 3.0 with its own
// browser (`wn WORD -synsv -synsn`, Debian's wordnet package): "pen" and
// "write" share the synset {write, compose, pen, indite}; helm's only verb
// sense has the hypernym {steer, ..., direct, point, head, guide}; the
// first verb sense of "feature", {have, feature}, is the hypernym of
// star's first; {performer, performing artist} is the hypernym of {actor,
// histrion, player, thespian, role player}; "tell" reaches direct only
// through its sense {order, tell, enjoin, say}, not its first {say,
// state, tell}; genre's hypernym is {kind, sort, form, variety}, whose
// hypernym is category's sense, two links away.
func TestEmbeddedWordNet(t *testing.T) {
	l, err := WordNet()
	if err != nil {
		t.Fatal(err)
	}
	if len(l.syns) != 106308 {
		t.Errorf("%d synsets, want 106308 (noun, verb and adjective synsets of WordNet 3.0 without instances)", len(l.syns))
	}
	for _, c := range []struct {
		word string
		want []string
	}{
		{"wrote", []string{"write"}}, {"written", []string{"write", "written"}}, {"penned", []string{"pen"}},
		{"helmed", []string{"helm"}}, {"movies", []string{"movie"}}, {"categories", []string{"category"}},
		{"starring", []string{"star", "starring"}}, {"zqxv", nil},
	} {
		if got := l.Bases(c.word); !slices.Equal(got, c.want) {
			t.Errorf("Bases(%q) = %q, want %q", c.word, got, c.want)
		}
	}
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"wrote", "written", SameBase}, {"movies", "movie", SameBase},
		{"penned", "wrote", Synonym}, {"pictures", "movies", Synonym}, {"sort", "kind", Synonym},
		{"helmed", "directed", Linked}, {"featuring", "starring", Linked}, {"performers", "actors", Linked},
		{"tell", "directed", Far}, {"category", "genre", Far},
		// writer's first sense (writer, author) derives from write's
		// (write, compose, pen): "writers" reads as "wrote"; a
		// screenwriter is a scriptwriter, a writer, so the compound's head
		// reads it; a typewriter is a printer (its head is no hypernym)
		// and "performance" derives from no sense of direct.
		{"writers", "wrote", Derived}, {"screenwriters", "wrote", Head + Derived}, {"screenwriters", "writer", Head + SameBase},
		{"typewriters", "wrote", Far}, {"underwriter", "written", Far}, {"performance", "directed", Far},
		// "give" and "have" share only a rare sense of both (give or have
		// a party): no synonyms for reading a question.
		{"give", "have", Far}, {"zqxv", "write", Far}, {"write", "zqxv", Far},
	} {
		if got := l.Distance(c.a, c.b); got != c.want {
			t.Errorf("Distance(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}

// TestIsNoun: nouns and their plurals, regular ("instances") and
// irregular ("mice"), are nouns; "related" (an adjective, and a verb's
// form), "pertains" and "tell" are not, nor a word the lexicon lacks.
func TestIsNoun(t *testing.T) {
	l, err := WordNet()
	if err != nil {
		t.Fatal(err)
	}
	for w, want := range map[string]bool{"instance": true, "instances": true, "parts": true, "mice": true, "men": true,
		"related": false, "pertains": false, "tell": false, "zqxv": false} {
		if got := l.IsNoun(w); got != want {
			t.Errorf("IsNoun(%q) = %v, want %v", w, got, want)
		}
	}
}

func TestParseErrors(t *testing.T) {
	const head, head2 = "strata-lexicon 1 test\n", "strata-lexicon 2 test\n"
	for _, c := range []struct{ in, want string }{
		{"", "t.lex: empty"},
		{"lexicon 2\n", "t.lex line 1: header"},
		{head + "S n a,b\n", "t.lex line 2: record"},
		{head + "S q a -\n", "t.lex line 2: record"},
		{head + "S n a x\n", "t.lex line 2: links: \"x\" is not a synset number"},
		{head + "S n a -\nS n b 0\nS n ,* -\n", "t.lex line 4: lemmas"},
		{head + "Q n a b\n", "t.lex line 2: record: unknown kind \"Q\""},
		{head + "S n a 7\n", "synset 0 links to 7 of 1"},
		{head + "S n a -\nS v b -\nD n 0 1\n", "t.lex line 4: record: derivational links (D) need a strata-lexicon 2 header"},
		{head2 + "S n a -\nD v 0 1\n", "t.lex line 3: synset: \"0\" is not the number of a v synset before it"},
		{head2 + "S n a -\nD n 1 0\n", "t.lex line 3: synset: \"1\""},
		{head2 + "S n a -\nD n 0 x\n", "t.lex line 3: derivs: \"x\" is not a synset number"},
		{head2 + "S n a -\nD n 0 4\n", "synset 0 derives from 4 of 1"},
	} {
		_, err := Parse(strings.NewReader(c.in), "t.lex")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Parse(%q) = %v, want an error with %q", c.in, err, c.want)
		}
	}
	l, err := Parse(strings.NewReader(head+"S v write*,pen -\nS v author* 0\nX v wrote write\n"), "t.lex")
	if err != nil {
		t.Fatal(err)
	}
	if d := l.Distance("wrote", "pen"); d != Synonym {
		t.Errorf("Distance(wrote, pen) = %d, want Synonym", d)
	}
	if d := l.Distance("author", "pen"); d != Linked {
		t.Errorf("Distance(author, pen) = %d, want Linked", d)
	}
	if d := l.Distance("pen", "author"); d != Far {
		t.Errorf("Distance(pen, author) = %d, want Far (pen's sense is not its first)", d)
	}
	// Derivational links, read from the noun's or the verb's most frequent
	// sense; a compound's head counts where it is a hypernym's lemma.
	l, err = Parse(strings.NewReader(head2+"S v write* -\nS n writer* -\nS n scriptwriter*,screenwriter* 1\nS n screen* -\nD v 0 1\nD n 1 0\n"), "t.lex")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		a, b string
		want int
	}{{"writer", "write", Derived}, {"wrote", "writer", Far}, {"write", "writer", Derived}, {"screenwriter", "writer", Linked},
		{"screenwriter", "write", Head + Derived}, {"screenwriters", "wrote", Far}} {
		if d := l.Distance(c.a, c.b); d != c.want {
			t.Errorf("Distance(%q, %q) = %d, want %d", c.a, c.b, d, c.want)
		}
	}
}

func FuzzParse(f *testing.F) {
	f.Add("strata-lexicon 1 x\nS n a,b* 0\nX n as a\n")
	f.Add("strata-lexicon 1 x\nS v a -\nS v b* 0,1\n")
	f.Add("strata-lexicon 2 x\nS v a* -\nS n as* -\nS n bas* 1\nD v 0 1\nD n 1 0\n")
	f.Fuzz(func(t *testing.T, in string) {
		l, err := Parse(strings.NewReader(in), "fuzz")
		if err != nil {
			return
		}
		for _, w := range []string{"a", "as", "b", "bs", "bas"} {
			_ = l.Distance(w, "a")
		}
	})
}

// TestMatcherAgreesWithDistance: the indexed look-up gives the words of
// least Distance a loop over the list finds, in list order, for every 7th
// lemma of the lexicon and inflections of it.
func TestMatcherAgreesWithDistance(t *testing.T) {
	l, err := WordNet()
	if err != nil {
		t.Fatal(err)
	}
	targets := []string{"directed", "written", "wrote", "starring", "actors", "genre", "movie", "person", "kind", "part", "member", "similar", "language", "released", "have", "noun", "animal", "body"}
	m := l.NewMatcher(targets)
	var probes []string
	for w := range l.lemma {
		probes = append(probes, w)
	}
	slices.Sort(probes)
	for _, anyDerived := range []bool{false, true} {
		m := l.NewMatcher(targets)
		m.AnySenseDerived = anyDerived
		n, derived := 0, 0
		for i := 0; i < len(probes); i += 7 {
			for _, w := range []string{probes[i], probes[i] + "s", probes[i] + "ed", probes[i] + "ing"} {
				var want []string
				wd := Far
				for _, tw := range targets {
					switch d := l.distanceIn(w, tw, anyDerived); {
					case d < wd:
						want, wd = []string{tw}, d
					case d == wd && d < Far:
						want = append(want, tw)
					}
				}
				if got, gd := m.NearestAll(w); !slices.Equal(got, want) || gd != wd {
					t.Errorf("AnySenseDerived %v: NearestAll(%q) = %q, %d; the Distance loop gives %q, %d", anyDerived, w, got, gd, want, wd)
				}
				if wd <= Linked {
					n++
				}
				if wd == Derived {
					derived++
				}
			}
		}
		if n < 200 || derived < 3 {
			t.Errorf("AnySenseDerived %v: only %d probes are near a target, %d derived: the test shows little", anyDerived, n, derived)
		}
	}
	// "work" derives "worker", actor's second sense ({actor, doer,
	// worker}), not its first, a performer: read so only where any sense
	// may be reached.
	if d := l.distanceIn("work", "actors", true); d != Derived {
		t.Errorf("distanceIn(work, actors, any sense) = %d, want Derived", d)
	}
	for _, c := range [][2]string{{"penned", "written"}, {"helmed", "directed"}, {"performers", "starring"}, {"writers", "written"}, {"screenwriters", "written"}, {"work", ""}, {"typewriters", ""}, {"zqxv", ""}} {
		if got, _ := m.Nearest(c[0]); got != c[1] {
			t.Errorf("Nearest(%q) = %q, want %q", c[0], got, c[1])
		}
	}
}

// TestNearestNoun: through a word's noun senses alone. "type" is near
// "wrote" by its verb (to type is to write), and near nothing listed as a
// noun; "screenwriters", a noun, stays near "written" (through its head,
// a writer, who writes), "performers" near "starring", and a base form
// is near whatever the word is ("types": "type"). On every probe the
// noun-only distance is no nearer than NearestAll's, and it agrees with
// it for a word with noun senses alone, but for compounds: their heads
// are nouns, and are read as nouns ("gasworks": works, a factory, not to
// work).
func TestNearestNoun(t *testing.T) {
	l, err := WordNet()
	if err != nil {
		t.Fatal(err)
	}
	m := l.NewMatcher([]string{"written", "wrote", "starring", "genre", "type"})
	for _, c := range []struct {
		w        string
		all, nom string
	}{{"type", "type", "type"}, {"typed", "type", "type"}, {"screenwriters", "written", "written"}, {"performers", "starring", "starring"}, {"types", "type", "type"}} {
		if got, _ := m.Nearest(c.w); got != c.all {
			t.Errorf("Nearest(%q) = %q, want %q", c.w, got, c.all)
		}
		got, _ := m.NearestNoun(c.w)
		if want := c.nom; len(got) > 0 != (want != "") || len(got) > 0 && got[0] != want {
			t.Errorf("NearestNoun(%q) = %q, want %q", c.w, got, want)
		}
	}
	m = l.NewMatcher([]string{"wrote", "directed", "genre"})
	if got, _ := m.NearestAll("type"); !slices.Equal(got, []string{"wrote"}) {
		t.Errorf("NearestAll(type) = %q, want [wrote] (to type is to write)", got)
	}
	if got, d := m.NearestNoun("type"); got != nil || d != Far {
		t.Errorf("NearestNoun(type) = %q, %d; want none (a type is no writing)", got, d)
	}
	var probes []string
	for w := range l.lemma {
		probes = append(probes, w)
	}
	slices.Sort(probes)
	m = l.NewMatcher([]string{"directed", "written", "actors", "genre", "movie", "person", "kind", "part", "member", "similar", "language"})
	for i := 0; i < len(probes); i += 11 {
		w := probes[i]
		all, da := m.NearestAll(w)
		nom, dn := m.NearestNoun(w)
		if dn < da {
			t.Errorf("NearestNoun(%q) = %q, %d: nearer than NearestAll's %q, %d", w, nom, dn, all, da)
		}
		nounOnly := true
		for _, s := range l.synsets(l.lemma, l.Bases(w)) {
			nounOnly = nounOnly && l.syns[s].pos == Noun
		}
		if nounOnly && da < Head && (!slices.Equal(all, nom) || da != dn) {
			t.Errorf("NearestNoun(%q) = %q, %d; NearestAll, for a word with noun senses alone, %q, %d", w, nom, dn, all, da)
		}
	}
}

// TestFirstNounLemmas: the lemmas of a word's most frequent noun sense,
// its own among them; none for a word with no noun sense.
func TestFirstNounLemmas(t *testing.T) {
	l, err := WordNet()
	if err != nil {
		t.Fatal(err)
	}
	// movie's first sense: movie, film, picture, moving picture, ...,
	// pic, flick; the lexicon keeps the lemmas of one word.
	if got, want := l.FirstNounLemmas("movies"), []string{"film", "flick", "movie", "pic", "picture"}; !slices.Equal(got, want) {
		t.Errorf("FirstNounLemmas(movies) = %q, want %q", got, want)
	}
	if got := l.FirstNounLemmas("quickly"); len(got) != 0 {
		t.Errorf("FirstNounLemmas(quickly) = %q, want none", got)
	}
}

// TestFirstNounSynonym: b in the most frequent noun sense of a, in a's
// direction only, nouns only.
func TestFirstNounSynonym(t *testing.T) {
	pairTable(t, "FirstNounSynonym", (*Lexicon).FirstNounSynonym, []wordPair{
		{"films", "movie", true},
		{"film", "movies", true},
		{"individuals", "person", true},
		{"form", "shape", false}, // form's first noun sense is a word's form
		{"shape", "form", true},
		{"tell", "state", false}, // a verb sense only
		{"pictures", "movie", false},
		{"movie", "movie", true},
		{"zzzz", "movie", false},
	})
}

// wordPair is a case of a predicate over two words.
type wordPair struct {
	a, b string
	want bool
}

// pairTable checks the embedded lexicon's predicate f (named name) on
// every case.
func pairTable(t *testing.T, name string, f func(*Lexicon, string, string) bool, cases []wordPair) {
	t.Helper()
	lex, err := WordNet()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		if got := f(lex, c.a, c.b); got != c.want {
			t.Errorf("%s(%q, %q) = %v, want %v", name, c.a, c.b, got, c.want)
		}
	}
}

// TestKin: one link in some sense of each, worked out in WordNet 3.0: the
// noun "script" is the act of the verb "script" (write a script for),
// whose hypernym is "write"; "scripted" through its base form; to star is
// to feature as the star; "made" is kin to "directed" and "written" both
// (some sense of each is one link from some sense of make); no sense of a
// film is near a genre, "belongs" and "share" are two links from "has",
// and "every" is no noun or verb.
func TestKin(t *testing.T) {
	pairTable(t, "Kin", (*Lexicon).Kin, []wordPair{
		{"script", "written", true},
		{"scripted", "written", true},
		{"feature", "starred", true},
		{"made", "directed", true},
		{"made", "written", true},
		{"film", "genre", false},
		{"belongs", "has", false},
		{"share", "has", false},
		{"every", "genre", false},
		{"zzzz", "written", false},
	})
}

// TestStemVerbs: the verbs a noun is formed from by its suffix, checked
// against WordNet 3.0's verbs: direct-ion, compos-ition (compose),
// appear-ance, perform-ance (through the base form of "performances");
// "action" ends in "ion" but "act" is too short a stem, "membership" and
// "actor" end in no such suffix, "notion" has no verb "not", and an
// unknown word has none.
func TestStemVerbs(t *testing.T) {
	lex, err := WordNet()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		w    string
		want []string
	}{
		{"direction", []string{"direct"}},
		{"composition", []string{"compose"}},
		{"appearance", []string{"appear"}},
		{"performances", []string{"perform"}},
		{"action", nil},
		{"membership", nil},
		{"actor", nil},
		{"notion", nil},
		{"zzzz", nil},
	} {
		if got := lex.StemVerbs(c.w); !slices.Equal(got, c.want) {
			t.Errorf("StemVerbs(%q) = %q, want %q", c.w, got, c.want)
		}
	}
}

// TestKindLevel: hypernym links from the most frequent noun sense of a up
// to that of b, worked out in WordNet 3.0: writer -> communicator ->
// person (2), screenwriter -> scriptwriter -> writer -> communicator ->
// person (4), performers -> performer -> entertainer -> person (2), films
// are movies' sense itself (0); a title names a work, no film; "had" is
// read through its base "have", a noun only as a wealthy person.
func TestKindLevel(t *testing.T) {
	lex, err := WordNet()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		a, b string
		max  int
		want int
	}{
		{"writer", "person", 4, 2},
		{"screenwriters", "person", 4, 4},
		{"screenwriters", "person", 3, -1},
		{"performers", "person", 4, 2},
		{"films", "movie", 4, 0},
		{"titles", "movie", 8, -1},
		{"writer", "movie", 8, -1},
		{"unknownword", "person", 8, -1},
	} {
		if got := lex.KindLevel(c.a, c.b, c.max); got != c.want {
			t.Errorf("KindLevel(%q, %q, %d) = %d, want %d", c.a, c.b, c.max, got, c.want)
		}
	}
}

// TestGeneralLevel: a genre is a kind (form, kind, sort, variety) and a
// kind a category, category's second noun sense ("a general concept that
// marks divisions"; its first is a collection), which KindLevel, reading
// only most frequent senses, does not reach.
func TestGeneralLevel(t *testing.T) {
	lex, err := WordNet()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		a, b string
		max  int
		want int
	}{
		{"genre", "category", 2, 2},
		{"genres", "categories", 2, 2},
		{"genre", "category", 1, -1},
		{"genre", "variety", 2, 1},
		{"genre", "genre", 2, 0},
		{"writer", "person", 4, 2},
		{"movie", "category", 8, -1},
		{"unknownword", "category", 8, -1},
	} {
		if got := lex.GeneralLevel(c.a, c.b, c.max); got != c.want {
			t.Errorf("GeneralLevel(%q, %q, %d) = %d, want %d", c.a, c.b, c.max, got, c.want)
		}
	}
	if got := lex.KindLevel("genre", "category", 8); got != -1 {
		t.Errorf("KindLevel(genre, category) = %d, want -1 (category's most frequent sense is a collection)", got)
	}
}

// TestHypernymLemmas: screenwriter's sense is a scriptwriter's, an
// author's (author, writer), a communicator's, a person's.
func TestHypernymLemmas(t *testing.T) {
	lex, err := WordNet()
	if err != nil {
		t.Fatal(err)
	}
	if got, want := lex.HypernymLemmas("screenwriters", 2), []string{"scriptwriter", "author", "writer"}; !slices.Equal(got, want) {
		t.Errorf("HypernymLemmas(screenwriters, 2) = %v, want %v", got, want)
	}
	if got := lex.HypernymLemmas("screenwriters", 0); got != nil {
		t.Errorf("HypernymLemmas(screenwriters, 0) = %v, want none", got)
	}
}

// TestIsNounLemma: a noun as written, in the singular; not its plural,
// nor a word that is no noun.
func TestIsNounLemma(t *testing.T) {
	l, err := WordNet()
	if err != nil {
		t.Fatal(err)
	}
	for w, want := range map[string]bool{"director": true, "cast": true, "directors": false, "films": false, "quickly": false, "directed": false} {
		if got := l.IsNounLemma(w); got != want {
			t.Errorf("IsNounLemma(%q) = %v, want %v", w, got, want)
		}
	}
}

// TestFormSenses: "narrower" is a form of narrow only as an adjective
// (the comparative; no verb or noun ending gives narrow), and narrow's
// first verb sense, "make or become more narrow", has change's sense
// {change} as its hypernym (`wn narrow -hypev`): with every base's senses
// the word is Linked to "change"; with FormSenses only the adjective's,
// whose similar-to links reach no listed word. "narrowed" (a verb's
// past) and "narrow" itself (a lemma of every part of speech) keep the
// verb's link, and "films" (a noun's plural and a verb's third person)
// both parts of speech.
func TestFormSenses(t *testing.T) {
	l, err := WordNet()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		w, near string
		d, form int // the Distance to near with every sense, and with FormSenses
	}{
		{"narrower", "change", Linked, Far},
		{"narrowed", "change", Linked, Linked},
		{"narrow", "change", Linked, Linked},
		{"films", "movie", Synonym, Synonym},
	} {
		for _, on := range []bool{false, true} {
			m := l.NewMatcher([]string{c.near})
			m.FormSenses = on
			want := c.d
			if on {
				want = c.form
			}
			if got, d := m.Nearest(c.w); d != want || d < Far && got != c.near {
				t.Errorf("FormSenses %v: Nearest(%q) = %q, %d; want %q, %d", on, c.w, got, d, c.near, want)
			}
		}
	}
	if !l.formOf("narrower", "narrow", Adj) || l.formOf("narrower", "narrow", Verb) || !l.formOf("films", "film", Verb) || !l.formOf("wrote", "write", Verb) {
		t.Error("formOf: narrower an adjective's form of narrow and no verb's; films a verb's form of film; wrote write's")
	}
}
