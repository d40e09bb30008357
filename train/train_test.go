package train

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/nlpodyssey/spago/ag"
	"github.com/nlpodyssey/spago/mat"
	"github.com/nlpodyssey/spago/nn"

	"github.com/strata-retrieval/strata/checkpoints"
	"github.com/strata-retrieval/strata/internal/flock"
	"github.com/strata-retrieval/strata/models"
)

func leaf(data []float32, shape ...int) *nn.Param {
	return nn.NewParam(mat.NewDense[float32](mat.WithShape(shape...), mat.WithBacking(data)))
}

func lossValue(t mat.Tensor) float64 { return float64(mat.Data[float32](t.Value())[0]) }

func TestLossGolden(t *testing.T) {
	// Listwise: scores [2 1 0], positives 0 and 2, negative 1:
	// (log(1+e^-1) + log(1+e)) / 2 = 0.81326169.
	l, _ := ListwiseSoftmax(leaf([]float32{2, 1, 0}, 1, 3), 3, []bool{true, false, true})
	if v := lossValue(l); math.Abs(v-0.81326169) > 1e-6 {
		t.Errorf("listwise = %v", v)
	}
	// Softmax CE: scores [1 2 3], positive 2: −log(e³/(e+e²+e³)) = 0.40760596.
	l, _ = SoftmaxCE(leaf([]float32{1, 2, 3}, 1, 3), 3, []int{2})
	if v := lossValue(l); math.Abs(v-0.40760596) > 1e-6 {
		t.Errorf("softmax CE = %v", v)
	}
	// InfoNCE: q = d = I₂, τ = 1: logits [[1 0] [0 1]] → −log(e/(e+1)) = 0.31326169.
	l, _ = InfoNCE(leaf([]float32{1, 0, 0, 1, 1, 0, 0, 1}, 4, 2), 2, 2, 1)
	if v := lossValue(l); math.Abs(v-0.31326169) > 1e-6 {
		t.Errorf("InfoNCE = %v", v)
	}
	// MSE: ((1−0)² + (2−4)²)/2 = 2.5.
	l, _ = MSE(leaf([]float32{1, 2}, 2), []float32{0, 4})
	if v := lossValue(l); v != 2.5 {
		t.Errorf("MSE = %v", v)
	}
	if _, err := SoftmaxCE(leaf([]float32{1, 2}, 1, 2), 2, []int{5}); err == nil {
		t.Error("positive out of range accepted")
	}
}

// checkGrad compares the analytic gradient of build(x) with central finite
// differences.
func checkGrad(t *testing.T, name string, x []float32, shape []int, build func(p *nn.Param) mat.Tensor) {
	t.Helper()
	p := leaf(slices.Clone(x), shape...)
	loss := build(p)
	if err := ag.Backward(loss); err != nil {
		t.Fatal(err)
	}
	an := slices.Clone(mat.Data[float32](p.Grad()))
	const eps = 1e-2
	for i := range x {
		up, down := slices.Clone(x), slices.Clone(x)
		up[i] += eps
		down[i] -= eps
		fd := (lossValue(build(leaf(up, shape...))) - lossValue(build(leaf(down, shape...)))) / (2 * eps)
		if math.Abs(fd-float64(an[i])) > 2e-3*math.Max(1, math.Abs(fd)) {
			t.Errorf("%s: d/dx[%d] analytic %.6g, finite difference %.6g", name, i, an[i], fd)
		}
	}
}

func TestLossGradients(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	rnd := func(n int) []float32 {
		x := make([]float32, n)
		for i := range x {
			x[i] = float32(r.NormFloat64())
		}
		return x
	}
	target := rnd(6)
	checkGrad(t, "MSE", rnd(6), []int{2, 3}, func(p *nn.Param) mat.Tensor { l, _ := MSE(p, target); return l })
	checkGrad(t, "SoftmaxCE", rnd(8), []int{2, 4}, func(p *nn.Param) mat.Tensor { l, _ := SoftmaxCE(p, 4, []int{1, 3}); return l })
	labels := []bool{true, false, true, false, false, false, true, false, false, true}
	checkGrad(t, "Listwise", rnd(10), []int{2, 5}, func(p *nn.Param) mat.Tensor { l, _ := ListwiseSoftmax(p, 5, labels); return l })
	checkGrad(t, "InfoNCE", rnd(18), []int{6, 3}, func(p *nn.Param) mat.Tensor { l, _ := InfoNCE(p, 3, 3, 0.5); return l })
}

func TestSamplers(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 3))
	pool := []uint32{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}
	isPos := func(c uint32) bool { return c == 3 || c == 7 }
	for _, k := range []int{1, 5, 8, 20} {
		got := UniformNegatives(r, pool, isPos, k)
		if len(got) != min(k, 8) {
			t.Errorf("k=%d: %d negatives", k, len(got))
		}
		seen := map[uint32]bool{}
		for _, c := range got {
			if isPos(c) || seen[c] {
				t.Errorf("k=%d: bad negative %d in %v", k, c, got)
			}
			seen[c] = true
		}
	}
	if got := HardestNegatives([]uint32{7, 9, 3, 1, 4}, isPos, 2); !slices.Equal(got, []uint32{9, 1}) {
		t.Errorf("hardest = %v", got)
	}
	negs := []uint32{10, 11, 12, 13, 14, 15}
	a, b := FreshSubset(r, negs, 3), FreshSubset(r, negs, 3)
	if len(a) != 3 || len(b) != 3 || slices.Equal(a, b) {
		t.Errorf("fresh subsets %v %v", a, b)
	}
	// Every negative is drawn about equally often over many steps.
	counts := map[uint32]int{}
	for i := 0; i < 6000; i++ {
		for _, c := range FreshSubset(r, negs, 3) {
			counts[c]++
		}
	}
	for _, c := range negs {
		if counts[c] < 2700 || counts[c] > 3300 {
			t.Errorf("negative %d drawn %d times of 18000, want about 3000", c, counts[c])
		}
	}
}

func TestSchedule(t *testing.T) {
	s := Schedule{Base: 1, Warmup: 4, Total: 14}
	want := []float64{0.25, 0.5, 0.75, 1, 1, 0.5 * (1 + math.Cos(math.Pi*0.1))}
	for i, w := range want {
		if got := s.LR(i); math.Abs(got-w) > 1e-12 {
			t.Errorf("LR(%d) = %v, want %v", i, got, w)
		}
	}
	if s.LR(14) != 0 || s.LR(9) != 0.5 {
		t.Errorf("LR(9)=%v LR(14)=%v", s.LR(9), s.LR(14))
	}
}

// toy is a gate trained to reproduce a target distribution per input.
type toy struct{ g *models.Gate }

func (m *toy) Kind() string                         { return "toy-gate" }
func (m *toy) Params() []models.NamedParam          { return m.g.Params() }
func (m *toy) ConfigJSON() (json.RawMessage, error) { return json.Marshal(m.g.Config) }

type toyTask struct {
	g    *models.Gate
	x, y []float32
	in   int
	out  int
}

func (t *toyTask) NumExamples() int { return len(t.x) / t.in }

func (t *toyTask) Loss(idx []int, r *rand.Rand) (mat.Tensor, error) {
	var x, y []float32
	for _, i := range idx {
		x = append(x, t.x[i*t.in:(i+1)*t.in]...)
		y = append(y, t.y[i*t.out:(i+1)*t.out]...)
	}
	_ = r.IntN(10) // draw from the step's generator as a sampler would
	return MSE(t.g.Op(x, len(idx)), y)
}

func newToy(seed uint64) (*toy, *toyTask) {
	r := rand.New(rand.NewPCG(seed, 0))
	g, _ := models.NewGate(models.GateConfig{In: 6, Hidden: 16, Out: 3}, "gate", r)
	task := &toyTask{g: g, in: 6, out: 3}
	for i := 0; i < 200; i++ {
		x := make([]float32, 6)
		for j := range x {
			x[j] = float32(r.NormFloat64())
		}
		y := []float32{0, 0, 0}
		y[(int(math.Abs(float64(x[0]*3))))%3] = 1
		task.x = append(task.x, x...)
		task.y = append(task.y, y...)
	}
	return &toy{g: g}, task
}

// runFiles trains the toy and returns every file of the run directory.
func runFiles(t *testing.T, dir string, cfg Config, resume bool, eval EvalFunc) (map[string][]byte, *Result) {
	t.Helper()
	m, task := newToy(42)
	res, err := Train(context.Background(), m, task, cfg, Options{RunDir: dir, Fingerprint: "sha256:toy", Resume: resume, Eval: eval})
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{}
	filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err == nil && info.Mode().IsRegular() {
			b, _ := os.ReadFile(p)
			rel, _ := filepath.Rel(dir, p)
			files[rel] = b
		}
		return nil
	})
	return files, res
}

func TestTrainIsBitIdenticalAndResumable(t *testing.T) {
	cfg := Config{Epochs: 4, BatchSize: 32, LR: 0.01, CheckpointEvery: 7, Seed: 5}
	a, ra := runFiles(t, t.TempDir(), cfg, false, nil)
	b, _ := runFiles(t, t.TempDir(), cfg, false, nil)
	if ra.Steps != 28 || len(a) < 6 {
		t.Fatalf("steps %d, %d files", ra.Steps, len(a))
	}
	for name, data := range a {
		if !bytes.Equal(data, b[name]) {
			t.Errorf("%s differs between two runs with the same seed", name)
		}
	}
	// Stop after 14 steps, then resume: the final files equal the
	// uninterrupted run's.
	dir := t.TempDir()
	stop := cfg
	stop.StopAfter = 14
	_, rs := runFiles(t, dir, stop, false, nil)
	if rs.Stopped != "interrupted" || rs.Steps != 14 {
		t.Fatalf("stopped run: %+v", rs)
	}
	c, rc := runFiles(t, dir, cfg, true, nil)
	if rc.Steps != 28 {
		t.Fatalf("resumed run ended at step %d", rc.Steps)
	}
	for name, data := range a {
		if !bytes.Equal(data, c[name]) {
			t.Errorf("%s differs between the uninterrupted and the resumed run", name)
		}
	}
	// Resuming into a directory with checkpoints requires Resume.
	m, task := newToy(42)
	if _, err := Train(context.Background(), m, task, cfg, Options{RunDir: dir}); err == nil {
		t.Error("training into a used run directory without resume succeeded")
	}
}

func TestTrainLearnsAndStopsEarly(t *testing.T) {
	m, task := newToy(1)
	var losses []float64
	evals := 0
	eval := func(ctx context.Context) (map[string]float64, error) {
		evals++
		// A validation metric that peaks at the second evaluation.
		return map[string]float64{"val/mrr": []float64{0.1, 0.5, 0.4, 0.3, 0.2, 0.1, 0.1, 0.1}[evals-1]}, nil
	}
	dir := t.TempDir()
	res, err := Train(context.Background(), m, task, Config{Epochs: 8, BatchSize: 50, LR: 0.02, Patience: 2, Seed: 1},
		Options{RunDir: dir, Eval: eval})
	if err != nil {
		t.Fatal(err)
	}
	if res.Stopped != "early stop" || res.Steps != 16 || res.Best != checkpoints.StepDir(8) || res.BestValue != 0.5 {
		t.Errorf("result %+v", res)
	}
	es, _ := checkpoints.List(dir)
	for _, e := range es {
		losses = append(losses, e.Manifest.Metrics["train/loss"])
	}
	if len(es) != 4 || !es[1].Best || !(losses[3] < losses[0]) {
		t.Errorf("checkpoints %d, best marker %v, losses %v", len(es), es[1].Best, losses)
	}
}

func TestNLL(t *testing.T) {
	// −(log 0.5 + log 0.25)/2 = 1.0397208
	l, _ := NLL(leaf([]float32{0.5, 0.5, 0.25, 0.75}, 2, 2), 2, []int{0, 0})
	if v := lossValue(l); math.Abs(v-1.0397208) > 1e-6 {
		t.Errorf("NLL = %v", v)
	}
	r := rand.New(rand.NewPCG(9, 9))
	x := make([]float32, 6)
	for i := range x {
		x[i] = 0.2 + 0.6*float32(r.Float64())
	}
	checkGrad(t, "NLL", x, []int{2, 3}, func(p *nn.Param) mat.Tensor { l, _ := NLL(p, 3, []int{2, 0}); return l })
}

// A run resumed with another seed or learning rate would mix two
// configurations: it is refused, naming each setting with both values.
func TestResumeRefusesAnotherConfiguration(t *testing.T) {
	dir := t.TempDir()
	cfg := Config{Epochs: 2, BatchSize: 50, LR: 0.003, Seed: 1}
	stop := cfg
	stop.StopAfter = 4
	runFiles(t, dir, stop, false, nil)
	other := cfg
	other.LR, other.Seed = 0.5, 9
	m, task := newToy(42)
	_, err := Train(context.Background(), m, task, other, Options{RunDir: dir, Fingerprint: "sha256:toy", Resume: true})
	want := "train lr: run 0.003, now 0.5; train seed: run 1, now 9"
	if !errors.Is(err, ErrOtherRun) || !strings.Contains(err.Error(), want) {
		t.Errorf("resume with another lr and seed: %v, want %q", err, want)
	}
	// One training at a time in a run directory.
	unlock, err := flock.Lock(filepath.Join(dir, ".lock"), dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Train(context.Background(), m, task, cfg, Options{RunDir: dir, Fingerprint: "sha256:toy", Resume: true}); !errors.Is(err, flock.ErrLocked) {
		t.Errorf("a second training in the run: %v", err)
	}
	unlock()
	// The same configuration resumes.
	if _, res := runFiles(t, dir, cfg, true, nil); res.Steps != 8 {
		t.Errorf("resumed to step %d, want 8", res.Steps)
	}
}

// A kill after a checkpoint's directory appeared but before its line in
// metrics.jsonl and the best link: resuming restores both, so the run
// directory ends as an uninterrupted run's, byte for byte.
func TestResumeRepairsBookkeeping(t *testing.T) {
	cfg := Config{Epochs: 4, BatchSize: 32, LR: 0.01, CheckpointEvery: 7, Seed: 5}
	evals := 0
	eval := func(ctx context.Context) (map[string]float64, error) {
		evals++
		return map[string]float64{"val/mrr": []float64{0.2, 0.6, 0.4, 0.5}[(evals-1)%4]}, nil
	}
	want, _ := runFiles(t, t.TempDir(), cfg, false, eval)
	evals = 0
	dir := t.TempDir()
	stop := cfg
	stop.StopAfter = 14
	runFiles(t, dir, stop, false, eval)
	// The kill: drop step 14's line, point best at the first checkpoint
	// and leave the first checkpoint's optimizer state, which only the
	// latest keeps.
	if _, err := os.Stat(filepath.Join(dir, checkpoints.StepDir(7), checkpoints.OptimizerFile)); err == nil {
		t.Errorf("%s kept its optimizer state after a later checkpoint", checkpoints.StepDir(7))
	}
	opt, err := os.ReadFile(filepath.Join(dir, checkpoints.StepDir(14), checkpoints.OptimizerFile))
	if err != nil {
		t.Fatalf("the latest checkpoint has no optimizer state: %v", err)
	}
	os.WriteFile(filepath.Join(dir, checkpoints.StepDir(7), checkpoints.OptimizerFile), opt, 0o644)
	path := filepath.Join(dir, "metrics.jsonl")
	b, _ := os.ReadFile(path)
	lines := strings.SplitAfter(string(b), "\n")
	os.WriteFile(path, []byte(lines[0]), 0o644)
	if err := checkpoints.SetBest(dir, checkpoints.StepDir(7)); err != nil {
		t.Fatal(err)
	}
	got, _ := runFiles(t, dir, cfg, true, eval)
	for name, data := range want {
		if !bytes.Equal(data, got[name]) {
			t.Errorf("%s differs from the uninterrupted run's after a kill and a resume", name)
		}
	}
	for name := range got {
		if _, ok := want[name]; !ok {
			t.Errorf("%s is left after a kill and a resume; the uninterrupted run has none", name)
		}
	}
	for name := range want {
		if strings.HasSuffix(name, checkpoints.OptimizerFile) && !strings.Contains(name, checkpoints.StepDir(28)) {
			t.Errorf("%s: only the latest checkpoint keeps its optimizer state", name)
		}
	}
	if best, _ := checkpoints.Best(dir); best != checkpoints.StepDir(14) {
		t.Errorf("best %s, want %s", best, checkpoints.StepDir(14))
	}
}

// TestSameRunNestedConfig: a manifest holds its configuration indented, so
// a model configuration with nested values (a planner's templates and
// anchors) resumes when it is the same, and is refused, naming the key,
// when a nested value differs.
func TestSameRunNestedConfig(t *testing.T) {
	dir := t.TempDir()
	model := json.RawMessage(`{"dim":4,"anchors":{"fit":{"min":0.5},"words":["a","b"]}}`)
	trainCfg := json.RawMessage(`{"epochs":2}`)
	config, _ := json.Marshal(map[string]json.RawMessage{"model": model, "train": trainCfg})
	if err := checkpoints.Save(filepath.Join(dir, "step-00000001"), &checkpoints.Checkpoint{Manifest: checkpoints.Manifest{Kind: "toy", Config: config, Step: 1}}); err != nil {
		t.Fatal(err)
	}
	m, err := checkpoints.ReadManifest(filepath.Join(dir, "step-00000001"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(m.Config, []byte("\n")) {
		t.Fatalf("the manifest's config is not indented: %s", m.Config)
	}
	if err := sameRun(dir, *m, "toy", model, trainCfg); err != nil {
		t.Errorf("the same nested configuration: %v", err)
	}
	other := json.RawMessage(`{"dim":4,"anchors":{"fit":{"min":0.6},"words":["a","b"]}}`)
	if err := sameRun(dir, *m, "toy", other, trainCfg); !errors.Is(err, ErrOtherRun) || !strings.Contains(err.Error(), "model anchors") {
		t.Errorf("another nested value: %v, want ErrOtherRun naming model anchors", err)
	}
}

// TestTrainToleranceChoosesEarliest: with Config.Tolerance the best
// checkpoint is the earliest whose metric is within it of the highest
// yet, chosen anew at each checkpoint (the choices below worked out by
// hand), and a run resumed halfway rebuilds the choice from its
// checkpoints' manifests, ending byte for byte as the uninterrupted one.
func TestTrainToleranceChoosesEarliest(t *testing.T) {
	vals := []float64{0.50, 0.80, 0.805, 0.79, 0.809, 0.815}
	evals := 0
	eval := func(ctx context.Context) (map[string]float64, error) {
		evals++
		return map[string]float64{"val/mrr": vals[evals-1]}, nil
	}
	for _, c := range []struct {
		tol  float64
		best []int // the chosen checkpoint (1-based) after each
	}{
		{0, []int{1, 2, 3, 3, 5, 6}},
		// 0.80 stays within 0.0101 of 0.805 and 0.809; 0.815 leaves
		// it behind, and the earliest within reach is then 0.805.
		{0.0101, []int{1, 2, 2, 2, 2, 3}},
	} {
		cfg := Config{Epochs: 6, BatchSize: 50, LR: 0.01, Seed: 3, Tolerance: c.tol}
		evals = 0
		dir := t.TempDir()
		want, res := runFiles(t, dir, cfg, false, eval)
		last := c.best[len(c.best)-1]
		if res.Best != checkpoints.StepDir(4*last) || res.BestValue != vals[last-1] {
			t.Errorf("tolerance %v: best %s (%v), want %s (%v)", c.tol, res.Best, res.BestValue, checkpoints.StepDir(4*last), vals[last-1])
		}
		if best, _ := checkpoints.Best(dir); best != checkpoints.StepDir(4*last) {
			t.Errorf("tolerance %v: best link %s", c.tol, best)
		}
		lines := strings.Split(strings.TrimSpace(string(want["metrics.jsonl"])), "\n")
		for i, l := range lines {
			var rec struct{ Best string }
			if err := json.Unmarshal([]byte(l), &rec); err != nil || rec.Best != checkpoints.StepDir(4*c.best[i]) {
				t.Errorf("tolerance %v: checkpoint %d names best %q (%v), want %s", c.tol, i+1, rec.Best, err, checkpoints.StepDir(4*c.best[i]))
			}
		}
		evals = 0
		dir = t.TempDir()
		stop := cfg
		stop.StopAfter = 12
		runFiles(t, dir, stop, false, eval)
		got, _ := runFiles(t, dir, cfg, true, eval)
		for name, data := range want {
			if !bytes.Equal(data, got[name]) {
				t.Errorf("tolerance %v: %s differs between the uninterrupted and the resumed run", c.tol, name)
			}
		}
		if best, _ := checkpoints.Best(dir); best != checkpoints.StepDir(4*last) {
			t.Errorf("tolerance %v: resumed run's best link %s", c.tol, best)
		}
	}
	if err := (Config{Tolerance: -0.1}).Validate(); err == nil {
		t.Error("a negative tolerance validated")
	}
	// A NaN metric is never chosen and does not hide the others.
	nan := math.NaN()
	for _, c := range []struct {
		vals []float64
		want int
	}{
		{[]float64{nan}, -1},
		{[]float64{nan, 0.5, nan, 0.505}, 1},
		{[]float64{0.4, nan, 0.6}, 2},
	} {
		var cks []scored
		for i, v := range c.vals {
			cks = append(cks, scored{strconv.Itoa(i), v})
		}
		if got := selectBest(cks, 0.01); got != c.want {
			t.Errorf("selectBest(%v, 0.01) = %d, want %d", c.vals, got, c.want)
		}
	}
}
