package planner

import (
	"slices"
	"strings"
	"testing"

	"github.com/strata-retrieval/strata/graphops/linking"
)

// TestBareAnchorFeatures: a mention's bare anchor features (the copies
// the anchor scorer also learns from) are its features without exactly
// its own words, alone and with the path's token, so they are the same
// for any words in its place.
func TestBareAnchorFeatures(t *testing.T) {
	const dim = 1 << 16
	hash := func(parts ...string) uint32 { return featureIndex(dim, parts...) }
	feats := func(first string, bare bool) []uint32 {
		text := first + " me which textile forms part of shirt"
		words := linking.MentionWords(text)
		n := len(first)
		ments := []linking.LinkedMention{
			{Start: 0, End: n, TokStart: 0, TokEnd: 1, Text: first, Nodes: []linking.FormNode{{Node: 1}}},
			{Start: n + 10, End: n + 17, TokStart: 3, TokEnd: 4, Text: "textile", Nodes: []linking.FormNode{{Node: 2}}},
			{Start: strings.LastIndex(text, "shirt"), End: len(text), TokStart: 7, TokEnd: 8, Text: "shirt", Nodes: []linking.FormNode{{Node: 3}}},
		}
		if text[ments[1].Start:ments[1].End] != "textile" {
			t.Fatalf("offsets: %q", text[ments[1].Start:ments[1].End])
		}
		f := anchorFeatures(dim, text, words, ments, 0, "<-hypernym", 1, 5, bare)
		slices.Sort(f)
		return f
	}
	full, bare := feats("Tell", false), feats("Tell", true)
	want := slices.DeleteFunc(slices.Clone(full), func(f uint32) bool {
		return f == hash("self", "tell") || f == hash("<-hypernym", "self", "tell")
	})
	if len(want) != len(full)-2 || !slices.Equal(bare, want) {
		t.Errorf("bare features %v, want the %d full features %v without the two of the mention's words", bare, len(full), full)
	}
	if other := feats("Show", true); !slices.Equal(other, bare) {
		t.Errorf("bare features depend on the mention's words: %v against %v", other, bare)
	}
	if other := feats("Show", false); slices.Equal(other, full) {
		t.Error("full features do not depend on the mention's words")
	}
}
