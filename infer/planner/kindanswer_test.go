package planner

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/data/lexicon"
	"github.com/strata-retrieval/strata/graphops/linking"
)

// kindWriterPlanner is a linking planner over a graph where Ann Lee
// starred in First Film, which Paul Smith directed and Kim Ray wrote, and
// wrote Second Film, in which Jo Dunn starred. Its classifier ranks an
// anchor's films first, the cast of the films the anchor wrote second
// and the writers of the anchor's films third, and tries two; "written"
// is a word of 10 training questions that all walked written_by, so the
// lexicon reads "writers" as it (a writer writes), a kind of person.
// The plan ranker has no weights: the first candidate no rule rules out
// answers.
func kindWriterPlanner(t *testing.T, a AnchorConfig) *LinkingPlanner {
	t.Helper()
	a.TopTemplates, a.DeeperSearch = 2, true
	a.Lexicon, a.KindTypes, a.NamedType, a.LeadVerbAsks, a.NamedRelations = true, true, true, true, true
	a.AnswerWords = map[string]string{"directors": "->directed_by"}
	a.RelWords = &RelWords{N: 10, Rels: map[string]int{"written_by": 10}, Words: map[string]int{"written": 10}, Pairs: map[string]map[string]int{"written": {"written_by": 10}}}
	return writerGraphPlanner(t, a,
		[][]string{{"*", "<-starred_actors", "movie"}},
		[][]string{{"*", "<-written_by", "movie", "->starred_actors", "person"}},
		[][]string{{"*", "<-starred_actors", "movie", "->written_by", "person"}})
}

// writerGraphPlanner is a linking planner with config a over a graph where
// Ann Lee (node 3) starred in First Film (1), which Paul Smith (0)
// directed and Kim Ray (4) wrote, and wrote Second Film (2), in which Jo
// Dunn (5) starred; its classifier ranks the templates in the order
// given.
func writerGraphPlanner(t *testing.T, a AnchorConfig, tmpl ...[][]string) *LinkingPlanner {
	t.Helper()
	p := filmPlanner(t, []string{"directed_by", "starred_actors", "written_by"}, []string{"Paul Smith", "First Film", "Second Film", "Ann Lee", "Kim Ray", "Jo Dunn"},
		[][3]int{{1, 0, 0}, {1, 1, 3}, {1, 2, 4}, {2, 2, 3}, {2, 1, 5}}, tmpl, a)
	ranks := make([]float32, len(tmpl))
	for i := range ranks {
		ranks[i] = float32(len(tmpl) - 1 - i)
	}
	rankTemplates(p, ranks)
	return p
}

// TestKindAnswerWords: "Name the writers behind the films Ann Lee
// appeared in." is read "Name the written ...": "writers", a kind of
// person, rules out her films, and "written" leaves the cast of the
// films she wrote standing (Jo Dunn, node 5), which walks written_by.
// With KindAnswerWords the word read from a kind names the step of its
// relation that ends at that kind, ->written_by (from films to people),
// which rules that plan out too; the deeper search tries the writers of
// her films, and Kim Ray (node 4) answers. A learned answer word before
// it comes first ("Name the directors ...": ->directed_by; no template
// ends so, and the search finds none to try).
func TestKindAnswerWords(t *testing.T) {
	for _, c := range []struct {
		q    string
		on   bool
		want uint32
	}{
		{"Name the writers behind the films Ann Lee appeared in.", false, 5},
		{"Name the writers behind the films Ann Lee appeared in.", true, 4},
		{"Name the screenwriters of the films Ann Lee appeared in.", true, 4},
	} {
		p := kindWriterPlanner(t, AnchorConfig{KindAnswerWords: c.on})
		wantReach(t, p, c.q, c.want, "KindAnswerWords", c.on)
	}
}

// TestKindStep: the step a word read from a kind names, by hand: the
// relation its reading names, in the direction whose edges end at the
// kind; none for a word that names no relation, for a kind no step of
// the relation ends at, or for a word after the first anchor.
func TestKindStep(t *testing.T) {
	p := kindWriterPlanner(t, AnchorConfig{KindAnswerWords: true})
	text := "Name the written behind the films Ann Lee appeared in."
	ments := p.findMentions(text)
	c := PlanCandidate{Mentions: []int{slices.IndexFunc(ments, func(m linking.LinkedMention) bool { return m.Text == "Ann Lee" })}}
	if c.Mentions[0] < 0 {
		t.Fatalf("no mention of Ann Lee in %v", ments)
	}
	for _, k := range []struct {
		kinds map[string]string
		want  string
	}{
		{map[string]string{"written": "person"}, "->written_by"},
		{map[string]string{"written": "movie"}, "<-written_by"},
		{map[string]string{"written": "genre"}, ""},
		{map[string]string{"films": "movie"}, ""},
		{map[string]string{"appeared": "person"}, ""},
		{nil, ""},
	} {
		if got := p.kindStep(text, ments, &c, k.kinds); got != k.want {
			t.Errorf("kindStep with kinds %v = %q, want %q", k.kinds, got, k.want)
		}
	}
}

// TestDerivedFirstSense: the lexicon relates "work" to "actors" only
// through actor's second sense ({actor, doer, worker}: a worker works);
// with DerivedFirstSense the planner does not read "Among Ann Lee's
// directing work, ..." with "actor" (a word of the schema's
// starred_actors).
func TestDerivedFirstSense(t *testing.T) {
	for _, first := range []bool{false, true} {
		p := kindWriterPlanner(t, AnchorConfig{DerivedFirstSense: first})
		got := p.Resolve("Among Ann Lee's directing work, which titles are in English?")
		if read := slices.ContainsFunc(questionWords(got), func(w string) bool { return strings.HasPrefix(w, "actor") }); read == first {
			t.Errorf("DerivedFirstSense %v: read as %q", first, got)
		}
	}
}

// TestOpeningNoun: castPlanner's ranker turned to prefer two hops answers
// "2007 releases with Ann Lee, please" with her film's director (Paul
// Smith, node 0); "releases", a type word of movies, opens the question
// past its year, and with OpeningNoun it names films, so her film (First
// Film, node 1) answers. A word that names no type ("Anything with Ann
// Lee, please"), and one after the anchor ("Ann Lee releases, please")
// ask for nothing.
func TestOpeningNoun(t *testing.T) {
	lex, err := lexicon.WordNet()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		q    string
		on   bool
		want uint32
	}{
		{"2007 releases with Ann Lee, please", false, 0},
		{"2007 releases with Ann Lee, please", true, 1},
		{"Anything with Ann Lee, please", true, 0},
		{"Ann Lee releases, please", true, 0},
	} {
		p := castPlanner(t, true, true)
		p.names.setLexicon(lex)
		preferTwoHops(p)
		p.Cfg.Anchors.TypeWords = map[string][]string{"movie": {"released"}}
		p.Cfg.Anchors.OpeningNoun = c.on
		wantReach(t, p, c.q, c.want, "OpeningNoun", c.on)
	}
}

// TestQuotedOpening: a quoted noun opening the question is mentioned,
// not used: with QuotedOpening "'Releases' with Ann Lee, please" names no
// type asked for, so the two-hop plan castPlanner's ranker prefers
// answers (node 0) as for "Anything with Ann Lee, please"; without it
// "releases" asks for films, as unquoted (node 1).
func TestQuotedOpening(t *testing.T) {
	lex, err := lexicon.WordNet()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		q    string
		on   bool
		want uint32
	}{
		{"'Releases' with Ann Lee, please", false, 1},
		{"'Releases' with Ann Lee, please", true, 0},
		{"Releases with Ann Lee, please", true, 1},
	} {
		p := castPlanner(t, true, true)
		p.names.setLexicon(lex)
		preferTwoHops(p)
		p.Cfg.Anchors.TypeWords = map[string][]string{"movie": {"released"}}
		p.Cfg.Anchors.OpeningNoun = true
		p.Cfg.Anchors.QuotedOpening = c.on
		wantReach(t, p, c.q, c.want, "QuotedOpening", c.on)
	}
}

// TestWhAsks: castPlanner's ranker prefers one-hop plans, so "Who worked
// with Ann Lee?" answers with her film (node 1). With WhAsks, "who"
// opened 10 training questions that all asked for a person (the lead
// table's first words), so it asks for a person and her film's director
// (Paul Smith, node 0) answers. A question word whose questions asked
// for people 8 times in 10 (below 90%) asks for nothing, nor does one
// that opened 4 (below 5), nor a first word that is no question word.
func TestWhAsks(t *testing.T) {
	lead := func(people, films int) *LeadTypes {
		l := whoLead(people, films)
		for range 10 {
			l.Add([2]string{"worked", "with"}, "person")
		}
		return l
	}
	for _, c := range []struct {
		q     string
		lead  *LeadTypes
		on    bool
		want  uint32
		asked string
	}{
		{"Who worked with Ann Lee?", lead(10, 0), false, 1, ""},
		{"Who worked with Ann Lee?", lead(10, 0), true, 0, "person"},
		{"Who worked with Ann Lee?", lead(8, 2), true, 1, ""},
		{"Who worked with Ann Lee?", lead(4, 0), true, 1, ""},
		{"Worked with Ann Lee?", lead(10, 0), true, 1, ""},
	} {
		p := castPlanner(t, true, true)
		p.Cfg.Anchors.Lead = c.lead
		p.Cfg.Anchors.WhAsks = c.on
		if got := p.whType(c.q); c.on && got != c.asked {
			t.Errorf("whType(%q) = %q, want %q", c.q, got, c.asked)
		}
		wantReach(t, p, c.q, c.want, "WhAsks", c.on)
	}
}

// TestClosingWh: "Ann Lee's movie was directed by whom?" names movies
// before its last word, so castPlanner answers with her film (node 1).
// With ClosingWh, "whom" closing a question no question word opens asks
// for what "who" asked for opening 10 training questions, a person, and
// her film's director (Paul Smith, node 0) answers. Where "who" asked
// for people 8 times in 10 it asks for nothing; "whom" opening no
// question but closing one that "Which" opens asks for nothing either.
func TestClosingWh(t *testing.T) {
	lead := whoLead
	for _, c := range []struct {
		q    string
		lead *LeadTypes
		on   bool
		want uint32
	}{
		{"Ann Lee's movie was directed by whom?", lead(10, 0), false, 1},
		{"Ann Lee's movie was directed by whom?", lead(10, 0), true, 0},
		{"Ann Lee's movie was directed by whom?", lead(8, 2), true, 1},
		{"Which movie with Ann Lee was directed by whom?", lead(10, 0), true, 1},
	} {
		p := castPlanner(t, true, true)
		p.Cfg.Anchors.Lead = c.lead
		p.Cfg.Anchors.WhAsks, p.Cfg.Anchors.ClosingWh = true, c.on
		wantReach(t, p, c.q, c.want, "ClosingWh", c.on)
	}
}

// whoLead is a lead table where "who" opened people questions asking
// for a person and films questions asking for a film.
func whoLead(people, films int) *LeadTypes {
	l := NewLeadTypes()
	for range people {
		l.Add([2]string{"who", "directed"}, "person")
	}
	for range films {
		l.Add([2]string{"who", "starred"}, "movie")
	}
	return l
}

// TestSentenceInName: "Dr." ends no sentence inside a node's name ("Dr.
// Kay Film"): "Who was in Dr. Kay Film?" is planned whole, where its last
// "sentence", "Kay Film?", which names another film, was planned before
// (the words before it named nothing of the schema); the sentence before
// a name still ends where a mark ends it outside the name.
func TestSentenceInName(t *testing.T) {
	p := filmPlanner(t, []string{"directed_by"}, []string{"Paul Smith", "Dr. Kay Film", "Ann Lee", "Kay Film"},
		[][3]int{{1, 0, 0}, {3, 0, 2}}, [][][]string{{{"*", "->directed_by", "person"}}}, AnchorConfig{})
	p.Cfg.Anchors.ContextSentences, p.Cfg.Anchors.CasualContext, p.Cfg.Anchors.AnchorTypes = true, true, []string{"movie", "person"}
	q := "Who was in Dr. Kay Film?"
	if got := p.askingSentence(q); got != q {
		t.Errorf("askingSentence(%q) = %q, want it whole", q, got)
	}
	q = "I liked Dr. Kay Film. Who directed Dr. Kay Film?"
	names := p.findMentions(q)
	outside := func(at int) bool {
		return !slices.ContainsFunc(names, func(m linking.LinkedMention) bool { return m.Start < at && m.End > at })
	}
	if got, want := lastSentenceOf(q, false, outside), strings.Index(q, "Who"); got != want {
		t.Errorf("lastSentenceOf(%q) outside its names = %d, want %d", q, got, want)
	}
	if got, want := lastSentenceOf(q, false, nil), strings.LastIndex(q, "Kay"); got != want {
		t.Errorf("lastSentenceOf(%q) = %d, want %d", q, got, want)
	}
}

// wantReach checks that p plans q to reach node want alone; what and on
// name the setting the case tests.
func wantReach(t *testing.T, p *LinkingPlanner, q string, want uint32, what string, on bool) {
	t.Helper()
	pred, err := p.Predict(context.Background(), data.Query{Text: q, ID: -1})
	if err != nil || pred.Reach == nil || !slices.Equal(pred.Reach.Nodes, []uint32{want}) {
		t.Errorf("%s %v: %q (read %q) planned %v reaching %v (%v), want [%d]", what, on, q, pred.ReadAs, pred.Plan.MetapathTokens(), pred.Reach, err, want)
	}
}
