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
		"every rel":  func(p *GraspPlan) { p.Hops[0].Rel = "∀reads" },
		"attribute":  func(p *GraspPlan) { p.Target.Attributes = []PlanAttr{{Key: "year", Value: " "}} },
	} {
		p := good
		p.Anchors = append([]GraspAnchor(nil), good.Anchors...)
		p.Hops = append([]GraspHop(nil), good.Hops...)
		mut(&p)
		if err := p.Validate(s); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	// strata's extensions: a universal step, attributes on the target.
	ext := good
	ext.Hops = []GraspHop{{From: "a", Rel: "∀->writes", ToVar: "p", ToLabel: "paper"}}
	ext.Target.Attributes = []PlanAttr{{Key: "year", Value: "2007"}}
	if err := ext.Validate(s); err != nil {
		t.Errorf("a universal step and an attribute: %v", err)
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
		Paths: MustPaths([][]string{
			{"author", "writes", "paper", "cites", "paper"},
			{"field", "has_topic", "paper"},
		}...),
		Restriction: map[string][]string{"author": {"Ann Lee"}, "field": {"optics"}, "paper": {"about lenses"}},
	}, RiskNormal, nil)
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
	// A universal step stays one; the plan's attributes go to the target.
	g = PlanToGrasp(Plan{Paths: MustPaths([][]string{{"author", "->writes", "paper", "∀->has_topic", "field"}}...),
		Restriction: map[string][]string{"author": {"Ann Lee"}}, Attributes: []PlanAttr{{Key: "since", Value: "1990"}}}, RiskNormal, nil)
	if g.Hops[1].Rel != "∀->has_topic" || !cmp.Equal(g.Target.Attributes, []PlanAttr{{Key: "since", Value: "1990"}}) || g.Validate(graspSchema()) != nil {
		t.Errorf("universal step and attributes: %+v", g)
	}
	if PlanToGrasp(Plan{Paths: MustPaths([][]string{{"paper"}}...)}, RiskNormal, nil).RiskLevel != RiskNoTrade {
		t.Error("a plan without hops is not no_trade")
	}
}

// MoR's MAG and Amazon plans name node types only: "*" relations resolve
// to the relations between the two types; two paths from anchors of one
// type take one restriction each.
func TestPlanToGraspResolvesStar(t *testing.T) {
	s := &Schema{NodeTypes: []string{"institution", "author", "paper", "field_of_study"},
		RelationTypes: []string{"affiliated_with", "writes", "cites", "has_topic"}}
	between := func(a, b string) []string {
		pairs := map[[2]string][]string{
			{"institution", "author"}: {"affiliated_with"}, {"author", "institution"}: {"affiliated_with"},
			{"author", "paper"}: {"writes"}, {"paper", "author"}: {"writes"},
			{"paper", "paper"}: {"cites"}, {"field_of_study", "paper"}: {"has_topic"}, {"paper", "field_of_study"}: {"has_topic"},
		}
		return pairs[[2]string{a, b}]
	}
	raw := `{"Metapath": "institution -> author -> paper <- field_of_study", "Restriction": {"institution": ["EPFL"], "field_of_study": ["optics"], "paper": ["lenses"]}}`
	ps, _, err := ParsePlans(strings.NewReader(`{"q_id": 1, "plan": `+raw+`}`+"\n"), "mag.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	g := PlanToGrasp(ps[1], RiskNormal, between)
	want := GraspPlan{
		Anchors: []GraspAnchor{{Var: "a0", Text: "EPFL", Label: "institution", MatchMode: "name"}, {Var: "a1", Text: "optics", Label: "field_of_study", MatchMode: "name"}},
		Hops: []GraspHop{
			{From: "a0", Rel: "affiliated_with", ToVar: "v0_2", ToLabel: "author"},
			{From: "v0_2", Rel: "writes", ToVar: "t", ToLabel: "paper"},
			{From: "a1", Rel: "has_topic", ToVar: "t", ToLabel: "paper"},
		},
		Target:    GraspTarget{Var: "t", Labels: []string{"paper"}, RelevanceText: "lenses"},
		RiskLevel: RiskNormal,
	}
	if !cmp.Equal(g, want) {
		t.Errorf("got %+v", g)
	}
	if err := g.Validate(s); err != nil {
		t.Error(err)
	}
	// Without a resolver "*" stays (any relation); between types no
	// relation links the plan is no_trade.
	if g := PlanToGrasp(ps[1], RiskNormal, nil); g.Hops[0].Rel != "*" || g.Validate(s) != nil {
		t.Errorf("unresolved: %+v", g.Hops)
	}
	if g := PlanToGrasp(Plan{Paths: MustPaths([][]string{{"institution", "*", "paper"}}...), Restriction: map[string][]string{"institution": {"EPFL"}}}, RiskNormal, between); g.RiskLevel != RiskNoTrade {
		t.Errorf("institution * paper: %+v", g)
	}
	// Two anchors of one type (Prime's "anatomy" twice), several relations
	// between two types, linked anchors and directions carried over.
	g = PlanToGrasp(Plan{Paths: MustPaths([][]string{{"author", "writes", "paper"}, {"author", "->writes", "paper"}}...),
		Anchors: []PlanAnchor{{Text: "Ann", Nodes: []uint32{7}}, {Text: "Bob", Nodes: []uint32{8, 9}}}}, RiskWeak, between)
	if g.Anchors[0].Text != "Ann" || g.Anchors[1].Text != "Bob" || !cmp.Equal(g.Anchors[1].Nodes, []uint32{8, 9}) || g.Hops[1].Rel != "->writes" {
		t.Errorf("linked: %+v", g)
	}
	g = PlanToGrasp(Plan{Paths: MustPaths([][]string{{"author", "*", "paper"}, {"author", "*", "paper"}}...), Restriction: map[string][]string{"author": {"Ann", "Bob"}}},
		RiskWeak, func(a, b string) []string { return []string{"writes", "cites"} })
	if g.Anchors[0].Text != "Ann" || g.Anchors[1].Text != "Bob" || g.Hops[0].Rel != "writes|cites" || g.Validate(s) != nil {
		t.Errorf("two anchors of one type: %+v", g)
	}
}

func FuzzParseGraspPlans(f *testing.F) {
	f.Add(`{"q_id": 1, "plan": {"anchors": [{"var": "a", "text": "Ann", "label": "author", "match_mode": "name"}], "hops": [{"from": "a", "rel": "writes", "to_var": "p", "to_label": "paper"}], "target": {"var": "p", "labels": ["paper"]}, "risk_level": "weak"}}`)
	f.Add(`{"q_id": 2, "plan": {"risk_level": "no_trade"}}`)
	f.Add(`{"q_id": 3, "plan": {"anchors": [{"var": "a", "text": "Ann", "label": "author", "match_mode": "name"}], "hops": [{"from": "a", "rel": "∀->writes", "to_var": "p", "to_label": "paper"}], "target": {"var": "p", "labels": ["paper"], "attributes": [{"key": "year", "value": "2007"}]}, "risk_level": "normal"}}`)
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
