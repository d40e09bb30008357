package mine

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/graphops"
	"github.com/strata-retrieval/strata/graphops/linking"
	"github.com/strata-retrieval/strata/internal/testskb"
)

// taxonomy builds taxonomySKB's graph (closed when the test ends) and its
// mention index.
func taxonomy(t *testing.T) (*data.SKB, *graphops.Graph, *linking.MentionIndex) {
	t.Helper()
	s := testskb.Taxonomy()
	g, err := graphops.Build(s)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { g.Close() })
	return s, g, linking.NewMentionIndex(s, linking.MentionConfig{})
}

func TestMineIntersection(t *testing.T) {
	_, g, ix := taxonomy(t)
	q := "Which fern belongs to genus Dryopteris?"
	ments := ix.Find(q)
	plans := NewMiner(g, Config{}).Mine(Input{Mentions: ments, Answers: []uint32{1}})
	if len(plans) == 0 {
		t.Fatal("no plan")
	}
	best := plans[0]
	// Alone: the kinds of fern {1,2,3,10} give F1 = 2·(1/4)·1/(1/4+1) = 0.4;
	// the members of Dryopteris {1,5} give 2/3; together {1}: 1.
	if best.F1 != 1 || best.StructF1 != 1 || best.Restricted || best.Reach != 1 || best.Hits != 1 || best.Shape() != "1-hop ∩ 1-hop" {
		t.Fatalf("best plan %+v (%s)", best, best.Shape())
	}
	if ments[best.Branches[0].Mention].Text != "fern" || ments[best.Branches[1].Mention].Text != "genus Dryopteris" {
		t.Errorf("anchors %q, %q", ments[best.Branches[0].Mention].Text, ments[best.Branches[1].Mention].Text)
	}
	wantSteps := [][]Step{{{Rel: 0, Dir: data.Backward}}, {{Rel: 1, Dir: data.Backward}}}
	for i, b := range best.Branches {
		if !cmp.Equal(b.Steps, wantSteps[i]) {
			t.Errorf("branch %d steps %v, want %v", i, b.Steps, wantSteps[i])
		}
	}
	var single []float64
	for _, p := range plans[1:] {
		if len(p.Branches) == 1 && len(p.Branches[0].Steps) == 1 {
			single = append(single, p.F1)
		}
	}
	// Dryopteris is mentioned twice ("genus Dryopteris" and the nested
	// "Dryopteris"), fern once.
	if len(single) != 3 || math.Abs(single[0]-2.0/3) > 1e-12 || math.Abs(single[1]-2.0/3) > 1e-12 || math.Abs(single[2]-0.4) > 1e-12 {
		t.Errorf("single-anchor F1s %v, want [0.667 0.667 0.4]", single)
	}
}

func TestMineRestriction(t *testing.T) {
	s, g, ix := taxonomy(t)
	q := "Which kind of drawing off is 'drawing of fluid away from a diseased part'?"
	ments := ix.Find(q)
	var anchorsSeen [][]int
	in := Input{Mentions: ments, Answers: []uint32{9}, Restrict: func(anchors []int) func(uint32) float32 {
		anchorsSeen = append(anchorsSeen, anchors)
		// A stand-in for BM25 of the rest of the question: the words of
		// the definition it shares.
		rest := strings.ToLower(q)
		return func(v uint32) float32 {
			n := float32(0)
			for _, w := range strings.Fields(s.Nodes[v].Fields[1]) {
				if len(w) > 3 && strings.Contains(rest, w) {
					n++
				}
			}
			return n
		}
	}}
	plans := NewMiner(g, Config{}).Mine(in)
	if len(plans) == 0 {
		t.Fatal("no plan")
	}
	best := plans[0]
	// The kinds of drawing {8, 9, 11}: structure alone F1 = 2·(1/3)/(4/3)
	// = 0.5; ranked by the restriction, derivation (9) shares "fluid",
	// "away", "from", "diseased", "part" and comes first: F1 = 1.
	if best.F1 != 1 || !best.Restricted || math.Abs(best.StructF1-0.5) > 1e-12 || best.Reach != 3 || best.Shape() != "1-hop" {
		t.Fatalf("best plan %+v", best)
	}
	if a := ments[best.Branches[0].Mention]; a.Text != "drawing off" || best.Branches[0].Anchor != 7 {
		t.Errorf("anchor %q node %d", a.Text, best.Branches[0].Anchor)
	}
	if len(anchorsSeen) == 0 {
		t.Error("the restriction was never scored")
	}
	// Without a restriction scorer the structure decides: F1 0.5.
	in.Restrict = nil
	if p := NewMiner(g, Config{}).Mine(in); p[0].F1 != 0.5 || p[0].Restricted {
		t.Errorf("structure only: %+v", p[0])
	}
}

func TestMineHopsTieAndReachability(t *testing.T) {
	_, g, ix := taxonomy(t)
	// Osmund is two levels below fern: the 2-hop path reaches exactly it.
	plans := NewMiner(g, Config{}).Mine(Input{Mentions: ix.Find("kinds of kinds of fern"), Answers: []uint32{12}})
	if len(plans) == 0 || plans[0].F1 != 1 || plans[0].Shape() != "2-hop" || !cmp.Equal(plans[0].Branches[0].Steps, []Step{{Rel: 0, Dir: data.Backward}, {Rel: 0, Dir: data.Backward}}) {
		t.Fatalf("plans %+v", plans)
	}
	// MaxHops 1 cannot reach it.
	if p := NewMiner(g, Config{MaxHops: 1}).Mine(Input{Mentions: ix.Find("kinds of kinds of fern"), Answers: []uint32{12}}); p != nil {
		t.Errorf("1 hop reached osmund: %+v", p)
	}
	// No mention, no plan.
	if p := NewMiner(g, Config{}).Mine(Input{Mentions: ix.Find("nothing here"), Answers: []uint32{12}}); p != nil {
		t.Errorf("plan without mentions: %+v", p)
	}
}

// Plans of equal F1 go to fewer hops, then fewer anchors.
func TestMineTieRule(t *testing.T) {
	_, g, ix := taxonomy(t)
	find := func(plans []Plan, shape string) *Plan {
		for i := range plans {
			if plans[i].Shape() == shape {
				return &plans[i]
			}
		}
		return nil
	}
	// Osmund (12) is the one kind of royal fern (10) and the one kind of a
	// kind of fern (0): 1-hop from royal fern and 2-hop from fern both have
	// F1 1; the 1-hop plan wins.
	plans := NewMiner(g, Config{}).Mine(Input{Mentions: ix.Find("a kind of royal fern that is a kind of kind of fern"), Answers: []uint32{12}})
	if len(plans) == 0 {
		t.Fatal("no plan")
	}
	if two := find(plans, "2-hop"); two == nil || two.F1 != 1 {
		t.Fatalf("the 2-hop plan of F1 1 is missing: %+v", plans)
	}
	if b := plans[0]; b.F1 != 1 || b.Shape() != "1-hop" || b.Branches[0].Anchor != 10 {
		t.Errorf("best %+v, want the 1-hop plan from royal fern (10)", b)
	}
	// Shield fern (5) is the one kind of polypody (6), and polypody's kinds
	// ∩ Dryopteris' (4) members is {5} too: both F1 1; one anchor wins.
	plans = NewMiner(g, Config{}).Mine(Input{Mentions: ix.Find("a kind of polypody in Dryopteris"), Answers: []uint32{5}})
	if len(plans) == 0 {
		t.Fatal("no plan")
	}
	if both := find(plans, "1-hop ∩ 1-hop"); both == nil || both.F1 != 1 {
		t.Fatalf("the intersection of F1 1 is missing: %+v", plans)
	}
	if b := plans[0]; b.F1 != 1 || b.Shape() != "1-hop" || len(b.Branches) != 1 || b.Branches[0].Anchor != 6 {
		t.Errorf("best %+v, want the 1-hop plan from polypody (6)", b)
	}
}

// everySKB: person P (0) directed films F1-F3 (1-3); genres G1-G3 (4-6).
// F1 has G1 and G2, F2 has G1, F3 has G1 and G3: G1 is the genre every
// film of P has, G2 and G3 genres of some.
func everySKB(t *testing.T) *graphops.Graph {
	t.Helper()
	s := &data.SKB{Schema: data.Schema{Format: data.FormatSKBDir, NodeTypes: []string{"person", "movie", "genre"},
		RelationTypes: []string{"directed_by", "has_genre"}, TextFields: []string{"name"}}}
	for i, ty := range []data.TypeID{0, 1, 1, 1, 2, 2, 2} {
		s.Nodes = append(s.Nodes, data.Node{Type: ty, Name: fmt.Sprintf("n%d", i), Fields: []string{""}})
	}
	for _, e := range [][3]uint32{{1, 0, 0}, {2, 0, 0}, {3, 0, 0}, {1, 1, 4}, {1, 1, 5}, {2, 1, 4}, {3, 1, 4}, {3, 1, 6}} {
		s.Edges.Add(e[0], data.RelID(e[1]), e[2])
	}
	g, err := graphops.Build(s)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { g.Close() })
	return g
}

// TestMineUniversalStep: for "the genre every film of P has" (G1) the
// existential path P <-directed_by- films -has_genre-> reaches G1, G2, G3
// (F1 = 2·(1/3)/(4/3) = 0.5); its universal form reaches G1 alone (F1 1)
// and wins. When all three genres are the answers the existential path
// fits (F1 1) and the universal one (1 of 3: F1 0.5) ranks below it.
func TestMineUniversalStep(t *testing.T) {
	g := everySKB(t)
	ment := []linking.LinkedMention{{Text: "P", Nodes: []linking.FormNode{{Node: 0}}}}
	plans := NewMiner(g, Config{}).Mine(Input{Mentions: ment, Answers: []uint32{4}})
	if len(plans) == 0 {
		t.Fatal("no plan")
	}
	best := plans[0]
	want := []Step{{Rel: 0, Dir: data.Backward}, {Rel: 1, Dir: data.Forward, Every: true}}
	if best.F1 != 1 || best.Reach != 1 || best.Shape() != "2-hop ∀" || !cmp.Equal(best.Branches[0].Steps, want) {
		t.Fatalf("best plan %+v (%s)", best, best.Shape())
	}
	var union *Plan
	for i := range plans {
		if !plans[i].Universal() && plans[i].Hops() == 2 {
			union = &plans[i]
			break
		}
	}
	if union == nil || union.F1 != 0.5 || union.Reach != 3 {
		t.Errorf("existential 2-hop plan %+v", union)
	}
	plans = NewMiner(g, Config{}).Mine(Input{Mentions: ment, Answers: []uint32{4, 5, 6}})
	if len(plans) < 2 || plans[0].Universal() || plans[0].F1 != 1 || !plans[1].Universal() || plans[1].F1 != 0.5 {
		t.Fatalf("all genres: %+v", plans)
	}
}

func TestMineNoUniversal(t *testing.T) {
	g := everySKB(t)
	ment := []linking.LinkedMention{{Text: "P", Nodes: []linking.FormNode{{Node: 0}}}}
	for _, p := range NewMiner(g, Config{NoUniversal: true}).Mine(Input{Mentions: ment, Answers: []uint32{4}}) {
		if p.Universal() {
			t.Fatalf("a universal plan with NoUniversal: %+v", p)
		}
	}
}

// TestMineRankedMiddle: "the cast of the 2007 films directed by P" (A1 and
// A3, the casts of F1 and F3; F2 is from 1999). The path P <-directed_by-
// films -starred_actors-> people reaches A1, A2, A3 (F1 = 2·(2/3)/(5/3) =
// 0.8); people's text says nothing, so the restriction on the target
// cannot help; ranking the films by it (F1 and F3 match "2007") and the
// people by their best film puts A1 and A3 first: F1 1.
func TestMineRankedMiddle(t *testing.T) {
	s := &data.SKB{Schema: data.Schema{Format: data.FormatSKBDir, NodeTypes: []string{"person", "movie"},
		RelationTypes: []string{"directed_by", "starred_actors"}, TextFields: []string{"name", "details"}}}
	for i, n := range []struct {
		ty      data.TypeID
		details string
	}{{0, ""}, {1, "Released in 2007."}, {1, "Released in 1999."}, {1, "Released in 2007."}, {0, ""}, {0, ""}, {0, ""}} {
		s.Nodes = append(s.Nodes, data.Node{Type: n.ty, Name: fmt.Sprintf("n%d", i), Fields: []string{"", n.details}})
	}
	for _, e := range [][3]uint32{{1, 0, 0}, {2, 0, 0}, {3, 0, 0}, {1, 1, 4}, {2, 1, 5}, {3, 1, 6}} {
		s.Edges.Add(e[0], data.RelID(e[1]), e[2])
	}
	g, err := graphops.Build(s)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	in := Input{
		Mentions: []linking.LinkedMention{{Text: "P", Nodes: []linking.FormNode{{Node: 0}}}},
		Answers:  []uint32{4, 6},
		Restrict: func([]int) func(uint32) float32 {
			return func(v uint32) float32 {
				if strings.Contains(g.Field(v, 1), "2007") {
					return 1.5
				}
				return 0
			}
		},
	}
	plans := NewMiner(g, Config{}).Mine(in)
	if len(plans) == 0 {
		t.Fatal("no plan")
	}
	best := plans[0]
	want := []Step{{Rel: 0, Dir: data.Backward}, {Rel: 1, Dir: data.Forward}}
	if best.F1 != 1 || !best.RankMiddle || !best.Restricted || math.Abs(best.StructF1-0.8) > 1e-12 || best.Shape() != "2-hop ~" || !cmp.Equal(best.Branches[0].Steps, want) {
		t.Fatalf("best plan %+v (%s)", best, best.Shape())
	}
	// Without a restriction scorer: structure alone, F1 0.8.
	in.Restrict = nil
	if p := NewMiner(g, Config{}).Mine(in); p[0].RankMiddle || math.Abs(p[0].F1-0.8) > 1e-12 {
		t.Errorf("structure only: %+v", p[0])
	}
}
