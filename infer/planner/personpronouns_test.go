package planner

import "testing"

// TestFindMentionsPersonPronouns: over an SKB with nodes named "someone"
// and "anybody", an indefinite pronoun for people in lower case or
// opening the question names nothing with PersonPronouns, inside a longer
// quotation too ("someone who acts", a gloss); a quotation of the word
// alone names it, and so do the word right after a preposition ("a kind
// of someone", as WordNet's questions name the synset) and the word in
// capitals past the first word (a title). Without the rule (checkpoints saved before it) every one
// anchors.
func TestFindMentionsPersonPronouns(t *testing.T) {
	p := plannerOverNamed(t, false, "someone", "anybody")
	checkMentionsWith(t, "PersonPronouns", p, func(on bool) { p.Cfg.Anchors.PersonPronouns = on }, []mentionCase{
		{"I heard someone say Paul Smith directed which film?", []string{"Paul Smith"}, []string{"someone", "Paul Smith"}},
		{"Anybody know which film Paul Smith directed?", []string{"Paul Smith"}, []string{"Anybody", "Paul Smith"}},
		{"Which film of Paul Smith has \"someone who acts\" in its gloss?", []string{"Paul Smith"}, []string{"Paul Smith", "someone"}},
		{"Which film of Paul Smith has a gloss with \"someone who acts\" in it?", []string{"Paul Smith"}, []string{"Paul Smith", "someone"}},
		{"Which film of Paul Smith does 'someone' name?", []string{"Paul Smith", "someone"}, []string{"Paul Smith", "someone"}},
		{"Which film of Paul Smith is a kind of someone?", []string{"Paul Smith", "someone"}, []string{"Paul Smith", "someone"}},
		{"Which film of Paul Smith is a film under anybody?", []string{"Paul Smith", "anybody"}, []string{"Paul Smith", "anybody"}},
		{"Is the film of Paul Smith Anybody?", []string{"Paul Smith", "Anybody"}, []string{"Paul Smith", "Anybody"}},
	})
}
