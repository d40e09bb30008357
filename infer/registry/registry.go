// Package registry is the one place that knows every model kind and every
// named method: method packages register a loader per checkpoint kind and
// a constructor per method name (in their init functions; infer/all
// imports them all), and every caller — eval --model, pipelines, bundles,
// GRASP's sub-models, MoR's planner — loads through Load, NewMethod or
// Ranker.
package registry

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/strata-retrieval/strata/checkpoints"
	"github.com/strata-retrieval/strata/infer"
	"github.com/strata-retrieval/strata/models"
)

// Checkpoint is a checkpoint being loaded: its directory, manifest, the
// model config its run recorded and its tensors.
type Checkpoint struct {
	Dir      string
	Manifest checkpoints.Manifest
	Config   json.RawMessage // the "model" half of the manifest's config
	tensors  []checkpoints.Tensor
}

// Tensor returns a tensor by name (the getter models.LoadParams takes).
func (c *Checkpoint) Tensor(name string) ([]int, []float32, bool) {
	for _, t := range c.tensors {
		if t.Name == name {
			return t.Shape, t.Data, true
		}
	}
	return nil, nil, false
}

// LoadParams loads params from the checkpoint, errors naming its directory.
func (c *Checkpoint) LoadParams(params []models.NamedParam) error {
	if err := models.LoadParams(params, c.Tensor); err != nil {
		return fmt.Errorf("%s: %w", c.Dir, err)
	}
	return nil
}

// CheckShapes compares the shapes a model's config implies (models.
// GateShapes, TrajectoryShapes, ...) with the checkpoint's tensors, errors
// naming its directory. Loaders call it before building the model, so a
// config with absurd sizes is an error, not a huge allocation.
func (c *Checkpoint) CheckShapes(want []models.NamedShape) error {
	if err := models.CheckShapes(want, c.Tensor); err != nil {
		return fmt.Errorf("%s: %w", c.Dir, err)
	}
	return nil
}

// DecodeConfig unmarshals the model config into v, errors naming the
// directory and what the config is of.
func (c *Checkpoint) DecodeConfig(what string, v any) error {
	if err := json.Unmarshal(c.Config, v); err != nil {
		return fmt.Errorf("%s: %s config: %w", c.Dir, what, err)
	}
	return nil
}

// CheckDense fails when the model was trained on other dense vectors than
// the environment's (hash: what the model recorded; "" accepts any).
func (c *Checkpoint) CheckDense(env *infer.Env, d *infer.DenseChannel, hash string) error {
	if hash != "" && d.Meta.Hash != hash && !env.IgnoreFingerprint {
		return fmt.Errorf("%s was trained with other dense vectors (%s; the workspace's are %s): retrain it, or restore the encoder it was trained with", c.Dir, hash, d.Meta.Hash)
	}
	return nil
}

// Loader builds the method a checkpoint of its kind serves.
type Loader func(env *infer.Env, ck *Checkpoint) (infer.Method, error)

// DirLoader builds a method from a model directory that is not a
// checkpoint (it holds Marker).
type DirLoader func(env *infer.Env, dir string) (infer.Method, error)

// MethodInfo describes a named method for help texts.
type MethodInfo struct {
	Name, Summary string
}

type methodEntry struct {
	info MethodInfo
	new  func(env *infer.Env) (infer.Method, error)
}

var reg = struct {
	sync.RWMutex
	kinds   map[string]Loader
	dirs    map[string]DirLoader
	methods map[string]methodEntry
	order   []string
}{kinds: map[string]Loader{}, dirs: map[string]DirLoader{}, methods: map[string]methodEntry{}}

// Register makes l the loader of checkpoints of kind. Registering a kind
// twice is a programmer error.
func Register(kind string, l Loader) {
	reg.Lock()
	defer reg.Unlock()
	if _, dup := reg.kinds[kind]; dup {
		panic("registry: kind " + kind + " registered twice")
	}
	reg.kinds[kind] = l
}

// RegisterDir makes l the loader of model directories holding marker.
func RegisterDir(marker string, l DirLoader) {
	reg.Lock()
	defer reg.Unlock()
	if _, dup := reg.dirs[marker]; dup {
		panic("registry: directory marker " + marker + " registered twice")
	}
	reg.dirs[marker] = l
}

// RegisterMethod adds a named method (bm25, sage, ...). Methods are listed
// in registration order.
func RegisterMethod(name, summary string, ctor func(env *infer.Env) (infer.Method, error)) {
	reg.Lock()
	defer reg.Unlock()
	if _, dup := reg.methods[name]; dup {
		panic("registry: method " + name + " registered twice")
	}
	reg.methods[name] = methodEntry{MethodInfo{name, summary}, ctor}
	reg.order = append(reg.order, name)
}

// Methods lists the named methods.
func Methods() []MethodInfo {
	reg.RLock()
	defer reg.RUnlock()
	out := make([]MethodInfo, len(reg.order))
	for i, n := range reg.order {
		out[i] = reg.methods[n].info
	}
	return out
}

// IsMethod reports whether name is a registered method.
func IsMethod(name string) bool {
	reg.RLock()
	defer reg.RUnlock()
	_, ok := reg.methods[name]
	return ok
}

// Kinds lists the registered checkpoint kinds, sorted.
func Kinds() []string {
	reg.RLock()
	defer reg.RUnlock()
	out := make([]string, 0, len(reg.kinds))
	for k := range reg.kinds {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// NewMethod returns the named method over env.
func NewMethod(env *infer.Env, name string) (infer.Method, error) {
	reg.RLock()
	e, ok := reg.methods[name]
	names := strings.Join(reg.order, ", ")
	reg.RUnlock()
	if !ok {
		return nil, fmt.Errorf("unknown method %q (have %s)", name, names)
	}
	return e.new(env)
}

// Ranker returns the named method or, for any other name, the model at
// that path.
func Ranker(env *infer.Env, nameOrPath string) (infer.Method, error) {
	if IsMethod(nameOrPath) {
		return NewMethod(env, nameOrPath)
	}
	return Load(env, nameOrPath)
}

// LoadPlanner loads a planner's checkpoint (or run) through Load: the
// planner of the method it serves (infer.PlanningMethod).
func LoadPlanner(env *infer.Env, dir string) (infer.Planner, error) {
	m, err := Load(env, dir)
	if err != nil {
		return nil, err
	}
	pm, ok := m.(infer.PlanningMethod)
	if !ok {
		return nil, fmt.Errorf("%s is not a planner (it serves %s)", dir, m.Name())
	}
	return pm.Planner(), nil
}

// Load loads a trained model: a checkpoint directory, a run directory
// (its best checkpoint), or a model directory a DirLoader knows. The
// checkpoint must have been trained on the environment's data unless
// env.IgnoreFingerprint.
func Load(env *infer.Env, dir string) (infer.Method, error) {
	if err := env.Ctx.Err(); err != nil {
		return nil, err
	}
	given := dir
	if m, ok := env.Models[dir]; ok {
		dir = m
	}
	if err := env.Inside(dir); err != nil {
		return nil, err
	}
	reg.RLock()
	for marker, l := range reg.dirs {
		if _, err := os.Stat(filepath.Join(dir, marker)); err == nil {
			reg.RUnlock()
			if env.OnLoad != nil {
				env.OnLoad(given, dir)
			}
			return l(env, dir)
		}
	}
	reg.RUnlock()
	ck, err := Read(env, dir)
	if err != nil {
		return nil, err
	}
	if env.OnLoad != nil {
		env.OnLoad(given, ck.Dir)
	}
	reg.RLock()
	l, ok := reg.kinds[ck.Manifest.Kind]
	reg.RUnlock()
	if !ok {
		return nil, fmt.Errorf("%s: no method serves checkpoints of kind %q (known: %s)", ck.Dir, ck.Manifest.Kind, strings.Join(Kinds(), ", "))
	}
	return l(env, ck)
}

// ErrOutsideRoot is a model that lies outside the environment's Root
// (infer.ErrOutsideRoot).
var ErrOutsideRoot = infer.ErrOutsideRoot

// Read reads a checkpoint (or a run directory's best) without building its
// method, checking its data fingerprint.
func Read(env *infer.Env, dir string) (*Checkpoint, error) {
	dir, _, err := checkpoints.ReadRunManifest(dir)
	if err != nil {
		return nil, err
	}
	ck, err := checkpoints.Load(dir)
	if err != nil {
		return nil, err
	}
	if ck.Manifest.DataFingerprint != env.WS.Fingerprint && !env.IgnoreFingerprint {
		return nil, fmt.Errorf("%s was trained on data %s, the workspace is %s", dir, ck.Manifest.DataFingerprint, env.WS.Fingerprint)
	}
	var mc struct {
		Model json.RawMessage `json:"model"`
	}
	if err := json.Unmarshal(ck.Manifest.Config, &mc); err != nil {
		return nil, fmt.Errorf("%s: manifest config: %w", dir, err)
	}
	return &Checkpoint{Dir: dir, Manifest: ck.Manifest, Config: mc.Model, tensors: ck.Model}, nil
}
