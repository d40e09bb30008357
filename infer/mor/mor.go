package mor

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/data/index"
	"github.com/strata-retrieval/strata/graphops"
	gplan "github.com/strata-retrieval/strata/graphops/plan"
	"github.com/strata-retrieval/strata/graphops/workspace"
	"github.com/strata-retrieval/strata/infer"
	"github.com/strata-retrieval/strata/infer/registry"
	"github.com/strata-retrieval/strata/models"
)

// Features builds the trajectory reranker's inputs over a workspace.
type Features struct {
	ws    *workspace.Workspace
	tm    *workspace.TypeMatcher
	dense *infer.DenseChannel // nil: the dense slot of the textual fingerprint is 0
	cfg   gplan.TraversalConfig
	last  bool // features of the candidate only, not its whole trajectory
}

// NewFeatures binds the features to a workspace; cfg sets the traversal
// (and its ablations) and lastNodeOnly keeps only the candidate's own step.
func NewFeatures(ws *workspace.Workspace, d *infer.DenseChannel, cfg gplan.TraversalConfig, lastNodeOnly bool) *Features {
	return &Features{ws: ws, tm: workspace.NewTypeMatcher(ws), dense: d, cfg: cfg, last: lastNodeOnly}
}

// nodeScorer scores a node's text for one query: its whole document for
// candidates, its name otherwise. The query is tokenized once per index,
// when first needed, not once per node (a 1 MB query reranked over a pool
// of 100 took 1.4 s tokenizing it 200 times).
type nodeScorer struct {
	f         *Features
	query     string
	doc, name func(uint32) float32
}

func (s *nodeScorer) score(v uint32) float32 {
	ws := s.f.ws
	if ws.CandMask[v] {
		if s.doc == nil {
			s.doc = ws.Doc.Scorer(s.query)
		}
		d := sort.Search(len(ws.Candidates), func(i int) bool { return ws.Candidates[i] >= v })
		return s.doc(uint32(d))
	}
	if s.name == nil {
		s.name = ws.Fields[workspace.NameField].Scorer(s.query)
	}
	return s.name(v)
}

// Pool runs the traversal for q with plan and returns the candidates with
// their reranker inputs. ok is false when the plan is unusable (the caller
// falls back to the first stage).
func (f *Features) Pool(q data.Query, plan data.Plan) ([]uint32, []models.TrajectoryInput, bool, error) {
	res, ok, err := f.traverse(q, plan)
	if !ok || err != nil {
		return nil, nil, ok, err
	}
	var ids []uint32
	for _, h := range res.Pool {
		if f.ws.CandMask[h.ID] {
			ids = append(ids, h.ID)
		}
	}
	in, err := f.Inputs(q, res.Trajectories, ids)
	return ids, in, true, err
}

func (f *Features) traverse(q data.Query, plan data.Plan) (gplan.TraversalResult, bool, error) {
	first := f.ws.SearchDoc(q.Text, 100)
	res, err := gplan.MixedTraversal(f.ws.Graph, f.tm, q.Text, plan, f.cfg, first)
	if errors.Is(err, graphops.ErrInvalidPlan) {
		return res, false, nil
	}
	return res, err == nil, err
}

// Inputs builds the reranker inputs of nodes from their trajectories; a
// node the traversal did not reach has MoR's trajectory of a textual
// retrieval: itself, reached by text.
func (f *Features) Inputs(q data.Query, trajs map[uint32][]gplan.TrajectoryStep, ids []uint32) ([]models.TrajectoryInput, error) {
	var qv []float32
	if f.dense != nil {
		var err error
		if qv, err = f.dense.QueryVector(q); err != nil {
			return nil, err
		}
	}
	in := make([]models.TrajectoryInput, len(ids))
	bm := &nodeScorer{f: f, query: q.Text}
	for n, v := range ids {
		steps := trajs[v]
		if len(steps) == 0 {
			steps = []gplan.TrajectoryStep{{Node: v, Type: f.ws.SKB.Nodes[v].Type, Textual: true}}
		}
		if len(steps) > models.TrajLen {
			steps = steps[len(steps)-models.TrajLen:]
		}
		if f.last && len(steps) > 1 {
			steps = steps[len(steps)-1:]
		}
		x := &in[n]
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
			x.TF[models.TrajTF-1-len(steps)+i] = bm.score(s.Node)
		}
		if qv != nil {
			x.TF[models.TrajTF-1] = index.ScoreRows(f.dense.Docs, qv, []uint32{v})[0]
		}
	}
	return in, nil
}

// Config is a MoR checkpoint's model config.
type Config struct {
	Reranker     models.TrajectoryConfig `json:"reranker"`
	Traversal    gplan.TraversalConfig   `json:"traversal"`
	LastNodeOnly bool                    `json:"last_node_only,omitempty"`
	Planner      string                  `json:"planner,omitempty"`
}

// Method reranks MoR's traversal pool with the trajectory reranker.
// Plans come from the planner when set, else from the query or the
// workspace; queries without a usable plan fall back to BM25.
type Method struct {
	F       *Features
	Model   *models.TrajectoryReranker
	Planner infer.Planner
}

func (m *Method) Name() string { return "mor" }

// plan is the query's plan: the planner's, else the query's or the
// workspace's.
func (m *Method) plan(ctx context.Context, q data.Query) (data.Plan, bool, error) {
	if m.Planner != nil {
		pred, err := m.Planner.Predict(ctx, q)
		return pred.Plan, err == nil, err
	}
	p, ok := infer.PlanFor(m.F.ws, q)
	return p, ok, nil
}

func (m *Method) Rank(ctx context.Context, q data.Query) ([]index.Hit, error) {
	plan, ok, err := m.plan(ctx, q)
	if err != nil {
		return nil, err
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

// Rerank scores a given pool (GRASP's stage 3 over stage 2's top 100)
// with the trajectory reranker: a node MoR's traversal of the query's plan
// reaches keeps that trajectory, any other node (and every node when the
// query has no usable plan) the one-step trajectory of a textual
// retrieval.
func (m *Method) Rerank(ctx context.Context, q data.Query, pool []index.Hit) ([]index.Hit, error) {
	plan, ok, err := m.plan(ctx, q)
	if err != nil {
		return nil, err
	}
	var trajs map[uint32][]gplan.TrajectoryStep
	if ok {
		res, usable, err := m.F.traverse(q, plan)
		if err != nil {
			return nil, err
		}
		if usable {
			trajs = res.Trajectories
		}
	}
	ids := make([]uint32, len(pool))
	for i, h := range pool {
		ids[i] = h.ID
	}
	in, err := m.F.Inputs(q, trajs, ids)
	if err != nil {
		return nil, err
	}
	scores := m.Model.Score(in)
	out := make([]index.Hit, len(ids))
	for i, v := range ids {
		out[i] = index.Hit{ID: v, Score: scores[i]}
	}
	index.Sort(out)
	return out, nil
}

// Explanation is a query's plan and its best candidates with the
// trajectories that reached them.
type Explanation struct {
	Plan     data.Plan
	Planned  bool // predicted by the planner
	Fallback bool // no usable plan: BM25 ranking
	Top      []Hit
}

// Hit is a ranked candidate and its trajectory.
type Hit struct {
	Node       uint32
	Score      float32
	Trajectory []gplan.TrajectoryStep
}

// Explain implements infer.Explainer: the query's plan and its top k
// candidates with the trajectories that reached them.
func (m *Method) Explain(ctx context.Context, q data.Query, k int) (infer.Explanation, error) {
	e := &Explanation{}
	plan, ok := infer.PlanFor(m.F.ws, q)
	if m.Planner != nil {
		pred, err := m.Planner.Predict(ctx, q)
		if err != nil {
			return nil, err
		}
		plan, ok, e.Planned = pred.Plan, true, true
	}
	e.Plan = plan
	if !ok {
		e.Fallback = true
		return e, nil
	}
	first := m.F.ws.SearchDoc(q.Text, 100)
	res, err := gplan.MixedTraversal(m.F.ws.Graph, m.F.tm, q.Text, plan, m.F.cfg, first)
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
	for _, h := range infer.Top(scores, ids, k) {
		e.Top = append(e.Top, Hit{Node: h.Hit.ID, Score: h.Hit.Score, Trajectory: res.Trajectories[h.Hit.ID]})
	}
	return e, nil
}

// WriteText implements infer.Explanation.
func (e *Explanation) WriteText(out io.Writer, ws *workspace.Workspace) error {
	src := "the query's plan"
	if e.Planned {
		src = "predicted by the planner"
	}
	fmt.Fprintf(out, "plan (%s):\n", src)
	for _, p := range e.Plan.Paths {
		fmt.Fprintf(out, "  %s\n", strings.Join(p.Tokens(), " -> "))
	}
	keys := make([]string, 0, len(e.Plan.Restriction))
	for t := range e.Plan.Restriction {
		keys = append(keys, t)
	}
	sort.Strings(keys)
	for _, t := range keys {
		fmt.Fprintf(out, "  %s: %q\n", t, e.Plan.Restriction[t])
	}
	// The plan as the traversal walks it: universal steps and attribute
	// filters included.
	if typed, err := gplan.Compile(&ws.SKB.Schema, e.Plan); err == nil && typed != nil {
		fmt.Fprintf(out, "  typed: %s\n", typed.Format(&ws.SKB.Schema))
	}
	if e.Fallback {
		_, err := fmt.Fprintln(out, "no usable plan: MoR falls back to BM25")
		return err
	}
	w := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "\nrank\tnode\tscore\ttrajectory (T textual, S structural)")
	for i, h := range e.Top {
		var steps []string
		for _, s := range h.Trajectory {
			how := "S"
			if s.Textual {
				how = "T"
			}
			steps = append(steps, fmt.Sprintf("%s[%s] %s", how, ws.SKB.Schema.NodeTypes[s.Type], ws.SKB.Nodes[s.Node].Name))
		}
		fmt.Fprintf(w, "%d\t%d\t%.4f\t%s\n", i+1, h.Node, h.Score, strings.Join(steps, " -> "))
	}
	return w.Flush()
}

// Kind is the checkpoint kind of a MoR reranker.
const Kind = infer.KindMoR

var (
	_ infer.Reranker  = (*Method)(nil)
	_ infer.Explainer = (*Method)(nil)
)

func init() {
	registry.Register(Kind, func(env *infer.Env, ck *registry.Checkpoint) (infer.Method, error) {
		var cfg Config
		if err := ck.DecodeConfig("MoR", &cfg); err != nil {
			return nil, err
		}
		if err := ck.CheckShapes(models.TrajectoryShapes(cfg.Reranker)); err != nil {
			return nil, err
		}
		m, err := models.NewTrajectoryReranker(cfg.Reranker, nil)
		if err != nil {
			return nil, err
		}
		if err := ck.LoadParams(m.Params()); err != nil {
			return nil, err
		}
		d, err := env.Dense()
		if errors.Is(err, infer.ErrNoDense) {
			d, err = nil, nil
		}
		if err != nil {
			return nil, err
		}
		method := &Method{F: NewFeatures(env.WS, d, cfg.Traversal, cfg.LastNodeOnly), Model: m}
		if cfg.Planner != "" {
			if method.Planner, err = registry.LoadPlanner(env, cfg.Planner); err != nil {
				return nil, fmt.Errorf("%s: its planner: %w", ck.Dir, err)
			}
		}
		return method, nil
	})
}
