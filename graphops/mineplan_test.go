package graphops

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-retrieval/strata/data"
)

// taxonomySKB is a small lexical graph. Types: plant (0), group (1),
// act (2). Relations: hypernym (child -> parent), member holonym (member
// -> group). Field "lemmas" lists other names; "definition" is free text.
//
//	0 fern            <- 1 wood fern, 2 tree fern, 3 water fern, 10 royal fern (hypernym)
//	4 genus Dryopteris (group)  <- 1 wood fern, 5 shield fern (member holonym)
//	5 shield fern     -> 6 polypody (hypernym)
//	7 drawing (act)   <- 8 draw, 9 derivation, 11 sketching (hypernym)
//	10 royal fern     <- 12 osmund (hypernym)
func taxonomySKB() *data.SKB {
	s := &data.SKB{Schema: data.Schema{Format: data.FormatSKBDir,
		NodeTypes: []string{"plant", "group", "act"}, RelationTypes: []string{"hypernym", "member holonym"},
		TextFields: []string{"lemmas", "definition"}}}
	add := func(t data.TypeID, name, lemmas, def string) {
		s.Nodes = append(s.Nodes, data.Node{Type: t, Name: name, Fields: []string{lemmas, def}})
	}
	add(0, "fern", "fern", "a flowerless plant")
	add(0, "wood fern", "wood fern; wood-fern; woodfern", "a fern of the genus Dryopteris")
	add(0, "tree fern", "tree fern", "a large fern")
	add(0, "water fern", "water fern", "a floating fern")
	add(1, "Dryopteris", "Dryopteris; genus Dryopteris", "a genus of ferns")
	add(0, "shield fern", "shield fern; buckler fern", "a fern with shield-shaped covers")
	add(0, "polypody", "polypody", "a fern of the family Polypodiaceae")
	add(2, "drawing", "drawing; drawing off", "the act of drawing")
	add(2, "draw", "draw", "the act of drawing a card")
	add(2, "derivation", "derivation", "drawing of fluid away from a diseased part")
	add(0, "royal fern (plant)", "royal fern; royal osmund", "a large fern")
	add(2, "sketching", "sketching", "preliminary drawing")
	add(0, "osmund", "osmund", "a fern of genus Osmunda")
	for _, e := range [][3]uint32{{1, 0, 0}, {2, 0, 0}, {3, 0, 0}, {10, 0, 0}, {1, 1, 4}, {5, 1, 4}, {5, 0, 6},
		{8, 0, 7}, {9, 0, 7}, {11, 0, 7}, {12, 0, 10}} {
		s.Edges.Add(e[0], data.RelID(e[1]), e[2])
	}
	return s
}

// taxonomy builds taxonomySKB's graph (closed when the test ends) and its
// mention index.
func taxonomy(t *testing.T) (*data.SKB, *Graph, *MentionIndex) {
	t.Helper()
	s := taxonomySKB()
	g, err := Build(s)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { g.Close() })
	return s, g, NewMentionIndex(s, MentionConfig{})
}

func TestDirectedSteps(t *testing.T) {
	s := taxonomySKB()
	g, err := Build(s)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	reach := func(path []string, anchor uint32) []uint32 {
		t.Helper()
		_, hops, err := CompilePath(&s.Schema, 0, path)
		if err != nil {
			t.Fatalf("%v: %v", path, err)
		}
		return g.Walk([]uint32{anchor}, hops)
	}
	for _, c := range []struct {
		path   []string
		anchor uint32
		want   []uint32
	}{
		{[]string{"plant", "<-hypernym", "*"}, 0, []uint32{1, 2, 3, 10}},                        // kinds of fern
		{[]string{"plant", "->hypernym", "*"}, 0, nil},                                          // fern has no parent
		{[]string{"plant", "hypernym", "*"}, 5, []uint32{6}},                                    // undirected: shield fern's parent
		{[]string{"plant", "->hypernym", "plant", "<-hypernym", "*"}, 1, []uint32{1, 2, 3, 10}}, // siblings and itself
		{[]string{"plant", "<-hypernym", "*", "<-hypernym", "*"}, 0, []uint32{12}},              // two levels below fern
		{[]string{"plant", "<-hypernym", "*", "<-hypernym", "act"}, 0, nil},                     // typed target
		{[]string{"group", "<-member holonym|->hypernym", "*"}, 4, []uint32{1, 5}},              // alternatives
		{[]string{"plant", "<-member holonym|->hypernym", "*"}, 5, []uint32{6}},
		{[]string{"plant", "*", "*"}, 1, []uint32{0, 4}}, // any relation, any type
	} {
		if got := reach(c.path, c.anchor); !cmp.Equal(got, c.want) {
			t.Errorf("%v from %d: got %v, want %v", c.path, c.anchor, got, c.want)
		}
	}
	// The relation token round trip.
	steps, err := data.ParseRelToken(&s.Schema, "<-member holonym|->hypernym")
	if err != nil || data.RelToken(steps) != "<-member holonym|->hypernym" || steps[0].Dir != data.Backward || steps[1].Dir != data.Forward {
		t.Errorf("ParseRelToken: %+v %v", steps, err)
	}
	if _, err := data.ParseRelToken(&s.Schema, "<-meronym"); err == nil {
		t.Error("unknown relation accepted")
	}
}

func TestMentionIndex(t *testing.T) {
	s := taxonomySKB()
	if got := DetectAliasFields(s); !cmp.Equal(got, []string{"lemmas"}) {
		t.Fatalf("alias fields %v, want [lemmas]", got)
	}
	ix := NewMentionIndex(s, MentionConfig{})
	type m struct {
		text  string
		nodes []uint32
	}
	got := func(q string) []m {
		var out []m
		for _, x := range ix.Find(q) {
			out = append(out, m{x.Text, x.NodeIDs()})
		}
		return out
	}
	// Plural, case and punctuation; the non-first lemma "genus
	// Dryopteris"; overlapping mentions (longest first at a position);
	// "royal fern" from the name without its qualifier and from the lemma.
	want := []m{{"Wood-Ferns", []uint32{1}}, {"Ferns", []uint32{0}}, {"genus Dryopteris", []uint32{4}}, {"Dryopteris", []uint32{4}},
		{"royal fern", []uint32{10}}, {"fern", []uint32{0}}}
	if g := got("Which Wood-Ferns belong to genus Dryopteris, or to royal fern?"); !cmp.Equal(g, want, cmp.AllowUnexported(m{})) {
		t.Errorf("mentions:\n got %+v\nwant %+v", g, want)
	}
	// An ambiguous surface keeps every node it names; stop words alone
	// are not mentions.
	if g := got("the drawing off of a draw"); !cmp.Equal(g, []m{{"drawing off", []uint32{7}}, {"drawing", []uint32{7}}, {"draw", []uint32{8}}}, cmp.AllowUnexported(m{})) {
		t.Errorf("mentions: %+v", g)
	}
	if w := MentionWords("men's U.S. boxes, flies."); w[0].Norm != "men" || w[1].Norm != "us" || w[2].Norm != "box" || w[3].Norm != "fly" {
		t.Errorf("MentionWords: %+v", w)
	}
}

func TestMineIntersection(t *testing.T) {
	_, g, ix := taxonomy(t)
	q := "Which fern belongs to genus Dryopteris?"
	ments := ix.Find(q)
	plans := NewMiner(g, MineConfig{}).Mine(MineInput{Mentions: ments, Answers: []uint32{1}})
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
	wantSteps := [][]MineStep{{{Rel: 0, Dir: data.Backward}}, {{Rel: 1, Dir: data.Backward}}}
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
	in := MineInput{Mentions: ments, Answers: []uint32{9}, Restrict: func(anchors []int) func(uint32) float32 {
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
	plans := NewMiner(g, MineConfig{}).Mine(in)
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
	if p := NewMiner(g, MineConfig{}).Mine(in); p[0].F1 != 0.5 || p[0].Restricted {
		t.Errorf("structure only: %+v", p[0])
	}
}

func TestMineHopsTieAndReachability(t *testing.T) {
	_, g, ix := taxonomy(t)
	// Osmund is two levels below fern: the 2-hop path reaches exactly it.
	plans := NewMiner(g, MineConfig{}).Mine(MineInput{Mentions: ix.Find("kinds of kinds of fern"), Answers: []uint32{12}})
	if len(plans) == 0 || plans[0].F1 != 1 || plans[0].Shape() != "2-hop" || !cmp.Equal(plans[0].Branches[0].Steps, []MineStep{{Rel: 0, Dir: data.Backward}, {Rel: 0, Dir: data.Backward}}) {
		t.Fatalf("plans %+v", plans)
	}
	// MaxHops 1 cannot reach it.
	if p := NewMiner(g, MineConfig{MaxHops: 1}).Mine(MineInput{Mentions: ix.Find("kinds of kinds of fern"), Answers: []uint32{12}}); p != nil {
		t.Errorf("1 hop reached osmund: %+v", p)
	}
	// No mention, no plan.
	if p := NewMiner(g, MineConfig{}).Mine(MineInput{Mentions: ix.Find("nothing here"), Answers: []uint32{12}}); p != nil {
		t.Errorf("plan without mentions: %+v", p)
	}
}

func TestRelationsBetween(t *testing.T) {
	s := taxonomySKB()
	g, err := Build(s)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	if got := g.RelationsBetween(0, 0); !cmp.Equal(got, []data.RelID{0}) {
		t.Errorf("plant-plant relations %v", got)
	}
	if got := g.RelationsBetween(1, 0); !cmp.Equal(got, []data.RelID{1}) {
		t.Errorf("group-plant relations %v", got)
	}
	if got := g.RelationsBetween(1, 2); got != nil {
		t.Errorf("group-act relations %v", got)
	}
	if got := g.Resolver()("plant", "group"); !cmp.Equal(got, []string{"member holonym"}) {
		t.Errorf("resolver %v", got)
	}
}

// Plans of equal F1 go to fewer hops, then fewer anchors.
func TestMineTieRule(t *testing.T) {
	_, g, ix := taxonomy(t)
	find := func(plans []MinedPlan, shape string) *MinedPlan {
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
	plans := NewMiner(g, MineConfig{}).Mine(MineInput{Mentions: ix.Find("a kind of royal fern that is a kind of kind of fern"), Answers: []uint32{12}})
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
	plans = NewMiner(g, MineConfig{}).Mine(MineInput{Mentions: ix.Find("a kind of polypody in Dryopteris"), Answers: []uint32{5}})
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
func everySKB(t *testing.T) *Graph {
	t.Helper()
	s := &data.SKB{Schema: data.Schema{Format: data.FormatSKBDir, NodeTypes: []string{"person", "movie", "genre"},
		RelationTypes: []string{"directed_by", "has_genre"}, TextFields: []string{"name"}}}
	for i, ty := range []data.TypeID{0, 1, 1, 1, 2, 2, 2} {
		s.Nodes = append(s.Nodes, data.Node{Type: ty, Name: fmt.Sprintf("n%d", i), Fields: []string{""}})
	}
	for _, e := range [][3]uint32{{1, 0, 0}, {2, 0, 0}, {3, 0, 0}, {1, 1, 4}, {1, 1, 5}, {2, 1, 4}, {3, 1, 4}, {3, 1, 6}} {
		s.Edges.Add(e[0], data.RelID(e[1]), e[2])
	}
	g, err := Build(s)
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
	ment := []LinkedMention{{Text: "P", Nodes: []FormNode{{Node: 0}}}}
	plans := NewMiner(g, MineConfig{}).Mine(MineInput{Mentions: ment, Answers: []uint32{4}})
	if len(plans) == 0 {
		t.Fatal("no plan")
	}
	best := plans[0]
	want := []MineStep{{Rel: 0, Dir: data.Backward}, {Rel: 1, Dir: data.Forward, Every: true}}
	if best.F1 != 1 || best.Reach != 1 || best.Shape() != "2-hop ∀" || !cmp.Equal(best.Branches[0].Steps, want) {
		t.Fatalf("best plan %+v (%s)", best, best.Shape())
	}
	var union *MinedPlan
	for i := range plans {
		if !plans[i].Universal() && plans[i].Hops() == 2 {
			union = &plans[i]
			break
		}
	}
	if union == nil || union.F1 != 0.5 || union.Reach != 3 {
		t.Errorf("existential 2-hop plan %+v", union)
	}
	plans = NewMiner(g, MineConfig{}).Mine(MineInput{Mentions: ment, Answers: []uint32{4, 5, 6}})
	if len(plans) < 2 || plans[0].Universal() || plans[0].F1 != 1 || !plans[1].Universal() || plans[1].F1 != 0.5 {
		t.Fatalf("all genres: %+v", plans)
	}
}

func TestMineNoUniversal(t *testing.T) {
	g := everySKB(t)
	ment := []LinkedMention{{Text: "P", Nodes: []FormNode{{Node: 0}}}}
	for _, p := range NewMiner(g, MineConfig{NoUniversal: true}).Mine(MineInput{Mentions: ment, Answers: []uint32{4}}) {
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
	g, err := Build(s)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	in := MineInput{
		Mentions: []LinkedMention{{Text: "P", Nodes: []FormNode{{Node: 0}}}},
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
	plans := NewMiner(g, MineConfig{}).Mine(in)
	if len(plans) == 0 {
		t.Fatal("no plan")
	}
	best := plans[0]
	want := []MineStep{{Rel: 0, Dir: data.Backward}, {Rel: 1, Dir: data.Forward}}
	if best.F1 != 1 || !best.RankMiddle || !best.Restricted || math.Abs(best.StructF1-0.8) > 1e-12 || best.Shape() != "2-hop ~" || !cmp.Equal(best.Branches[0].Steps, want) {
		t.Fatalf("best plan %+v (%s)", best, best.Shape())
	}
	// Without a restriction scorer: structure alone, F1 0.8.
	in.Restrict = nil
	if p := NewMiner(g, MineConfig{}).Mine(in); p[0].RankMiddle || math.Abs(p[0].F1-0.8) > 1e-12 {
		t.Errorf("structure only: %+v", p[0])
	}
}
