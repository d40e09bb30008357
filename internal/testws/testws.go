// Package testws builds in-memory workspaces of generated benchmarks for
// tests and benchmarks.
package testws

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/strata-retrieval/strata/data"
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

// SharedData returns the directory sub of the project's shared data
// (../shared/data beside the repository, found from any package
// directory), or skips the test when it is absent, as in a user's clone.
func SharedData(tb testing.TB, sub string) string {
	tb.Helper()
	dir, err := os.Getwd()
	if err != nil {
		tb.Fatal(err)
	}
	for {
		p := filepath.Join(dir, "..", "shared", "data", sub)
		if _, err := os.Stat(p); err == nil {
			return p
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			tb.Skipf("shared data %s not present", sub)
			return ""
		}
		dir = parent
	}
}

// MetaQA imports the real MetaQA graph and questions, or skips.
func MetaQA(tb testing.TB) *workspace.Workspace {
	tb.Helper()
	dir := SharedData(tb, "metaqa")
	skb, err := data.ReadTriples(filepath.Join(dir, "kb.txt"), '|')
	if err != nil {
		tb.Fatal(err)
	}
	plans := map[int]data.Plan{}
	for _, hop := range []string{"1-hop", "2-hop", "3-hop"} {
		f := filepath.Join(dir, "vanilla", hop, "qa_dev.txt")
		qs, err := data.ReadKGQA(f, filepath.Join(dir, "vanilla", hop, "qa_dev_qtype.txt"))
		if err != nil {
			tb.Fatal(err)
		}
		data.KGQAToQA(skb, hop, qs)
		added := skb.QA.Queries[len(skb.QA.Queries)-len(qs):]
		for i, q := range added {
			if p, ok := data.MetaQAPlan(qs[i].QType, qs[i].Topic); ok {
				plans[q.ID] = p
			}
		}
	}
	ws, err := workspace.Build(context.Background(), skb, plans, workspace.Config{}, nil)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { ws.Close() })
	return ws
}

// Sample is every step-th query of a split whose answers are all nodes.
func Sample(tb testing.TB, ws *workspace.Workspace, split string, step int) []data.Query {
	qs, err := ws.SKB.QA.Split(split)
	if err != nil {
		tb.Fatal(err)
	}
	var out []data.Query
	for i := 0; i < len(qs); i += step {
		if len(qs[i].Answers) > 0 {
			out = append(out, qs[i])
		}
	}
	return out
}

// Preset builds a generated preset's workspace with seed 1.
func Preset(tb testing.TB, preset string, nodes, queries int) *workspace.Workspace {
	tb.Helper()
	return Build(tb, synth.Config{Preset: preset, Nodes: nodes, Queries: queries, Seed: 1})
}
