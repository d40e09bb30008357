package train

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/data/synth"
	"github.com/strata-retrieval/strata/infer"
	"github.com/strata-retrieval/strata/infer/planner"
	"github.com/strata-retrieval/strata/infer/registry"
)

// TestJoinSinglesSelection: with JoinSingles and SlotsPastRuled (the
// defaults) every checkpoint records val/mrr-proposed, the validation MRR
// of the planner without its joins and slots, and the best checkpoint is
// the earliest within one validation question's share of the highest of
// it (with ExactBest, here without the joins, the first with the
// highest); reloaded, the run scores
// val/mrr-proposed with both off and val/mrr with both on (on this preset
// they move no validation question; TestProposedEval has two that
// differ). Without them (--no-join-singles --no-slots-past-ruled) no
// checkpoint records it.
func TestJoinSinglesSelection(t *testing.T) {
	ws, dir, recs, _ := minedBenchmark(t, synth.Config{Preset: "mag", Nodes: 800, Queries: 240, Seed: 5})
	mined := minedByQID(recs)
	vqs, err := ws.SKB.QA.Split(data.SplitVal)
	if err != nil || len(vqs) == 0 {
		t.Fatalf("%d validation questions: %v", len(vqs), err)
	}
	for _, join := range []bool{true, false} {
		run := filepath.Join(dir, "runs", map[bool]string{true: "joined", false: "unjoined"}[join])
		_, res, _, err := LinkingPlanner(context.Background(), ws, nil, LinkingPlannerOptions{Mined: mined, NoFit: true, NoJoinSingles: !join, NoSlotsPastRuled: !join, ExactBest: !join,
			Train: Config{Epochs: 3, BatchSize: 32, LR: 3e-3, Seed: 4}, Run: Options{RunDir: run, Fingerprint: ws.Fingerprint}})
		if err != nil {
			t.Fatal(err)
		}
		f, err := os.Open(filepath.Join(run, "metrics.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		var vals []float64
		var ms []map[string]float64
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			var line struct {
				Checkpoint string             `json:"checkpoint"`
				Metrics    map[string]float64 `json:"metrics"`
			}
			if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
				t.Fatal(err)
			}
			v, ok := line.Metrics["val/mrr-proposed"]
			if ok != join {
				t.Fatalf("join %v: %s records val/mrr-proposed: %v", join, line.Checkpoint, ok)
			}
			if !join {
				v = line.Metrics["val/mrr"]
			}
			names, vals, ms = append(names, line.Checkpoint), append(vals, v), append(ms, line.Metrics)
		}
		f.Close()
		if len(vals) == 0 {
			t.Fatalf("join %v: no checkpoint", join)
		}
		top := slices.Max(vals)
		tol := map[bool]float64{true: 1 / float64(len(vqs)), false: 0}[join]
		bi := slices.IndexFunc(vals, func(v float64) bool { return v >= top-tol })
		best, bestV, bestM := names[bi], vals[bi], ms[bi]
		if res.Best != best || res.BestValue != bestV {
			t.Fatalf("join %v: best %s (%v) of %v, want %s (%v)", join, res.Best, res.BestValue, vals, best, bestV)
		}
		t.Logf("join %v: validation %v, best %s", join, vals, best)
		if !join {
			continue
		}
		m, err := registry.Load(infer.NewEnv(context.Background(), ws), run)
		if err != nil {
			t.Fatal(err)
		}
		p := m.(*planner.PlannedMethod).P.(*planner.LinkingPlanner)
		for _, on := range []bool{true, false} {
			p.Cfg.Anchors.JoinSingles, p.Cfg.Anchors.SlotsPastRuled = on, on
			got, err := SplitMetrics(context.Background(), ws, m, data.SplitVal)
			if err != nil {
				t.Fatal(err)
			}
			want := bestM[map[bool]string{true: "val/mrr", false: "val/mrr-proposed"}[on]]
			if got["val/mrr"] != want {
				t.Errorf("joins %v: reloaded val MRR %v, recorded %v", on, got["val/mrr"], want)
			}
		}
	}
}

// TestProposedEval: the wrapped evaluation records the served metrics
// (joins, slots past ruled-out mentions, or both, on) and, as
// val/mrr-proposed, the MRR with both off, and leaves them as they were.
func TestProposedEval(t *testing.T) {
	for _, a := range []planner.AnchorConfig{{JoinSingles: true}, {SlotsPastRuled: true}, {JoinSingles: true, SlotsPastRuled: true}} {
		p := &planner.LinkingPlanner{Classifier: &planner.Classifier{Cfg: planner.Config{Anchors: &a}}}
		metric, eval := proposedEval(p, "val", func(context.Context) (map[string]float64, error) {
			if p.Cfg.Anchors.JoinSingles || p.Cfg.Anchors.SlotsPastRuled {
				return map[string]float64{"val/mrr": 0.9, "val/hit@1": 0.8}, nil
			}
			return map[string]float64{"val/mrr": 0.7, "val/hit@1": 0.6}, nil
		})
		join, past := a.JoinSingles, a.SlotsPastRuled
		m, err := eval(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if metric != "val/mrr-proposed" || m["val/mrr"] != 0.9 || m["val/hit@1"] != 0.8 || m[metric] != 0.7 || len(m) != 3 || a.JoinSingles != join || a.SlotsPastRuled != past {
			t.Errorf("joins %v, slots past ruled %v: metric %q, metrics %v, after: joins %v, slots %v", join, past, metric, m, a.JoinSingles, a.SlotsPastRuled)
		}
	}
}
