package workspace

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"testing"
	"time"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/data/synth"
)

func envInt(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil && v > 0 {
		return v
	}
	return def
}

// BenchmarkWorkspaceScale measures building a workspace from an skbdir (parse
// nodes.jsonl and edges.tsv, build the graph, the attribute store and every
// BM25 index) against loading its snapshot, and the adjacency's size. Size it
// with STRATA_BENCH_NODES and STRATA_BENCH_EDGES (defaults 20000 / 400000);
// `make bench` runs 1M nodes and 20M edges.
func BenchmarkWorkspaceScale(b *testing.B) {
	nodes := envInt("STRATA_BENCH_NODES", 20000)
	edges := envInt("STRATA_BENCH_EDGES", 400000)
	res, err := synth.Generate(synth.Config{Preset: "amazon", Nodes: nodes, Edges: edges, Queries: 100, Seed: 5})
	if err != nil {
		b.Fatal(err)
	}
	dir := b.TempDir()
	skbDir := filepath.Join(dir, "skb")
	if err := data.WriteSKBDir(skbDir, res.SKB, data.WriteOptions{Plans: res.Plans}); err != nil {
		b.Fatal(err)
	}
	nEdges := res.SKB.Edges.Len()
	res = nil
	runtime.GC()
	debug.FreeOSMemory()
	b.ResetTimer()
	var buildS, loadS, perEntry, perEdge float64
	var snapMB float64
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		skb, err := data.ReadSKBDir(skbDir)
		if err != nil {
			b.Fatal(err)
		}
		plans, _, err := data.ReadPlans(filepath.Join(skbDir, data.PlansFile))
		if err != nil {
			b.Fatal(err)
		}
		ws, err := Build(context.Background(), skb, plans, Config{}, nil)
		if err != nil {
			b.Fatal(err)
		}
		buildS = time.Since(t0).Seconds()
		perEntry = float64(ws.Graph.AdjacencyBytes()) / float64(ws.Graph.NumEntries())
		perEdge = float64(ws.Graph.AdjacencyBytes()) / float64(2*nEdges)
		wsDir := filepath.Join(dir, "ws")
		if err := ws.Save(wsDir); err != nil {
			b.Fatal(err)
		}
		if st, err := os.Stat(Path(wsDir)); err == nil {
			snapMB = float64(st.Size()) / 1e6
		}
		ws.Close()
		ws, skb = nil, nil
		runtime.GC()
		debug.FreeOSMemory()

		t0 = time.Now()
		ws2, err := Load(wsDir)
		if err != nil {
			b.Fatal(err)
		}
		loadS = time.Since(t0).Seconds()
		ws2.Close()
		runtime.GC()
	}
	b.ReportMetric(float64(nodes), "nodes")
	b.ReportMetric(float64(nEdges), "edges")
	b.ReportMetric(buildS, "build-s")
	b.ReportMetric(loadS, "load-s")
	b.ReportMetric(buildS/loadS, "load-speedup")
	b.ReportMetric(perEntry, "adj-bytes/entry")
	b.ReportMetric(perEdge, "adj-bytes/directed-edge")
	b.ReportMetric(snapMB, "snapshot-MB")
}
