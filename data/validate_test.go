package data

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A plans file is checked against the schema and the questions: every
// unknown q_id, node type, relation, restriction key and anchor node is a
// problem at file:line with its field (ReadPlans keeps such plans as
// textual fallbacks without a word).
func TestValidatePlans(t *testing.T) {
	skb := tinySKB() // product, brand; has_brand, also_buy; queries 3 and 7, human 0
	lines := []string{
		`{"q_id":3,"plan":{"Metapath":[["brand","has_brand","product"]],"Restriction":{"brand":["Acme"]}}}`,
		`{"q_id":7,"plan":{"Metapath":"brand -> product","Restriction":{"product":["fast"]}}}`,
		`{"q_id":0,"plan":{"Metapath":[["*","->has_brand|also_buy","product"]],"Anchors":[{"text":"x","nodes":[2]}]}}`,
		`{"q_id":12,"plan":{"Metapath":[["brand","has_brand","product"]]}}`,
		`{"q_id":13,"plan":{"Metapath":[["gene","has_brand","product"]]}}`,
		`{"q_id":14,"plan":{"Metapath":[["brand","makes","product"]],"Restriction":{"shop":["x"]}}}`,
		`{"q_id":15,"plan":{"Metapath":[["brand","has_brand","product"]],"Anchors":[{"text":"x","nodes":[1,9]}]}}`,
		`{"q_id":16,"plan":{"Metapath":[["brand","has_brand"]]}}`,
		`{"q_id":17,"plan":{"Metapath":[["brand","has_brand","product"]],"Named":[0,40]}}`,
	}
	qa := skb.QA
	qa.Queries = append(qa.Queries, Query{ID: 13}, Query{ID: 14}, Query{ID: 15}, Query{ID: 16}, Query{ID: 17})
	qa.Index()
	p := filepath.Join(t.TempDir(), "plans.jsonl")
	os.WriteFile(p, []byte(strings.Join(lines, "\n")+"\n"), 0o644)
	probs, total, err := ValidatePlans(p, ScopeOf(skb))
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		line     int
		field    string
		sentinel error
	}{
		{4, "q_id", ErrIDRange},
		{5, "plan.Metapath[0][0]", ErrUnknownType},
		{6, "plan.Metapath[0][1]", ErrUnknownRelation},
		{6, "plan.Restriction.shop", ErrUnknownType},
		{7, "plan.Anchors[0].nodes[1]", ErrIDRange},
		{8, "plan", ErrSyntax},
		{9, "plan.Named[1]", ErrIDRange},
	}
	if total != len(want) || len(probs) != len(want) {
		t.Fatalf("%d problems (%d kept), want %d: %v", total, len(probs), len(want), probs)
	}
	for i, w := range want {
		pe := probs[i]
		if pe.File != p || pe.Line != w.line || pe.Field != w.field || !errors.Is(pe, w.sentinel) {
			t.Errorf("problem %d: %v, want line %d field %q (%v)", i, pe, w.line, w.field, w.sentinel)
		}
	}
	if !strings.Contains(probs[1].Error(), `plans.jsonl:5: field "plan.Metapath[0][0]": unknown node type: "gene" is not a node type of the schema`) {
		t.Errorf("message %q", probs[1])
	}
	// The same file read leniently keeps every line.
	plans, st, err := ReadPlans(p)
	if err != nil || len(plans) != 9 || st.Invalid != 1 {
		t.Errorf("ReadPlans: %d plans, %+v, %v", len(plans), st, err)
	}
}

func TestValidateGraspPlansAndPatterns(t *testing.T) {
	skb := tinySKB()
	dir := t.TempDir()
	g := filepath.Join(dir, "grasp.jsonl")
	os.WriteFile(g, []byte(`{"q_id":3,"plan":{"anchors":[{"var":"b","text":"Acme","label":"brand","match_mode":"name"}],"hops":[{"from":"b","rel":"has_brand","to_var":"p","to_label":"product"}],"target":{"var":"p"},"risk_level":"normal"}}
{"q_id":99,"plan":{"risk_level":"no_trade"}}
{"q_id":7,"plan":{"anchors":[{"var":"b","text":"Acme","label":"maker","match_mode":"name"}],"target":{"var":"b"},"risk_level":"normal"}}
`), 0o644)
	probs, total, err := ValidateGraspPlans(g, ScopeOf(skb))
	if err != nil || total != 2 || probs[0].Line != 2 || probs[0].Field != "q_id" || probs[1].Line != 3 || !errors.Is(probs[1], ErrInvalidPlan) {
		t.Errorf("grasp: %v %d %v", probs, total, err)
	}
	pt := filepath.Join(dir, "patterns.jsonl")
	os.WriteFile(pt, []byte(`{"q_id":7,"triples":[["a","r","UNKNOWN"]],"target":"UNKNOWN"}`+"\n"+`{"q_id":70,"triples":[]}`+"\n"), 0o644)
	probs, total, err = ValidatePatterns(pt, skb.QA)
	if err != nil || total != 1 || probs[0].Line != 2 || probs[0].Field != "q_id" {
		t.Errorf("patterns: %v %d %v", probs, total, err)
	}
}

// CheckPlans applies the policy: a strata-written file may have no
// problem; any other may name unknown types or relations on up to half of
// its lines (reported), but no q_id the workspace lacks.
func TestCheckPlans(t *testing.T) {
	skb := tinySKB() // queries 3 and 7, human 0
	good := func(id int) string {
		return fmt.Sprintf(`{"q_id":%d,"plan":{"Metapath":[["brand","has_brand","product"]]}}`, id)
	}
	badType := func(id int) string {
		return fmt.Sprintf(`{"q_id":%d,"plan":{"Metapath":[["gene","has_brand","product"]],"Restriction":{"shop":["x"]}}}`, id)
	}
	dir := t.TempDir()
	file := func(name string, lines ...string) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(strings.Join(lines, "\n")+"\n"), 0o644)
		return p
	}
	clean := file("clean.jsonl", good(3), good(7), good(0))
	oneBad := file("one.jsonl", good(3), badType(7), good(0))
	mostBad := file("most.jsonl", badType(3), badType(7), good(0))
	otherQs := file("qids.jsonl", good(3), good(41), good(42))
	for _, c := range []struct {
		path    string
		policy  PlanPolicy
		warning string
		err     string
	}{
		{clean, Lenient, "", ""},
		{clean, Strict, "", ""},
		{oneBad, Lenient, oneBad + `: 1 of 3 plans name node types or relations the schema lacks (2 problems; such queries fall back to textual retrieval): ` +
			oneBad + `:2: field "plan.Metapath[0][0]": unknown node type: "gene" is not a node type of the schema; ` +
			oneBad + `:2: field "plan.Restriction.shop": unknown node type: restriction key "shop" is not a node type of the schema`, ""},
		{oneBad, Strict, "", oneBad + `: 2 problems on 1 of 3 lines (a plans file strata wrote must fit its workspace: was it made for another?): ` + oneBad + `:2: field "plan.Metapath[0][0]"`},
		{mostBad, Lenient, "", mostBad + `: 2 of 3 plans do not fit the workspace's schema (a plans file for another data set?): ` + mostBad + `:1: field "plan.Metapath[0][0]"`},
		{otherQs, Lenient, "", otherQs + `: 2 of 3 lines name questions the workspace does not have (a plans file for other questions?): ` +
			otherQs + `:2: field "q_id": id out of range: query 41 is not in the workspace's questions; ` + otherQs + `:3: field "q_id"`},
	} {
		w, err := CheckPlans(c.path, ScopeOf(skb), c.policy)
		if w != c.warning {
			t.Errorf("%s %v: warning %q\nwant %q", filepath.Base(c.path), c.policy, w, c.warning)
		}
		if (c.err == "") != (err == nil) || (err != nil && !strings.HasPrefix(err.Error(), c.err)) {
			t.Errorf("%s %v: error %v\nwant %q...", filepath.Base(c.path), c.policy, err, c.err)
		}
	}
}
