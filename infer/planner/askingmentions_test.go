package planner

import (
	"slices"
	"strings"
	"testing"

	"github.com/strata-retrieval/strata/graphops/linking"
)

// TestAskingMentions: in "Ann Lee starred in what movie?" the mention
// "what" names a film (node 1 here, as movies-skb's What?), and
// TypeAfterMention reads "movie" as saying what that mention is, so the
// question named no type. With AskingMentions a mention that is an
// asking determiner alone leaves "movie" to the question: it asks for a
// movie. A mention that is no asking word ("some") still has its type
// word read as its own.
func TestAskingMentions(t *testing.T) {
	for _, on := range []bool{false, true} {
		p := lexPlanner(t)
		p.Cfg.Anchors.TypeAfterMention = true
		p.Cfg.Anchors.AskingMentions = on
		for _, c := range []struct {
			q, ment string
			blank   bool
		}{
			{"Ann Lee starred in what movie?", "what", !on},
			{"Ann Lee starred in What movie?", "What", !on},
			{"Ann Lee starred in some movie?", "some", true},
		} {
			words := linking.MentionWords(c.q)
			at := strings.Index(c.q, c.ment)
			tok := slices.IndexFunc(words, func(w linking.Word) bool { return w.Start == at })
			ments := []linking.LinkedMention{{Start: at, End: at + len(c.ment), TokStart: tok, TokEnd: tok + 1, Text: c.ment, Nodes: []linking.FormNode{{Node: 1}}}}
			film := strings.Index(c.q, "movie")
			got := p.typeAfterMentions(c.q, ments)
			if want := [][2]int{{film, film + len("movie")}}; c.blank != slices.Equal(got, want) || !c.blank && len(got) > 0 {
				t.Errorf("AskingMentions %v: %q with mention %q: type words %v, blanked %v wanted", on, c.q, c.ment, got, c.blank)
			}
		}
	}
}
