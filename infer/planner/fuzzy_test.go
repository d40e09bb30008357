package planner

import (
	"slices"
	"testing"

	"github.com/strata-retrieval/strata/data/lexicon"
)

// TestEdits1: the words one edit from "abc" are 3 with a letter dropped,
// 2 with neighbours swapped, 75 with a letter changed and 104 with one
// added, less the 3 additions that double a letter twice over ("aabc"
// adds an a before or after the a): 181, none of them "abc" and each
// once (a second engine, Norvig's set of edits, counts the same; "aab"
// gives 179).
func TestEdits1(t *testing.T) {
	for w, want := range map[string]int{"abc": 181, "aab": 179} {
		got := edits1(w)
		if len(got) != want || slices.Contains(got, w) {
			t.Errorf("edits1(%q): %d words (itself among them: %v), want %d", w, len(got), slices.Contains(got, w), want)
		}
		seen := map[string]bool{}
		for _, e := range got {
			if seen[e] {
				t.Errorf("edits1(%q): %q twice", w, e)
			}
			seen[e] = true
		}
	}
	for _, e := range []string{"bc", "bac", "abd", "abcd", "xabc"} {
		if !slices.Contains(edits1("abc"), e) {
			t.Errorf("edits1(abc) lacks %q", e)
		}
	}
}

// TestFuzzyNames: over a graph where Annabel Leeward starred in First Film
// and directed Second Film, "Which films did Annabel Leewrd star in?"
// names no node; with FuzzyNames it is read as "... Annabel Leeward ..."
// and planned (First Film), without it there is no plan. A question
// whose words are all known is never read so; a misspelling one letter
// from two names ("Leewarx": Leeward, Leewart) is left as typed; a
// one-word name is read only where it is capitalised ("Zanzibarin", not
// "zanzibarin", as Zanzibarine; "zanzibarin film" as the film Zanzibarine
// Film); a word of three letters is not edited ("Ann Lxe").
func TestFuzzyNames(t *testing.T) {
	lex, err := lexicon.WordNet()
	if err != nil {
		t.Fatal(err)
	}
	planner := func(fuzzy bool) *LinkingPlanner {
		p := filmPlanner(t, []string{"directed_by", "starred_actors"}, []string{"Paul Smith", "First Film", "Second Film", "Annabel Leeward", "Annabel Leewart", "Zanzibarine Film", "Ann Lee", "Zanzibarine"},
			[][3]int{{1, 0, 0}, {1, 1, 3}, {2, 0, 3}, {5, 1, 4}},
			[][][]string{{{"*", "<-starred_actors", "movie"}}}, AnchorConfig{FuzzyNames: fuzzy})
		trainedLike(p, lex, []float32{1}, [][2]string{{"star", "starred_actors"}})
		return p
	}
	for _, c := range []struct {
		q     string
		fuzzy bool
		read  string
		want  []uint32
	}{
		{"Which films did Annabel Leewrd star in?", true, "Which films did Annabel Leeward star in?", []uint32{1}},
		{"Which films did Annabel Leewrd star in?", false, "", nil},
		{"Which films did Annabel Leeward star in?", true, "", []uint32{1}},
	} {
		pred, got, err := answered(planner(c.fuzzy), c.q)
		if err != nil || pred.ReadAs != c.read || !slices.Equal(got, c.want) {
			t.Errorf("FuzzyNames %v: %q read as %q, planned %v reaching %v (%v), want read as %q reaching %v", c.fuzzy, c.q, pred.ReadAs, pred.Plan.MetapathTokens(), got, err, c.read, c.want)
		}
	}
	p := planner(true)
	for q, want := range map[string]string{
		"Which films did Annabel Leewrd star in?":   "Which films did Annabel Leeward star in?",
		"Which films did Annabel Leewarx star in?":  "",
		"Which films did Annabel Leeward star in?":  "",
		"Who starred in Zanzibarin Film?":           "Who starred in Zanzibarine Film?",
		"Who starred in zanzibarin film?":           "Who starred in Zanzibarine Film?",
		"Who starred with Zanzibarin?":              "Who starred with Zanzibarine?",
		"Who starred with zanzibarin?":              "",
		"Which films did Ann Lxe star in?":          "",
		"Which films did Annabel Leewrd star in?!?": "Which films did Annabel Leeward star in?!?",
	} {
		got, ok := p.fuzzyRead(q)
		if ok != (want != "") || ok && got != want {
			t.Errorf("fuzzyRead(%q) = %q, %v; want %q", q, got, ok, want)
		}
	}
}

// FuzzFuzzyRead: whatever a user types, reading it for misspelt names
// never panics, and leaves it as typed unless it reports a reading.
func FuzzFuzzyRead(f *testing.F) {
	lex, err := lexicon.WordNet()
	if err != nil {
		f.Fatal(err)
	}
	p := filmPlanner(f, []string{"directed_by", "starred_actors"}, []string{"Paul Smith", "First Film", "Annabel Leeward", "Zanzibarine"},
		[][3]int{{1, 0, 0}, {1, 1, 2}}, [][][]string{{{"*", "<-starred_actors", "movie"}}}, AnchorConfig{FuzzyNames: true})
	trainedLike(p, lex, []float32{1}, nil)
	for _, s := range []string{"Which films did Annabel Leewrd star in?", "Zanzibarin", "ÄÖÜ Leewérd's", "", "a'b.c", "Annabel  Leewrd\u00a0?"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		got, ok := p.fuzzyRead(text)
		if !ok && got != text {
			t.Errorf("fuzzyRead(%q) = %q without a reading", text, got)
		}
	})
}
