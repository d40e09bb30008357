package planner

import (
	"slices"
	"testing"

	"github.com/strata-retrieval/strata/data/lexicon"
)

// TestWhichUnknown: Paul Smith directed First Film and Second Film; Ann
// Lee starred in First Film. The classifier ranks the films an anchor
// starred in above their directors. "Which helmers directed the movies
// that Ann Lee starred in?" asks with a noun the lexicon does not know
// ("helmers"), and "directed" (borne out by 10 training questions) has
// the answers as its subject. With WhichUnknown the unknown noun is the
// one the question word asks with: "directed" is the subject verb, so
// the plan ends with its step, and (WhichSubject) "movies", the verb's
// object, names no type asked for: Paul Smith. Without it "helmers" stops
// the subject verb, "movies" names the asked type, and the films stand.
func TestWhichUnknown(t *testing.T) {
	lex, err := lexicon.WordNet()
	if err != nil {
		t.Fatal(err)
	}
	planner := func(on bool) *LinkingPlanner {
		p := filmPlanner(t, []string{"directed_by", "starred_actors"}, []string{"Paul Smith", "First Film", "Second Film", "Ann Lee"},
			[][3]int{{1, 0, 0}, {1, 1, 3}, {2, 0, 0}},
			[][][]string{
				{{"*", "<-starred_actors", "movie"}},
				{{"*", "<-starred_actors", "movie", "->directed_by", "person"}},
			}, AnchorConfig{NamedType: true, NamedRelations: true, SubjectVerbs: true, WhichVerbs: true, WhichUnknown: on, WhichSubject: true})
		trainedLike(p, lex, []float32{2, 1}, [][2]string{{"directed", "directed_by"}})
		return p
	}
	for _, c := range []struct {
		q    string
		on   bool
		want []uint32 // the reach, the first answer first
	}{
		{"Which helmers directed the movies that Ann Lee starred in?", true, []uint32{0}},
		{"Which helmers have directed the movies that Ann Lee starred in?", true, []uint32{0}},
		{"Which helmers directed the movies that Ann Lee starred in?", false, []uint32{1}},
	} {
		pred, got, err := answered(planner(c.on), c.q)
		if !slices.Equal(got, c.want) {
			t.Errorf("WhichUnknown %v: %q planned %v reaching %v (%v), want %v", c.on, c.q, pred.Plan.MetapathTokens(), got, err, c.want)
		}
	}
	// An unknown word counts as a noun only in lower case and before a
	// verb that is no noun, or an auxiliary.
	on, off := planner(true), planner(false)
	for q, want := range map[string]int{
		"Which helmers directed First Film?":        2,
		"Which helmers have directed First Film?":   3,
		"Which Helmers directed First Film?":        -1,
		"Which giallo films did Paul Smith direct?": -1,
		"Which giallo movies star Ann Lee?":         -1,
	} {
		if _, got := on.subjectVerb(q); got != want {
			t.Errorf("WhichUnknown: %q: subject verb at %d, want %d", q, got, want)
		}
		if _, got := off.subjectVerb(q); got != -1 {
			t.Errorf("without WhichUnknown: %q: subject verb at %d, want none", q, got)
		}
	}
}

// TestWhichSubject: Kim Ray wrote First Film and Second Film; Ann Lee
// starred in First Film. The classifier ranks a writer's films above
// their cast. "Which folks starred in the movies that Kim Ray wrote?"
// asks with a noun that names no type, before its subject verb
// "starred"; "movies" comes after it, as its object. With WhichSubject
// the type asked for is named before the subject verb or not at all, so
// the subject verb decides: the cast, Ann Lee. Without it "movies" names
// the type asked for and rules the cast out: Kim Ray's films, First Film
// (the node ids) first.
func TestWhichSubject(t *testing.T) {
	lex, err := lexicon.WordNet()
	if err != nil {
		t.Fatal(err)
	}
	planner := func(on bool) *LinkingPlanner {
		p := filmPlanner(t, []string{"written_by", "starred_actors"}, []string{"Kim Ray", "First Film", "Second Film", "Ann Lee"},
			[][3]int{{1, 0, 0}, {1, 1, 3}, {2, 0, 0}},
			[][][]string{
				{{"*", "<-written_by", "movie"}},
				{{"*", "<-written_by", "movie", "->starred_actors", "person"}},
			}, AnchorConfig{NamedType: true, NamedRelations: true, SubjectVerbs: true, WhichVerbs: true, WhichSubject: on})
		trainedLike(p, lex, []float32{2, 1}, [][2]string{{"starred", "starred_actors"}, {"wrote", "written_by"}})
		return p
	}
	for _, c := range []struct {
		q    string
		on   bool
		want []uint32 // the reach, the first answer first
	}{
		{"Which folks starred in the movies that Kim Ray wrote?", true, []uint32{3}},
		{"Which folks starred in the movies that Kim Ray wrote?", false, []uint32{1, 2}},
		// A type named before the verb rules the others out.
		{"Which movies written by Kim Ray starred Ann Lee?", true, []uint32{1, 2}},
	} {
		pred, got, err := answered(planner(c.on), c.q)
		if !slices.Equal(got, c.want) {
			t.Errorf("WhichSubject %v: %q planned %v reaching %v (%v), want %v", c.on, c.q, pred.Plan.MetapathTokens(), got, err, c.want)
		}
	}
}
