package planner

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"math"
	"slices"
	"strings"
	"unicode"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/graphops"
	"github.com/strata-retrieval/strata/graphops/workspace"
	"github.com/strata-retrieval/strata/infer"
	"github.com/strata-retrieval/strata/models"
)

// LexBuckets is the size of the planner's hashed bag of words.
const LexBuckets = 1024

// Config describes a trained planner: its metapath templates (the
// classes) and its input layout.
type Config struct {
	Templates [][][]string      `json:"templates"`
	QueryDim  int               `json:"query_dim"`
	NodeTypes []string          `json:"node_types"`
	Gate      models.GateConfig `json:"gate"`
	Dense     string            `json:"dense,omitempty"`
	// Bigrams adds word bigrams to the hashed bag of words.
	Bigrams bool `json:"bigrams,omitempty"`
	// Anchors, when set, makes the planner link its anchors (a planner
	// trained from mined plans): see Planner.
	Anchors *AnchorConfig `json:"anchors,omitempty"`
}

// AnchorConfig configures the planner's anchor linking: which mention of
// the question anchors each path of the template.
type AnchorConfig struct {
	Dim      int                    `json:"dim"`      // hashed features of the anchor scorer
	Mentions graphops.MentionConfig `json:"mentions"` // the mention index (alias fields) it was trained with
	// TopTemplates and TopMentions bound the search: the templates tried
	// (most probable first, default 5) and the mentions per path (3).
	TopTemplates int `json:"top_templates,omitempty"`
	TopMentions  int `json:"top_mentions,omitempty"`
	// RankDim sizes the plan ranker's hashed features (0: no ranker, the
	// most probable candidate that reaches a candidate wins).
	RankDim int `json:"rank_dim,omitempty"`
}

// Planner predicts a query's plan without an LLM: a classifier over the
// metapath templates seen in training (input: the dense query vector, the
// node types of the entities the query names, a hashed bag of words), and
// restrictions from entity linking: each path's anchor is a mention linked
// to a node of the path's first type; the rest of the query is the target's
// textual restriction.
//
// A planner trained from mined plans (Cfg.Anchors set) links its anchors
// instead: templates name relation paths with untyped anchors, the
// question's mentions (names and alias fields, see graphops.MentionIndex)
// are scored for each path of the template by a hashed linear model of
// their context, the template's first hop and how many of their nodes
// have such an edge, and the most probable (template, mentions) pairs are
// executed on the graph in order until one reaches a candidate: plan
// execution checks the plan, as an empty answer set rules it out. The
// anchors keep every node of the mention that has the path's first hop.
type Planner struct {
	Cfg    Config
	Gate   *models.Gate
	Anchor *models.SparseLinear // nil unless Cfg.Anchors is set
	Ranker *models.SparseLinear // the plan ranker; nil without Cfg.Anchors.RankDim
	Dense  *infer.DenseChannel
	Linker *graphops.Linker
	ws     *workspace.Workspace
	skb    *data.SKB
	ments  *graphops.MentionIndex
	hops   [][]graphops.Hop // per template, the first hop of each path
}

// TemplateKey is the canonical text of a metapath (the class label).
func TemplateKey(paths [][]string) string {
	b, _ := json.Marshal(paths)
	return string(b)
}

// NewPlanner binds a planner to a workspace.
func NewPlanner(ws *workspace.Workspace, d *infer.DenseChannel, cfg Config, gate *models.Gate) *Planner {
	return &Planner{Cfg: cfg, Gate: gate, Dense: d, Linker: ws.Linker(), ws: ws, skb: ws.SKB}
}

// NewLinkingPlanner binds a planner that links its anchors (Cfg.Anchors
// set) to a workspace. Templates must compile against the schema.
func NewLinkingPlanner(ws *workspace.Workspace, d *infer.DenseChannel, cfg Config, gate *models.Gate, anchor, ranker *models.SparseLinear) (*Planner, error) {
	if cfg.Anchors == nil || anchor == nil {
		return nil, fmt.Errorf("planner: a linking planner needs its anchor config and scorer")
	}
	if (cfg.Anchors.RankDim > 0) != (ranker != nil) {
		return nil, fmt.Errorf("planner: plan ranker dimension %d but ranker %v", cfg.Anchors.RankDim, ranker != nil)
	}
	p := NewPlanner(ws, d, cfg, gate)
	p.Anchor, p.Ranker = anchor, ranker
	if slices.Equal(ws.Mentions().Config().AliasFields, cfg.Anchors.Mentions.AliasFields) && cfg.Anchors.Mentions.MaxTokens == ws.Mentions().Config().MaxTokens {
		p.ments = ws.Mentions()
	} else {
		p.ments = graphops.NewMentionIndex(ws.SKB, cfg.Anchors.Mentions)
	}
	for ti, t := range cfg.Templates {
		var hs []graphops.Hop
		for pi, path := range t {
			_, hops, err := graphops.CompilePath(&ws.SKB.Schema, pi, path)
			if err != nil {
				return nil, fmt.Errorf("planner template %d: %w", ti, err)
			}
			if len(hops) == 0 {
				return nil, fmt.Errorf("planner template %d path %d has no hop", ti, pi)
			}
			hs = append(hs, hops[0])
		}
		p.hops = append(p.hops, hs)
	}
	return p, nil
}

// Mentions returns the mention index the planner links with.
func (p *Planner) Mentions() *graphops.MentionIndex { return p.ments }

// InputDim is the classifier's input size.
func (c Config) InputDim() int { return c.QueryDim + len(c.NodeTypes) + LexBuckets }

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
	for i, w := range words {
		h.Reset()
		h.Write([]byte(w))
		lex[h.Sum32()%LexBuckets]++
		if p.Cfg.Bigrams && i > 0 {
			h.Reset()
			h.Write([]byte(words[i-1]))
			h.Write([]byte{0})
			h.Write([]byte(w))
			lex[h.Sum32()%LexBuckets]++
		}
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

// Predict returns the query's plan and the planner's confidence in it:
// the probability of its template, or with a plan ranker (a linking
// planner) the ranker's softmax probability of the plan it chose.
func (p *Planner) Predict(q data.Query) (data.Plan, float32, error) {
	if p.Cfg.Anchors != nil {
		r, err := p.PredictLinked(q)
		return r.Plan, r.Conf, err
	}
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

// PredictExecuted is Predict with the plan's executed result when the
// planner executed it to choose it (a linking planner; Reach is nil
// otherwise).
func (p *Planner) PredictExecuted(q data.Query) (PlanPrediction, error) {
	if p.Cfg.Anchors != nil {
		return p.PredictLinked(q)
	}
	plan, conf, err := p.Predict(q)
	return PlanPrediction{Plan: plan, Prob: conf, Conf: conf}, err
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

// Workspace returns the workspace the planner is bound to.
func (p *Planner) Workspace() *workspace.Workspace { return p.ws }
