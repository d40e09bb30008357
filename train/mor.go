package train

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"

	"github.com/nlpodyssey/spago/mat"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/graphops/plan"
	"github.com/strata-retrieval/strata/graphops/workspace"
	"github.com/strata-retrieval/strata/infer"
	"github.com/strata-retrieval/strata/infer/mor"
	"github.com/strata-retrieval/strata/infer/planner"
	"github.com/strata-retrieval/strata/models"
)

// MoRModel adapts the trajectory reranker to the loop. Planner, when set,
// is the planner checkpoint the served model plans with.
type MoRModel struct {
	*models.TrajectoryReranker
	Cfg mor.Config
}

func (m MoRModel) Kind() string { return infer.KindMoR }
func (m MoRModel) ConfigJSON() (json.RawMessage, error) {
	c := m.Cfg
	c.Reranker = m.TrajectoryReranker.Cfg
	return json.Marshal(c)
}

// moRTask is MoR's reranker objective: softmax cross-entropy of one gold
// candidate of the traversal pool against Negatives candidates sampled with
// replacement from the pool's others, drawn afresh at every step.
type moRTask struct {
	m         *models.TrajectoryReranker
	inputs    [][]models.TrajectoryInput
	pos, neg  [][]int
	negatives int
}

func (t *moRTask) NumExamples() int { return len(t.inputs) }

func (t *moRTask) Loss(idx []int, r *rand.Rand) (mat.Tensor, error) {
	var in []models.TrajectoryInput
	pos := make([]int, len(idx))
	for _, i := range idx {
		p := t.pos[i][r.IntN(len(t.pos[i]))]
		in = append(in, t.inputs[i][p])
		for k := 0; k < t.negatives; k++ {
			in = append(in, t.inputs[i][t.neg[i][r.IntN(len(t.neg[i]))]])
		}
	}
	return SoftmaxCE(t.m.Op(in), t.negatives+1, pos)
}

// MoROptions configures MoR.
type MoROptions struct {
	Model     models.TrajectoryConfig
	Negatives int // per positive, default 100 (MoR's)
	Train     Config
	Run       Options
	ValSplit  string // default "val"
	// PlannerDir is the planner checkpoint used to plan validation and
	// served queries ("" uses the workspace's plans).
	PlannerDir   string
	Traversal    plan.TraversalConfig // traversal and its ablations
	LastNodeOnly bool                 // candidate-only features
	// Plans are the training queries' plans; nil means the workspace's
	// (mined plans for an SKB without any: see MinedPlans).
	Plans map[int]data.Plan
}

// MinedPlans returns the plans of mined records whose F1 is at least
// minF1, by q_id.
func MinedPlans(recs map[int]data.MinedPlanRecord, minF1 float64) map[int]data.Plan {
	out := map[int]data.Plan{}
	for id, r := range recs {
		if r.Mined.F1 >= minF1 {
			out[id] = r.Plan
		}
	}
	return out
}

// MoR trains the trajectory reranker on the traversal pools of the
// training queries (with their plans from the workspace) and selects the
// checkpoint with the best validation Hit@1.
func MoR(ctx context.Context, ws *workspace.Workspace, d *infer.DenseChannel, planner planner.Predictor, o MoROptions) (*mor.Method, *Result, error) {
	if o.Negatives == 0 {
		o.Negatives = 100
	}
	if o.ValSplit == "" {
		o.ValSplit = data.SplitVal
	}
	if o.Plans == nil {
		o.Plans = ws.Plans
	}
	if ws.SKB.QA == nil || len(o.Plans) == 0 {
		return nil, nil, fmt.Errorf("MoR trains on plans, and this workspace has none (mine them with strata mine-plans, or import them with --plans)")
	}
	o.Model.NodeTypes = len(ws.SKB.Schema.NodeTypes)
	m, err := models.NewTrajectoryReranker(o.Model, rand.New(rand.NewPCG(o.Train.Seed, 0x307)))
	if err != nil {
		return nil, nil, err
	}
	f := mor.NewFeatures(ws, d, o.Traversal, o.LastNodeOnly)
	qs, err := ws.SKB.QA.Split(data.SplitTrain)
	if err != nil {
		return nil, nil, err
	}
	task := &moRTask{m: m, negatives: o.Negatives}
	for i, q := range qs {
		if i%64 == 0 && ctx.Err() != nil {
			return nil, nil, ctx.Err()
		}
		plan, ok := o.Plans[q.ID]
		if !ok {
			continue
		}
		ids, in, usable, err := f.Pool(q, plan)
		if err != nil {
			return nil, nil, err
		}
		if !usable {
			continue
		}
		gold := map[uint32]bool{}
		for _, a := range q.Answers {
			gold[a] = true
		}
		var pos, neg []int
		for j, id := range ids {
			if gold[id] {
				pos = append(pos, j)
			} else {
				neg = append(neg, j)
			}
		}
		if len(pos) == 0 || len(neg) == 0 {
			continue
		}
		task.inputs = append(task.inputs, in)
		task.pos = append(task.pos, pos)
		task.neg = append(task.neg, neg)
	}
	if len(task.inputs) == 0 {
		return nil, nil, fmt.Errorf("no training query has a gold answer in its traversal pool")
	}
	method := &mor.Method{F: f, Model: m, Planner: planner}
	res, err := fitBest(ctx, MoRModel{m, mor.Config{Traversal: o.Traversal, LastNodeOnly: o.LastNodeOnly, Planner: o.PlannerDir}}, task, o.Train, o.Run, o.ValSplit+"/hit@1", func(ctx context.Context) (map[string]float64, error) {
		return SplitMetrics(ctx, ws, method, o.ValSplit)
	})
	if err != nil {
		return nil, nil, err
	}
	return method, res, nil
}
