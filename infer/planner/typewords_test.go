package planner

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"testing"

	"github.com/strata-retrieval/strata/data"
)

// TestLearnTypeWords: 25 films all say "released", 13 of them
// "Language: English."; 25 people say nothing but their names, one of
// which is "Lang Language" (the others "Paa", "Pbb", ...). "released" (25/25 films, no person) and
// "english" (13/25, 52%) are the films' type words; "language" is not (a
// person's name says it: 4% of the others, over 1%), nor "in" (a stop
// word) nor the years (not letters); the 25 people share no word.
func TestLearnTypeWords(t *testing.T) {
	s := &data.SKB{Schema: data.Schema{Format: data.FormatSKBDir, NodeTypes: []string{"person", "movie"},
		CandidateTypes: []string{"person", "movie"}, TextFields: []string{"name", "details"}}}
	for i := range 25 {
		d := fmt.Sprintf("Released in %d.", 1990+i)
		if i < 13 {
			d += " Language: English."
		}
		s.Nodes = append(s.Nodes, data.Node{Type: 1, Name: fmt.Sprintf("M%c%c", 'a'+i, 'a'+i), Fields: []string{"", d}})
		name := fmt.Sprintf("P%c%c", 'a'+i, 'a'+i)
		if i == 0 {
			name = "Lang Language"
		}
		s.Nodes = append(s.Nodes, data.Node{Type: 0, Name: name, Fields: []string{"", ""}})
	}
	got := LearnTypeWords(s)
	if want := map[string][]string{"movie": {"english", "released"}}; !maps.EqualFunc(got, want, slices.Equal) {
		t.Errorf("LearnTypeWords = %v, want %v", got, want)
	}
	s.Nodes = s.Nodes[:30] // 15 films, 15 people
	if got := LearnTypeWords(s); got != nil {
		t.Errorf("LearnTypeWords with types of fewer than 20 nodes = %v, want none", got)
	}
}

// TestTypeWords: with "released" a type word of movie and "which" an
// asking word, "Which 2007 releases did Ann Lee appear in?" asks for
// films, so a ranker that prefers two hops gives way to her film (First
// Film, node 1) over its director (Paul Smith, node 0). The type word
// names its type before the training's lift of "releases" towards people
// (from 10 questions like "Find the cast of the 1981 releases ...", which
// say nothing of the asked type: named false; a smoothed lift of 2.7),
// and after the year, which the training lifted towards people too. A type word that follows no
// asking word asks for nothing ("Find the cast of the 2007 releases ...").
func TestTypeWords(t *testing.T) {
	el := NewRelWords()
	for range 10 {
		el.Add("the cast of the 2007 releases", []string{"A:person"})
		el.Add("films", []string{"A:movie"})
		el.Add("which films", []string{"A:movie"})
	}
	for _, tw := range []map[string][]string{nil, {"movie": {"released"}}} {
		p := lexPlanner(t)
		preferTwoHops(p)
		p.Cfg.Anchors.AskWords = []string{"which"}
		p.Cfg.Anchors.TypeWords = tw
		p.Cfg.Anchors.Elements = el
		want, wantType := uint32(0), "person"
		if tw != nil {
			want, wantType = 1, "movie"
		}
		if got, named := p.askedTypeBy("Which 2007 releases did appear in?", nil); got != wantType || named != (tw != nil) {
			t.Errorf("TypeWords %v: asked type %q (%v), want %q", tw, got, named, wantType)
		}
		if got, named := p.askedTypeBy("Find the cast of the 2007 releases directed by", nil); got != "person" || named {
			t.Errorf("TypeWords %v: a type word after no asking word asks for %q (%v), want the lift's person", tw, got, named)
		}
		q := "Which 2007 releases did Ann Lee appear in?"
		pred, err := p.Predict(context.Background(), data.Query{Text: q, ID: -1})
		if err != nil || pred.Reach == nil || !slices.Equal(pred.Reach.Nodes, []uint32{want}) {
			t.Errorf("TypeWords %v: %q planned %v reaching %v (%v), want [%d]", tw, q, pred.Plan.MetapathTokens(), pred.Reach, err, want)
		}
	}
}

// TestLearnTypeWordsStride: of a type with more than maxTypeWordNodes
// nodes, every k-th is read (60,000 films: every 2nd, from the first).
// "tags", on every odd-numbered film (half of them, a type word were every
// film read), is on none of those read; "english" and "language", on 3 of
// every 5 films, are on 3 of every 5 read; "released" on all.
func TestLearnTypeWordsStride(t *testing.T) {
	s := &data.SKB{Schema: data.Schema{Format: data.FormatSKBDir, NodeTypes: []string{"person", "movie"},
		CandidateTypes: []string{"person", "movie"}, TextFields: []string{"name", "details"}}}
	for i := range 2 * maxTypeWordNodes * 6 / 10 {
		d := "Released in 1990."
		if i%5 < 3 {
			d += " Language: English."
		}
		if i%2 == 1 {
			d += " Tags: drama."
		}
		s.Nodes = append(s.Nodes, data.Node{Type: 1, Name: "", Fields: []string{"", d}})
	}
	for i := range 30 {
		s.Nodes = append(s.Nodes, data.Node{Type: 0, Name: fmt.Sprintf("P%c%c", 'a'+i%26, 'a'+i/26), Fields: []string{"", ""}})
	}
	got := LearnTypeWords(s)
	if want := map[string][]string{"movie": {"english", "language", "released"}}; !maps.EqualFunc(got, want, slices.Equal) {
		t.Errorf("LearnTypeWords = %v, want %v", got, want)
	}
}

// TestTypeWordNouns: with "tags" a type word of movie and "is" and
// "which" asking words, "tagged" after "is" is a verb, not "tags": with
// TypeWordNouns "Every film of Ann Lee is tagged with which person?" asks
// for the person "which" names, and the ranker's two hops answer (Paul
// Smith, node 0); without it "tagged" names films before "which person"
// is read, and Ann Lee's film answers (node 1). A type word in a noun's
// form names its type either way ("Which 2007 releases ...": films).
func TestTypeWordNouns(t *testing.T) {
	for _, on := range []bool{false, true} {
		p := lexPlanner(t)
		preferTwoHops(p)
		p.Cfg.Anchors.AskWords = []string{"is", "which"}
		p.Cfg.Anchors.TypeWords = map[string][]string{"movie": {"released", "tags"}}
		p.Cfg.Anchors.TypeWordNouns = on
		wantType, want := "movie", uint32(1)
		if on {
			wantType, want = "person", 0
		}
		if got, named := p.askedTypeBy("Every film of is tagged with which person?", nil); got != wantType || !named {
			t.Errorf("TypeWordNouns %v: asked type %q (%v), want %q named", on, got, named, wantType)
		}
		if got, named := p.askedTypeBy("Which 2007 releases did appear in?", nil); got != "movie" || !named {
			t.Errorf("TypeWordNouns %v: \"releases\" asks for %q (%v), want movie named", on, got, named)
		}
		q := "Every film of Ann Lee is tagged with which person?"
		pred, err := p.Predict(context.Background(), data.Query{Text: q, ID: -1})
		if err != nil || pred.Reach == nil || !slices.Equal(pred.Reach.Nodes, []uint32{want}) {
			t.Errorf("TypeWordNouns %v: %q planned %v reaching %v (%v), want [%d]", on, q, pred.Plan.MetapathTokens(), pred.Reach, err, want)
		}
	}
}
