package train

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/strata-retrieval/strata/checkpoints"
	"github.com/strata-retrieval/strata/eval"
	"github.com/strata-retrieval/strata/infer"
	"github.com/strata-retrieval/strata/infer/pipeline"
	"github.com/strata-retrieval/strata/infer/serve"
)

// PlannerStage is the pipeline stage of a planner's run: its plans
// executed (plan-exec), the row its checkpoints are selected by.
func PlannerStage() pipeline.Stage {
	return pipeline.Stage{Method: "plan-exec", Planner: checkpoints.BestLink}
}

// Served is the row a run's pipeline serves, evaluated as strata score,
// serve and bundle load it: from RUNDIR/pipeline.json on disk.
type Served struct {
	Pipeline string       // RUNDIR/pipeline.json
	Row      string       // its stages, as eval names them (planner+plan-exec, cor, ...)
	Summary  eval.Summary // on the split the run was validated on
	// Checked lists the metrics the best checkpoint recorded for that
	// split (what training selected it by), each equal to the served
	// row's.
	Checked []string
}

// WriteServed writes RUNDIR/pipeline.json serving stage (paths relative
// to RUNDIR), loads it back from disk and evaluates it on split; the
// best checkpoint's own metrics of that split, where its manifest has
// them, must be the same numbers: a run that would serve other numbers
// than it was validated with is an error.
func WriteServed(env *infer.Env, runDir, name string, stage pipeline.Stage, split string) (*Served, error) {
	if err := pipeline.WriteRun(runDir, name, stage); err != nil {
		return nil, err
	}
	r, cleanup, err := serve.Open(env, runDir)
	defer cleanup()
	if err != nil {
		return nil, err
	}
	s, err := SplitSummary(env.Ctx, env.WS, r, split)
	if err != nil {
		return nil, err
	}
	out := &Served{Pipeline: r.P.File(), Row: strings.Join(r.StageNames(), "+"), Summary: s}
	_, m, err := checkpoints.ReadRunManifest(runDir)
	if err != nil {
		return nil, err
	}
	for _, k := range []struct {
		name string
		v    float64
	}{{"hit@1", s.Hit1}, {"hit@5", s.Hit5}, {"recall@20", s.Recall20}, {"mrr", s.MRR}} {
		rec, ok := m.Metrics[split+"/"+k.name]
		if !ok {
			continue
		}
		if rec != k.v { // never leave a pipeline that serves other numbers
			os.Remove(filepath.Join(runDir, pipeline.PipelineFile))
			return nil, fmt.Errorf("%s serves other numbers than it was validated with: %s/%s: the best checkpoint recorded %v, the served pipeline scores %v",
				out.Pipeline, split, k.name, rec, k.v)
		}
		out.Checked = append(out.Checked, split+"/"+k.name)
	}
	return out, nil
}
