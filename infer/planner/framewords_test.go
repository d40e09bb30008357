package planner

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/internal/testskb"
	"github.com/strata-retrieval/strata/models"
)

// TestLearnFrameWords: of the director-films SKB's documents ("First
// Film. Released in 2007. Language: English." ...), "what" and "films"
// are in every restriction below and in no answer's document, "released"
// is in two and in their answers' documents, "2007", "1999" and "french"
// in one each: with at least 2 (or 3) questions, the frame words are
// "films" and "what"; with 4, none.
func TestLearnFrameWords(t *testing.T) {
	ws := testskb.Workspace(t, testskb.DirectorFilms())
	exs := []AttrExample{
		{Restriction: "What films, released in 2007?", Answers: []uint32{1, 3}},
		{Restriction: "what films released in 1999", Answers: []uint32{2}},
		{Restriction: "What French films", Answers: []uint32{2, 3}},
		{Restriction: "", Answers: []uint32{1}},
		{Restriction: "what films", Answers: nil}, // no answers: not counted
	}
	for _, c := range []struct {
		min  int
		want []string
	}{{2, []string{"films", "what"}}, {3, []string{"films", "what"}}, {4, nil}} {
		if got := LearnFrameWords(ws, exs, c.min); !slices.Equal(got, c.want) {
			t.Errorf("LearnFrameWords(min %d) = %q, want %q", c.min, got, c.want)
		}
	}
	// A word held by some answer's document in one of ten questions
	// (not under a tenth) is not a frame word; in one of eleven it is.
	var many []AttrExample
	for i := range 11 {
		r := AttrExample{Restriction: "english please", Answers: []uint32{2}}
		if i == 0 {
			r.Answers = []uint32{1}
		}
		many = append(many, r)
		if got := LearnFrameWords(ws, many, 1); i == 9 && !slices.Equal(got, []string{"please"}) || i == 10 && !slices.Equal(got, []string{"english", "please"}) {
			t.Errorf("%d questions: %q", i+1, got)
		}
	}
}

// TestStripFrameWords: frame words go whatever their case, and
// punctuation with them; without frame words the restriction is kept as
// it is.
func TestStripFrameWords(t *testing.T) {
	if got := StripFrameWords("What is the 2000 films, starring?", []string{"films", "what"}); got != "is the 2000 starring" {
		t.Errorf("got %q", got)
	}
	if got := StripFrameWords("What films?", []string{"films", "what"}); got != "" {
		t.Errorf("got %q", got)
	}
	if got := StripFrameWords("What films?", nil); got != "What films?" {
		t.Errorf("got %q", got)
	}
}

// TestCandidateRestrictionDropsFrameWords: a candidate's restriction is
// the question without its anchor and without the frame words.
func TestCandidateRestrictionDropsFrameWords(t *testing.T) {
	p := directorFilmsPlanner(t)
	q := data.Query{Text: "What films directed by Paul Smith, released in 2007?"}
	for _, c := range []struct {
		frame []string
		want  string
	}{{nil, "What films directed by , released in 2007?"}, {[]string{"films", "what"}, "directed by released in 2007"}} {
		p.Cfg.Anchors.FrameWords = c.frame
		cs, _, err := p.Candidates(context.Background(), q)
		if err != nil {
			t.Fatal(err)
		}
		if len(cs) == 0 || !slices.Equal(cs[0].Plan.Restriction["movie"], []string{c.want}) {
			t.Errorf("frame words %q: candidates %+v, want restriction %q", c.frame, cs, c.want)
		}
	}
}

// directorFilmsPlanner is an untrained linking planner over the
// director-films SKB with one template, films directed by an anchor.
func directorFilmsPlanner(t *testing.T) *LinkingPlanner {
	t.Helper()
	return directorFilmsPlannerOver(t, testskb.DirectorFilms())
}

// directorFilmsPlannerOver is directorFilmsPlanner over skb, the
// director-films SKB with more nodes.
func directorFilmsPlannerOver(t *testing.T, skb *data.SKB) *LinkingPlanner {
	t.Helper()
	ws := testskb.Workspace(t, skb)
	cfg := Config{NodeTypes: ws.SKB.Schema.NodeTypes, Templates: [][]data.Path{data.MustPaths([]string{"*", "<-directed_by", "movie"})},
		Anchors: &AnchorConfig{Dim: 64, Mentions: ws.Mentions().Config()}}
	cfg.Gate = models.GateConfig{In: cfg.InputDim(), Hidden: 4, Out: 1}
	gate, err := models.NewGate(cfg.Gate, "planner", rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	anchor, _ := models.NewSparseLinear(64, "planner.anchor")
	p, err := NewLinkingPlanner(ws, nil, cfg, gate, anchor, nil)
	if err != nil {
		t.Fatal(err)
	}
	return p
}
