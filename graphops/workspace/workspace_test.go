package workspace

import (
	"bytes"
	"context"
	"errors"
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/data/snapshot"
	"github.com/strata-retrieval/strata/data/synth"
)

func TestSaveLoad(t *testing.T) {
	res, err := synth.Generate(synth.Config{Preset: "amazon", Nodes: 2000, Queries: 100, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	plans := map[int]data.Plan{}
	for _, p := range res.Plans {
		plans[p.QID] = p.Plan
	}
	ws, err := Build(context.Background(), res.SKB, plans, Config{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	dir := t.TempDir()
	if err := ws.Save(dir); err != nil {
		t.Fatal(err)
	}
	// Saving is deterministic: a second save gives the same bytes.
	dir2 := t.TempDir()
	if err := ws.Save(dir2); err != nil {
		t.Fatal(err)
	}
	b1, _ := os.ReadFile(Path(dir))
	b2, _ := os.ReadFile(Path(dir2))
	if !bytes.Equal(b1, b2) {
		t.Error("two saves of one workspace differ")
	}
	got, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer got.Close()
	if d := cmp.Diff(ws.SKB, got.SKB, cmpopts.IgnoreUnexported(data.QA{}), cmpopts.EquateEmpty()); d != "" {
		t.Fatalf("SKB differs after load:\n%s", d)
	}
	if got.Fingerprint != ws.Fingerprint || Fingerprint(got.SKB) != ws.Fingerprint {
		t.Errorf("fingerprint %s / %s, want %s", got.Fingerprint, Fingerprint(got.SKB), ws.Fingerprint)
	}
	if !cmp.Equal(got.Plans, ws.Plans) {
		t.Error("plans differ")
	}
	for _, q := range res.SKB.QA.Queries[:20] {
		if a, b := ws.SearchDoc(q.Text, 10), got.SearchDoc(q.Text, 10); !cmp.Equal(a, b) {
			t.Fatalf("search differs for %q: %v vs %v", q.Text, a, b)
		}
		if a, b := ws.Fields["brand"].Search(q.Text, 5, nil), got.Fields["brand"].Search(q.Text, 5, nil); !cmp.Equal(a, b) {
			t.Fatalf("field search differs")
		}
	}
	for v := uint32(0); v < uint32(len(res.SKB.Nodes)); v += 97 {
		a1, r1 := ws.Graph.Neighbors(v)
		a2, r2 := got.Graph.Neighbors(v)
		if !cmp.Equal(a1, a2) || !cmp.Equal(r1, r2) || ws.Graph.Name(v) != got.Graph.Name(v) {
			t.Fatalf("node %d differs", v)
		}
	}
	for ty := range res.SKB.Schema.NodeTypes {
		if !cmp.Equal(ws.Graph.NodesOfType(data.TypeID(ty)), got.Graph.NodesOfType(data.TypeID(ty))) {
			t.Fatalf("type index %d differs after restore", ty)
		}
	}
	// Corrupt one byte in the middle: Load must fail with ErrCorrupt.
	path := Path(dir)
	b, _ := os.ReadFile(path)
	b[len(b)/2] ^= 0xff
	os.WriteFile(path, b, 0o644)
	if _, err := Load(dir); !errors.Is(err, snapshot.ErrCorrupt) {
		t.Errorf("corrupted snapshot: %v", err)
	}
	if _, err := Load(t.TempDir()); !errors.Is(err, ErrNoWorkspace) {
		t.Errorf("empty dir: %v", err)
	}
}
