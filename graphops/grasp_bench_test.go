package graphops_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/data/synth"
	"github.com/strata-retrieval/strata/graphops"
	"github.com/strata-retrieval/strata/graphops/linking"
	"github.com/strata-retrieval/strata/graphops/plan"
)

// BenchmarkGraspExecution times GRASP plan execution per query on a
// generated mag graph (STRATA_BENCH_NODES nodes, default 20,000; the issue's
// figure is at 1M: make bench-grasp-pg) with the generator's plans, anchors
// bound to their named nodes (cosine 1). With STRATA_PG_DIR set it also
// writes the graph (nodes.csv, adj.csv with both directions of every edge)
// and the same plans as SQL (queries.sql) for scripts/grasp_pg_bench.sh,
// plus go.json with strata's per-query times and result counts.
func BenchmarkGraspExecution(b *testing.B) {
	nodes := 20000
	if v, err := strconv.Atoi(os.Getenv("STRATA_BENCH_NODES")); err == nil && v > 0 {
		nodes = v
	}
	res, err := synth.Generate(synth.Config{Preset: "mag", Nodes: nodes, Queries: 400, Seed: 9})
	if err != nil {
		b.Fatal(err)
	}
	skb := res.SKB
	g, err := graphops.Build(skb)
	if err != nil {
		b.Fatal(err)
	}
	defer g.Close()
	names := linking.NewNameIndex(skb)
	type job struct {
		plan    data.GraspPlan
		anchors map[string][]plan.Binding
	}
	var jobs []job
	for _, rec := range res.Plans {
		p := data.PlanToGrasp(rec.Plan, data.RiskNormal, g.Resolver())
		if p.RiskLevel == data.RiskNoTrade {
			continue
		}
		an := map[string][]plan.Binding{}
		ok := true
		for _, a := range p.Anchors {
			t, _ := skb.Schema.NodeTypeID(a.Label)
			ids := names.Lookup(t, a.Text)
			if len(ids) == 0 {
				ok = false
				break
			}
			for _, id := range ids {
				an[a.Var] = append(an[a.Var], plan.Binding{Node: id, Cos: 1})
			}
		}
		if ok {
			jobs = append(jobs, job{p, an})
		}
	}
	if len(jobs) == 0 {
		b.Fatal("no executable plan")
	}
	times := make([]float64, len(jobs))
	counts := make([]int, len(jobs))
	b.ResetTimer()
	for range b.N {
		for i, j := range jobs {
			t0 := time.Now()
			e, err := plan.CompileGrasp(&skb.Schema, &j.plan, j.anchors)
			if err != nil {
				b.Fatal(err)
			}
			set, err := plan.Exec(plan.Env{Graph: g}, e)
			out, _ := plan.GraspTargets(g, set, j.plan.Target.Labels)
			times[i] = float64(time.Since(t0).Nanoseconds()) / 1e6
			if err != nil {
				b.Fatal(err)
			}
			counts[i] = len(out)
		}
	}
	b.StopTimer()
	sorted := slices.Clone(times)
	sort.Float64s(sorted)
	b.ReportMetric(sorted[len(sorted)/2], "p50-ms")
	b.ReportMetric(sorted[len(sorted)*95/100], "p95-ms")
	dir := os.Getenv("STRATA_PG_DIR")
	if dir == "" {
		return
	}
	if err := writePG(dir, skb, g); err != nil {
		b.Fatal(err)
	}
	f, err := os.Create(filepath.Join(dir, "queries.sql"))
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriter(f)
	for _, j := range jobs {
		fmt.Fprintln(w, graspSQL(skb, &j.plan, j.anchors))
	}
	w.Flush()
	f.Close()
	js, _ := json.Marshal(map[string]any{"nodes": g.NumNodes(), "entries": g.NumEntries(), "ms": times, "counts": counts})
	if err := os.WriteFile(filepath.Join(dir, "go.json"), js, 0o644); err != nil {
		b.Fatal(err)
	}
}

func writePG(dir string, skb *data.SKB, g *graphops.Graph) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	nf, err := os.Create(filepath.Join(dir, "nodes.csv"))
	if err != nil {
		return err
	}
	nw := bufio.NewWriterSize(nf, 1<<20)
	for v := range skb.Nodes {
		fmt.Fprintf(nw, "%d,%d\n", v, skb.Nodes[v].Type)
	}
	nw.Flush()
	nf.Close()
	ef, err := os.Create(filepath.Join(dir, "adj.csv"))
	if err != nil {
		return err
	}
	ew := bufio.NewWriterSize(ef, 1<<20)
	for v := range uint32(g.NumNodes()) {
		nb, rel := g.Neighbors(v)
		for i, u := range nb {
			fmt.Fprintf(ew, "%d,%d,%d\n", v, rel.At(i), u)
		}
	}
	ew.Flush()
	return ef.Close()
}

// graspSQL is the plan as one SQL query over nodes(id, type) and the
// undirected adjacency adj(src, rel, dst): a CTE per step keeping each
// node's best anchor-score sum, joined where paths meet; it returns the
// target's count and score sum.
func graspSQL(skb *data.SKB, p *data.GraspPlan, anchors map[string][]plan.Binding) string {
	var ctes []string
	cur := map[string]string{} // variable -> the CTE holding it
	for _, a := range p.Anchors {
		var vals []string
		for _, b := range anchors[a.Var] {
			vals = append(vals, fmt.Sprintf("(%d, %g::float8)", b.Node, b.Cos))
		}
		ctes = append(ctes, fmt.Sprintf("%s(node, score) AS (VALUES %s)", a.Var, strings.Join(vals, ", ")))
		cur[a.Var] = a.Var
	}
	for n, h := range p.Hops {
		r, _ := skb.Schema.RelationID(h.Rel)
		t, _ := skb.Schema.NodeTypeID(h.ToLabel)
		step := fmt.Sprintf("s%d", n+1)
		ctes = append(ctes, fmt.Sprintf("%s(node, score) AS (SELECT e.dst, max(f.score) FROM %s f JOIN adj e ON e.src = f.node AND e.rel = %d JOIN nodes x ON x.id = e.dst AND x.type = %d GROUP BY e.dst)",
			step, cur[h.From], r, t))
		if prev, ok := cur[h.ToVar]; ok {
			// Paths meet: keep the nodes both reach, scores summed.
			meet := fmt.Sprintf("m%d", n+1)
			ctes = append(ctes, fmt.Sprintf("%s(node, score) AS (SELECT a.node, a.score + b.score FROM %s a JOIN %s b ON a.node = b.node)", meet, prev, step))
			cur[h.ToVar] = meet
		} else {
			cur[h.ToVar] = step
		}
	}
	return fmt.Sprintf("WITH %s SELECT count(*), coalesce(sum(score), 0) FROM %s;", strings.Join(ctes, ",\n  "), cur[p.Target.Var])
}
