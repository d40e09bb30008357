package mine

import (
	"cmp"
	"slices"
	"strings"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/data/index"
	"github.com/strata-retrieval/strata/graphops/plan"
	"github.com/strata-retrieval/strata/graphops/workspace"
)

// withAttribute refines a mined plan with an attribute filter when one
// fits the answers better: among the (key, value) attributes every answer
// states (value a word of the plan's restriction, key a word before it as
// graphops/plan.Filter reads it, not a stop word), the one whose filter of
// the plan's reach (candidates) has the best F1 against the answers, kept
// when that F1 beats the record's. ok is false when none does.
func withAttribute(ws *workspace.Workspace, r data.MinedPlanRecord, ans []uint32) (data.MinedPlanRecord, bool) {
	restriction := strings.Join(r.Plan.TargetRestriction(), " ")
	if r.Mined.F1 >= 1 || len(ans) == 0 || restriction == "" {
		return r, false
	}
	vals := map[string]bool{}
	for _, w := range index.Tokenize(nil, restriction) {
		vals[w] = true
	}
	var common map[data.PlanAttr]bool
	for _, a := range ans {
		stated := map[data.PlanAttr]bool{}
		for at := range plan.StatedAttrs(plan.NodeWords(ws.Graph, a), vals, isKey) {
			stated[data.PlanAttr(at)] = true
		}
		if common == nil {
			common = stated
			continue
		}
		for at := range common {
			if !stated[at] {
				delete(common, at)
			}
		}
	}
	if len(common) == 0 {
		return r, false
	}
	attrs := make([]data.PlanAttr, 0, len(common))
	for at := range common {
		attrs = append(attrs, at)
	}
	slices.SortFunc(attrs, func(a, b data.PlanAttr) int { return cmp.Or(cmp.Compare(a.Key, b.Key), cmp.Compare(a.Value, b.Value)) })
	res, err := plan.Execute(ws.Graph, ws.Names(), r.Plan)
	if err != nil || len(res.Reach) == 0 {
		return r, false
	}
	docs := make([][]string, 0, len(res.Reach))
	var reach []uint32
	for _, v := range res.Reach {
		if ws.CandMask[v] {
			reach = append(reach, v)
			docs = append(docs, plan.NodeWords(ws.Graph, v))
		}
	}
	best, bestF1 := -1, r.Mined.F1
	for ai, at := range attrs {
		kept, hits := 0, 0
		for i, v := range reach {
			if plan.States(docs[i], plan.Attr{Key: at.Key, Value: at.Value}) {
				kept++
				if slices.Contains(ans, v) {
					hits++
				}
			}
		}
		if hits == 0 {
			continue
		}
		p, rc := float64(hits)/float64(kept), float64(hits)/float64(len(ans))
		if f1 := 2 * p * rc / (p + rc); f1 > bestF1 {
			best, bestF1 = ai, f1
		}
	}
	if best < 0 {
		return r, false
	}
	r.Plan.Attributes = []data.PlanAttr{attrs[best]}
	r.Mined.F1 = bestF1
	r.Mined.Attribute = true
	return r, true
}

// isKey reports whether k may key an attribute: a word of two or more
// letters that is not a stop word.
func isKey(k string) bool { return len([]rune(k)) > 1 && !slices.Contains(index.StopwordsEN, k) }
