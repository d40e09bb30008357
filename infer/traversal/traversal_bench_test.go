package traversal

import (
	"context"
	"os"
	"sort"
	"strconv"
	"testing"
	"time"

	"github.com/strata-retrieval/strata/data/synth"
	gplan "github.com/strata-retrieval/strata/graphops/plan"
	"github.com/strata-retrieval/strata/graphops/workspace"
)

// BenchmarkTraversalLatency measures MoR's mixed traversal per query (with
// the generator's plans, first stage included) on a mag benchmark sized by
// STRATA_BENCH_NODES (default 20000; make bench uses 1M), reporting the
// median and p95 latency over 200 queries.
func BenchmarkTraversalLatency(b *testing.B) {
	nodes := 20000
	if v, err := strconv.Atoi(os.Getenv("STRATA_BENCH_NODES")); err == nil && v > 0 {
		nodes = v
	}
	res, err := synth.Generate(synth.Config{Preset: "mag", Nodes: nodes, Queries: 200, Seed: 9})
	if err != nil {
		b.Fatal(err)
	}
	ws, err := workspace.Build(context.Background(), res.SKB, res.PlanMap(), workspace.Config{}, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer ws.Close()
	tm := workspace.NewTypeMatcher(ws)
	tm.Match("warm up", 0, 1)
	b.ResetTimer()
	lat := make([]time.Duration, 0, len(res.Plans))
	for i, r := range res.Plans {
		q := ws.SKB.QA.Queries[i]
		t0 := time.Now()
		first := ws.SearchDoc(q.Text, 100)
		if _, err := gplan.MixedTraversal(ws.Graph, tm, q.Text, r.Plan, gplan.TraversalConfig{}, first); err != nil {
			b.Fatal(err)
		}
		lat = append(lat, time.Since(t0))
	}
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	b.ReportMetric(float64(nodes), "nodes")
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(lat[len(lat)*95/100].Microseconds())/1000, "p95-ms")
}
