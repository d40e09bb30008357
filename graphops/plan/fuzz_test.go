package plan

import (
	"bytes"
	"errors"
	"testing"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/graphops"
)

// FuzzPlanFiles reads plans files (strata's and MoR's lines, with the
// algebra's marks and attributes) and runs every plan the file checker accepts through
// the compiler and the executor on the hand-built movie graph: reading
// fails only with located errors, and compiling or executing only with
// graphops.ErrInvalidPlan (a pattern also with ErrNoPattern), never a
// panic.
func FuzzPlanFiles(f *testing.F) {
	for _, s := range []string{
		`{"q_id": 1, "plan": {"Metapath": [["person", "<-directed_by", "movie", "∀->has_genre", "genre"]], "Restriction": {"person": ["P1"]}}}`,
		`{"q_id": 2, "plan": {"Metapath": [["person", "<-directed_by", "movie~", "->starred_actors", "person"]], "Restriction": {"person": ["2007"]}, "Anchors": [{"text": "P1", "nodes": [0]}]}}`,
		`{"q_id": 3, "plan": {"Metapath": [["person", "*", "movie"], ["genre", "<-has_genre|->has_genre", "movie"]], "Restriction": {"person": ["A1"], "genre": ["G1"]}}}`,
		`{"q_id": 4, "plan": {"Metapath": ["person -> movie"], "Restriction": {}}}`,
		`{"q_id": 5, "plan": {"Metapath": [["person", "<-directed_by", "movie"]], "Restriction": {"movie": ["2007 films"]}, "Anchors": [{"text": "P1", "nodes": [0]}], "Attributes": [{"key": "released in", "value": "2007"}, {"key": "", "value": "French"}]}}`,
		`{"q_id": 6, "plan": {"Metapath": [["person", "<-directed_by", "movie"]], "Attributes": [{"key": "released", "value": " "}]}}`,
		`{"q_id": 7, "plan": {"Metapath": [["person", "<-directed_by", "movie"]], "Restriction": {"movie": ["2007"]}, "Anchors": [{"text": "P1", "nodes": [0]}], "Named": [3, 1]}}`,
	} {
		f.Add([]byte(s + "\n"))
	}
	g, names := movies(f)
	scope := data.PlanScope{Schema: g.Schema(), Nodes: g.NumNodes()}
	f.Fuzz(func(t *testing.T, b []byte) {
		plans, _, err := data.ParsePlans(bytes.NewReader(b), "plans.jsonl")
		if err != nil {
			var pe *data.ParseError
			if !errors.As(err, &pe) || pe.File != "plans.jsonl" {
				t.Fatalf("error %v is not a located ParseError", err)
			}
			return
		}
		probs, _, err := data.ValidatePlansFrom(bytes.NewReader(b), "plans.jsonl", scope)
		if err != nil || len(probs) > 0 {
			return
		}
		for _, p := range plans {
			// SimGRAG's route: a pattern, or ErrInvalidPlan / ErrNoPattern;
			// its expression executes soft or fails as any plan does.
			if pe, pat, err := CompilePattern(g.Schema(), p, g.Resolver()); err != nil {
				if !errors.Is(err, graphops.ErrInvalidPlan) && !errors.Is(err, ErrNoPattern) {
					t.Fatalf("compile pattern %+v: %v", p, err)
				}
			} else {
				if pe == nil || pat.Target < 0 || !pat.Nodes[pat.Target].Unknown {
					t.Fatalf("compile pattern %+v: expression %v, pattern %+v", p, pe, pat)
				}
				if _, err := Exec(Env{Graph: g, Names: names, Text: fakeScorer{3: 1}, SoftEvery: true}, pe); err != nil && !errors.Is(err, graphops.ErrInvalidPlan) {
					t.Fatalf("execute the pattern's expression %+v: %v", p, err)
				}
			}
			e, err := Compile(g.Schema(), p)
			if err != nil {
				if !errors.Is(err, graphops.ErrInvalidPlan) {
					t.Fatalf("compile %+v: %v", p, err)
				}
				continue
			}
			if e == nil {
				continue
			}
			_ = e.Format(g.Schema())
			if _, _, err := ExecuteRanked(g, names, p, fakeScorer{3: 1}); err != nil && !errors.Is(err, graphops.ErrInvalidPlan) {
				t.Fatalf("execute %+v: %v", p, err)
			}
		}
	})
}
