package index

import (
	"slices"
	"testing"
	"unicode/utf8"
)

// TestStemSnowball: Stem agrees with an independent implementation of the
// Snowball English (Porter2) stemmer, NLTK 3.8's SnowballStemmer("english")
// (Debian's python3-nltk), on words of GCIDE's and WordNet's definitions.
func TestStemSnowball(t *testing.T) {
	for _, c := range [][2]string{{"praises", "prais"}, {"praise", "prais"}, {"praiser", "praiser"}, {"eagerness", "eager"}, {"eager", "eager"}, {"existence", "exist"}, {"exist", "exist"}, {"companionable", "companion"}, {"generously", "generous"}, {"running", "run"}, {"bilious", "bilious"}, {"biliousness", "bilious"}, {"cremate", "cremat"}, {"cremation", "cremat"}, {"incinerate", "inciner"}, {"abiding", "abid"}, {"perplexed", "perplex"}, {"perplexity", "perplex"}, {"sociable", "sociabl"}, {"agreeable", "agreeabl"}, {"extols", "extol"}, {"hydrocarbon", "hydrocarbon"}, {"radical", "radic"}, {"frivolous", "frivol"}, {"bantering", "banter"}, {"dying", "die"}, {"skies", "sky"}, {"news", "news"}, {"generate", "generat"}, {"communism", "communism"}, {"arsenal", "arsenal"}} {
		if got := Stem(c[0]); got != c[1] {
			t.Errorf("Stem(%q) = %q, want %q", c[0], got, c[1])
		}
	}
	// Not English words: left as they are.
	for _, w := range []string{"café", "naïveté", "abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzing"} {
		if got := Stem(w); got != w {
			t.Errorf("Stem(%q) = %q, want it unchanged", w, got)
		}
	}
}

// TestStemTokens: StemTokens is Tokenize's tokens (lower case, stop words
// out) stemmed, appended to dst; StemTokensAll keeps the stop words.
func TestStemTokens(t *testing.T) {
	got := StemTokens([]string{"x"}, "The Praises of EAGERNESS, running!")
	if want := []string{"x", "prais", "eager", "run"}; !slices.Equal(got, want) {
		t.Errorf("StemTokens: %q, want %q", got, want)
	}
	got = StemTokensAll(nil, "One who praises the dying")
	if want := []string{"one", "who", "prais", "the", "die"}; !slices.Equal(got, want) {
		t.Errorf("StemTokensAll: %q, want %q", got, want)
	}
}

// FuzzStem: any token, stemmed, without a panic; a stem is valid UTF-8
// when its token is, and never longer than the token plus one byte.
func FuzzStem(f *testing.F) {
	for _, s := range []string{"praises", "dying", "y", "yyyy", "'s", "ied", "café", "eed", "ational"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, tok := range TokenizeAll(nil, s) {
			st := Stem(tok)
			if utf8.ValidString(tok) && !utf8.ValidString(st) {
				t.Fatalf("Stem(%q) = %q: not UTF-8", tok, st)
			}
			if len(st) > len(tok)+1 {
				t.Fatalf("Stem(%q) = %q: longer", tok, st)
			}
		}
	})
}
