package data

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func graspSchema() *Schema {
	return &Schema{NodeTypes: []string{"paper", "author", "field"}, RelationTypes: []string{"writes", "cites", "has_topic"}}
}

func TestGraspPlanValidate(t *testing.T) {
	s := graspSchema()
	good := GraspPlan{
		Anchors:   []GraspAnchor{{Var: "a", Text: "Ann Lee", Label: "author", MatchMode: "name"}},
		Hops:      []GraspHop{{From: "a", Rel: "writes", ToVar: "p", ToLabel: "paper"}},
		Target:    GraspTarget{Var: "p", Labels: []string{"paper"}, RelevanceText: "optics"},
		RiskLevel: RiskNormal,
	}
	if err := good.Validate(s); err != nil {
		t.Fatal(err)
	}
	for name, mut := range map[string]func(p *GraspPlan){
		"risk":       func(p *GraspPlan) { p.RiskLevel = "bold" },
		"label":      func(p *GraspPlan) { p.Anchors[0].Label = "venue" },
		"match mode": func(p *GraspPlan) { p.Anchors[0].MatchMode = "fuzzy" },
		"rel":        func(p *GraspPlan) { p.Hops[0].Rel = "reads" },
		"unbound":    func(p *GraspPlan) { p.Hops[0].From = "x" },
		"target":     func(p *GraspPlan) { p.Target.Var = "q" },
		"relabel": func(p *GraspPlan) {
			p.Hops = append(p.Hops, GraspHop{From: "a", Rel: "writes", ToVar: "p", ToLabel: "field"})
		},
		"no anchors": func(p *GraspPlan) { p.Anchors = nil },
	} {
		p := good
		p.Anchors = append([]GraspAnchor(nil), good.Anchors...)
		p.Hops = append([]GraspHop(nil), good.Hops...)
		mut(&p)
		if err := p.Validate(s); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	in := `{"q_id": 1, "plan": {"anchors": [{"var": "a", "text": "Ann", "label": "author", "match_mode": "name"}], "hops": [{"from": "a", "rel": "writes", "to_var": "p", "to_label": "paper"}], "target": {"var": "p", "labels": ["paper"], "relevance_text": ""}, "risk_level": "weak"}}
{"q_id": 2, "plan": {"anchors": [], "hops": [], "target": {"var": "p"}, "risk_level": "normal"}}
{"q_id": 3, "plan": {"risk_level": "no_trade"}}
{"q_id": 4, "plan": "not a plan"}
`
	ps, st, err := ParseGraspPlans(strings.NewReader(in), "plans.jsonl", s)
	if err != nil {
		t.Fatal(err)
	}
	if st != (GraspStats{Plans: 4, Invalid: 2, NoTrade: 3}) || ps[1].RiskLevel != RiskWeak || ps[2].RiskLevel != RiskNoTrade || ps[4].RiskLevel != RiskNoTrade {
		t.Errorf("stats %+v plans %+v", st, ps)
	}
	if _, _, err := ParseGraspPlans(strings.NewReader("{\"q_id\": 1, \n"), "plans.jsonl", s); err == nil || !strings.Contains(err.Error(), "plans.jsonl:1") {
		t.Errorf("bad JSON: %v", err)
	}
}

func TestPlanToGrasp(t *testing.T) {
	g := PlanToGrasp(Plan{
		Metapath: [][]string{
			{"author", "writes", "paper", "cites", "paper"},
			{"field", "has_topic", "paper"},
		},
		Restriction: map[string][]string{"author": {"Ann Lee"}, "field": {"optics"}, "paper": {"about lenses"}},
	}, RiskNormal)
	want := GraspPlan{
		Anchors: []GraspAnchor{{Var: "a0", Text: "Ann Lee", Label: "author", MatchMode: "name"}, {Var: "a1", Text: "optics", Label: "field", MatchMode: "name"}},
		Hops: []GraspHop{
			{From: "a0", Rel: "writes", ToVar: "v0_2", ToLabel: "paper"},
			{From: "v0_2", Rel: "cites", ToVar: "t", ToLabel: "paper"},
			{From: "a1", Rel: "has_topic", ToVar: "t", ToLabel: "paper"},
		},
		Target:    GraspTarget{Var: "t", Labels: []string{"paper"}, RelevanceText: "about lenses"},
		RiskLevel: RiskNormal,
	}
	if !cmp.Equal(g, want) {
		t.Errorf("got %+v", g)
	}
	if err := g.Validate(graspSchema()); err != nil {
		t.Error(err)
	}
	if PlanToGrasp(Plan{Metapath: [][]string{{"paper"}}}, RiskNormal).RiskLevel != RiskNoTrade {
		t.Error("a plan without hops is not no_trade")
	}
}

func FuzzParseGraspPlans(f *testing.F) {
	f.Add(`{"q_id": 1, "plan": {"anchors": [{"var": "a", "text": "Ann", "label": "author", "match_mode": "name"}], "hops": [{"from": "a", "rel": "writes", "to_var": "p", "to_label": "paper"}], "target": {"var": "p", "labels": ["paper"]}, "risk_level": "weak"}}`)
	f.Add(`{"q_id": 2, "plan": {"risk_level": "no_trade"}}`)
	s := graspSchema()
	f.Fuzz(func(t *testing.T, in string) {
		ps, st, err := ParseGraspPlans(strings.NewReader(in), "f", s)
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("unlocated error %v", err)
			}
			return
		}
		if st.Plans != len(ps) {
			t.Fatalf("%d plans counted, %d kept", st.Plans, len(ps))
		}
		for _, p := range ps {
			if err := p.Validate(s); err != nil {
				t.Fatalf("kept an invalid plan: %v", err)
			}
		}
	})
}
