// Package mine mines plans from answers, with no LLM: a real SKB's
// questions come with answers only, and the planner learns from the plans
// that explain them. Anchor candidates are the question's mentions
// (linking.MentionIndex: names and alias-like fields); plans are directed
// relation paths of up to three hops from one anchor, or two anchors'
// paths meeting at the target, with universal steps and ranked middle
// positions (Miner), scored by F1 against the gold answers after
// the textual restriction where it helps. Ties go to fewer hops, then
// fewer anchors, then the relation structure most questions chose (Choose).
//
// Mining is two steps, so that it shards (cmd/strata-beam): Tied mines one
// question on its own, Choose votes over every question's tied plans.
// Plans runs both on every core.
package mine

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"text/tabwriter"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/graphops"
	"github.com/strata-retrieval/strata/graphops/linking"
	"github.com/strata-retrieval/strata/graphops/workspace"
	"github.com/strata-retrieval/strata/internal/parallel"
)

// Options configures plan mining.
type Options struct {
	Config Config
	// NoText scores plans by structure alone (no textual restriction).
	NoText bool
	// Attributes refines a tied plan with an attribute filter where one
	// fits the answers better (off by default: see docs/real-data.md).
	Attributes bool
	Workers    int // 0: every core
	// Progress, when set, is called with the number of questions mined.
	Progress func(done, total int)
	// Mentions finds a question's anchor candidates; nil means the
	// workspace's mention index.
	Mentions func(text string) []linking.LinkedMention
}

// Tied mines one question with m (a miner over ws.Graph made with
// o.Config): the plans tied for best (the same F1, hops and anchors) as
// records, best first; none when no plan reaches an answer.
func Tied(ws *workspace.Workspace, m *Miner, q data.Query, o Options) []data.MinedPlanRecord {
	find := o.Mentions
	if find == nil {
		find = ws.Mentions().Find
	}
	ments := find(q.Text)
	var ans []uint32
	for _, a := range q.Answers {
		if int(a) < len(ws.CandMask) && ws.CandMask[a] {
			ans = append(ans, a)
		}
	}
	in := Input{Mentions: ments, Answers: ans, Cand: ws.CandMask}
	if !o.NoText {
		in.Restrict = func(anchors []int) func(uint32) float32 {
			return ws.TextScorer(linking.RestrictionText(q.Text, ments, anchors))
		}
	}
	plans := m.Mine(in)
	var tied []data.MinedPlanRecord
	for j := range plans {
		p, b := &plans[j], &plans[0]
		if p.F1 != b.F1 || p.Hops() != b.Hops() || len(p.Branches) != len(b.Branches) {
			break
		}
		r := data.MinedPlanRecord{QID: q.ID, Query: q.Text, AnswerIDs: q.Answers,
			Plan:  ToPlan(&ws.SKB.Schema, ws.Graph, q.Text, ments, p),
			Mined: data.MinedInfo{F1: p.F1, StructF1: p.StructF1, Restricted: p.Restricted, Shape: p.Shape(), Reach: p.Reach, Hits: p.Hits}}
		if !o.NoText && o.Attributes {
			if ra, ok := withAttribute(ws, r, ans); ok {
				r = ra
			}
		}
		tied = append(tied, r)
	}
	return tied
}

// Choose picks each question's plan among its tied plans (Tied, in
// question order): each question gives its distinct relation structures
// (SkeletonKey) one vote in all, and keeps the tied plan whose structure
// has the most votes, the first on a tie (plans must be learnable, and
// spurious paths that fit one question's answers by chance are rarely
// shared). Questions without a plan are left out.
func Choose(tied [][]data.MinedPlanRecord) []data.MinedPlanRecord {
	votes := map[string]float64{}
	for _, t := range tied {
		keys := map[string]bool{}
		for _, r := range t {
			keys[SkeletonKey(r.Plan)] = true
		}
		for k := range keys {
			votes[k] += 1 / float64(len(keys))
		}
	}
	var out []data.MinedPlanRecord
	for _, t := range tied {
		if len(t) == 0 {
			continue
		}
		best := 0
		for j := 1; j < len(t); j++ {
			if votes[SkeletonKey(t[j].Plan)] > votes[SkeletonKey(t[best].Plan)] {
				best = j
			}
		}
		out = append(out, t[best])
	}
	return out
}

// Plans mines a plan for every question of qs from its answers (Tied on
// every core, then Choose). Records come back in the order of qs;
// questions without a plan are left out. ctx is checked before every
// chunk of 8 questions: once cancelled (Ctrl-C, SIGTERM), Plans returns
// ctx's error and no records.
func Plans(ctx context.Context, ws *workspace.Workspace, qs []data.Query, o Options) ([]data.MinedPlanRecord, *Report, error) {
	tied := make([][]data.MinedPlanRecord, len(qs))
	workers := o.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	miners := make(chan *Miner, workers)
	for range workers {
		miners <- NewMiner(ws.Graph, o.Config)
	}
	done := 0
	var mu sync.Mutex
	err := parallel.Chunks(ctx, len(qs), 8, workers, func(lo, hi int) {
		m := <-miners
		defer func() { miners <- m }()
		for i := lo; i < hi; i++ {
			tied[i] = Tied(ws, m, qs[i], o)
		}
		if o.Progress != nil {
			mu.Lock()
			done += hi - lo
			o.Progress(done, len(qs))
			mu.Unlock()
		}
	})
	if err != nil {
		return nil, nil, err
	}
	recs := Choose(tied)
	return recs, ReportOf(len(qs), recs), nil
}

// ReportOf summarises the plans mined for questions questions.
func ReportOf(questions int, recs []data.MinedPlanRecord) *Report {
	rep := &Report{Questions: questions, Shapes: map[string]*ShapeStats{}}
	for _, r := range recs {
		info := r.Mined
		rep.Mined++
		st := rep.Shapes[info.Shape]
		if st == nil {
			st = &ShapeStats{}
			rep.Shapes[info.Shape] = st
		}
		st.N++
		st.SumF1 += info.F1
		if info.Restricted {
			st.Restricted++
		}
		if info.Attribute {
			rep.Attributed++
		}
		if info.F1 >= 0.5 {
			st.Good++
			rep.Good++
		}
	}
	return rep
}

// ToPlan converts a mined plan into a plan with linked anchors: each
// branch becomes a path from its anchor's type through untyped nodes to
// the target (typed when mining typed it), the rest of the question is the
// target's restriction.
func ToPlan(s *data.Schema, g *graphops.Graph, text string, ments []linking.LinkedMention, mp *Plan) data.Plan {
	target := data.AnyType
	if mp.Target != graphops.AnyTypeID {
		target = s.NodeTypes[mp.Target]
	}
	p := data.Plan{Restriction: map[string][]string{}}
	var anchors []int
	for _, b := range mp.Branches {
		types := []string{s.NodeTypes[g.Type(b.Anchor)]}
		steps := make([]data.PathStep, len(b.Steps))
		for i, st := range b.Steps {
			next := data.AnyType
			if i == len(b.Steps)-1 {
				next = target
			}
			steps[i] = data.Step(s.RelationTypes[st.Rel], st.Dir)
			steps[i].Every = st.Every
			types = append(types, next)
		}
		p.Paths = append(p.Paths, data.TypePath(types, steps))
		p.Anchors = append(p.Anchors, data.PlanAnchor{Text: ments[b.Mention].Text, Nodes: []uint32{b.Anchor}})
		anchors = append(anchors, b.Mention)
	}
	if r := linking.RestrictionText(text, ments, anchors); r != "" {
		p.Restriction[target] = []string{r}
	}
	if mp.RankMiddle {
		p, _ = p.WithRankedMiddles() // the positions before the last steps
	}
	return p
}

// SkeletonKey names a plan's relation structure, ignoring node types and
// anchors: its paths' relation tokens, sorted.
func SkeletonKey(p data.Plan) string {
	var parts []string
	for _, path := range p.Paths {
		rels := make([]string, len(path.Steps))
		for i, st := range path.Steps {
			rels[i] = st.Token()
		}
		parts = append(parts, strings.Join(rels, " / "))
	}
	sort.Strings(parts)
	return strings.Join(parts, " ∩ ")
}

// Report summarises a mining run.
type Report struct {
	Questions int
	Mined     int // questions with a plan
	Good      int // with a plan of F1 >= 0.5
	// Attributed: plans an attribute filter fits better than the
	// restriction's ranking (data.MinedInfo.Attribute).
	Attributed int
	Shapes     map[string]*ShapeStats
}

// ShapeStats counts the plans of one shape.
type ShapeStats struct {
	N, Good, Restricted int
	SumF1               float64
}

// DefaultFile is where strata mine-plans writes by default, in the
// workspace directory, and where trainers look for mined plans.
const DefaultFile = "mined-plans.jsonl"

// JSON returns the report as a JSON-ready map: questions, mined, coverage,
// attributed and per shape n, coverage, mean_f1 and restricted.
func (r *Report) JSON() map[string]any {
	shapes := map[string]any{}
	for s, st := range r.Shapes {
		shapes[s] = map[string]any{"n": st.N, "coverage": float64(st.Good) / float64(st.N), "mean_f1": st.SumF1 / float64(st.N), "restricted": float64(st.Restricted) / float64(st.N)}
	}
	return map[string]any{"questions": r.Questions, "mined": r.Mined, "coverage": r.Coverage(), "attributed": r.Attributed, "shapes": shapes}
}

// Coverage is the share of questions with a mined plan of F1 >= 0.5.
func (r *Report) Coverage() float64 {
	if r.Questions == 0 {
		return 0
	}
	return float64(r.Good) / float64(r.Questions)
}

// Print writes the coverage table.
func (r *Report) Print(w io.Writer) {
	fmt.Fprintf(w, "mined plans for %d of %d questions; coverage (F1 >= 0.5) %.3f\n\n", r.Mined, r.Questions, r.Coverage())
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "shape\tquestions\tF1>=0.5\tmean F1\trestricted")
	shapes := make([]string, 0, len(r.Shapes))
	for s := range r.Shapes {
		shapes = append(shapes, s)
	}
	sort.Strings(shapes)
	for _, s := range shapes {
		st := r.Shapes[s]
		fmt.Fprintf(tw, "%s\t%d\t%.3f\t%.3f\t%.3f\n", s, st.N, float64(st.Good)/float64(st.N), st.SumF1/float64(st.N), float64(st.Restricted)/float64(st.N))
	}
	if n := r.Questions - r.Mined; n > 0 {
		fmt.Fprintf(tw, "none\t%d\t0\t0\t0\n", n)
	}
	tw.Flush()
	if r.Attributed > 0 {
		fmt.Fprintf(w, "\n%d plans filter by an attribute the answers' text states (where key \"value\": their F1 is the filter's)\n", r.Attributed)
	}
}

// Load reads a mined plans file: path, or the workspace's default
// (DefaultFile), whose absence is a clear error saying how to make it;
// a line that does not fit the workspace (data.CheckPlans, strict) is an
// error. It returns the records and the path read.
func Load(ws *workspace.Workspace, path string) (map[int]data.MinedPlanRecord, string, error) {
	def := path == ""
	if def {
		path = filepath.Join(ws.Dir, DefaultFile)
	}
	recs, err := data.ReadMinedPlans(path)
	if def && errors.Is(err, data.ErrMissingFile) {
		return nil, "", fmt.Errorf("this workspace has neither plans nor mined plans: mine them from the training answers first (strata mine-plans %s), or import plans (strata import --plans)", ws.Dir)
	}
	if err != nil {
		return nil, "", err
	}
	// Mined plans are strata's own: any line that does not fit the
	// workspace (another workspace's file) is an error.
	if _, err := data.CheckPlans(path, data.ScopeOf(ws.SKB), data.Strict); err != nil {
		return nil, "", err
	}
	return recs, path, nil
}
