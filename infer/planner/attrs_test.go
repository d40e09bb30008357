package planner

import (
	"context"
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/graphops"
)

// TestLearnAttrKeys: keys found before a restriction word in the text of
// every answer, worked by hand on three films. "films released in 2007"
// (F1, F3): F1 gives {f1 (before "released"), released (before "2007",
// past "in")}, F3 {f3, released}: released. "French films" (F2, F3):
// language. "films in French from 1999" (F2): language, released.
// "released films" (F1): f1. So released and language back two questions
// each, f1 one.
func TestLearnAttrKeys(t *testing.T) {
	s := &data.SKB{Schema: data.Schema{Format: data.FormatSKBDir, NodeTypes: []string{"movie"}, RelationTypes: []string{"sequel"}, TextFields: []string{"name", "details"}}}
	for _, n := range [][2]string{{"F1", "Released in 2007. Language: English."}, {"F2", "Released in 1999. Language: French."}, {"F3", "Released in 2007. Language: French."}} {
		s.Nodes = append(s.Nodes, data.Node{Name: n[0], Fields: []string{"", n[1]}})
	}
	g, err := graphops.Build(s)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	exs := []AttrExample{
		{Restriction: "films released in 2007", Answers: []uint32{0, 2}},
		{Restriction: "French films", Answers: []uint32{1, 2}},
		{Restriction: "films in French from 1999", Answers: []uint32{1}},
		{Restriction: "the", Answers: []uint32{0}}, // no value words
		{Restriction: "released films", Answers: []uint32{0}},
	}
	// Worked by hand. Words that can be values (two letters or more, not
	// stop words) in each answer's text: f<n>, released, <year>, language,
	// <language> (5; "in" is a stop word). Before them, per text: f<n> 1,
	// released 1 (before the year, across "in"), <year> 1, language 1.
	// Questions with value words: 1 (answers F1, F3), 2 (F2, F3), 3 (F2),
	// 5 (F1), so 6 texts, 30 positions, 9 of them value words:
	//   1: released in F1 and F3 (key f<n>), 2007 in both (key released);
	//   2: french in F2 and F3 (key language);
	//   3: 1999 (key released), french (key language);
	//   5: released (key f1).
	// Keys in every answer: released in 1 and 3, language in 2 and 3, f1
	// in 5. Lifts (before values / 9) / (before any / 30): released
	// (3/9)/(6/30) = 5/3, language (3/9)/(6/30) = 5/3, f1 (2/9)/(2/30) =
	// 10/3: all >= MinAttrKeyLift.
	if got := LearnAttrKeys(g, exs, 2); !slices.Equal(got, []string{"language", "released"}) {
		t.Errorf("min 2: %v", got)
	}
	if got := LearnAttrKeys(g, exs, 1); !slices.Equal(got, []string{"f1", "language", "released"}) {
		t.Errorf("min 1: %v", got)
	}
	if got := LearnAttrKeys(g, exs, 3); got != nil {
		t.Errorf("min 3: %v", got)
	}
}

// TestLearnAttrKeysLift: a filler word that stands before values no more
// often than before the text's other words is not a key, however many
// questions it precedes a value in. Each text is "<name> cast nice plot
// nice score nice time nice mood": 10 positions that can be values,
// "nice" before 4 of them (plot, score, time, mood).
//   - Questions asking "cast plot": 2 value positions per text, cast
//     after the name and plot after "nice"; "nice" is in every answer of
//     4 questions, lift (1/2)/(4/10) = 1.25 < MinAttrKeyLift: no key (each
//     name precedes a value in one question only, under min 2).
//   - Questions asking "plot": "nice" before the one value position,
//     lift (1/1)/(4/10) = 2.5: a key.
func TestLearnAttrKeysLift(t *testing.T) {
	s := &data.SKB{Schema: data.Schema{Format: data.FormatSKBDir, NodeTypes: []string{"thing"}, RelationTypes: []string{"rel"}, TextFields: []string{"name", "details"}}}
	for _, n := range []string{"Alpha", "Bravo", "Charlie", "Delta"} {
		s.Nodes = append(s.Nodes, data.Node{Name: n, Fields: []string{"", "cast nice plot nice score nice time nice mood"}})
	}
	g, err := graphops.Build(s)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	ask := func(restriction string) []AttrExample {
		var exs []AttrExample
		for i := range 4 {
			exs = append(exs, AttrExample{Restriction: restriction, Answers: []uint32{uint32(i)}})
		}
		return exs
	}
	if got := LearnAttrKeys(g, ask("cast plot"), 2); got != nil {
		t.Errorf("cast plot: keys %v, want none (nice: lift 1.25)", got)
	}
	if got := LearnAttrKeys(g, ask("plot"), 2); !slices.Equal(got, []string{"nice"}) {
		t.Errorf("plot: keys %v, want [nice] (lift 2.5)", got)
	}
}

// TestRelationWordMatch: relation names split at "_" and " ", compared by
// their first four letters with the question's words of three or more
// letters outside the anchors.
func TestRelationWordMatch(t *testing.T) {
	for _, c := range []struct {
		path        []string
		restriction string
		m, n        int
	}{
		// directed_by meets "directed", has_genre meets "genre".
		{[]string{"person", "<-directed_by", "movie", "∀->has_genre", "genre"}, "Every film directed by belongs to which genre?", 2, 2},
		// "wrote" is not "written": only the genre.
		{[]string{"person", "<-written_by", "movie", "->has_genre", "genre"}, "What genre are the films wrote?", 1, 2},
		// starred_actors meets "starring"; alternatives count one by one.
		{[]string{"person", "<-starred_actors|<-directed_by", "movie"}, "films starring", 1, 2},
		{[]string{"synset", "->part holonym", "synset"}, "What is a part of?", 1, 1},
		{[]string{"*", "*", "*"}, "anything", 0, 0},
	} {
		p := data.Plan{Paths: data.MustPaths([][]string{c.path}...)}
		if m, n := RelationWordMatch(&p, c.restriction); m != c.m || n != c.n {
			t.Errorf("%v %q: %d of %d, want %d of %d", c.path, c.restriction, m, n, c.m, c.n)
		}
	}
}

// TestRelWords: lifts worked by hand on four questions (alpha 2).
// directed_by is in 2 of 4, written_by in 1. "what films wrote":
// written_by after "films" (3 questions, 1 with it): (1 + 2/4)/(3 + 2) =
// 0.3, lift 1.2; after "wrote" (1 of 1): (1 + 2/4)/3 = 0.5, lift 2.
// directed_by after "films": (2 + 1)/5 = 0.6, lift 1.2; after "wrote":
// (0 + 1)/3, lift 2/3; so 1.2.
func TestRelWords(t *testing.T) {
	r := NewRelWords()
	r.Add("films directed", []string{"directed_by"})
	r.Add("who directed films", []string{"directed_by"})
	r.Add("films wrote", []string{"written_by"})
	r.Add("kind of", []string{"hypernym"})
	for _, c := range []struct {
		rel  string
		want float64
	}{{"written_by", 2}, {"directed_by", 1.2}, {"has_genre", 1}} {
		if got := r.Lift("what films wrote", c.rel); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("Lift(%s) = %v, want %v", c.rel, got, c.want)
		}
	}
	p := data.Plan{Paths: data.MustPaths([][]string{{"person", "<-written_by", "movie", "∀->directed_by", "person"}}...)}
	if got := PlanRelations(&p); !slices.Equal(got, []string{"directed_by", "written_by"}) {
		t.Errorf("PlanRelations: %v", got)
	}
	if got := r.MinLift("what films wrote", &p); math.Abs(got-1.2) > 1e-12 {
		t.Errorf("MinLift = %v, want 1.2", got)
	}
}

// TestAttrTwin: a restricted candidate whose reach states (key, a word of
// the question) is tried filtered too. Paul Smith directed F1 (2007,
// English), F2 (1999, French) and F3 (2007, French); with the key
// "released", "films directed by Paul Smith released in 2007" has the
// candidate reaching F1, F2, F3 and its twin "where released 2007"
// reaching F1, F3; "language" adds nothing (the question names no
// language), and without keys there is no twin.
func TestAttrTwin(t *testing.T) {
	p := directorFilmsPlanner(t)
	p.Cfg.Anchors.AttrKeys = []string{"language", "released"}
	q := data.Query{Text: "films directed by Paul Smith released in 2007"}
	cs, _, err := p.Candidates(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range cs {
		got = append(got, fmt.Sprint(c.Plan.Attributes, c.Reach))
	}
	if want := []string{"[] [1 2 3]", "[{released 2007}] [1 3]"}; !slices.Equal(got, want) {
		t.Errorf("candidates %q, want %q", got, want)
	}
	p.Cfg.Anchors.AttrKeys = nil
	if cs, _, _ := p.Candidates(context.Background(), q); len(cs) != 1 || cs[0].Plan.Attributes != nil {
		t.Errorf("without keys: %+v", cs)
	}
}
