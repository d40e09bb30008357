package synth

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/data/index"
	"github.com/strata-retrieval/strata/graphops"
)

func TestDeterministic(t *testing.T) {
	a, err := Generate(Config{Preset: "mag", Nodes: 1500, Queries: 200, Seed: 42})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Generate(Config{Preset: "mag", Nodes: 1500, Queries: 200, Seed: 42})
	if d := cmp.Diff(a, b, cmpopts.IgnoreUnexported(data.QA{})); d != "" {
		t.Fatalf("same seed, different output:\n%s", d)
	}
	c, _ := Generate(Config{Preset: "mag", Nodes: 1500, Queries: 200, Seed: 43})
	if cmp.Equal(a.SKB.Nodes, c.SKB.Nodes) {
		t.Fatal("different seeds gave identical nodes")
	}
}

func TestConfigErrors(t *testing.T) {
	for _, c := range []Config{{Preset: "imdb"}, {Nodes: 10}, {Queries: -1}, {Edges: -5}} {
		if _, err := Generate(c); err == nil {
			t.Errorf("Generate(%+v) succeeded", c)
		}
	}
}

// TestGoldIsExact re-derives every query's answers from the graph: gold
// answers are exactly the nodes the plan's paths reach that carry every
// restriction property. Amazon lists a product's properties in its feature
// field, so there the check is exact in both directions.
func TestGoldIsExact(t *testing.T) {
	for _, p := range Presets() {
		t.Run(p, func(t *testing.T) {
			res, err := Generate(Config{Preset: p, Nodes: 3000, Queries: 300, Seed: 7})
			if err != nil {
				t.Fatal(err)
			}
			skb := res.SKB
			if len(skb.QA.Queries) != 300 || len(res.Plans) != 300 {
				t.Fatalf("%d queries, %d plans", len(skb.QA.Queries), len(res.Plans))
			}
			if err := skb.Validate(); err != nil {
				t.Fatal(err)
			}
			g, err := graphops.Build(skb)
			if err != nil {
				t.Fatal(err)
			}
			defer g.Close()
			names := graphops.NewNameIndex(skb)
			feature, hasList := skb.Schema.FieldIndex("feature")
			for i, q := range skb.QA.Queries {
				plan := res.Plans[i].Plan
				if res.Plans[i].QID != q.ID || !slices.Equal(res.Plans[i].AnswerIDs, q.Answers) {
					t.Fatalf("plan %d does not match query %d", i, q.ID)
				}
				if len(q.Answers) < 1 || len(q.Answers) > 20 {
					t.Fatalf("query %d has %d answers", q.ID, len(q.Answers))
				}
				pr, err := graphops.ExecutePlan(g, names, plan)
				if err != nil {
					t.Fatalf("query %d: %v", q.ID, err)
				}
				if len(pr.Reach) <= len(q.Answers) {
					t.Fatalf("query %d: reach %d <= gold %d (structure alone decides it)", q.ID, len(pr.Reach), len(q.Answers))
				}
				restr := pr.TargetRestriction
				var want []uint32
				for _, v := range pr.Reach {
					doc := Tokens(skb.Document(v))
					hasAllWords := true
					for _, w := range restr {
						if !slices.Contains(doc, w) {
							hasAllWords = false
						}
					}
					if slices.Contains(q.Answers, v) && !hasAllWords {
						t.Fatalf("query %d: gold %d lacks restriction %v in its text", q.ID, v, restr)
					}
					if hasList {
						props := strings.Split(skb.Nodes[v].Fields[feature], "; ")
						ok := true
						for _, w := range restr {
							ok = ok && slices.Contains(props, w)
						}
						if ok {
							want = append(want, v)
						}
					}
				}
				for _, a := range q.Answers {
					if _, found := slices.BinarySearch(pr.Reach, a); !found {
						t.Fatalf("query %d: gold %d not reached by the plan", q.ID, a)
					}
				}
				if hasList && !slices.Equal(want, q.Answers) {
					t.Fatalf("query %d: gold %v, recomputed %v", q.ID, q.Answers, want)
				}
			}
			tr, va, te := skb.QA.Splits["train"], skb.QA.Splits["val"], skb.QA.Splits["test"]
			if len(tr) != 180 || len(va) != 60 || len(te) != 60 {
				t.Errorf("splits %d/%d/%d, want 180/60/60", len(tr), len(va), len(te))
			}
			all := append(append(append([]int{}, tr...), va...), te...)
			slices.Sort(all)
			for i, id := range all {
				if id != i {
					t.Fatalf("splits do not partition the queries")
				}
			}
		})
	}
}

// Tokens is the BM25 tokenization, for tests.
func Tokens(s string) []string { return index.Tokenize(nil, s) }

func TestSchemasMatchStark(t *testing.T) {
	want := map[string]struct{ types, rels int }{"amazon": {4, 5}, "mag": {4, 4}, "prime": {10, 18}}
	for p, w := range want {
		res, err := Generate(Config{Preset: p, Nodes: 1000, Queries: 20, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		s := res.SKB.Schema
		if len(s.NodeTypes) != w.types || len(s.RelationTypes) != w.rels {
			t.Errorf("%s: %d node types, %d relations; want %d, %d", p, len(s.NodeTypes), len(s.RelationTypes), w.types, w.rels)
		}
		for ri, c := range res.SKB.RelationCounts() {
			if c == 0 {
				t.Errorf("%s: relation %s has no edges", p, s.RelationTypes[ri])
			}
		}
	}
}

func TestEdgesTarget(t *testing.T) {
	res, err := Generate(Config{Preset: "amazon", Nodes: 5000, Queries: 10, Seed: 1, Edges: 100000})
	if err != nil {
		t.Fatal(err)
	}
	if n := res.SKB.Edges.Len(); n < 85000 || n > 105000 {
		t.Errorf("edges = %d, want about 100000", n)
	}
}
