package linking_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/graphops/linking"
	"github.com/strata-retrieval/strata/internal/testskb"
)

func TestMentionIndex(t *testing.T) {
	s := testskb.Taxonomy()
	if got := linking.DetectAliasFields(s); !cmp.Equal(got, []string{"lemmas"}) {
		t.Fatalf("alias fields %v, want [lemmas]", got)
	}
	ix := linking.NewMentionIndex(s, linking.MentionConfig{})
	type m struct {
		text  string
		nodes []uint32
	}
	got := func(q string) []m {
		var out []m
		for _, x := range ix.Find(q) {
			out = append(out, m{x.Text, x.NodeIDs()})
		}
		return out
	}
	// Plural, case and punctuation; the non-first lemma "genus
	// Dryopteris"; overlapping mentions (longest first at a position);
	// "royal fern" from the name without its qualifier and from the lemma.
	want := []m{{"Wood-Ferns", []uint32{1}}, {"Ferns", []uint32{0}}, {"genus Dryopteris", []uint32{4}}, {"Dryopteris", []uint32{4}},
		{"royal fern", []uint32{10}}, {"fern", []uint32{0}}}
	if g := got("Which Wood-Ferns belong to genus Dryopteris, or to royal fern?"); !cmp.Equal(g, want, cmp.AllowUnexported(m{})) {
		t.Errorf("mentions:\n got %+v\nwant %+v", g, want)
	}
	// An ambiguous surface keeps every node it names; stop words alone
	// are not mentions.
	if g := got("the drawing off of a draw"); !cmp.Equal(g, []m{{"drawing off", []uint32{7}}, {"drawing", []uint32{7}}, {"draw", []uint32{8}}}, cmp.AllowUnexported(m{})) {
		t.Errorf("mentions: %+v", g)
	}
	if w := linking.MentionWords("men's U.S. boxes, flies."); w[0].Norm != "men" || w[1].Norm != "us" || w[2].Norm != "box" || w[3].Norm != "fly" {
		t.Errorf("MentionWords: %+v", w)
	}
}

// A name in the possessive links its node whatever the name ends with:
// "Close's" singularises to the name's own form, "Cross's" (crosss),
// "Davies's" (daviess, while "Davies" indexes as davy) and "Moranis's"
// (moraniss) would not without Word.Poss. A plural possessive and a
// possessive inside a longer name are read as before.
func TestMentionPossessive(t *testing.T) {
	s := &data.SKB{Schema: data.Schema{Format: data.FormatSKBDir, NodeTypes: []string{"person", "movie"},
		CandidateTypes: []string{"person", "movie"}, TextFields: []string{"name"}}}
	for _, n := range []string{"Helen Cross", "Joseph E. Davies", "Rick Moranis", "Glenn Close", "Schindler's List", "actors"} {
		s.Nodes = append(s.Nodes, data.Node{Type: 0, Name: n, Fields: []string{""}})
	}
	ix := linking.NewMentionIndex(s, linking.MentionConfig{})
	for q, want := range map[string][]uint32{
		"Which directors made movies out of Helen Cross's scripts?": {0},
		"Joseph E. Davies’s films":                                  {1},
		"What did Rick Moranis's co-stars direct?":                  {2},
		"Glenn Close's scripts":                                     {3},
		"Who directed Schindler's List?":                            {4},
		"the actors' films":                                         {5},
		"Helen Crosss":                                              nil,
	} {
		var got []uint32
		for _, m := range ix.Find(q) {
			got = append(got, m.NodeIDs()...)
		}
		if !cmp.Equal(got, want) {
			t.Errorf("%q: nodes %v, want %v", q, got, want)
		}
	}
	ws := linking.MentionWords("Cross's Davies's Close's men's it's")
	var poss []string
	for _, w := range ws {
		poss = append(poss, w.Norm+"/"+w.Poss)
	}
	if want := []string{"crosss/cross", "daviess/davy", "close/", "men/", "its/it"}; !cmp.Equal(poss, want) {
		t.Errorf("MentionWords Norm/Poss %v, want %v", poss, want)
	}
}
