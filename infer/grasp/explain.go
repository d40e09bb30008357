package grasp

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/data/index"
	"github.com/strata-retrieval/strata/graphops/workspace"
	"github.com/strata-retrieval/strata/infer"
)

// Explanation is how GRASP's stage 2 ranked a query: the plan, its
// candidate count, the planner's confidence and the risk level, both
// branches' fusion weights and the top k.
type Explanation struct {
	Plan        data.GraspPlan `json:"plan"`
	NCand       int            `json:"n_cand"`
	Conf        float64        `json:"planner_confidence"` // negative: the plan declared its risk level
	Risk        string         `json:"risk_level"`
	GraphWeight float64        `json:"graph_weight"`
	TextWeight  float64        `json:"text_weight"`
	Fusion      string         `json:"fusion"`
	K           float64        `json:"k"`
	Stage3      string         `json:"stage3,omitempty"`
	Top         []index.Hit    `json:"top"`
}

// Explain implements infer.Explainer.
func (m *Fused) Explain(ctx context.Context, q data.Query, k int) (infer.Explanation, error) {
	plan, _, err := m.G.Plans(ctx, q)
	if err != nil {
		return nil, err
	}
	r, err := m.G.Retrieve(ctx, q)
	if err != nil {
		return nil, err
	}
	hits, err := m.Rank(ctx, q)
	if err != nil {
		return nil, err
	}
	e := &Explanation{Plan: plan, NCand: r.Meta.NCand, Conf: r.Meta.Conf, Risk: m.Choice.RiskLevel(r.Meta),
		Fusion: m.Choice.Mode, K: m.Choice.K, Top: hits[:min(k, len(hits))]}
	if r.Meta.Risk != "" {
		e.Conf = Declared
	}
	e.GraphWeight, e.TextWeight = m.Choice.Weights(r.Meta)
	if m.Stage3 != nil {
		e.Stage3 = fmt.Sprintf("%s (%s), fused by static RRF w=%.2f k=%g", m.Stage3.Name(), m.Stage3Mode, m.Stage3Choice.W, m.Stage3Choice.K)
	}
	return e, nil
}

// WriteText implements infer.Explanation.
func (e *Explanation) WriteText(out io.Writer, ws *workspace.Workspace) error {
	b, _ := json.MarshalIndent(e.Plan, "", "  ")
	conf := "declared by the plan"
	if e.Conf >= 0 {
		conf = fmt.Sprintf("from planner confidence %.3f", e.Conf)
	}
	fmt.Fprintf(out, "plan:\n%s\nn_cand %d, risk_level %s (%s): weights graph %.3f, mFAR %.3f (%s RRF, k=%g)\n", b, e.NCand, e.Risk, conf, e.GraphWeight, e.TextWeight, e.Fusion, e.K)
	if e.Stage3 != "" {
		fmt.Fprintf(out, "stage 3: %s\n", e.Stage3)
	}
	w := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "\nrank\tnode\tscore\tname")
	for i, h := range e.Top {
		fmt.Fprintf(w, "%d\t%d\t%.5f\t%s\n", i+1, h.ID, h.Score, ws.SKB.Nodes[h.ID].Name)
	}
	return w.Flush()
}
