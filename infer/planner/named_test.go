package planner

import (
	"context"
	"hash/fnv"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/graphops/linking"
	"github.com/strata-retrieval/strata/graphops/workspace"
	"github.com/strata-retrieval/strata/infer"
	"github.com/strata-retrieval/strata/infer/baseline"
	"github.com/strata-retrieval/strata/internal/testskb"
	"github.com/strata-retrieval/strata/models"
)

// mentionsOf links the word ranges of text to nodes: spans[i] = {first
// word, end word, nodes...}.
func mentionsOf(text string, spans ...[]int) []linking.LinkedMention {
	words := linking.MentionWords(text)
	var out []linking.LinkedMention
	for _, s := range spans {
		m := linking.LinkedMention{TokStart: s[0], TokEnd: s[1], Start: words[s[0]].Start, End: words[s[1]-1].End}
		m.Text = text[m.Start:m.End]
		for _, n := range s[2:] {
			m.Nodes = append(m.Nodes, linking.FormNode{Node: uint32(n)})
		}
		out = append(out, m)
	}
	return out
}

// TestNamedKeys: the context words before a mention (and the one after),
// an anchor's words read "<m>", "<s>" past the ends.
func TestNamedKeys(t *testing.T) {
	text := "an adjective similar to haired defined using the word wiry"
	// words: an(0) adjective(1) similar(2) to(3) haired(4) defined(5)
	// using(6) the(7) word(8) wiry(9)
	ments := mentionsOf(text, []int{4, 5, 40}, []int{9, 10, 90, 91})
	got := NamedKeys(linking.MentionWords(text), ments, []int{0}, 1)
	want := []string{"l1 word", "l2 the word", "l3 using the word", "l3r1 using the word | <s>"}
	if !slices.Equal(got, want) {
		t.Errorf("keys of wiry = %q, want %q", got, want)
	}
	got = NamedKeys(linking.MentionWords(text), ments, []int{1}, 0)
	want = []string{"l1 to", "l2 similar to", "l3 adjective similar to", "l3r1 adjective similar to | defined"}
	if !slices.Equal(got, want) {
		t.Errorf("keys of haired = %q, want %q", got, want)
	}
	// The anchor's words, two before "defined" (no mention there: keys of
	// an anchor's neighbour read it as <m>).
	ments = mentionsOf(text, []int{4, 5, 40}, []int{6, 7, 60})
	got = NamedKeys(linking.MentionWords(text), ments, []int{0}, 1)
	want = []string{"l1 defined", "l2 <m> defined", "l3 to <m> defined", "l3r1 to <m> defined | the"}
	if !slices.Equal(got, want) {
		t.Errorf("keys next to an anchor = %q, want %q", got, want)
	}
}

// TestNamedAnswersProb: the smoothed probabilities, worked by hand
// (alpha 2, the prior add-one over all mentions).
func TestNamedAnswersProb(t *testing.T) {
	n := NewNamedAnswers()
	sense := []string{"l1 word", "l2 the word", "l3 of the word", "l3r1 of the word | is"}
	gloss := []string{"l1 word", "l2 the word", "l3 using the word", "l3r1 using the word | <s>"}
	n.Add(sense, true)
	n.Add(sense, true)
	n.Add(gloss, false)
	n.Add(gloss, false)
	n.Add(gloss, false)
	// prior (2+1)/(5+2) = 3/7; "l1 word" 2 of 5: (2+6/7)/7 = 20/49;
	// "l2 the word" the same: (2+40/49)/7 = 138/343; "l3 of the word"
	// 2 of 2: (2+276/343)/4 = 481/686; "l3r1 …" 2 of 2:
	// (2+481/343)/4 = 1167/1372.
	if got, want := n.Prob(sense), 1167.0/1372; math.Abs(got-want) > 1e-12 {
		t.Errorf("Prob(sense) = %.6f, want %.6f", got, want)
	}
	// gloss: after l2 138/343; "l3 using the word" 0 of 3:
	// (276/343)/5 = 276/1715; l3r1 0 of 3: (552/1715)/5 = 552/8575.
	if got, want := n.Prob(gloss), 552.0/8575; math.Abs(got-want) > 1e-12 {
		t.Errorf("Prob(gloss) = %.6f, want %.6f", got, want)
	}
	// Unseen contexts after "the word": 138/343 = 0.402, between the
	// thresholds, so nothing moves.
	unseen := []string{"l1 word", "l2 the word", "l3 with the word", "l3r1 with the word | <s>"}
	if got, want := n.Prob(unseen), 138.0/343; math.Abs(got-want) > 1e-12 {
		t.Errorf("Prob(unseen) = %.6f, want %.6f", got, want)
	}
	if got := n.Prob(sense); got < NamedPromote {
		t.Errorf("Prob(sense) = %.3f, below the promotion threshold", got)
	}
}

// TestNamedExamples: only restriction mentions naming a reached node are
// examples; a mention overlapping an anchor is not one; a node named by
// two mentions counts for the longer.
func TestNamedExamples(t *testing.T) {
	text := "which sense of the word santiago is a kind of urban center"
	// which(0) sense(1) of(2) the(3) word(4) santiago(5) is(6) a(7)
	// kind(8) of(9) urban(10) center(11)
	ments := mentionsOf(text,
		[]int{10, 12, 100},    // 0 "urban center": the anchor
		[]int{11, 12, 101},    // 1 "center": overlaps the anchor
		[]int{5, 6, 7, 8, 9},  // 2 "santiago": names 7, 8 (reached) and 9
		[]int{1, 2, 300, 301}, // 3 "sense": names nothing reached
	)
	reach := []uint32{7, 8, 101, 200}
	got := NamedExamples(text, ments, []int{0}, reach, []uint32{8})
	if len(got) != 1 || !got[0].Answer || got[0].Keys[2] != "l3 of the word" {
		t.Fatalf("examples = %+v, want one: santiago naming an answer, after \"of the word\"", got)
	}
	got = NamedExamples(text, ments, []int{0}, reach, []uint32{200})
	if len(got) != 1 || got[0].Answer {
		t.Fatalf("examples = %+v, want one: santiago naming no answer", got)
	}
	if got := NamedExamples(text, ments, []int{0}, []uint32{200}, []uint32{200}); got != nil {
		t.Errorf("no named node reached: %+v, want none", got)
	}
	// The longer of two mentions naming one node.
	two := mentionsOf("the lymphatic tissue of x", []int{1, 2, 5}, []int{1, 3, 5}, []int{4, 5, 50})
	if named := namedIn([]uint32{5}, two, []int{2}); named[5] != 1 {
		t.Errorf("node 5 named by mention %d, want 1 (the longer)", named[5])
	}
}

// TestAdjustNamed: a reached node named by a restriction mention goes
// above every other node when the counts say the question asks for it,
// and stays put otherwise (it is never moved down).
func TestAdjustNamed(t *testing.T) {
	text := "which sense of the word santiago is a kind of urban center"
	ments := mentionsOf(text, []int{10, 12, 100}, []int{5, 6, 7, 8})
	words := linking.MentionWords(text)
	keys := NamedKeys(words, ments, []int{0}, 1)
	for _, c := range []struct {
		answers, others int // training mentions with these keys
		want            []float32
	}{
		// Node 7 is named, with BM25 1; nodes 5 and 6 have 3 and 0.
		// The shift is the top score plus one: 4.
		{4, 0, []float32{3, 0, 5}}, // promoted: 1 + 4
		{0, 4, []float32{3, 0, 1}}, // p 0.002: unmoved
		{1, 1, []float32{3, 0, 1}}, // 1/2: unmoved
	} {
		n := NewNamedAnswers()
		for range c.answers {
			n.Add(keys, true)
		}
		for range c.others {
			n.Add(keys, false)
		}
		p := &LinkingPlanner{Classifier: &Classifier{Cfg: Config{Anchors: &AnchorConfig{Named: n}}}}
		cand := PlanCandidate{Reach: []uint32{5, 6, 7}, Scores: []float32{3, 0, 1}, Mentions: []int{0}}
		p.adjustNamed(text, ments, &cand)
		if !slices.Equal(cand.Scores, c.want) {
			t.Errorf("%d answers, %d others (p %.3f): scores %v, want %v", c.answers, c.others, n.Prob(keys), cand.Scores, c.want)
		}
		// The plan says so: plan-exec executing it again ranks alike.
		if promoted := c.want[2] > 1; promoted != slices.Equal(cand.Plan.Named, []uint32{7}) || !promoted && cand.Plan.Named != nil {
			t.Errorf("%d answers, %d others: plan's named nodes %v", c.answers, c.others, cand.Plan.Named)
		}
	}
}

// namedPredictor predicts one fixed plan, executed by nobody.
type namedPredictor struct {
	ws   *workspace.Workspace
	plan data.Plan
}

func (f namedPredictor) Predict(context.Context, data.Query) (infer.PlanPrediction, error) {
	return infer.PlanPrediction{Plan: f.plan, Conf: 1}, nil
}
func (f namedPredictor) Workspace() *workspace.Workspace { return f.ws }
func (f namedPredictor) Config() Config                  { return Config{} }
func (f namedPredictor) Params() []models.NamedParam     { return nil }

// TestExplainNamed: explain prints a plan's named nodes by name, and the
// ranking it shows puts them first (plan-exec executing the plan).
func TestExplainNamed(t *testing.T) {
	ws := testskb.Workspace(t, testskb.DirectorFilms())
	pl := data.Plan{Paths: data.MustPaths([][]string{{"person", "<-directed_by", "movie"}}...),
		Restriction: map[string][]string{"movie": {"released in 2007"}},
		Anchors:     []data.PlanAnchor{{Text: "Paul Smith", Nodes: []uint32{0}}}, Named: []uint32{2}}
	m := &PlannedMethod{P: namedPredictor{ws, pl}, M: baseline.NewPlanExec(ws)}
	e, err := m.Explain(context.Background(), data.Query{Text: "films by Paul Smith released in 2007"}, 3)
	if err != nil {
		t.Fatal(err)
	}
	pe := e.(*PlanExplanation)
	if !strings.HasSuffix(pe.Typed, `, named first: ["Second Film"]`) {
		t.Errorf("typed plan %q: want the named film by name", pe.Typed)
	}
	if len(pe.Hits) != 3 || pe.Hits[0].ID != 2 {
		t.Errorf("hits %+v: want film 2 first of 3", pe.Hits)
	}
}

// TestNamedTop: the plan ranker's feature of a candidate whose first node
// the question names, with the counts' probability in quarters, worked by
// hand; a tie on the first score goes to the lower id; an anchor's
// mention names nothing; RankFeatures has it only with NamedTop.
func TestNamedTop(t *testing.T) {
	text := "which lymphatic tissue forms part of lymphatic system"
	// which(0) lymphatic(1) tissue(2) forms(3) part(4) of(5) lymphatic(6)
	// system(7)
	ments := mentionsOf(text, []int{6, 8, 100}, []int{1, 3, 7})
	words := linking.MentionWords(text)
	keys := NamedKeys(words, ments, []int{0}, 1)
	n := NewNamedAnswers()
	for range 4 {
		n.Add(keys, false)
	}
	// prior 1/6; each of the four levels, 0 of 4: (2p)/6 = p/3, so
	// 1/486: quarter 0. With 4 of 4 the prior is 5/6 and each level
	// (4+2p)/6: 17/18, 53/54, 161/162, 485/486: quarter 3.
	cand := func(reach []uint32, scores []float32, anchors ...int) *PlanCandidate {
		return &PlanCandidate{Reach: reach, Scores: scores, Mentions: anchors}
	}
	for _, c := range []struct {
		name string
		na   *NamedAnswers
		c    *PlanCandidate
		want string
	}{
		{"named first, asked for rarely", n, cand([]uint32{5, 6, 7}, []float32{0, 1, 3}, 0), "top-named0"},
		{"named but second", n, cand([]uint32{5, 6, 7}, []float32{3, 1, 2}, 0), "top-unnamed"},
		{"tie: the lower id first", n, cand([]uint32{5, 7}, []float32{2, 2}, 0), "top-unnamed"},
		{"tie won by the named node", n, cand([]uint32{7, 9}, []float32{2, 2}, 0), "top-named0"},
		{"the mention anchors the plan", n, cand([]uint32{7}, []float32{1}, 0, 1), "top-unnamed"},
		{"no counts", nil, cand([]uint32{7}, []float32{1}, 0), "top-named-nomodel"},
	} {
		if got := namedTop(c.na, words, ments, c.c); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
	yes := NewNamedAnswers()
	for range 4 {
		yes.Add(keys, true)
	}
	if got, want := yes.Prob(keys), 485.0/486; math.Abs(got-want) > 1e-12 {
		t.Errorf("Prob = %.6f, want %.6f", got, want)
	}
	if got := namedTop(yes, words, ments, cand([]uint32{7}, []float32{1}, 0)); got != "top-named3" {
		t.Errorf("asked for: %q, want top-named3", got)
	}
	// RankFeatures: two more features with NamedTop, the feature and its
	// conjunction with the number of paths, hashed as every other.
	const dim = 1 << 20
	feats := func(on bool) []uint32 {
		p := &LinkingPlanner{Classifier: &Classifier{Cfg: Config{Anchors: &AnchorConfig{Named: n, NamedTop: on, RankDim: dim}}}}
		return p.RankFeatures(text, ments, []PlanCandidate{*cand([]uint32{5, 6, 7}, []float32{0, 1, 3}, 0)})[0]
	}
	off, on := feats(false), feats(true)
	h := fnv.New32a()
	h.Write([]byte("top-named0\x00"))
	want := h.Sum32() % dim
	if len(on) != len(off)+2 || slices.Contains(off, want) || !slices.Contains(on, want) {
		t.Errorf("features without NamedTop %d, with %d (want 2 more, among them %d)", len(off), len(on), want)
	}
}

// TestScoreCandidatesNamesByQuestion: ScoreCandidates reads named nodes
// off the question's words, where the mentions' word positions point, not
// off the restriction's. Counts say a film named after "is called" is the
// answer (4 of 4) and one named at the end of a restriction text is not
// (0 of 4): the film named "Second Film" goes first (its BM25 0 plus the
// top score plus one), which the restriction's words would have refused.
func TestScoreCandidatesNamesByQuestion(t *testing.T) {
	ws := testskb.Workspace(t, testskb.DirectorFilms())
	text := "which film by paul smith is called second film"
	// which(0) film(1) by(2) paul(3) smith(4) is(5) called(6) second(7) film(8)
	ments := mentionsOf(text, []int{3, 5, 0}, []int{7, 9, 2})
	rtext := "called second film"
	asked := NamedKeys(linking.MentionWords(text), ments, []int{0}, 1)
	misread := NamedKeys(linking.MentionWords(rtext), ments, []int{0}, 1)
	if want := "l3 <m> is called"; asked[2] != want || misread[2] == want {
		t.Fatalf("keys %q and %q: the test needs them to differ", asked, misread)
	}
	n := NewNamedAnswers()
	for range 4 {
		n.Add(asked, true)
		n.Add(misread, false)
	}
	p := &LinkingPlanner{Classifier: &Classifier{ws: ws, Cfg: Config{Anchors: &AnchorConfig{Named: n}}}}
	pl := data.Plan{Paths: data.MustPaths([][]string{{"person", "<-directed_by", "movie"}}...),
		Restriction: map[string][]string{"movie": {rtext}},
		Anchors:     []data.PlanAnchor{{Text: "paul smith", Nodes: []uint32{0}}}}
	cs := []PlanCandidate{{Plan: pl, Reach: []uint32{1, 2, 3}, Mentions: []int{0}}}
	p.ScoreCandidates(text, ments, cs)
	c := cs[0]
	if !slices.Equal(c.Plan.Named, []uint32{2}) {
		t.Fatalf("named %v, want [2] (Second Film)", c.Plan.Named)
	}
	top := 0
	for j := range c.Scores {
		if c.Scores[j] > c.Scores[top] {
			top = j
		}
	}
	if c.Reach[top] != 2 {
		t.Errorf("scores %v over %v: want film 2 first", c.Scores, c.Reach)
	}
}
