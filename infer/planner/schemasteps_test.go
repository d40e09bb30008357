package planner

import (
	"context"
	"hash/fnv"
	"slices"
	"strings"
	"testing"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/data/lexicon"
)

// TestSchemaSteps: the training asked only for a person's films (the
// films X starred in, the films X directed), so "Who directed First
// Film?" has no trained template that reaches anything from the film:
// without the schema's steps the planner has no plan; with the step
// along directed_by from a film (Config.SchemaSteps, scored by no
// classifier: probability 0 after the two it scores) it answers with
// First Film's director, Paul Smith, and a question a trained template
// answers keeps that template.
func TestSchemaSteps(t *testing.T) {
	build := func(steps [][]string) *LinkingPlanner {
		return filmPlannerSteps(t, []string{"directed_by", "starred_actors"}, []string{"Paul Smith", "First Film", "Second Film", "Ann Lee"},
			[][3]int{{1, 0, 0}, {2, 0, 0}, {1, 1, 3}},
			[][][]string{{{"*", "<-starred_actors", "movie"}}, {{"*", "<-directed_by", "movie"}}}, steps, AnchorConfig{})
	}
	predict := func(p *LinkingPlanner, text string) planned {
		t.Helper()
		pred, err := p.Predict(context.Background(), data.Query{Text: text, ID: -1})
		if err != nil {
			t.Fatal(err)
		}
		var path string
		if tk := pred.Plan.MetapathTokens(); len(tk) == 1 {
			path = strings.Join(tk[0], " ")
		}
		var reached []uint32
		if pred.Reach != nil {
			reached = pred.Reach.Nodes
		}
		return planned{path: path, template: pred.Template, reached: reached}
	}
	const q = "Who directed First Film?"
	if got := predict(build(nil), q); got.template >= 0 && len(got.reached) > 0 {
		t.Errorf("without the schema's steps: %+v, want no plan that reaches a node", got)
	}
	with := build([][]string{{"*", "->directed_by", "*"}})
	if with.Cfg.Classified() != 2 || with.Cfg.Gate.Out != 2 {
		t.Fatalf("classified %d, gate outputs %d, want 2", with.Cfg.Classified(), with.Cfg.Gate.Out)
	}
	if got := predict(with, q); got.template != 2 || got.path != "movie ->directed_by *" || len(got.reached) != 1 || got.reached[0] != 0 {
		t.Errorf("with the step along directed_by: %+v, want template 2 from First Film reaching Paul Smith (node 0)", got)
	}
	if got := predict(with, "Which films did Paul Smith direct?"); got.template != 1 || len(got.reached) != 2 {
		t.Errorf("a trained shape: %+v, want template 1 reaching Paul Smith's two films", got)
	}
	// A configuration whose schema steps do not leave the classifier's
	// outputs (a damaged checkpoint) is refused, not indexed past.
	for _, n := range []int{-1, 2, 4} {
		bad := with.Cfg
		bad.SchemaSteps = n
		if _, err := NewLinkingPlanner(with.ws, nil, bad, with.Gate, with.Anchor, with.Ranker); err == nil || !strings.Contains(err.Error(), "schema steps, but the classifier scores 2") {
			t.Errorf("schema steps %d: %v", n, err)
		}
	}
}

type planned struct {
	path     string
	template int
	reached  []uint32
}

// TestSchemaPaths: from a film no trained template (a person's films)
// reaches anything. With the schema's two steps ->directed_by
// <-directed_by alone, "Which films share a director with First Film?"
// is answered with Paul Smith's films; with the one step ->directed_by as
// well, the one step is chosen, though the ranker prefers two hops (its
// one-hop feature weighs -5 here): a two-step template of the schema,
// which no ranker saw in training, is chosen only where no other
// candidate is left (schemaPath).
func TestSchemaPaths(t *testing.T) {
	build := func(steps [][]string) *LinkingPlanner {
		p := filmPlannerSteps(t, []string{"directed_by", "starred_actors"}, []string{"Paul Smith", "First Film", "Second Film", "Ann Lee"},
			[][3]int{{1, 0, 0}, {2, 0, 0}, {1, 1, 3}},
			[][][]string{{{"*", "<-starred_actors", "movie"}}, {{"*", "<-directed_by", "movie"}}}, steps, AnchorConfig{})
		h := fnv.New32a()
		h.Write([]byte("hops1"))
		h.Write([]byte{0})
		p.Ranker.W.Data()[h.Sum32()%uint32(p.Ranker.Dim)] = -5
		return p
	}
	predict := func(p *LinkingPlanner) (int, []uint32) {
		t.Helper()
		pred, err := p.Predict(context.Background(), data.Query{Text: "Which films share a director with First Film?", ID: -1})
		if err != nil {
			t.Fatal(err)
		}
		var reached []uint32
		if pred.Reach != nil {
			reached = pred.Reach.Nodes
		}
		return pred.Template, reached
	}
	two := build([][]string{{"*", "->directed_by", "*", "<-directed_by", "*"}})
	if !two.schemaPath(2) || two.schemaPath(1) {
		t.Fatalf("schemaPath: template 2 %v, template 1 %v; want true, false", two.schemaPath(2), two.schemaPath(1))
	}
	if ti, reached := predict(two); ti != 2 || !slices.Equal(reached, []uint32{1, 2}) {
		t.Errorf("two steps alone: template %d reaching %v, want template 2 reaching Paul Smith's films [1 2]", ti, reached)
	}
	both := build([][]string{{"*", "->directed_by", "*"}, {"*", "->directed_by", "*", "<-directed_by", "*"}})
	if ti, reached := predict(both); ti != 2 || !slices.Equal(reached, []uint32{0}) {
		t.Errorf("one step and two: template %d reaching %v, want the one step (template 2) reaching Paul Smith [0]", ti, reached)
	}
}

// TestSchemaPathsNamed: from a film no trained template reaches
// anything, and two schema paths do: the films First Film's director
// starred in (Third Film) and the films he directed. No ranker saw either
// in training (its weights are all 0 here, and the first candidate would
// stand); "Which films were directed by the director of First Film?"
// names directed_by and nothing names starred_actors, so the path that
// walks no unnamed relation is chosen (unnamedWalks): Paul Smith's films,
// Second Film above First Film, which the path returns to.
func TestSchemaPathsNamed(t *testing.T) {
	p := filmPlannerSteps(t, []string{"directed_by", "starred_actors"}, []string{"Paul Smith", "First Film", "Second Film", "Ann Lee", "Third Film"},
		[][3]int{{1, 0, 0}, {2, 0, 0}, {1, 1, 3}, {4, 1, 0}},
		[][][]string{{{"*", "<-starred_actors", "movie"}}, {{"*", "<-directed_by", "movie"}}},
		[][]string{{"*", "->directed_by", "*", "<-starred_actors", "*"}, {"*", "->directed_by", "*", "<-directed_by", "*"}},
		AnchorConfig{NamedRelations: true})
	clear(p.Ranker.W.Data())
	rw := NewRelWords()
	for range 10 {
		rw.Add("directed by", []string{"directed_by"})
	}
	p.Cfg.Anchors.RelWords = rw
	q := "Which films were directed by the director of First Film?"
	pred, err := p.Predict(context.Background(), data.Query{Text: q, ID: -1})
	if err != nil || pred.Template != 3 || pred.Reach == nil || !slices.Equal(pred.Reach.Nodes, []uint32{1, 2}) {
		t.Fatalf("%q: template %d reaching %v (%v), want template 3 reaching Paul Smith's films [1 2]", q, pred.Template, pred.Reach, err)
	}
	if s := pred.Reach.Scores; !(s[1] > s[0]) {
		t.Errorf("scores %v: want Second Film above First Film", s)
	}
}

// TestNamedFirst: from First Film, the one template the search tries
// first (TopTemplates 1) reaches its actor, but "Which films share a
// writer with First Film?" names has_writer (10 training questions with
// "writer" walk it), which the template does not walk, so the search
// goes deeper among the schema's paths that walk it. A deeper search
// tries two templates beyond the top ones (maxDeeper); the schema lists
// the path to the films of First Film's writer (Kim Ray's: First Film,
// Third Film) third, after two that also walk a director and reach
// nothing from First Film. With
// NamedFirst, the path that walks no relation the question leaves
// unnamed comes first and answers; without it, the planner stays with
// the ruled-out actor (Ann Lee).
func TestNamedFirst(t *testing.T) {
	lex, err := lexicon.WordNet()
	if err != nil {
		t.Fatal(err)
	}
	build := func(on bool) *LinkingPlanner {
		p := filmPlannerSteps(t, []string{"directed_by", "starred_actors", "has_writer"}, []string{"Paul Smith", "First Film", "Second Film", "Ann Lee", "Kim Ray", "Third Film"},
			[][3]int{{1, 0, 0}, {2, 0, 0}, {1, 1, 3}, {1, 2, 4}, {5, 2, 4}},
			[][][]string{{{"*", "->starred_actors", "person"}}},
			[][]string{
				{"*", "->directed_by", "*", "<-has_writer", "*"},
				{"*", "->has_writer", "*", "<-directed_by", "*"},
				{"*", "->has_writer", "*", "<-has_writer", "*"},
			},
			AnchorConfig{NamedRelations: true, DeeperSearch: true, NamedFirst: on, TopTemplates: 1})
		trainedLike(p, lex, []float32{0}, [][2]string{{"the writer", "has_writer"}})
		return p
	}
	const q = "Which films share a writer with First Film?"
	for _, c := range []struct {
		on       bool
		template int
		reached  []uint32
	}{
		{true, 3, []uint32{1, 5}},
		{false, 0, []uint32{3}},
	} {
		pred, err := build(c.on).Predict(context.Background(), data.Query{Text: q, ID: -1})
		var reached []uint32
		if pred.Reach != nil {
			reached = slices.Sorted(slices.Values(pred.Reach.Nodes))
		}
		if err != nil || pred.Template != c.template || !slices.Equal(reached, c.reached) {
			t.Errorf("NamedFirst %v: template %d reaching %v (%v), want template %d reaching %v", c.on, pred.Template, reached, err, c.template, c.reached)
		}
	}
}

// TestNamedFirstLonger: "Which movies share an actor with Last Second
// Film?" The one template the search tries first (TopTemplates 1), a
// film's director, anchors the film Second Film inside the longer name
// (Last Second Film has no director), and walks no starred_actors, which
// "actor" names: the search goes deeper on the longer mention, where the
// schema's one step along starred_actors answers with people ("movies"
// asks for movies). With NamedFirst that search tries the schema's paths
// too, and the films that share an actor with Last Second Film (itself
// and Other Film) answer; without it the planner stays with a person.
func TestNamedFirstLonger(t *testing.T) {
	lex, err := lexicon.WordNet()
	if err != nil {
		t.Fatal(err)
	}
	for _, on := range []bool{true, false} {
		p := filmPlannerSteps(t, []string{"directed_by", "starred_actors"}, []string{"Paul Smith", "Second Film", "Last Second Film", "Ann Lee", "Other Film"},
			[][3]int{{1, 0, 0}, {2, 1, 3}, {4, 1, 3}},
			[][][]string{{{"*", "->directed_by", "person"}}},
			[][]string{{"*", "->starred_actors", "*"}, {"*", "->starred_actors", "*", "<-starred_actors", "*"}},
			AnchorConfig{NamedType: true, NamedRelations: true, DeeperSearch: true, LongerAnchors: true, NamedFirst: on, TopTemplates: 1})
		trainedLike(p, lex, []float32{0}, [][2]string{{"an actor", "starred_actors"}})
		const q = "Which movies share an actor with Last Second Film?"
		pred, err := p.Predict(context.Background(), data.Query{Text: q, ID: -1})
		var reached []uint32
		if pred.Reach != nil {
			reached = slices.Sorted(slices.Values(pred.Reach.Nodes))
		}
		films := err == nil && pred.Template == 2 && slices.Equal(reached, []uint32{2, 4})
		if films != on {
			t.Errorf("NamedFirst %v: template %d reaching %v (%v); want the schema path (template 2) reaching [2 4] only with NamedFirst", on, pred.Template, reached, err)
		}
	}
}
