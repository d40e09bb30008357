package train

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/nlpodyssey/spago/ag"
	"github.com/nlpodyssey/spago/mat"

	"github.com/strata-retrieval/strata/checkpoints"
	"github.com/strata-retrieval/strata/internal/atomicfile"
	"github.com/strata-retrieval/strata/internal/flock"
	"github.com/strata-retrieval/strata/models"
)

// Model is what the loop trains: named parameters in a fixed order, a kind
// and a JSON config for the checkpoint manifest.
type Model interface {
	Kind() string
	Params() []models.NamedParam
	ConfigJSON() (json.RawMessage, error)
}

// Task builds the loss of a mini-batch. idx are example indices; r is a
// generator seeded from (seed, step) for negative sampling, so a resumed run
// draws the same negatives.
type Task interface {
	NumExamples() int
	Loss(idx []int, r *rand.Rand) (mat.Tensor, error)
}

// EvalFunc evaluates the current parameters and returns named metrics.
type EvalFunc func(ctx context.Context) (map[string]float64, error)

// Config holds the loop's hyperparameters. Zero values mean the defaults
// noted on each field.
type Config struct {
	Epochs          int     `json:"epochs"`           // default 10
	BatchSize       int     `json:"batch_size"`       // default 256
	LR              float64 `json:"lr"`               // peak learning rate, default 1e-3
	WeightDecay     float64 `json:"weight_decay"`     // AdamW λ, default 0.01; negative disables
	Beta1           float64 `json:"beta1"`            // default 0.9
	Beta2           float64 `json:"beta2"`            // default 0.999
	Eps             float64 `json:"eps"`              // default 1e-8
	WarmupFrac      float64 `json:"warmup_frac"`      // share of steps for linear warmup, default 0.05
	ClipNorm        float64 `json:"clip_norm"`        // global gradient norm bound, default 1; <0 disables
	CheckpointEvery int     `json:"checkpoint_every"` // steps; default one epoch
	Patience        int     `json:"patience"`         // evaluations without improvement before stopping; 0 never
	Metric          string  `json:"metric"`           // metric selecting the best checkpoint (higher is better), default "val/mrr"
	Seed            uint64  `json:"seed"`
	// Tolerance: the best checkpoint is the earliest whose metric is
	// within Tolerance of the highest yet; 0 (the default) takes the
	// highest. A later checkpoint that beats an earlier one by less than
	// the metric's noise has fitted the training data longer, not better
	// (the planner's is one validation question's share of its MRR).
	Tolerance float64 `json:"tolerance,omitempty"`
	// StopAfter stops the run (as an interruption would) after that many
	// steps in total, right after a checkpoint; 0 means no limit.
	StopAfter int `json:"-"`
}

func (c Config) withDefaults() Config {
	if c.Epochs == 0 {
		c.Epochs = 10
	}
	if c.BatchSize == 0 {
		c.BatchSize = 256
	}
	if c.LR == 0 {
		c.LR = 1e-3
	}
	if c.WeightDecay == 0 {
		c.WeightDecay = 0.01
	}
	if c.Beta1 == 0 {
		c.Beta1 = 0.9
	}
	if c.Beta2 == 0 {
		c.Beta2 = 0.999
	}
	if c.Eps == 0 {
		c.Eps = 1e-8
	}
	if c.WarmupFrac == 0 {
		c.WarmupFrac = 0.05
	}
	if c.ClipNorm == 0 {
		c.ClipNorm = 1
	}
	if c.Metric == "" {
		c.Metric = "val/mrr"
	}
	return c
}

// Validate checks the configuration.
func (c Config) Validate() error {
	c = c.withDefaults()
	switch {
	case c.Epochs < 0, c.BatchSize < 0, c.CheckpointEvery < 0, c.Patience < 0:
		return fmt.Errorf("train: epochs, batch size, checkpoint interval and patience must be non-negative")
	case c.LR < 0 || math.IsNaN(c.LR):
		return fmt.Errorf("train: learning rate %v must be positive", c.LR)
	case c.Beta1 < 0 || c.Beta1 >= 1 || c.Beta2 < 0 || c.Beta2 >= 1:
		return fmt.Errorf("train: betas (%v, %v) must be in [0, 1)", c.Beta1, c.Beta2)
	case c.WarmupFrac < 0 || c.WarmupFrac >= 1:
		return fmt.Errorf("train: warmup fraction %v must be in [0, 1)", c.WarmupFrac)
	case c.Tolerance < 0 || math.IsNaN(c.Tolerance) || math.IsInf(c.Tolerance, 0):
		return fmt.Errorf("train: tolerance %v must be a non-negative number", c.Tolerance)
	}
	return nil
}

// Options are the run's context.
type Options struct {
	RunDir      string    // where checkpoints go
	Fingerprint string    // data fingerprint recorded in manifests
	Resume      bool      // continue from the latest checkpoint in RunDir
	Eval        EvalFunc  // evaluates each checkpoint; nil records only the loss
	Log         io.Writer // progress lines; nil is silent
}

// Result summarises a run.
type Result struct {
	Steps     int
	Best      string  // best checkpoint directory name
	BestValue float64 // its metric
	Stopped   string  // why the run ended: "done", "early stop" or "interrupted"
}

// trainerState is saved with each checkpoint so a run can be resumed.
type trainerState struct {
	step, bad int
	best      float64 // the highest metric yet (patience counts from it)
	bestName  string  // the selected checkpoint (Config.Tolerance)
	seen      []scored
	lossSum   float64
	lossN     int
}

// Train runs mini-batch AdamW with warmup + cosine decay and global-norm
// clipping, saving a checkpoint (weights, optimizer state, manifest with the
// evaluation metrics) every CheckpointEvery steps and at the end, pointing
// RunDir/best at the best one and stopping early after Patience evaluations
// without improvement. The same seed, data and configuration give
// bit-identical checkpoints, and a resumed run continues exactly as an
// uninterrupted one. With an empty RunDir the run stays in memory: no
// checkpoint, no evaluation (cross-fitted models use it).
func Train(ctx context.Context, m Model, task Task, cfg Config, opt Options) (*Result, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	cfg = cfg.withDefaults()
	n := task.NumExamples()
	if n == 0 {
		return nil, errors.New("train: no training examples")
	}
	spe := (n + cfg.BatchSize - 1) / cfg.BatchSize
	total := cfg.Epochs * spe
	every := cfg.CheckpointEvery
	if every == 0 {
		every = spe
	}
	sched := Schedule{Base: cfg.LR, Warmup: int(cfg.WarmupFrac * float64(total)), Total: total}
	params := m.Params()
	ad := newAdamW(cfg.LR, cfg.Beta1, cfg.Beta2, cfg.Eps, max(0, cfg.WeightDecay))
	st := trainerState{best: math.Inf(-1)}
	memory := opt.RunDir == ""
	var existing []checkpoints.Entry
	if !memory {
		if err := os.MkdirAll(opt.RunDir, 0o755); err != nil {
			return nil, err
		}
		unlock, err := flock.Lock(filepath.Join(opt.RunDir, ".lock"), opt.RunDir)
		if err != nil {
			return nil, err
		}
		defer unlock()
		if existing, err = checkpoints.List(opt.RunDir); err != nil {
			return nil, err
		}
	}
	cfgJSON, err := m.ConfigJSON()
	if err != nil {
		return nil, err
	}
	trainJSON, _ := json.Marshal(cfg)
	if len(existing) > 0 {
		if !opt.Resume {
			return nil, fmt.Errorf("%s already holds checkpoints (use --resume to continue, or another --out)", opt.RunDir)
		}
		last := existing[len(existing)-1]
		if err := sameRun(filepath.Join(opt.RunDir, last.Name), last.Manifest, m.Kind(), cfgJSON, trainJSON); err != nil {
			return nil, err
		}
		if err := restore(filepath.Join(opt.RunDir, last.Name), params, ad, &st, opt.Fingerprint); err != nil {
			return nil, err
		}
		if opt.Eval != nil {
			for _, c := range existing {
				if v, ok := c.Manifest.Metrics[cfg.Metric]; ok {
					st.seen = append(st.seen, scored{c.Name, v})
				}
			}
		}
		if err := repairRun(opt.RunDir, existing, cfg.Metric, cfg.Tolerance, st.bestName); err != nil {
			return nil, err
		}
		if err := dropOldOptimizers(opt.RunDir, last.Name); err != nil { // a kill before the last drop
			return nil, err
		}
		logf(opt.Log, "resuming from %s (step %d)\n", last.Name, st.step)
	}
	res := &Result{Stopped: "done"}
	var perm []int
	permEpoch := -1
	// A line every stepLineEvery between checkpoints: an epoch of a large
	// task (the encoder's span pairs on WordNet: 45 s) would otherwise say
	// nothing for longer than 30 s.
	started, lastLine, fromStep := time.Now(), time.Now(), st.step
	for st.step < total {
		if err := ctx.Err(); err != nil {
			res.Stopped = "interrupted"
			break
		}
		epoch, b := st.step/spe, st.step%spe
		if epoch != permEpoch {
			perm = rand.New(rand.NewPCG(cfg.Seed, 0x9e3779b97f4a7c15^uint64(epoch))).Perm(n)
			permEpoch = epoch
		}
		idx := perm[b*cfg.BatchSize : min((b+1)*cfg.BatchSize, n)]
		r := rand.New(rand.NewPCG(cfg.Seed^0x5851f42d4c957f2d, uint64(st.step)))
		loss, err := task.Loss(idx, r)
		if err != nil {
			return nil, fmt.Errorf("train: step %d: %w", st.step, err)
		}
		lv := float64(mat.Data[float32](loss.Value())[0])
		if math.IsNaN(lv) || math.IsInf(lv, 0) {
			return nil, fmt.Errorf("train: step %d: loss is %v (lower the learning rate?)", st.step, lv)
		}
		if err := ag.Backward(loss); err != nil {
			return nil, err
		}
		clip(params, cfg.ClipNorm)
		lr := sched.LR(st.step)
		t := float64(ad.TimeStep)
		ad.Alpha = lr * math.Sqrt(1-math.Pow(cfg.Beta2, t)) / (1 - math.Pow(cfg.Beta1, t))
		for _, p := range params {
			if !p.Param.HasGrad() {
				continue
			}
			if err := ad.step(p.Param); err != nil {
				return nil, fmt.Errorf("train: step %d: %s: %w", st.step, p.Name, err)
			}
		}
		ad.inc()
		st.lossSum += lv
		st.lossN++
		st.step++
		if now := time.Now(); opt.Log != nil && now.Sub(lastLine) >= stepLineEvery && st.step < total {
			rate := float64(st.step-fromStep) / now.Sub(started).Seconds()
			fmt.Fprintf(opt.Log, "step %d of %d (%.1f/s, about %s left)\n", st.step, total, rate, (time.Duration(float64(total-st.step)/rate) * time.Second).Round(time.Second))
			lastLine = now
		}
		if !memory && (st.step%every == 0 || st.step == total || (cfg.StopAfter > 0 && st.step >= cfg.StopAfter)) {
			stop, err := checkpoint(ctx, m, params, ad, &st, cfg, opt, cfgJSON, trainJSON, spe)
			if err != nil {
				return nil, err
			}
			if stop {
				res.Stopped = "early stop"
				break
			}
			if cfg.StopAfter > 0 && st.step >= cfg.StopAfter {
				res.Stopped = "interrupted"
				break
			}
		}
	}
	res.Steps = st.step
	res.Best = st.bestName
	res.BestValue = st.best
	for _, c := range st.seen {
		if c.name == st.bestName {
			res.BestValue = c.v
		}
	}
	return res, nil
}

// scored is an evaluated checkpoint and its metric.
type scored struct {
	name string
	v    float64
}

// selectBest returns the index of the earliest of cks whose metric is
// within tol of the highest (-1 when every metric is NaN): with tol 0,
// the first to reach the highest. A NaN metric is never chosen.
func selectBest(cks []scored, tol float64) int {
	top := math.Inf(-1)
	for _, c := range cks {
		if c.v > top {
			top = c.v
		}
	}
	for i, c := range cks {
		if c.v >= top-tol {
			return i
		}
	}
	return -1
}

func metricNames(m map[string]float64) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func logf(w io.Writer, format string, args ...any) {
	if w != nil {
		fmt.Fprintf(w, format, args...)
	}
}

// clip scales all gradients so that their global L2 norm is at most maxNorm.
func clip(params []models.NamedParam, maxNorm float64) {
	if maxNorm <= 0 {
		return
	}
	var ss float64
	for _, p := range params {
		if p.Param.HasGrad() {
			for _, v := range mat.Data[float32](p.Param.Grad()) {
				ss += float64(v) * float64(v)
			}
		}
	}
	norm := math.Sqrt(ss)
	if norm <= maxNorm {
		return
	}
	k := float32(maxNorm / norm)
	for _, p := range params {
		if p.Param.HasGrad() {
			d := mat.Data[float32](p.Param.Grad())
			for i := range d {
				d[i] *= k
			}
		}
	}
}

func checkpoint(ctx context.Context, m Model, params []models.NamedParam, ad *adamW, st *trainerState, cfg Config, opt Options,
	cfgJSON, trainJSON json.RawMessage, spe int) (bool, error) {
	metrics := map[string]float64{}
	if st.lossN > 0 {
		metrics["train/loss"] = st.lossSum / float64(st.lossN)
	}
	st.lossSum, st.lossN = 0, 0
	if opt.Eval != nil {
		em, err := opt.Eval(ctx)
		if err != nil {
			return false, err
		}
		for k, v := range em {
			metrics[k] = v
		}
	}
	name := checkpoints.StepDir(st.step)
	improved := false
	if opt.Eval == nil {
		// Without evaluation the latest checkpoint is the best.
		st.bestName, improved = name, true
	} else if v, ok := metrics[cfg.Metric]; !ok {
		return false, fmt.Errorf("train: the evaluation reports no metric %q (have %v)", cfg.Metric, metricNames(metrics))
	} else {
		if v > st.best {
			st.best, st.bad = v, 0
		} else {
			st.bad++
		}
		st.seen = append(st.seen, scored{name, v})
		if i := selectBest(st.seen, cfg.Tolerance); i >= 0 && st.seen[i].name != st.bestName {
			st.bestName, improved = st.seen[i].name, true
		}
	}
	config, _ := json.Marshal(map[string]json.RawMessage{"model": cfgJSON, "train": trainJSON})
	ck := &checkpoints.Checkpoint{
		Manifest: checkpoints.Manifest{Kind: m.Kind(), Config: config, Step: st.step, Epoch: (st.step - 1) / spe,
			Seed: cfg.Seed, DataFingerprint: opt.Fingerprint, Metrics: metrics},
		OptimizerMeta: map[string]string{
			"adam.timestep": strconv.Itoa(ad.TimeStep),
			"trainer.step":  strconv.Itoa(st.step),
			"trainer.bad":   strconv.Itoa(st.bad),
			"trainer.best":  strconv.FormatFloat(st.best, 'g', -1, 64),
			"trainer.name":  st.bestName,
		},
	}
	for _, p := range params {
		ck.Model = append(ck.Model, checkpoints.Tensor{Name: p.Name, Shape: p.Shape, Data: p.Data()})
		if s, ok := p.Param.State.(*adamState); ok {
			ck.Optimizer = append(ck.Optimizer,
				checkpoints.Tensor{Name: p.Name + ".adam_m1", Shape: p.Shape, Data: s.m1},
				checkpoints.Tensor{Name: p.Name + ".adam_m2", Shape: p.Shape, Data: s.m2})
		}
	}
	if err := checkpoints.Save(filepath.Join(opt.RunDir, name), ck); err != nil {
		return false, err
	}
	if improved {
		if err := checkpoints.SetBest(opt.RunDir, st.bestName); err != nil {
			return false, err
		}
	}
	line, _ := json.Marshal(map[string]any{"step": st.step, "checkpoint": name, "metrics": metrics, "best": st.bestName})
	if err := appendLine(filepath.Join(opt.RunDir, "metrics.jsonl"), line); err != nil {
		return false, err
	}
	logf(opt.Log, "step %d: %s\n", st.step, line)
	if err := dropOldOptimizers(opt.RunDir, name); err != nil {
		return false, err
	}
	return cfg.Patience > 0 && st.bad >= cfg.Patience, nil
}

// dropOldOptimizers removes the optimizer state (Adam's moments and the
// trainer's bookkeeping, twice the model's size) of every checkpoint of
// runDir but keep, the latest: only the latest is resumed from, and the
// others serve, bundle and evaluate from their weights. The demo's
// encoder run (four checkpoints, 5,000 nodes) took 771 MB with every
// optimizer state and takes 387 MB.
func dropOldOptimizers(runDir, keep string) error {
	cks, err := checkpoints.List(runDir)
	if err != nil {
		return err
	}
	for _, c := range cks {
		if c.Name == keep {
			continue
		}
		if err := os.Remove(filepath.Join(runDir, c.Name, checkpoints.OptimizerFile)); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
	}
	return nil
}

// ErrOtherRun reports a --resume whose model or training configuration
// differs from the run's: continuing would mix two configurations in one
// run.
var ErrOtherRun = errors.New("--resume with another configuration than the run's")

// sameRun refuses to resume the run whose last checkpoint is dir (manifest
// m) with another model kind, model configuration or training
// configuration (seed, learning rate, batch, epochs, ...); the error names
// every setting that differs, with both values.
func sameRun(dir string, m checkpoints.Manifest, kind string, cfgJSON, trainJSON json.RawMessage) error {
	if m.Kind != kind {
		return fmt.Errorf("%s: %w: the run trains a %s, this command a %s", dir, ErrOtherRun, m.Kind, kind)
	}
	var was map[string]json.RawMessage
	if err := json.Unmarshal(m.Config, &was); err != nil {
		return fmt.Errorf("%s: manifest config: %v", dir, err)
	}
	var diffs []string
	for _, part := range []struct {
		name string
		now  json.RawMessage
	}{{"model", cfgJSON}, {"train", trainJSON}} {
		var a, b map[string]json.RawMessage
		if json.Unmarshal(was[part.name], &a) != nil || json.Unmarshal(part.now, &b) != nil {
			if !bytes.Equal(was[part.name], part.now) {
				diffs = append(diffs, part.name+" configuration")
			}
			continue
		}
		keys := map[string]bool{}
		for k := range a {
			keys[k] = true
		}
		for k := range b {
			keys[k] = true
		}
		for _, k := range slices.Sorted(maps.Keys(keys)) {
			// A manifest holds its configuration indented: values compare
			// compacted.
			if !bytes.Equal(compactJSON(a[k]), compactJSON(b[k])) {
				diffs = append(diffs, fmt.Sprintf("%s %s: run %s, now %s", part.name, k, orNone(a[k]), orNone(b[k])))
			}
		}
	}
	if len(diffs) > 0 {
		return fmt.Errorf("%s: %w: %s", dir, ErrOtherRun, strings.Join(diffs, "; "))
	}
	return nil
}

// stepLineEvery is how often the training loop logs its step between
// checkpoints.
const stepLineEvery = 15 * time.Second

// compactJSON is v without insignificant white space (v itself when it
// does not parse).
func compactJSON(v json.RawMessage) []byte {
	var b bytes.Buffer
	if json.Compact(&b, v) != nil {
		return v
	}
	return b.Bytes()
}

func orNone(v json.RawMessage) string {
	if v == nil {
		return "(none)"
	}
	return string(v)
}

// repairRun makes a run directory consistent with its checkpoints after a
// kill between a checkpoint's save and its bookkeeping: RUNDIR/best names
// the best checkpoint the last one recorded, and metrics.jsonl holds one
// line per checkpoint, as the trainer writes them (the best so far by
// metric, the earliest within tol of the highest; each checkpoint without
// it is its own best, as when nothing is evaluated).
func repairRun(runDir string, cks []checkpoints.Entry, metric string, tol float64, bestName string) error {
	if bestName != "" {
		if err := checkpoints.SetBest(runDir, bestName); err != nil {
			return err
		}
	}
	var buf bytes.Buffer
	var seen []scored
	name := ""
	for _, c := range cks {
		if v, ok := c.Manifest.Metrics[metric]; !ok {
			name = c.Name
		} else {
			seen = append(seen, scored{c.Name, v})
			if i := selectBest(seen, tol); i >= 0 {
				name = seen[i].name
			}
		}
		line, _ := json.Marshal(map[string]any{"step": c.Manifest.Step, "checkpoint": c.Name, "metrics": c.Manifest.Metrics, "best": name})
		buf.Write(append(line, '\n'))
	}
	path := filepath.Join(runDir, "metrics.jsonl")
	if old, err := os.ReadFile(path); err == nil && bytes.Equal(old, buf.Bytes()) {
		return nil
	}
	return atomicfile.WriteFile(path, func(w io.Writer) error {
		_, err := w.Write(buf.Bytes())
		return err
	})
}

// appendLine rewrites path with line appended, atomically.
func appendLine(path string, line []byte) error {
	old, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	return atomicfile.WriteFile(path, func(w io.Writer) error {
		if _, err := w.Write(old); err != nil {
			return err
		}
		_, err := w.Write(append(line, '\n'))
		return err
	})
}

func restore(dir string, params []models.NamedParam, ad *adamW, st *trainerState, fingerprint string) error {
	ck, err := checkpoints.Load(dir)
	if err != nil {
		return err
	}
	if fingerprint != "" && ck.Manifest.DataFingerprint != fingerprint {
		return fmt.Errorf("%s: trained on data %s, the workspace is %s", dir, ck.Manifest.DataFingerprint, fingerprint)
	}
	byName := map[string]checkpoints.Tensor{}
	for _, t := range ck.Model {
		byName[t.Name] = t
	}
	for _, t := range ck.Optimizer {
		byName[t.Name] = t
	}
	get := func(name string) ([]int, []float32, bool) {
		t, ok := byName[name]
		return t.Shape, t.Data, ok
	}
	if err := models.LoadParams(params, get); err != nil {
		return fmt.Errorf("%s: %w", dir, err)
	}
	for _, p := range params {
		m1, ok1 := byName[p.Name+".adam_m1"]
		m2, ok2 := byName[p.Name+".adam_m2"]
		if !ok1 || !ok2 {
			continue // the parameter had not been updated yet
		}
		if n := len(p.Data()); len(m1.Data) != n || len(m2.Data) != n {
			return fmt.Errorf("%s: optimizer state of %s has %d and %d values, the parameter %d", dir, p.Name, len(m1.Data), len(m2.Data), n)
		}
		p.Param.State = &adamState{m1: append([]float32(nil), m1.Data...), m2: append([]float32(nil), m2.Data...)}
	}
	meta := ck.OptimizerMeta
	atoi := func(k string) (int, error) {
		v, err := strconv.Atoi(meta[k])
		if err != nil {
			return 0, fmt.Errorf("%s: optimizer state %q: %v", dir, k, err)
		}
		return v, nil
	}
	if ad.TimeStep, err = atoi("adam.timestep"); err != nil {
		return err
	}
	if st.step, err = atoi("trainer.step"); err != nil {
		return err
	}
	if st.bad, err = atoi("trainer.bad"); err != nil {
		return err
	}
	if st.best, err = strconv.ParseFloat(meta["trainer.best"], 64); err != nil {
		return fmt.Errorf("%s: optimizer state trainer.best: %v", dir, err)
	}
	st.bestName = meta["trainer.name"]
	return nil
}
