package planner

import (
	"slices"
	"testing"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/data/lexicon"
	"github.com/strata-retrieval/strata/graphops/linking"
)

// TestAskedAnswerWords: Paul Smith directed First Film and Second Film
// and starred in Third Film. The one trained template that starts at a
// film walks to its director; "director" is the answer word of that
// step (->directed_by, ending at a person). "Which other movies were
// directed by the director of First Film?" asks for movies, which rules
// the director out, and the deeper search looks for templates that walk
// directed_by and end at movies. With AskedAnswerWords "director", whose
// step ends at no movie, is no answer word there, and the schema path
// through the film's director and back to his films answers: Second Film
// first, First Film, which the path returns to, last. Without, the
// deeper search also asks the plan to end with ->directed_by, which no
// path ending at movies does, and nothing better than the director is
// found. "Which person is the director of First Film?" keeps "director"
// as its answer word either way.
func TestAskedAnswerWords(t *testing.T) {
	lex, err := lexicon.WordNet()
	if err != nil {
		t.Fatal(err)
	}
	planner := func(on bool) *LinkingPlanner {
		p := filmPlannerSteps(t, []string{"directed_by", "starred_actors"}, []string{"Paul Smith", "First Film", "Second Film", "Ann Lee", "Third Film"},
			[][3]int{{1, 0, 0}, {2, 0, 0}, {1, 1, 3}, {4, 1, 0}},
			[][][]string{{{"*", "->directed_by", "person"}}, {{"*", "<-starred_actors", "movie"}}, {{"*", "<-directed_by", "movie"}}},
			[][]string{{"*", "->directed_by", "*", "<-starred_actors", "*"}, {"*", "->directed_by", "*", "<-directed_by", "*"}},
			AnchorConfig{TopTemplates: 1, NamedType: true, NamedRelations: true, DeeperSearch: true, DeeperAsked: true, AskedAnswerWords: on,
				AnswerWords: map[string]string{"director": "->directed_by"}})
		trainedLike(p, lex, []float32{2, 1, 0}, [][2]string{{"directed by", "directed_by"}})
		return p
	}
	for _, c := range []struct {
		q    string
		on   bool
		want []uint32 // the reach, the first answer first
	}{
		{"Which other movies were directed by the director of First Film?", true, []uint32{2, 1}},
		{"Which other movies were directed by the director of First Film?", false, []uint32{0}},
		{"Which person is the director of First Film?", true, []uint32{0}},
	} {
		p := planner(c.on)
		pred, got, err := answered(p, c.q)
		if !slices.Equal(got, c.want) {
			t.Errorf("AskedAnswerWords %v: %q planned %v reaching %v (%v), want %v", c.on, c.q, pred.Plan.MetapathTokens(), got, err, c.want)
		}
	}
}

// TestAskedKindStep: "Which movies share a screenwriter with First
// Film?", read "... share a written with ...", where "written" was read
// off a noun that is a kind of person: the step that noun names
// (kindStep) is ->written_by, to the film's writer. The question asks
// for movies: with AskedAnswerWords that step, ending at a person, is no
// answer word's; without, it is.
func TestAskedKindStep(t *testing.T) {
	lex, err := lexicon.WordNet()
	if err != nil {
		t.Fatal(err)
	}
	q := "Which movies share a written with First Film?"
	kinds := map[string]string{"written": "person"}
	for _, on := range []bool{false, true} {
		p := filmPlanner(t, []string{"written_by"}, []string{"Paul Smith", "First Film"}, [][3]int{{1, 0, 0}},
			[][][]string{{{"*", "->written_by", "person"}}},
			AnchorConfig{NamedType: true, NamedRelations: true, KindAnswerWords: true, AskedAnswerWords: on,
				AnswerWords: map[string]string{"scripts": "<-written_by"}})
		p.names.setLexicon(lex)
		rw := NewRelWords()
		for range 10 {
			rw.Add("written", []string{"written_by"})
		}
		p.Cfg.Anchors.RelWords = rw
		ments := p.findMentions(q)
		film := slices.IndexFunc(ments, func(m linking.LinkedMention) bool { return m.Text == "First Film" })
		if film < 0 {
			t.Fatalf("no mention of First Film in %q: %+v", q, ments)
		}
		c := &PlanCandidate{Mentions: []int{film}, Plan: data.Plan{Paths: data.MustPaths([]string{"*", "->written_by", "person"}),
			Anchors: []data.PlanAnchor{{Nodes: []uint32{1}}}}}
		want := "->written_by"
		if on {
			want = ""
		}
		if got := p.answerStep(q, ments, c, kinds, nil); got != want {
			t.Errorf("AskedAnswerWords %v: answerStep = %q, want %q", on, got, want)
		}
	}
}
