package planner

import (
	"maps"
	"math"
	"testing"

	"github.com/strata-retrieval/strata/data/lexicon"
)

// explainedWords counts three frames, ten questions each: "actors who
// VERB in different films directed by X" (walks directed_by and
// starred_actors), "films directed by X" and "films starring X" (one
// relation each), and extra's questions after them.
func explainedWords(lex *lexicon.Lexicon, verb string, extra ...[2]string) *RelWords {
	var qs []string
	var rels [][]string
	for _, f := range []struct {
		q    string
		rels []string
	}{
		{"actors who " + verb + " in different films directed by", []string{"directed_by", "starred_actors"}},
		{"films directed by", []string{"directed_by"}},
		{"films starring", []string{"starred_actors"}},
	} {
		for range 10 {
			qs, rels = append(qs, f.q), append(rels, f.rels)
		}
	}
	for _, e := range extra {
		qs, rels = append(qs, e[0]), append(rels, []string{e[1]})
	}
	r := NewRelWords()
	for i := range qs {
		r.Add(qs[i], rels[i])
	}
	r.Explain(qs, rels, lex)
	return r
}

// TestExplain: "directed" comes with directed_by in 20 questions of 20
// and with starred_actors in 10 (names directed_by alone), "starring"
// with starred_actors alone; "films" (30 questions, 20 each) names
// neither. "actors", "who", "appeared" and "different" come with both
// relations in all 10 of theirs; "directed" explains directed_by there,
// so each keeps starred_actors (10 of 10). Lift reads the narrowed
// counts: P(directed_by) = 20/30, so "appeared"'s lift for it was
// (10 + 2*2/3) / (10 + 2) / (2/3) = 1.4167 and is now the floor, 1.
// With the lexicon, the adjective "different" is not narrowed, nor is
// "appeared" once "appears" names written_by in 5 questions ("who" is a
// noun, the World Health Organization); "acted" is, as its form "act"
// names starred_actors too (5 questions "please act").
func TestExplain(t *testing.T) {
	lex, err := lexicon.WordNet()
	if err != nil {
		t.Fatal(err)
	}
	starred := map[string]int{"starred_actors": 10}
	r := explainedWords(nil, "appeared")
	want := map[string]map[string]int{"actors": starred, "appeared": starred, "different": starred, "who": starred}
	if !maps.EqualFunc(r.Explained, want, maps.Equal) {
		t.Fatalf("Explained %v, want %v", r.Explained, want)
	}
	if got := r.Lift("appeared", "directed_by"); got != 1 {
		t.Errorf("Lift(appeared, directed_by) = %v, want 1", got)
	}
	if got := r.Lift("appeared", "starred_actors"); math.Abs(got-(10+2*2.0/3)/12/(2.0/3)) > 1e-9 {
		t.Errorf("Lift(appeared, starred_actors) = %v, want 1.4167", got)
	}
	r.Explained = nil
	if got := r.Lift("appeared", "directed_by"); math.Abs(got-(10+2*2.0/3)/12/(2.0/3)) > 1e-9 {
		t.Errorf("Lift(appeared, directed_by) unexplained = %v, want 1.4167", got)
	}
	if r := explainedWords(lex, "appeared"); !maps.EqualFunc(r.Explained, map[string]map[string]int{"actors": starred, "appeared": starred, "who": starred}, maps.Equal) {
		t.Errorf("with the lexicon: Explained %v, want actors, appeared and who", r.Explained)
	}
	var appears, act [][2]string
	for range 5 {
		appears = append(appears, [2]string{"who appears", "written_by"})
		act = append(act, [2]string{"please act", "starred_actors"})
	}
	if r := explainedWords(lex, "appeared", appears...); r.Explained["appeared"] != nil {
		t.Errorf(`"appears" names written_by, yet "appeared" is narrowed: %v`, r.Explained)
	}
	if r := explainedWords(lex, "acted", act...); !maps.Equal(r.Explained["acted"], starred) {
		t.Errorf(`"act" names starred_actors; "acted" not narrowed: %v`, r.Explained)
	}
}

// directorFirstPlanner is a linking planner over a graph where Paul Smith
// (node 0) directed First Film (node 1) and person (node 2) is linked to
// it by rel; its classifier ranks the film's director first and its
// second template, along rel, second, and it tries both.
func directorFirstPlanner(t *testing.T, rel, person string, a AnchorConfig) *LinkingPlanner {
	t.Helper()
	a.TopTemplates = 2
	p := filmPlanner(t, []string{"directed_by", rel}, []string{"Paul Smith", "First Film", person},
		[][3]int{{1, 0, 0}, {1, 1, 2}},
		[][][]string{{{"movie", "->directed_by", "person"}}, {{"movie", "->" + rel, "person"}}}, a)
	rankTemplates(p, []float32{2, 1})
	return p
}

// TestExplainedNamesRelation: over a graph where Paul Smith directed
// First Film and Ann Lee starred in it, a classifier that ranks the
// film's director first answers "Who acted in First Film?" with Paul
// Smith (node 0), as "acted" names no relation with the schema's words.
// Where explaining away left starred_actors to "acted" (Explained: the
// plans of 10 of its 10 training questions walk it once the other words
// explained directed_by), the word names that relation, the director's
// plan misses it, and the cast answers (Ann Lee, node 2).
func TestExplainedNamesRelation(t *testing.T) {
	for _, explained := range []bool{false, true} {
		a := AnchorConfig{NamedRelations: true}
		a.RelWords = &RelWords{N: 20, Rels: map[string]int{"directed_by": 20, "starred_actors": 10}, Words: map[string]int{"acted": 10},
			Pairs: map[string]map[string]int{"acted": {"directed_by": 10, "starred_actors": 10}}}
		want := uint32(0)
		if explained {
			a.RelWords.Explained = map[string]map[string]int{"acted": {"starred_actors": 10}}
			want = 2
		}
		p := directorFirstPlanner(t, "starred_actors", "Ann Lee", a)
		wantReach(t, p, "Who acted in First Film?", want, "explained", explained)
	}
}

// TestKinRelations: "script" came in 10 training questions, all of whose
// plans walk written_by (3 directed_by too), but names no relation with
// the schema's words. The lexicon puts it one link from "written" (the
// verb to script is to write a script), so with KinRelations it names
// written_by: "Who did the script for First Film?" rules out the
// director's plan the classifier ranks first (Paul Smith, node 0) and
// the writer answers (Kim Ray, node 2). "film", which 10 questions with
// the same counts came with, is no kin of "written" and names nothing.
func TestKinRelations(t *testing.T) {
	for _, c := range []struct {
		q    string
		on   bool
		want uint32
	}{
		{"Who did the script for First Film?", false, 0},
		{"Who did the script for First Film?", true, 2},
		{"Who did the film for First Film?", true, 0},
	} {
		a := AnchorConfig{NamedRelations: true, Lexicon: true, KinRelations: c.on}
		a.RelWords = &RelWords{N: 20, Rels: map[string]int{"directed_by": 13, "written_by": 10}, Words: map[string]int{"script": 10, "film": 10},
			Pairs: map[string]map[string]int{"script": {"directed_by": 3, "written_by": 10}, "film": {"directed_by": 3, "written_by": 10}}}
		p := directorFirstPlanner(t, "written_by", "Kim Ray", a)
		wantReach(t, p, c.q, c.want, "kin", c.on)
	}
}
