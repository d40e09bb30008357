package planner

import (
	"context"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/graphops/linking"
	"github.com/strata-retrieval/strata/infer"
)

// TestLearnWeakMentions: a mention text is weak when the training
// questions found it at least three times (once per question, any case)
// and it anchored the mined plan, or overlapped a mention that did, in
// fewer than half of them; a node type is an anchor type when the
// mentions naming one of its nodes anchored at least half of the time.
func TestLearnWeakMentions(t *testing.T) {
	// Node 1 is a film ("What"), 2 a genre, 3 a person.
	typeOf := func(v uint32) string { return []string{"", "movie", "genre", "person"}[v] }
	m := func(text string, start, end int) linking.LinkedMention {
		n := map[string]uint32{"what": 1, "comedy": 2, "the comedy": 2}[strings.ToLower(text)]
		if n == 0 {
			n = 3
		}
		return linking.LinkedMention{Text: text, TokStart: start, TokEnd: end, Nodes: []linking.FormNode{{Node: n}}}
	}
	ments := [][]linking.LinkedMention{
		{m("What", 0, 1), m("Ann Lee", 2, 4), m("what", 5, 6)}, // "what" counted once here
		{m("what", 0, 1), m("the comedy", 1, 3), m("comedy", 2, 3)},
		{m("What", 0, 1), m("the comedy", 1, 3), m("comedy", 2, 3), m("Ann Lee", 4, 6)},
		{m("the comedy", 1, 3), m("comedy", 2, 3), m("Kim Ray", 4, 6)},
		{m("Kim Ray", 0, 2)},
		{m("Kim Ray", 0, 2)},
		{m("Kim Ray", 0, 2)},
	}
	anchors := [][]int{
		{1},
		{2},    // "comedy" anchors; "the comedy" overlaps it
		{2, 3}, // so does "Ann Lee": seen twice, below the minimum
		{1},    // "Kim Ray" left out: 2 anchored of 4 is not under half
		{0},
		{0},
		{},
	}
	// "what": 3 questions, anchored in none; "the comedy": 3, always
	// overlapping the anchor; "comedy": 3 of 3; "kim ray": 2 of 4. Films:
	// 0 of 4 mentions anchored; genres 6 of 6; people 4 of 6.
	weak, types := LearnWeakMentions(ments, anchors, typeOf)
	if want := []string{"what"}; !slices.Equal(weak, want) {
		t.Errorf("weak mentions %q, want %q", weak, want)
	}
	if want := []string{"genre", "person"}; !slices.Equal(types, want) {
		t.Errorf("anchor types %q, want %q", types, want)
	}
	anchors[4] = nil // "kim ray": 1 of 4; people 3 of 6
	weak, types = LearnWeakMentions(ments, anchors, typeOf)
	if want := []string{"kim ray", "what"}; !slices.Equal(weak, want) {
		t.Errorf("weak mentions %q, want %q", weak, want)
	}
	if want := []string{"genre", "person"}; !slices.Equal(types, want) {
		t.Errorf("anchor types %q, want %q", types, want)
	}
	anchors[2] = []int{2} // people 2 of 6
	if _, types = LearnWeakMentions(ments, anchors, typeOf); !slices.Equal(types, []string{"genre"}) {
		t.Errorf("anchor types %q, want [genre]", types)
	}
}

// TestCoverMentions: "Which films star both Ann Lee and Kim Ray?" against
// a classifier that ranks the one-actor template first and the
// two-actor template below TopTemplates (1). Without CoverMentions the
// one-actor plan answers (it leaves "Kim Ray" or "Ann Lee" unused); with
// it every candidate leaves a name unexplained, the deeper search tries
// the two-actor template anchored on both, and it wins. A question naming
// one actor keeps the one-actor plan, and a name the training questions
// rarely anchored (WeakMentions) does not count, nor do people when their
// mentions rarely anchored (not among AnchorTypes).
func TestCoverMentions(t *testing.T) {
	planner := func(cover bool, weak ...string) *LinkingPlanner {
		p := filmPlanner(t, []string{"starred_actors"}, []string{"First Film", "Second Film", "Third Film", "Ann Lee", "Kim Ray"},
			[][3]int{{0, 0, 3}, {0, 0, 4}, {1, 0, 3}, {2, 0, 4}},
			[][][]string{
				{{"*", "<-starred_actors", "movie"}},
				{{"*", "<-starred_actors", "movie"}, {"*", "<-starred_actors", "movie"}},
			}, AnchorConfig{TopTemplates: 1, DeeperSearch: true, CoverMentions: cover, WeakMentions: weak, AnchorTypes: []string{"movie", "person"}})
		rankTemplates(p, []float32{2, 0})
		return p
	}
	predict := func(p *LinkingPlanner, q string) infer.PlanPrediction {
		t.Helper()
		pred, err := p.Predict(context.Background(), data.Query{Text: q, ID: -1})
		if err != nil || pred.Reach == nil {
			t.Fatalf("%q: plan %v, reach %v, %v", q, pred.Plan.MetapathTokens(), pred.Reach, err)
		}
		return pred
	}
	both := "Which films star both Ann Lee and Kim Ray?"
	pred := predict(planner(true), both)
	if len(pred.Plan.MetapathTokens()) != 2 || !slices.Equal(pred.Reach.Nodes, []uint32{0}) {
		t.Errorf("CoverMentions: %q planned %v reaching %v, want both actors' paths reaching First Film (0)", both, pred.Plan.MetapathTokens(), pred.Reach.Nodes)
	}
	if pred := predict(planner(false), both); len(pred.Plan.MetapathTokens()) != 1 {
		t.Errorf("without CoverMentions: %q planned %v, want the one-actor plan", both, pred.Plan.MetapathTokens())
	}
	if pred := predict(planner(true, "kim ray"), both); len(pred.Plan.MetapathTokens()) != 1 {
		t.Errorf("CoverMentions, \"kim ray\" weak: %q planned %v, want the one-actor plan", both, pred.Plan.MetapathTokens())
	}
	p := planner(true)
	p.Cfg.Anchors.AnchorTypes = []string{"movie"}
	if pred := predict(p, both); len(pred.Plan.MetapathTokens()) != 1 {
		t.Errorf("CoverMentions, people not an anchor type: %q planned %v, want the one-actor plan", both, pred.Plan.MetapathTokens())
	}
	one := "Which films star Ann Lee?"
	if pred := predict(planner(true), one); len(pred.Plan.MetapathTokens()) != 1 || !slices.Equal(pred.Reach.Nodes, []uint32{0, 1}) {
		t.Errorf("CoverMentions: %q planned %v reaching %v, want Ann Lee's films (0, 1)", one, pred.Plan.MetapathTokens(), pred.Reach.Nodes)
	}
	p = planner(true)
	cs, ments, err := p.Candidates(context.Background(), data.Query{Text: both})
	if err != nil {
		t.Fatal(err)
	}
	p.ScoreCandidates(both, ments, cs)
	for i := range cs {
		if got := p.unexplained(ments, &cs[i]); len(cs[i].Reach) > 0 && got != 1 {
			t.Errorf("candidate %v (anchors %v): %d mentions unexplained, want 1", cs[i].Plan.MetapathTokens(), cs[i].Mentions, got)
		}
	}
}

// TestExplains: an anchor accounts for a mention it covers, or overlaps
// naming the same node ("comedy" for "the comedy"), not for a longer name
// of another node it is part of (the film "Bernie" for the person "Bernie
// Mac", which left "Show me every movie that has Bernie Mac in the cast"
// to the genres of "Bernie").
func TestExplains(t *testing.T) {
	m := func(text string, start, end int, nodes ...uint32) *linking.LinkedMention {
		lm := &linking.LinkedMention{Text: text, TokStart: start, TokEnd: end}
		for _, n := range nodes {
			lm.Nodes = append(lm.Nodes, linking.FormNode{Node: n})
		}
		return lm
	}
	for _, c := range []struct {
		a, m *linking.LinkedMention
		want bool
	}{
		{m("comedy", 3, 4, 7), m("the comedy", 2, 4, 7), true},
		{m("Bernie", 6, 7, 1), m("Bernie Mac", 6, 8, 2), false},
		{m("Bernie Mac", 6, 8, 2), m("Bernie", 6, 7, 1), true},
		{m("Mac", 7, 8, 3), m("Bernie Mac", 6, 8, 2, 3), true},
		{m("Ann Lee", 0, 2, 4), m("Kim Ray", 3, 5, 5), false},
	} {
		if got := explains(c.a, c.m); got != c.want {
			t.Errorf("explains(%q, %q) = %v, want %v", c.a.Text, c.m.Text, got, c.want)
		}
	}
}

// TestLearnMultiwordTypes: a node type is a multiword type when its
// mentions of two or more words anchored at least half of the time,
// borne out by the lower end of the share's 95% Wilson interval (worked
// out apart: 37 of 64 gives 0.4561, 359 of 492 0.6888, 16 of 20 0.5840,
// 13 of 20 0.4329, 20 of 20 0.8389); mentions of one word do not count,
// however often they anchor.
func TestLearnMultiwordTypes(t *testing.T) {
	for _, c := range []struct {
		k, n int
		want float64
	}{{37, 64, 0.4561}, {359, 492, 0.6888}, {16, 20, 0.5840}, {13, 20, 0.4329}, {20, 20, 0.8389}, {0, 0, 0}} {
		if got := wilsonLower(c.k, c.n); math.Abs(got-c.want) > 1e-4 {
			t.Errorf("wilsonLower(%d, %d) = %.4f, want %.4f", c.k, c.n, got, c.want)
		}
	}
	typeOf := func(v uint32) string { return []string{"room", "title", "word"}[v] }
	m := func(node uint32, start, end int) linking.LinkedMention {
		return linking.LinkedMention{TokStart: start, TokEnd: end, Nodes: []linking.FormNode{{Node: node}}}
	}
	build := func(roomAnchored, titleAnchored, n int) ([][]linking.LinkedMention, [][]int) {
		var ments [][]linking.LinkedMention
		var anchors [][]int
		for i := range n {
			// A room of two words, a title of two, a word of one that
			// always anchors.
			ments = append(ments, []linking.LinkedMention{m(0, 0, 2), m(1, 3, 5), m(2, 6, 7)})
			a := []int{2}
			if i < roomAnchored {
				a = append(a, 0)
			}
			if i < titleAnchored {
				a = append(a, 1)
			}
			anchors = append(anchors, a)
		}
		return ments, anchors
	}
	for _, c := range []struct {
		room, title, n int
		want           []string
	}{
		{16, 13, 20, []string{"room"}},
		{20, 20, 20, []string{"room", "title"}},
		{37, 0, 64, nil},
		{0, 0, 0, nil},
	} {
		ments, anchors := build(c.room, c.title, c.n)
		if got := LearnMultiwordTypes(ments, anchors, typeOf); !slices.Equal(got, c.want) {
			t.Errorf("rooms anchored %d, titles %d of %d: %q, want %q", c.room, c.title, c.n, got, c.want)
		}
	}
}

// TestMultiwordStrong: with MultiwordTypes a mention of two or more words
// naming a node of such a type is strong, one of one word is not, nor a
// weak one.
func TestMultiwordStrong(t *testing.T) {
	p := filmPlannerSteps(t, []string{"starred_actors"}, []string{"Lone Star Film", "Film", "Ann Lee"}, nil, [][][]string{{{"*", "<-starred_actors", "movie"}}}, nil, AnchorConfig{})
	ments := p.ments.Find("Lone Star Film or Film with Ann Lee")
	find := func(text string) *linking.LinkedMention {
		for i := range ments {
			if ments[i].Text == text {
				return &ments[i]
			}
		}
		t.Fatalf("no mention %q in %v", text, ments)
		return nil
	}
	for _, c := range []struct {
		text  string
		multi []string
		weak  []string
		want  bool
	}{
		{"Lone Star Film", nil, nil, false},
		{"Lone Star Film", []string{"movie"}, nil, true},
		{"Lone Star Film", []string{"movie"}, []string{"lone star film"}, false},
		{"Film", []string{"movie"}, nil, false},
		{"Ann Lee", []string{"movie"}, nil, false},
	} {
		p.Cfg.Anchors.MultiwordTypes, p.Cfg.Anchors.WeakMentions = c.multi, c.weak
		if got := p.strong(find(c.text)); got != c.want {
			t.Errorf("MultiwordTypes %q, weak %q: %q strong %v, want %v", c.multi, c.weak, c.text, got, c.want)
		}
	}
	// A scene's mentions are strong by AnchorTypes alone (strongMentions,
	// askingSentence): not "Lone Star Film" by MultiwordTypes.
	p.Cfg.Anchors.MultiwordTypes, p.Cfg.Anchors.WeakMentions = []string{"movie"}, nil
	if got := p.strongMentions("I saw Lone Star Film."); len(got) != 0 {
		t.Errorf("a scene's strong mentions %v, want none", got)
	}
	p.Cfg.Anchors.AnchorTypes = []string{"movie"}
	if got := p.strongMentions("I saw Lone Star Film."); len(got) != 2 || got[0].Text != "Lone Star Film" || got[1].Text != "Film" {
		t.Errorf("with the anchor type, a scene's strong mentions %v, want Lone Star Film and Film", got)
	}
}

// TestCasedAnchors: keys by hand. Two anchorings of template 0 differ in
// their one path's mention: "made film" in lower case, whose node's name
// (Made Film) has a capital letter, and "Germinal Film". The lower-case
// one gets 1<<8 where the other's key is no greater, not where it is
// greater, nor against another template's anchoring, nor for a mention
// of a node named in lower case ("kim ray"), nor without CasedAnchors.
// With CasedAcross, another template's anchoring on "Germinal Film",
// which the lower-case one leaves, counts too, where its key is no
// greater; one on "Made", inside "made film", does not.
func TestCasedAnchors(t *testing.T) {
	p := filmPlanner(t, []string{"directed_by"}, []string{"Paul Smith", "Made Film", "Germinal Film", "kim ray"},
		[][3]int{{1, 0, 0}, {2, 0, 0}}, [][][]string{{{"*", "->directed_by", "person"}}}, AnchorConfig{})
	ments := []linking.LinkedMention{
		{Text: "made film", Nodes: []linking.FormNode{{Node: 1}}, TokStart: 1, TokEnd: 3},
		{Text: "Germinal Film", Nodes: []linking.FormNode{{Node: 2}}, TokStart: 4, TokEnd: 6},
		{Text: "kim ray", Nodes: []linking.FormNode{{Node: 3}}, TokStart: 7, TokEnd: 9},
		{Text: "Paul Smith", Nodes: []linking.FormNode{{Node: 0}}, TokStart: 10, TokEnd: 12},
		{Text: "Made", Nodes: []linking.FormNode{{Node: 1}}, TokStart: 1, TokEnd: 2},
	}
	cand := func(tmpl, m int) PlanCandidate {
		return PlanCandidate{Template: tmpl, Mentions: []int{m}, Reach: []uint32{0}}
	}
	for _, c := range []struct {
		name   string
		on     bool
		cs     []PlanCandidate
		key    []int
		want   []int
		across bool
	}{
		{"capitalised anchoring, same key", true, []PlanCandidate{cand(0, 0), cand(0, 1)}, []int{0, 0}, []int{1 << 8, 0}, false},
		{"capitalised anchoring, lesser key", true, []PlanCandidate{cand(0, 0), cand(0, 1)}, []int{1 << 10, 0}, []int{1<<10 + 1<<8, 0}, false},
		{"capitalised anchoring, greater key", true, []PlanCandidate{cand(0, 0), cand(0, 1)}, []int{0, 1 << 10}, []int{0, 1 << 10}, false},
		{"another template", true, []PlanCandidate{cand(0, 0), cand(1, 1)}, []int{0, 0}, []int{0, 0}, false},
		{"a name in lower case", true, []PlanCandidate{cand(0, 2), cand(0, 3)}, []int{0, 0}, []int{0, 0}, false},
		{"off", false, []PlanCandidate{cand(0, 0), cand(0, 1)}, []int{0, 0}, []int{0, 0}, false},
		{"another template, across", true, []PlanCandidate{cand(0, 0), cand(1, 1)}, []int{0, 0}, []int{1 << 8, 0}, true},
		{"another template, across, greater key", true, []PlanCandidate{cand(0, 0), cand(1, 1)}, []int{0, 1 << 10}, []int{0, 1 << 10}, true},
		{"another template, across, overlapping", true, []PlanCandidate{cand(0, 0), cand(1, 4)}, []int{0, 0}, []int{0, 0}, true},
		{"another template, across, off", false, []PlanCandidate{cand(0, 0), cand(1, 1)}, []int{0, 0}, []int{0, 0}, true},
	} {
		p.Cfg.Anchors.CasedAnchors, p.Cfg.Anchors.CasedAcross = c.on, c.across
		key := slices.Clone(c.key)
		p.casedAnchors(ments, c.cs, key)
		if !slices.Equal(key, c.want) {
			t.Errorf("%s: keys %v, want %v", c.name, key, c.want)
		}
	}
}

// pairPlanner is filmPlanner over three films and two actors (Ann Lee in
// First and Second Film, Kim Ray in First and Third Film) with a
// one-actor template the classifier ranks first and a two-actor one
// below, and a plan ranker that prefers two paths by 5.
func pairPlanner(t *testing.T, a AnchorConfig) *LinkingPlanner {
	t.Helper()
	p := filmPlanner(t, []string{"starred_actors"}, []string{"First Film", "Second Film", "Third Film", "Ann Lee", "Kim Ray"},
		[][3]int{{0, 0, 3}, {0, 0, 4}, {1, 0, 3}, {2, 0, 4}},
		[][][]string{
			{{"*", "<-starred_actors", "movie"}},
			{{"*", "<-starred_actors", "movie"}, {"*", "<-starred_actors", "movie"}},
		}, a)
	rankTemplates(p, []float32{2, 0})
	p.Ranker.W.Data()[featureIndex(p.Ranker.Dim, "paths2")] = 5
	return p
}

// TestPairedAnchors: the classifier ranks the one-actor template first
// and the two-actor template below TopTemplates (1); nothing rules out a
// one-actor candidate (no CoverMentions), and the plan ranker prefers two
// paths. With PairedAnchors, "Which films star both Ann Lee and Kim
// Ray?" has one candidate left on each name, so the deeper search tries
// the two-actor template anchored on both, and the ranker takes it
// (First Film, 0); without it, or naming one actor, the one-actor plan
// answers.
func TestPairedAnchors(t *testing.T) {
	planner := func(paired bool) *LinkingPlanner {
		return pairPlanner(t, AnchorConfig{TopTemplates: 1, DeeperSearch: true, PairedAnchors: paired})
	}
	for _, c := range []struct {
		q      string
		paired bool
		paths  int
		reach  []uint32
	}{
		{"Which films star both Ann Lee and Kim Ray?", true, 2, []uint32{0}},
		{"Which films star both Ann Lee and Kim Ray?", false, 1, nil},
		{"Which films star Ann Lee?", true, 1, []uint32{0, 1}},
	} {
		pred, err := planner(c.paired).Predict(context.Background(), data.Query{Text: c.q, ID: -1})
		if err != nil || pred.Reach == nil {
			t.Fatalf("%q: plan %v, reach %v, %v", c.q, pred.Plan.MetapathTokens(), pred.Reach, err)
		}
		if got := len(pred.Plan.Paths); got != c.paths || c.reach != nil && !slices.Equal(pred.Reach.Nodes, c.reach) {
			t.Errorf("PairedAnchors %v: %q planned %v reaching %v, want %d paths reaching %v", c.paired, c.q, pred.Plan.MetapathTokens(), pred.Reach.Nodes, c.paths, c.reach)
		}
	}
}

// TestPairedUnexplained: First Film's details name Kim Ray, so Ann Lee's
// films (First and Second Film, First Film ranked first) explain "Kim
// Ray" and stand (key 0), while Kim Ray's films (First and Third Film)
// leave "Ann Lee" unexplained and are ruled out: no two candidates are
// left, and the one-actor plan answers. With PairedUnexplained, Kim Ray's
// candidate pairs with the choice, the deeper search tries the two-actor
// template anchored on both, and the ranker (two paths by 5) takes it:
// First Film alone. A question naming one actor pairs nothing.
func TestPairedUnexplained(t *testing.T) {
	planner := func(on bool) *LinkingPlanner {
		p := pairPlanner(t, AnchorConfig{TopTemplates: 1, DeeperSearch: true, PairedAnchors: true, PairedUnexplained: on, CoverMentions: true, AnchorTypes: []string{"person"}})
		p.skb.Nodes[0].Fields = []string{"", "a film with Kim Ray"}
		return p
	}
	for _, c := range []struct {
		q     string
		on    bool
		paths int
		reach []uint32
	}{
		{"Which films star both Ann Lee and Kim Ray?", true, 2, []uint32{0}},
		{"Which films star both Ann Lee and Kim Ray?", false, 1, []uint32{0, 1}},
		{"Which films star Ann Lee?", true, 1, []uint32{0, 1}},
	} {
		pred, err := planner(c.on).Predict(context.Background(), data.Query{Text: c.q, ID: -1})
		if err != nil || pred.Reach == nil {
			t.Fatalf("%q: plan %v, reach %v, %v", c.q, pred.Plan.MetapathTokens(), pred.Reach, err)
		}
		if got := len(pred.Plan.Paths); got != c.paths || !slices.Equal(pred.Reach.Nodes, c.reach) {
			t.Errorf("PairedUnexplained %v: %q planned %v reaching %v, want %d paths reaching %v", c.on, c.q, pred.Plan.MetapathTokens(), pred.Reach.Nodes, c.paths, c.reach)
		}
	}
}
