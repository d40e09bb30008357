package planner

import (
	"context"
	"hash/fnv"
	"slices"
	"testing"

	"github.com/strata-retrieval/strata/graphops/linking"

	"github.com/strata-retrieval/strata/data"
)

// TestOuterAnchors: in "What kinds of Ann Lee are there?" the mention
// "Lee" sits inside the mention "Ann Lee". Anchored on "Lee", the kinds
// template reaches the node "Ann Lee" itself, and the leftover "Ann" ranks
// it first (a plan ranker that trusts such a margin, weight 5 on
// "margin-single", prefers it); the question names that node whole, so
// with OuterAnchors that candidate is ruled out and the plan anchored on
// "Ann Lee" answers (Bob Ray, its one kind). Without OuterAnchors the
// ranker's choice stands; a question naming only "Lee" keeps its plan.
func TestOuterAnchors(t *testing.T) {
	planner := func(outer bool) *LinkingPlanner {
		p := filmPlanner(t, []string{"kind_of"}, []string{"Lee", "Ann Lee", "Bob Ray"},
			[][3]int{{1, 0, 0}, {2, 0, 1}},
			[][][]string{{{"*", "<-kind_of", "person"}}}, AnchorConfig{OuterAnchors: outer})
		h := fnv.New32a()
		h.Write([]byte("margin-single"))
		h.Write([]byte{0})
		p.Ranker.W.Data()[h.Sum32()%uint32(p.Ranker.Dim)] = 5
		return p
	}
	reach := func(p *LinkingPlanner, q string) []uint32 {
		t.Helper()
		pred, err := p.Predict(context.Background(), data.Query{Text: q, ID: -1})
		if err != nil || pred.Reach == nil {
			t.Fatalf("%q: plan %v, reach %v, %v", q, pred.Plan.MetapathTokens(), pred.Reach, err)
		}
		return pred.Reach.Nodes
	}
	q := "What kinds of Ann Lee are there?"
	if got := reach(planner(true), q); !slices.Equal(got, []uint32{2}) {
		t.Errorf("OuterAnchors: %q reached %v, want Ann Lee's kind Bob Ray (2)", q, got)
	}
	if got := reach(planner(false), q); !slices.Equal(got, []uint32{1}) {
		t.Errorf("without OuterAnchors: %q reached %v, want the ranker's plan anchored on Lee, reaching Ann Lee (1)", q, got)
	}
	if q := "What kinds of Lee are there?"; !slices.Equal(reach(planner(true), q), []uint32{1}) {
		t.Errorf("OuterAnchors: %q reached %v, want Lee's kind Ann Lee (1)", q, reach(planner(true), q))
	}
	p := planner(true)
	cs, ments, err := p.Candidates(context.Background(), data.Query{Text: q})
	if err != nil {
		t.Fatal(err)
	}
	outer := 0
	for i := range cs {
		if p.reachesOuter(ments, &cs[i]) {
			outer++
			if ments[cs[i].Mentions[0]].Text != "Lee" {
				t.Errorf("candidate anchored on %q reaches an outer mention's node", ments[cs[i].Mentions[0]].Text)
			}
		}
	}
	if outer != 1 {
		t.Errorf("%d candidates reach an outer mention's node, want 1 (anchored on Lee)", outer)
	}
}

// TestDeeperUnreached: the classifier puts the films an anchor starred in
// first and tries one template; Paul Smith starred in nothing, so for
// "Which films did Paul Smith make?" no candidate reaches a node. With
// DeeperUnreached the next template some mention anchors (the films he
// directed) is tried and answers; without it there is no plan.
func TestDeeperUnreached(t *testing.T) {
	planner := func(deeper bool) *LinkingPlanner {
		p := filmPlanner(t, []string{"directed_by", "starred_actors"}, []string{"Paul Smith", "First Film", "Second Film", "Ann Lee"},
			[][3]int{{1, 0, 0}, {2, 0, 0}, {1, 1, 3}},
			[][][]string{
				{{"*", "<-starred_actors", "movie"}},
				{{"*", "<-directed_by", "movie"}},
			}, AnchorConfig{TopTemplates: 1, DeeperUnreached: deeper})
		rankTemplates(p, []float32{2, 0})
		return p
	}
	q := data.Query{Text: "Which films did Paul Smith make?", ID: -1}
	pred, err := planner(true).Predict(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	if pred.Template != 1 || pred.Reach == nil || !slices.Equal(pred.Reach.Nodes, []uint32{1, 2}) {
		t.Errorf("DeeperUnreached: template %d reaching %v, want template 1 reaching Paul Smith's films [1 2]", pred.Template, pred.Reach)
	}
	if pred, err = planner(false).Predict(context.Background(), q); err != nil || pred.Template != -1 {
		t.Errorf("without DeeperUnreached: template %d (%v), want no plan (-1)", pred.Template, err)
	}
	// Ann Lee starred in First Film: the top template reaches it, and no
	// deeper template is tried.
	pred, err = planner(true).Predict(context.Background(), data.Query{Text: "Which films did Ann Lee make?", ID: -1})
	if err != nil || pred.Template != 0 || pred.Reach == nil || !slices.Equal(pred.Reach.Nodes, []uint32{1}) {
		t.Errorf("DeeperUnreached, Ann Lee: template %d reaching %v (%v), want template 0 reaching First Film [1]", pred.Template, pred.Reach, err)
	}
}

// TestInnerAnchors: in "What kinds of golf stroke are there?" both "golf"
// and "golf stroke" have kinds; a ranker that trusts the one-word anchor
// (weight 5 on its anchor probability's bucket "alp0") takes "golf"
// without InnerAnchors; with it the mention inside "golf stroke", which
// could anchor the same path, is ruled out, and the kinds of golf stroke
// answer (chip shot). In "What kinds of the comedy are there?" the longer
// mention "the comedy" names a node without kinds: it cannot take the
// place of "comedy", which keeps its plan.
func TestInnerAnchors(t *testing.T) {
	// "kinds" names a node with a kind too (sort), so that a rule that
	// ruled out every inner anchor would leave that plan to "What kinds
	// of the comedy ...".
	planner := func(inner bool) *LinkingPlanner {
		p := filmPlanner(t, []string{"kind_of"}, []string{"golf", "golf stroke", "chip shot", "putting green", "comedy", "the comedy", "farce", "kinds", "sort"},
			[][3]int{{2, 0, 1}, {3, 0, 0}, {6, 0, 4}, {8, 0, 7}},
			[][][]string{{{"*", "<-kind_of", "person"}}}, AnchorConfig{InnerAnchors: inner})
		return p
	}
	reach := func(p *LinkingPlanner, q string) []uint32 {
		t.Helper()
		// The ranker prefers the candidate anchored on the shortest
		// mention, as one fooled by its anchor score would, then the
		// last; "kinds" never wins.
		return ruledReach(t, p, q, func(m *linking.LinkedMention) float64 {
			if m.Text == "kinds" {
				return -100
			}
			return float64(m.TokStart - 10*(m.TokEnd-m.TokStart))
		})
	}
	q := "What kinds of golf stroke are there?"
	if got := reach(planner(true), q); !slices.Equal(got, []uint32{2}) {
		t.Errorf("InnerAnchors: %q reached %v, want the kinds of golf stroke [2]", q, got)
	}
	if got := reach(planner(false), q); !slices.Equal(got, []uint32{3}) {
		t.Errorf("without InnerAnchors: %q reached %v, want the kinds of golf [3]", q, got)
	}
	if q := "What kinds of the comedy are there?"; !slices.Equal(reach(planner(true), q), []uint32{6}) {
		t.Errorf("InnerAnchors: %q reached %v, want the kinds of comedy [6]", q, reach(planner(true), q))
	}
}

// TestLongerAnchors: in "What does crash helmet include?" the helmet has
// a part (visor) and the crash helmet a kind (full-face helmet), so no
// template lets "crash helmet" take the place of "helmet" and InnerAnchors
// rules nothing out; a ranker that trusts the shorter anchor answers with
// the visor. With LongerAnchors the candidate anchored on "crash helmet",
// ruled out by nothing more, wins whatever its template; when the longer
// mention is itself a non-anchor text, it rules nothing out.
func TestLongerAnchors(t *testing.T) {
	planner := func(a AnchorConfig) *LinkingPlanner {
		a.InnerAnchors = true
		return filmPlanner(t, []string{"kind_of", "part_of"}, []string{"helmet", "crash helmet", "visor", "full-face helmet"},
			[][3]int{{2, 1, 0}, {3, 0, 1}},
			[][][]string{{{"*", "<-part_of", "person"}}, {{"*", "<-kind_of", "person"}}}, a)
	}
	reach := func(p *LinkingPlanner, q string) []uint32 {
		t.Helper()
		return ruledReach(t, p, q, func(m *linking.LinkedMention) float64 { // the shortest anchor wins
			return float64(-10 * (m.TokEnd - m.TokStart))
		})
	}
	q := "What does crash helmet include?"
	for _, c := range []struct {
		name string
		a    AnchorConfig
		want []uint32
	}{
		{"InnerAnchors alone", AnchorConfig{}, []uint32{2}},
		{"LongerAnchors", AnchorConfig{LongerAnchors: true}, []uint32{3}},
		{"LongerAnchors, the longer mention a non-anchor", AnchorConfig{LongerAnchors: true, NonAnchors: []string{"crash helmet"}}, []uint32{2}},
	} {
		if got := reach(planner(c.a), q); !slices.Equal(got, c.want) {
			t.Errorf("%s: %q reached %v, want %v", c.name, q, got, c.want)
		}
	}
}

// TestDeeperLonger: the classifier's one top template (TopTemplates 1) is
// the kinds, so "What is Jewish calendar made up of?" is anchored on
// "calendar" (which has a kind, lunar calendar) and never on "Jewish
// calendar" (which has none); a ranker that trusts the most probable
// template answers lunar calendar. With LongerAnchors the deeper search
// tries the next template anchored on the longer mention, the parts,
// which reach Tishri and rule the inner anchor out; without it, or with
// DeeperSearch off, the kinds of calendar stand.
func TestDeeperLonger(t *testing.T) {
	planner := func(longer, deeper bool) *LinkingPlanner {
		p := filmPlanner(t, []string{"kind_of", "part_of"}, []string{"calendar", "Jewish calendar", "lunar calendar", "Tishri"},
			[][3]int{{2, 0, 0}, {3, 1, 1}},
			[][][]string{{{"*", "<-kind_of", "person"}}, {{"*", "<-part_of", "person"}}},
			AnchorConfig{TopTemplates: 1, InnerAnchors: true, LongerAnchors: longer, DeeperSearch: deeper})
		trustFirstTemplate(p)
		return p
	}
	q := "What is Jewish calendar made up of?"
	for _, c := range []struct {
		longer, deeper bool
		want           uint32
	}{{true, true, 3}, {false, true, 2}, {true, false, 2}} {
		pred, err := planner(c.longer, c.deeper).Predict(context.Background(), data.Query{Text: q, ID: -1})
		if err != nil || pred.Reach == nil || !slices.Equal(pred.Reach.Nodes, []uint32{c.want}) {
			t.Errorf("LongerAnchors %v, DeeperSearch %v: %q reached %v (%v), want [%d]", c.longer, c.deeper, q, pred.Reach, err, c.want)
		}
	}
}

// TestUnanchoredLongerRuledOut: in "What is dhow made up of?" the one
// candidate left is anchored on "up" (inside "made up", which names a
// node too) and none on "made up", so the deeper search would try the
// templates anchored on "made up". "made up" is followed by the last
// "of": written in the head-of form, so a candidate anchored on it is
// ruled out when head of is a non-anchor form, and the deeper search
// does not try it (nil: the other searches run); nor when "made up" is a
// non-anchor text. Without either, it is tried.
func TestUnanchoredLongerRuledOut(t *testing.T) {
	q := "What is dhow made up of?"
	ments := []linking.LinkedMention{fixtureMention(t, q, "dhow"), fixtureMention(t, q, "made up"), fixtureMention(t, q, "up")}
	cs := []PlanCandidate{{Mentions: []int{2}, Reach: []uint32{7}}, {Mentions: []int{0}}}
	for _, c := range []struct {
		name string
		a    AnchorConfig
		want []int
	}{
		{"no non-anchors", AnchorConfig{LongerAnchors: true}, []int{1}},
		{"head of a non-anchor form", AnchorConfig{LongerAnchors: true, NonAnchorForms: []string{FormHeadOf}}, nil},
		{"made up a non-anchor text", AnchorConfig{LongerAnchors: true, NonAnchors: []string{"made up"}}, nil},
		{"lead verbs a non-anchor form", AnchorConfig{LongerAnchors: true, NonAnchorForms: []string{FormLeadVerb}}, []int{1}},
	} {
		p := &LinkingPlanner{Classifier: &Classifier{Cfg: Config{Anchors: &c.a}}}
		if got := p.unanchoredLonger(q, ments, cs, []int{0, 0}, 0); !slices.Equal(got, c.want) {
			t.Errorf("%s: unanchoredLonger = %v, want %v", c.name, got, c.want)
		}
	}
}

// TestAroundByWords: a longer mention takes an inner one's place only
// when it adds a word that is not a stop word.
func TestAroundByWords(t *testing.T) {
	for _, c := range []struct {
		text, outer, inner string
		want               bool
	}{
		{"What is Jewish calendar made up of?", "Jewish calendar", "calendar", true},
		{"List the comedy films.", "the comedy", "comedy", false},
		{"List the comedy films.", "comedy", "comedy", false},
	} {
		o, m := fixtureMention(t, c.text, c.outer), fixtureMention(t, c.text, c.inner)
		if got := aroundByWords(&o, &m); got != c.want {
			t.Errorf("aroundByWords(%q, %q) = %v, want %v", c.outer, c.inner, got, c.want)
		}
	}
}

// ruledReach is what p answers q with when a ranker scores each candidate
// by score of its first anchor mention, among the candidates ruleOut
// leaves.
func ruledReach(t *testing.T, p *LinkingPlanner, q string, score func(m *linking.LinkedMention) float64) []uint32 {
	t.Helper()
	cs, ments, err := p.Candidates(context.Background(), data.Query{Text: q})
	if err != nil {
		t.Fatal(err)
	}
	for i := range cs {
		cs[i].AnchorLP = score(&ments[cs[i].Mentions[0]])
	}
	key, least, err := p.ruleOut(context.Background(), q, ments, cs)
	if err != nil {
		t.Fatal(err)
	}
	best := -1
	for i := range cs {
		if len(cs[i].Reach) > 0 && key[i] == least && (best < 0 || cs[i].AnchorLP > cs[best].AnchorLP) {
			best = i
		}
	}
	if best < 0 {
		t.Fatalf("%q: no candidate left", q)
	}
	return cs[best].Reach
}

// TestInnerAnchorShare: two of four anchors lie inside a longer mention;
// InnerAnchors is learned on at a share of 5% or less.
func TestInnerAnchorShare(t *testing.T) {
	m := func(s, e int) linking.LinkedMention { return linking.LinkedMention{TokStart: s, TokEnd: e} }
	ments := [][]linking.LinkedMention{{m(0, 1), m(0, 2), m(3, 4)}, {m(1, 2), m(1, 3)}}
	anchors := [][]int{{0, 2}, {0, -1, 1}}
	if got := InnerAnchorShare(ments, anchors); got != 0.5 {
		t.Errorf("InnerAnchorShare = %v, want 0.5 (2 of 4 anchors inside a longer mention)", got)
	}
	if !InnerAnchorsFrom(0.05) || InnerAnchorsFrom(0.051) {
		t.Errorf("InnerAnchorsFrom: on at 0.05, off above")
	}
}
