package planner

import (
	"context"
	"maps"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/data/lexicon"
	"github.com/strata-retrieval/strata/graphops/linking"
)

// lexPlanner is castPlanner (two-hop) reading words through the lexicon.
func lexPlanner(t *testing.T) *LinkingPlanner {
	t.Helper()
	lex, err := lexicon.WordNet()
	if err != nil {
		t.Fatal(err)
	}
	p := castPlanner(t, true, true)
	p.names.setLexicon(lex)
	return p
}

// TestAnswerWords: the ranker prefers the one-hop plan (Ann Lee's films:
// First Film, node 1); "directors" before the anchor names the step that
// ends the two-hop plan (->directed_by: Paul Smith, node 0), which then
// answers. Only the first answer word counts ("cast" names
// ->starred_actors too), and a word that may be a verb counts only after a
// determiner: "Who did cast Ann Lee?" keeps the ranker's choice where
// "cast" after "the" names ->directed_by.
func TestAnswerWords(t *testing.T) {
	words := map[string]string{"directors": "->directed_by", "cast": "->starred_actors"}
	for _, c := range []struct {
		q     string
		words map[string]string
		want  uint32
	}{
		{"Which directors have cast Ann Lee?", words, 0},
		{"Which directors have cast Ann Lee?", nil, 1},
		{"Who did cast Ann Lee?", map[string]string{"cast": "->directed_by"}, 1},
		{"Find the cast that starred Ann Lee.", map[string]string{"cast": "->directed_by"}, 0},
	} {
		p := lexPlanner(t)
		p.Cfg.Anchors.AnswerWords = c.words
		pred, err := p.Predict(context.Background(), data.Query{Text: c.q, ID: -1})
		if err != nil || pred.Reach == nil || !slices.Equal(pred.Reach.Nodes, []uint32{c.want}) {
			t.Errorf("%v: %q planned %v reaching %v (%v), want [%d]", c.words, c.q, pred.Plan.MetapathTokens(), pred.Reach, err, c.want)
		}
	}
}

// TestTrailingAnswerWords: a question with no noun before its anchor
// names its answer word right after it, where a noun phrase has its head
// ("Ann Lee directors": her films' director, Paul Smith, node 0, where
// the ranker prefers her films, node 1), also its last word when that
// may be a verb ("Ann Lee cast", "cast" naming ->directed_by here); the
// phrase ends at a stop word ("Ann Lee films with the directors" asks
// for films), a noun before the anchor keeps the lead's reading ("Which
// films did Ann Lee directors like?"), and without TrailingAnswerWords
// nothing after the anchor names a step.
func TestTrailingAnswerWords(t *testing.T) {
	words := map[string]string{"directors": "->directed_by", "cast": "->directed_by"}
	for _, c := range []struct {
		q    string
		on   bool
		want uint32
	}{
		{"Ann Lee directors", true, 0},
		{"Who are Ann Lee's directors?", true, 0},
		{"Ann Lee cast", true, 0},
		{"Ann Lee directors", false, 1},
		{"Ann Lee films with the directors", true, 1},
		{"Which films did Ann Lee directors like?", true, 1},
	} {
		p := lexPlanner(t)
		p.Cfg.Anchors.AnswerWords = words
		p.Cfg.Anchors.TrailingAnswerWords = c.on
		pred, err := p.Predict(context.Background(), data.Query{Text: c.q, ID: -1})
		if err != nil || pred.Reach == nil || !slices.Equal(pred.Reach.Nodes, []uint32{c.want}) {
			t.Errorf("TrailingAnswerWords %v: %q planned %v reaching %v (%v), want [%d]", c.on, c.q, pred.Plan.MetapathTokens(), pred.Reach, err, c.want)
		}
	}
}

// TestNounHeads: "cast of movies with Ann Lee" asks for a cast, the head of
// its noun phrase. With NounHeads "cast", opening the question before a
// preposition, is a noun (the answer word naming ->directed_by here: Paul
// Smith, node 0) and no request's verb, and "movies", the first word after
// "of" after the opening word, names no type the question asks for (a list of
// movies still asks for movies); without, "cast" opening the question is a
// verb asking for its object, movies (LeadVerbAsks), and Ann Lee's film
// answers (node 1). A verb before an object stays a verb ("Cast the films with
// Ann Lee"), also before its object's type word and a preposition ("Cast
// films with Ann Lee"). A noun and the noun it modifies before the
// preposition are nouns ("cast list for pictures with Ann Lee"), up to
// maxOpeningNouns words: not three.
func TestNounHeads(t *testing.T) {
	for _, c := range []struct {
		q    string
		on   bool
		want uint32
	}{
		{"cast of movies with Ann Lee", true, 0},
		{"cast of movies with Ann Lee", false, 1},
		{"Cast the films with Ann Lee", true, 1},
		{"cast list for pictures with Ann Lee", true, 0},
		{"cast list for pictures with Ann Lee", false, 1},
		{"cast film list for pictures with Ann Lee", true, 1},
		{"Cast films with Ann Lee", true, 1},
	} {
		p := lexPlanner(t)
		p.Cfg.Anchors.AnswerWords = map[string]string{"cast": "->directed_by"}
		p.Cfg.Anchors.LeadVerbAsks = true
		p.Cfg.Anchors.NounHeads = c.on
		pred, err := p.Predict(context.Background(), data.Query{Text: c.q, ID: -1})
		if err != nil || pred.Reach == nil || !slices.Equal(pred.Reach.Nodes, []uint32{c.want}) {
			t.Errorf("NounHeads %v: %q planned %v reaching %v (%v), want [%d]", c.on, c.q, pred.Plan.MetapathTokens(), pred.Reach, err, c.want)
		}
	}
	p := lexPlanner(t)
	for _, c := range []struct {
		restriction string
		heads       bool
		want        string
	}{
		{"cast of movies with", true, ""},
		{"cast of the movies with", true, ""},
		{"cast of movies with", false, "movie"},
		{"give me a list of movies with", true, "movie"}, // "of" after no opening noun
	} {
		p.Cfg.Anchors.NounHeads = c.heads
		if got, _ := p.askedTypeBy(c.restriction, nil); got != c.want {
			t.Errorf("NounHeads %v: %q asks for %q, want %q", c.heads, c.restriction, got, c.want)
		}
	}
}

// TestHeadsOf: "Name the cast members of X's 2000 movies as director."
// opens with a request, not with N of "N of M": with HeadsOf "movies", M's
// first word, names no type asked for all the same, as "cast" (an answer
// word) names the answers by a relation; "a list of movies" still asks for
// movies ("list" names none), and so does the request without HeadsOf.
func TestHeadsOf(t *testing.T) {
	p := lexPlanner(t)
	p.Cfg.Anchors.NounHeads, p.Cfg.Anchors.OfValues = true, true
	p.Cfg.Anchors.AnswerWords = map[string]string{"cast": "->directed_by"}
	for _, c := range []struct {
		restriction string
		on          bool
		want        string
	}{
		{"Name the cast members of 2000 movies as director.", true, ""},
		{"Name the cast members of 2000 movies as director.", false, "movie"},
		{"Name the cast of the movies", true, ""},
		{"give me a list of movies with", true, "movie"},
		{"give me the members of movies with", true, "movie"},
	} {
		p.Cfg.Anchors.HeadsOf = c.on
		if got, _ := p.askedTypeBy(c.restriction, nil); got != c.want {
			t.Errorf("HeadsOf %v: %q asks for %q, want %q", c.on, c.restriction, got, c.want)
		}
	}
}

// TestOfValues: "cast of X's 1926 movies" leaves the anchor out of its
// restriction and the year in it; with OfValues M's first word is past the
// year, "movies", which names no type asked for, and the cast is asked for.
// Without it "1926" is M's first word, and "movies" names the type.
func TestOfValues(t *testing.T) {
	p := lexPlanner(t)
	p.Cfg.Anchors.NounHeads = true
	for _, c := range []struct {
		restriction string
		on          bool
		want        string
	}{
		{"cast of 1926 movies as director", false, "movie"},
		{"cast of 1926 movies as director", true, ""},
		{"cast of the 1926 movies", true, ""},
		{"give me a list of 1926 movies", true, "movie"}, // "of" after no opening noun
	} {
		p.Cfg.Anchors.OfValues = c.on
		if got, _ := p.askedTypeBy(c.restriction, nil); got != c.want {
			t.Errorf("OfValues %v: %q asks for %q, want %q", c.on, c.restriction, got, c.want)
		}
	}
}

// TestLearnAnswerWords: of the nouns before the anchor, "directors" came
// in 5 questions, all of whose plans end with ->directed_by; "film" came
// in 5 ending with ->has_genre, but names movies (the lexicon's synonym of
// the schema's "movie") while those questions asked for genres; "cast"
// came after a determiner in 4 questions only; "actors" came in 6, 5 of
// them (less than 90%) ending with ->starred_actors.
func TestLearnAnswerWords(t *testing.T) {
	p := lexPlanner(t)
	var f anchorFixture
	var plans []*data.Plan
	var types []string
	add := func(text, path string, typ string) {
		t.Helper()
		f.add(t, text, "Ann Lee", "Ann Lee")
		plans = append(plans, &data.Plan{Paths: data.MustPaths(append([]string{"person"}, strings.Fields(path)...))})
		types = append(types, typ)
	}
	for range 5 {
		add("Find the directors of the films starring Ann Lee.", "<-starred_actors movie ->directed_by person", "person")
		add("Every film starring Ann Lee has which genre?", "<-starred_actors movie ->has_genre genre", "genre")
		add("Which actors were in the films of Ann Lee?", "<-directed_by movie ->starred_actors person", "person")
	}
	add("Which actors directed Ann Lee?", "->directed_by person", "person")
	for range 4 {
		add("Find the cast of Ann Lee.", "<-directed_by movie ->starred_actors person", "person")
	}
	got := p.LearnAnswerWords(f.texts, f.ments, f.anchors, plans, types)
	if want := map[string]string{"directors": "->directed_by"}; !maps.Equal(got, want) {
		t.Errorf("LearnAnswerWords = %v, want %v", got, want)
	}
}

// TestSynonymTypes: "films" names no type with the schema's words
// ("movie", "person"), but movie is in its most frequent noun sense, so
// with SynonymTypes "Give me the films that Ann Lee starred in." names the
// answer's type and a ranker that prefers two hops gives way to her films
// (First Film, node 1) over their directors (Paul Smith, node 0); a
// quoted "films" states a value and asks for nothing.
func TestSynonymTypes(t *testing.T) {
	for _, syn := range []bool{false, true} {
		p := lexPlanner(t)
		p.Cfg.Anchors.SynonymTypes = syn
		preferTwoHops(p)
		want, wantType := uint32(0), ""
		if syn {
			want, wantType = 1, "movie"
		}
		if got := p.namedType("films"); got != wantType {
			t.Errorf("SynonymTypes %v: namedType(films) = %q, want %q", syn, got, wantType)
		}
		if got := p.namedType("form"); got != "" {
			t.Errorf("SynonymTypes %v: namedType(form) = %q, want none", syn, got)
		}
		if got, _ := p.askedTypeBy("Which one is described as 'films of hers'?", nil); syn && got != "" {
			t.Errorf("SynonymTypes: a quoted word names the asked type %q", got)
		}
		q := "Give me the films that Ann Lee starred in."
		pred, err := p.Predict(context.Background(), data.Query{Text: q, ID: -1})
		if err != nil || pred.Reach == nil || !slices.Equal(pred.Reach.Nodes, []uint32{want}) {
			t.Errorf("SynonymTypes %v: %q planned %v reaching %v (%v), want [%d]", syn, q, pred.Plan.MetapathTokens(), pred.Reach, err, want)
		}
	}
}

// TestAnswerWordsDeeper: the classifier tries two templates, Ann Lee's
// films and their directors; "Which writers ..." names the step that ends
// the third (->written_by), which rules both out, so the deeper search
// tries it and its writer, Kim Ray (node 4), answers; without DeeperSearch
// the ranker's choice of the two stands.
func TestAnswerWordsDeeper(t *testing.T) {
	lex, err := lexicon.WordNet()
	if err != nil {
		t.Fatal(err)
	}
	for _, deeper := range []bool{true, false} {
		p := writerPlanner(t, AnchorConfig{TopTemplates: 2, DeeperSearch: deeper, AnswerWords: map[string]string{"writers": "->written_by"}})
		p.names.setLexicon(lex)
		q := "Which writers worked on the films of Ann Lee?"
		pred, err := p.Predict(context.Background(), data.Query{Text: q, ID: -1})
		if err != nil || pred.Reach == nil {
			t.Fatalf("%q: %v", q, err)
		}
		if got := slices.Equal(pred.Reach.Nodes, []uint32{4}); got != deeper {
			t.Errorf("DeeperSearch %v: %q planned %v reaching %v", deeper, q, pred.Plan.MetapathTokens(), pred.Reach.Nodes)
		}
	}
}

// anchorWordPlanner is filmPlanner over a graph where Ann Lee starred in
// First Film, which Kim Ray wrote, and wrote Second Film, in which Paul
// Smith starred; its two templates are the writers of an anchor's films
// (Kim Ray, node 4) and the cast of an anchor's scripts (Paul Smith, node
// 0), the classifier's biases b, and a plan ranker with no weights: the
// classifier's first candidate answers unless a rule rules it out.
func anchorWordPlanner(t *testing.T, b []float32) *LinkingPlanner {
	t.Helper()
	p := filmPlanner(t, []string{"starred_actors", "written_by"}, []string{"Paul Smith", "First Film", "Second Film", "Ann Lee", "Kim Ray"},
		[][3]int{{1, 0, 3}, {1, 1, 4}, {2, 1, 3}, {2, 0, 0}},
		[][][]string{
			{{"*", "<-starred_actors", "movie", "->written_by", "person"}},
			{{"*", "<-written_by", "movie", "->starred_actors", "person"}},
		}, AnchorConfig{})
	rankTemplates(p, b)
	return p
}

// TestAnchorWords: "the films Ann Lee wrote" says how Ann Lee is related
// to the films: with "wrote" after an anchor allowing <-written_by, the
// cast of her scripts (Paul Smith) answers where the classifier preferred
// the writers of the films she starred in (Kim Ray), and "films starring
// Ann Lee" turns the other way. A word whose steps start no candidate
// that reaches a node ("wrote" allowing only <-directed_by) rules nothing
// out, and neither does one that is not next to the anchor ("wrote, Ann
// Lee ..." has a comma between).
func TestAnchorWords(t *testing.T) {
	wrote := map[string][]string{"a:wrote": {"<-written_by"}}
	for _, c := range []struct {
		q     string
		words map[string][]string
		b     []float32
		want  uint32
	}{
		{"Who appears in the films Ann Lee wrote?", nil, []float32{2, 1}, 4},
		{"Who appears in the films Ann Lee wrote?", wrote, []float32{2, 1}, 0},
		{"Who appears in the films Ann Lee then wrote?", wrote, []float32{2, 1}, 0},
		{"Who appears in the films Ann Lee wrote?", map[string][]string{"a:wrote": {"<-directed_by"}}, []float32{2, 1}, 4},
		{"Who appears in the films Ann Lee, wrote?", wrote, []float32{2, 1}, 4},
		{"Who wrote the films starring Ann Lee?", nil, []float32{1, 2}, 0},
		{"Who wrote the films starring Ann Lee?", map[string][]string{"b:starring": {"<-starred_actors"}}, []float32{1, 2}, 4},
	} {
		p := anchorWordPlanner(t, c.b)
		p.Cfg.Anchors.AnchorWords = c.words
		pred, err := p.Predict(context.Background(), data.Query{Text: c.q, ID: -1})
		if err != nil || pred.Reach == nil || !slices.Equal(pred.Reach.Nodes, []uint32{c.want}) {
			t.Errorf("%v: %q planned %v reaching %v (%v), want [%d]", c.words, c.q, pred.Plan.MetapathTokens(), pred.Reach, err, c.want)
		}
	}
}

// TestLearnAnchorWords: "starring" came before 60 anchors, 59 of whose
// paths start with <-starred_actors (98.3%: the one <-written_by, a miner's
// alternative plan, is left out); "wrote" after 6, 5 <-written_by and one
// <-directed_by (83%: both allowed); "film" after 5, all <-starred_actors,
// but names no relation by the questions' counts (half its questions walk
// directed_by alone), nor does "which"; "directed" before 5, all
// <-directed_by, after 4 only.
func TestLearnAnchorWords(t *testing.T) {
	var f anchorFixture
	var plans []*data.Plan
	rw := NewRelWords()
	add := func(n int, text, path string) {
		t.Helper()
		for range n {
			f.add(t, text, "Ann Lee", "Ann Lee")
			pl := &data.Plan{Paths: data.MustPaths(append([]string{"person"}, strings.Fields(path)...))}
			plans = append(plans, pl)
			rw.Add(strings.Replace(text, "Ann Lee", "", 1), PlanRelations(pl))
		}
	}
	add(59, "Who directed the films starring Ann Lee?", "<-starred_actors movie ->directed_by person")
	add(1, "Who wrote the films starring Ann Lee?", "<-written_by movie ->starred_actors person")
	add(5, "Who directed the films Ann Lee wrote?", "<-written_by movie ->directed_by person")
	add(1, "Who was in the films Ann Lee wrote?", "<-directed_by movie ->starred_actors person")
	add(5, "Which Ann Lee film had a writer?", "<-starred_actors movie ->written_by person")
	add(5, "Which film was directed by Ann Lee?", "<-directed_by movie")
	add(4, "Who starred in what Ann Lee directed?", "<-directed_by movie ->starred_actors person")
	got := LearnAnchorWords(f.texts, f.ments, f.anchors, plans, rw, false)
	want := map[string][]string{"b:starring": {"<-starred_actors"}, "a:wrote": {"<-directed_by", "<-written_by"}, "b:directed": {"<-directed_by"}}
	if !maps.EqualFunc(got, want, slices.Equal) {
		t.Errorf("LearnAnchorWords = %v, want %v", got, want)
	}
	if got := LearnAnchorWords(f.texts, f.ments, f.anchors, plans, nil, false); got != nil {
		t.Errorf("LearnAnchorWords without relation words = %v, want none", got)
	}
	// The words in their singular forms, stop words skipped, quotes and
	// punctuation stopping the look; with clauses (ClauseBounds), a
	// relative word too.
	for _, c := range []struct {
		text    string
		clauses bool
		want    []string
	}{
		{"Name the parts of the various types of Ann Lee stars?", false, []string{"b:type", "a:star"}},
		{"Who is 'Ann Lee', directed?", false, nil},
		{"Ann Lee was in the", false, nil},
		{"Give me Kim Ray's scripts that Ann Lee acted in.", false, []string{"b:script", "a:acted"}},
		{"Give me Kim Ray's scripts that Ann Lee acted in.", true, []string{"a:acted"}},
		{"Films from a script by Ann Lee", true, []string{"b:script"}},
	} {
		m := fixtureMention(t, c.text, "Ann Lee")
		if got := anchorWords(c.text, linking.MentionWords(c.text), quotedSpans(c.text, false), &m, c.clauses); !slices.Equal(got, c.want) {
			t.Errorf("anchorWords(%q, clauses %v) = %q, want %q", c.text, c.clauses, got, c.want)
		}
	}
}

// TestKindTypes: "filmmakers" names no type with the schema's words
// ("movie", "person") nor as a synonym, but its most frequent noun sense
// is three hypernym links below person's (a producer, a creator, a
// person), so with KindTypes "Which filmmakers worked with Ann Lee?" asks
// for a person and castPlanner's ranker, which prefers one hop (her film,
// node 1), gives way to the directors of her films (Paul Smith, node 0). A
// word the training used names no type so (its lifts say what it names),
// nor a word that may be a verb ("had": have, a wealthy person; "uses": a
// use is an event), nor an adjective ("korean"), nor a word more than four
// links below (a "waiter" is a dining-room attendant, an employee, a
// worker, a person; a "sommelier" a waiter); "documentaries" are movies
// one link up; a word between it and the type's word that the training
// used in 5 questions or more, naming no type or another, blocks the
// kind; and a word read as another (readKinds) names the type its
// original named.
func TestKindTypes(t *testing.T) {
	for _, kind := range []bool{false, true} {
		p := lexPlanner(t)
		p.Cfg.Anchors.AskWords = []string{"which"}
		p.Cfg.Anchors.KindTypes = kind
		want, wantType := uint32(1), ""
		if kind {
			want, wantType = 0, "person"
		}
		if got := p.kindType("filmmakers", false); got != wantType {
			t.Errorf("KindTypes %v: kindType(filmmakers) = %q, want %q", kind, got, wantType)
		}
		q := "Which filmmakers worked with Ann Lee?"
		pred, err := p.Predict(context.Background(), data.Query{Text: q, ID: -1})
		if err != nil || pred.Reach == nil || !slices.Equal(pred.Reach.Nodes, []uint32{want}) {
			t.Errorf("KindTypes %v: %q planned %v reaching %v (%v), want [%d]", kind, q, pred.Plan.MetapathTokens(), pred.Reach, err, want)
		}
		if !kind {
			continue
		}
		for w, want := range map[string]string{"screenwriters": "person", "waiter": "person", "had": "", "korean": "", "koreans": "person", "titles": "", "sommelier": "", "documentaries": "movie", "performers": "person", "directors": "person", "uses": ""} {
			if got := p.kindType(w, false); got != want {
				t.Errorf("kindType(%q) = %q, want %q", w, got, want)
			}
		}
		p.words = &wordResolver{known: map[string]bool{"filmmakers": true}}
		if got := p.kindType("filmmakers", false); got != "" {
			t.Errorf("kindType of a word the training used = %q, want none", got)
		}
		// A filmmaker is a producer, a creator, a person: "producer" in 5
		// training questions naming no type there blocks the kind, in 4
		// it does not count.
		for uses, want := range map[int]string{4: "person", 5: ""} {
			p.words = &wordResolver{known: map[string]bool{}, uses: map[string]int{"producer": uses}}
			if got := p.kindType("filmmakers", false); got != want {
				t.Errorf("\"producer\" in %d training questions: kindType(filmmakers) = %q, want %q", uses, got, want)
			}
		}
		kinds := readKinds("Which Written wrote", []readSpan{{6, 13, false, "person"}, {14, 19, false, ""}})
		if !maps.Equal(kinds, map[string]string{"written": "person"}) {
			t.Errorf("readKinds = %v, want written: person", kinds)
		}
		if got, named := p.askedTypeBy("Which written wrote the films of", kinds); got != "person" || !named {
			t.Errorf("a word read as \"written\" from a kind of person: asked type %q (named %v), want person", got, named)
		}
	}
}

// TestLeadVerbAsks: "Name the filmmakers who worked with Ann Lee." has no
// asking word ("which" is the only one), so nothing names the type it
// asks for and castPlanner's ranker answers with her film (node 1); with
// LeadVerbAsks its first word, a verb, asks for the type its object's
// first word past "the" names: "filmmakers", a kind of person
// (KindTypes), and her film's director (Paul Smith, node 0) answers. The
// object is read off the whole question, whatever a candidate's anchors
// leave: "Name the zorbic filmmakers ..." asks for nothing ("zorbic"
// names no type), as does a first word that is no verb ("Films").
func TestLeadVerbAsks(t *testing.T) {
	for _, lead := range []bool{false, true} {
		p := lexPlanner(t)
		p.Cfg.Anchors.AskWords = []string{"which"}
		p.Cfg.Anchors.KindTypes = true
		p.Cfg.Anchors.LeadVerbAsks = lead
		want, wantType := uint32(1), ""
		if lead {
			want, wantType = 0, "person"
		}
		q := "Name the filmmakers who worked with Ann Lee."
		if got, _ := p.verbType(q, nil); got != wantType {
			t.Errorf("LeadVerbAsks %v: verb's type %q, want %q", lead, got, wantType)
		}
		for _, other := range []string{"Name the zorbic filmmakers who worked with Ann Lee.", "Films the filmmakers worked with Ann Lee."} {
			if got, _ := p.verbType(other, nil); got != "" {
				t.Errorf("LeadVerbAsks %v: %q asked for %q, want none", lead, other, got)
			}
		}
		pred, err := p.Predict(context.Background(), data.Query{Text: q, ID: -1})
		if err != nil || pred.Reach == nil || !slices.Equal(pred.Reach.Nodes, []uint32{want}) {
			t.Errorf("LeadVerbAsks %v: %q planned %v reaching %v (%v), want [%d]", lead, q, pred.Plan.MetapathTokens(), pred.Reach, err, want)
		}
	}
}

// TestAnswerWordsLead: "films", an answer word ending plans with
// <-starred_actors (at movies), comes before the anchor of "Who directed
// the films Ann Lee starred in?", so it rules out the directors of her
// films and her film answers (node 1), though castPlanner's ranker,
// turned to prefer two hops, would have the directors. The training's
// lead words say otherwise: 100 questions "who directed ..." asked for
// people, 100 "which films ..." for films and 100 "list the ..." for
// people, so a film after "who directed" has the probability (0 + 2 x (0 +
// 2 x 101/303) / 102) / 102 = 0.00013 < minLeadTypeProb, "films" is the
// object of "directed", and with AnswerWordsLead the answer word yields
// and Paul Smith (node 0) answers. "List the films Ann Lee starred in."
// has no verb before its answer word: it stands (her film), though "list
// the" asked for people. An answer word after the anchor
// (TrailingAnswerWords: "Who directed Ann Lee films?") yields alike.
func TestAnswerWordsLead(t *testing.T) {
	lead := NewLeadTypes()
	for range 100 {
		lead.Add([2]string{"who", "directed"}, "person")
		lead.Add([2]string{"which", "films"}, "movie")
		lead.Add([2]string{"list", "the"}, "person")
	}
	q := "Who directed the films Ann Lee starred in?"
	if pr := lead.Prob([2]string{"who", "directed"}, "movie"); math.Abs(pr-0.00013) > 0.000005 || pr >= minLeadTypeProb {
		t.Fatalf("Prob(who directed, movie) = %v, want 0.00013 by hand", pr)
	}
	for _, on := range []bool{false, true} {
		p := lexPlanner(t)
		preferTwoHops(p)
		p.Cfg.Anchors.AnswerWords = map[string]string{"films": "<-starred_actors"}
		p.Cfg.Anchors.Lead = lead
		p.Cfg.Anchors.AnswerWordsLead = on
		if got := p.stepEndTypes("<-starred_actors"); !slices.Equal(got, []string{"movie"}) {
			t.Errorf("stepEndTypes(<-starred_actors) = %v, want [movie]", got)
		}
		if got := p.stepEndTypes("->directed_by"); !slices.Equal(got, []string{"person"}) {
			t.Errorf("stepEndTypes(->directed_by) = %v, want [person]", got)
		}
		want := uint32(1)
		if on {
			want = 0
		}
		pred, err := p.Predict(context.Background(), data.Query{Text: q, ID: -1})
		if err != nil || pred.Reach == nil || !slices.Equal(pred.Reach.Nodes, []uint32{want}) {
			t.Errorf("AnswerWordsLead %v: %q planned %v reaching %v (%v), want [%d]", on, q, pred.Plan.MetapathTokens(), pred.Reach, err, want)
		}
		// After the anchor (TrailingAnswerWords) the answer word yields
		// as well.
		p.Cfg.Anchors.TrailingAnswerWords = true
		q3 := "Who directed Ann Lee films?"
		pred, err = p.Predict(context.Background(), data.Query{Text: q3, ID: -1})
		if err != nil || pred.Reach == nil || !slices.Equal(pred.Reach.Nodes, []uint32{want}) {
			t.Errorf("AnswerWordsLead %v: %q planned %v reaching %v (%v), want [%d]", on, q3, pred.Plan.MetapathTokens(), pred.Reach, err, want)
		}
		p.Cfg.Anchors.TrailingAnswerWords = false
		// No verb before "films": the answer word stands, whatever "list
		// the" asked for in the training.
		q2 := "List the films Ann Lee starred in."
		pred, err = p.Predict(context.Background(), data.Query{Text: q2, ID: -1})
		if err != nil || pred.Reach == nil || !slices.Equal(pred.Reach.Nodes, []uint32{1}) {
			t.Errorf("AnswerWordsLead %v: %q planned %v reaching %v (%v), want her film [1]", on, q2, pred.Plan.MetapathTokens(), pred.Reach, err)
		}
	}
}

// TestRequestObject: a request's object is past its addressee ("Give me
// the filmmakers ...") and, where the request's verb is a learned asking
// word too ("list"), past the determiner after it ("List the filmmakers
// ..."). Without RequestObject the first asks for "me", a word naming no
// type, and the second for nothing (its asking word's slot is "the"), so
// castPlanner's ranker answers both with Ann Lee's film (node 1); with it
// both ask for people ("filmmakers", a kind of person) and her film's
// director (Paul Smith, node 0) answers. An asking word followed by no
// determiner ("List filmmakers ...") is still read by askedTypeBy, not
// as a request's verb.
func TestRequestObject(t *testing.T) {
	for _, on := range []bool{false, true} {
		p := requestPlanner(t, "list", "which")
		p.Cfg.Anchors.RequestObject = on
		checkRequests(t, p, "RequestObject", on, "Give me the filmmakers who worked with Ann Lee.", "List the filmmakers who worked with Ann Lee.")
		if got, _ := p.verbType("List filmmakers who worked with Ann Lee.", nil); got != "" {
			t.Errorf("RequestObject %v: an asking word before no determiner asked as a verb for %q", on, got)
		}
	}
}

// requestPlanner is lexPlanner with askWords learned and a request's verb
// asking for its object (KindTypes, LeadVerbAsks, RequestObject).
func requestPlanner(t *testing.T, askWords ...string) *LinkingPlanner {
	t.Helper()
	p := lexPlanner(t)
	p.Cfg.Anchors.AskWords = askWords
	p.Cfg.Anchors.KindTypes = true
	p.Cfg.Anchors.LeadVerbAsks = true
	p.Cfg.Anchors.RequestObject = true
	return p
}

// checkRequests asserts that each request of qs, about "the filmmakers
// who worked with Ann Lee", asks for people and is answered by her
// film's director (Paul Smith, node 0) when the option named name is on,
// and otherwise asks for no type and is answered by her film (node 1,
// castPlanner's ranker).
func checkRequests(t *testing.T, p *LinkingPlanner, name string, on bool, qs ...string) {
	t.Helper()
	want, wantType := uint32(1), ""
	if on {
		want, wantType = 0, "person"
	}
	for _, q := range qs {
		if got, _ := p.verbType(q, nil); got != wantType {
			t.Errorf("%s %v: %q: verb's type %q, want %q", name, on, q, got, wantType)
		}
		if pred, got, err := answered(p, q); err != nil || !slices.Equal(got, []uint32{want}) {
			t.Errorf("%s %v: %q planned %v reaching %v (%v), want [%d]", name, on, q, pred.Plan.MetapathTokens(), got, err, want)
		}
	}
}

// TestDeterminedValues: "cast", which may be a verb, counts as an answer
// word only where it is a noun. Right after "the" it is one ("Find the
// cast ..."); with DeterminedValues so it is after "the" past a value
// ("Find the 2001 cast that starred Ann Lee.": "cast" names ->directed_by
// here, and her film's director, Paul Smith, node 0, answers where the
// ranker prefers her film, node 1). A value with no determiner before it
// makes no noun of the verb ("Who in 2001 did cast Ann Lee?").
func TestDeterminedValues(t *testing.T) {
	for _, c := range []struct {
		q    string
		on   bool
		want uint32
	}{
		{"Find the 2001 cast that starred Ann Lee.", false, 1},
		{"Find the 2001 cast that starred Ann Lee.", true, 0},
		{"Find the cast that starred Ann Lee.", false, 0},
		{"Who in 2001 did cast Ann Lee?", true, 1},
	} {
		p := lexPlanner(t)
		p.Cfg.Anchors.AnswerWords = map[string]string{"cast": "->directed_by"}
		p.Cfg.Anchors.DeterminedValues = c.on
		pred, err := p.Predict(context.Background(), data.Query{Text: c.q, ID: -1})
		if err != nil || pred.Reach == nil || !slices.Equal(pred.Reach.Nodes, []uint32{c.want}) {
			t.Errorf("DeterminedValues %v: %q planned %v reaching %v (%v), want [%d]", c.on, c.q, pred.Plan.MetapathTokens(), pred.Reach, err, c.want)
		}
	}
}

// TestObjectModifiers: a word before a request's object that the lexicon
// has only as an adjective ("other", "different") is read past with
// ObjectModifiers, so "Give me the other filmmakers ..." asks for people
// as "Give me the filmmakers ..." does (TestRequestObject: her film's
// director, node 0, answers); without it the object is "other", which
// names no type, and castPlanner's ranker answers with Ann Lee's film
// (node 1). A word the lexicon has as a noun too ("French") is the
// object either way.
func TestObjectModifiers(t *testing.T) {
	for _, on := range []bool{false, true} {
		p := requestPlanner(t, "list", "which")
		p.Cfg.Anchors.ObjectModifiers = on
		checkRequests(t, p, "ObjectModifiers", on, "Give me the other filmmakers who worked with Ann Lee.", "List the different filmmakers who worked with Ann Lee.")
		if got, _ := p.verbType("List the French filmmakers who worked with Ann Lee.", nil); got != "" {
			t.Errorf("ObjectModifiers %v: a word that may be a noun was read past: %q", on, got)
		}
		// "written" is an adjective and a verb's form: the planner reads
		// "writers" so ("Name the writers of ..." as "Name the written
		// of ..."), and it stays the object.
		for w, want := range map[string]bool{"other": true, "different": true, "filmmakers": false, "written": false, "french": false} {
			if got := p.modifierOnly(w); got != want {
				t.Errorf("modifierOnly(%q) = %v, want %v", w, got, want)
			}
		}
		if got, _ := p.verbType("Name the written of the films with Ann Lee in the cast.", nil); on && got != "" && got != "person" {
			t.Errorf("ObjectModifiers %v: a verb's form was read past to %q", on, got)
		}
	}
}
