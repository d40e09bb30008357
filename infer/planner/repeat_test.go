package planner

import (
	"context"
	"testing"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/data/lexicon"
)

// TestNestsWord: a word said twice, each time before "of", outside the
// quotations, the second right after the first "of" (past determiners
// and up to maxNestGap words), nests one relation in itself; said twice
// otherwise, or of two things, it does not.
func TestNestsWord(t *testing.T) {
	for text, want := range map[string]bool{
		"hyponyms of hyponyms of fine arts":                                    true,
		"What are the subtypes of the subtypes of ion?":                        true,
		"Which concepts are a specific kind of some specific kind of dryer?":   true,
		"Which entries are kinds of some direct kind of eye disease?":          true,
		"Among the possible genus, which is counted among the members of X?":   false,
		"What subtype of bulbous plant is defined as '... bulbous herb of X'?": false,
		"Which subtype of orchid has 'a subtype of orchid of the bogs' in it?": false,
		"the subtypes of X and the subtypes of Y":                              false,
		"a kind of fruit and a kind of dessert":                                false,
		"Which part of a car is part of the engine?":                           false,
		"a kind of some very specific kind of X":                               false,
		"the subtypes of X, subtypes too":                                      false,
		"the 1999 of the 1999 of X":                                            false,
		"Which of the films of Paul Smith":                                     false,
	} {
		if got := nestsWord(text); got != want {
			t.Errorf("nestsWord(%q) = %v, want %v", text, got, want)
		}
	}
}

// TestLearnRepeatTwice: the training bears the rule out when at least
// minNestedQuestions of its questions nest a word and at least half of
// those walk one relation twice in a row; questions that nest none count
// for nothing.
func TestLearnRepeatTwice(t *testing.T) {
	once := &data.Plan{Paths: data.MustPaths([]string{"*", "<-hypernym", "*"})}
	twice := &data.Plan{Paths: data.MustPaths([]string{"*", "<-hypernym", "*", "<-hypernym", "*"})}
	turn := &data.Plan{Paths: data.MustPaths([]string{"*", "<-hypernym", "*", "->hypernym", "*"})}
	build := func(nTwice, nOnce, plain int, other *data.Plan) ([]string, []*data.Plan) {
		var rs []string
		var ps []*data.Plan
		for range nTwice {
			rs, ps = append(rs, "the subtypes of the subtypes of"), append(ps, twice)
		}
		for range nOnce {
			rs, ps = append(rs, "the kinds of the kinds of"), append(ps, other)
		}
		for range plain {
			rs, ps = append(rs, "the subtypes of"), append(ps, twice)
		}
		return rs, ps
	}
	for _, c := range []struct {
		nTwice, nOnce, plain int
		other                *data.Plan
		want                 bool
	}{
		{10, 10, 0, once, true},
		{9, 11, 0, once, false},
		{9, 10, 50, once, false}, // 19 nest a word: too few
		{10, 10, 0, turn, true},
		{0, 20, 0, turn, false}, // a turn back is no relation twice in a row
	} {
		rs, ps := build(c.nTwice, c.nOnce, c.plain, c.other)
		got, n, k := LearnRepeatTwice(rs, ps)
		if got != c.want || n != c.nTwice+c.nOnce || k != c.nTwice {
			t.Errorf("%d twice, %d not, %d plain: got %v (%d, %d), want %v (%d, %d)", c.nTwice, c.nOnce, c.plain, got, n, k, c.want, c.nTwice+c.nOnce, c.nTwice)
		}
	}
}

// kindsPlanner is a linking planner over a small hypernym tree: painting
// (node 1) is a kind of fine arts (node 0), watercolor (node 2) a kind of
// painting. Its templates are the kinds of an anchor and the kinds of
// those; its plan ranker prefers one-hop plans by 5, as a ranker fooled
// by a word no training question used would.
func kindsPlanner(t *testing.T, a AnchorConfig) *LinkingPlanner {
	t.Helper()
	return kindsPlannerHops(t, a, 5)
}

// kindsPlannerHops is kindsPlanner with its ranker's one-hop feature
// weighing hops1 (negative: preferring two hops).
// nounTree is an SKB of one node type, "noun", with relations rels:
// painting is a kind of fine arts (rels[0], the hypernym) and third (a
// node of that name) is linked to painting by rels[rel].
func nounTree(rels []string, third string, rel data.RelID) *data.SKB {
	s := &data.SKB{Schema: data.Schema{Format: data.FormatSKBDir, NodeTypes: []string{"noun"},
		RelationTypes: rels, CandidateTypes: []string{"noun"}, TextFields: []string{"name", "details"}}}
	for _, name := range []string{"fine arts", "painting", third} {
		s.Nodes = append(s.Nodes, data.Node{Type: 0, Name: name, Fields: []string{"", ""}})
	}
	s.Edges.Add(1, 0, 0)
	s.Edges.Add(2, rel, 1)
	return s
}

func kindsPlannerHops(t *testing.T, a AnchorConfig, hops1 float32) *LinkingPlanner {
	t.Helper()
	s := nounTree([]string{"hypernym"}, "watercolor", 0)
	a.RepeatWords = true
	return testPlanner(t, s, [][]data.Path{
		data.MustPaths([]string{"*", "<-hypernym", "*"}),
		data.MustPaths([]string{"*", "<-hypernym", "*", "<-hypernym", "*"}),
	}, 0, hops1, a)
}

// TestRepeatTwice: "hyponyms of hyponyms of fine arts" (a word no
// training question used) nests "hyponyms": with RepeatTwice the kinds
// of fine arts (painting) are ruled out for the kinds of its kinds
// (watercolor), which the ranker, preferring one hop, chose without it.
// With the two-hop template beyond the top ones, the deeper search tries
// it and no other. "the kinds of fine arts" nests nothing and keeps the
// ranker's choice.
func TestRepeatTwice(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		q     string
		rule  bool
		want  uint32
		ruled bool
	}{
		{"hyponyms of hyponyms of fine arts", false, 1, false},
		{"hyponyms of hyponyms of fine arts", true, 2, true},
		{"the hyponyms of fine arts", true, 1, false},
	} {
		p := kindsPlanner(t, AnchorConfig{TopTemplates: 2, DeeperSearch: true, RepeatTwice: c.rule})
		pred, err := p.PredictUngated(ctx, data.Query{Text: c.q})
		if err != nil {
			t.Fatal(err)
		}
		if pred.Reach == nil || len(pred.Reach.Nodes) != 1 || pred.Reach.Nodes[0] != c.want {
			t.Errorf("RepeatTwice %v: %q answers %+v, want node %d", c.rule, c.q, pred.Reach, c.want)
		}
		cs, ments, err := p.candidates(ctx, data.Query{Text: c.q}, nil, 0, nil, false)
		if err != nil {
			t.Fatal(err)
		}
		key, _, err := p.ruleOut(ctx, c.q, ments, cs)
		if err != nil {
			t.Fatal(err)
		}
		for i := range cs {
			if got := key[i]&(1<<9) != 0; got != (c.ruled && cs[i].Template == 0) {
				t.Errorf("RepeatTwice %v: %q template %d ruled out %v", c.rule, c.q, cs[i].Template, got)
			}
		}
		// The deeper search when only the one-hop template was tried.
		var one []PlanCandidate
		var oneKey []int
		for i := range cs {
			if cs[i].Template == 0 {
				one, oneKey = append(one, cs[i]), append(oneKey, key[i])
			}
		}
		if len(one) == 0 {
			t.Fatalf("%q: no one-hop candidate", c.q)
		}
		oneLeast := oneKey[0]
		for _, k := range oneKey {
			oneLeast = min(oneLeast, k)
		}
		more := p.deeper(c.q, ments, one, oneKey, oneLeast, nil, nil)
		if !c.ruled {
			if oneLeast != 0 || more != nil {
				t.Errorf("RepeatTwice %v: %q rules the one-hop plan out (%d) or searches deeper (%v)", c.rule, c.q, oneLeast, more != nil)
			}
			continue
		}
		if more == nil {
			t.Fatalf("%q: no deeper search", c.q)
		}
		for ti, want := range []bool{false, true} {
			if got := more(ti, nil, nil); got != want {
				t.Errorf("%q: deeper search tries template %d: %v, want %v", c.q, ti, got, want)
			}
		}
	}
}

// TestPossessiveNests: a word said before "of" and again right after a
// possessor of at most maxPossessorWords words, or right after that "of"
// where an anchor left the possessor out of a restriction, nests as "W of
// the W of X" does; a possessor followed by another word, a stop word
// before the possessor, an "of" after the word said again, or a
// possessor too long does not. p.nests reads it only with
// PossessiveNests.
func TestPossessiveNests(t *testing.T) {
	nestRule(t, "nestsPossessive", nestsPossessive, map[string]bool{
		"Which words are hyponyms of fire fighter's hyponyms?":           true,
		"Which words are hyponyms of the Amanita’s hyponyms?":            true,
		"Which words are hyponyms of  hyponyms?":                         true,
		"hyponyms of X's parts":                                          false,
		"the parts of the car's engine":                                  false,
		"hyponyms of hyponyms of X":                                      false,
		"the hyponyms of a very long odd old thing's hyponyms":           false,
		"the hyponyms that are in X's hyponyms":                          false,
		"kinds of 'kinds' in a quotation":                                false,
		"What are the parts of the kinds of X's car parts, not of cars?": false,
	}, "PossessiveNests", func(a *AnchorConfig, on bool) { a.PossessiveNests = on }, "Which words are hyponyms of fire fighter's hyponyms?")
}

// TestPossessiveChains: a word said right after itself as a possessor
// nests ("hypernym's hypernym", "hyponyms' hyponyms"), with the
// possessive's apostrophe after a plural's "s" as well; a possessor said
// before another word, or a quoted one, does not; and nests reads it
// only with PossessiveChains.
func TestPossessiveChains(t *testing.T) {
	nestRule(t, "possessiveChain", possessiveChain, map[string]bool{
		"Find the terms whose hypernym's hypernym is fire fighter.": true,
		"Which words are fire fighter's hyponyms' hyponyms?":        true,
		"List X's subtypes’ subtypes.":                              true,
		"List the kind's subtypes.":                                 false,
		"the hyponyms' parts":                                       false,
		"What is the dog's dog food?":                               false,
		"Which term means 'hypernym's hypernym'?":                   false,
		"Jones's Jones":                                             true,
		"its it's":                                                  false,
	}, "PossessiveChains", func(a *AnchorConfig, on bool) { a.PossessiveChains = on }, "Which words are fire fighter's hyponyms' hyponyms?")
}

// TestRelativeChains: a word said right before "whose" and again right
// after it, past "own", ending its noun phrase, nests (relativeChain);
// another word after "whose", a compound, a quotation or a stop word
// does not; and nests reads it only with RelativeChains.
func TestRelativeChains(t *testing.T) {
	nestRule(t, "relativeChain", relativeChain, map[string]bool{
		"Which synsets have a hypernym whose own hypernym is water vapor?": true,
		"Which synsets have a hypernym whose hypernym is water vapor?":     true,
		"the kinds whose kinds are X":                                      true,
		"synsets with hypernyms whose own hypernym is X":                   true,
		"a firm with a parent whose parent company is X":                   false,
		"of the planets whose orbit lies outside the earth's orbit":        false,
		"Which term means 'hypernym whose hypernym'?":                      false,
		"a hypernym whose own":                                             false,
		"a hypernym of X whose hypernym is Y":                              false,
	}, "RelativeChains", func(a *AnchorConfig, on bool) { a.RelativeChains = on }, "Which synsets have a hypernym whose own hypernym is water vapor?")
}

// TestSaidTwice: a plural or a preposition said twice anywhere outside
// quotations nests (saidTwice); a noun in the singular ("name", "orbit"),
// a stop word, a word said twice in a row or inside a quotation does
// not; and nests reads it only with SaidTwice.
func TestSaidTwice(t *testing.T) {
	lex, err := lexicon.WordNet()
	if err != nil {
		t.Fatal(err)
	}
	nestRule(t, "saidTwice", func(text string) bool { return saidTwice(lex, text, false) }, map[string]bool{
		"What is below the things directly below passementerie?":                                 true,
		"Under sarcoma, what are the hyponyms one level further down than its direct hyponyms?":  true,
		"Name the vaccinum labelled trade name in the dictionary.":                               false,
		"identify the one defined as: of the planets whose orbit lies outside the earth's orbit": false,
		"Which of the films is in the films?":                                                    true,
		"Which term means 'below the line below'?":                                               false,
		"the hyponyms hyponyms": false,
		"Among the possible animal order, what is counted among the constituents of order Charadriiformes?": false,
		"List the subtypes that X's subtypes have.":                                                         true,
		"What is it and what is it?":                                                                        false,
		"I'm trying to recall a word. It's a type of orchid, and its definition includes the words 'rare'.": false,
	}, "SaidTwice", func(a *AnchorConfig, on bool) { a.SaidTwice = on }, "What is below the things directly below passementerie?")
}

// TestSaidVerbs: "carries" is a plural noun's form (a carry) and a
// verb's; said twice, once with "it" right after it, it is the verb of
// a question that restates its statement, and with SaidVerbs nests
// nothing (saidTwice), while a plural said twice with no object pronoun
// after it ("the subtypes that X's subtypes have") and a preposition of
// place ("below ... below it") still nest.
func TestSaidVerbs(t *testing.T) {
	lex, err := lexicon.WordNet()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		text      string
		off, with bool
	}{
		{"A stronghold carries the usage note archaism. Which stronghold carries it?", true, false},
		{"Which stronghold carries it, and what else carries the note?", true, false},
		{"List the subtypes that X's subtypes have.", true, true},
		{"What lies below the things directly below it?", true, true},
	} {
		if got := saidTwice(lex, c.text, false); got != c.off {
			t.Errorf("saidTwice(%q, false) = %v, want %v", c.text, got, c.off)
		}
		if got := saidTwice(lex, c.text, true); got != c.with {
			t.Errorf("saidTwice(%q, true) = %v, want %v", c.text, got, c.with)
		}
	}
	p := lexPlanner(t)
	p.Cfg.Anchors.SaidTwice = true
	const q = "A stronghold carries the usage note archaism. Which stronghold carries it?"
	for _, on := range []bool{false, true} {
		p.Cfg.Anchors.SaidVerbs = on
		if got := p.nests(q); got == on {
			t.Errorf("SaidVerbs %v: nests(%q) = %v, want %v", on, q, got, !on)
		}
	}
}

// TestDepthBack: a plan that takes a step and then the same step the
// other way walks back (walksBack); where the question nests a word
// ("the terms beneath the terms beneath X"), with DepthBack a candidate
// that walks hypernym twice and then back up misses the repeat, as one
// that walks it once does; without it (checkpoints saved before it) it
// walks deep; the two steps down never miss.
func TestDepthBack(t *testing.T) {
	path := func(steps ...string) *data.Plan {
		ts := []string{"*"}
		for _, s := range steps {
			ts = append(ts, s, "*")
		}
		return &data.Plan{Paths: data.MustPaths(ts)}
	}
	var (
		down2    = path("<-hypernym", "<-hypernym")
		downBack = path("<-hypernym", "<-hypernym", "->hypernym")
		down1    = path("<-hypernym")
	)
	for _, c := range []struct {
		pl   *data.Plan
		want bool
	}{{down2, false}, {downBack, true}, {down1, false}, {path("->hypernym", "<-hypernym"), true}, {path("<-hypernym", "->part holonym"), false}} {
		if got := walksBack(c.pl); got != c.want {
			t.Errorf("walksBack(%v) = %v, want %v", c.pl.Paths, got, c.want)
		}
	}
	p := lexPlanner(t)
	p.Cfg.Anchors.RepeatTwice, p.Cfg.Anchors.SaidTwice = true, true
	const q = "Which terms come beneath the terms beneath X?"
	for _, on := range []bool{false, true} {
		p.Cfg.Anchors.DepthBack = on
		for _, c := range []struct {
			pl   *data.Plan
			want bool
		}{{down2, false}, {downBack, on}, {down1, true}} {
			if got := p.repeatMisses(q, nil, &PlanCandidate{Plan: *c.pl}); got != c.want {
				t.Errorf("DepthBack %v: repeatMisses(%q, %v) = %v, want %v", on, q, c.pl.Paths, got, c.want)
			}
		}
	}
}

// nestRule wants f, a rule's test of a text, to give each of cases, and
// nests to read the rule only with it on (set) on a lexPlanner, for q.
func nestRule(t *testing.T, name string, f func(string) bool, cases map[string]bool, rule string, set func(a *AnchorConfig, on bool), q string) {
	t.Helper()
	for text, want := range cases {
		if got := f(text); got != want {
			t.Errorf("%s(%q) = %v, want %v", name, text, got, want)
		}
	}
	p := lexPlanner(t)
	for _, on := range []bool{false, true} {
		set(p.Cfg.Anchors, on)
		if got := p.nests(q); got != on {
			t.Errorf("%s %v: nests(%q) = %v, want %v", rule, on, q, got, on)
		}
	}
}
