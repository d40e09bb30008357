package planner

import (
	"context"
	"slices"
	"testing"

	"github.com/strata-retrieval/strata/data"
)

// TestSaysTwo: a count of two ("two", "2", "second", "twice") or a kin
// two generations away ("grandchildren") outside the quotations says a
// depth; "grand" before another word, a count inside a quotation, or a
// plain question does not.
func TestSaysTwo(t *testing.T) {
	for text, want := range map[string]bool{
		"Which words sit two levels below X in the hierarchy?":      true,
		"Name the second-level subcategories beneath X.":            true,
		"list the grandchildren of X in the taxonomy":               true,
		"Who are the grandparents of X?":                            true,
		"X's subtypes, twice over":                                  true,
		"Going 2 steps down from X":                                 true,
		"Which grand piano is a kind of X?":                         false,
		"Which kind of X is defined as 'a set of two'?":             false,
		"Of the senses of odyssey, which are a kind of journeying?": false,
		"What are the subtypes of the subtypes of X?":               false, // nested, not counted
	} {
		if got := saysTwo(text, true); got != want {
			t.Errorf("saysTwo(%q) = %v, want %v", text, got, want)
		}
	}
}

// TestLearnDepthSaid: the training bears the rule out when at least
// minDepthQuestions of its questions walk one relation twice in a row or
// say a depth, and nine in ten of those do both.
func TestLearnDepthSaid(t *testing.T) {
	once := &data.Plan{Paths: data.MustPaths([]string{"*", "<-hypernym", "*"})}
	twice := &data.Plan{Paths: data.MustPaths([]string{"*", "<-hypernym", "*", "<-hypernym", "*"})}
	build := func(both, twiceUnsaid, saidOnce, plain int) ([]string, []*data.Plan) {
		var rs []string
		var ps []*data.Plan
		add := func(n int, r string, p *data.Plan) {
			for range n {
				rs, ps = append(rs, r), append(ps, p)
			}
		}
		add(both, "the kinds that lie two levels below", twice)
		add(twiceUnsaid, "the kinds of", twice)
		add(saidOnce, "the second kind of", once)
		add(plain, "the kinds of", once)
		return rs, ps
	}
	for _, c := range []struct {
		both, twiceUnsaid, saidOnce, plain int
		want                               bool
	}{
		{18, 1, 1, 100, true},
		{17, 1, 1, 0, false}, // 19 walk twice or say a depth: too few
		{27, 2, 1, 0, true},
		{26, 2, 2, 0, false}, // 26 of 30: under nine in ten
		{0, 0, 0, 500, false},
	} {
		rs, ps := build(c.both, c.twiceUnsaid, c.saidOnce, c.plain)
		got, n, k := LearnDepthSaid(rs, ps)
		if wantN := c.both + c.twiceUnsaid + c.saidOnce; got != c.want || n != wantN || k != c.both {
			t.Errorf("%+v: got %v (%d, %d), want %v (%d, %d)", c, got, n, k, c.want, wantN, c.both)
		}
	}
}

// TestDepthSaid: over kindsPlanner's tree (painting a kind of fine arts,
// watercolor a kind of painting), "Which words sit two levels below fine
// arts?" says the depth its ranker, preferring one hop, misses: with
// DepthSaid it answers watercolor, without it painting. A ranker
// preferring two hops answers "Which kinds of fine arts are there?",
// which says no depth, with watercolor; with DepthSaid, painting, and
// when only the two-hop candidate was tried the deeper search tries the
// one-hop template and no other.
func TestDepthSaid(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		q     string
		hops1 float32
		rule  bool
		want  uint32
	}{
		{"Which words sit two levels below fine arts?", 5, false, 1},
		{"Which words sit two levels below fine arts?", 5, true, 2},
		{"Which kinds of fine arts are there?", -5, false, 2},
		{"Which kinds of fine arts are there?", -5, true, 1},
		{"the grandchildren of fine arts", 5, true, 2},
	} {
		p := kindsPlannerHops(t, AnchorConfig{TopTemplates: 2, DeeperSearch: true, RepeatTwice: true, DepthSaid: c.rule}, c.hops1)
		pred, err := p.PredictUngated(ctx, data.Query{Text: c.q})
		if err != nil {
			t.Fatal(err)
		}
		if pred.Reach == nil || len(pred.Reach.Nodes) != 1 || pred.Reach.Nodes[0] != c.want {
			t.Errorf("DepthSaid %v, hops1 %v: %q answers %+v, want node %d", c.rule, c.hops1, c.q, pred.Reach, c.want)
		}
	}
	q := "Which kinds of fine arts are there?"
	p := kindsPlannerHops(t, AnchorConfig{TopTemplates: 2, DeeperSearch: true, RepeatTwice: true, DepthSaid: true}, -5)
	cs, ments, err := p.candidates(ctx, data.Query{Text: q}, nil, 0, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	key, _, err := p.ruleOut(ctx, q, ments, cs)
	if err != nil {
		t.Fatal(err)
	}
	var two []PlanCandidate
	var twoKey []int
	for i := range cs {
		if got := key[i]&(1<<7) != 0; got != (cs[i].Template == 1) {
			t.Errorf("%q: template %d weighed as walking twice unsaid: %v", q, cs[i].Template, got)
		}
		if cs[i].Template == 1 {
			two, twoKey = append(two, cs[i]), append(twoKey, key[i])
		}
	}
	if len(two) == 0 {
		t.Fatalf("%q: no two-hop candidate", q)
	}
	least := twoKey[0]
	for _, k := range twoKey {
		least = min(least, k)
	}
	more := p.deeper(q, ments, two, twoKey, least, nil, nil)
	if more == nil {
		t.Fatalf("%q: no deeper search", q)
	}
	for ti, want := range []bool{true, false} {
		if got := more(ti, nil, nil); got != want {
			t.Errorf("%q: deeper search tries template %d: %v, want %v", q, ti, got, want)
		}
	}
}

// TestNestedRelations: "subtypes" and "kinds", each borne out for the
// hypernym by the training (kindsRelWords), nest before "of" as a word
// said twice does; "parts" (the part holonym) and "kinds" do not, nor do
// the two words apart, nor words the training used too seldom. Over
// kindsPlanner's tree, "the subtypes of the kinds of fine arts" answers
// watercolor with NestedRelations where the ranker, preferring one hop,
// answers painting without it.
func TestNestedRelations(t *testing.T) {
	rw := kindsRelWords()
	p := &LinkingPlanner{Classifier: &Classifier{Cfg: Config{Anchors: &AnchorConfig{NestedRelations: true, RelWords: rw}}}}
	for text, want := range map[string]bool{
		"What are the subtypes of the kinds of":   true,
		"Which kinds of subtypes of":              true,
		"the subtypes of some specific kinds of":  true,
		"What are the parts of the kinds of":      false,
		"the subtypes of X and the kinds of":      false,
		"the varieties of the kinds of":           false, // "varieties": too few questions
		"What are the subtypes of 'the kinds of'": false,
		"X is made of the kinds of":               false, // "made": two relations
		"the subtypes of which kinds of":          false, // an asking word
	} {
		if got := p.nestsRelation(text); got != want {
			t.Errorf("nestsRelation(%q) = %v, want %v", text, got, want)
		}
	}
	p.Cfg.Anchors.NestedRelations = false
	if p.nestsRelation("What are the subtypes of the kinds of") {
		t.Error("nestsRelation without NestedRelations")
	}
	ctx := context.Background()
	q := "the subtypes of the kinds of fine arts"
	for rule, want := range map[bool]uint32{false: 1, true: 2} {
		p := kindsPlannerHops(t, AnchorConfig{TopTemplates: 2, DeeperSearch: true, RepeatTwice: true, DepthSaid: true, NestedRelations: rule, RelWords: rw}, 5)
		pred, err := p.PredictUngated(ctx, data.Query{Text: q})
		if err != nil {
			t.Fatal(err)
		}
		if pred.Reach == nil || len(pred.Reach.Nodes) != 1 || pred.Reach.Nodes[0] != want {
			t.Errorf("NestedRelations %v: %q answers %+v, want node %d", rule, q, pred.Reach, want)
		}
	}
}

// kindsRelWords are relation words as a training of 52 questions bears
// them out: "subtypes" and "kinds" with the hypernym in 10 each, "parts"
// with the part holonym in 10, "varieties" with the hypernym in 2, "made"
// with the hypernym and the substance holonym in 10, "type" with the
// hypernym in 10.
func kindsRelWords() *RelWords {
	rw := NewRelWords()
	for range 10 {
		rw.Add("the subtypes of", []string{"hypernym"})
		rw.Add("the kinds of", []string{"hypernym"})
		rw.Add("the parts of", []string{"part holonym"})
	}
	for range 2 {
		rw.Add("the varieties of", []string{"hypernym"})
	}
	for range 10 {
		rw.Add("the substances it is made of", []string{"hypernym", "substance holonym"})
		rw.Add("which type of", []string{"hypernym"})
	}
	return rw
}

// TestNestedKin: with NestedKin and the lexicon, "types", a word no
// training question used, reads as "type", which the training bears out
// for the hypernym, and so nests with "kinds"; "forms", a word the
// training used for two relations, nests with "kinds", its synonym in
// kind's most frequent sense, but not with "parts", which the lexicon
// does not relate to it, nor with "subtypes", of which it is no synonym.
// Without NestedKin none of them nests. Over kindsPlanner's tree, "the
// forms of the kinds of fine arts" answers watercolor with NestedKin
// where the ranker, preferring one hop, answers painting without it.
func TestNestedKin(t *testing.T) {
	rw := kindsRelWords()
	for range 5 {
		rw.Add("the forms of", []string{"hypernym"})
		rw.Add("it forms part of", []string{"part holonym"})
	}
	a := func(kin bool) AnchorConfig {
		return AnchorConfig{TopTemplates: 2, DeeperSearch: true, RepeatTwice: true, DepthSaid: true, NestedRelations: true, NestedKin: kin, Lexicon: true, RelWords: rw}
	}
	for _, kin := range []bool{false, true} {
		p := kindsPlannerHops(t, a(kin), 5)
		if p.words == nil {
			t.Fatal("no word resolver")
		}
		for text, want := range map[string]bool{
			"What are the types of the kinds of":  true,
			"the types of the subtypes of":        true,
			"What are the forms of the kinds of":  true,
			"Which kinds of forms of":             true,
			"What are the parts of the forms of":  false,
			"What are the forms of the parts of":  false,
			"the forms of the subtypes of":        false,
			"What are the subtypes of 'types of'": false,
		} {
			if got := p.nestsRelation(text); got != (want && kin) {
				t.Errorf("NestedKin %v: nestsRelation(%q) = %v, want %v", kin, text, got, want && kin)
			}
		}
		q := "the forms of the kinds of fine arts"
		want := map[bool]uint32{false: 1, true: 2}[kin]
		pred, err := p.PredictUngated(context.Background(), data.Query{Text: q})
		if err != nil {
			t.Fatal(err)
		}
		if pred.Reach == nil || len(pred.Reach.Nodes) != 1 || pred.Reach.Nodes[0] != want {
			t.Errorf("NestedKin %v: %q answers %+v, want node %d", kin, q, pred.Reach, want)
		}
	}
}

// TestLearnDepthPairs: the training's questions that walk a hypernym step
// then an instance hypernym step say a depth nine times in ten or more
// ("the kinds of the kinds of"), those that walk a hypernym step then a
// part holonym step never do ("the parts of the kinds of"), and a
// relation walked twice is walksTwice's, no pair's; fewer than
// minDepthQuestions, or under nine in ten, learn nothing.
func TestLearnDepthPairs(t *testing.T) {
	inst := &data.Plan{Paths: data.MustPaths([]string{"*", "<-hypernym", "*", "<-instance hypernym", "*"})}
	part := &data.Plan{Paths: data.MustPaths([]string{"*", "<-hypernym", "*", "<-part holonym", "*"})}
	twice := &data.Plan{Paths: data.MustPaths([]string{"*", "<-hypernym", "*", "<-hypernym", "*"})}
	for _, c := range []struct {
		said, unsaid int
		want         [][2]string
	}{
		{20, 2, [][2]string{{"<-hypernym", "<-instance hypernym"}}},
		{19, 0, nil}, // too few
		{18, 3, nil}, // 18 of 21: under nine in ten
	} {
		var rs []string
		var ps []*data.Plan
		add := func(n int, r string, p *data.Plan) {
			for range n {
				rs, ps = append(rs, r), append(ps, p)
			}
		}
		add(c.said, "the kinds of the kinds of", inst)
		add(c.unsaid, "the named", inst)
		add(30, "the parts of the kinds of", part)
		add(30, "two levels below", twice)
		if got := LearnDepthPairs(rs, ps); !slices.Equal(got, c.want) {
			t.Errorf("%d said, %d unsaid: LearnDepthPairs = %v, want %v", c.said, c.unsaid, got, c.want)
		}
	}
}

// TestDepthPairs: painting is a kind of fine arts and Sunflowers an
// instance of painting. A ranker preferring two steps answers "Which
// kinds of fine arts are there?", which says no depth, with Sunflowers;
// with the hypernym-then-instance pair learned (DepthPairs) the two-step
// candidate is deep, weighed as walking a relation twice unsaid, and the
// answer is painting. "Which words sit two levels below fine arts?" says
// the depth and keeps Sunflowers either way.
func TestDepthPairs(t *testing.T) {
	ctx := context.Background()
	s := nounTree([]string{"hypernym", "instance hypernym"}, "Sunflowers", 1)
	for _, c := range []struct {
		q     string
		pairs [][2]string
		want  uint32
	}{
		{"Which kinds of fine arts are there?", nil, 2},
		{"Which kinds of fine arts are there?", [][2]string{{"<-hypernym", "<-instance hypernym"}}, 1},
		{"Which words sit two levels below fine arts?", [][2]string{{"<-hypernym", "<-instance hypernym"}}, 2},
	} {
		p := testPlanner(t, s, [][]data.Path{
			data.MustPaths([]string{"*", "<-hypernym", "*"}),
			data.MustPaths([]string{"*", "<-hypernym", "*", "<-instance hypernym", "*"}),
		}, 0, -5, AnchorConfig{TopTemplates: 2, DeeperSearch: true, RepeatWords: true, RepeatTwice: true, DepthSaid: true, DepthPairs: c.pairs})
		pred, err := p.PredictUngated(ctx, data.Query{Text: c.q})
		if err != nil {
			t.Fatal(err)
		}
		if pred.Reach == nil || len(pred.Reach.Nodes) != 1 || pred.Reach.Nodes[0] != c.want {
			t.Errorf("DepthPairs %v: %q answers %+v, want node %d", c.pairs, c.q, pred.Reach, c.want)
		}
	}
}
