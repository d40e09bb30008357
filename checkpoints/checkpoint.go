package checkpoints

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/strata-retrieval/strata/internal/atomicfile"
)

// File names inside a checkpoint directory.
const (
	ModelFile     = "model.safetensors"
	OptimizerFile = "optimizer.safetensors"
	ManifestFile  = "manifest.json"
	// BestLink is the symbolic link in a run directory naming the best
	// checkpoint.
	BestLink = "best"
)

// ManifestFormat tags manifest.json.
const ManifestFormat = "strata-checkpoint/1"

// Manifest describes a checkpoint.
type Manifest struct {
	Format          string             `json:"format"`
	Kind            string             `json:"kind"`
	Config          json.RawMessage    `json:"config,omitempty"`
	Step            int                `json:"step"`
	Epoch           int                `json:"epoch"`
	Seed            uint64             `json:"seed"`
	DataFingerprint string             `json:"data_fingerprint"`
	Metrics         map[string]float64 `json:"metrics,omitempty"`
}

// Checkpoint is a model's weights, the optimizer state needed to resume bit
// for bit, and the manifest.
type Checkpoint struct {
	Manifest  Manifest
	Model     []Tensor
	Optimizer []Tensor
	// OptimizerMeta holds scalar optimizer and trainer state (time step,
	// best metric, ...) as exact decimal strings in the optimizer file's
	// safetensors metadata.
	OptimizerMeta map[string]string
}

// Save writes ck to dir atomically: the directory appears complete or not at
// all. An existing dir is an error. The temporary directories a killed
// save left in dir's run directory (".step-N.tmp-*") are removed first.
func Save(dir string, ck *Checkpoint) error {
	if ck.Manifest.Kind == "" {
		return errors.New("checkpoints: manifest has no kind")
	}
	atomicfile.RemoveTemps(filepath.Dir(filepath.Clean(dir)), isStepDir)
	m := ck.Manifest
	m.Format = ManifestFormat
	err := atomicfile.WriteDir(dir, false, func(tmp string) error {
		if err := WriteFile(filepath.Join(tmp, ModelFile), ck.Model, map[string]string{"kind": m.Kind}); err != nil {
			return err
		}
		if ck.Optimizer != nil || ck.OptimizerMeta != nil {
			if err := WriteFile(filepath.Join(tmp, OptimizerFile), ck.Optimizer, ck.OptimizerMeta); err != nil {
				return err
			}
		}
		return writeManifest(filepath.Join(tmp, ManifestFile), &m)
	})
	if errors.Is(err, atomicfile.ErrExists) {
		return fmt.Errorf("%s: %w: a checkpoint of this step exists (is another training writing this run directory?)", dir, ErrCheckpointExists)
	}
	return err
}

// ErrCheckpointExists reports a checkpoint that is already on disk: a
// checkpoint is never overwritten.
var ErrCheckpointExists = errors.New("checkpoint exists")

func writeManifest(path string, m *Manifest) error {
	return atomicfile.WriteFile(path, func(w io.Writer) error {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(m)
	})
}

// ReadRunManifest reads the checkpoint dir names: dir itself when it holds
// a manifest, else the best checkpoint of the run directory dir
// (dir/best). It returns that checkpoint's directory and manifest; the
// error is dir's own when neither reads.
func ReadRunManifest(dir string) (string, *Manifest, error) {
	m, err := ReadManifest(dir)
	if err == nil {
		return dir, m, nil
	}
	best := filepath.Join(dir, BestLink)
	if bm, err2 := ReadManifest(best); err2 == nil {
		return best, bm, nil
	}
	return "", nil, err
}

// ReadManifest reads dir/manifest.json.
func ReadManifest(dir string) (*Manifest, error) {
	path := filepath.Join(dir, ManifestFile)
	b, err := os.ReadFile(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("%s: not a checkpoint (no %s)", dir, ManifestFile)
		}
		return nil, err
	}
	var m Manifest
	dec := json.NewDecoder(bytes.NewReader(b))
	if err := dec.Decode(&m); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if m.Format != ManifestFormat {
		return nil, fmt.Errorf("%s: format %q, want %q", path, m.Format, ManifestFormat)
	}
	if m.Kind == "" {
		return nil, fmt.Errorf("%s: field \"kind\" is empty", path)
	}
	if m.Step < 0 || m.Epoch < 0 {
		return nil, fmt.Errorf("%s: negative step %d or epoch %d", path, m.Step, m.Epoch)
	}
	if len(m.Config) > 0 {
		if err := checkConfigNumbers(m.Config); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
	}
	return &m, nil
}

// MaxConfigInt bounds the integers of a manifest's config (seeds aside):
// no size or count of a model strata builds comes near it, and a model
// built from a larger one would exhaust memory before its weights could be
// checked against it.
const MaxConfigInt = math.MaxInt32

// checkConfigNumbers rejects integral numbers beyond ±MaxConfigInt in a
// config, naming their JSON path; fields whose name holds "seed" may be
// any 64-bit value.
func checkConfigNumbers(raw json.RawMessage) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return fmt.Errorf("field \"config\": %w", err)
	}
	var walk func(v any, path string, depth int) error
	walk = func(v any, path string, depth int) error {
		if depth > 64 {
			return fmt.Errorf("field %s: nested more than 64 deep", quoteClip(path))
		}
		switch x := v.(type) {
		case map[string]any:
			for k, e := range x {
				if err := walk(e, path+"."+k, depth+1); err != nil {
					return err
				}
			}
		case []any:
			for i, e := range x {
				if err := walk(e, fmt.Sprintf("%s[%d]", path, i), depth+1); err != nil {
					return err
				}
			}
		case json.Number:
			f, err := x.Float64()
			if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
				return fmt.Errorf("field %s: %s is not a finite number", quoteClip(path), quoteClip(x.String()))
			}
			last := path[strings.LastIndexAny(path, ".[")+1:]
			if f == math.Trunc(f) && math.Abs(f) > MaxConfigInt && !strings.Contains(strings.ToLower(last), "seed") {
				return fmt.Errorf("field %s: %s is out of range (integers in a model config are at most %d)", quoteClip(path), quoteClip(x.String()), MaxConfigInt)
			}
		}
		return nil
	}
	return walk(v, "config", 0)
}

// checkFinite rejects NaN and infinite values among tensors read from
// file.
func checkFinite(file string, ts []Tensor) error {
	for _, t := range ts {
		for i, v := range t.Data {
			if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
				return fmt.Errorf("%s: tensor %s holds %v at index %d (a diverged run?)", file, quoteClip(t.Name), v, i)
			}
		}
	}
	return nil
}

// Load reads a checkpoint directory. The optimizer state is optional.
// NaN or infinite weights and optimizer values are an error naming the
// file and the tensor.
func Load(dir string) (*Checkpoint, error) {
	m, err := ReadManifest(dir)
	if err != nil {
		return nil, err
	}
	ck := &Checkpoint{Manifest: *m}
	mf, err := ReadFile(filepath.Join(dir, ModelFile))
	if err != nil {
		return nil, err
	}
	ck.Model = ordered(mf)
	if err := checkFinite(filepath.Join(dir, ModelFile), ck.Model); err != nil {
		return nil, err
	}
	if _, err := os.Stat(filepath.Join(dir, OptimizerFile)); err == nil {
		of, err := ReadFile(filepath.Join(dir, OptimizerFile))
		if err != nil {
			return nil, err
		}
		ck.Optimizer = ordered(of)
		ck.OptimizerMeta = of.Metadata
		if err := checkFinite(filepath.Join(dir, OptimizerFile), ck.Optimizer); err != nil {
			return nil, err
		}
	}
	return ck, nil
}

func ordered(f *File) []Tensor {
	out := make([]Tensor, 0, len(f.Names))
	for _, n := range f.Names {
		out = append(out, *f.Tensors[n])
	}
	return out
}

// SetMetrics merges metrics into a checkpoint's manifest, atomically.
func SetMetrics(dir string, metrics map[string]float64) error {
	m, err := ReadManifest(dir)
	if err != nil {
		return err
	}
	if m.Metrics == nil {
		m.Metrics = map[string]float64{}
	}
	for k, v := range metrics {
		m.Metrics[k] = v
	}
	return writeManifest(filepath.Join(dir, ManifestFile), m)
}

// SetConfig replaces a checkpoint manifest's model configuration,
// atomically (a trainer that fixes part of its configuration after the
// checkpoints were saved: the planner's rescue threshold).
func SetConfig(dir string, config json.RawMessage) error {
	m, err := ReadManifest(dir)
	if err != nil {
		return err
	}
	if err := checkConfigNumbers(config); err != nil {
		return fmt.Errorf("%s: %w", dir, err)
	}
	m.Config = config
	return writeManifest(filepath.Join(dir, ManifestFile), m)
}

// StepDir returns the name of the checkpoint directory for a step.
func StepDir(step int) string { return fmt.Sprintf("step-%08d", step) }

// isStepDir reports whether name is a StepDir name ("step-" and digits).
func isStepDir(name string) bool {
	d, ok := strings.CutPrefix(name, "step-")
	return ok && d != "" && strings.Trim(d, "0123456789") == ""
}

// SetBest points runDir/best at the checkpoint directory name (relative),
// replacing any previous link atomically.
func SetBest(runDir, name string) error {
	if _, err := ReadManifest(filepath.Join(runDir, name)); err != nil {
		return err
	}
	tmp := filepath.Join(runDir, ".best.tmp")
	os.Remove(tmp)
	if err := os.Symlink(name, tmp); err != nil {
		return err
	}
	return os.Rename(tmp, filepath.Join(runDir, BestLink))
}

// Best returns the directory name the best link points at, or "" if none.
func Best(runDir string) (string, error) {
	target, err := os.Readlink(filepath.Join(runDir, BestLink))
	if errors.Is(err, os.ErrNotExist) {
		return "", nil
	}
	return filepath.Base(target), err
}

// Entry is one checkpoint of a run.
type Entry struct {
	Name     string
	Manifest Manifest
	Best     bool
}

// List returns the checkpoints of a run directory in step order.
func List(runDir string) ([]Entry, error) {
	des, err := os.ReadDir(runDir)
	if err != nil {
		return nil, err
	}
	best, err := Best(runDir)
	if err != nil {
		return nil, err
	}
	var out []Entry
	for _, de := range des {
		if !de.IsDir() || !strings.HasPrefix(de.Name(), "step-") {
			continue
		}
		m, err := ReadManifest(filepath.Join(runDir, de.Name()))
		if err != nil {
			return nil, err
		}
		out = append(out, Entry{Name: de.Name(), Manifest: *m, Best: de.Name() == best})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Manifest.Step < out[j].Manifest.Step })
	return out, nil
}
