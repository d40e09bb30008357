package kgqa

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/data/index"
	"github.com/strata-retrieval/strata/graphops"
	"github.com/strata-retrieval/strata/graphops/linking"
	"github.com/strata-retrieval/strata/graphops/mine"
	gplan "github.com/strata-retrieval/strata/graphops/plan"
	"github.com/strata-retrieval/strata/graphops/subgraph"
	"github.com/strata-retrieval/strata/graphops/workspace"
	"github.com/strata-retrieval/strata/infer"
	"github.com/strata-retrieval/strata/infer/planner"
	"github.com/strata-retrieval/strata/infer/registry"
	"github.com/strata-retrieval/strata/infer/simgrag"
)

// Config describes a trained KGQA model: the native pattern predictor
// (a planner whose templates are relation paths) and SimGRAG's settings.
type Config struct {
	Planner planner.Config `json:"planner"`
	SimGRAG simgrag.Config `json:"simgrag"`
	Labels  string         `json:"labels"` // "plans" (e.g. MetaQA question types) or "mined"
}

// KGQA answers questions over a knowledge graph as SimGRAG does, with a
// native pattern predictor in place of the LLM: the planner classifies the
// question into a relation path, the topic entities (MetaQA's bracketed
// mentions, else the planner's linked anchor) become the pattern's known
// nodes, and SimGRAG retrieves the subgraphs.
//
// A question naming several topics ("which films starred [A] and [B]")
// asks for a target reached from every one of them. The plan's paths take
// the topics in order of mention; each topic left when the paths run out
// anchors a copy of the first path; a path left without a topic keeps the
// anchor the plan gives it; all paths end at one shared target (the joint
// pattern, data.JoinPatterns). The targets of the joint pattern rank first;
// after them come the targets that only some topics reach, from each
// topic's own path pattern (SimGRAGMethod.More), so a question whose
// topics share no answer is still answered.
type KGQA struct {
	Planner planner.Predictor
	S       *simgrag.Matcher
}

// Pattern predicts the question's pattern graph: with several bracketed
// topics, the joint pattern.
func (k *KGQA) Pattern(q data.Query) (data.Pattern, bool, error) {
	joint, _, ok, err := k.patterns(q)
	return joint, ok, err
}

// TopicPatterns is the pattern of every topic's own path when the question
// brackets several topics (nil otherwise): the targets only some topics
// reach.
func (k *KGQA) TopicPatterns(q data.Query) ([]data.Pattern, error) {
	if ts, _ := data.BracketedTopics(q.Text); len(slices.Compact(slices.Sorted(slices.Values(ts)))) < 2 {
		return nil, nil
	}
	_, singles, _, err := k.patterns(q)
	return singles, err
}

// patterns builds the joint pattern and, with several topics, each topic's
// single-path pattern.
func (k *KGQA) patterns(q data.Query) (joint data.Pattern, singles []data.Pattern, ok bool, err error) {
	// simgrag asks for patterns without a context; KGQA's template
	// planner executes no candidate, so its prediction is bounded by the
	// question's length.
	pred, err := k.Planner.Predict(context.Background(), q)
	if err != nil {
		return joint, nil, false, err
	}
	plan := pred.Plan
	var topics []string // distinct, in order of mention ("[A] ... [A]" names one entity)
	named, _ := data.BracketedTopics(q.Text)
	for _, t := range named {
		if !slices.Contains(topics, t) {
			topics = append(topics, t)
		}
	}
	if len(topics) == 0 || len(plan.Paths) == 0 || len(plan.Paths[0].Nodes) == 0 {
		joint, ok = k.pattern(plan)
		return joint, nil, ok, nil
	}
	anchor := func(typ, name string) map[string][]string {
		r := maps.Clone(plan.Restriction)
		if r == nil {
			r = map[string][]string{}
		}
		r[typ] = []string{name}
		return r
	}
	first := plan.Paths[0]
	base := anchor(first.Anchor(), topics[0])
	if len(topics) == 1 {
		joint, ok = k.pattern(data.Plan{Paths: plan.Paths, Restriction: base})
		return joint, nil, ok, nil
	}
	var parts []data.Pattern
	add := func(path data.Path, r map[string][]string, single bool) {
		if p, ok := k.pattern(data.Plan{Paths: []data.Path{path}, Restriction: r}); ok {
			parts = append(parts, p)
			if single {
				singles = append(singles, p)
			}
		}
	}
	for i, path := range plan.Paths {
		if i < len(topics) && len(path.Nodes) > 0 {
			add(path, anchor(path.Anchor(), topics[i]), true)
		} else {
			add(path, base, false)
		}
	}
	for _, t := range topics[min(len(topics), len(plan.Paths)):] {
		add(first, anchor(first.Anchor(), t), true)
	}
	if len(parts) == 0 {
		return joint, nil, false, nil
	}
	if joint, err = data.JoinPatterns(parts); err != nil {
		return joint, nil, false, nil // e.g. two topics that are one node's names
	}
	return joint, singles, true, nil
}

// pattern writes a plan as its pattern graph through the typed plan
// (plan.CompilePattern, the compiler of every plan-based method; "*"
// stays any relation, matched semantically). A plan the typed algebra
// rejects (a relation or node type the schema lacks) is written from its
// strings (data.PlanPattern), as SimGRAG's planned route does.
func (k *KGQA) pattern(p data.Plan) (data.Pattern, bool) {
	ws := k.Planner.Workspace()
	_, pat, err := gplan.CompilePattern(&ws.SKB.Schema, p, nil)
	if errors.Is(err, graphops.ErrInvalidPlan) {
		return data.PlanPattern(p)
	}
	return pat, err == nil
}

// Method serves the KGQA model as a retrieval method.
func (k *KGQA) Method() *Method {
	return &Method{Method: &simgrag.Method{S: k.S, Patterns: k.Pattern, More: k.TopicPatterns, Label: "kgqa"}, K: k}
}

// Method is a KGQA model served as a retrieval method: SimGRAG with the
// predicted patterns, and their explanation.
type Method struct {
	*simgrag.Method
	K *KGQA
}

var (
	_ infer.Method          = (*Method)(nil)
	_ infer.Explainer       = (*Method)(nil)
	_ infer.FallbackCounter = (*Method)(nil)
)

// Explain implements infer.Explainer: the predicted pattern, the top k
// answers and subgraphs.
func (m *Method) Explain(ctx context.Context, q data.Query, k int) (infer.Explanation, error) {
	e, err := m.K.Explain(ctx, q)
	if err != nil {
		return nil, err
	}
	if len(e.Hits) > k {
		e.Hits = e.Hits[:k]
	}
	if len(e.Subgraphs) > k {
		e.Subgraphs = e.Subgraphs[:k]
	}
	return e, nil
}

// MinePlans labels questions without a plan with the plan miner (Mine,
// structure only): the question's topic entities are its mentions (every
// [bracketed] topic resolved by exact name, each a mention of its own, else
// the mention index's links), and the best path of at most maxHops steps
// from one topic, or two paths from two topics meeting at the target, is
// the label. Plans name their anchors by restriction (as the KGQA
// predictor fills them); steps keep their stored direction. It returns the
// plans and how many questions got none; a cancelled ctx stops it with
// ctx's error.
func MinePlans(ctx context.Context, ws *workspace.Workspace, qs []data.Query, maxHops int) (map[int]data.Plan, int, error) {
	names := ws.Names()
	recs, _, err := mine.Plans(ctx, ws, qs, mine.Options{NoText: true,
		Config:   mine.Config{MaxHops: maxHops, MaxFrontier: 20000, NoUniversal: true}, // SimGRAG's patterns say "some", not "every"
		Mentions: func(text string) []linking.LinkedMention { return kgqaMentions(ws, names, text) }})
	if err != nil {
		return nil, len(qs), err
	}
	out := map[int]data.Plan{}
	for _, r := range recs {
		plan := data.Plan{Paths: r.Plan.Paths, Restriction: map[string][]string{}}
		for i, a := range r.Plan.Anchors {
			t := plan.Paths[i].Anchor()
			plan.Restriction[t] = append(plan.Restriction[t], a.Text)
		}
		out[r.QID] = plan
	}
	return out, len(qs) - len(out), nil
}

// kgqaMentions are a KGQA question's topic mentions: its [bracketed]
// topics, each naming the nodes of that exact name, or else every mention
// the mention index finds.
func kgqaMentions(ws *workspace.Workspace, names *linking.NameIndex, text string) []linking.LinkedMention {
	topics, _ := data.BracketedTopics(text)
	var out []linking.LinkedMention
	from := 0
	for i, t := range topics {
		// The bracket's span; topics are distinct mentions (token
		// positions only need to keep them apart).
		start := from + max(0, strings.Index(text[from:], "["+t))
		end := min(len(text), start+len(t)+2)
		from = end
		m := linking.LinkedMention{Start: start, End: end, TokStart: 2 * i, TokEnd: 2*i + 1, Text: t}
		for ti := range ws.SKB.Schema.NodeTypes {
			for _, v := range names.Lookup(data.TypeID(ti), t) {
				m.Nodes = append(m.Nodes, linking.FormNode{Node: v})
			}
		}
		if len(m.Nodes) > 0 {
			out = append(out, m)
		}
	}
	if len(topics) > 0 {
		return out
	}
	return ws.Mentions().Find(text)
}

// Explanation is a KGQA answer with its evidence.
type Explanation struct {
	Pattern   [][3]string
	Hits      []index.Hit
	Subgraphs []subgraph.Match
}

// Explain predicts the pattern and retrieves its subgraphs.
func (k *KGQA) Explain(ctx context.Context, q data.Query) (*Explanation, error) {
	p, ok, err := k.Pattern(q)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, fmt.Errorf("no pattern for %q (no topic entity found)", q.Text)
	}
	res, err := k.S.Retrieve(ctx, p)
	if err != nil {
		return nil, err
	}
	return &Explanation{Pattern: p.Triples3(), Hits: res.Hits, Subgraphs: res.Subgraphs}, nil
}

// WriteText implements infer.Explanation.
func (e *Explanation) WriteText(out io.Writer, ws *workspace.Workspace) error {
	fmt.Fprintln(out, "pattern (predicted):")
	for _, t := range e.Pattern {
		fmt.Fprintf(out, "  (%s, %s, %s)\n", t[0], t[1], t[2])
	}
	w := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "\nrank\tnode\tGSD\tanswer")
	for i, h := range e.Hits {
		fmt.Fprintf(w, "%d\t%d\t%.4f\t%s\n", i+1, h.ID, -h.Score, ws.SKB.Nodes[h.ID].Name)
	}
	fmt.Fprintln(w, "\nsubgraph\tGSD\tnodes (pattern order)")
	for i, s := range e.Subgraphs {
		var names []string
		for _, v := range s.Nodes {
			names = append(names, ws.SKB.Nodes[v].Name)
		}
		fmt.Fprintf(w, "%d\t%.4f\t%s\n", i+1, s.GSD, strings.Join(names, " | "))
	}
	return w.Flush()
}

// Kind is the checkpoint kind of a KGQA model.
const Kind = infer.KindKGQA

func init() {
	registry.Register(Kind, func(env *infer.Env, ck *registry.Checkpoint) (infer.Method, error) {
		var kc Config
		if err := ck.DecodeConfig("KGQA", &kc); err != nil {
			return nil, err
		}
		p, err := planner.FromCheckpoint(env, ck, kc.Planner, true)
		if err != nil {
			return nil, err
		}
		kc.SimGRAG.ONNXEncoder = cmp.Or(kc.SimGRAG.ONNXEncoder, env.ONNXEncoder)
		s, err := simgrag.Open(env, kc.SimGRAG)
		if err != nil {
			return nil, err
		}
		return (&KGQA{Planner: p, S: s}).Method(), nil
	})
}
