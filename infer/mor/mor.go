package infer

import (
	"context"
	"errors"
	"sort"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/data/index"
	"github.com/strata-retrieval/strata/graphops"
	"github.com/strata-retrieval/strata/graphops/workspace"
	"github.com/strata-retrieval/strata/models"
)

// MoRFeatures builds the trajectory reranker's inputs over a workspace.
type MoRFeatures struct {
	ws    *workspace.Workspace
	tm    *WorkspaceMatcher
	dense *DenseChannel // nil: the dense slot of the textual fingerprint is 0
	cfg   graphops.TraversalConfig
	last  bool // features of the candidate only, not its whole trajectory
}

// NewMoRFeatures binds the features to a workspace; cfg sets the traversal
// (and its ablations) and lastNodeOnly keeps only the candidate's own step.
func NewMoRFeatures(ws *workspace.Workspace, d *DenseChannel, cfg graphops.TraversalConfig, lastNodeOnly bool) *MoRFeatures {
	return &MoRFeatures{ws: ws, tm: NewWorkspaceMatcher(ws), dense: d, cfg: cfg, last: lastNodeOnly}
}

// nodeBM25 scores a node's text for the query: its whole document for
// candidates, its name otherwise.
func (f *MoRFeatures) nodeBM25(query string, v uint32) float32 {
	if f.ws.CandMask[v] {
		d := sort.Search(len(f.ws.Candidates), func(i int) bool { return f.ws.Candidates[i] >= v })
		return f.ws.Doc.Score(query, uint32(d))
	}
	return f.ws.Fields[workspace.NameField].Score(query, v)
}

// Pool runs the traversal for q with plan and returns the candidates with
// their reranker inputs. ok is false when the plan is unusable (the caller
// falls back to the first stage).
func (f *MoRFeatures) Pool(q data.Query, plan data.Plan) ([]uint32, []models.TrajectoryInput, bool, error) {
	first := f.ws.SearchDoc(q.Text, 100)
	res, err := graphops.MixedTraversal(f.ws.Graph, f.tm, q.Text, plan, f.cfg, first)
	if errors.Is(err, graphops.ErrInvalidPlan) {
		return nil, nil, false, nil
	}
	if err != nil {
		return nil, nil, false, err
	}
	var qv []float32
	if f.dense != nil {
		if qv, err = f.dense.QueryVector(q); err != nil {
			return nil, nil, false, err
		}
	}
	var ids []uint32
	var in []models.TrajectoryInput
	for _, h := range res.Pool {
		if !f.ws.CandMask[h.ID] {
			continue
		}
		steps := res.Trajectories[h.ID]
		if len(steps) > models.TrajLen {
			steps = steps[len(steps)-models.TrajLen:]
		}
		if f.last && len(steps) > 1 {
			steps = steps[len(steps)-1:]
		}
		var x models.TrajectoryInput
		for p := range x.Types {
			x.Types[p] = -1
		}
		off := models.TrajLen - len(steps) // left padding
		for i, s := range steps {
			x.Types[off+i] = int32(s.Type)
			x.Codes[off+i] = 2
			if s.Textual {
				x.Codes[off+i] = 1
			}
			x.TF[models.TrajTF-1-len(steps)+i] = f.nodeBM25(q.Text, s.Node)
		}
		if qv != nil {
			x.TF[models.TrajTF-1] = index.ScoreRows(f.dense.Docs, qv, []uint32{h.ID})[0]
		}
		ids = append(ids, h.ID)
		in = append(in, x)
	}
	return ids, in, true, nil
}

// MoRConfig is a MoR checkpoint's model config.
type MoRConfig struct {
	Reranker     models.TrajectoryConfig  `json:"reranker"`
	Traversal    graphops.TraversalConfig `json:"traversal"`
	LastNodeOnly bool                     `json:"last_node_only,omitempty"`
	Planner      string                   `json:"planner,omitempty"`
}

// MoRMethod reranks MoR's traversal pool with the trajectory reranker.
// Plans come from the planner when set, else from the query or the
// workspace; queries without a usable plan fall back to BM25.
type MoRMethod struct {
	F       *MoRFeatures
	Model   *models.TrajectoryReranker
	Planner *Planner
}

func (m *MoRMethod) Name() string { return "mor" }

func (m *MoRMethod) Rank(ctx context.Context, q data.Query) ([]index.Hit, error) {
	plan, ok := m.F.ws.Plans[q.ID]
	if q.Plan != nil {
		plan, ok = *q.Plan, true
	}
	if m.Planner != nil {
		p, _, err := m.Planner.Predict(q)
		if err != nil {
			return nil, err
		}
		plan, ok = p, true
	}
	if ok {
		ids, in, usable, err := m.F.Pool(q, plan)
		if err != nil {
			return nil, err
		}
		if usable && len(ids) > 0 {
			scores := m.Model.Score(in)
			out := make([]index.Hit, len(ids))
			for i := range ids {
				out[i] = index.Hit{ID: ids[i], Score: scores[i]}
			}
			return out, nil
		}
	}
	return m.F.ws.SearchDoc(q.Text, 100), nil
}

// MoRExplanation is a query's plan and its best candidates with the
// trajectories that reached them.
type MoRExplanation struct {
	Plan     data.Plan
	Planned  bool // predicted by the planner
	Fallback bool // no usable plan: BM25 ranking
	Top      []MoRHit
}

// MoRHit is a ranked candidate and its trajectory.
type MoRHit struct {
	Node       uint32
	Score      float32
	Trajectory []graphops.Step
}

// Explain scores a query and returns its plan and top k with trajectories.
func (m *MoRMethod) Explain(q data.Query, k int) (*MoRExplanation, error) {
	e := &MoRExplanation{}
	plan, ok := m.F.ws.Plans[q.ID]
	if q.Plan != nil {
		plan, ok = *q.Plan, true
	}
	if m.Planner != nil {
		p, _, err := m.Planner.Predict(q)
		if err != nil {
			return nil, err
		}
		plan, ok, e.Planned = p, true, true
	}
	e.Plan = plan
	if !ok {
		e.Fallback = true
		return e, nil
	}
	first := m.F.ws.SearchDoc(q.Text, 100)
	res, err := graphops.MixedTraversal(m.F.ws.Graph, m.F.tm, q.Text, plan, m.F.cfg, first)
	if errors.Is(err, graphops.ErrInvalidPlan) {
		e.Fallback = true
		return e, nil
	}
	if err != nil {
		return nil, err
	}
	ids, in, _, err := m.F.Pool(q, plan)
	if err != nil {
		return nil, err
	}
	scores := m.Model.Score(in)
	for _, h := range topHits(scores, ids, k) {
		e.Top = append(e.Top, MoRHit{Node: h.hit.ID, Score: h.hit.Score, Trajectory: res.Trajectories[h.hit.ID]})
	}
	return e, nil
}
