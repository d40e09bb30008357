package planner

import (
	"reflect"
	"strings"
	"testing"

	"github.com/strata-retrieval/strata/data/lexicon"
	"github.com/strata-retrieval/strata/graphops/linking"
)

// mentionOf is the mention of phrase in text as the linker finds one: its
// byte and word spans.
func mentionOf(t *testing.T, text, phrase string) linking.LinkedMention {
	t.Helper()
	start := strings.Index(text, phrase)
	if start < 0 {
		t.Fatalf("%q not in %q", phrase, text)
	}
	end := start + len(phrase)
	m := linking.LinkedMention{Start: start, End: end, Text: phrase, TokStart: -1}
	for i, w := range linking.MentionWords(text) {
		if w.Start == start {
			m.TokStart = i
		}
		if w.End == end {
			m.TokEnd = i + 1
		}
	}
	return m
}

// TestLearnClosedFollowers: "specific" stands before "kind" in three
// questions and "type" in one (one seen once: closed); "who" before five
// words, each once (open); a mention anchored, quoted or a number, and a
// word not in after, count for nothing. Worked out by hand.
func TestLearnClosedFollowers(t *testing.T) {
	qs := []struct {
		text     string
		ments    []string
		anchored []int
	}{
		{"Name a specific kind of dog.", []string{"kind", "dog"}, []int{1}},
		{"What is a specific kind of cat?", []string{"kind", "cat"}, []int{1}},
		{"What is a specific kind of cow?", []string{"kind", "cow"}, []int{1}},
		{"Which specific type of dog barks?", []string{"type", "dog"}, []int{1}},
		{"Which specific hound is it?", []string{"hound"}, []int{0}},
		{"Name someone who sings or who dances or who runs.", []string{"sings", "dances", "runs"}, nil},
		{"The one who swims, who flies.", []string{"swims", "flies"}, nil},
		{"A specific 'kind' and a specific 1990.", []string{"kind", "1990"}, nil},
		{"A red kind.", []string{"kind"}, nil},
	}
	var texts []string
	var ms [][]linking.LinkedMention
	var as [][]int
	for _, q := range qs {
		texts = append(texts, q.text)
		var m []linking.LinkedMention
		for _, p := range q.ments {
			m = append(m, mentionOf(t, q.text, p))
		}
		ms, as = append(ms, m), append(as, q.anchored)
	}
	got := LearnClosedFollowers(texts, ms, as, []string{"specific", "who"})
	want := map[string][]string{"specific": {"kind", "type"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("LearnClosedFollowers = %v, want %v", got, want)
	}
}

// TestClosedFollowers: with ClosedFollowers, a mention after "specific"
// (an adjective, its followers closed) is ruled out by it only where its
// first word is a follower or related to one in WordNet ("sort" to
// "kind"); after "adjectives" (a noun) and after a word whose followers
// are open, any is, as without the map.
func TestClosedFollowers(t *testing.T) {
	lex, err := lexicon.WordNet()
	if err != nil {
		t.Fatal(err)
	}
	p := smithPlanner(t, lex, AnchorConfig{})
	for _, c := range []struct {
		w, ment string
		closed  map[string][]string
		want    bool
	}{
		{"specific", "swayer", map[string][]string{"specific": {"kind", "type"}}, false},
		{"specific", "plant life", map[string][]string{"specific": {"kind", "type"}}, false},
		{"specific", "kind of", map[string][]string{"specific": {"kind", "type"}}, true},
		{"specific", "sort", map[string][]string{"specific": {"kind", "type"}}, true},
		{"specific", "swayer", nil, true},
		{"who", "swayer", map[string][]string{"specific": {"kind", "type"}}, true},
		{"adjectives", "related to", map[string][]string{"adjectives": {"similar"}}, true},
	} {
		p.Cfg.Anchors.ClosedFollowers = c.closed
		if got := p.closedFollows(c.w, &linking.LinkedMention{Text: c.ment}); got != c.want {
			t.Errorf("closedFollows(%q, %q) with %v = %v, want %v", c.w, c.ment, c.closed, got, c.want)
		}
	}
}
