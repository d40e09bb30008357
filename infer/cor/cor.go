package infer

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"

	"github.com/strata-retrieval/strata/checkpoints"
	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/data/index"
	"github.com/strata-retrieval/strata/gating"
	"github.com/strata-retrieval/strata/graphops"
	"github.com/strata-retrieval/strata/graphops/workspace"
	"github.com/strata-retrieval/strata/models"
)

// CoRMethod ranks every candidate (all nodes of the candidate types except
// the query's topic entities) with a CoR model. External, when set, adds an
// outside reranker's score s′ to CoR's: ŝ* = ŝ + s′ (binary or probability).
type CoRMethod struct {
	Model    *gating.CoR
	Dense    *DenseChannel
	Ret      *gating.Retrievers
	External func(ctx context.Context, q data.Query) (map[uint32]float32, error)
}

// NewCoRMethod binds a CoR model to a workspace's graph and dense channel.
func NewCoRMethod(ws *workspace.Workspace, d *DenseChannel, m *gating.CoR) (*CoRMethod, error) {
	if d.Docs.Dim != m.Cfg.QueryDim {
		return nil, fmt.Errorf("the CoR model expects %d-dimensional query vectors, the dense channel has %d", m.Cfg.QueryDim, d.Docs.Dim)
	}
	ret, err := gating.NewRetrievers(ws.Graph, ws.Linker(), d.Docs, ws.Candidates, m.Cfg)
	if err != nil {
		return nil, err
	}
	return &CoRMethod{Model: m, Dense: d, Ret: ret}, nil
}

func (m *CoRMethod) Name() string { return "cor" }

func (m *CoRMethod) Rank(ctx context.Context, q data.Query) ([]index.Hit, error) {
	v, err := m.Dense.QueryVector(q)
	if err != nil {
		return nil, err
	}
	cands, _ := m.Ret.Inputs(v, q.Text, 0, nil)
	scores, _ := m.Model.Score(v, cands, false)
	var ext map[uint32]float32
	if m.External != nil {
		if ext, err = m.External(ctx, q); err != nil {
			return nil, err
		}
	}
	out := make([]index.Hit, len(scores))
	for i, s := range scores {
		out[i] = index.Hit{ID: cands.IDs[i], Score: s + ext[cands.IDs[i]]}
	}
	return out, nil
}

// Explanation describes how CoR scored a query.
type Explanation struct {
	Topics     []graphops.Mention
	Textual    map[string]float32 // gate weight per node type
	Relational map[string]float32 // gate weight per relation
	Hybrid     [2]float32         // weight of the textual and relational groups
	Top        []ExplainedHit
}

// ExplainedHit is a ranked candidate with each retriever's contribution.
type ExplainedHit struct {
	Node       uint32
	Score      float32
	Cos        float32
	Textual    float32
	Relational map[string]float32
}

// Explain scores a query and returns its top k with contributions.
func (m *CoRMethod) Explain(q data.Query, k int) (*Explanation, error) {
	v, err := m.Dense.QueryVector(q)
	if err != nil {
		return nil, err
	}
	cands, _ := m.Ret.Inputs(v, q.Text, 0, nil)
	scores, contrib := m.Model.Score(v, cands, true)
	gt, gr, h := m.Model.Gates(v)
	e := &Explanation{Topics: m.Ret.Linker.Link(q.Text), Textual: map[string]float32{}, Relational: map[string]float32{}, Hybrid: [2]float32{h[0], h[1]}}
	for i, t := range m.Model.Cfg.Types {
		if gt != nil {
			e.Textual[t] = gt[i]
		}
	}
	for i, r := range m.Model.Cfg.Relations {
		if gr != nil {
			e.Relational[r] = gr[i]
		}
	}
	top := topHits(scores, cands.IDs, k)
	for _, h := range top {
		i := h.index
		eh := ExplainedHit{Node: cands.IDs[i], Score: scores[i], Cos: cands.Cos[i], Textual: contrib[i].Textual, Relational: map[string]float32{}}
		for ri, v := range contrib[i].Relational {
			if v != 0 {
				eh.Relational[m.Model.Cfg.Relations[ri]] = v
			}
		}
		e.Top = append(e.Top, eh)
	}
	return e, nil
}

type indexedHit struct {
	index int
	hit   index.Hit
}

// topHits returns the k best (score, id) pairs with their positions.
func topHits(scores []float32, ids []uint32, k int) []indexedHit {
	tk := index.NewTopK(k)
	pos := map[uint32]int{}
	for i, s := range scores {
		tk.Push(index.Hit{ID: ids[i], Score: s})
		pos[ids[i]] = i
	}
	var out []indexedHit
	for _, h := range tk.Sorted(nil) {
		out = append(out, indexedHit{pos[h.ID], h})
	}
	return out
}

// ModelConfig is the config a training run records in its manifests.
type ModelConfig struct {
	Model json.RawMessage `json:"model"`
	Train json.RawMessage `json:"train"`
}

// LoadModel loads a trained model checkpoint (a checkpoint directory or a
// run directory, whose best checkpoint is used) as a method over ws.
func LoadModel(ws *workspace.Workspace, dir string) (Method, error) {
	return LoadModelOpts(ws, dir, false)
}

// LoadModelOpts is LoadModel; ignoreFingerprint accepts a checkpoint trained
// on other data.
func LoadModelOpts(ws *workspace.Workspace, dir string, ignoreFingerprint bool) (Method, error) {
	if _, err := os.Stat(filepath.Join(dir, RerankerSpecFile)); err == nil {
		return LoadLLMReranker(ws, dir, ignoreFingerprint)
	}
	if m, err := checkpoints.ReadManifest(dir); err != nil {
		if _, err2 := checkpoints.ReadManifest(filepath.Join(dir, checkpoints.BestLink)); err2 == nil {
			dir = filepath.Join(dir, checkpoints.BestLink)
		} else {
			return nil, err
		}
	} else if m.Kind == "" {
		return nil, fmt.Errorf("%s: checkpoint without a kind", dir)
	}
	ck, err := checkpoints.Load(dir)
	if err != nil {
		return nil, err
	}
	if ck.Manifest.DataFingerprint != ws.Fingerprint && !ignoreFingerprint {
		return nil, fmt.Errorf("%s was trained on data %s, the workspace is %s", dir, ck.Manifest.DataFingerprint, ws.Fingerprint)
	}
	var mc ModelConfig
	if err := json.Unmarshal(ck.Manifest.Config, &mc); err != nil {
		return nil, fmt.Errorf("%s: manifest config: %w", dir, err)
	}
	get := func(name string) ([]int, []float32, bool) {
		for _, t := range ck.Model {
			if t.Name == name {
				return t.Shape, t.Data, true
			}
		}
		return nil, nil, false
	}
	switch ck.Manifest.Kind {
	case "cor":
		var cfg gating.Config
		if err := json.Unmarshal(mc.Model, &cfg); err != nil {
			return nil, fmt.Errorf("%s: CoR config: %w", dir, err)
		}
		model, err := gating.New(cfg, rand.New(rand.NewPCG(0, 0)))
		if err != nil {
			return nil, err
		}
		if err := models.LoadParams(model.Params(), get); err != nil {
			return nil, fmt.Errorf("%s: %w", dir, err)
		}
		d, err := LoadDense(ws)
		if err != nil {
			return nil, err
		}
		if cfg.Dense != "" && d.Meta.Hash != cfg.Dense && !ignoreFingerprint {
			return nil, fmt.Errorf("%s was trained with other dense vectors (%s; the workspace's are %s): retrain it, or restore the encoder it was trained with", dir, cfg.Dense, d.Meta.Hash)
		}
		return NewCoRMethod(ws, d, model)
	case "mor":
		var cfg MoRConfig
		if err := json.Unmarshal(mc.Model, &cfg); err != nil {
			return nil, fmt.Errorf("%s: MoR config: %w", dir, err)
		}
		m, err := models.NewTrajectoryReranker(cfg.Reranker, nil)
		if err != nil {
			return nil, err
		}
		if err := models.LoadParams(m.Params(), get); err != nil {
			return nil, fmt.Errorf("%s: %w", dir, err)
		}
		d, err := LoadDense(ws)
		if errors.Is(err, ErrNoDense) {
			d, err = nil, nil
		}
		if err != nil {
			return nil, err
		}
		method := &MoRMethod{F: NewMoRFeatures(ws, d, cfg.Traversal, cfg.LastNodeOnly), Model: m}
		if cfg.Planner != "" {
			pm, err := LoadModelOpts(ws, cfg.Planner, ignoreFingerprint)
			if err != nil {
				return nil, fmt.Errorf("%s: its planner: %w", dir, err)
			}
			pt, ok := pm.(*PlannedTraversal)
			if !ok {
				return nil, fmt.Errorf("%s: %s is not a planner", dir, cfg.Planner)
			}
			method.Planner = pt.Planner
		}
		return method, nil
	case "planner", "kgqa":
		var cfg PlannerConfig
		var kc KGQAConfig
		if ck.Manifest.Kind == "kgqa" {
			if err := json.Unmarshal(mc.Model, &kc); err != nil {
				return nil, fmt.Errorf("%s: KGQA config: %w", dir, err)
			}
			cfg = kc.Planner
		} else if err := json.Unmarshal(mc.Model, &cfg); err != nil {
			return nil, fmt.Errorf("%s: planner config: %w", dir, err)
		}
		gate, err := models.NewGate(cfg.Gate, "planner", rand.New(rand.NewPCG(0, 0)))
		if err != nil {
			return nil, err
		}
		if err := models.LoadParams(gate.Params(), get); err != nil {
			return nil, fmt.Errorf("%s: %w", dir, err)
		}
		var d *DenseChannel
		if cfg.QueryDim > 0 || ck.Manifest.Kind == "kgqa" {
			if d, err = LoadDense(ws); err != nil {
				return nil, err
			}
			if cfg.Dense != "" && d.Meta.Hash != cfg.Dense && !ignoreFingerprint {
				return nil, fmt.Errorf("%s was trained with other dense vectors: retrain it", dir)
			}
		}
		p := NewPlanner(ws, d, cfg, gate)
		if cfg.Anchors != nil {
			anchor, err := models.NewSparseLinear(cfg.Anchors.Dim, "planner.anchor")
			if err != nil {
				return nil, fmt.Errorf("%s: %w", dir, err)
			}
			if err := models.LoadParams(anchor.Params(), get); err != nil {
				return nil, fmt.Errorf("%s: %w", dir, err)
			}
			var ranker *models.SparseLinear
			if cfg.Anchors.RankDim > 0 {
				if ranker, err = models.NewSparseLinear(cfg.Anchors.RankDim, "planner.ranker"); err != nil {
					return nil, fmt.Errorf("%s: %w", dir, err)
				}
				if err := models.LoadParams(ranker.Params(), get); err != nil {
					return nil, fmt.Errorf("%s: %w", dir, err)
				}
			}
			if p, err = NewLinkingPlanner(ws, d, cfg, gate, anchor, ranker); err != nil {
				return nil, fmt.Errorf("%s: %w", dir, err)
			}
		}
		if ck.Manifest.Kind == "kgqa" {
			s, err := NewSimGRAG(ws, d, kc.SimGRAG)
			if err != nil {
				return nil, err
			}
			return (&KGQA{Planner: p, S: s}).Method(), nil
		}
		return &PlannedTraversal{Planner: p, T: &TraversalMethod{ws: ws, tm: NewWorkspaceMatcher(ws)}}, nil
	case "mfar":
		var cfg MFARConfig
		if err := json.Unmarshal(mc.Model, &cfg); err != nil {
			return nil, fmt.Errorf("%s: mFAR config: %w", dir, err)
		}
		fw, err := models.NewFieldWeights(cfg.Weights)
		if err != nil {
			return nil, err
		}
		if err := models.LoadParams(fw.Params(), get); err != nil {
			return nil, fmt.Errorf("%s: %w", dir, err)
		}
		var enc TextEncoder
		if cfg.ONNXEncoder != "" {
			if enc, err = LoadONNXEncoder(cfg.ONNXEncoder, ONNXEncoderConfig{}); err != nil {
				return nil, fmt.Errorf("%s: its ONNX encoder: %w", dir, err)
			}
		} else {
			d, err := LoadDense(ws)
			if err != nil {
				return nil, err
			}
			if cfg.Dense != "" && d.Meta.Hash != cfg.Dense && !ignoreFingerprint {
				return nil, fmt.Errorf("%s was trained with other dense vectors: retrain it", dir)
			}
			if enc, err = DenseTextEncoder(d); err != nil {
				return nil, err
			}
		}
		return NewMFAR(context.Background(), ws, enc, cfg, fw)
	case "grasp":
		return loadGrasp(ws, dir, mc.Model, ignoreFingerprint)
	case "encoder":
		var cfg models.EncoderConfig
		if err := json.Unmarshal(mc.Model, &cfg); err != nil {
			return nil, fmt.Errorf("%s: encoder config: %w", dir, err)
		}
		enc, err := models.NewEncoder(cfg, nil)
		if err != nil {
			return nil, err
		}
		if err := models.LoadParams(enc.Params(), get); err != nil {
			return nil, fmt.Errorf("%s: %w", dir, err)
		}
		docs, err := EncodeNodes(context.Background(), ws.SKB, enc)
		if err != nil {
			return nil, err
		}
		return NewDenseMethod(ws, &DenseChannel{Docs: docs, Encoder: enc}), nil
	}
	return nil, fmt.Errorf("%s: no method serves checkpoints of kind %q", dir, ck.Manifest.Kind)
}
