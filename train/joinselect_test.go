package train

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
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
// the first with the highest of it; reloaded, the run scores
// val/mrr-proposed with both off and val/mrr with both on (on this preset
// they move no validation question; TestProposedEval has two that
// differ). Without them (--no-join-singles --no-slots-past-ruled) no
// checkpoint records it.
func TestJoinSinglesSelection(t *testing.T) {
	ws, dir, recs, _ := minedBenchmark(t, synth.Config{Preset: "mag", Nodes: 800, Queries: 240, Seed: 5})
	mined := minedByQID(recs)
	for _, join := range []bool{true, false} {
		run := filepath.Join(dir, "runs", map[bool]string{true: "joined", false: "unjoined"}[join])
		_, res, _, err := LinkingPlanner(context.Background(), ws, nil, LinkingPlannerOptions{Mined: mined, NoFit: true, NoJoinSingles: !join, NoSlotsPastRuled: !join,
			Train: Config{Epochs: 3, BatchSize: 32, LR: 3e-3, Seed: 4}, Run: Options{RunDir: run, Fingerprint: ws.Fingerprint}})
		if err != nil {
			t.Fatal(err)
		}
		f, err := os.Open(filepath.Join(run, "metrics.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		best, bestV, n := "", -1.0, 0
		var bestM map[string]float64
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
			n++
			if v > bestV {
				best, bestV, bestM = line.Checkpoint, v, line.Metrics
			}
		}
		f.Close()
		if n == 0 || res.Best != best || res.BestValue != bestV {
			t.Fatalf("join %v: best %s (%v) of %d checkpoints, want %s (%v)", join, res.Best, res.BestValue, n, best, bestV)
		}
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
