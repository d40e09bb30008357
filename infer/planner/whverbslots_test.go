package planner

import "testing"

// TestWhVerbSlots: "who" is an asking word here, as movies-skb's training
// questions made it one, and the lexicon reads "shows" as a kind of film
// (a show: a kind of a kind of film), so "Who shows up as director of the
// films Ann Lee starred in?" is read as asking for films and the ranker's
// one-hop plan answers (her film, node 1). With WhVerbSlots the word after
// "who", a question word that determines no noun, is its verb and names
// no kind: "who" asks for people, as it opened the training questions,
// and her film's director answers (Paul Smith, node 0). Nor is that verb
// a compound's first noun: "directs" names people by a training lift, and
// "Who directs movies that Ann Lee starred in?" asks for no movies, the word
// after it. After "which", a determiner, "shows" still reads as films.
func TestWhVerbSlots(t *testing.T) {
	set := func(p *LinkingPlanner, on bool) {
		p.Cfg.Anchors.AskWords = []string{"which", "who"}
		p.Cfg.Anchors.WhAsks = true
		p.Cfg.Anchors.NounSlots = true
		p.Cfg.Anchors.GeneralTypes = true
		p.Cfg.Anchors.CompoundHeads = true
		el := NewRelWords()
		for range 10 {
			el.Add("who directs", []string{"A:person"})
		}
		for range 30 {
			el.Add("which movies did star in", []string{"A:movie"})
		}
		p.Cfg.Anchors.Elements = el
		p.Cfg.Anchors.WhVerbSlots = on
	}
	firstOnOff(t, "WhVerbSlots", set, 1, 0, "Who shows up as director of the films Ann Lee starred in?", "Who directs movies that Ann Lee starred in?")
	firstOnOff(t, "WhVerbSlots (which)", set, 1, 1, "Which shows had Ann Lee starring?")
	p := clausePlanner(t)
	set(p, true)
	if got, named := p.askedTypeBy("Which shows had Ann Lee starring?", nil); got != "movie" || !named {
		t.Errorf("WhVerbSlots: \"Which shows\" asks for %q (named %v), want movie by the lexicon", got, named)
	}
}
