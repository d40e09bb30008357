package planner

import (
	"slices"
	"testing"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/data/lexicon"
	"github.com/strata-retrieval/strata/internal/testskb"
)

// TestAddressees: "me" and "us" after a verb's base form, in any case
// but all capitals, wherever the request opens.
func TestAddressees(t *testing.T) {
	for _, c := range []struct {
		text string
		want []int
	}{
		{"Tell me the films Paul Smith directed.", []int{1}},
		{"tell me the films", []int{1}},
		{"Can you give us the films of ME?", []int{3}},
		{"Please show me, then tell us more.", []int{2, 5}},
		{"Which films were shot in ME?", nil},
		{"Which films were shot in me", nil}, // "in" is no verb
		{"Did Paul Smith tour US cities?", nil},
		{"Me and Paul Smith", nil},
		{"", nil},
	} {
		if got := addressees(c.text); !slices.Equal(got, c.want) {
			t.Errorf("addressees(%q) = %v, want %v", c.text, got, c.want)
		}
	}
}

// TestFindMentionsAddressee: over an SKB that names Maine "ME", the
// United States "US" and a film "Show Me", a request's addressee names
// neither with Addressee, nor does the opening request's verb with it
// ("Show me more films ..."), and both do without it (checkpoints saved
// before it); the names said otherwise still anchor.
func TestFindMentionsAddressee(t *testing.T) {
	skb := testskb.DirectorFilms()
	skb.Nodes = append(skb.Nodes, data.Node{Type: 0, Name: "ME", Fields: []string{"", ""}}, data.Node{Type: 0, Name: "US", Fields: []string{"", ""}},
		data.Node{Type: 1, Name: "Show Me", Fields: []string{"", ""}})
	p := directorFilmsPlannerOver(t, skb)
	checkMentionsWith(t, "Addressee", p, func(on bool) { p.Cfg.Anchors.Addressee = on }, []mentionCase{
		{"Tell me the films Paul Smith directed.", []string{"Paul Smith"}, []string{"me", "Paul Smith"}},
		{"can you give us the films shot in ME", []string{"ME"}, []string{"us", "ME"}},
		{"Did Paul Smith tour US cities?", []string{"Paul Smith", "US"}, []string{"Paul Smith", "US"}},
		{"Show me more films by Paul Smith.", []string{"Paul Smith"}, []string{"Show me", "me", "Paul Smith"}},
		{"Who directed Show Me?", []string{"Show Me"}, []string{"Show Me", "Me"}},
		{"Show Me is classified under which genres?", []string{"Show Me"}, []string{"Show Me", "Me"}},
	})
}

// mentionCase is a text and the mentions findMentions finds in it with
// a rule on (with) and off (off).
type mentionCase struct {
	text      string
	with, off []string
}

// plannerOverNamed is directorFilmsPlannerOver testskb.DirectorFilms with
// a film node named each of names added; with lex, the planner reads
// with WordNet's lexicon.
func plannerOverNamed(t *testing.T, lex bool, names ...string) *LinkingPlanner {
	t.Helper()
	skb := testskb.DirectorFilms()
	for _, name := range names {
		skb.Nodes = append(skb.Nodes, data.Node{Type: 1, Name: name, Fields: []string{"", ""}})
	}
	p := directorFilmsPlannerOver(t, skb)
	if lex {
		l, err := lexicon.WordNet()
		if err != nil {
			t.Fatal(err)
		}
		p.names.setLexicon(l)
	}
	return p
}

// checkMentionsWith checks the text of each mention p finds in each
// case's text with rule turned on and off by set.
func checkMentionsWith(t *testing.T, rule string, p *LinkingPlanner, set func(on bool), cases []mentionCase) {
	t.Helper()
	texts := func(text string) []string {
		var out []string
		for _, m := range p.findMentions(text) {
			out = append(out, m.Text)
		}
		return out
	}
	for _, c := range cases {
		for _, on := range []bool{true, false} {
			set(on)
			want := c.off
			if on {
				want = c.with
			}
			if got := texts(c.text); !slices.Equal(got, want) {
				t.Errorf("%s %v: mentions of %q = %q, want %q", rule, on, c.text, got, want)
			}
		}
	}
}

// TestPronounVerbs: the word positions (of linking.MentionWords) of a
// verb in lower case after an auxiliary and a subject pronoun; none for a
// noun there ("gives you chills": no auxiliary before "you"), a
// capitalised word ("did you see Hear"), or a pronoun with no auxiliary.
func TestPronounVerbs(t *testing.T) {
	for _, c := range []struct {
		text string
		want []int
	}{
		{"Which pedlar would you hear mainly in Britain?", []int{4}},
		{"What do we call Paul Smith's films?", []int{3}},
		{"Which films have they seen?", []int{4}},
		{"Which film gives you chills?", nil},
		{"Did you see Hear?", []int{2}},
		{"Which films did you Hear?", nil},
		{"you hear", nil},
		{"", nil},
	} {
		if got := pronounVerbs(c.text); !slices.Equal(got, c.want) {
			t.Errorf("pronounVerbs(%q) = %v, want %v", c.text, got, c.want)
		}
	}
}

// TestFindMentionsPronounVerbs: over an SKB with a film "Hear", "hear"
// after "would you" is the clause's verb and anchors nothing with
// PronounVerbs; without it (checkpoints saved before it) it names the
// film, and the film named otherwise anchors either way.
func TestFindMentionsPronounVerbs(t *testing.T) {
	skb := testskb.DirectorFilms()
	skb.Nodes = append(skb.Nodes, data.Node{Type: 1, Name: "Hear", Fields: []string{"", ""}})
	p := directorFilmsPlannerOver(t, skb)
	checkMentionsWith(t, "PronounVerbs", p, func(on bool) { p.Cfg.Anchors.PronounVerbs = on }, []mentionCase{
		{"Which films would you hear Paul Smith in?", []string{"Paul Smith"}, []string{"hear", "Paul Smith"}},
		{"Who directed Hear?", []string{"Hear"}, []string{"Hear"}},
	})
}
