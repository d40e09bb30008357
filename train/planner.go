package train

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"sort"

	"github.com/nlpodyssey/spago/ag"
	"github.com/nlpodyssey/spago/mat"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/graphops/workspace"
	"github.com/strata-retrieval/strata/infer"
	"github.com/strata-retrieval/strata/infer/kgqa"
	"github.com/strata-retrieval/strata/infer/planner"
	"github.com/strata-retrieval/strata/infer/simgrag"
	"github.com/strata-retrieval/strata/models"
)

// PlannerModel adapts the planner's classifier to the loop. With KGQA set
// it is saved as a KGQA model (kind "kgqa": the planner predicts SimGRAG
// patterns).
type PlannerModel struct {
	P    planner.Predictor
	KGQA *kgqa.Config
}

func (m PlannerModel) Kind() string {
	if m.KGQA != nil {
		return infer.KindKGQA
	}
	return infer.KindPlanner
}
func (m PlannerModel) Params() []models.NamedParam { return m.P.Params() }
func (m PlannerModel) ConfigJSON() (json.RawMessage, error) {
	if m.KGQA != nil {
		c := *m.KGQA
		c.Planner = m.P.Config()
		return json.Marshal(c)
	}
	return json.Marshal(m.P.Config())
}

type plannerTask struct {
	g *models.Gate
	// more are the classifier's other members (planner.Config.Members):
	// the loss is the mean of the members' own.
	more []*models.Gate
	x    [][]float32
	y    []int
	k    int
}

func (t *plannerTask) NumExamples() int { return len(t.x) }

func (t *plannerTask) Loss(idx []int, _ *rand.Rand) (mat.Tensor, error) {
	var x []float32
	y := make([]int, len(idx))
	for i, j := range idx {
		x = append(x, t.x[j]...)
		y[i] = t.y[j]
	}
	loss, err := NLL(t.g.Op(x, len(idx)), t.k, y)
	if err != nil || len(t.more) == 0 {
		return loss, err
	}
	losses := []mat.Tensor{loss}
	for _, g := range t.more {
		l, err := NLL(g.Op(x, len(idx)), t.k, y)
		if err != nil {
			return nil, err
		}
		losses = append(losses, l)
	}
	return ag.DivScalar(ag.Sum(losses...), mat.Scalar(float32(len(losses)))), nil
}

// PlannerOptions configures Planner.
type PlannerOptions struct {
	Hidden   int // classifier hidden units, default 128
	Train    Config
	Run      Options
	ValSplit string // default "val"
	// Plans are the labels; nil means the workspace's plans.
	Plans map[int]data.Plan
	// KGQA, when set, saves the planner as a KGQA model with these
	// settings (see kgqa.KGQA).
	KGQA *kgqa.Config
	// TextDense, when set, is the dense channel the run may answer the
	// queries no plan fits with, fused with BM25 (chooseText; not with
	// KGQA, which answers them with its own matcher).
	TextDense *infer.DenseChannel
	Log       io.Writer
}

// PlanAccuracy is the share of queries whose predicted metapath equals
// the reference plan's (queries without a usable reference are skipped).
func PlanAccuracy(p planner.Predictor, plans map[int]data.Plan, qs []data.Query) (float64, int, error) {
	right, n := 0, 0
	for _, q := range qs {
		ref, ok := plans[q.ID]
		if !ok || len(ref.Paths) == 0 {
			continue
		}
		got, err := p.Predict(context.Background(), q)
		if err != nil {
			return 0, 0, err
		}
		n++
		if planner.TemplateKey(got.Plan.Paths) == planner.TemplateKey(ref.Paths) {
			right++
		}
	}
	if n == 0 {
		return 0, 0, nil
	}
	return float64(right) / float64(n), n, nil
}

// Planner learns the template classifier from the plans of the
// training queries (the generator's ground truth, or imported plan files
// such as MoR's) and selects the checkpoint with the best validation
// accuracy (exact metapath).
func Planner(ctx context.Context, ws *workspace.Workspace, d *infer.DenseChannel, o PlannerOptions) (*planner.TemplatePlanner, *Result, error) {
	if o.Plans == nil {
		o.Plans = ws.Plans
	}
	if ws.SKB.QA == nil || len(o.Plans) == 0 {
		return nil, nil, fmt.Errorf("the planner learns from plans, and this workspace has none (import them with --plans)")
	}
	if o.Hidden == 0 {
		o.Hidden = 128
	}
	if o.ValSplit == "" {
		o.ValSplit = data.SplitVal
	}
	qs, err := ws.SKB.QA.Split(data.SplitTrain)
	if err != nil {
		return nil, nil, err
	}
	keys := map[string][]data.Path{}
	for _, q := range qs {
		if p, ok := o.Plans[q.ID]; ok && len(p.Paths) > 0 {
			keys[planner.TemplateKey(p.Paths)] = p.Paths
		}
	}
	if len(keys) == 0 {
		return nil, nil, fmt.Errorf("no training query has a usable plan")
	}
	names := make([]string, 0, len(keys))
	for k := range keys {
		names = append(names, k)
	}
	sort.Strings(names)
	cfg := planner.Config{NodeTypes: ws.SKB.Schema.NodeTypes}
	label := map[string]int{}
	for i, k := range names {
		cfg.Templates = append(cfg.Templates, keys[k])
		label[k] = i
	}
	if d != nil {
		cfg.QueryDim = d.Docs.Dim
		cfg.Dense = d.Meta.Hash
	}
	cfg.Gate = models.GateConfig{In: cfg.InputDim(), Hidden: o.Hidden, Out: len(cfg.Templates)}
	gate, err := models.NewGate(cfg.Gate, "planner", rand.New(rand.NewPCG(o.Train.Seed, 0x91)))
	if err != nil {
		return nil, nil, err
	}
	p, err := planner.NewTemplatePlanner(ws, d, cfg, gate)
	if err != nil {
		return nil, nil, err
	}
	task := &plannerTask{g: gate, k: len(cfg.Templates)}
	for _, q := range qs {
		pl, ok := o.Plans[q.ID]
		if !ok || len(pl.Paths) == 0 {
			continue
		}
		x, _, err := p.Features(q)
		if err != nil {
			return nil, nil, err
		}
		task.x = append(task.x, x)
		task.y = append(task.y, label[planner.TemplateKey(pl.Paths)])
	}
	vqs, err := ws.SKB.QA.Split(o.ValSplit)
	if err != nil {
		return nil, nil, err
	}
	if o.KGQA == nil {
		if _, err := chooseText(ctx, ws, o.TextDense, o.ValSplit, p.Classifier, o.Log); err != nil {
			return nil, nil, err
		}
	}
	res, err := fitBest(ctx, PlannerModel{P: p, KGQA: o.KGQA}, task, o.Train, o.Run, o.ValSplit+"/plan_acc", func(ctx context.Context) (map[string]float64, error) {
		acc, _, err := PlanAccuracy(p, o.Plans, vqs)
		return map[string]float64{o.ValSplit + "/plan_acc": acc}, err
	})
	if err != nil {
		return nil, nil, err
	}
	return p, res, nil
}

// KGQAOptions configures KGQA.
type KGQAOptions struct {
	Planner PlannerOptions // Plans and KGQA are set by KGQA
	SimGRAG simgrag.Config
	// Labels: "plans" (the workspace's, e.g. MetaQA's question types),
	// "mined" (kgqa.MinePlans over the train and val questions) or "auto"
	// (plans when the workspace has them).
	Labels  string
	MaxHops int // longest mined path, default 3
}

// KGQAStats says where a KGQA model's labels came from.
type KGQAStats struct {
	Labels       string
	Mined, Asked int // questions with a mined plan, of those mined
}

// KGQA trains the KGQA pattern predictor (a planner saved as kind
// kgqa) from the workspace's plans or from plans mined from the answers.
func KGQA(ctx context.Context, ws *workspace.Workspace, d *infer.DenseChannel, o KGQAOptions) (*planner.TemplatePlanner, *Result, KGQAStats, error) {
	st := KGQAStats{Labels: o.Labels}
	switch o.Labels {
	case "", "auto":
		st.Labels = "plans"
		if len(ws.Plans) == 0 {
			st.Labels = "mined"
		}
	case "plans", "mined":
	default:
		return nil, nil, st, fmt.Errorf("labels %q: want auto, plans or mined", o.Labels)
	}
	if o.MaxHops == 0 {
		o.MaxHops = 3
	}
	o.Planner.Plans = ws.Plans
	if st.Labels == "mined" {
		var qs []data.Query
		for _, s := range []string{data.SplitTrain, data.SplitVal} {
			part, err := ws.SKB.QA.Split(s)
			if err != nil {
				return nil, nil, st, err
			}
			qs = append(qs, part...)
		}
		var missed int
		var err error
		if o.Planner.Plans, missed, err = kgqa.MinePlans(ctx, ws, qs, o.MaxHops); err != nil {
			return nil, nil, st, err
		}
		st.Asked, st.Mined = len(qs), len(qs)-missed
	}
	o.Planner.KGQA = &kgqa.Config{SimGRAG: o.SimGRAG.WithDefaults(), Labels: st.Labels}
	p, res, err := Planner(ctx, ws, d, o.Planner)
	return p, res, st, err
}
