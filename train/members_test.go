package train

import (
	"context"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"

	"github.com/nlpodyssey/spago/ag"
	"github.com/nlpodyssey/spago/mat"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/data/synth"
	"github.com/strata-retrieval/strata/infer"
	"github.com/strata-retrieval/strata/infer/planner"
	"github.com/strata-retrieval/strata/infer/registry"
	"github.com/strata-retrieval/strata/models"
)

// TestPlannerMembersLoss: with members (planner.Config.Members) the
// classifier's loss is the mean of the members' own negative
// log-likelihoods, worked out from their forward outputs, and its
// gradient matches central finite differences in both members.
func TestPlannerMembersLoss(t *testing.T) {
	cfg := models.GateConfig{In: 4, Hidden: 3, Out: 3}
	a, err := models.NewGate(cfg, planner.MemberPrefix(0), rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	b, err := models.NewGate(cfg, planner.MemberPrefix(1), rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(5, 5))
	xs := make([][]float32, 3)
	for i := range xs {
		for range cfg.In {
			xs[i] = append(xs[i], float32(r.NormFloat64()))
		}
	}
	ys := []int{0, 2, 1}
	task := &plannerTask{g: a, more: []*models.Gate{b}, x: xs, y: ys, k: cfg.Out}
	idx := []int{0, 1, 2}
	value := func() float64 {
		l, err := task.Loss(idx, nil)
		if err != nil {
			t.Fatal(err)
		}
		return float64(mat.Data[float32](l.Value())[0])
	}
	var want float64
	for _, g := range []*models.Gate{a, b} {
		for i, x := range xs {
			want -= math.Log(float64(g.Forward(x, 1)[ys[i]])) / float64(len(xs)) / 2
		}
	}
	if got := value(); math.Abs(got-want) > 1e-5 {
		t.Errorf("loss %.6f, want the members' mean %.6f", got, want)
	}
	l, err := task.Loss(idx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := ag.Backward(l); err != nil {
		t.Fatal(err)
	}
	const eps = 1e-2
	for _, p := range []models.NamedParam{a.W1, a.W2, b.W1, b.W2} {
		an := slices.Clone(mat.Data[float32](p.Param.Grad()))
		w := p.Data()
		for i := range w {
			v := w[i]
			w[i] = v + eps
			up := value()
			w[i] = v - eps
			down := value()
			w[i] = v
			if fd := (up - down) / (2 * eps); math.Abs(fd-float64(an[i])) > 2e-3*math.Max(1, math.Abs(fd)) {
				t.Errorf("%s[%d]: analytic %.6g, finite difference %.6g", p.Name, i, an[i], fd)
			}
		}
	}
}

// TestLinkingPlannerMembers trains a planner of three members on a
// generated benchmark: each member's tensors travel with the checkpoint
// under its own names, the members learned apart, and the reloaded planner
// gives every test question the trained planner's probabilities and plan.
func TestLinkingPlannerMembers(t *testing.T) {
	ws, dir, recs, _ := minedBenchmark(t, synth.Config{Preset: "mag", Nodes: 800, Queries: 240, Seed: 5})
	mined := minedByQID(recs)
	run := filepath.Join(dir, "runs", "members")
	p, _, _, err := LinkingPlanner(context.Background(), ws, nil, LinkingPlannerOptions{Mined: mined, Members: 3, NoFit: true,
		Train: Config{Epochs: 2, BatchSize: 32, LR: 3e-3, Seed: 4}, Run: Options{RunDir: run, Fingerprint: ws.Fingerprint}})
	if err != nil {
		t.Fatal(err)
	}
	if p.Cfg.Members != 3 || len(p.More) != 2 {
		t.Fatalf("members %d, %d past the first: want 3, 2", p.Cfg.Members, len(p.More))
	}
	if slices.Equal(p.Gate.W2.Data(), p.More[0].W2.Data()) || slices.Equal(p.More[0].W2.Data(), p.More[1].W2.Data()) {
		t.Error("two members hold the same trained weights")
	}
	m, err := registry.Load(infer.NewEnv(context.Background(), ws), run)
	if err != nil {
		t.Fatal(err)
	}
	loaded := m.(*planner.PlannedMethod).P.(*planner.LinkingPlanner)
	if len(loaded.More) != 2 || loaded.More[1].W1.Name != "planner.m2.w1" || !slices.Equal(loaded.More[1].W1.Data(), p.More[1].W1.Data()) {
		t.Fatalf("loaded %d members past the first: want member 2's trained tensors as planner.m2.*", len(loaded.More))
	}
	tq, _ := ws.SKB.QA.Split(data.SplitTest)
	if len(tq) == 0 {
		t.Fatal("no test questions")
	}
	for _, q := range tq {
		x, _, err := p.Features(q)
		if err != nil {
			t.Fatal(err)
		}
		if a, b := p.Probs(x), loaded.Probs(x); !slices.Equal(a, b) {
			t.Fatalf("%q: trained probabilities differ from the reloaded planner's", q.Text)
		}
		a, _ := p.Predict(context.Background(), q)
		b, _ := loaded.Predict(context.Background(), q)
		if !SamePlan(a.Plan, b.Plan) || a.Conf != b.Conf {
			t.Errorf("%q: trained plan %v (%v), reloaded %v (%v)", q.Text, a.Plan, a.Conf, b.Plan, b.Conf)
		}
	}
}
