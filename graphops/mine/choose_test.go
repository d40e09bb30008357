package mine

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-retrieval/strata/data"
)

// TestChoose checks the vote on tied plans worked by hand: question
// 1 ties structures A and B, question 2 has B alone, question 3 ties C and
// A, question 4 none. Votes: A 1/2+1/2 = 1, B 1/2+1 = 1.5, C 1/2. So
// question 1 keeps B (its second), question 3 keeps A (its second), and
// question 4 is left out.
func TestChoose(t *testing.T) {
	plan := func(rel string) data.Plan {
		return data.Plan{Paths: data.MustPaths([][]string{{"drug", rel, "disease"}}...)}
	}
	rec := func(q int, rel string) data.MinedPlanRecord {
		return data.MinedPlanRecord{QID: q, Plan: plan(rel)}
	}
	tied := [][]data.MinedPlanRecord{
		{rec(1, "A"), rec(1, "B")},
		{rec(2, "B")},
		{rec(3, "C"), rec(3, "A")},
		nil,
	}
	want := []data.MinedPlanRecord{rec(1, "B"), rec(2, "B"), rec(3, "A")}
	if diff := cmp.Diff(want, Choose(tied)); diff != "" {
		t.Errorf("chosen plans (-want +got):\n%s", diff)
	}
}
