package train

import (
	"fmt"
	"io"
	"path/filepath"

	"github.com/strata-retrieval/strata/checkpoints"
	"github.com/strata-retrieval/strata/eval"
	"github.com/strata-retrieval/strata/infer"
	"github.com/strata-retrieval/strata/infer/registry"
)

// Curves returns the curve points of every checkpoint of a run on splits:
// the metrics its manifests record, evaluating (through the registry) and
// recording the missing ones. LLM reranker checkpoints (adapters) give
// their recorded val group accuracy as Hit@1 of the split "val-groups". It
// also returns the run's model kind.
func Curves(env *infer.Env, run string, splits []string, log io.Writer) ([]eval.CurvePoint, string, error) {
	es, err := checkpoints.List(run)
	if err != nil {
		return nil, "", err
	}
	if len(es) == 0 {
		return nil, "", fmt.Errorf("%s has no checkpoints", run)
	}
	var pts []eval.CurvePoint
	for _, e := range es {
		metrics := e.Manifest.Metrics
		if e.Manifest.Kind == infer.KindLLMReranker {
			pts = append(pts, eval.CurvePoint{Step: e.Manifest.Step, Checkpoint: e.Name, Split: "val-groups", Best: e.Best,
				Hit1: metrics["val/group_acc"]})
			continue
		}
		if metrics, err = completeMetrics(env, filepath.Join(run, e.Name), metrics, splits, log); err != nil {
			return nil, "", err
		}
		for _, split := range splits {
			pts = append(pts, eval.CurvePoint{Step: e.Manifest.Step, Checkpoint: e.Name, Split: split, Best: e.Best,
				Hit1: metrics[split+"/hit@1"], Hit5: metrics[split+"/hit@5"], Recall20: metrics[split+"/recall@20"], MRR: metrics[split+"/mrr"]})
		}
	}
	return pts, es[0].Manifest.Kind, nil
}

// completeMetrics evaluates a checkpoint on the splits its manifest has no
// metrics for and records them in the manifest.
func completeMetrics(env *infer.Env, dir string, metrics map[string]float64, splits []string, log io.Writer) (map[string]float64, error) {
	var missing []string
	for _, split := range splits {
		if _, ok := metrics[split+"/mrr"]; !ok {
			missing = append(missing, split)
		}
	}
	if len(missing) == 0 {
		return metrics, nil
	}
	logf(log, "evaluating %s on %v\n", filepath.Base(dir), missing)
	m, err := registry.Load(env, dir)
	if err != nil {
		return nil, err
	}
	add := map[string]float64{}
	for _, split := range missing {
		sm, err := SplitMetrics(env.Ctx, env.WS, m, split)
		if err != nil {
			return nil, err
		}
		for k, v := range sm {
			add[k] = v
		}
	}
	if err := checkpoints.SetMetrics(dir, add); err != nil {
		return nil, err
	}
	if metrics == nil {
		metrics = map[string]float64{}
	}
	for k, v := range add {
		metrics[k] = v
	}
	return metrics, nil
}
