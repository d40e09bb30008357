// Package pipeline reads, validates and compiles pipeline files: an
// optional candidate generator, one or more scorers (named methods or
// trained models, loaded through infer/registry) and their fusion (the one
// weighted RRF, reranker.FuseRRF, or a weighted sum).
package pipeline

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/strata-retrieval/strata/checkpoints"
	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/data/index"
	"github.com/strata-retrieval/strata/infer"
	"github.com/strata-retrieval/strata/infer/planner"
	"github.com/strata-retrieval/strata/infer/registry"
	"github.com/strata-retrieval/strata/internal/atomicfile"
	"github.com/strata-retrieval/strata/reranker"
)

// PipelineFormat tags pipeline files.
const PipelineFormat = "strata-pipeline/1"

// PipelineFile is the name `strata train` gives the pipeline it writes
// beside a run's checkpoints.
const PipelineFile = "pipeline.json"

// Pipeline describes how queries are scored: an optional candidate
// generator, one or more scorers, and how their scores are fused. Model
// paths are relative to the pipeline file.
type Pipeline struct {
	Format     string      `json:"format" yaml:"format"`
	Name       string      `json:"name,omitempty" yaml:"name,omitempty"`
	Candidates *Stage      `json:"candidates,omitempty" yaml:"candidates,omitempty"`
	Scorers    []Stage     `json:"scorers" yaml:"scorers"`
	Fusion     *FusionSpec `json:"fusion,omitempty" yaml:"fusion,omitempty"`

	dir    string
	file   string
	locate func(path string) int
}

// Stage is a method or a trained model. A plan-based method (plan-exec,
// mor-traversal, simgrag, sage-plan, ...) takes each query's plan from a
// trained planner (Planner) or a plans file (Plans), exactly as eval
// --planner and --plans do; without either, from the query or the
// workspace.
type Stage struct {
	Method  string  `json:"method,omitempty" yaml:"method,omitempty"`   // bm25, plan-exec, ... (strata eval --help lists them)
	Model   string  `json:"model,omitempty" yaml:"model,omitempty"`     // checkpoint or run directory
	Planner string  `json:"planner,omitempty" yaml:"planner,omitempty"` // with Method: plan with this planner (checkpoint or run directory)
	Plans   string  `json:"plans,omitempty" yaml:"plans,omitempty"`     // with Method: take plans from this file
	K       int     `json:"k,omitempty" yaml:"k,omitempty"`             // candidates: how many to keep (default 100)
	Weight  float64 `json:"weight,omitempty" yaml:"weight,omitempty"`   // fusion weight (default 1)
}

// FusionSpec fuses several scorers: "rrf" sums weight/(k + rank), "sum"
// sums weight·score.
type FusionSpec struct {
	Kind string  `json:"kind" yaml:"kind"`
	K    float64 `json:"k,omitempty" yaml:"k,omitempty"` // RRF constant, default 60
}

// Error names the file, line and key of a bad pipeline. Err, when
// set, is the cause (a stage's model that failed to load), so errors.Is
// sees through the pipeline (infer.ErrOutsideRoot, context.Canceled).
type Error struct {
	File string
	Line int
	Key  string
	Msg  string
	Err  error
}

func (e *Error) Unwrap() error { return e.Err }

func (e *Error) Error() string {
	loc := e.File
	if e.Line > 0 {
		loc += ":" + strconv.Itoa(e.Line)
	}
	if e.Key != "" {
		return fmt.Sprintf("%s: key %q: %s", loc, e.Key, e.Msg)
	}
	return fmt.Sprintf("%s: %s", loc, e.Msg)
}

func (p *Pipeline) bad(key, format string, args ...any) error {
	return &Error{File: p.file, Line: p.locate(key), Key: key, Msg: fmt.Sprintf(format, args...)}
}

// stageErr locates a stage's load error at its key, keeping the cause.
func (p *Pipeline) stageErr(key string, err error) error {
	return &Error{File: p.file, Line: p.locate(key), Key: key, Msg: err.Error(), Err: err}
}

func (p *Pipeline) validate() error {
	if p.Format != PipelineFormat {
		return p.bad("format", "want %q, got %q", PipelineFormat, p.Format)
	}
	if len(p.Scorers) == 0 {
		return p.bad("scorers", "at least one scorer is needed")
	}
	check := func(key string, s Stage) error {
		if (s.Method == "") == (s.Model == "") {
			return p.bad(key, "give exactly one of method and model")
		}
		if s.Method != "" && !registry.IsMethod(s.Method) {
			return p.bad(key+".method", "unknown method %q", s.Method)
		}
		if s.Model != "" && (s.Planner != "" || s.Plans != "") {
			return p.bad(key, "planner and plans go with a method; a model names its own planner")
		}
		if s.Planner != "" && s.Plans != "" {
			return p.bad(key, "give at most one of planner and plans")
		}
		if s.K < 0 || s.Weight < 0 {
			return p.bad(key, "k and weight must not be negative")
		}
		if math.IsNaN(s.Weight) || math.IsInf(s.Weight, 0) {
			return p.bad(key+".weight", "want a finite number, got %v", s.Weight)
		}
		return nil
	}
	if p.Candidates != nil {
		if err := check("candidates", *p.Candidates); err != nil {
			return err
		}
	}
	for i, s := range p.Scorers {
		if err := check(fmt.Sprintf("scorers[%d]", i), s); err != nil {
			return err
		}
	}
	if len(p.Scorers) > 1 && p.Fusion == nil {
		return p.bad("scorers", "%d scorers need a fusion (rrf or sum)", len(p.Scorers))
	}
	if p.Fusion != nil && p.Fusion.Kind != "rrf" && p.Fusion.Kind != "sum" {
		return p.bad("fusion.kind", "want rrf or sum, got %q", p.Fusion.Kind)
	}
	if p.Fusion != nil && !(p.Fusion.K >= 0 && !math.IsInf(p.Fusion.K, 0)) {
		return p.bad("fusion.k", "want a finite number >= 0, got %v", p.Fusion.K)
	}
	return nil
}

// WriteRun writes RUNDIR/pipeline.json scoring with stage, whose paths
// are relative to RUNDIR (RUNDIR/best: {Model: "best"}; the planner's
// plans executed: {Method: "plan-exec", Planner: "best"}), so what was
// evaluated is what strata score and eval --pipeline serve.
func WriteRun(runDir, name string, stage Stage) error {
	return WritePipeline(filepath.Join(runDir, PipelineFile), &Pipeline{
		Format: PipelineFormat, Name: name, Scorers: []Stage{stage}})
}

// BestStage is the stage of a run's best checkpoint.
func BestStage() Stage { return Stage{Model: checkpoints.BestLink} }

// WritePipeline writes p as indented JSON, atomically.
func WritePipeline(path string, p *Pipeline) error {
	return atomicfile.WriteFile(path, func(w io.Writer) error {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(p)
	})
}

// File returns the path the pipeline was read from.
func (p *Pipeline) File() string { return p.file }

// ModelPath returns a stage's model path (or planner, or plans file)
// resolved against the pipeline file's directory.
func (p *Pipeline) ModelPath(model string) string { return resolveModel(p, model) }

// Stages returns the scorers and the candidate stage, if any.
func (p *Pipeline) Stages() []Stage {
	out := slices.Clone(p.Scorers)
	if p.Candidates != nil {
		out = append(out, *p.Candidates)
	}
	return out
}

// Paths returns the stage's model, planner and plans file as the pipeline
// names them ("" for those it lacks).
func (s Stage) Paths() []string { return []string{s.Model, s.Planner, s.Plans} }

// resolveModel returns a model path relative to the pipeline file's
// directory.
func resolveModel(p *Pipeline, model string) string {
	if filepath.IsAbs(model) {
		return model
	}
	return filepath.Join(p.dir, model)
}

// Runner executes a compiled pipeline.
type Runner struct {
	P          *Pipeline
	candidates infer.Method
	scorers    []infer.Method
	names      []string
	loaded     []string
}

// Loaded returns the checkpoint and model directories and the files the
// pipeline's stages loaded (sorted, each once): what its rankings depend
// on besides the workspace.
func (r *Runner) Loaded() []string {
	out := slices.Clone(r.loaded)
	slices.Sort(out)
	return slices.Compact(out)
}

var _ infer.Method = (*Runner)(nil)

func (p *Pipeline) stageMethod(env *infer.Env, s Stage) (infer.Method, string, error) {
	if s.Method != "" {
		m, err := registry.NewMethod(env, s.Method)
		if err != nil {
			return nil, s.Method, err
		}
		plans := planner.Plans{}
		if s.Planner != "" {
			plans.Planner = resolveModel(p, s.Planner)
		}
		if s.Plans != "" {
			plans.File = resolveModel(p, s.Plans)
		}
		wrap, err := plans.Wrapper(env)
		if err != nil {
			return nil, s.Method, err
		}
		return wrap(m), s.Method, nil
	}
	m, err := registry.Load(env, resolveModel(p, s.Model))
	return m, s.Model, err
}

// Compile loads the pipeline's methods and models through the registry.
func (p *Pipeline) Compile(env *infer.Env) (*Runner, error) {
	r := &Runner{P: p}
	// Record what the stages load (for Loaded), still telling env's own
	// observers, which are restored after.
	onLoad, onFile := env.OnLoad, env.OnFile
	defer func() { env.OnLoad, env.OnFile = onLoad, onFile }()
	var mu sync.Mutex
	env.OnLoad = func(given, dir string) {
		mu.Lock()
		r.loaded = append(r.loaded, dir)
		mu.Unlock()
		if onLoad != nil {
			onLoad(given, dir)
		}
	}
	env.OnFile = func(given, path string) {
		mu.Lock()
		r.loaded = append(r.loaded, path)
		mu.Unlock()
		if onFile != nil {
			onFile(given, path)
		}
	}
	if p.Candidates != nil {
		m, _, err := p.stageMethod(env, *p.Candidates)
		if err != nil {
			return nil, p.stageErr("candidates", err)
		}
		r.candidates = m
	}
	seen := map[string]int{}
	for i, s := range p.Scorers {
		m, _, err := p.stageMethod(env, s)
		if err != nil {
			return nil, p.stageErr(fmt.Sprintf("scorers[%d]", i), err)
		}
		// Stages are named by what they are (bm25, dense, cor), not by
		// where their model lives, so a bundle scores like its run.
		name := m.Name()
		seen[name]++
		if seen[name] > 1 {
			name = fmt.Sprintf("%s#%d", name, seen[name])
		}
		r.scorers = append(r.scorers, m)
		r.names = append(r.names, name)
	}
	return r, nil
}

// Name returns the pipeline's name (for run tags).
func (r *Runner) Name() string {
	if r.P.Name != "" {
		return r.P.Name
	}
	return strings.Join(r.names, "+")
}

// TakeFallbacks implements infer.FallbackCounter: the queries its stages
// answered by their fallbacks since the last call (a query two stages
// fell back on counts twice).
func (r *Runner) TakeFallbacks() int64 {
	var n int64
	for _, m := range append([]infer.Method{r.candidates}, r.scorers...) {
		if f, ok := m.(infer.FallbackCounter); ok {
			n += f.TakeFallbacks()
		}
	}
	return n
}

// FallbackText names the text channels its stages fall back to (those of
// the stages that count fallbacks, comma-separated when they differ; bm25 when
// none does).
func (r *Runner) FallbackText() string {
	var names []string
	for _, m := range append([]infer.Method{r.candidates}, r.scorers...) {
		if _, ok := m.(infer.FallbackCounter); ok {
			if t := infer.FallbackText(m); !slices.Contains(names, t) {
				names = append(names, t)
			}
		}
	}
	if len(names) == 0 {
		return "bm25"
	}
	return strings.Join(names, ", ")
}

// StageNames returns the scorers' names in order.
func (r *Runner) StageNames() []string { return r.names }

// Rank implements eval.Ranker.
func (r *Runner) Rank(ctx context.Context, q data.Query) ([]index.Hit, error) {
	hits, _, err := r.Ranking(ctx, q, false)
	return hits, err
}

// RankStages ranks a query and also returns each scorer's own scores of
// the ranked nodes (per-stage scores for analysis). A cancelled ctx stops
// it before the next stage (and inside the stages that check it) with
// ctx's error.
func (r *Runner) RankStages(ctx context.Context, q data.Query) ([]index.Hit, []map[uint32]float32, error) {
	return r.Ranking(ctx, q, true)
}

// Ranking is RankStages; without stages it builds no per-stage scores (a
// map per scorer of every node it scored: over a hundred thousand
// candidates) and returns none.
func (r *Runner) Ranking(ctx context.Context, q data.Query, stages bool) ([]index.Hit, []map[uint32]float32, error) {
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	var allow map[uint32]bool
	var pool []index.Hit
	if r.candidates != nil {
		gen, err := r.candidates.Rank(ctx, q)
		if err != nil {
			return nil, nil, err
		}
		infer.SortHits(gen)
		k := r.P.Candidates.K
		if k == 0 {
			k = 100
		}
		if len(gen) > k {
			gen = gen[:k]
		}
		allow = make(map[uint32]bool, len(gen))
		for _, h := range gen {
			allow[h.ID] = true
		}
		pool = gen
	}
	var per []map[uint32]float32
	if stages {
		per = make([]map[uint32]float32, len(r.scorers))
	}
	lists := make([][]index.Hit, len(r.scorers))
	weights := make([]float64, len(r.scorers))
	for si, m := range r.scorers {
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		// A scorer that can rerank scores the candidate stage's pool, every
		// node of it (MoR's trajectory reranker, an LLM reranker); any
		// other ranks as it would alone, kept to the pool.
		var hs []index.Hit
		var err error
		if rr, ok := m.(infer.Reranker); ok && allow != nil {
			hs, err = rr.Rerank(ctx, q, slices.Clone(pool))
		} else {
			hs, err = m.Rank(ctx, q)
		}
		if err != nil {
			return nil, nil, err
		}
		infer.SortHits(hs)
		if allow != nil {
			kept := hs[:0]
			for _, h := range hs {
				if allow[h.ID] {
					kept = append(kept, h)
				}
			}
			hs = kept
		}
		if stages {
			per[si] = make(map[uint32]float32, len(hs))
			for _, h := range hs {
				per[si][h.ID] = h.Score
			}
		}
		lists[si] = hs
		weights[si] = cmp.Or(r.P.Scorers[si].Weight, 1)
	}
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	var out []index.Hit
	switch {
	case r.P.Fusion != nil && r.P.Fusion.Kind == "rrf":
		out = reranker.FuseRRF(lists, weights, cmp.Or(r.P.Fusion.K, 60))
	case r.P.Fusion != nil: // sum
		fused := map[uint32]float64{}
		for si, l := range lists {
			for _, h := range l {
				fused[h.ID] += weights[si] * float64(h.Score)
			}
		}
		out = make([]index.Hit, 0, len(fused))
		for id, v := range fused {
			out = append(out, index.Hit{ID: id, Score: float32(v)})
		}
		infer.SortHits(out)
	default:
		out = slices.Clone(lists[0])
	}
	return out, per, nil
}
