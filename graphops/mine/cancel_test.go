package mine

import (
	"context"
	"errors"
	"testing"

	"github.com/strata-retrieval/strata/internal/testws"
)

// TestMineStopsWhenCancelled: a context cancelled while mining (Ctrl-C,
// SIGTERM) stops Plans after the chunks of 8 questions already started,
// with context.Canceled and no records.
func TestMineStopsWhenCancelled(t *testing.T) {
	ws := testws.Preset(t, "amazon", 1000, 200)
	qs := ws.SKB.QA.Queries
	var progress []int
	recs, rep, err := Plans(testws.CancelAfterChecks(3), ws, qs, Options{Workers: 1,
		Progress: func(done, total int) { progress = append(progress, done) }})
	if !errors.Is(err, context.Canceled) || recs != nil || rep != nil {
		t.Fatalf("Plans: %d records, report %v, %v; want context.Canceled", len(recs), rep, err)
	}
	if want := []int{8, 16, 24}; len(progress) != 3 || progress[2] != 24 || len(qs) != 200 {
		t.Errorf("mined %v of %d questions before stopping, want %v", progress, len(qs), want)
	}
}
