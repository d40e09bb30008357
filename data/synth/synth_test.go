package synth

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/data/index"
	"github.com/strata-retrieval/strata/graphops"
	"github.com/strata-retrieval/strata/graphops/linking"
	gplan "github.com/strata-retrieval/strata/graphops/plan"
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
			names := linking.NewNameIndex(skb)
			feature, hasList := skb.Schema.FieldIndex("feature")
			for i, q := range skb.QA.Queries {
				plan := res.Plans[i].Plan
				if res.Plans[i].QID != q.ID || !slices.Equal(res.Plans[i].AnswerIDs, q.Answers) {
					t.Fatalf("plan %d does not match query %d", i, q.ID)
				}
				if len(q.Answers) < 1 || len(q.Answers) > 20 {
					t.Fatalf("query %d has %d answers", q.ID, len(q.Answers))
				}
				pr, err := gplan.Execute(g, names, plan)
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

// TestSkewWeights checks the hub weights by hand: with Skew 1 a type of
// three nodes weighs 1, 1/2, 1/3 (sum 11/6), so its edge-count multipliers
// are 18/11, 9/11 and 6/11 and the first node is drawn 6/11 of the time.
func TestSkewWeights(t *testing.T) {
	g := &gen{cfg: Config{Skew: 1}, nodes: make([]data.Node, 3), byType: [][]uint32{{2, 0, 1}}}
	sk := g.newSkew()
	for v, want := range map[uint32]float64{2: 18.0 / 11, 0: 9.0 / 11, 1: 6.0 / 11} {
		if d := sk.mult[v] - want; d > 1e-12 || d < -1e-12 {
			t.Errorf("mult[%d] = %v, want %v", v, sk.mult[v], want)
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	count := map[uint32]int{}
	const n = 110000
	for range n {
		count[sk.draw(r, 0, -1, g.byType[0])]++
	}
	for v, want := range map[uint32]float64{2: 6.0 / 11, 0: 3.0 / 11, 1: 2.0 / 11} {
		if got := float64(count[v]) / n; got < want-0.005 || got > want+0.005 {
			t.Errorf("node %d drawn %.4f of the time, want %.4f", v, got, want)
		}
	}
	if (&gen{cfg: Config{}}).newSkew() != nil {
		t.Error("Skew 0 built hub weights")
	}
}

// TestSkewHubs: with Skew 1 the generated prime graph has hubs (the
// largest degree far above the uniform graph's), keeps its edge target
// within 15%, and its gold answers stay exact (the plans reach them).
func TestSkewHubs(t *testing.T) {
	maxDeg := func(skb *data.SKB) int {
		deg := make([]int, len(skb.Nodes))
		for i := range skb.Edges.Src {
			deg[skb.Edges.Src[i]]++
			deg[skb.Edges.Dst[i]]++
		}
		return slices.Max(deg)
	}
	flat, err := Generate(Config{Preset: "prime", Nodes: 6000, Queries: 100, Seed: 3, Edges: 36000})
	if err != nil {
		t.Fatal(err)
	}
	hubs, err := Generate(Config{Preset: "prime", Nodes: 6000, Queries: 100, Seed: 3, Edges: 36000, Skew: 1})
	if err != nil {
		t.Fatal(err)
	}
	if n := hubs.SKB.Edges.Len(); n < 30600 || n > 36000 {
		t.Errorf("skewed graph has %d edges, want 36000 within 15%%", n)
	}
	f, h := maxDeg(flat.SKB), maxDeg(hubs.SKB)
	t.Logf("largest degree %d without skew, %d with; %d edges", f, h, hubs.SKB.Edges.Len())
	if h < 10*f {
		t.Errorf("no hubs")
	}
	if len(hubs.SKB.QA.Queries) != 100 {
		t.Errorf("%d queries, want 100", len(hubs.SKB.QA.Queries))
	}
	if _, err := Generate(Config{Skew: -1}); err == nil {
		t.Error("Skew -1 accepted")
	}
}
