package planner

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/strata-retrieval/strata/checkpoints"
	"github.com/strata-retrieval/strata/infer"
	"github.com/strata-retrieval/strata/infer/registry"
	"github.com/strata-retrieval/strata/internal/testws"
	"github.com/strata-retrieval/strata/models"
)

// TestLoadRefusesConfigsTheTensorsDoNotHave: a planner checkpoint whose
// manifest claims a gate of 2^31-1 hidden units (terabytes) over tensors
// of 8 is an error naming the directory and the tensor; the gate used to
// be allocated from the config first.
func TestLoadRefusesConfigsTheTensorsDoNotHave(t *testing.T) {
	ws := testws.Preset(t, "amazon", 300, 20)
	g, err := models.NewGate(models.GateConfig{In: 16, Hidden: 8, Out: 2}, "planner", rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	var ts []checkpoints.Tensor
	for _, p := range g.Params() {
		ts = append(ts, checkpoints.Tensor{Name: p.Name, Shape: p.Shape, Data: p.Data()})
	}
	dir := t.TempDir()
	save := func(name string, in, hidden int) string {
		cfg := fmt.Sprintf(`{"model":{"templates":[[["product"]],[["brand","has_brand","product"]]],"query_dim":0,"node_types":["product","brand"],"gate":{"in":%d,"hidden":%d,"out":2}},"train":{}}`, in, hidden)
		ck := filepath.Join(dir, name)
		if err := checkpoints.Save(ck, &checkpoints.Checkpoint{Manifest: checkpoints.Manifest{Kind: Kind, Config: []byte(cfg), DataFingerprint: ws.Fingerprint}, Model: ts}); err != nil {
			t.Fatal(err)
		}
		return ck
	}
	env := infer.NewEnv(context.Background(), ws)
	huge := save("huge", 1<<20, 1<<31-1)
	if _, err := registry.Load(env, huge); err == nil || err.Error() != huge+`: models: tensor "planner.w1" has shape [8 16], the config implies [2147483647 1048576]` {
		t.Errorf("huge gate: %v", err)
	}
	if _, err := registry.Load(env, save("ok", 16, 8)); err != nil {
		t.Errorf("matching gate: %v", err)
	}
}
