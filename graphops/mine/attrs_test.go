package mine

import (
	"testing"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/internal/testskb"
)

// TestWithAttribute: Paul Smith directed F1 (2007, English), F2 (1999,
// French) and F3 (2007, French). For "films released in 2007 by Paul
// Smith" with answers F1 and F3, both state (released, 2007): the filter
// keeps exactly them, F1 1 beats the record's 0.8. With the answer F1
// alone the same filter keeps F1 and F3: precision 1/2, recall 1, F1 2/3,
// which does not beat 0.8; nor does anything beat a record of F1 1.
func TestWithAttribute(t *testing.T) {
	ws := testskb.Workspace(t, testskb.DirectorFilms())
	rec := data.MinedPlanRecord{Plan: data.Plan{Paths: data.MustPaths([][]string{{"person", "<-directed_by", "movie"}}...),
		Restriction: map[string][]string{"movie": {"films released in 2007 by"}},
		Anchors:     []data.PlanAnchor{{Text: "Paul Smith", Nodes: []uint32{0}}}},
		Mined: data.MinedInfo{F1: 0.8}}
	got, ok := withAttribute(ws, rec, []uint32{1, 3})
	if !ok || got.Mined.F1 != 1 || !got.Mined.Attribute || len(got.Plan.Attributes) != 1 || got.Plan.Attributes[0] != (data.PlanAttr{Key: "released", Value: "2007"}) {
		t.Errorf("answers F1, F3: %+v %v", got, ok)
	}
	if rec.Plan.Attributes != nil {
		t.Error("the input record changed")
	}
	if _, ok := withAttribute(ws, rec, []uint32{1}); ok {
		t.Error("answer F1 alone: a filter of F1 2/3 should not replace 0.8")
	}
	rec.Mined.F1 = 1
	if _, ok := withAttribute(ws, rec, []uint32{1, 3}); ok {
		t.Error("a record of F1 1 was refined")
	}
}
