package data

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseMetapath(t *testing.T) {
	cases := []struct {
		in   string
		want [][]string
		bad  bool
	}{
		{`"institution -> author -> paper <- field_of_study"`, [][]string{{"institution", "*", "author", "*", "paper"}, {"field_of_study", "*", "paper"}}, false},
		{`"product"`, [][]string{{"product"}}, false},
		{`"paper -> paper"`, [][]string{{"paper", "*", "paper"}}, false},
		{`"a -> b <- c <- d"`, [][]string{{"a", "*", "b"}, {"d", "*", "c", "*", "b"}}, false},
		{`""`, nil, false},
		{`null`, nil, false},
		{`[["drug", "target", "gene/protein"], ["anatomy", "expression present", "gene/protein"]]`, [][]string{{"drug", "target", "gene/protein"}, {"anatomy", "expression present", "gene/protein"}}, false},
		{`["brand", "has_brand", "product"]`, [][]string{{"brand", "has_brand", "product"}}, false},
		{`"a -> -> b"`, nil, true},
		{`"a <- b -> c"`, nil, true},
		{`[["drug", "target"]]`, nil, true},
		{`42`, nil, true},
	}
	for _, c := range cases {
		got, err := ParseMetapath(json.RawMessage(c.in))
		if (err != nil) != c.bad {
			t.Errorf("%s: error %v", c.in, err)
			continue
		}
		if !c.bad && !cmp.Equal(Plan{Paths: got}.MetapathTokens(), c.want) {
			t.Errorf("%s: %v, want %q", c.in, got, c.want)
		}
	}
}

func TestParsePythonLiteral(t *testing.T) {
	got, err := ParsePythonLiteral(`{'Metapath': 'field_of_study -> paper', 'Restriction': {'field_of_study': ["it's \"ok\"", 'b'], 'n': (1, 2.5, True, None),}}`)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"Metapath":"field_of_study -> paper","Restriction":{"field_of_study":["it's \"ok\"","b"],"n":[1,2.5,true,null]}}`
	if string(got) != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	for _, bad := range []string{`{'a': }`, `{'a' 1}`, `['x'`, `{'a': 1} extra`, `{'a': nope}`} {
		if _, err := ParsePythonLiteral(bad); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
}

// TestRealMoRPlans reads every MoR plan file of ../shared/data/mor-plans.
func TestRealMoRPlans(t *testing.T) {
	dir := sharedData(t, "mor-plans")
	// plans, empty metapaths, unusable ones. The unusable counts were
	// checked with an independent Python count: paths of even length in the
	// list format ([gene/protein, transporter, drug, side effect/phenotype]),
	// arrow strings where a node has two outgoing arrows ("paper -> author ->
	// paper <- field_of_study -> paper").
	want := map[string][3]int{
		"mag_train": {7993, 172, 17}, "mag_val": {2665, 55, 5}, "mag_test": {2665, 62, 8},
		"amazon_train": {5910, 247, 0}, "amazon_val": {1548, 49, 0}, "amazon_test": {1642, 83, 0},
		"prime_train": {6162, 84, 60}, "prime_val": {2241, 24, 23}, "prime_test": {2801, 54, 25},
	}
	for name, w := range want {
		plans, st, err := ReadPlans(filepath.Join(dir, name+".jsonl"))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if st.Plans != w[0] || st.Empty != w[1] || st.Invalid != w[2] || len(plans) != w[0] {
			t.Errorf("%s: %+v (%d plans), want %v", name, st, len(plans), w)
		}
	}
	plans, _, _ := ReadPlans(filepath.Join(dir, "mag_train.jsonl"))
	p := plans[8631]
	if !cmp.Equal(p.MetapathTokens(), [][]string{{"field_of_study", "*", "paper"}}) || p.Restriction["field_of_study"][0] != "radioactive gallium isotopes" {
		t.Errorf("mag q 8631: %+v", p)
	}
	for name, n := range map[string]int{"mag": 1000, "amazon": 1000, "prime": 1081} {
		ex, st, err := ReadMoRFinetune(filepath.Join(dir, name+"_planner_finetune.jsonl"))
		if err != nil {
			t.Fatalf("%s finetune: %v", name, err)
		}
		if len(ex) != n || st.Plans != n || st.Invalid != 0 {
			t.Errorf("%s finetune: %d examples, %+v", name, len(ex), st)
		}
		if !ex[0].Valid || ex[0].Query == "" {
			t.Errorf("%s finetune first example %+v", name, ex[0])
		}
	}
}

// TestPlanExtensionsRoundTrip: strata's extensions to MoR's plan shape
// (anchors, attributes, named nodes) survive WritePlans and ParsePlans,
// and a plan without them writes none of their keys.
func TestPlanExtensionsRoundTrip(t *testing.T) {
	full := Plan{Paths: MustPaths([][]string{{"person", "<-directed_by", "movie"}}...), Restriction: map[string][]string{"movie": {"2007"}},
		Anchors: []PlanAnchor{{Text: "P1", Nodes: []uint32{0}}}, Attributes: []PlanAttr{{Key: "released", Value: "2007"}}, Named: []uint32{3, 1}}
	bare := Plan{Paths: MustPaths([][]string{{"person", "<-directed_by", "movie"}}...), Restriction: map[string][]string{"person": {"P1"}}}
	var b bytes.Buffer
	if err := WritePlans(&b, []PlanRecord{{QID: 1, Plan: full}, {QID: 2, Plan: bare}}); err != nil {
		t.Fatal(err)
	}
	second := strings.Split(b.String(), "\n")[1]
	for _, k := range []string{"Anchors", "Attributes", "Named"} {
		if strings.Contains(second, k) {
			t.Errorf("a plan without extensions writes %s: %s", k, second)
		}
	}
	got, _, err := ParsePlans(&b, "plans.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if !cmp.Equal(got[1], full) || !cmp.Equal(got[2], bare) {
		t.Errorf("read back %+v and %+v, wrote %+v and %+v", got[1], got[2], full, bare)
	}
}
