package planner

import (
	"testing"

	"github.com/strata-retrieval/strata/graphops"
)

// A candidate whose plan failed part-way is never carried executed: its
// partial reach is not the plan's, and plan-exec must execute the plan
// itself (and fall back) exactly as without a planner.
func TestExecutedSkipsFailedPlans(t *testing.T) {
	ok := &PlanCandidate{Reach: []uint32{1, 2}, Scores: []float32{0.5, 0}}
	if r := ok.executed(); r == nil || len(r.Nodes) != 2 || r.Scores[0] != 0.5 {
		t.Errorf("executed plan: %+v", r)
	}
	failed := &PlanCandidate{Reach: []uint32{1, 2}, Scores: []float32{0.5, 0}, Err: graphops.ErrInvalidPlan}
	if r := failed.executed(); r != nil {
		t.Errorf("a plan that failed part-way is carried: %+v", r)
	}
	if r := (&PlanCandidate{}).executed(); r != nil {
		t.Errorf("an empty reach is carried: %+v", r)
	}
}
