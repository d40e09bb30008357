package planner

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"text/tabwriter"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/graphops"
	"github.com/strata-retrieval/strata/graphops/workspace"
	"github.com/strata-retrieval/strata/internal/parallel"
)

// MineOptions configures plan mining.
type MineOptions struct {
	Config graphops.MineConfig
	// NoText scores plans by structure alone (no textual restriction).
	NoText  bool
	Workers int // 0: every core
	// Progress, when set, is called with the number of questions mined.
	Progress func(done, total int)
	// Mentions finds a question's anchor candidates; nil means the
	// workspace's mention index.
	Mentions func(text string) []graphops.LinkedMention
}

// RestrictionText is the question without the anchor mentions: the
// target's textual restriction.
func RestrictionText(text string, ments []graphops.LinkedMention, anchors []int) string {
	spans := make([][2]int, 0, len(anchors))
	for _, a := range anchors {
		spans = append(spans, [2]int{ments[a].Start, ments[a].End})
	}
	slices.SortFunc(spans, func(a, b [2]int) int { return cmp.Compare(a[0], b[0]) })
	var b strings.Builder
	pos := 0
	for _, s := range spans {
		if s[0] < pos {
			continue
		}
		b.WriteString(text[pos:s[0]])
		b.WriteByte(' ')
		pos = s[1]
	}
	b.WriteString(text[pos:])
	return strings.Join(strings.Fields(b.String()), " ")
}

// restrictScorer scores nodes by BM25 of a restriction text over their
// documents (0 for non-candidates and unmatched documents).
func restrictScorer(ws *workspace.Workspace, text string) func(uint32) float32 {
	score := ws.Doc.Scorer(text)
	return func(v uint32) float32 {
		d, ok := ws.DocOf(v)
		if !ok {
			return 0
		}
		return score(d)
	}
}

// MinedToPlan converts a mined plan into a plan with linked anchors: each
// branch becomes a path from its anchor's type through untyped nodes to
// the target (typed when mining typed it), the rest of the question is the
// target's restriction.
func MinedToPlan(s *data.Schema, g *graphops.Graph, text string, ments []graphops.LinkedMention, mp *graphops.MinedPlan) data.Plan {
	target := data.AnyType
	if mp.Target != graphops.AnyTypeID {
		target = s.NodeTypes[mp.Target]
	}
	p := data.Plan{Restriction: map[string][]string{}}
	var anchors []int
	for _, b := range mp.Branches {
		path := []string{s.NodeTypes[g.Type(b.Anchor)]}
		for i, st := range b.Steps {
			next := data.AnyType
			if i == len(b.Steps)-1 {
				next = target
			}
			tok := data.RelStep{Rel: s.RelationTypes[st.Rel], Dir: st.Dir}.String()
			if st.Every {
				tok = data.EveryPrefix + tok
			}
			path = append(path, tok, next)
		}
		if mp.RankMiddle && len(path) >= 5 {
			path[len(path)-3] += data.RankMark // the position before the last step
		}
		p.Metapath = append(p.Metapath, path)
		p.Anchors = append(p.Anchors, data.PlanAnchor{Text: ments[b.Mention].Text, Nodes: []uint32{b.Anchor}})
		anchors = append(anchors, b.Mention)
	}
	if r := RestrictionText(text, ments, anchors); r != "" {
		p.Restriction[target] = []string{r}
	}
	return p
}

// SkeletonKey names a plan's relation structure, ignoring node types and
// anchors: its paths' relation tokens, sorted.
func SkeletonKey(p data.Plan) string {
	var parts []string
	for _, path := range p.Metapath {
		var rels []string
		for i := 1; i < len(path); i += 2 {
			rels = append(rels, path[i])
		}
		parts = append(parts, strings.Join(rels, " / "))
	}
	sort.Strings(parts)
	return strings.Join(parts, " ∩ ")
}

// MineReport summarises a mining run.
type MineReport struct {
	Questions int
	Mined     int // questions with a plan
	Good      int // with a plan of F1 >= 0.5
	Shapes    map[string]*ShapeStats
}

// ShapeStats counts the plans of one shape.
type ShapeStats struct {
	N, Good, Restricted int
	SumF1               float64
}

// MinedPlansFile is where strata mine-plans writes by default, in the
// workspace directory, and where trainers look for mined plans.
const MinedPlansFile = "mined-plans.jsonl"

// JSON returns the report as a JSON-ready map: questions, mined, coverage
// and per shape n, coverage, mean_f1 and restricted.
func (r *MineReport) JSON() map[string]any {
	shapes := map[string]any{}
	for s, st := range r.Shapes {
		shapes[s] = map[string]any{"n": st.N, "coverage": float64(st.Good) / float64(st.N), "mean_f1": st.SumF1 / float64(st.N), "restricted": float64(st.Restricted) / float64(st.N)}
	}
	return map[string]any{"questions": r.Questions, "mined": r.Mined, "coverage": r.Coverage(), "shapes": shapes}
}

// Coverage is the share of questions with a mined plan of F1 >= 0.5.
func (r *MineReport) Coverage() float64 {
	if r.Questions == 0 {
		return 0
	}
	return float64(r.Good) / float64(r.Questions)
}

// Print writes the coverage table.
func (r *MineReport) Print(w io.Writer) {
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
}

// Mine mines a plan for every question of qs from its answers: anchors
// from the mention index (names and alias fields), typed-direction paths
// of up to three hops from one anchor or two paths from two anchors
// meeting at the target, scored by F1 against the answers (after the
// textual restriction where that helps; see graphops.Miner). Among the
// plans tied on score, hops and anchors, the relation structure chosen
// most often across the questions wins (plans must be learnable, and
// spurious paths that fit one question's answers by chance are rarely
// shared). Records come back in the order of qs; questions without a plan
// are left out. ctx is checked before every chunk of 8 questions: once
// cancelled (Ctrl-C, SIGTERM), Mine returns ctx's error and no records.
func Mine(ctx context.Context, ws *workspace.Workspace, qs []data.Query, o MineOptions) ([]data.MinedPlanRecord, *MineReport, error) {
	find := o.Mentions
	if find == nil {
		find = ws.Mentions().Find
	}
	type mined struct {
		ments []graphops.LinkedMention
		plans []graphops.MinedPlan
	}
	res := make([]mined, len(qs))
	workers := o.Workers
	if workers <= 0 {
		workers = 2
	}
	miners := make(chan *graphops.Miner, workers)
	for range workers {
		miners <- graphops.NewMiner(ws.Graph, o.Config)
	}
	done := 0
	var mu sync.Mutex
	err := parallel.Chunks(ctx, len(qs), 8, workers, func(lo, hi int) {
		m := <-miners
		defer func() { miners <- m }()
		for i := lo; i < hi; i++ {
			q := qs[i]
			ments := find(q.Text)
			var ans []uint32
			for _, a := range q.Answers {
				if int(a) < len(ws.CandMask) && ws.CandMask[a] {
					ans = append(ans, a)
				}
			}
			in := graphops.MineInput{Mentions: ments, Answers: ans, Cand: ws.CandMask}
			if !o.NoText {
				in.Restrict = func(anchors []int) func(uint32) float32 {
					return restrictScorer(ws, RestrictionText(q.Text, ments, anchors))
				}
			}
			res[i] = mined{ments: ments, plans: m.Mine(in)}
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
	s := &ws.SKB.Schema
	// The tied group of each question and the global vote over skeletons.
	votes := map[string]float64{}
	tied := make([][]data.Plan, len(qs))
	for i, r := range res {
		if len(r.plans) == 0 {
			continue
		}
		b := &r.plans[0]
		keys := map[string]bool{}
		for j := range r.plans {
			p := &r.plans[j]
			if p.F1 != b.F1 || p.Hops() != b.Hops() || len(p.Branches) != len(b.Branches) {
				break
			}
			pl := MinedToPlan(s, ws.Graph, qs[i].Text, r.ments, p)
			tied[i] = append(tied[i], pl)
			keys[SkeletonKey(pl)] = true
		}
		for k := range keys {
			votes[k] += 1 / float64(len(keys))
		}
	}
	rep := &MineReport{Questions: len(qs), Shapes: map[string]*ShapeStats{}}
	var out []data.MinedPlanRecord
	for i, r := range res {
		if len(r.plans) == 0 {
			continue
		}
		best := 0
		for j := 1; j < len(tied[i]); j++ {
			if votes[SkeletonKey(tied[i][j])] > votes[SkeletonKey(tied[i][best])] {
				best = j
			}
		}
		mp := &r.plans[best]
		info := data.MinedInfo{F1: mp.F1, StructF1: mp.StructF1, Restricted: mp.Restricted, Shape: mp.Shape(), Reach: mp.Reach, Hits: mp.Hits}
		out = append(out, data.MinedPlanRecord{QID: qs[i].ID, Query: qs[i].Text, AnswerIDs: qs[i].Answers, Plan: tied[i][best], Mined: info})
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
		if info.F1 >= 0.5 {
			st.Good++
			rep.Good++
		}
	}
	return out, rep, nil
}

// LoadMined reads a mined plans file: path, or the workspace's default
// (MinedPlansFile), whose absence is a clear error saying how to make it;
// a line that does not fit the workspace (data.CheckPlans, strict) is an
// error. It returns the records and the path read.
func LoadMined(ws *workspace.Workspace, path string) (map[int]data.MinedPlanRecord, string, error) {
	def := path == ""
	if def {
		path = filepath.Join(ws.Dir, MinedPlansFile)
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
