package infer

import (
	"context"
	"encoding/json"
	"hash/fnv"
	"math"
	"slices"
	"strings"
	"unicode"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/data/index"
	"github.com/strata-retrieval/strata/graphops"
	"github.com/strata-retrieval/strata/graphops/workspace"
	"github.com/strata-retrieval/strata/models"
)

// PlannerLexBuckets is the size of the planner's hashed bag of words.
const PlannerLexBuckets = 1024

// PlannerConfig describes a trained planner: its metapath templates (the
// classes) and its input layout.
type PlannerConfig struct {
	Templates [][][]string      `json:"templates"`
	QueryDim  int               `json:"query_dim"`
	NodeTypes []string          `json:"node_types"`
	Gate      models.GateConfig `json:"gate"`
	Dense     string            `json:"dense,omitempty"`
}

// Planner predicts a query's plan without an LLM: a classifier over the
// metapath templates seen in training (input: the dense query vector, the
// node types of the entities the query names, a hashed bag of words), and
// restrictions from entity linking: each path's anchor is a mention linked
// to a node of the path's first type; the rest of the query is the target's
// textual restriction.
type Planner struct {
	Cfg    PlannerConfig
	Gate   *models.Gate
	Dense  *DenseChannel
	Linker *graphops.Linker
	skb    *data.SKB
}

// TemplateKey is the canonical text of a metapath (the class label).
func TemplateKey(paths [][]string) string {
	b, _ := json.Marshal(paths)
	return string(b)
}

// NewPlanner binds a planner to a workspace.
func NewPlanner(ws *workspace.Workspace, d *DenseChannel, cfg PlannerConfig, gate *models.Gate) *Planner {
	return &Planner{Cfg: cfg, Gate: gate, Dense: d, Linker: ws.Linker(), skb: ws.SKB}
}

// InputDim is the classifier's input size.
func (c PlannerConfig) InputDim() int { return c.QueryDim + len(c.NodeTypes) + PlannerLexBuckets }

// Features computes the classifier input of a query.
func (p *Planner) Features(q data.Query) ([]float32, []graphops.Mention, error) {
	x := make([]float32, p.Cfg.InputDim())
	if p.Cfg.QueryDim > 0 {
		v, err := p.Dense.QueryVector(q)
		if err != nil {
			return nil, nil, err
		}
		copy(x, v)
	}
	ments := p.Linker.Link(q.Text)
	for _, m := range ments {
		for _, n := range m.Nodes {
			x[p.Cfg.QueryDim+int(p.skb.Nodes[n].Type)] = 1
		}
	}
	words := strings.FieldsFunc(strings.ToLower(q.Text), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsNumber(r) })
	lex := x[p.Cfg.QueryDim+len(p.Cfg.NodeTypes):]
	h := fnv.New32a()
	for _, w := range words {
		h.Reset()
		h.Write([]byte(w))
		lex[h.Sum32()%PlannerLexBuckets]++
	}
	var s float64
	for _, v := range lex {
		s += float64(v) * float64(v)
	}
	if s > 0 {
		inv := float32(1 / math.Sqrt(s))
		for i := range lex {
			lex[i] *= inv
		}
	}
	return x, ments, nil
}

// Predict returns the query's plan and the probability of its template.
func (p *Planner) Predict(q data.Query) (data.Plan, float32, error) {
	x, ments, err := p.Features(q)
	if err != nil {
		return data.Plan{}, 0, err
	}
	probs := p.Gate.Forward(x, 1)
	best := 0
	for i, v := range probs {
		if v > probs[best] {
			best = i
		}
	}
	return p.Fill(p.Cfg.Templates[best], q.Text, ments), probs[best], nil
}

// Fill completes a template with restrictions from the query's mentions:
// every path's anchor type takes the first unused mention linked to a node
// of that type (the node's name), and the target type gets the query text
// without the mentions.
func (p *Planner) Fill(tmpl [][]string, text string, ments []graphops.Mention) data.Plan {
	plan := data.Plan{Metapath: tmpl, Restriction: map[string][]string{}}
	used := make([]bool, len(ments))
	for _, path := range tmpl {
		if len(path) < 2 {
			continue
		}
		t, ok := p.skb.Schema.NodeTypeID(path[0])
		if !ok {
			continue
		}
		for mi, m := range ments {
			if used[mi] {
				continue
			}
			if i := slices.IndexFunc(m.Nodes, func(n uint32) bool { return p.skb.Nodes[n].Type == t }); i >= 0 {
				used[mi] = true
				plan.Restriction[path[0]] = append(plan.Restriction[path[0]], p.skb.Nodes[m.Nodes[i]].Name)
				break
			}
		}
	}
	low := strings.ToLower(text)
	var rest strings.Builder
	pos := 0
	for mi, m := range ments {
		if !used[mi] {
			continue
		}
		rest.WriteString(low[pos:m.Start])
		pos = m.End
	}
	rest.WriteString(low[pos:])
	target := tmpl[0][len(tmpl[0])-1]
	if r := strings.Join(strings.Fields(rest.String()), " "); r != "" {
		plan.Restriction[target] = append(plan.Restriction[target], r)
	}
	return plan
}

// PlannedTraversal is MoR's traversal driven by the planner's plans (MoR
// without its reranker, with no plan given).
type PlannedTraversal struct {
	Planner *Planner
	T       *TraversalMethod
}

func (m *PlannedTraversal) Name() string { return "planner+traversal" }

func (m *PlannedTraversal) Rank(ctx context.Context, q data.Query) ([]index.Hit, error) {
	plan, _, err := m.Planner.Predict(q)
	if err != nil {
		return nil, err
	}
	q.Plan = &plan
	return m.T.Rank(ctx, q)
}
