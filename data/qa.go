package data

import (
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"
)

// Split names.
const (
	SplitTrain = "train"
	SplitVal   = "val"
	SplitTest  = "test"
	SplitHuman = "human"
)

// Query is one question with its gold answers (node ids).
type Query struct {
	ID      int
	Text    string
	Answers []uint32
	// Source holds answer_ids_source of STaRK's human-generated file, if any.
	Source []uint32
	// Plan is a plan given with the query itself (a scoring input file's
	// "plan"); nil means look it up by id.
	Plan *Plan `json:",omitempty"`
	// Reach is Plan already executed, by whoever chose it (a planner
	// executes its candidate plans to choose among them); nil means not
	// executed. It is never read from or written to a file.
	Reach *PlanReach `json:"-"`
	// Passage: whoever planned the query read it as text no plan fits (a
	// description, a definition: the planner's text-fit gate) or too long
	// to plan, so the text channel may read it as one (the reading
	// channel's name profiles).
	// It is never read from or written to a file.
	Passage bool `json:"-"`
}

// PlanReach is a plan's executed result carried with its query, so that
// a plan is executed and its restriction scored once per query: the
// candidates it reaches (ascending ids, never empty) and, aligned with
// them, their BM25 scores for the plan's target restriction over their
// documents (0 where no term of it matches; all 0 without a restriction).
type PlanReach struct {
	Nodes  []uint32
	Scores []float32
}

// QA is a question set: the synthesized queries, the optional
// human-generated queries, and the split lists (query ids of Queries).
type QA struct {
	Queries []Query
	Human   []Query
	Splits  map[string][]int
	byID    map[int]int
}

// Index rebuilds the id lookup; call it after changing Queries.
func (qa *QA) Index() {
	qa.byID = make(map[int]int, len(qa.Queries))
	for i, q := range qa.Queries {
		qa.byID[q.ID] = i
	}
}

// ByID returns the query with the given id.
func (qa *QA) ByID(id int) (*Query, bool) {
	if qa.byID == nil {
		qa.Index()
	}
	i, ok := qa.byID[id]
	if !ok {
		return nil, false
	}
	return &qa.Queries[i], true
}

// SplitNames returns the available split names in a fixed order.
func (qa *QA) SplitNames() []string {
	var out []string
	for _, s := range []string{SplitTrain, SplitVal, SplitTest} {
		if _, ok := qa.Splits[s]; ok {
			out = append(out, s)
		}
	}
	var extra []string
	for s := range qa.Splits {
		if s != SplitTrain && s != SplitVal && s != SplitTest {
			extra = append(extra, s)
		}
	}
	sort.Strings(extra)
	out = append(out, extra...)
	if len(qa.Human) > 0 {
		out = append(out, SplitHuman)
	}
	return out
}

// MaxSplitName bounds the length of a split name in bytes.
const MaxSplitName = 200

// CheckSplitName reports a split name that could not be written safely as
// split/<name>.index below an export directory. A name is one or more
// components separated by '/' (MetaQA's "1-hop-dev/test-reachable" is
// written as split/1-hop-dev/test-reachable.index); a component is not
// empty, "." or "..", does not end in ".index", and holds no backslash and
// no control character; the whole is valid UTF-8 of at most MaxSplitName
// bytes. The error wraps ErrSyntax.
func CheckSplitName(name string) error {
	bad := func(why string) error {
		return fmt.Errorf("split name %s: %w: %s", quoteClip(name), ErrSyntax, why)
	}
	switch {
	case name == "":
		return bad("empty")
	case len(name) > MaxSplitName:
		return bad(fmt.Sprintf("%d bytes, at most %d", len(name), MaxSplitName))
	case !utf8.ValidString(name):
		return bad("not valid UTF-8")
	}
	for _, r := range name {
		if r < 0x20 || r == 0x7f || r == '\\' {
			return bad(fmt.Sprintf("character %U is not allowed", r))
		}
	}
	for _, c := range strings.Split(name, "/") {
		switch {
		case c == "":
			return bad("empty path component (a leading, trailing or doubled '/')")
		case c == "." || c == "..":
			return bad(fmt.Sprintf("path component %q", c))
		case strings.HasSuffix(c, ".index"):
			return bad("a path component ending in .index")
		}
	}
	return nil
}

// CheckSplitNames returns the first split name CheckSplitName refuses.
func (qa *QA) CheckSplitNames() error {
	names := make([]string, 0, len(qa.Splits))
	for n := range qa.Splits {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if err := CheckSplitName(n); err != nil {
			return err
		}
	}
	return nil
}

// CheckSplits returns an error when a query id is in two of the train,
// val and test splits (other splits may overlap them: a subset such as
// MetaQA's test-reachable is one).
func (qa *QA) CheckSplits() error {
	seen := map[int]string{}
	for _, s := range []string{SplitTrain, SplitVal, SplitTest} {
		for _, id := range qa.Splits[s] {
			if prev, dup := seen[id]; dup {
				if prev == s {
					return fmt.Errorf("split %s: %w: query id %d listed twice", s, ErrDuplicateID, id)
				}
				return fmt.Errorf("splits %s and %s: %w: query id %d is in both (train, val and test must not overlap)", prev, s, ErrDuplicateID, id)
			}
			seen[id] = s
		}
	}
	return nil
}

// Split returns the queries of a split ("human" gives the human-generated
// queries). A split id that is not a query id is an error.
func (qa *QA) Split(name string) ([]Query, error) {
	if name == SplitHuman {
		if len(qa.Human) == 0 {
			return nil, fmt.Errorf("split %q: this question set has no human-generated queries", name)
		}
		return qa.Human, nil
	}
	ids, ok := qa.Splits[name]
	if !ok {
		return nil, fmt.Errorf("split %q: not found (have %v)", name, qa.SplitNames())
	}
	out := make([]Query, 0, len(ids))
	for _, id := range ids {
		q, ok := qa.ByID(id)
		if !ok {
			return nil, fmt.Errorf("split %q: query id %d is not in the question set", name, id)
		}
		out = append(out, *q)
	}
	return out, nil
}
