package checkpoints

import (
	"bytes"
	"encoding/json"
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
