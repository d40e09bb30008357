package data

import (
	"fmt"
	"testing"
)

// A plan's template keeps its node types; its shape keeps hop counts and
// relations only, the paths of an intersection in one order.
func TestPlanTemplateAndShape(t *testing.T) {
	a := Plan{Paths: MustPaths([][]string{{"noun.topic", "<-domain topic", "*"}, {"noun.plant", "<-hypernym", "*"}}...)}
	b := Plan{Paths: MustPaths([][]string{{"noun.plant", "<-hypernym", "*"}, {"noun.act", "<-domain topic", "*"}}...)}
	if got := a.Template(); got != "noun.topic <-domain topic * & noun.plant <-hypernym *" {
		t.Errorf("template %q", got)
	}
	for _, p := range []Plan{a, b} {
		if got := p.Shape(); got != "1-hop ∩ 1-hop <-domain topic ∩ <-hypernym" {
			t.Errorf("shape of %v: %q", p.MetapathTokens(), got)
		}
	}
	c := Plan{Paths: MustPaths([][]string{{"synset", "<-hypernym", "synset", "<-part holonym", "synset"}, {"synset", "<-domain topic", "synset"}}...)}
	if got := c.Shape(); got != "1-hop ∩ 2-hop <-domain topic ∩ <-hypernym/<-part holonym" {
		t.Errorf("shape %q", got)
	}
	var none Plan
	if none.Shape() != "(no plan)" || none.Template() != "(no plan)" {
		t.Errorf("no plan: %q %q", none.Shape(), none.Template())
	}
}

// The ranked twin marks the position before the last step of every path
// of two or more hops, replacing marks elsewhere; the unranked twin drops
// them; p itself is never changed.
func TestRankedTwins(t *testing.T) {
	p := Plan{Paths: MustPaths([][]string{
		{"person", "<-starred_actors", "*", "->directed_by", "person"},
		{"genre", "<-has_genre", "movie"},
		{"person", "->a", "*~", "->b", "*", "->c", "movie"},
	}...)}
	r, ok := p.WithRankedMiddles()
	if !ok {
		t.Fatal("a plan with 2- and 3-hop paths has a ranked twin")
	}
	want := [][]string{
		{"person", "<-starred_actors", "*~", "->directed_by", "person"},
		{"genre", "<-has_genre", "movie"},
		{"person", "->a", "*", "->b", "*~", "->c", "movie"},
	}
	for i := range want {
		if fmt.Sprint(r.MetapathTokens()[i]) != fmt.Sprint(want[i]) {
			t.Errorf("ranked path %d: %v, want %v", i, r.MetapathTokens()[i], want[i])
		}
	}
	if !r.HasRankMarks() || p.MetapathTokens()[2][2] != "*~" || p.MetapathTokens()[0][2] != "*" {
		t.Errorf("twin %v of %v", r.MetapathTokens(), p.MetapathTokens())
	}
	if u := r.WithoutRankMarks(); u.HasRankMarks() || fmt.Sprint(u.MetapathTokens()[2]) != "[person ->a * ->b * ->c movie]" {
		t.Errorf("unranked twin %v", u.MetapathTokens())
	}
	if _, ok := (Plan{Paths: MustPaths([][]string{{"genre", "<-has_genre", "movie"}}...)}).WithRankedMiddles(); ok {
		t.Error("a 1-hop plan has no middle to rank")
	}
}
