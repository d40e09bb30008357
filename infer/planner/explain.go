package planner

import (
	"cmp"
	"context"
	"fmt"
	"io"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/data/index"
	gplan "github.com/strata-retrieval/strata/graphops/plan"
	"github.com/strata-retrieval/strata/graphops/workspace"
	"github.com/strata-retrieval/strata/infer"
)

var _ infer.Explainer = (*PlannedMethod)(nil)

// PlanExplanation is a planned method's answer to one query: the predicted
// plan (MoR's shape, with linked anchors), the same plan in the typed
// algebra as it executes, the planner's confidence and the top k.
type PlanExplanation struct {
	Method   string    `json:"method"`
	Plan     data.Plan `json:"plan"`
	Typed    string    `json:"typed_plan"`
	Template int       `json:"template"`
	Conf     float32   `json:"confidence"`
	Reached  int       `json:"reached"` // candidates the plan reaches (-1: not executed while planning)
	// NoFit: the text-fit gate found no plan that fits the query (Fit, its
	// probability, below its threshold); the wrapped method answered by
	// its text fallback.
	NoFit bool    `json:"no_fit,omitempty"`
	Fit   float32 `json:"text_fit"`
	// TooLong: the query has more words than the planner plans
	// (MaxPlanWords); the wrapped method answered by its text fallback.
	TooLong bool `json:"too_long,omitempty"`
	// RuledOut: what the query names rules out every plan the planner
	// found, and its lead words the type the best answers with
	// (AnchorConfig.DeclineRuledOut); the wrapped method answered by its
	// text fallback.
	RuledOut bool `json:"ruled_out,omitempty"`
	// NoPlan: the planner found no plan (nothing the query names links to
	// a node a candidate plan reaches another from, as when a name is
	// misspelt); the wrapped method answered by its text fallback.
	NoPlan bool `json:"no_plan,omitempty"`
	// Text names the text channel the fallbacks use (bm25, bm25+dense, reading).
	Text string `json:"text_channel,omitempty"`
	// ReadAs: the question as the planner read it, when the lexicon
	// replaced words no training question used.
	ReadAs string      `json:"read_as,omitempty"`
	Hits   []index.Hit `json:"hits"`
}

// Explain implements infer.Explainer: the plan the planner chose, typed,
// and the ranking the wrapped method gives with it.
func (m *PlannedMethod) Explain(ctx context.Context, q data.Query, k int) (infer.Explanation, error) {
	pred, err := m.P.Predict(ctx, q)
	if err != nil {
		return nil, err
	}
	e := &PlanExplanation{Method: m.Name(), Plan: pred.Plan, Template: pred.Template, Conf: pred.Conf, Reached: -1, NoFit: pred.NoFit, Fit: pred.Fit, ReadAs: pred.ReadAs, TooLong: pred.TooLong, RuledOut: pred.RuledOut}
	e.NoPlan = !pred.NoFit && !pred.TooLong && !pred.RuledOut && len(pred.Plan.Paths) == 0
	if pred.NoFit || pred.TooLong || pred.RuledOut || e.NoPlan {
		e.Text = m.FallbackText()
	}
	if pred.Reach != nil {
		e.Reached = len(pred.Reach.Nodes)
	}
	switch typed, err := gplan.Compile(&m.P.Workspace().SKB.Schema, pred.Plan); {
	case err != nil:
		e.Typed = "(" + err.Error() + ")"
	case typed == nil:
		e.Typed = "(no structure)"
	default:
		e.Typed = typed.Format(&m.P.Workspace().SKB.Schema)
	}
	if n := pred.Plan.Named; len(n) > 0 {
		names := make([]string, len(n))
		for i, v := range n {
			names[i] = m.P.Workspace().Graph.Name(v)
		}
		e.Typed += fmt.Sprintf(", named first: %q", names)
	}
	hits, err := m.M.Rank(ctx, pred.Apply(q))
	if err != nil {
		return nil, err
	}
	infer.SortHits(hits)
	e.Hits = hits[:min(k, len(hits))]
	return e, nil
}

// WriteText implements infer.Explanation.
func (e *PlanExplanation) WriteText(w io.Writer, ws *workspace.Workspace) error {
	if e.TooLong {
		fmt.Fprintf(w, "%s: too long to plan (more than %d words): the text answers (%s)\n", e.Method, MaxPlanWords, cmp.Or(e.Text, "bm25"))
	} else if e.RuledOut {
		fmt.Fprintf(w, "%s: no plan fits (what the query names rules out every plan found, and its first words the type the best answers with): the text answers (%s)\n", e.Method, cmp.Or(e.Text, "bm25"))
	} else if e.NoFit {
		fmt.Fprintf(w, "%s: no plan fits (text fit %.3f, below the planner's threshold): the text answers (%s)\n", e.Method, e.Fit, cmp.Or(e.Text, "bm25"))
	} else if e.NoPlan {
		fmt.Fprintf(w, "%s: no plan found (nothing the query names links to a node a plan reaches others from): the text answers (%s)\n", e.Method, cmp.Or(e.Text, "bm25"))
	} else {
		if e.ReadAs != "" {
			fmt.Fprintf(w, "read as: %s\n", e.ReadAs)
		}
		fmt.Fprintf(w, "%s: template %d, confidence %.3f", e.Method, e.Template, e.Conf)
		if e.Reached >= 0 {
			fmt.Fprintf(w, ", %d candidates reached", e.Reached)
		}
		fmt.Fprintf(w, "\nplan: %s\n", e.Typed)
	}
	for i, h := range e.Hits {
		fmt.Fprintf(w, "%3d. %-50s %-10s %.4f\n", i+1, ws.Graph.Name(h.ID), ws.Graph.TypeName(h.ID), h.Score)
	}
	return nil
}
