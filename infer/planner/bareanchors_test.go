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
	feats := func(first string, view AnchorView) []uint32 {
		return anchorFeats(t, dim, first, "me which", view)
	}
	full, bare := feats("Tell", AnchorWhole), feats("Tell", AnchorBare)
	want := slices.DeleteFunc(slices.Clone(full), func(f uint32) bool {
		return f == hash("self", "tell") || f == hash("<-hypernym", "self", "tell")
	})
	if len(want) != len(full)-2 || !slices.Equal(bare, want) {
		t.Errorf("bare features %v, want the %d full features %v without the two of the mention's words", bare, len(full), full)
	}
	if other := feats("Show", AnchorBare); !slices.Equal(other, bare) {
		t.Errorf("bare features depend on the mention's words: %v against %v", other, bare)
	}
	if other := feats("Show", AnchorWhole); slices.Equal(other, full) {
		t.Error("full features do not depend on the mention's words")
	}
}

// TestShapeAnchorFeatures: a mention's shape features are its features
// without exactly the words around it (the fourteen below, worked out by
// hand for "Tell" at the head of "Tell me which textile forms ...", the
// last word stemmed), so they are the same for any words around it, and
// still tell its own words.
func TestShapeAnchorFeatures(t *testing.T) {
	const dim = 1 << 16
	const tok = "<-hypernym"
	hash := func(parts ...string) uint32 { return featureIndex(dim, parts...) }
	full := anchorFeats(t, dim, "Tell", "me which", AnchorWhole)
	shape := anchorFeats(t, dim, "Tell", "me which", AnchorShape)
	context := map[uint32]bool{}
	for _, f := range [][]string{{"l1", "<s>"}, {"l2", "<s>", "<s>"}, {"r1", "me"}, {"r2", "me", "which"}, {"rw", "which"}, {"rw", "textile"}, {"rw", "form"}} {
		context[hash(f...)] = true
		context[hash(append([]string{tok}, f...)...)] = true
	}
	want := slices.DeleteFunc(slices.Clone(full), func(f uint32) bool { return context[f] })
	if len(context) != 14 || len(want) != len(full)-14 || !slices.Equal(shape, want) {
		t.Errorf("shape features %v, want the %d full features %v without the 14 of the words around the mention", shape, len(full), full)
	}
	if other := anchorFeats(t, dim, "Tell", "us what", AnchorShape); !slices.Equal(other, shape) {
		t.Errorf("shape features depend on the words around the mention: %v against %v", other, shape)
	}
	if other := anchorFeats(t, dim, "Show", "me which", AnchorShape); slices.Equal(other, shape) {
		t.Error("shape features do not depend on the mention's words")
	}
}

// anchorFeats returns the sorted anchor features of first, the first of
// three mentions in "FIRST MIDDLE textile forms part of shirt" (MIDDLE
// two words), as view sees them.
func anchorFeats(t *testing.T, dim int, first, middle string, view AnchorView) []uint32 {
	t.Helper()
	text := first + " " + middle + " textile forms part of shirt"
	words := linking.MentionWords(text)
	n := len(first)
	tx := strings.Index(text, "textile")
	ments := []linking.LinkedMention{
		{Start: 0, End: n, TokStart: 0, TokEnd: 1, Text: first, Nodes: []linking.FormNode{{Node: 1}}},
		{Start: tx, End: tx + 7, TokStart: 3, TokEnd: 4, Text: "textile", Nodes: []linking.FormNode{{Node: 2}}},
		{Start: strings.LastIndex(text, "shirt"), End: len(text), TokStart: 7, TokEnd: 8, Text: "shirt", Nodes: []linking.FormNode{{Node: 3}}},
	}
	if words[3].Norm != "textile" || words[7].Norm != "shirt" {
		t.Fatalf("words %v", words)
	}
	f := anchorFeatures(dim, text, words, ments, 0, "<-hypernym", 1, 5, view)
	slices.Sort(f)
	return f
}
