package planner

import (
	"context"
	"hash/fnv"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/data/index"
	"github.com/strata-retrieval/strata/infer"
	"github.com/strata-retrieval/strata/infer/baseline"
	"github.com/strata-retrieval/strata/internal/testskb"
	"github.com/strata-retrieval/strata/models"
)

func fitHash(dim int, s string) uint32 {
	h := fnv.New32a()
	h.Write([]byte(s))
	return h.Sum32() % uint32(dim)
}

// TestFitFeatures: a bias, the words, the pair, the first and last words
// and the question mark, in that order.
func TestFitFeatures(t *testing.T) {
	const dim = 1 << 20
	got := FitFeatures(dim, "Which film?", false)
	var want []uint32
	for _, s := range []string{"bias", "w which", "w film", "p which film", "f which", "l film", "?"} {
		want = append(want, fitHash(dim, s))
	}
	if !slices.Equal(got, want) {
		t.Errorf("features %v, want %v", got, want)
	}
	if got := FitFeatures(dim, "a film", false); len(got) != 6 || slices.Contains(got, fitHash(dim, "?")) {
		t.Errorf("no question mark: %v", got)
	}
}

// TestFitFeaturesLeadVerb: with leadVerb the first word is read as
// "<verb>" in its word, pair and first-word features; gateLeadVerb holds
// for a capitalised verb's base form opening the text, unquoted, and not
// for a lower-case one (a gloss), an inflected one, a quoted one or a
// first word that is no verb.
func TestFitFeaturesLeadVerb(t *testing.T) {
	const dim = 1 << 20
	got := FitFeatures(dim, "Tell me films.", true)
	var want []uint32
	for _, s := range []string{"bias", "w <verb>", "w me", "p <verb> me", "w film", "p me film", "f <verb>", "l film"} {
		want = append(want, fitHash(dim, s))
	}
	if !slices.Equal(got, want) {
		t.Errorf("features %v, want %v", got, want)
	}
	for text, want := range map[string]bool{
		"Tell me which film?":            true,
		"Give me films.":                 true,
		"  Name a film.":                 true,
		"tell me which film?":            false,
		"Tells me which film?":           false,
		"'Tell' can mean what?":          false,
		"Plastid includes which things?": false,
		"Which film?":                    false,
	} {
		if got := gateLeadVerb(text, false); got != want {
			t.Errorf("gateLeadVerb(%q) = %v, want %v", text, got, want)
		}
	}
}

// TestGateLowerRequests: with lowerRequests a lower-case verb's base form
// opening the text is a lead verb when "me" or "us" follows it (a request
// typed casually), not before anything else (a gloss), not inflected, not
// quoted; without it no lower-case word is one. The planner's features
// read "give me ..." as "<verb> me ..." only with FitConfig.LowerRequests.
func TestGateLowerRequests(t *testing.T) {
	for text, want := range map[string]bool{
		"give me a car window from the UK": true,
		"tell us which films":              true,
		"show me":                          true,
		"give a certain impression":        false,
		"gives me a window":                false,
		"'give' me which":                  false,
		"window me":                        false,
		"give":                             false,
	} {
		if got := gateLeadVerb(text, true); got != want {
			t.Errorf("gateLeadVerb(%q, true) = %v, want %v", text, got, want)
		}
		if gateLeadVerb(text, false) {
			t.Errorf("gateLeadVerb(%q, false) = true, want false", text)
		}
	}
	const dim = 1 << 12
	p := filmPlanner(t, []string{"kind_of"}, []string{"Tell", "object"}, [][3]int{{1, 0, 0}},
		[][][]string{{{"*", "<-kind_of", "person"}}}, AnchorConfig{})
	for _, on := range []bool{true, false} {
		p.Cfg.Anchors.Fit = &FitConfig{Dim: dim, LeadVerbs: true, LowerRequests: on}
		if got := slices.Contains(p.FitFeatures("give me the films"), fitHash(dim, "f <verb>")); got != on {
			t.Errorf("LowerRequests %v: features read \"give\" as a lead verb: %v", on, got)
		}
	}
}

// TestSpeakerRequests: a text opening with its speaker as a verb's
// subject is a request (speakerRequest: the verb's offset), past forms of
// "be" and "would"; not a text opening with another word, a quoted one,
// or a subject with no verb after it. With FitConfig.SpeakerRequests the
// planner's features read "I need the films" as "<verb> the films",
// without it as they read any text.
func TestSpeakerRequests(t *testing.T) {
	for text, want := range map[string]string{
		"I need the word under plant that means 'a tree'": "need the word under plant that means 'a tree'",
		"We need every hyponym of each hyponym of X.":     "need every hyponym of each hyponym of X.",
		"I'm looking for a Y that is part of Z":           "looking for a Y that is part of Z",
		"I am looking for the films":                      "looking for the films",
		"we would like the films of X":                    "like the films of X",
		"I the films of X":                                "",
		"Islands need the films of X":                     "",
		"'I' need the films":                              "",
		"I am":                                            "",
		"In 2001, which films":                            "",
	} {
		got := ""
		if at := speakerRequest(text); at > 0 {
			got = text[at:]
		}
		if got != want {
			t.Errorf("speakerRequest(%q) reads from %q, want %q", text, got, want)
		}
	}
	const dim = 1 << 12
	p := filmPlanner(t, []string{"kind_of"}, []string{"Tell", "object"}, [][3]int{{1, 0, 0}},
		[][][]string{{{"*", "<-kind_of", "person"}}}, AnchorConfig{})
	for _, on := range []bool{true, false} {
		p.Cfg.Anchors.Fit = &FitConfig{Dim: dim, LeadVerbs: true, SpeakerRequests: on}
		got := p.FitFeatures("I need the films")
		if lead := slices.Contains(got, fitHash(dim, "f <verb>")); lead != on {
			t.Errorf("SpeakerRequests %v: features read \"need\" as a lead verb: %v", on, lead)
		}
		if speaker := slices.Contains(got, fitHash(dim, "w i")); speaker == on {
			t.Errorf("SpeakerRequests %v: features read the speaker \"I\": %v", on, speaker)
		}
	}
}

// TestFrontedRequests: a request after a phrase fronted before it and
// closed by a comma reads from its verb (frontedRequest: the verb's
// offset), a verb's base form before a determiner or a pronoun of its
// object, or with speaker the verb of a request its speaker is the
// subject of; not a word after the comma that is no verb or is followed by
// another word, a comma after another mark, after more than
// maxFrontedWords words, or a text with no comma. With
// FitConfig.FrontedRequests the planner's features read "Of all the
// senses of 'daze', pick the one" as "<verb> the one", without it as
// they read any text.
func TestFrontedRequests(t *testing.T) {
	for text, want := range map[string]string{
		`Of all the senses of "daze", pick the one that falls under confusedness.`: "pick the one that falls under confusedness.",
		"Among the films of X, give me the ones from 2001.":                        "give me the ones from 2001.",
		"Of the meanings of 'wolf', I want the one that is a composer.":            "want the one that is a composer.",
		"A small, round bright seed.":                                              "",
		"Of the meanings of 'wolf', composer one.":                                 "",
		"Of the meanings of 'wolf', pick composer.":                                "",
		"To conquer; to subdue, take the town.":                                    "",
		"One two three four five six seven eight nine, pick the one.":              "",
		"Pick the one that falls under confusedness.":                              "",
	} {
		got := ""
		if at := frontedRequest(text, true); at > 0 {
			got = text[at:]
		}
		if got != want {
			t.Errorf("frontedRequest(%q) reads from %q, want %q", text, got, want)
		}
	}
	if at := frontedRequest("Of the meanings of 'wolf', I want the one.", false); at != 0 {
		t.Errorf("frontedRequest without speaker reads from %q, want nothing", "Of the meanings of 'wolf', I want the one."[at:])
	}
	const dim = 1 << 12
	p := filmPlanner(t, []string{"kind_of"}, []string{"Tell", "object"}, [][3]int{{1, 0, 0}},
		[][][]string{{{"*", "<-kind_of", "person"}}}, AnchorConfig{})
	for _, on := range []bool{true, false} {
		p.Cfg.Anchors.Fit = &FitConfig{Dim: dim, LeadVerbs: true, FrontedRequests: on}
		got := p.FitFeatures("Of all the senses of 'daze', pick the one.")
		if lead := slices.Contains(got, fitHash(dim, "f <verb>")); lead != on {
			t.Errorf("FrontedRequests %v: features read \"pick\" as a lead verb: %v", on, lead)
		}
		if senses := slices.Contains(got, fitHash(dim, "w sense")); senses == on {
			t.Errorf("FrontedRequests %v: features read the fronted phrase: %v", on, senses)
		}
	}
}

// TestFitProb: the logistic of the summed weights, by hand: bias -1 and
// "w film" 2 give sigmoid(1) = 0.7311 for "film".
func TestFitProb(t *testing.T) {
	const dim = 1 << 20
	m, _ := models.NewSparseLinear(dim, "fit")
	w := m.W.Data()
	w[fitHash(dim, "bias")] = -1
	w[fitHash(dim, "w film")] = 2
	if got, want := FitProb(m, FitFeatures(m.Dim, "film", false)), 0.7310586; math.Abs(float64(got)-want) > 1e-6 {
		t.Errorf("FitProb = %.7f, want %.7f", got, want)
	}
}

// TestCalibrateFit: val {0.9, 0.8, 0.6} against passages {0.1, 0.3, 0.7}:
// a threshold in (0.3, 0.6] passes all three questions and sends two
// passages to the text (1 + 2/3), as one in (0.7, 0.8] does (2/3 + 1);
// 0.5, the model's own boundary, is one of them. Val {0.9, 0.8} against
// {0.1, 0.55}: only (0.55, 0.8] separates them (0.5 passes a passage), so
// the threshold is the logit middle of 0.55 and 0.8: 0.68858. With
// lowest, the threshold sits just above the passage below the first best
// gap instead.
func TestCalibrateFit(t *testing.T) {
	if got := CalibrateFit([]float32{0.9, 0.8, 0.6}, []float32{0.1, 0.3, 0.7}, false); got != 0.5 {
		t.Errorf("threshold %.7f, want 0.5", got)
	}
	if got := CalibrateFit([]float32{0.9, 0.8}, []float32{0.1, 0.55}, false); math.Abs(float64(got)-0.6885786) > 1e-6 {
		t.Errorf("threshold %.7f, want 0.6885786", got)
	}
	if got := CalibrateFit([]float32{0.8, 0.9}, []float32{0.2}, false); math.Abs(float64(got)-0.5) > 1e-6 {
		t.Errorf("separated at 0.2 and 0.8: threshold %.7f, want 0.5", got)
	}
	if got := CalibrateFit([]float32{0.1}, []float32{0.9}, false); got != 0 {
		t.Errorf("passages above the questions: threshold %v, want 0 (pass everything)", got)
	}
	if got := CalibrateFit(nil, []float32{0.9}, false); got != 0 {
		t.Errorf("no questions: threshold %v, want 0", got)
	}
	// The lowest threshold of the first best gap: just above 0.3 (the
	// passages 0.1 and 0.3 below it, val 0.6 above; 0.7 costs 0.6's
	// question) and just above 0.2.
	if got, want := CalibrateFit([]float32{0.9, 0.8, 0.6}, []float32{0.1, 0.3, 0.7}, true), math.Nextafter32(0.3, 1); got != want {
		t.Errorf("lowest: threshold %.9f, want %.9f", got, want)
	}
	if got, want := CalibrateFit([]float32{0.8, 0.9}, []float32{0.2}, true), math.Nextafter32(0.2, 1); got != want {
		t.Errorf("lowest, separated at 0.2 and 0.8: threshold %.9f, want %.9f", got, want)
	}
	if got := CalibrateFit([]float32{0.1}, []float32{0.9}, true); got != 0 {
		t.Errorf("lowest, passages above the questions: threshold %v, want 0 (pass everything)", got)
	}
}

// TestPassages: a film's details without its name, cut at three words;
// the director, with empty details, has none.
func TestPassages(t *testing.T) {
	s := testskb.DirectorFilms()
	got := Passages(s, nil, []uint32{0, 1, 2}, 3)
	want := []string{"Released in 2007.", "Released in 1999."}
	if !slices.Equal(got, want) {
		t.Errorf("passages %q, want %q", got, want)
	}
	if got := Passages(s, []string{"details"}, []uint32{1}, 3); got != nil {
		t.Errorf("details as an alias field: passages %q, want none", got)
	}
}

// gatedPlanner is a linking planner on DirectorFilms whose text-fit gate
// (bias -1 alone: 0.269 for every query) is below its threshold 0.5.
func gatedPlanner(t *testing.T) *LinkingPlanner {
	ws := testskb.Workspace(t, testskb.DirectorFilms())
	const dim = 1 << 20
	fit, _ := models.NewSparseLinear(dim, "planner.fit")
	fit.W.Data()[fitHash(dim, "bias")] = -1
	return &LinkingPlanner{Classifier: &Classifier{ws: ws, skb: ws.SKB, Cfg: Config{Anchors: &AnchorConfig{Fit: &FitConfig{Dim: dim, Min: 0.5}}}}, Fit: fit}
}

// TestNoPlanFits: a query the gate puts below its threshold (bias -1:
// 0.269 < 0.5) gets no plan, plan-exec answers it by BM25 and counts it.
func TestNoPlanFits(t *testing.T) {
	p := gatedPlanner(t)
	ws := p.ws
	q := data.Query{Text: "released in 1999"}
	pred, err := p.Predict(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	if !pred.NoFit || math.Abs(float64(pred.Fit)-0.2689414) > 1e-6 || pred.Plan.MetapathTokens() != nil || pred.Template != -1 {
		t.Fatalf("prediction %+v: want no plan, fit 0.2689", pred)
	}
	m := &PlannedMethod{P: p, M: baseline.NewPlanExec(ws)}
	hits, err := m.Rank(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	infer.SortHits(hits)
	if len(hits) == 0 || hits[0].ID != 2 {
		t.Errorf("hits %+v: want BM25's, Second Film (released in 1999) first", hits)
	}
	if n := m.TakeFallbacks(); n != 1 {
		t.Errorf("fallbacks %d, want 1", n)
	}
}

// TestNoPlanFitsPassage: the method a planner wraps reads a query the gate
// puts below its threshold as a passage (data.Query.Passage, which the
// reading channel reads with its name profiles), in Rank and in Explain
// alike. A prediction reads a query as a passage when the gate said no
// plan fits or the query is too long to plan, never when it has a plan or
// the question's named type ruled every plan out (a question still).
func TestNoPlanFitsPassage(t *testing.T) {
	p := gatedPlanner(t)
	var got []bool
	m := &PlannedMethod{P: p, M: queryFunc(func(q data.Query) { got = append(got, q.Passage) })}
	q := data.Query{Text: "released in 1999"}
	if _, err := m.Rank(t.Context(), q); err != nil {
		t.Fatal(err)
	}
	if _, err := m.Explain(t.Context(), q, 1); err != nil {
		t.Fatal(err)
	}
	if want := []bool{true, true}; !slices.Equal(got, want) {
		t.Errorf("passages %v, want %v (below the gate in Rank and Explain)", got, want)
	}
	plan := data.Plan{Named: []uint32{1}} // a marker: the applied query carries this plan
	for _, c := range []struct {
		pred infer.PlanPrediction
		want bool
	}{
		{infer.PlanPrediction{Plan: plan, Template: 0}, false},
		{infer.PlanPrediction{Template: -1, NoFit: true}, true},
		{infer.PlanPrediction{Template: -1, TooLong: true}, true},
		{infer.PlanPrediction{Template: -1, RuledOut: true}, false},
	} {
		aq := c.pred.Apply(q)
		if aq.Passage != c.want || aq.Plan == nil || !slices.Equal(aq.Plan.Named, c.pred.Plan.Named) || aq.Text != q.Text {
			t.Errorf("%+v applied: %+v, want passage %v and the prediction's plan", c.pred, aq, c.want)
		}
	}
}

// queryFunc is a method that hands each query it ranks to a function and
// ranks nothing.
type queryFunc func(data.Query)

func (f queryFunc) Name() string { return "note" }

func (f queryFunc) Rank(_ context.Context, q data.Query) ([]index.Hit, error) {
	f(q)
	return nil, nil
}

// TestExplainNoPlanFits: explain says that no plan fits, with the gate's
// probability, and shows BM25's ranking.
func TestExplainNoPlanFits(t *testing.T) {
	p := gatedPlanner(t)
	ws := p.ws
	m := &PlannedMethod{P: p, M: baseline.NewPlanExec(ws)}
	e, err := m.Explain(context.Background(), data.Query{Text: "released in 1999"}, 1)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := e.WriteText(&b, ws); err != nil {
		t.Fatal(err)
	}
	want := "planner+plan-exec: no plan fits (text fit 0.269, below the planner's threshold): the text answers (bm25)\n  1. Second Film"
	if !strings.HasPrefix(b.String(), want) {
		t.Errorf("explanation:\n%s\nwant it to start with:\n%s", b.String(), want)
	}
}

// TestCalibrateRescue: the confidence that RescueShare (5%) of the
// passages reach: of 40 confidences 0.01 ... 0.40, the one at index
// ⌈0.95·40⌉ = 38 of the sorted list, 0.39 (two of 40 reach it); none
// gives 0 (no rescue).
func TestCalibrateRescue(t *testing.T) {
	var c []float32
	for i := 40; i >= 1; i-- {
		c = append(c, float32(i)/100)
	}
	if got := CalibrateRescue(c); got != 0.39 {
		t.Errorf("CalibrateRescue = %v, want 0.39", got)
	}
	if got := CalibrateRescue(nil); got != 0 {
		t.Errorf("no passages: %v, want 0", got)
	}
}

// rejectingCastPlanner is castPlanner (two-hop off) with a text-fit gate
// of 64 features whose bias weight, -5, puts every text at FitProb 0.0067;
// the caller sets the gate's FitConfig.
func rejectingCastPlanner(t *testing.T) *LinkingPlanner {
	t.Helper()
	p := castPlanner(t, true, false)
	fit, _ := models.NewSparseLinear(64, "planner.fit")
	fit.W.Data()[fitHash(64, "bias")] = -5
	p.Fit = fit
	return p
}

// TestFitRescue: a query the gate rejects (its bias weight puts every
// text at FitProb 0.0067, below Min 0.5) falls back without a rescue
// threshold or when the planner's confidence in its one candidate (1)
// is below it, and keeps its plan when the confidence reaches it.
func TestFitRescue(t *testing.T) {
	p := rejectingCastPlanner(t)
	q := data.Query{Text: "Which films star Ann Lee?", ID: -1}
	for _, c := range []struct {
		rescue float32
		noFit  bool
	}{{0, true}, {1.5, true}, {0.9, false}, {1, false}} {
		p.Cfg.Anchors.Fit = &FitConfig{Dim: 64, Min: 0.5, Rescue: c.rescue}
		pred, err := p.Predict(context.Background(), q)
		if err != nil {
			t.Fatal(err)
		}
		if pred.NoFit != c.noFit || pred.Fit > 0.01 {
			t.Errorf("rescue %v: NoFit %v (fit %v, confidence %v), want %v", c.rescue, pred.NoFit, pred.Fit, pred.Conf, c.noFit)
		}
		if !c.noFit && (pred.Conf != 1 || len(pred.Plan.MetapathTokens()) != 1) {
			t.Errorf("rescue %v: plan %v confidence %v, want the one-hop plan at 1", c.rescue, pred.Plan.MetapathTokens(), pred.Conf)
		}
	}
}

// TestPlannerFitFeaturesLeadVerb: the planner's gate features read "Tell"
// in "Tell me the films." as a lead verb only with FitConfig.LeadVerbs.
func TestPlannerFitFeaturesLeadVerb(t *testing.T) {
	const dim = 1 << 12
	p := filmPlanner(t, []string{"kind_of"}, []string{"Tell", "object"}, [][3]int{{1, 0, 0}},
		[][][]string{{{"*", "<-kind_of", "person"}}}, AnchorConfig{})
	for _, on := range []bool{true, false} {
		p.Cfg.Anchors.Fit = &FitConfig{Dim: dim, LeadVerbs: on}
		got := slices.Contains(p.FitFeatures("Tell me the films."), fitHash(dim, "f <verb>"))
		if got != on || slices.Contains(p.FitFeatures("Tell me the films."), fitHash(dim, "f tell")) == on {
			t.Errorf("LeadVerbs %v: features read the lead verb: %v", on, got)
		}
	}
}

// TestLeadOf: with FitConfig.LeadOf a first verb followed by "of" is read
// as the word it is ("Want of resemblance": "f want", "p want of"), and
// one followed by its object still as a lead verb ("Name the films");
// without it both are lead verbs.
func TestLeadOf(t *testing.T) {
	const dim = 1 << 12
	p := filmPlanner(t, []string{"kind_of"}, []string{"Tell", "object"}, [][3]int{{1, 0, 0}},
		[][][]string{{{"*", "<-kind_of", "person"}}}, AnchorConfig{})
	for _, on := range []bool{true, false} {
		p.Cfg.Anchors.Fit = &FitConfig{Dim: dim, LeadVerbs: true, LeadOf: on}
		want := p.FitFeatures("Want of resemblance")
		if lead := slices.Contains(want, fitHash(dim, "f <verb>")); lead == on || slices.Contains(want, fitHash(dim, "p want of")) != on {
			t.Errorf("LeadOf %v: \"Want of resemblance\" read with a lead verb: %v", on, lead)
		}
		if !slices.Contains(p.FitFeatures("Name the films"), fitHash(dim, "f <verb>")) {
			t.Errorf("LeadOf %v: \"Name the films\" read without its lead verb", on)
		}
	}
	for text, want := range map[string]bool{"Want of resemblance": true, "Act  of rising": true, "Name the films of X": false, "Want": false, "Of a film": false} {
		if got := ofAfterFirst(text); got != want {
			t.Errorf("ofAfterFirst(%q) = %v, want %v", text, got, want)
		}
	}
}

// TestCasualForm: lower case, closing marks and spaces dropped.
func TestCasualForm(t *testing.T) {
	for in, want := range map[string]string{"Which Films?": "which films", "  Name a film. ": "name a film", "Why?!": "why", "no mark": "no mark"} {
		if got := CasualForm(in); got != want {
			t.Errorf("CasualForm(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestExplainNoPlan: a question whose name links to no node (misspelt:
// "Ann Lea") gets no plan; plan-exec answers it by BM25 and counts it,
// and explain says so, where it printed template -1 and an invalid plan.
func TestExplainNoPlan(t *testing.T) {
	p := filmPlanner(t, []string{"directed_by", "starred_actors"}, []string{"Paul Smith", "First Film", "Second Film", "Ann Lee"},
		[][3]int{{1, 0, 0}, {1, 1, 3}, {2, 0, 3}},
		[][][]string{{{"*", "<-starred_actors", "movie"}}}, AnchorConfig{})
	rankTemplates(p, []float32{1})
	m := &PlannedMethod{P: p, M: baseline.NewPlanExec(p.ws)}
	for _, c := range []struct {
		q      string
		noPlan bool
	}{{"Which films did Ann Lea star in?", true}, {"Which films did Ann Lee star in?", false}} {
		q := data.Query{Text: c.q, ID: -1}
		if _, err := m.Rank(context.Background(), q); err != nil {
			t.Fatal(err)
		}
		if n, want := m.TakeFallbacks(), map[bool]int64{true: 1}[c.noPlan]; n != want {
			t.Errorf("%q: fallbacks %d, want %d", c.q, n, want)
		}
		e, err := m.Explain(context.Background(), q, 1)
		if err != nil {
			t.Fatal(err)
		}
		m.TakeFallbacks() // explain ranks too
		var b strings.Builder
		if err := e.WriteText(&b, p.ws); err != nil {
			t.Fatal(err)
		}
		want := "planner+plan-exec: no plan found (nothing the query names links to a node a plan reaches others from): the text answers (bm25)\n"
		if got := strings.HasPrefix(b.String(), want); got != c.noPlan {
			t.Errorf("%q explained:\n%s\nstarts with %q: %v, want %v", c.q, b.String(), want, got, c.noPlan)
		}
	}
}

// TestFitQuotes: with FitConfig.Quotes each quotation is one word,
// "<quote>", in the word, pair and last-word features, whatever and
// however many words it quotes; an apostrophe inside a word ("Pakistan's")
// quotes nothing. Without it the quoted words are read as any others.
func TestFitQuotes(t *testing.T) {
	const dim = 1 << 20
	feats := func(ss ...string) []uint32 {
		var out []uint32
		for _, s := range ss {
			out = append(out, fitHash(dim, s))
		}
		return out
	}
	for _, c := range []struct {
		text string
		want []uint32
	}{
		{`"a hard stone of the fields" describes one rock. Name it.`, feats("bias", "w <quote>", "w describe", "p <quote> describe", "w one", "p describe one", "w rock", "p one rock", "w name", "p rock name", "w it", "p name it", "f <quote>", "l it")},
		{"Which sense of 'bank' is a 'sloping land'", feats("bias", "w which", "w sense", "p which sense", "w of", "p sense of", "w <quote>", "p of <quote>", "w is", "p <quote> is", "w a", "p is a", "w <quote>", "p a <quote>", "f which", "l <quote>")},
		{"Pakistan's rivers", feats("bias", "w pakistan", "w river", "p pakistan river", "f pakistan", "l river")},
	} {
		if got := fitFeatures(dim, c.text, false, true); !slices.Equal(got, c.want) {
			t.Errorf("%q: features %v, want %v", c.text, got, c.want)
		}
	}
	if got := fitFeatures(dim, "Name 'a hard stone'.", false, false); !slices.Equal(got, FitFeatures(dim, "Name 'a hard stone'.", false)) || slices.Contains(got, fitHash(dim, "w <quote>")) {
		t.Errorf("without quotes: features %v, want FitFeatures' with the quoted words", got)
	}
	p := filmPlanner(t, []string{"kind_of"}, []string{"Tell", "object"}, [][3]int{{1, 0, 0}},
		[][][]string{{{"*", "<-kind_of", "person"}}}, AnchorConfig{})
	for _, on := range []bool{true, false} {
		p.Cfg.Anchors.Fit = &FitConfig{Dim: dim, Quotes: on}
		got := p.FitFeatures("films glossed 'a hard stone'")
		if slices.Contains(got, fitHash(dim, "l <quote>")) != on || slices.Contains(got, fitHash(dim, "w stone")) == on {
			t.Errorf("Quotes %v: features read the quotation as one word: %v", on, !on)
		}
	}
}

// TestCalibrateFitShare: the threshold passes int(share*n) of n
// passages, just above the next one's probability: of ten, a share of
// 0.2 passes the two highest (0.9 and 0.8; the threshold just above
// 0.7), 0.05 none (just above 0.9), and with no passages it is 0.
func TestCalibrateFitShare(t *testing.T) {
	neg := []float32{0.1, 0.9, 0.3, 0.05, 0.7, 0.2, 0.8, 0.4, 0.6, 0.5}
	if got, want := CalibrateFitShare(neg, 0.2), math.Nextafter32(0.7, 1); got != want {
		t.Errorf("share 0.2: threshold %.9f, want %.9f", got, want)
	}
	if got, want := CalibrateFitShare(neg, 0.05), math.Nextafter32(0.9, 1); got != want {
		t.Errorf("share 0.05: threshold %.9f, want %.9f", got, want)
	}
	if got := CalibrateFitShare(nil, 0.2); got != 0 {
		t.Errorf("no passages: threshold %v, want 0", got)
	}
	if !slices.Equal(neg[:3], []float32{0.1, 0.9, 0.3}) {
		t.Errorf("CalibrateFitShare reordered its input: %v", neg)
	}
}
