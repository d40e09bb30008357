package planner

import (
	"context"
	"slices"
	"testing"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/data/lexicon"
	"github.com/strata-retrieval/strata/infer"
)

// TestSubjectVerbs: Ann Lee and Bob Day starred in First Film, which Paul
// Smith directed and Kim Ray wrote. The classifier ranks Ann Lee's films'
// directors first, their writers second, her co-stars last. "Who starred
// in a film with Ann Lee?" names starred_actors ("starred", borne out by
// 10 training questions), which all three walk, and "who" asks for a
// person (10 training questions), which all three answer with. With
// SubjectVerbs, the verb right after "who" has the answers as its
// subject, so the plan ends with a starred_actors step: her co-stars,
// Bob Day above Ann Lee (the path returns to her: plan.ReturnedLast).
// Without, the classifier's directors stand (Paul Smith); a question
// whose verb comes after its anchor ("Who did Ann Lee star with?") and
// one opening with no question word keep them too.
func TestSubjectVerbs(t *testing.T) {
	lex, err := lexicon.WordNet()
	if err != nil {
		t.Fatal(err)
	}
	planner := func(on bool) *LinkingPlanner {
		p := filmPlanner(t, []string{"directed_by", "starred_actors", "written_by"}, []string{"Paul Smith", "First Film", "Second Film", "Ann Lee", "Kim Ray", "Bob Day"},
			[][3]int{{1, 0, 0}, {1, 1, 3}, {1, 1, 5}, {1, 2, 4}, {2, 0, 0}},
			[][][]string{
				{{"*", "<-starred_actors", "movie", "->directed_by", "person"}},
				{{"*", "<-starred_actors", "movie", "->written_by", "person"}},
				{{"*", "<-starred_actors", "movie", "->starred_actors", "person"}},
			}, AnchorConfig{NamedType: true, NamedRelations: true, WhAsks: true, SubjectVerbs: on})
		rankTemplates(p, []float32{2, 1, 0})
		p.names.setLexicon(lex)
		rw := NewRelWords()
		l := NewLeadTypes()
		for range 10 {
			rw.Add("starred in", []string{"starred_actors"})
			l.Add([2]string{"who", "directed"}, "person")
		}
		p.Cfg.Anchors.RelWords, p.Cfg.Anchors.Lead = rw, l
		return p
	}
	for _, c := range []struct {
		q    string
		on   bool
		want []uint32 // the reach, the first answer first
	}{
		{"Who starred in a film with Ann Lee?", true, []uint32{5, 3}},
		{"Who starred in a film with Ann Lee?", false, []uint32{0}},
		{"Who did Ann Lee star with?", true, []uint32{0}},
		{"Starred in a film with Ann Lee?", true, []uint32{0}},
	} {
		p := planner(c.on)
		pred, got, err := answered(p, c.q)
		if !slices.Equal(got, c.want) {
			t.Errorf("SubjectVerbs %v: %q planned %v reaching %v (%v), want %v", c.on, c.q, pred.Plan.MetapathTokens(), got, err, c.want)
		}
	}
}

// TestCoAnchors: Ann Lee and Bob Day starred in First Film; Ann Lee
// directed Second Film, which starred Kim Ray. The classifier ranks the
// cast of Ann Lee's films as director first, her co-stars second; both
// end with the starred_actors step "starred" names. With WhichVerbs,
// "Which actors starred ..." has a subject verb though "which" asks for
// no one type; with CoAnchors an anchor after "together with" (or
// "alongside") starred too, so the cast of her films as director is ruled
// out and her co-stars answer, Bob Day first. Without either the
// classifier's Kim Ray stands, and so it does where "with" follows a noun
// ("films with Ann Lee").
func TestCoAnchors(t *testing.T) {
	lex, err := lexicon.WordNet()
	if err != nil {
		t.Fatal(err)
	}
	planner := func(which, co bool) *LinkingPlanner {
		p := filmPlanner(t, []string{"directed_by", "starred_actors"}, []string{"Paul Smith", "First Film", "Second Film", "Ann Lee", "Kim Ray", "Bob Day"},
			[][3]int{{1, 0, 0}, {1, 1, 3}, {1, 1, 5}, {2, 0, 3}, {2, 1, 4}},
			[][][]string{
				{{"*", "<-directed_by", "movie", "->starred_actors", "person"}},
				{{"*", "<-starred_actors", "movie", "->starred_actors", "person"}},
			}, AnchorConfig{NamedRelations: true, SubjectVerbs: true, WhichVerbs: which, CoAnchors: co})
		trainedLike(p, lex, []float32{2, 1}, [][2]string{{"starred in", "starred_actors"}})
		return p
	}
	const q = "Which actors starred in films together with Ann Lee?"
	for _, c := range []struct {
		q         string
		which, co bool
		want      []uint32 // the reach, the first answer first
	}{
		{q, true, true, []uint32{5, 3}},
		{"Which actors starred in films alongside Ann Lee?", true, true, []uint32{5, 3}},
		{q, true, false, []uint32{4}},
		{q, false, true, []uint32{4}},
		{"Which actors starred in films with Ann Lee?", true, true, []uint32{4}},
	} {
		pred, got, err := answered(planner(c.which, c.co), c.q)
		if !slices.Equal(got, c.want) {
			t.Errorf("WhichVerbs %v, CoAnchors %v: %q planned %v reaching %v (%v), want %v", c.which, c.co, c.q, pred.Plan.MetapathTokens(), got, err, c.want)
		}
	}
	// The subject verb after a question word and its nouns: two nouns at
	// most, a noun that may be a verb only right after the question word,
	// and none after a question word with no noun.
	p := planner(true, false)
	for q, want := range map[string]int{
		"Which actors starred in films with Ann Lee?": 2,
		"Which film actors starred in First Film?":    3,
		"Which films star Ann Lee?":                   2,
		"Which films were directed by Paul Smith?":    3,
		"What did Ann Lee star in?":                   -1,
		"Which of the films starred Ann Lee?":         -1,
	} {
		if _, got := p.subjectVerb(q); got != want {
			t.Errorf("WhichVerbs: %q: subject verb at %d, want %d", q, got, want)
		}
		if _, got := planner(false, false).subjectVerb(q); got != -1 {
			t.Errorf("without WhichVerbs: %q: subject verb at %d, want none", q, got)
		}
	}
}

// answered is p's prediction for the question q and the nodes its reach
// ranks, the first answer first (byScore).
func answered(p *LinkingPlanner, q string) (infer.PlanPrediction, []uint32, error) {
	pred, err := p.Predict(context.Background(), data.Query{Text: q, ID: -1})
	var got []uint32
	if err == nil && pred.Reach != nil {
		got = byScore(pred.Reach)
	}
	return pred, got, err
}

// byScore are a reach's nodes, the highest scored first (ties in
// the reach's order).
func byScore(r *data.PlanReach) []uint32 {
	got := slices.Clone(r.Nodes)
	slices.SortStableFunc(got, func(a, b uint32) int {
		sa, sb := r.Scores[slices.Index(r.Nodes, a)], r.Scores[slices.Index(r.Nodes, b)]
		switch {
		case sa > sb:
			return -1
		case sa < sb:
			return 1
		}
		return 0
	})
	return got
}
