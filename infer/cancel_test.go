package infer_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/strata-retrieval/strata/infer"
	"github.com/strata-retrieval/strata/internal/testws"
	"github.com/strata-retrieval/strata/models"
)

// TestEncodeNodesStopsWhenCancelled: a context cancelled during the
// encoding (as Ctrl-C or SIGTERM cancel the CLI's) stops EncodeNodes after
// the chunks already started, with context.Canceled.
func TestEncodeNodesStopsWhenCancelled(t *testing.T) {
	ws := testws.Preset(t, "amazon", 3000, 20)
	enc, err := models.NewEncoder(models.EncoderConfig{}, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	// Two chunk checks pass: nodes 0-1023 (two chunks of 512) are encoded,
	// the other 1976 are not.
	m, err := infer.EncodeNodes(testws.CancelAfterChecks(2), ws.SKB, enc)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("EncodeNodes: %v, want context.Canceled", err)
	}
	encoded := 0
	for i := 0; i < m.Rows; i++ {
		for _, v := range m.Row(i) {
			if v != 0 {
				encoded++
				break
			}
		}
	}
	if encoded != 1024 {
		t.Errorf("%d of %d nodes encoded after the cancellation, want 1024", encoded, m.Rows)
	}
	full, err := infer.EncodeNodes(t.Context(), ws.SKB, enc)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 1024*m.Dim; i++ {
		if m.Data[i] != full.Data[i] {
			t.Fatalf("value %d: %v before the cancellation, %v in a full run", i, m.Data[i], full.Data[i])
		}
	}
}
