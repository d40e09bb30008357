package planner

import (
	"slices"
	"strings"
	"testing"

	"github.com/strata-retrieval/strata/data/lexicon"
	"github.com/strata-retrieval/strata/graphops/linking"
)

// TestCompoundHeads: "movie" after "which" names movies, but in "Which
// movie directors has worked for?" it modifies "directors", a noun no
// verb's form can be, the compound's head, a kind of person: with
// CompoundHeads the question asks for people. "Which movie stars ..."
// still asks for movies ("stars" may be a verb), as do "Which movie
// zorbics ..." (no word the lexicon knows) and "Which movies have ..."
// (no noun after the slot).
func TestCompoundHeads(t *testing.T) {
	for _, on := range []bool{false, true} {
		p := lexPlanner(t)
		p.Cfg.Anchors.AskWords = []string{"which"}
		p.Cfg.Anchors.KindTypes = true
		p.Cfg.Anchors.CompoundHeads = on
		want := "movie"
		if on {
			want = "person"
		}
		checkAskedTypes(t, "CompoundHeads", on, p, map[string]string{
			"Which movie directors has worked for?": want,
			"Which movie stars ?":                   "movie",
			"Which movie zorbics has worked for?":   "movie",
			"Which movies have ?":                   "movie",
		})
		// A word read as a kind heads a compound too (resolveRead:
		// "screenwriters" read "written").
		kinds := map[string]string{"written": "person"}
		if got, _ := p.askedTypeBy("Which movie written has worked for?", kinds); got != want {
			t.Errorf("CompoundHeads %v: a compound headed by a word read as a kind asks for %q, want %q", on, got, want)
		}
		// Without the rule the askedTypeOf plain reading (the ranker's
		// features) is untouched either way.
		if got := p.askedType("Which movie directors has worked for?"); got != "movie" {
			t.Errorf("CompoundHeads %v: askedType (no kinds) = %q, want movie", on, got)
		}
	}
}

// TestAddressedRequests: "Could you name the filmmakers who worked with
// Ann Lee?" opens with no verb, so LeadVerbAsks alone reads no request;
// with AddressedRequests the verb after "you" asks as "Name the
// filmmakers ..." does (a kind of person), and Paul Smith, her film's
// director (node 0), answers instead of her film (node 1, castPlanner's
// ranker). "Could you zorbic the filmmakers ..." has no verb after
// "you" and asks for nothing.
func TestAddressedRequests(t *testing.T) {
	for _, on := range []bool{false, true} {
		p := requestPlanner(t, "which")
		p.Cfg.Anchors.AddressedRequests = on
		checkRequests(t, p, "AddressedRequests", on, "Could you name the filmmakers who worked with Ann Lee?", "Can you tell me the filmmakers who worked with Ann Lee?")
		if got, _ := p.verbType("Could you zorbic the filmmakers who worked with Ann Lee?", nil); got != "" {
			t.Errorf("AddressedRequests %v: no verb after \"you\" asked for %q", on, got)
		}
	}
}

// TestFuzzyOpenings: a one-word misspelt name is read only where it is
// capitalised (TestFuzzyNames); a sentence's first word is capitalised
// whatever it is, so with FuzzyOpenings "Zanzibarin" opening a sentence
// is not read as Zanzibarine, elsewhere it still is, and so is a quoted
// one ("'Zanzibarin' starred ...": quoted as a name).
func TestFuzzyOpenings(t *testing.T) {
	lex, err := lexicon.WordNet()
	if err != nil {
		t.Fatal(err)
	}
	for _, on := range []bool{false, true} {
		p := filmPlanner(t, []string{"directed_by", "starred_actors"}, []string{"Paul Smith", "First Film", "Zanzibarine"},
			[][3]int{{1, 1, 2}}, [][][]string{{{"*", "<-starred_actors", "movie"}}}, AnchorConfig{FuzzyNames: true, FuzzyOpenings: on})
		trainedLike(p, lex, []float32{1}, [][2]string{{"star", "starred_actors"}})
		opening := func(q string) string {
			if on {
				return ""
			}
			return strings.Replace(q, "Zanzibarin", "Zanzibarine", 1)
		}
		for q, want := range map[string]string{
			"Zanzibarin starred in which films?":         opening("Zanzibarin starred in which films?"),
			"(Zanzibarin starred in which films?)":       opening("(Zanzibarin starred in which films?)"),
			"'Zanzibarin' starred in which films?":       "'Zanzibarine' starred in which films?",
			"A question. Zanzibarin starred in what?":    opening("A question. Zanzibarin starred in what?"),
			"Which films has Zanzibarin starred in?":     "Which films has Zanzibarine starred in?",
			"Which films, then, has Zanzibarin starred?": "Which films, then, has Zanzibarine starred?",
		} {
			got, ok := p.fuzzyRead(q)
			if ok != (want != "") || ok && got != want {
				t.Errorf("FuzzyOpenings %v: fuzzyRead(%q) = %q, %v; want %q", on, q, got, ok, want)
			}
		}
	}
}

// TestKindCompounds: a mention hyphened to the word after it is in a
// compound (FormInCompound), unless it is that word's argument
// (ArgumentCompounds: "-like", a verb's inflection). With KindCompounds
// a noun the lexicon has as "kind" or one link from it ("type", "sort",
// "variety") takes its argument so too: "impervious-type adjectives" are
// adjectives of impervious's type. "-style" (no such link), "-free" (no
// noun of kinds) and the second part of a compound ("near-impervious")
// stay in a compound.
func TestKindCompounds(t *testing.T) {
	lex, err := lexicon.WordNet()
	if err != nil {
		t.Fatal(err)
	}
	for _, on := range []bool{false, true} {
		a := &AnchorConfig{ArgumentCompounds: true, KindCompounds: on}
		for text, want := range map[string]bool{
			"Which impervious-type adjectives mention water?":    !on,
			"Which impervious-sort adjectives mention water?":    !on,
			"Which impervious-variety adjectives mention water?": !on,
			"Which impervious-like adjectives mention water?":    false,
			"Which impervious-style adjectives mention water?":   true,
			"Which impervious-free adjectives mention water?":    true,
			"Which near-impervious adjectives mention water?":    true,
		} {
			at := strings.Index(text, "impervious")
			tok := len(linking.MentionWords(text[:at]))
			m := linking.LinkedMention{Text: "impervious", Start: at, End: at + len("impervious"), TokStart: tok, TokEnd: tok + 1}
			got := slices.Contains(mentionForms(lex, text, &m, a), FormInCompound)
			if got != want {
				t.Errorf("KindCompounds %v: %q: impervious in a compound %v, want %v", on, text, got, want)
			}
		}
	}
}

// TestPrefixTwice: "sub-subcategories" says its prefix twice, as
// "subcategories of subcategories" does: with PrefixTwice the question
// nests. No prefix repeated ("sub-Saharan languages"), a word too short
// to be more than the prefix and an ending ("re-reads"), no plural
// ("sub-subclass") and a quoted compound nest nothing.
func TestPrefixTwice(t *testing.T) {
	for _, on := range []bool{false, true} {
		p := lexPlanner(t)
		p.Cfg.Anchors.PrefixTwice = on
		for text, want := range map[string]bool{
			"What are the sub-subcategories of ?":    on,
			"List the sub-subtypes of , please.":     on,
			"Which sub-Saharan languages are there?": false,
			"Who re-reads the kinds of ?":            false,
			"Which sub-subclass of is it?":           false,
			"Which are the 'sub-subtypes' of ?":      false,
		} {
			if got := p.nests(text); got != want {
				t.Errorf("PrefixTwice %v: %q nests %v, want %v", on, text, got, want)
			}
		}
	}
}

// TestWhSlotsFirst: "is" and "which" both asked in the training; "Each
// film directed is a movie made by which person?" names movies after
// "is" first, and a person after "which": with WhSlotsFirst the question
// asks for a person. A slot after "which" that names no type ("which
// zorbic") leaves the first asking word's reading either way.
func TestWhSlotsFirst(t *testing.T) {
	for _, on := range []bool{false, true} {
		p := lexPlanner(t)
		p.Cfg.Anchors.AskWords = []string{"is", "which"}
		p.Cfg.Anchors.WhSlotsFirst = on
		want := "movie"
		if on {
			want = "person"
		}
		checkAskedTypes(t, "WhSlotsFirst", on, p, map[string]string{
			"Each film directed is a movie made by which person?": want,
			"Each film directed is a movie made by which zorbic?": "movie",
		})
		if got := p.askedType("Each film directed is a movie made by which person?"); got != "movie" {
			t.Errorf("WhSlotsFirst %v: askedType (the ranker's reading) = %q, want movie", on, got)
		}
	}
}

// checkAskedTypes checks the type each restriction asks for (askedTypeBy,
// no words read as kinds) against want, with rule on or off.
func checkAskedTypes(t *testing.T, rule string, on bool, p *LinkingPlanner, want map[string]string) {
	t.Helper()
	for r, w := range want {
		if got, _ := p.askedTypeBy(r, nil); got != w {
			t.Errorf("%s %v: %q asks for %q, want %q", rule, on, r, got, w)
		}
	}
}
