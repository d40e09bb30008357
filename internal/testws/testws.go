// Package testws builds in-memory workspaces of generated benchmarks for
// tests and benchmarks.
package testws

import (
	"context"
	"testing"

	"github.com/strata-retrieval/strata/data/synth"
	"github.com/strata-retrieval/strata/graphops/workspace"
)

// Build generates cfg's benchmark and builds its workspace with the
// ground-truth plans; the workspace is closed when the test ends.
func Build(tb testing.TB, cfg synth.Config) *workspace.Workspace {
	tb.Helper()
	res, err := synth.Generate(cfg)
	if err != nil {
		tb.Fatal(err)
	}
	ws, err := workspace.Build(context.Background(), res.SKB, res.PlanMap(), workspace.Config{}, nil)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { ws.Close() })
	return ws
}
