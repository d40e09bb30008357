package planner

import "testing"

// titlePlanner is kindWriterPlanner's graph (Ann Lee starred in First
// Film, which Kim Ray wrote, and wrote Second Film) with three
// templates, the classifier ranking an anchor's films as an actor first,
// the films the anchor wrote second and the writers of the anchor's films
// third, and trying two. "writers" is an answer word (->written_by) and,
// explained away, names written_by; the lexicon reads "writer" as it.
// roles sets Roles (with titles).
func titlePlanner(t *testing.T, titles, roles bool) *LinkingPlanner {
	t.Helper()
	a := AnchorConfig{TopTemplates: 2, DeeperSearch: true, Titles: titles, Roles: roles}
	a.Lexicon, a.NamedType, a.NamedRelations = true, true, true
	a.AnswerWords = map[string]string{"writers": "->written_by"}
	a.RelWords = &RelWords{N: 10, Rels: map[string]int{"written_by": 10}, Words: map[string]int{"writers": 10, "written": 10},
		Pairs: map[string]map[string]int{"writers": {"written_by": 10}, "written": {"written_by": 10}}, Explained: map[string]map[string]int{"writers": {"written_by": 10}}}
	return writerGraphPlanner(t, a,
		[][]string{{"*", "<-starred_actors", "movie"}},
		[][]string{{"*", "<-written_by", "movie"}},
		[][]string{{"*", "<-starred_actors", "movie", "->written_by", "person"}})
}

// TestTitles: read as the training's "writers", an answer word, "writer"
// asks for writers, and the deeper search answers with the writer of Ann
// Lee's film (Kim Ray, node 4). With Titles, a noun in the singular with
// no determiner between a preposition or an auxiliary verb and a name is
// the name's title: read as a verb of the relation it names ("Anything
// with written Ann Lee?"), it asks for nothing and rules out her films as
// an actor, and the films she wrote answer (Second Film, node 2); where
// another word names another relation ("star"), the title is left unread
// and her film answers (First Film, node 1). After a determiner, or in the
// plural, the word is read as before.
func TestTitles(t *testing.T) {
	wantReachCases(t, "Titles", func(on bool) *LinkingPlanner { return titlePlanner(t, on, false) }, []reachCase{
		{"Anything with writer Ann Lee?", false, 4},
		{"Anything with writer Ann Lee?", true, 2},
		{"What did writer Ann Lee star in?", false, 4},
		{"What did writer Ann Lee star in?", true, 1},
		{"Anything with the writer Ann Lee?", true, 4},
		{"Anything with writers Ann Lee?", true, 4},
	})
}

// TestRoles: read as the training's "writers", an answer word before the
// anchor, "writer" after "as" asks for writers, and the deeper search answers with the
// writer of Ann Lee's film (Kim Ray, node 4). With Roles a noun in the
// singular with no determiner right after "as" is the role the name
// played, read as a verb of the relation it names ("As written, what has
// Ann Lee done?"): it asks for nothing and rules out her films as an
// actor, and the film she wrote answers (Second Film, node 2). After a
// determiner, or after "such as", it is read as before.
func TestRoles(t *testing.T) {
	wantReachCases(t, "Roles", func(on bool) *LinkingPlanner { return titlePlanner(t, true, on) }, []reachCase{
		{"As writer, what has Ann Lee done?", false, 4},
		{"As writer, what has Ann Lee done?", true, 2},
		{"As a writer, what has Ann Lee done?", true, 4},
		{"Such as writer, what has Ann Lee done?", true, 4},
	})
}

// TestOpeningTitles: with Titles alone, "writer" opening the text before
// Ann Lee is read as the training's "writers", an answer word, and the
// deeper search answers with the writer of her film (Kim Ray, node 4);
// with OpeningTitles it is her title ("Written Ann Lee: anything?"), and
// the film she wrote answers (Second Film, node 2). After a determiner
// opening the text, or in the plural, it is read as before.
func TestOpeningTitles(t *testing.T) {
	wantReachCases(t, "OpeningTitles", func(on bool) *LinkingPlanner { return openingPlanner(t, on, false, false) }, []reachCase{
		{"Writer Ann Lee: anything?", false, 4},
		{"Writer Ann Lee: anything?", true, 2},
		{"The writer Ann Lee: anything?", true, 4},
		{"Writers Ann Lee: anything?", true, 4},
	})
}

// TestRequestTitles: with Titles and OpeningTitles, "writer" right after
// a request's verb opening the text ("List writer Ann Lee's credits.") is
// read as the training's "writers", an answer word, and the deeper search
// answers with the writer of her film (Kim Ray, node 4); with
// RequestTitles it is her title ("List written Ann Lee's credits."), and the
// film she wrote answers (Second Film, node 2). After a determiner, in the
// plural, or after a first word that is no verb ("Lately writer Ann Lee
// ..."), it is read as before.
func TestRequestTitles(t *testing.T) {
	wantReachCases(t, "RequestTitles", func(on bool) *LinkingPlanner { return openingPlanner(t, true, on, false) }, []reachCase{
		{"List writer Ann Lee's credits.", false, 4},
		{"List writer Ann Lee's credits.", true, 2},
		{"List the writer Ann Lee's credits.", true, 4},
		{"List writers Ann Lee's credits.", true, 4},
		{"Lately writer Ann Lee: anything?", true, 4},
	})
}

// TestMarkTitles: with Titles, OpeningTitles and RequestTitles, "writer"
// opening a phrase after a comma ("Anything at all, writer Ann Lee?") is
// read as the training's "writers", an answer word, and the deeper search
// answers with the writer of her film (Kim Ray, node 4); with MarkTitles
// it is her title, and the film she wrote answers (Second Film, node 2),
// after a colon, a semicolon or a spaced dash too. After a determiner, in
// the plural, or joined by a hyphen alone ("all-writer"), it is read as
// before.
func TestMarkTitles(t *testing.T) {
	wantReachCases(t, "MarkTitles", func(on bool) *LinkingPlanner { return openingPlanner(t, true, true, on) }, []reachCase{
		{"Anything at all, writer Ann Lee?", false, 4},
		{"Anything at all, writer Ann Lee?", true, 2},
		{"Anything at all: writer Ann Lee?", true, 2},
		{"Anything at all; writer Ann Lee?", true, 2},
		{"Anything at all - writer Ann Lee?", true, 2},
		{"Anything at all, the writer Ann Lee?", true, 4},
		{"Anything at all, writers Ann Lee?", true, 4},
		{"Anything at all-writer Ann Lee?", true, 4},
	})
}

// TestTitlePrepositions: with Titles alone, "writer" after "between"
// before Ann Lee is read as the training's "writers", an answer word, and
// the deeper search answers with the writer of her film (Kim Ray, node
// 4); with TitlePrepositions "between", "among" and "under" are
// prepositions a title may follow as "with" is ("Anything between written
// Ann Lee and Kim Ray?"), and the film she wrote answers (Second Film,
// node 2). After a determiner, or in the plural, it is read as before.
func TestTitlePrepositions(t *testing.T) {
	wantReachCases(t, "TitlePrepositions", func(on bool) *LinkingPlanner {
		p := titlePlanner(t, true, false)
		p.Cfg.Anchors.TitlePrepositions = on
		return withResolver(t, p)
	}, []reachCase{
		{"Anything between writer Ann Lee and others?", false, 4},
		{"Anything between writer Ann Lee and others?", true, 2},
		{"Anything among writer Ann Lee and others?", true, 2},
		{"Anything under writer Ann Lee?", true, 2},
		{"Anything between the writer Ann Lee and others?", true, 4},
		{"Anything between writers Ann Lee and others?", true, 4},
	})
}

// openingPlanner is titlePlanner with Titles, OpeningTitles,
// RequestTitles and MarkTitles set as told, its word resolver built for
// them.
func openingPlanner(t *testing.T, opening, request, mark bool) *LinkingPlanner {
	t.Helper()
	p := titlePlanner(t, true, false)
	p.Cfg.Anchors.OpeningTitles = opening
	p.Cfg.Anchors.RequestTitles = request
	p.Cfg.Anchors.MarkTitles = mark
	return withResolver(t, p)
}

// withResolver rebuilds test planner p's word resolver for the config it
// has now (the resolver reads its switches once, when built) and returns p.
func withResolver(t *testing.T, p *LinkingPlanner) *LinkingPlanner {
	t.Helper()
	var err error
	if p.words, err = p.newWordResolver(); err != nil {
		t.Fatal(err)
	}
	return p
}

// reachCase is a question asked with a rule on or off, and the node that
// must answer it first.
type reachCase struct {
	q    string
	on   bool
	want uint32
}

// wantReachCases asks each case of the planner build makes with the rule
// on or off, and wants its node first (wantReach).
func wantReachCases(t *testing.T, rule string, build func(on bool) *LinkingPlanner, cases []reachCase) {
	t.Helper()
	for _, c := range cases {
		wantReach(t, build(c.on), c.q, c.want, rule, c.on)
	}
}
