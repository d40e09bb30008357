package checkpoints

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestCheckpointRoundTripAndList(t *testing.T) {
	run := t.TempDir()
	for _, step := range []int{200, 100} {
		ck := &Checkpoint{
			Manifest: Manifest{Kind: "cor", Config: json.RawMessage(`{"hidden":8}`), Step: step, Epoch: 1, Seed: 9,
				DataFingerprint: "sha256:ab", Metrics: map[string]float64{"val/mrr": float64(step) / 1000}},
			Model:     []Tensor{{Name: "w", Shape: []int{1, 2}, Data: []float32{1, 2}}},
			Optimizer: []Tensor{{Name: "w.m", Shape: []int{1, 2}, Data: []float32{0.1, 0.2}}, {Name: "step", Data: []float32{float32(step)}}},
		}
		if err := Save(filepath.Join(run, StepDir(step)), ck); err != nil {
			t.Fatal(err)
		}
	}
	if err := Save(filepath.Join(run, StepDir(100)), &Checkpoint{Manifest: Manifest{Kind: "cor"}}); err == nil {
		t.Error("overwriting a checkpoint succeeded")
	}
	if err := SetBest(run, StepDir(100)); err != nil {
		t.Fatal(err)
	}
	if err := SetMetrics(filepath.Join(run, StepDir(200)), map[string]float64{"test/hit@1": 0.5}); err != nil {
		t.Fatal(err)
	}
	es, err := List(run)
	if err != nil {
		t.Fatal(err)
	}
	if len(es) != 2 || es[0].Manifest.Step != 100 || !es[0].Best || es[1].Best || es[1].Manifest.Metrics["test/hit@1"] != 0.5 || es[1].Manifest.Metrics["val/mrr"] != 0.2 {
		t.Fatalf("list %+v", es)
	}
	ck, err := Load(filepath.Join(run, BestLink))
	if err != nil {
		t.Fatal(err)
	}
	if ck.Manifest.Step != 100 || !cmp.Equal(ck.Model[0].Data, []float32{1, 2}) || len(ck.Optimizer) != 2 || compact(ck.Manifest.Config) != `{"hidden":8}` {
		t.Errorf("loaded %+v", ck)
	}
}

func TestLoadErrors(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "ck")
	if err := Save(dir, &Checkpoint{Manifest: Manifest{Kind: "gate"}, Model: []Tensor{{Name: "w", Shape: []int{3}, Data: []float32{1, 2, 3}}}}); err != nil {
		t.Fatal(err)
	}
	mp := filepath.Join(dir, ModelFile)
	b, _ := os.ReadFile(mp)
	os.WriteFile(mp, b[:len(b)-4], 0o644)
	if _, err := Load(dir); err == nil || !strings.Contains(err.Error(), "model.safetensors") || !strings.Contains(err.Error(), "truncated") {
		t.Errorf("truncated model: %v", err)
	}
	os.WriteFile(filepath.Join(dir, ManifestFile), bytes.Replace([]byte(`{"format":"strata-checkpoint/1","kind":""}`), nil, nil, 1), 0o644)
	if _, err := Load(dir); err == nil || !strings.Contains(err.Error(), `"kind" is empty`) {
		t.Errorf("empty kind: %v", err)
	}
	if _, err := Load(t.TempDir()); err == nil || !strings.Contains(err.Error(), "not a checkpoint") {
		t.Errorf("empty dir: %v", err)
	}
}

func compact(b []byte) string {
	var buf bytes.Buffer
	json.Compact(&buf, b)
	return buf.String()
}

// A save killed after creating its temporary directory leaves
// ".step-N.tmp-*" in the run directory; the next save removes it (any
// step), and leaves everything else alone.
func TestSaveRemovesStaleStepTemps(t *testing.T) {
	run := t.TempDir()
	for _, n := range []string{".step-00000100.tmp-4242", ".step-00000200.tmp-1", "notes.txt", ".step-00000100.tmp-1.old", ".other.tmp-3"} {
		if err := os.Mkdir(filepath.Join(run, n), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(run, ".step-00000100.tmp-4242", ManifestFile), []byte("{"), 0o644)
	if err := Save(filepath.Join(run, StepDir(300)), &Checkpoint{Manifest: Manifest{Kind: "gate"}, Model: []Tensor{{Name: "w", Shape: []int{1}, Data: []float32{1}}}}); err != nil {
		t.Fatal(err)
	}
	var got []string
	entries, _ := os.ReadDir(run)
	for _, e := range entries {
		got = append(got, e.Name())
	}
	want := []string{".other.tmp-3", ".step-00000100.tmp-1.old", "notes.txt", "step-00000300"}
	if !cmp.Equal(got, want) {
		t.Errorf("run dir %q, want %q", got, want)
	}
}

// NaN or infinite weights, and absurd sizes in the manifest's config, are
// errors naming the file and the tensor or field (the config used to reach
// the model constructors, which allocated hidden·hidden floats).
func TestLoadRejectsNonFiniteAndAbsurdConfig(t *testing.T) {
	save := func(model, opt []float32, config string) string {
		dir := filepath.Join(t.TempDir(), "ck")
		ck := &Checkpoint{Manifest: Manifest{Kind: "gate", Config: json.RawMessage(config)},
			Model: []Tensor{{Name: "w", Shape: []int{len(model)}, Data: model}}}
		if opt != nil {
			ck.Optimizer = []Tensor{{Name: "w.m", Shape: []int{len(opt)}, Data: opt}}
		}
		if err := Save(dir, ck); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	nan, inf := float32(math.NaN()), float32(math.Inf(1))
	for _, c := range []struct {
		name       string
		model, opt []float32
		config     string
		want       []string
	}{
		{"NaN weight", []float32{1, nan}, nil, `{"model":{"hidden":8}}`, []string{"model.safetensors", `tensor "w" holds NaN at index 1`}},
		{"Inf optimizer state", []float32{1}, []float32{inf}, `{"model":{"hidden":8}}`, []string{"optimizer.safetensors", `tensor "w.m" holds +Inf at index 0`}},
		{"hidden 1e12", []float32{1}, nil, `{"model":{"hidden":1000000000000}}`, []string{"manifest.json", `field "config.model.hidden": "1000000000000" is out of range`}},
		{"hidden as 1e12", []float32{1}, nil, `{"model":{"layers":[{"in":4},{"in":1e12}]}}`, []string{"manifest.json", `"config.model.layers[1].in"`}},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Load(save(c.model, c.opt, c.config))
			if err == nil {
				t.Fatal("accepted")
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
		})
	}
	// Seeds may use every bit; fractions and small integers are fine.
	if _, err := Load(save([]float32{1, -2}, []float32{0}, `{"model":{"hash_seed":18446744073709551615,"eps":1e-8,"theta":1000000},"train":{"seed":9007199254740993}}`)); err != nil {
		t.Errorf("valid checkpoint: %v", err)
	}
}

// A shape whose element count overflows int64 used to wrap to a small
// count that matched the data offsets.
func TestDecodeShapeOverflow(t *testing.T) {
	for _, shape := range []string{"[4,4611686018427387904]", "[2,4611686018427387904,2]"} {
		h := `{"x":{"dtype":"F32","shape":` + shape + `,"data_offsets":[0,0]},"y":{"dtype":"F32","shape":[4],"data_offsets":[0,16]}}`
		b := binary.LittleEndian.AppendUint64(nil, uint64(len(h)))
		b = append(b, h...)
		b = append(b, make([]byte, 16)...)
		if _, err := Decode(b); !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), "exceeds the data buffer") {
			t.Errorf("shape %s: %v", shape, err)
		}
	}
}

// ReadRunManifest reads a checkpoint directory itself, or a run
// directory's best checkpoint; with neither it returns the directory's own
// error.
func TestReadRunManifest(t *testing.T) {
	run := t.TempDir()
	ck := &Checkpoint{Manifest: Manifest{Kind: "k", Step: 3}, Model: []Tensor{{Name: "w", Shape: []int{1}, Data: []float32{1}}}}
	step := filepath.Join(run, "step-00000003")
	if err := Save(step, ck); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("step-00000003", filepath.Join(run, BestLink)); err != nil {
		t.Fatal(err)
	}
	if dir, m, err := ReadRunManifest(step); err != nil || dir != step || m.Step != 3 {
		t.Errorf("checkpoint: %q %+v %v", dir, m, err)
	}
	if dir, m, err := ReadRunManifest(run); err != nil || dir != filepath.Join(run, BestLink) || m.Kind != "k" {
		t.Errorf("run directory: %q %+v %v", dir, m, err)
	}
	empty := t.TempDir()
	if _, _, err := ReadRunManifest(empty); err == nil || !strings.Contains(err.Error(), empty+": not a checkpoint") {
		t.Errorf("neither: %v", err)
	}
}
