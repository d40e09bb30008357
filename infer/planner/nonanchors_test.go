package planner

import (
	"context"
	"hash/fnv"
	"slices"
	"strings"
	"testing"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/graphops/linking"
)

// TestLearnNonAnchors: a text found unquoted in five questions that no
// plan anchored is a non-anchor ("things"); one anchored once ("kinds"),
// one quoted once ("purple": a value a question states), and one found in
// four questions only ("rare") are not. A question counts a text once,
// and an anchor overlapping a mention anchors it.
func TestLearnNonAnchors(t *testing.T) {
	var texts []string
	var ments [][]linking.LinkedMention
	var anchors [][]int
	add := func(text string, anchor string, words ...string) {
		t.Helper()
		var ms []linking.LinkedMention
		for _, w := range words {
			i := strings.Index(text, w)
			if i < 0 {
				t.Fatalf("%q not in %q", w, text)
			}
			tok := len(strings.Fields(text[:i]))
			ms = append(ms, linking.LinkedMention{Start: i, End: i + len(w), TokStart: tok, TokEnd: tok + len(strings.Fields(w)), Text: w})
		}
		var as []int
		for mi, m := range ms {
			if m.Text == anchor {
				as = append(as, mi)
			}
		}
		texts, ments, anchors = append(texts, text), append(ments, ms), append(anchors, as)
	}
	for range 4 {
		add("Which things are kinds of rare ape?", "ape", "things", "kinds", "rare", "ape")
		add("Which purple things are kinds of dog?", "dog", "purple", "things", "kinds", "dog")
	}
	add("Which things things are kinds of fish?", "fish", "things", "things", "kinds", "fish")
	add("List the kinds of cat.", "kinds", "kinds", "cat")
	add("Which cat is defined with 'purple'?", "cat", "cat", "purple")
	got := LearnNonAnchors(texts, ments, anchors)
	if want := []string{"things"}; !slices.Equal(got, want) {
		t.Errorf("LearnNonAnchors = %v, want %v", got, want)
	}
}

// TestNonAnchors: "Which things are members of Solea?" where the kinds
// template is the classifier's first (probability 0.88) and a ranker that
// trusts it (weight 5 on its probability's bucket) anchors it on "things",
// whose kind is object; with "things" a non-anchor that candidate is ruled
// out and the members of Solea answer (fish one). Without NonAnchors the
// ranker's choice stands.
func TestNonAnchors(t *testing.T) {
	planner := func(non []string) *LinkingPlanner {
		p := filmPlanner(t, []string{"kind_of", "member_of"}, []string{"things", "Solea", "fish one", "object"},
			[][3]int{{3, 0, 0}, {2, 1, 1}},
			[][][]string{{{"*", "<-kind_of", "person"}}, {{"*", "<-member_of", "person"}}},
			AnchorConfig{NonAnchors: non})
		clear(p.Gate.W2.Data())
		copy(p.Gate.B2.Data(), []float32{2, 0})
		h := fnv.New32a()
		h.Write([]byte("tlp0"))
		h.Write([]byte{0})
		p.Ranker.W.Data()[h.Sum32()%uint32(p.Ranker.Dim)] = 5
		return p
	}
	q := data.Query{Text: "Which things are members of Solea?", ID: -1}
	for _, c := range []struct {
		non  []string
		want uint32
	}{{[]string{"things"}, 2}, {nil, 3}} {
		pred, err := planner(c.non).Predict(context.Background(), q)
		if err != nil || pred.Reach == nil || !slices.Equal(pred.Reach.Nodes, []uint32{c.want}) {
			t.Errorf("NonAnchors %v: %q planned %v reaching %v (%v), want [%d]", c.non, q.Text, pred.Plan.MetapathTokens(), pred.Reach, err, c.want)
		}
	}
}
