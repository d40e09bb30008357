package plan

import (
	"slices"
	"strings"
	"testing"
	"unicode"
)

// wordsRef is the definition words implements: lower-case runs of letters
// and digits.
func wordsRef(text string) []string {
	return strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

func TestWords(t *testing.T) {
	for text, want := range map[string][]string{
		"":                              nil,
		"  \n\t ":                       nil,
		"Released in 2007; Tags: Drama": {"released", "in", "2007", "tags", "drama"},
		"X-Men_2\nthe END.":             {"x", "men", "2", "the", "end"},
		"Café Über":                     {"café", "über"},
	} {
		if got := words(text); !slices.Equal(got, want) {
			t.Errorf("words(%q) = %q, want %q", text, got, want)
		}
	}
}

func FuzzWords(f *testing.F) {
	for _, s := range []string{"", "a", "Hello, World 42", "x\x00y", "ÀB c", "\xff\xfe ab"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := words(s), wordsRef(s); !slices.Equal(got, want) {
			t.Fatalf("words(%q) = %q, want %q", s, got, want)
		}
	})
}
