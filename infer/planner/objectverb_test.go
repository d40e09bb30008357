package planner

import (
	"slices"
	"strings"
	"testing"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/data/lexicon"
	"github.com/strata-retrieval/strata/graphops/linking"
)

// TestObjectVerbs: Paul Smith directed First Film and Second Film and
// starred in Third Film; Ann Lee starred in First Film. The one trained
// template that starts at a film walks to its director, and the one
// ranked next from a person to the directors of the films they starred
// in; "director"
// names directed_by (KinRelations: one lexicon link from "directed"),
// "star" starred_actors (10 training questions each), and "director" is
// the answer word of ->directed_by. "What else did the director of First Film direct?"
// asks for what the subject, First Film's director, directed: with
// ObjectVerbs the director himself, whose one step is the subject's own
// relation, is ruled out, and of the schema paths the deeper search
// finds through him, the one that walks no relation the question leaves
// unnamed answers (the subject's "director" is no answer word):
// his films, Second Film first, First Film, which the
// path returns to, last. Without, the director stands. "... star in?"
// names its verb's relation, which ends the plan: Third Film; so does
// "What did Ann Lee star in?", whose subject is its anchor: her film,
// not its director as the trained plans have it. A question
// whose subject is the anchor alone ("What did Paul Smith direct?")
// keeps the trained plan, and one whose auxiliary has no subject after
// it ("Who has been cast in First Film?") reads no object.
func TestObjectVerbs(t *testing.T) {
	lex, err := lexicon.WordNet()
	if err != nil {
		t.Fatal(err)
	}
	planner := func(on bool) *LinkingPlanner {
		p := filmPlannerSteps(t, []string{"directed_by", "starred_actors"}, []string{"Paul Smith", "First Film", "Second Film", "Ann Lee", "Third Film"},
			[][3]int{{1, 0, 0}, {2, 0, 0}, {1, 1, 3}, {4, 1, 0}},
			[][][]string{{{"*", "->directed_by", "person"}}, {{"*", "<-starred_actors", "movie"}}, {{"*", "<-directed_by", "movie"}}, {{"*", "<-starred_actors", "movie", "->directed_by", "person"}}},
			[][]string{{"*", "->directed_by", "*", "<-directed_by", "*"}, {"*", "->directed_by", "*", "<-starred_actors", "*"}},
			AnchorConfig{TopTemplates: 2, NamedRelations: true, KinRelations: true, DeeperSearch: true, DeeperAsked: true, ObjectVerbs: on,
				AnswerWords: map[string]string{"director": "->directed_by"}})
		trainedLike(p, lex, []float32{2, 0, 0, 1}, [][2]string{{"the director of", "directed_by"}, {"star in", "starred_actors"}})
		return p
	}
	for _, c := range []struct {
		q    string
		on   bool
		want []uint32 // the reach, the first answer first
	}{
		{"What else did the director of First Film direct?", true, []uint32{2, 1}},
		{"What else did the director of First Film direct?", false, []uint32{0}},
		{"What else did the director of First Film star in?", true, []uint32{4}},
		{"Who has been cast in First Film?", true, []uint32{0}},
		{"What did Ann Lee star in?", true, []uint32{1}},
		{"What did Ann Lee star in?", false, []uint32{0}},
	} {
		p := planner(c.on)
		pred, got, err := answered(p, c.q)
		if !slices.Equal(got, c.want) {
			t.Errorf("ObjectVerbs %v: %q planned %v reaching %v (%v), want %v", c.on, c.q, pred.Plan.MetapathTokens(), got, err, c.want)
		}
	}
	p := planner(true)
	for q, want := range map[string]bool{
		"What else did the director of First Film direct?": true,
		"What did Paul Smith direct?":                      false,
		"Who has been cast in First Film?":                 false,
		"Which films had Paul Smith as the director?":      false,
		// A noun right before the anchor says what it is.
		"What else did the director Paul Smith direct?": false,
	} {
		ments := p.findMentions(q)
		o := p.objectVerbRule(q, nil)
		got := false
		for i := range ments {
			got = got || o.misses(ments, &PlanCandidate{Mentions: []int{i}, Plan: data.Plan{Paths: data.MustPaths([]string{"*", "->directed_by", "person"})}})
		}
		if got != want {
			t.Errorf("%q: the director's plan ruled out %v, want %v", q, got, want)
		}
	}
}

// TestVerbFirst: where the subject is the anchor alone, with VerbFirst
// the verb's relation is walked from it (a path's first step) when the
// question names its object with a noun: "Which stars has Paul Smith
// directed?" asks for the cast of his films, not for the directors of the
// films he starred in, which the verb, walked last, had asked for. With
// "with" after the verb ("Who has Paul Smith starred with?") it is walked
// first and last: his co-stars, not the cast of the films he directed. A
// bare "What" ("What has Paul Smith directed?") asks for what the verb
// reaches, walked last either way.
func TestVerbFirst(t *testing.T) {
	lex, err := lexicon.WordNet()
	if err != nil {
		t.Fatal(err)
	}
	checkSmithMisses(t, "VerbFirst", func(on bool) *LinkingPlanner {
		return smithPlanner(t, lex, AnchorConfig{NamedRelations: true, ObjectVerbs: true, VerbFirst: on})
	}, []missCase{
		{"Which stars has Paul Smith directed?", smithCastOf, true, false},
		{"Which stars has Paul Smith directed?", smithDirectorsOf, false, true},
		{"Who has Paul Smith starred with?", smithCoStars, false, false},
		{"Who has Paul Smith starred with?", smithCastOf, false, true},
		{"Who has Paul Smith starred with?", smithDirectorsOf, true, true},
		{"What has Paul Smith directed?", smithCastOf, true, true},
		{"What has Paul Smith directed?", smithDirectorsOf, false, false},
	})
}

// smithPlanner is a planner of Paul Smith, who directed First Film, with
// one template (a person's films as director) and a, trained as if
// "directed" named directed_by and "starred with" starred_actors.
func smithPlanner(t *testing.T, lex *lexicon.Lexicon, a AnchorConfig) *LinkingPlanner {
	t.Helper()
	p := filmPlannerSteps(t, []string{"directed_by", "starred_actors"}, []string{"Paul Smith", "First Film"},
		[][3]int{{1, 0, 0}}, [][][]string{{{"*", "<-directed_by", "movie"}}}, nil, a)
	trainedLike(p, lex, []float32{0}, [][2]string{{"directed", "directed_by"}, {"starred with", "starred_actors"}})
	return p
}

// smithMisses reports whether p's objectRule for q rules out plan, the
// steps of a path from the mention of Paul Smith.
func smithMisses(t *testing.T, p *LinkingPlanner, q, plan string) bool {
	t.Helper()
	ments, c := smithCandidate(t, p, q, plan)
	return p.objectVerbRule(q, nil).misses(ments, &c)
}

// smithCandidate is q's mentions and the candidate anchored on the
// mention of Paul Smith (with a possessive, if any) whose one path walks
// plan's steps from him.
func smithCandidate(t *testing.T, p *LinkingPlanner, q, plan string) ([]linking.LinkedMention, PlanCandidate) {
	t.Helper()
	ments := p.findMentions(q)
	at := slices.IndexFunc(ments, func(m linking.LinkedMention) bool { return strings.HasPrefix(m.Text, "Paul Smith") })
	if at < 0 {
		t.Fatalf("%q: no mention of Paul Smith in %v", q, ments)
	}
	path := data.Plan{Paths: data.MustPaths(append([]string{"person"}, strings.Fields(plan)...))}
	return ments, PlanCandidate{Mentions: []int{at}, Plan: path}
}

// TestBareObject: with BareObject a bare question word ("What has Paul
// Smith directed?") asks for what the verb reaches from the subject, so
// the verb's relation is walked first and last: the directors of the
// films Paul Smith starred in, whose last step walks directed_by too, are
// ruled out, his own films are not; a question word with a noun ("Which
// stars has Paul Smith directed?") keeps VerbFirst's reading.
func TestBareObject(t *testing.T) {
	lex, err := lexicon.WordNet()
	if err != nil {
		t.Fatal(err)
	}
	checkSmithMisses(t, "BareObject", func(on bool) *LinkingPlanner {
		return smithPlanner(t, lex, AnchorConfig{NamedRelations: true, ObjectVerbs: true, VerbFirst: true, BareObject: on})
	}, []missCase{
		{"What has Paul Smith directed?", smithDirectorsOf, false, true},
		{"What has Paul Smith directed?", smithFilms, false, false},
		{"What has Paul Smith directed?", smithCastOf, true, true},
		{"Which stars has Paul Smith directed?", smithCastOf, false, false},
	})
}

// The plans from Paul Smith the object-rule tests check (smithMisses).
const (
	smithFilms       = "<-directed_by movie"
	smithCastOf      = "<-directed_by movie ->starred_actors person"
	smithDirectorsOf = "<-starred_actors movie ->directed_by person"
	smithCoStars     = "<-starred_actors movie ->starred_actors person"
	smithCoDirectors = "<-directed_by movie ->directed_by person"
)

// missCase is a question, a plan from Paul Smith, and whether the
// object rule rules the plan out with a rule off and on.
type missCase struct {
	q, plan     string
	off, missed bool
}

// checkSmithMisses checks smithMisses for each case on the planner
// planner builds with rule off and on.
func checkSmithMisses(t *testing.T, rule string, planner func(on bool) *LinkingPlanner, cases []missCase) {
	t.Helper()
	for _, c := range cases {
		for _, on := range []bool{false, true} {
			want := c.off
			if on {
				want = c.missed
			}
			if got := smithMisses(t, planner(on), c.q, c.plan); got != want {
				t.Errorf("%s %v: %q against %s: missed %v, want %v", rule, on, c.q, c.plan, got, want)
			}
		}
	}
}

// TestSchemaPathsPastFormAnchors: a person is named What, and starred in
// Second Film. The two templates the classifier ranks first start at a
// person (the directors of their films, their films), so the first
// candidates for "What else did the director of First Film direct?" are
// anchored on "What", which no training question anchored (NonAnchors).
// The deeper search finds First Film's director (a trained template
// ranked third) and the schema paths through him. A schema path is
// anchored where the ranker's choice among the ruled-out candidates that
// no such mention anchors is, anywhere when there is none: here on First
// Film, and his films answer. Had the choice been read among the
// candidates anchored on "What", no schema path would be left, and the
// director would stand.
func TestSchemaPathsPastFormAnchors(t *testing.T) {
	lex, err := lexicon.WordNet()
	if err != nil {
		t.Fatal(err)
	}
	p := filmPlannerSteps(t, []string{"directed_by", "starred_actors"}, []string{"Paul Smith", "First Film", "Second Film", "What"},
		[][3]int{{1, 0, 0}, {2, 0, 0}, {2, 1, 3}},
		[][][]string{{{"*", "<-starred_actors", "movie", "->directed_by", "person"}}, {{"*", "<-starred_actors", "movie"}}, {{"*", "->directed_by", "person"}}},
		[][]string{{"*", "->directed_by", "*", "<-directed_by", "*"}},
		AnchorConfig{TopTemplates: 2, NamedRelations: true, KinRelations: true, DeeperSearch: true, DeeperAsked: true, ObjectVerbs: true, NonAnchors: []string{"what"}})
	trainedLike(p, lex, []float32{2, 1, 0}, [][2]string{{"the director of", "directed_by"}})
	q := "What else did the director of First Film direct?"
	pred, got, err := answered(p, q)
	if want := []uint32{2, 1}; !slices.Equal(got, want) {
		t.Errorf("%q planned %v reaching %v (%v), want %v", q, pred.Plan.MetapathTokens(), got, err, want)
	}
}

// TestObjectVerbsWriters: Paul Smith wrote First Film and Second Film;
// Kim Ray directed First Film and wrote Third Film; Ann Lee starred in
// First Film and wrote Fourth Film. The trained template that starts at
// a film walks to its writer, and the schema's two steps through its
// director, its cast or its writer back along written_by come in that
// order. "What else did the writer of First Film write?": the deeper
// search tries two templates beyond the first ones, and with
// ObjectVerbs spends none on a path the subject rules out (through the
// director or the cast, whose last step alone walks written_by): Paul
// Smith's films answer, Second Film first. "Whose scripts has Kim Ray
// directed?" asks for the writers of the films Kim Ray directed: the
// verb's relation comes before the last step, and the answer word
// "scripts" (<-written_by, to a writer's films) is walked the other way,
// to the films' writers: Paul Smith, not the other films of those
// writers, which a trained template reaches.
func TestObjectVerbsWriters(t *testing.T) {
	lex, err := lexicon.WordNet()
	if err != nil {
		t.Fatal(err)
	}
	p := filmPlannerSteps(t, []string{"written_by", "directed_by", "starred_actors"},
		[]string{"Paul Smith", "First Film", "Second Film", "Kim Ray", "Third Film", "Ann Lee", "Fourth Film"},
		[][3]int{{1, 0, 0}, {2, 0, 0}, {1, 1, 3}, {4, 0, 3}, {1, 2, 5}, {6, 0, 5}},
		[][][]string{{{"*", "->written_by", "person"}}, {{"*", "<-directed_by", "movie", "->written_by", "person", "<-written_by", "movie"}}},
		[][]string{{"*", "->directed_by", "*", "<-written_by", "*"}, {"*", "->starred_actors", "*", "<-written_by", "*"},
			{"*", "->written_by", "*", "<-written_by", "*"}, {"*", "<-directed_by", "*", "->written_by", "*"}},
		AnchorConfig{TopTemplates: 2, NamedRelations: true, KinRelations: true, DeeperSearch: true, DeeperAsked: true, ObjectVerbs: true,
			AnswerWords: map[string]string{"scripts": "<-written_by"}})
	trainedLike(p, lex, []float32{2, 1}, [][2]string{{"the writer of", "written_by"}, {"written by", "written_by"}, {"directed", "directed_by"}})
	for _, c := range []struct {
		q    string
		want []uint32
	}{
		{"What else did the writer of First Film write?", []uint32{2, 1}},
		// As read off "writer": a word after a determiner is a noun.
		{"What else did the written of First Film write?", []uint32{2, 1}},
		{"Whose scripts has Kim Ray directed?", []uint32{0}},
	} {
		pred, got, err := answered(p, c.q)
		if !slices.Equal(got, c.want) {
			t.Errorf("%q planned %v reaching %v (%v), want %v", c.q, pred.Plan.MetapathTokens(), got, err, c.want)
		}
	}
}

// trainedLike readies test planner p as a trained one would be: the
// lexicon lex, the classifier's template biases ranks (rankTemplates), a
// plan ranker whose weights are all 0, and relation words borne out by 10
// training questions of each phrase, walking its relation.
func trainedLike(p *LinkingPlanner, lex *lexicon.Lexicon, ranks []float32, phrases [][2]string) {
	rankTemplates(p, ranks)
	clear(p.Ranker.W.Data())
	p.names.setLexicon(lex)
	rw := NewRelWords()
	for range 10 {
		for _, ph := range phrases {
			rw.Add(ph[0], []string{ph[1]})
		}
	}
	p.Cfg.Anchors.RelWords = rw
}

// TestBeObject: with BeObject a form of "be" right after a bare question
// word is the object rule's auxiliary for the bare reading, as "has" is
// in TestBareObject. The questions are written as the planner reads
// "What was Paul Smith directing?" where the training never said
// "directing" ("directed"): the directors of the films Paul Smith starred
// in are ruled out, his own films are not. Without it, where a noun
// follows the question word ("Which film was ..."), where no verb
// follows the subject and where a preposition after "be" makes it a
// copula ("Who was in the films ..."), nothing is ruled out.
func TestBeObject(t *testing.T) {
	lex, err := lexicon.WordNet()
	if err != nil {
		t.Fatal(err)
	}
	checkSmithMisses(t, "BeObject", func(on bool) *LinkingPlanner {
		return smithPlanner(t, lex, AnchorConfig{NamedRelations: true, ObjectVerbs: true, VerbFirst: true, BareObject: true, BeObject: on})
	}, []missCase{
		{"What was Paul Smith directed in?", smithDirectorsOf, false, true},
		{"What was Paul Smith directed in?", smithFilms, false, false},
		{"What is Paul Smith directed in 2001?", smithDirectorsOf, false, true},
		{"Which film was Paul Smith directed in?", smithDirectorsOf, false, false},
		{"What is Paul Smith famous for?", smithDirectorsOf, false, false},
		{"Who was in the films Paul Smith directed?", smithDirectorsOf, false, false},
		{"What was the film Paul Smith directed?", smithDirectorsOf, false, true},
	})
}

// TestObjectBeyond: the training's questions opened by "who" all asked
// for a person, and directed_by walked back from Paul Smith reaches
// films, so "Who did Paul Smith direct in 2001?" asks for what his films
// lead to: with ObjectBeyond the cast of his films stands and his
// co-directors (directed_by walked back again, the verb's subjects) are
// ruled out; without it, the bare reading rules out the cast and keeps
// the co-directors. "What", which opened no training question, and a
// question word with a noun ("Which stars ...") read as before.
func TestObjectBeyond(t *testing.T) {
	lex, err := lexicon.WordNet()
	if err != nil {
		t.Fatal(err)
	}
	checkSmithMisses(t, "ObjectBeyond", func(on bool) *LinkingPlanner {
		p := smithPlanner(t, lex, AnchorConfig{NamedRelations: true, ObjectVerbs: true, VerbFirst: true, BareObject: true, WhAsks: true, ObjectBeyond: on})
		p.Cfg.Anchors.Lead = NewLeadTypes()
		p.Cfg.Anchors.Lead.Firsts["who"] = map[string]int{"person": 10}
		for range 10 {
			p.Cfg.Anchors.RelWords.Add("direct", []string{"directed_by"})
		}
		return p
	}, []missCase{
		{"Who did Paul Smith direct in 2001?", smithCastOf, true, false},
		{"Who did Paul Smith direct in 2001?", smithCoDirectors, false, true},
		{"Who did Paul Smith direct in 2001?", smithFilms, false, true},
		{"Who has Paul Smith directed with?", smithCoDirectors, false, false},
		{"What did Paul Smith direct?", smithFilms, false, false},
		{"What did Paul Smith direct?", smithCastOf, true, true},
		{"Which stars did Paul Smith direct?", smithCastOf, false, false},
	})
}
