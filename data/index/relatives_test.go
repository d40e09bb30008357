package index

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
)

// TestRelatives: a stem's relatives are the stems of the words holding it
// that stem otherwise, shortest words first, each stem once.
func TestRelatives(t *testing.T) {
	r := NewRelatives([]string{"wasp", "waspish", "waspishly", "wasps", "bristly", "stepbrother", "brother", "brotherhood", "art", "start", "", "wasp", "ненависть"})
	if r.Len() != 11 {
		t.Errorf("%d words, want 11 (repeats and the empty word dropped)", r.Len())
	}
	for _, c := range []struct {
		stem string
		want []string
	}{
		// "wasp" and "wasps" stem to "wasp"; "waspishly" to "waspish"
		{"wasp", []string{"waspish"}},
		// "brother" stems to itself; the 11-letter words in byte order
		{"brother", []string{"brotherhood", Stem("stepbrother")}},
		{"art", nil}, // shorter than MinRelativeStem
		{"не", nil},  // two letters (four bytes): shorter too
		{"нена", []string{"ненависть"}}, // four letters
		{"brist", nil},                 // "bristly" stems to "brist": no other word
		{"zebra", nil},                 // in no word
		{"sp\x00wa", nil},              // the separator is no letter of a word
		{"ishly", []string{"waspish"}}, // inside a word: "waspishly"
	} {
		if got := r.Of(nil, c.stem); !slices.Equal(got, c.want) {
			t.Errorf("Of(%q) = %q, want %q", c.stem, got, c.want)
		}
	}
	if Stem("waspishly") != "waspish" || Stem("wasps") != "wasp" || Stem("brother") != "brother" || Stem("bristly") != "brist" {
		t.Fatal("the stems the cases assume")
	}
	// Of appends: what dst holds stays, and counts for nothing.
	if got := r.Of([]string{"waspish"}, "wasp"); !slices.Equal(got, []string{"waspish", "waspish"}) {
		t.Errorf("appended: %q", got)
	}
	// At most MaxRelatives, the shortest words first, then in byte order:
	// "former" (6 letters; "formed" stems to "form" itself) before
	// "form000" ... "form062".
	words := []string{"formed", "former"}
	for i := range 100 {
		words = append(words, fmt.Sprintf("form%03d", 99-i))
	}
	slices.SortFunc(words, func(a, b string) int { return cmp.Or(len(a)-len(b), strings.Compare(a, b)) })
	got := NewRelatives(words).Of(nil, "form")
	if len(got) != MaxRelatives {
		t.Fatalf("%d relatives, want %d", len(got), MaxRelatives)
	}
	want := []string{"former"}
	for i := range MaxRelatives - 1 {
		want = append(want, fmt.Sprintf("form%03d", i))
	}
	if !slices.Equal(got, want) {
		t.Errorf("capped relatives %q, want the %d shortest %q", got, MaxRelatives, want)
	}
}

// TestScoreAllWeighted: a weighted query's scores are the weighted sums of
// its tokens' own scores; weights of 1 give ScoreAllTokens'.
func TestScoreAllWeighted(t *testing.T) {
	b := NewBuilder(Config{})
	for _, d := range []string{"a wasp nest", "waspish mood and a nest", "mood"} {
		b.Add(d)
	}
	ix := b.Build()
	toks := []string{"wasp", "nest", "waspish", "nowhere", "mood"}
	w := []float32{1, 1, 0.25, 3, 0} // weight 0: "mood" matches nothing (document 2 no hit)
	got, err := ix.ScoreAllWeighted(context.Background(), toks, w, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := map[uint32]float64{}
	for i, tok := range toks[:4] {
		for d := range uint32(3) {
			if s := ix.ScoreTokens([]string{tok}, d); s != 0 {
				want[d] += float64(w[i]) * float64(s)
			}
		}
	}
	if len(got) != len(want) {
		t.Fatalf("%v, want %v", got, want)
	}
	for _, h := range got {
		if math.Abs(float64(h.Score)-want[h.ID]) > 1e-6 {
			t.Errorf("doc %d: %v, want %v", h.ID, h.Score, want[h.ID])
		}
	}
	ones, _ := ix.ScoreAllWeighted(context.Background(), toks, []float32{1, 1, 1, 1, 1}, nil)
	plain, _ := ix.ScoreAllTokens(context.Background(), toks, nil)
	if !slices.Equal(ones, plain) {
		t.Errorf("weights of 1: %v, ScoreAllTokens %v", ones, plain)
	}
	if _, err := ix.ScoreAllWeighted(context.Background(), toks, w[:2], nil); err == nil {
		t.Error("two weights for four tokens: no error")
	}
}
