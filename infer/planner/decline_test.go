package planner

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/infer/baseline"
)

// TestDeclineRuledOut: castPlanner without its two-hop template has one
// plan for "Which person directed the films starring Ann Lee?", Ann Lee's
// films, which the named type "person" rules out. With lead types from
// n questions "Which person ..." answered with people and n "Which films
// ..." answered with films, a film after "which person" has, by hand,
// p0 = (n+1)/(2n+3), then (n + 2 p0)/(2n + 2) after "which", then
// 2 p1/(n + 2) after "which person": 0.0066 for n = 150, below
// minLeadTypeProb, so the planner declines (RuledOut, no template) and
// plan-exec answers by its text fallback, counted; 0.0192 for n = 50,
// above it, and the films plan stands, as it does without
// DeclineRuledOut and for a question no rule rules the plan out in.
func TestDeclineRuledOut(t *testing.T) {
	lead := func(n int) *LeadTypes {
		l := NewLeadTypes()
		for range n {
			l.Add([2]string{"which", "person"}, "person")
			l.Add([2]string{"which", "films"}, "movie")
		}
		return l
	}
	byHand := func(n float64) float64 {
		p0 := (n + 1) / (2*n + 3)
		p1 := (n + 2*p0) / (2*n + 2)
		return 2 * p1 / (n + 2)
	}
	for _, n := range []int{50, 150} {
		if got, want := lead(n).Prob([2]string{"which", "person"}, "movie"), byHand(float64(n)); math.Abs(got-want) > 1e-12 {
			t.Errorf("n %d: Prob %v, want %v", n, got, want)
		}
	}
	if byHand(150) >= minLeadTypeProb || byHand(50) < minLeadTypeProb {
		t.Fatalf("by hand %v and %v do not straddle %v", byHand(150), byHand(50), minLeadTypeProb)
	}
	const q = "Which person directed the films starring Ann Lee?"
	for _, c := range []struct {
		text    string
		n       int
		decline bool
		want    bool
	}{
		{q, 150, true, true},
		{q, 50, true, false},
		{q, 150, false, false},
		{"Which films starring Ann Lee?", 150, true, false},
	} {
		p := castPlanner(t, true, false)
		p.Cfg.Anchors.Lead, p.Cfg.Anchors.DeclineRuledOut = lead(c.n), c.decline
		pred, err := p.Predict(context.Background(), data.Query{Text: c.text, ID: -1})
		if err != nil {
			t.Fatal(err)
		}
		if pred.RuledOut != c.want || (pred.Template < 0) != c.want {
			t.Errorf("%q, n %d, decline %v: RuledOut %v, template %d, want declined %v", c.text, c.n, c.decline, pred.RuledOut, pred.Template, c.want)
		}
		if !c.want && strings.Join(pred.Plan.MetapathTokens()[0], " ") != "person <-starred_actors movie" {
			t.Errorf("%q: plan %v, want Ann Lee's films", c.text, pred.Plan.MetapathTokens())
		}
		if !c.want {
			continue
		}
		m := &PlannedMethod{P: p, M: baseline.NewPlanExec(p.ws)}
		if _, err := m.Rank(context.Background(), data.Query{Text: c.text, ID: -1}); err != nil {
			t.Fatal(err)
		}
		if n := m.TakeFallbacks(); n != 1 {
			t.Errorf("fallbacks %d, want 1", n)
		}
		e, err := m.Explain(context.Background(), data.Query{Text: c.text, ID: -1}, 1)
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		if err := e.WriteText(&b, p.ws); err != nil {
			t.Fatal(err)
		}
		if want := "planner+plan-exec: no plan fits (what the query names rules out every plan found, and its first words the type the best answers with): the text answers (bm25)\n"; !strings.HasPrefix(b.String(), want) {
			t.Errorf("explanation:\n%s\nwant it to start with:\n%s", b.String(), want)
		}
	}
}
