package planner

import (
	"slices"
	"strings"
	"testing"

	"github.com/strata-retrieval/strata/data/lexicon"
	"github.com/strata-retrieval/strata/graphops/linking"
)

// clausePlanner is lexPlanner with the rules an asking clause reads
// with: "which" asks, a request's verb asks for its object's type, "who"
// opened the training's questions about people.
func clausePlanner(t *testing.T) *LinkingPlanner {
	t.Helper()
	p := lexPlanner(t)
	p.Cfg.Anchors.AskWords = []string{"which"}
	p.Cfg.Anchors.KindTypes = true
	p.Cfg.Anchors.LeadVerbAsks = true
	p.Cfg.Anchors.RequestObject = true
	p.Cfg.Anchors.AskingClause = true
	p.Cfg.Anchors.Lead = NewLeadTypes()
	p.Cfg.Anchors.Lead.Firsts["who"] = map[string]int{"person": 10}
	return p
}

// firstOnOff asks each of qs of a clausePlanner with a rule off and on
// (set sets it, and whatever else the test needs) and wants node off
// first with the rule off, node on with it on.
func firstOnOff(t *testing.T, rule string, set func(p *LinkingPlanner, on bool), off, on uint32, qs ...string) {
	t.Helper()
	for _, o := range []bool{false, true} {
		p := clausePlanner(t)
		set(p, o)
		want := off
		if o {
			want = on
		}
		for _, q := range qs {
			if pred, got, err := answered(p, q); err != nil || len(got) == 0 || got[0] != want {
				t.Errorf("%s %v: %q planned %v reaching %v (%v), want %d first", rule, o, q, pred.Plan.MetapathTokens(), got, err, want)
			}
		}
	}
}

// TestAskingClause: "Ann Lee starred in some films. Name their
// directors." states in its first sentence and asks in its second. Read
// as a whole, "films" is the first word naming a type, and the ranker's
// one-hop plan (her film, node 1) stands; with AskingClause the request's
// object, "directors" (a kind of person), is what it asks for, so the
// two-hop plan answers (Paul Smith, node 0). A clause after one that
// asks already ("Which films did Ann Lee star in? Name their
// directors.") and a clause whose object names no type ("Name them.")
// leave the whole reading, and a colon inside a mention splits nothing.
// A pronoun closing the asking clause refers back: "... had a director;
// name him." asks for people, "... some films; name them." for films. A
// question as the request's object asks as it would alone ("tell me who
// directed them": "who" opened the training's questions about people),
// and a word that may be an adjective and names no type is passed over
// ("name the many directors").
func TestAskingClause(t *testing.T) {
	for _, on := range []bool{false, true} {
		p := clausePlanner(t)
		p.Cfg.Anchors.AskingClause = on
		want := uint32(1)
		if on {
			want = 0
		}
		// A pronoun closing the clause refers back to the last word
		// naming a type before it: "name him", the director.
		for _, q := range []string{"Ann Lee starred in some films. Name their directors.", "Every film Ann Lee starred in had a director; name him.",
			"Ann Lee starred in some films; tell me who directed them.", "Ann Lee starred in some films; name the many directors."} {
			if pred, got, err := answered(p, q); err != nil || len(got) == 0 || got[0] != want {
				t.Errorf("AskingClause %v: %q planned %v reaching %v (%v), want %d first", on, q, pred.Plan.MetapathTokens(), got, err, want)
			}
		}
		for _, q := range []string{"Ann Lee starred in some films; name them.", "Which films did Ann Lee star in? Name their directors."} {
			if pred, got, err := answered(p, q); err != nil || len(got) == 0 || got[0] != 1 {
				t.Errorf("AskingClause %v: %q planned %v reaching %v (%v), want 1 first", on, q, pred.Plan.MetapathTokens(), got, err)
			}
		}
	}
	p := lexPlanner(t)
	p.Cfg.Anchors.LeadVerbAsks = true
	const jedi = "Ann Lee starred in Star Wars: Return of the Jedi"
	title := []linking.LinkedMention{{Start: strings.Index(jedi, "Star"), End: len(jedi)}}
	for _, c := range []struct {
		q     string
		ments []linking.LinkedMention
		want  string
	}{
		{"Ann Lee starred in some films. Name their directors.", nil, "Name their directors."},
		{"Ann Lee starred in some films; name their directors.", nil, "name their directors."},
		{"Ann Lee starred in some films: who directed them?", nil, "who directed them?"},
		{"Ann Lee starred in some films. They were good.", nil, ""},
		{"Which films did Ann Lee star in? Name their directors.", nil, ""},
		{"List her films. Name their directors.", nil, ""},
		// A title holding a colon: "Star Wars: Return of the Jedi".
		{jedi, title, ""},
		{jedi, nil, "Return of the Jedi"},
	} {
		got := ""
		if k := p.askingClause(c.q, c.ments); k > 0 {
			got = c.q[k:]
		}
		if got != c.want {
			t.Errorf("askingClause(%q) = %q, want %q", c.q, got, c.want)
		}
	}
}

// TestAskingClauseAnchors: an asking clause is read without the
// candidate's anchors, whose words name nothing asked for. "Name First
// Film's director." names a movie with the title's "Film" (past "First",
// which may be an adjective); read without the anchor, it asks for the
// director, a person.
func TestAskingClauseAnchors(t *testing.T) {
	p := lexPlanner(t)
	p.Cfg.Anchors.LeadVerbAsks = true
	p.Cfg.Anchors.RequestObject = true
	p.Cfg.Anchors.KindTypes = true
	p.Cfg.Anchors.AskingClause = true
	q := "Ann Lee starred in some films. Name First Film's director."
	ments := p.findMentions(q)
	at := slices.IndexFunc(ments, func(m linking.LinkedMention) bool { return strings.HasPrefix(m.Text, "First Film") })
	if at < 0 {
		t.Fatalf("%q: no mention of First Film in %v", q, ments)
	}
	c := PlanCandidate{Mentions: []int{at}}
	if got := p.namedAsked(q, ments, &c, nil, nil, askedVerb{}); got != "person" {
		t.Errorf("%q anchored on First Film asks for %q, want person", q, got)
	}
}

// appearedPlanner is filmPlanner over Paul Smith, who directed First
// Film, with the one-actor template and a training that said "appeared"
// of actors and "directed" of directors (RelWords), the lexicon on, with
// anchor settings a besides.
func appearedPlanner(t *testing.T, a AnchorConfig) *LinkingPlanner {
	t.Helper()
	rw := NewRelWords()
	for range 10 {
		for _, c := range [][2]string{{"Which films has he appeared in", "starred_actors"}, {"Which films directed", "directed_by"}} {
			rw.Add(c[0], []string{c[1]})
			rw.AddContext(c[0])
		}
	}
	rw.PruneContext(2)
	a.RelWords, a.NamedType, a.Lexicon = rw, true, true
	return filmPlanner(t, []string{"directed_by", "starred_actors"}, []string{"Paul Smith", "First Film"}, [][3]int{{1, 0, 0}},
		[][][]string{{{"*", "<-starred_actors", "movie"}}}, a)
}

// TestSpeakerVerbs: the training said "appeared" of actors, and the
// lexicon relates "looking" to it (look and appear share a sense), so
// "I'm looking for the films Paul Smith directed." was read "I'm appeared
// for ...", naming a relation the question never asks about. With
// SpeakerVerbs a verb whose subject is the speaker or the addressee stays
// as written ("I'm", "I am", "you", and a present participle opening the
// text before a preposition); a verb with another subject is still read.
func TestSpeakerVerbs(t *testing.T) {
	for _, on := range []bool{false, true} {
		p := appearedPlanner(t, AnchorConfig{SpeakerVerbs: on})
		for _, c := range []struct{ in, off string }{
			{"I'm looking for the films Paul Smith directed.", "I'm appeared for the films Paul Smith directed."},
			{"I am looking for the films Paul Smith directed.", "I am appeared for the films Paul Smith directed."},
			{"Looking for films Paul Smith directed.", "Appeared for films Paul Smith directed."},
			{"Can you look for the films Paul Smith directed?", "Can you appeared for the films Paul Smith directed?"},
		} {
			want := c.off
			if on {
				want = c.in
			}
			if got := p.Resolve(c.in); got != want {
				t.Errorf("SpeakerVerbs %v: Resolve(%q) = %q, want %q", on, c.in, got, want)
			}
		}
		// Another subject's verb is read either way.
		q := "Which films was Paul Smith looking in?"
		if got, want := p.Resolve(q), "Which films was Paul Smith appeared in?"; got != want {
			t.Errorf("SpeakerVerbs %v: Resolve(%q) = %q, want %q", on, q, got, want)
		}
	}
}

// TestOpeningAdverbs: "Looking only at films Paul Smith directed, ..."
// opens with the speaker's participle as "Looking for ..." does, an adverb
// ("only", "just", which the lexicon holds as neither a noun nor a verb)
// before its preposition: with OpeningAdverbs it stays unread, without it
// it is read "Appeared", the training's word for acting. A noun or a
// verb's form there ("Looking daily ...", a newspaper; "Looking films
// ...") is no adverb, and three words are too many.
func TestOpeningAdverbs(t *testing.T) {
	for _, on := range []bool{false, true} {
		p := appearedPlanner(t, AnchorConfig{SpeakerVerbs: true, OpeningAdverbs: on})
		for _, c := range []struct {
			in    string
			moves bool // whether OpeningAdverbs leaves the participle unread
		}{
			{"Looking only at films Paul Smith directed, which are there?", true},
			{"Looking just only at films Paul Smith directed, which are there?", true},
			{"Looking for films Paul Smith directed.", false},
			{"Looking films at Paul Smith directed.", false},
			{"Looking daily at films Paul Smith directed.", false},
			{"Looking only just merely at films Paul Smith directed.", false},
		} {
			want := c.in
			if !strings.HasPrefix(c.in, "Looking for") && (!on || !c.moves) {
				want = "Appeared" + strings.TrimPrefix(c.in, "Looking")
			}
			if got := p.Resolve(c.in); got != want {
				t.Errorf("OpeningAdverbs %v: Resolve(%q) = %q, want %q", on, c.in, got, want)
			}
		}
	}
}

// TestEmbeddedQuestions: "Do you know what Paul Smith directed?" asks
// what "What has Paul Smith directed?" asks (TestBareObject), in a
// statement's word order inside the speaker's words; with
// EmbeddedQuestions its question word opens it, the unsaid auxiliary
// stands there, and the verb's relation is walked first and last: the
// directors of his films' cast and his films' cast are ruled out, his
// films are not. A question word after no speaker's word ("Films X
// directed: what were they?") and one right at the start open nothing
// new.
func TestEmbeddedQuestions(t *testing.T) {
	lex, err := lexicon.WordNet()
	if err != nil {
		t.Fatal(err)
	}
	planner := func(on bool) *LinkingPlanner {
		return smithPlanner(t, lex, AnchorConfig{NamedRelations: true, ObjectVerbs: true, VerbFirst: true, BareObject: true, EmbeddedQuestions: on})
	}
	checkSmithMisses(t, "EmbeddedQuestions", planner, []missCase{
		{"Do you know what Paul Smith directed in 2001?", smithDirectorsOf, false, true},
		{"Do you know what Paul Smith directed in 2001?", smithCastOf, false, true},
		{"Do you know what Paul Smith directed in 2001?", smithFilms, false, false},
		{"I wonder what Paul Smith directed in 2001.", smithCastOf, false, true},
		{"The films Paul Smith directed in 2001: what were they?", smithCastOf, false, false},
	})
	p := planner(true)
	for q, want := range map[string]int{
		"Do you know what Paul Smith directed in 2001?":          3,
		"Can you tell me which films Paul Smith directed?":       4,
		"What did Paul Smith direct in 2001?":                    0,
		"The films Paul Smith directed in 2001: what were they?": 0,
		"Do you know what he did?":                               0,
	} {
		if got := p.embeddedOpening(q, linking.MentionWords(q)); got != want {
			t.Errorf("embeddedOpening(%q) = %d, want %d", q, got, want)
		}
	}
}
