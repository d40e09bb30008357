package data

import "testing"

// A plan's template keeps its node types; its shape keeps hop counts and
// relations only, the paths of an intersection in one order.
func TestPlanTemplateAndShape(t *testing.T) {
	a := Plan{Metapath: [][]string{{"noun.topic", "<-domain topic", "*"}, {"noun.plant", "<-hypernym", "*"}}}
	b := Plan{Metapath: [][]string{{"noun.plant", "<-hypernym", "*"}, {"noun.act", "<-domain topic", "*"}}}
	if got := a.Template(); got != "noun.topic <-domain topic * & noun.plant <-hypernym *" {
		t.Errorf("template %q", got)
	}
	for _, p := range []Plan{a, b} {
		if got := p.Shape(); got != "1-hop ∩ 1-hop <-domain topic ∩ <-hypernym" {
			t.Errorf("shape of %v: %q", p.Metapath, got)
		}
	}
	c := Plan{Metapath: [][]string{{"synset", "<-hypernym", "synset", "<-part holonym", "synset"}, {"synset", "<-domain topic", "synset"}}}
	if got := c.Shape(); got != "1-hop ∩ 2-hop <-domain topic ∩ <-hypernym/<-part holonym" {
		t.Errorf("shape %q", got)
	}
	var none Plan
	if none.Shape() != "(no plan)" || none.Template() != "(no plan)" {
		t.Errorf("no plan: %q %q", none.Shape(), none.Template())
	}
}
