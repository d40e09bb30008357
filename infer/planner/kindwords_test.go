package planner

import "testing"

// TestKindWords: "screenwriters" opening "Screenwriters behind movies as
// an actor?" is read "written", a kind of person (resolveRead's kinds),
// and the first word naming a type is then "movies". With KindWords the
// word read as a kind names its type where it opens the text, past
// determiners alone ("The written behind ..."): the question asks for
// people. Past another word ("as a written: movies?", "X as a writer:
// drama movies?") it names nothing, and "movies" still asks.
func TestKindWords(t *testing.T) {
	kinds := map[string]string{"written": "person"}
	for _, on := range []bool{false, true} {
		p := lexPlanner(t)
		p.Cfg.Anchors.AskWords = []string{"which"}
		p.Cfg.Anchors.KindWords = on
		want := "movie"
		if on {
			want = "person"
		}
		for q, w := range map[string]string{
			"Written behind movies as an actor?":     want,
			"The written behind movies as an actor?": want,
			"as a written: movies?":                  "movie",
			"Movies behind the written?":             "movie",
		} {
			if got, _ := p.askedTypeBy(q, kinds); got != w {
				t.Errorf("KindWords %v: %q asks for %q, want %q", on, q, got, w)
			}
			// The ranker's features read no kinds either way.
			if got := p.askedType(q); got != "movie" {
				t.Errorf("KindWords %v: askedType(%q) = %q, want movie", on, q, got)
			}
		}
	}
}
