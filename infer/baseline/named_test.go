package baseline

import (
	"context"
	"testing"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/internal/testskb"
)

// TestPlanExecNamed: plan-exec ranks a plan's named nodes first, by the
// restriction among themselves, the other reached nodes next in the
// restriction's order, whether it executes the plan itself or not.
// Paul Smith directed films 1-3; "released in 2007" holds for 1 and 3,
// so the restriction ranks 1 and 3 above 2; naming 2 puts it first with
// the top score plus one added to its own.
func TestPlanExecNamed(t *testing.T) {
	ws := testskb.Workspace(t, testskb.DirectorFilms())
	pl := data.Plan{Paths: data.MustPaths([][]string{{"person", "<-directed_by", "movie"}}...),
		Restriction: map[string][]string{"movie": {"released in 2007"}},
		Anchors:     []data.PlanAnchor{{Text: "Paul Smith", Nodes: []uint32{0}}}}
	pe := NewPlanExec(ws)
	rank := func(p data.Plan) map[uint32]float32 {
		hits, err := pe.Rank(context.Background(), data.Query{Text: "films by Paul Smith released in 2007", Plan: &p})
		if err != nil {
			t.Fatal(err)
		}
		out := map[uint32]float32{}
		for _, h := range hits {
			out[h.ID] = h.Score
		}
		return out
	}
	plain := rank(pl)
	if !(plain[1] > plain[2] && plain[3] > plain[2]) {
		t.Fatalf("restriction scores %v: want films 1 and 3 above 2", plain)
	}
	pl.Named = []uint32{2}
	named := rank(pl)
	top := max(plain[1], plain[3])
	if want := plain[2] + (top + 1); named[2] != want {
		t.Errorf("named film 2 scores %v, want %v (its own %v + top %v + 1)", named[2], want, plain[2], top)
	}
	if named[1] != plain[1] || named[3] != plain[3] {
		t.Errorf("the other films moved: %v, were %v", named, plain)
	}
}
