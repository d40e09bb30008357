package linking

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/strata-retrieval/strata/data"
)

func TestLinker(t *testing.T) {
	skb := &data.SKB{Schema: data.Schema{NodeTypes: []string{"x"}}}
	for _, n := range []string{"Acme", "Acme Outdoor", "door", "TP53", "New York", "York", "a"} {
		skb.Nodes = append(skb.Nodes, data.Node{Name: n})
	}
	skb.Nodes = append(skb.Nodes, data.Node{Name: "acme"}) // same name, another node
	l := NewLinker(skb, 2)
	cases := []struct {
		text string
		want []string
	}{
		{"Boots from ACME OUTDOOR for New York hikes", []string{"acme outdoor", "new york"}},
		{"acme's outdoors line", []string{"acme"}},             // "outdoors" is not the whole word "outdoor"
		{"the doorway to TP53-related work", []string{"tp53"}}, // "door" inside "doorway" is not a word
		{"Acme Outdoorsy", []string{"acme"}},                   // longest match is not whole-word: fall back
		{"a yorkshire york", []string{"york"}},
	}
	for _, c := range cases {
		var got []string
		for _, m := range l.Link(c.text) {
			got = append(got, m.Text)
		}
		if !cmp.Equal(got, c.want, cmpopts.EquateEmpty()) {
			t.Errorf("Link(%q) = %q, want %q", c.text, got, c.want)
		}
	}
	if got := l.TopicEntities("ACME and acme outdoor"); !cmp.Equal(got, []uint32{0, 1, 7}) {
		t.Errorf("TopicEntities = %v, want [0 1 7]", got)
	}
}
