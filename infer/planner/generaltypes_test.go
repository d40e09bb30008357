package planner

import (
	"context"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/data/lexicon"
	"github.com/strata-retrieval/strata/graphops/linking"
	"github.com/strata-retrieval/strata/internal/testskb"
	"github.com/strata-retrieval/strata/models"
)

// genrePlanner is a linking planner over a graph of people, films and
// genres: Paul Smith directed First Film and Second Film, both dramas
// (Drama, node 3). Its templates are the films an anchor directed, the
// genre every one of them has and (more) the films of a genre an anchor
// directed; its plan ranker prefers one-hop plans by 5, as a ranker
// fooled by an unseen frame would; it reads words through the lexicon,
// "which" is its asking word and a word the training never used may
// name a type as a kind (KindTypes).
func genrePlanner(t *testing.T, general bool, more ...[][]string) *LinkingPlanner {
	t.Helper()
	return genrePlannerWith(t, AnchorConfig{NamedType: true, KindTypes: true, GeneralTypes: general, AskWords: []string{"which"}}, more...)
}

// oneHopPlanner is a linking planner over s with templates tmpls and
// anchor settings a (testPlanner), whose plan ranker prefers one-hop
// plans by 5, as a ranker fooled by an unseen frame would.
func oneHopPlanner(t *testing.T, s *data.SKB, tmpls [][]data.Path, a AnchorConfig) *LinkingPlanner {
	t.Helper()
	return testPlanner(t, s, tmpls, 0, 5, a)
}

// testPlanner is a linking planner over s with templates tmpls, the last
// steps of them the schema's steps (Config.SchemaSteps, which the
// classifier does not score), and anchor settings a (its Dim, Mentions
// and RankDim set here): a classifier, anchor scorer and plan ranker as
// initialised, the ranker's one-hop feature weighing hops1.
func testPlanner(t testing.TB, s *data.SKB, tmpls [][]data.Path, steps int, hops1 float32, a AnchorConfig) *LinkingPlanner {
	t.Helper()
	ws := testskb.Workspace(t, s)
	const dim = 1024
	a.Dim, a.Mentions, a.RankDim = 64, ws.Mentions().Config(), dim
	cfg := Config{NodeTypes: s.Schema.NodeTypes, Templates: tmpls, SchemaSteps: steps, Anchors: &a}
	cfg.Gate = models.GateConfig{In: cfg.InputDim(), Hidden: 4, Out: len(tmpls) - steps}
	gate, err := models.NewGate(cfg.Gate, "planner", rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	anchor, _ := models.NewSparseLinear(64, "planner.anchor")
	ranker, _ := models.NewSparseLinear(dim, "planner.ranker")
	if hops1 != 0 {
		ranker.W.Data()[featureIndex(dim, "hops1")] = hops1
	}
	p, err := NewLinkingPlanner(ws, nil, cfg, gate, anchor, ranker)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// genrePlannerWith is genrePlanner with anchor settings a (its Dim,
// Mentions and RankDim set here).
func genrePlannerWith(t *testing.T, a AnchorConfig, more ...[][]string) *LinkingPlanner {
	t.Helper()
	s := &data.SKB{Schema: data.Schema{Format: data.FormatSKBDir, NodeTypes: []string{"person", "movie", "genre"},
		RelationTypes: []string{"directed_by", "has_genre"}, CandidateTypes: []string{"person", "movie", "genre"}, TextFields: []string{"name", "details"}}}
	for _, n := range []struct {
		name string
		typ  data.TypeID
	}{{"Paul Smith", 0}, {"First Film", 1}, {"Second Film", 1}, {"Drama", 2}} {
		s.Nodes = append(s.Nodes, data.Node{Type: n.typ, Name: n.name, Fields: []string{"", ""}})
	}
	for _, e := range [][3]int{{1, 0, 0}, {2, 0, 0}, {1, 1, 3}, {2, 1, 3}} {
		s.Edges.Add(uint32(e[0]), data.RelID(e[1]), uint32(e[2]))
	}
	tmpls := [][]data.Path{
		data.MustPaths([]string{"*", "<-directed_by", "movie"}),
		data.MustPaths([]string{"*", "<-directed_by", "movie", "∀->has_genre", "genre"}),
	}
	for _, paths := range more {
		tmpls = append(tmpls, data.MustPaths(paths...))
	}
	p := oneHopPlanner(t, s, tmpls, a)
	lex, err := lexicon.WordNet()
	if err != nil {
		t.Fatal(err)
	}
	p.names.setLexicon(lex)
	return p
}

// TestGeneralTypes: "category" names no type with the schema's words,
// nor as a synonym or a kind (its most frequent noun sense is a
// collection of things), but a genre is a kind and a kind is a category
// (category's second noun sense), so with GeneralTypes "Which category
// does every film directed by Paul Smith fall into?" asks for a genre and
// the ranker's choice, his films (node 1), gives way to the genre every
// one of them has (Drama, node 3). "variety" is a genre one link up;
// "production" names movie (a film is a production); "collection" names
// none (a category is one: up from genre, not two links); a word the training
// used names no type so, nor a noun that may be a verb ("sort"), nor one
// past a word between (here "kind") that the training used in 5
// questions or more naming no type there. A kind of a type's word still
// names it as before ("screenwriters": person).
func TestGeneralTypes(t *testing.T) {
	q := "Which category does every film directed by Paul Smith fall into?"
	for _, general := range []bool{false, true} {
		p := genrePlanner(t, general)
		want, wantType := uint32(1), ""
		if general {
			want, wantType = 3, "genre"
		}
		if got := p.kindType("category", false); got != wantType {
			t.Errorf("GeneralTypes %v: kindType(category) = %q, want %q", general, got, wantType)
		}
		pred, err := p.Predict(context.Background(), data.Query{Text: q, ID: -1})
		if err != nil || pred.Reach == nil || !slices.Contains(pred.Reach.Nodes, want) {
			t.Errorf("GeneralTypes %v: %q planned %v reaching %v (%v), want %d", general, q, pred.Plan.MetapathTokens(), pred.Reach, err, want)
		}
		if !general {
			continue
		}
		for w, want := range map[string]string{"categories": "genre", "variety": "genre", "production": "movie", "sort": "", "collection": "", "screenwriters": "person"} {
			if got := p.kindType(w, false); got != want {
				t.Errorf("kindType(%q) = %q, want %q", w, got, want)
			}
		}
		p.words = &wordResolver{known: map[string]bool{"category": true}}
		if got := p.kindType("category", false); got != "" {
			t.Errorf("kindType of a word the training used = %q, want none", got)
		}
		for uses, want := range map[int]string{4: "genre", 5: ""} {
			p.words = &wordResolver{known: map[string]bool{}, uses: map[string]int{"kind": uses}}
			if got := p.kindType("category", false); got != want {
				t.Errorf("\"kind\" in %d training questions: kindType(category) = %q, want %q", uses, got, want)
			}
		}
	}
}

// TestTypeAfterAnchor: in "Show me the titles in the Drama genre that
// Paul Smith directed." the first word naming a type is "genre", which
// says what the anchor Drama is, so without TypeAfterAnchor the question
// asks for a genre: the films of the genre Paul Smith directed (nodes 1
// and 2; the ranker's choice here, two paths weighing 10) are ruled out
// and the genre every one of his films has (Drama, node 3) answers. With
// it, no type is asked and the ranker's choice stands. A type word after an
// anchor that names another type than the anchor's stays ("Paul Smith
// films": a person's films).
func TestTypeAfterAnchor(t *testing.T) {
	q := "Show me the titles in the Drama genre that Paul Smith directed."
	both := [][]string{{"genre", "<-has_genre", "movie"}, {"*", "<-directed_by", "movie"}}
	for _, after := range []bool{false, true} {
		p := genrePlannerWith(t, AnchorConfig{NamedType: true, TypeAfterAnchor: after}, both)
		p.Ranker.W.Data()[featureIndex(p.Ranker.Dim, "paths2")] = 10
		want := uint32(3)
		if after {
			want = 1
		}
		pred, err := p.Predict(context.Background(), data.Query{Text: q, ID: -1})
		if err != nil || pred.Reach == nil || !slices.Contains(pred.Reach.Nodes, want) {
			t.Errorf("TypeAfterAnchor %v: %q planned %v reaching %v (%v), want %d", after, q, pred.Plan.MetapathTokens(), pred.Reach, err, want)
		}
		if !after {
			continue
		}
		text := "Paul Smith films in the Drama genre, Drama  genre"
		ments := []linking.LinkedMention{{Start: 0, End: 10}, {Start: 24, End: 29}, {Start: 37, End: 42}}
		c := &PlanCandidate{Mentions: []int{0, 1, 2}, Plan: data.Plan{Anchors: []data.PlanAnchor{{Nodes: []uint32{0}}, {Nodes: []uint32{3}}, {Nodes: []uint32{3}}}}}
		if got, want := p.withoutAnchorTypeWords(text, ments, c), "Paul Smith films in the Drama      , Drama       "; got != want {
			t.Errorf("withoutAnchorTypeWords = %q, want %q", got, want)
		}
	}
}

// TestSiblingTypes: "type" names no type as a kind of a schema word, nor
// as a more general one (a type is a kind, as a genre is: they are
// siblings), and it may be a verb (to type). With NounSlots and
// SiblingTypes, after the asking word "which", where only a noun stands,
// it names the type its hypernym (kind) names as a more general word:
// "Which type of film did Paul Smith direct?" asks for a genre, and the
// ranker's choice, his films (node 1), gives way to the genre every one
// of them has (Drama, node 3). Either setting alone leaves the films;
// outside such a slot a verb's form still names no type; "show" names
// movie (a film is a show; a show is no kind of a movie), "style" and
// "table" none (their hypernyms are more general than no schema word).
func TestSiblingTypes(t *testing.T) {
	q := "Which type of film did Paul Smith direct?"
	for _, c := range []struct {
		sibling, slots bool
		want           uint32
		wantType       string
	}{{false, false, 1, ""}, {true, false, 1, ""}, {false, true, 1, ""}, {true, true, 3, "genre"}} {
		p := genrePlannerWith(t, AnchorConfig{NamedType: true, KindTypes: true, GeneralTypes: true, SiblingTypes: c.sibling, NounSlots: c.slots, AskWords: []string{"which"}})
		if got := p.kindType("type", true); got != c.wantType {
			t.Errorf("SiblingTypes %v NounSlots %v: kindType(type) in a noun's slot = %q, want %q", c.sibling, c.slots, got, c.wantType)
		}
		pred, err := p.Predict(context.Background(), data.Query{Text: q, ID: -1})
		if err != nil || pred.Reach == nil || !slices.Contains(pred.Reach.Nodes, c.want) {
			t.Errorf("SiblingTypes %v NounSlots %v: %q planned %v reaching %v (%v), want %d", c.sibling, c.slots, q, pred.Plan.MetapathTokens(), pred.Reach, err, c.want)
		}
		if !c.sibling || !c.slots {
			continue
		}
		for w, want := range map[string]string{"types": "genre", "sort": "genre", "show": "movie", "style": "", "table": ""} {
			if got := p.kindType(w, true); got != want {
				t.Errorf("kindType(%q) in a noun's slot = %q, want %q", w, got, want)
			}
		}
		if got := p.kindType("type", false); got != "" {
			t.Errorf("kindType(type) outside a noun's slot = %q, want none (a verb's form)", got)
		}
		// The hypernym lies between the type's word and the word: one the
		// training used in 5 questions or more naming no type there says
		// the word names none.
		p.words = &wordResolver{known: map[string]bool{}, uses: map[string]int{"kind": 5}}
		if got := p.kindType("type", true); got != "" {
			t.Errorf("\"kind\" in 5 training questions: kindType(type) = %q, want none", got)
		}
	}
}

// TestNounSlots: right after a determiner a word that may be a noun is
// read through its noun senses alone: "type" (a noun, and a verb whose
// hypernym is to write) is read as "wrote" anywhere else, and not after
// "which"; "performers" is read as "actors" there as before, and
// "screenwriters" as "wrote" (a screenwriter writes: a noun sense); a
// word that may be no noun ("helmed") keeps its readings; after "that",
// or "which" a noun comes before (a relative clause: "films which type
// X"), a word is no noun's.
func TestNounSlots(t *testing.T) {
	r := slotResolver(t)
	wantReadCases(t, "nounSlots", func(on bool) { r.nounSlots = on }, r, []readCase{
		{"Which type of film did she write?", "Which type of film did she write?", "Which wrote of film did she write?"},
		{"Did she type it?", "Did she wrote it?", "Did she wrote it?"},
		{"Which performers did she hire?", "Which actors did she hire?", "Which actors did she hire?"},
		{"Who were the screenwriters behind it?", "Who were the wrote behind it?", "Who were the wrote behind it?"},
		{"films that type X", "films that wrote X", "films that wrote X"},
		{"films which type X", "films which wrote X", "films which wrote X"},
		{"In 1990, which type of film?", "In 1990, which type of film?", "In 1990, which wrote of film?"},
		{"The films she helmed", "The films she directed", "The films she directed"},
	})
}

// slotResolver is a word resolver with the embedded lexicon over four of
// movies-skb's schema words, "write" known: "type" (to type is to write)
// is read "wrote", "performers" "actors", "helmed" "directed".
func slotResolver(t *testing.T) *wordResolver {
	t.Helper()
	lex, err := lexicon.WordNet()
	if err != nil {
		t.Fatal(err)
	}
	targets := []string{"wrote", "directed", "actors", "genre"}
	return &wordResolver{lex: lex, match: lex.NewMatcher(targets), known: map[string]bool{"write": true}, memo: map[string][]string{}, names: map[string]string{"wrote": "written_by", "directed": "directed_by", "actors": "starred_actors", "genre": "genre"}}
}

// readCase is a text and how a resolver reads it with a switch on and
// off.
type readCase struct{ text, on, off string }

// wantReadCases resolves each case's text with set(true) and set(false)
// and wants the reading the case gives for each.
func wantReadCases(t *testing.T, rule string, set func(on bool), r *wordResolver, cases []readCase) {
	t.Helper()
	find := func(string) []linking.LinkedMention { return nil }
	for _, c := range cases {
		for _, on := range []bool{true, false} {
			set(on)
			want := c.off
			if on {
				want = c.on
			}
			if got, _ := r.resolve(c.text, find); got != want {
				t.Errorf("%s %v: %q read as %q, want %q", rule, on, c.text, got, want)
			}
		}
	}
}

// TestDeeperAsked: when the type a question asks for rules out every
// candidate (here only the films Paul Smith directed are left: the
// classifier put the genre template beyond its top ones), the deeper
// search, with DeeperAsked, tries the templates whose last step the
// data's edges take to that type: the genre every one of his films has
// (template 1, "->has_genre" ends at genres), not his films (template
// 0) nor the films of a genre he directed (template 2, whose paths end
// at films). Without it nothing names a relation or an answer's step, and
// no deeper search is tried.
func TestDeeperAsked(t *testing.T) {
	q := "Which type of film did Paul Smith direct?"
	for _, deeperAsked := range []bool{false, true} {
		p := genrePlannerWith(t, AnchorConfig{NamedType: true, KindTypes: true, GeneralTypes: true, SiblingTypes: true, NounSlots: true, DeeperSearch: true, DeeperAsked: deeperAsked, AskWords: []string{"which"}},
			[][]string{{"genre", "<-has_genre", "movie"}, {"*", "<-directed_by", "movie"}})
		ctx := context.Background()
		cs, ments, err := p.candidates(ctx, data.Query{Text: q}, nil, 0, nil, false)
		if err != nil {
			t.Fatal(err)
		}
		cs = slices.DeleteFunc(cs, func(c PlanCandidate) bool { return c.Template == 1 })
		if len(cs) == 0 {
			t.Fatal("no candidate of template 0")
		}
		key, least, err := p.ruleOutRead(ctx, q, ments, cs, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		if least < 1<<20 {
			t.Fatalf("least %d: the asked genre rules out no film", least)
		}
		more := p.deeper(q, ments, cs, key, least, nil, nil)
		if !deeperAsked {
			if more != nil {
				t.Errorf("DeeperAsked off: a deeper search is tried")
			}
			continue
		}
		if more == nil {
			t.Fatal("DeeperAsked: no deeper search")
		}
		for ti, want := range []bool{false, true, false} {
			if got := more(ti, nil, nil); got != want {
				t.Errorf("DeeperAsked: template %d tried %v, want %v", ti, got, want)
			}
		}
	}
}

// TestHyphenModifiers: a hyphened word before another word modifies it;
// after an asking word the noun's slot is past it (NounSlots): "Which
// Sioux-language films ..." asks for films, though the Sioux are a
// people (a kind of person four links up); without NounSlots it asks
// for people. Not a hyphened word before a stop word ("co-stars of X")
// nor one that ends the text; and only the tokens of the hyphened word
// itself: "category" after "which" stays the slot's word though
// "category-defining" comes later.
func TestHyphenModifiers(t *testing.T) {
	for text, want := range map[string][]bool{
		"Which Sioux-language movies have X?":     {false, true, true, false, false},
		"which well-known actors in sci-fi films": {false, true, true, false, false, true, true, false},
		"Which co-stars of X acted in 1999?":      {false, false, false, false, false, false, false},
		"Films by X, in black-and-white":          {false, false, false, false, false, false},
		"Name the 2001 films - in English":        {false, false, false, false, false, false},
	} {
		got := hyphenModifiers(text)
		if !slices.Equal(got, want) {
			t.Errorf("hyphenModifiers(%q) = %v, want %v", text, got, want)
		}
	}
	for _, c := range []struct {
		q, want string
		slots   bool
	}{
		{"Which Sioux-language films did Paul Smith direct?", "person", false},
		{"Which Sioux-language films did Paul Smith direct?", "movie", true},
		{"Which category do Paul Smith's category-defining films fall into?", "genre", true},
	} {
		p := genrePlannerWith(t, AnchorConfig{NamedType: true, KindTypes: true, GeneralTypes: true, NounSlots: c.slots, AskWords: []string{"which"}})
		if got, named := p.askedTypeBy(c.q, nil); got != c.want || !named {
			t.Errorf("NounSlots %v: %q asks for %q (named %v), want %q", c.slots, c.q, got, named, c.want)
		}
	}
}

// TestStartsFrom: a template's first step starts where the data's edges
// of its relation do: "<-directed_by" from a person (Paul Smith, node 0;
// films are directed by people), not from a film (node 1); "->has_genre"
// from a film, not from a person; a template of two paths needs both; a
// step along any relation starts anywhere.
func TestStartsFrom(t *testing.T) {
	p := genrePlanner(t, false)
	directed := data.MustPaths([]string{"*", "<-directed_by", "movie"})
	genre := data.MustPaths([]string{"*", "->has_genre", "genre"})
	both := data.MustPaths([]string{"*", "<-directed_by", "movie"}, []string{"*", "->has_genre", "genre"})
	anyRel := data.MustPaths([]string{"*", "<-directed_by", "movie"})
	anyRel[0].Steps[0].Rels = nil // any relation: it starts anywhere
	for _, c := range []struct {
		tmpl  []data.Path
		nodes [][]uint32
		want  bool
	}{
		{directed, [][]uint32{{0}}, true},
		{directed, [][]uint32{{1}}, false},
		{directed, [][]uint32{{1, 0}}, true},
		{genre, [][]uint32{{1}}, true},
		{genre, [][]uint32{{0}}, false},
		{both, [][]uint32{{0}, {1}}, true},
		{both, [][]uint32{{0}, {0}}, false},
		{anyRel, [][]uint32{{1}}, true},
	} {
		if got := p.startsFrom(c.tmpl, c.nodes); got != c.want {
			t.Errorf("startsFrom(%v, %v) = %v, want %v", c.tmpl, c.nodes, got, c.want)
		}
	}
}

// TestDeeperLongerNamed: "Who has written Primal Fear Film?" anchors the
// one trained template (a person's films) on "Fear", a person inside the
// film's name; the deeper search for the longer mention tries two more
// templates anchored on the film, and the schema's steps come in the
// order starred_actors, directed_by, written_by. With DeeperAsked the
// ones tried walk what the question names ("written": written_by, as the
// training bore out), so the film's writer (Kim Ray, node 3) answers;
// without it, the first two steps are tried and the film's cast (Ann
// Lee, node 2) answers, the ranker having no other say.
func TestDeeperLongerNamed(t *testing.T) {
	q := "Who has written Primal Fear Film?"
	for _, c := range []struct {
		deeperAsked bool
		want        uint32
	}{{false, 2}, {true, 3}} {
		rw := &RelWords{N: 10, Rels: map[string]int{"written_by": 10}, Words: map[string]int{"written": 10}, Pairs: map[string]map[string]int{"written": {"written_by": 10}}}
		p := filmPlannerSteps(t, []string{"starred_actors", "directed_by", "written_by"}, []string{"Fear", "Primal Fear Film", "Ann Lee", "Kim Ray", "Other Film", "Jo Dunn"},
			[][3]int{{1, 0, 2}, {1, 2, 3}, {4, 0, 0}, {1, 1, 5}},
			[][][]string{{{"*", "<-starred_actors", "movie"}}},
			[][]string{{"*", "->starred_actors", "person"}, {"*", "->directed_by", "person"}, {"*", "->written_by", "person"}},
			AnchorConfig{TopTemplates: 1, InnerAnchors: true, LongerAnchors: true, DeeperSearch: true, DeeperAsked: c.deeperAsked, NamedRelations: true, RelWords: rw})
		pred, err := p.Predict(context.Background(), data.Query{Text: q, ID: -1})
		if err != nil || pred.Reach == nil || !slices.Equal(pred.Reach.Nodes, []uint32{c.want}) {
			t.Errorf("DeeperAsked %v: %q planned %v reaching %v (%v), want [%d]", c.deeperAsked, q, pred.Plan.MetapathTokens(), pred.Reach, err, c.want)
		}
	}
}

// TestDeeperNamedOutside: "Who directed Lone Star Film?" anchors the one
// trained template (a film's cast) on the film, and "directed" rules it
// out; the deeper search tries templates that walk the relations the
// question names outside the anchors: directed_by, so the schema's step
// finds the film's director (Kim Ray, node 2). Read from the whole
// question, the film's "Star" named starred_actors too, no template
// walked both, and the cast (Ann Lee, node 1) answered.
func TestDeeperNamedOutside(t *testing.T) {
	q := "Who directed Lone Star Film?"
	rw := &RelWords{N: 20, Rels: map[string]int{"starred_actors": 10, "directed_by": 10}, Words: map[string]int{"directed": 10, "star": 10},
		Pairs: map[string]map[string]int{"directed": {"directed_by": 10}, "star": {"starred_actors": 10}}}
	p := filmPlannerSteps(t, []string{"starred_actors", "directed_by"}, []string{"Lone Star Film", "Ann Lee", "Kim Ray"},
		[][3]int{{0, 0, 1}, {0, 1, 2}},
		[][][]string{{{"*", "->starred_actors", "person"}}},
		[][]string{{"*", "->directed_by", "person"}},
		AnchorConfig{TopTemplates: 1, DeeperSearch: true, NamedRelations: true, RelWords: rw})
	lex, err := lexicon.WordNet()
	if err != nil {
		t.Fatal(err)
	}
	p.names.setLexicon(lex)
	if got := p.namedRelations(q, nil); len(got) != 2 {
		t.Fatalf("the whole question names %v, want directed_by and starred_actors", got)
	}
	pred, err := p.Predict(context.Background(), data.Query{Text: q, ID: -1})
	if err != nil || pred.Reach == nil || !slices.Equal(pred.Reach.Nodes, []uint32{2}) {
		t.Errorf("%q planned %v reaching %v (%v), want [2]", q, pred.Plan.MetapathTokens(), pred.Reach, err)
	}
}

// TestTypeAfterMention: in "Show me the titles in the Drama genre that
// Paul Smith directed." no template anchors on Drama, so TypeAfterAnchor
// leaves "genre", and the question asks for a genre: the genre every one
// of Paul Smith's films has (Drama, node 3) answers, and "genre" is the
// answer word of the step ->has_genre. With TypeAfterMention "genre" says
// what the mention Drama is: no type is asked, no answer word stands in
// the lead, and his films (node 1) answer.
func TestTypeAfterMention(t *testing.T) {
	q := "Show me the titles in the Drama genre that Paul Smith directed."
	for _, on := range []bool{false, true} {
		p := genrePlannerWith(t, AnchorConfig{NamedType: true, TypeAfterAnchor: true, TypeAfterMention: on})
		want, wantStep := uint32(3), "->has_genre"
		if on {
			want, wantStep = 1, ""
		}
		pred, err := p.Predict(context.Background(), data.Query{Text: q, ID: -1})
		if err != nil || pred.Reach == nil || !slices.Contains(pred.Reach.Nodes, want) {
			t.Errorf("TypeAfterMention %v: %q planned %v reaching %v (%v), want %d", on, q, pred.Plan.MetapathTokens(), pred.Reach, err, want)
		}
		ments := p.findMentions(q)
		smith := slices.IndexFunc(ments, func(m linking.LinkedMention) bool { return m.Text == "Paul Smith" })
		if smith < 0 {
			t.Fatalf("no mention of Paul Smith in %q: %+v", q, ments)
		}
		p.Cfg.Anchors.AnswerWords = map[string]string{"genre": "->has_genre"}
		c := &PlanCandidate{Mentions: []int{smith}, Plan: data.Plan{Anchors: []data.PlanAnchor{{Nodes: []uint32{0}}}}}
		if got := p.answerStep(q, ments, c, nil, nil); got != wantStep {
			t.Errorf("TypeAfterMention %v: answerStep = %q, want %q", on, got, wantStep)
		}
	}
}

// TestReadNoKind: "varieties" names a genre as a general type (a genre
// is a kind, and a kind is a variety) until ReadNoKind, with which the
// lexicon reads it as "kinds", a training word of a synonym whose
// questions name no type, and it names none. A word read only one
// hypernym link from its training word ("performers": actors) still
// names its type as a kind (person), and a word the lexicon reads as
// nothing the training used ("category") keeps its general type.
func TestReadNoKind(t *testing.T) {
	rw := NewRelWords()
	for range 10 {
		rw.Add("the kinds of", []string{"has_genre"})
		rw.Add("the actors", []string{"directed_by"})
	}
	for _, rule := range []bool{false, true} {
		p := genrePlannerWith(t, AnchorConfig{NamedType: true, KindTypes: true, GeneralTypes: true, ReadNoKind: rule, Lexicon: true, RelWords: rw, AskWords: []string{"which"}})
		if p.words == nil {
			t.Fatal("no word resolver")
		}
		for w, want := range map[string]string{"varieties": "genre", "performers": "person", "category": "genre"} {
			if rule && w == "varieties" {
				want = ""
			}
			if got := p.kindType(w, false); got != want {
				t.Errorf("ReadNoKind %v: kindType(%q) = %q, want %q", rule, w, got, want)
			}
		}
	}
}

// TestPlainDeterminers: in training "any" comes with questions that ask
// for people ("Did any actor ..."), so its lift names person; with
// PlainDeterminers a determiner that asks for nothing names no type, and
// "Any drama movies directed by Paul Smith?" asks for the movies it names.
// A word after it still names what it leans to ("actor").
func TestPlainDeterminers(t *testing.T) {
	el := NewRelWords()
	for range 10 {
		el.Add("did any actor work with", []string{"A:person"})
		el.Add("every actor who", []string{"A:person"})
	}
	for range 80 {
		el.Add("the drama", []string{"A:movie"})
	}
	for _, rule := range []bool{false, true} {
		p := genrePlannerWith(t, AnchorConfig{NamedType: true, Elements: el, PlainDeterminers: rule})
		for q, want := range map[string]string{
			"Any drama movies directed by ?":       "movie",
			"Any movies directed by ?":             "movie",
			"Any actor working with ?":             "person",
			"Every drama movie directed by  ?":     "movie",
			"Name the movies directed by , if any": "movie",
		} {
			if !rule && (strings.HasPrefix(q, "Any") || strings.HasPrefix(q, "Every")) {
				want = "person"
			}
			if got, _ := p.askedTypeBy(q, nil); got != want {
				t.Errorf("PlainDeterminers %v: askedTypeBy(%q) = %q, want %q", rule, q, got, want)
			}
		}
	}
}
