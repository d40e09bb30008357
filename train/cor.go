package train

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"

	"github.com/nlpodyssey/spago/mat"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/gating"
	"github.com/strata-retrieval/strata/graphops/workspace"
	"github.com/strata-retrieval/strata/infer"
	"github.com/strata-retrieval/strata/infer/cor"
	"github.com/strata-retrieval/strata/internal/parallel"
)

// CoRModel adapts a CoR model to the loop.
type CoRModel struct{ *gating.CoR }

func (m CoRModel) Kind() string { return infer.KindCoR }

func (m CoRModel) ConfigJSON() (json.RawMessage, error) { return json.Marshal(m.Cfg) }

// CoRTask trains CoR's gates with MSE against 1 for gold answers and 0 for
// the other candidates. With the model's Loss "all" (CoRAG's eq. 11) a
// query's squared errors are averaged over its whole candidate
// set C_q (every candidate but the topic entities; gating.LossInputs sums
// the candidates only a textual retriever scores in closed form) and the
// batch loss is the mean over queries. With "pool" (the default, also "")
// they are averaged over
// the union of every retriever's top PoolK (by cosine, within its node type
// or its relation's neighbourhood of the topic entities) plus the gold
// answers, all pools of a batch together.
type CoRTask struct {
	Model  *gating.CoR
	qvecs  [][]float32
	pools  []*gating.Candidates
	labels [][]float32
	full   []*gating.LossInputs
}

// NewCoRTask precomputes the loss inputs of a split's queries, on all
// cores (the result does not depend on scheduling).
func NewCoRTask(ctx context.Context, m *gating.CoR, ret *gating.Retrievers, d *infer.DenseChannel, qs []data.Query) (*CoRTask, error) {
	all := m.Cfg.Loss == gating.LossAll
	t := &CoRTask{Model: m}
	n := len(qs)
	qvecs := make([][]float32, n)
	pools := make([]*gating.Candidates, n)
	labels := make([][]float32, n)
	full := make([]*gating.LossInputs, n)
	errs := make([]error, n)
	err := parallel.Chunks(ctx, n, 16, 0, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			q := qs[i]
			if len(q.Answers) == 0 {
				continue
			}
			v, err := d.QueryVector(q)
			if err != nil {
				errs[i] = err
				return
			}
			if all {
				if full[i] = ret.FullInputs(v, q.Text, q.Answers); full[i] != nil {
					qvecs[i] = v
				}
				continue
			}
			cands, _ := ret.Inputs(v, q.Text, m.Cfg.PoolK, q.Answers)
			gold := map[uint32]bool{}
			for _, a := range q.Answers {
				gold[a] = true
			}
			lab := make([]float32, cands.Len())
			pos := 0
			for j, id := range cands.IDs {
				if gold[id] {
					lab[j] = 1
					pos++
				}
			}
			if pos == 0 {
				continue // every gold is a topic entity or not a candidate
			}
			qvecs[i], pools[i], labels[i] = v, cands, lab
		}
	})
	if err != nil {
		return nil, err
	}
	for i := range n {
		if errs[i] != nil {
			return nil, errs[i]
		}
		if qvecs[i] == nil {
			continue
		}
		t.qvecs = append(t.qvecs, qvecs[i])
		if all {
			t.full = append(t.full, full[i])
		} else {
			t.pools = append(t.pools, pools[i])
			t.labels = append(t.labels, labels[i])
		}
	}
	if len(t.qvecs) == 0 {
		return nil, fmt.Errorf("no training query has a gold answer among the candidates")
	}
	return t, nil
}

func (t *CoRTask) NumExamples() int { return len(t.qvecs) }

func (t *CoRTask) Loss(idx []int, _ *rand.Rand) (mat.Tensor, error) {
	var q []float32
	for _, i := range idx {
		q = append(q, t.qvecs[i]...)
	}
	if t.full != nil {
		batch := make([]*gating.LossInputs, 0, len(idx))
		for _, i := range idx {
			batch = append(batch, t.full[i])
		}
		return t.Model.LossOp(q, batch), nil
	}
	var lab []float32
	batch := make([]*gating.Candidates, 0, len(idx))
	for _, i := range idx {
		batch = append(batch, t.pools[i])
		lab = append(lab, t.labels[i]...)
	}
	return MSE(t.Model.ScoreOp(q, batch), lab)
}

// CoROptions configures CoR.
type CoROptions struct {
	Model    gating.Config
	Train    Config
	Run      Options
	ValSplit string // default "val"
}

// CoR trains CoR's gates on the train split of ws over its dense
// channel, selecting the checkpoint with the best validation MRR, and
// returns the method with the best weights loaded.
func CoR(ctx context.Context, ws *workspace.Workspace, d *infer.DenseChannel, o CoROptions) (*cor.Method, *Result, error) {
	if o.ValSplit == "" {
		o.ValSplit = data.SplitVal
	}
	o.Model.Dense = d.Meta.Hash
	m, err := gating.New(o.Model, rand.New(rand.NewPCG(o.Train.Seed, 0xc0)))
	if err != nil {
		return nil, nil, err
	}
	method, err := cor.New(ws, d, m)
	if err != nil {
		return nil, nil, err
	}
	if ws.SKB.QA == nil {
		return nil, nil, fmt.Errorf("the workspace has no questions to train on")
	}
	qs, err := ws.SKB.QA.Split(data.SplitTrain)
	if err != nil {
		return nil, nil, err
	}
	task, err := NewCoRTask(ctx, m, method.Ret, d, qs)
	if err != nil {
		return nil, nil, err
	}
	res, err := fitBest(ctx, CoRModel{m}, task, o.Train, o.Run, o.ValSplit+"/mrr", func(ctx context.Context) (map[string]float64, error) {
		return SplitMetrics(ctx, ws, method, o.ValSplit)
	})
	if err != nil {
		return nil, nil, err
	}
	return method, res, nil
}
