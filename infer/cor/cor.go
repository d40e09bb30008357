package cor

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/data/index"
	"github.com/strata-retrieval/strata/gating"
	"github.com/strata-retrieval/strata/graphops/linking"
	"github.com/strata-retrieval/strata/graphops/workspace"
	"github.com/strata-retrieval/strata/infer"
	"github.com/strata-retrieval/strata/infer/registry"
)

// Method ranks every candidate (all nodes of the candidate types except
// the query's topic entities) with a CoR model. Rerank, when set, is
// CoRAG's external reranker: its s′ is added to the ŝ of CoR's top K
// (ŝ* = ŝ + s′), and the method is named corag.
type Method struct {
	Model  *gating.CoR
	Dense  *infer.DenseChannel
	Ret    *gating.Retrievers
	Rerank *Rerank
}

// NewMethod binds a CoR model to a workspace's graph and dense channel.
func New(ws *workspace.Workspace, d *infer.DenseChannel, m *gating.CoR) (*Method, error) {
	if d.Docs.Dim != m.Cfg.QueryDim {
		return nil, fmt.Errorf("the CoR model expects %d-dimensional query vectors, the dense channel has %d", m.Cfg.QueryDim, d.Docs.Dim)
	}
	ret, err := gating.NewRetrievers(ws.Graph, ws.Linker(), d.Docs, ws.Candidates, m.Cfg)
	if err != nil {
		return nil, err
	}
	return &Method{Model: m, Dense: d, Ret: ret}, nil
}

func (m *Method) Name() string {
	if m.Rerank != nil {
		return "corag"
	}
	return "cor"
}

func (m *Method) Rank(ctx context.Context, q data.Query) ([]index.Hit, error) {
	v, err := m.Dense.QueryVector(q)
	if err != nil {
		return nil, err
	}
	cands, _ := m.Ret.Inputs(v, q.Text, 0, nil)
	scores, _ := m.Model.Score(v, cands, false)
	if m.Rerank != nil {
		if err := m.Rerank.apply(ctx, q, cands.IDs, scores); err != nil {
			return nil, err
		}
	}
	return hitsOf(cands.IDs, scores), nil
}

// Explanation describes how CoR scored a query.
type Explanation struct {
	Topics     []linking.Mention
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

// Explain implements infer.Explainer: the query's topic entities, the gate
// weights and its top k with each retriever's contribution.
func (m *Method) Explain(ctx context.Context, q data.Query, k int) (infer.Explanation, error) {
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
	for _, h := range infer.Top(scores, cands.IDs, k) {
		i := h.Index
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

// WriteText implements infer.Explanation.
func (e *Explanation) WriteText(out io.Writer, ws *workspace.Workspace) error {
	w := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "topic entities:")
	if len(e.Topics) == 0 {
		fmt.Fprintln(w, "  (none found)")
	}
	for _, t := range e.Topics {
		var names []string
		for _, n := range t.Nodes {
			names = append(names, fmt.Sprintf("%d:%s", n, ws.SKB.Schema.NodeTypes[ws.SKB.Nodes[n].Type]))
		}
		fmt.Fprintf(w, "  %q\t%s\n", t.Text, strings.Join(names, " "))
	}
	fmt.Fprintf(w, "\nhybrid gate:\ttextual %.3f\trelational %.3f\n", e.Hybrid[0], e.Hybrid[1])
	writeWeights(w, "textual gate (node type)", e.Textual)
	writeWeights(w, "relational gate (relation)", e.Relational)
	fmt.Fprintln(w, "\nrank\tnode\tscore\tcos\ttextual\trelational\tname")
	for i, h := range e.Top {
		var rel []string
		for r, v := range h.Relational {
			rel = append(rel, fmt.Sprintf("%s=%.3f", r, v))
		}
		sort.Strings(rel)
		fmt.Fprintf(w, "%d\t%d\t%.4f\t%.3f\t%.4f\t%s\t%s\n", i+1, h.Node, h.Score, h.Cos, h.Textual, strings.Join(rel, ","), ws.SKB.Nodes[h.Node].Name)
	}
	return w.Flush()
}

func writeWeights(w io.Writer, title string, m map[string]float32) {
	if len(m) == 0 {
		return
	}
	fmt.Fprintf(w, "\n%s:\n", title)
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return m[keys[i]] > m[keys[j]] })
	for _, k := range keys {
		fmt.Fprintf(w, "  %s\t%.3f\n", k, m[k])
	}
}

// Kind is the checkpoint kind of a CoR model.
const Kind = infer.KindCoR

var (
	_ infer.Method    = (*Method)(nil)
	_ infer.Explainer = (*Method)(nil)
)

func init() {
	registry.Register(Kind, func(env *infer.Env, ck *registry.Checkpoint) (infer.Method, error) {
		var cfg gating.Config
		if err := ck.DecodeConfig("CoR", &cfg); err != nil {
			return nil, err
		}
		if err := ck.CheckShapes(gating.Shapes(cfg)); err != nil {
			return nil, err
		}
		model, err := gating.New(cfg, rand.New(rand.NewPCG(0, 0)))
		if err != nil {
			return nil, err
		}
		if err := ck.LoadParams(model.Params()); err != nil {
			return nil, err
		}
		d, err := env.Dense()
		if err != nil {
			return nil, err
		}
		if err := ck.CheckDense(env, d, cfg.Dense); err != nil {
			return nil, err
		}
		return New(env.WS, d, model)
	})
}
