package planner

import "testing"

// TestRequestClauses: "Ann Lee starred in some films, and I'd like their
// directors." asks in the clause after its comma, past the coordinating
// "and" and the request's speaker ("I'd"): with RequestClauses the
// clause opens at "like" and its object, "directors" (a kind of person),
// is what it asks for, so the two-hop plan answers (Paul Smith, node 0);
// without it no clause asks, "films" is the first word naming a type and
// the ranker's one-hop plan stands (her film, node 1). A request right
// after a comma opens the asking clause whatever the phrase before it
// names ("For Ann Lee's early days, list ..."); a question word right
// after a comma alone does not ("Under Ann Lee, what ..."), nor does a
// word that is no verb's ("..., and the directors").
func TestRequestClauses(t *testing.T) {
	p := clausePlanner(t)
	p.Cfg.Anchors.FrontedClause = true
	p.Cfg.Anchors.RequestClauses = true
	for _, c := range []struct {
		text string
		want string // the asking clause, "" for none
	}{
		{"Ann Lee starred in some films, and I'd like their directors.", "like their directors."},
		{"Ann Lee starred in some films, and we want their directors.", "want their directors."},
		{"For Ann Lee's early days, list the directors.", "list the directors."},
		{"Ann Lee starred in some films, and which directors made them?", "which directors made them?"},
		{"Under Ann Lee, what are the directors?", ""},
		{"Ann Lee starred in some films, and the directors too.", ""},
		{"Ann Lee starred in some films; so name their directors.", "name their directors."},
	} {
		got := ""
		if k := p.askingClause(c.text, p.findMentions(c.text)); k > 0 {
			got = c.text[k:]
		}
		if got != c.want {
			t.Errorf("askingClause(%q) = %q, want %q", c.text, got, c.want)
		}
	}
	const q = "Ann Lee starred in some films, and I'd like their directors."
	for _, on := range []bool{false, true} {
		p := clausePlanner(t)
		p.Cfg.Anchors.FrontedClause = true
		p.Cfg.Anchors.RequestClauses = on
		want := uint32(1)
		if on {
			want = 0
		}
		if pred, got, err := answered(p, q); err != nil || len(got) == 0 || got[0] != want {
			t.Errorf("RequestClauses %v: %q planned %v reaching %v (%v), want %d first", on, q, pred.Plan.MetapathTokens(), got, err, want)
		}
	}
}

// TestClauseAnswerWords: "For Ann Lee's movies, list the cast." has no
// noun before its anchor; its asking clause, after the anchor, names its
// answer word, "cast" (->directed_by here, as a training could have
// learned it). With ClauseAnswerWords the clause's nouns are read as the
// lead: the step ends the two-hop plan (Paul Smith, node 0), and "films",
// a type word of the phrase that states, is not what the clause asks
// for. Without it the fronted "movies" names the type and the one-hop plan
// answers (her film, node 1). So for "..., and I'd like the full cast."
// (RequestClauses), where "cast", a verb too, follows a determiner and
// an adjective naming no type.
func TestClauseAnswerWords(t *testing.T) {
	for _, on := range []bool{false, true} {
		p := clausePlanner(t)
		p.Cfg.Anchors.FrontedClause = true
		p.Cfg.Anchors.RequestClauses = true
		p.Cfg.Anchors.AnswerWords = map[string]string{"cast": "->directed_by"}
		p.Cfg.Anchors.ClauseAnswerWords = on
		want := uint32(1)
		if on {
			want = 0
		}
		for _, q := range []string{"For Ann Lee's movies, list the cast.", "Ann Lee starred in some movies, and I'd like the full cast."} {
			if pred, got, err := answered(p, q); err != nil || len(got) == 0 || got[0] != want {
				t.Errorf("ClauseAnswerWords %v: %q planned %v reaching %v (%v), want %d first", on, q, pred.Plan.MetapathTokens(), got, err, want)
			}
		}
	}
}

// TestNounClauses: "Ann Lee starred in some films; their directors?"
// asks in a noun phrase put as a question. With NounClauses that clause
// asks, its noun "directors" (a kind of person) names the type asked for,
// and the two-hop plan answers (Paul Smith, node 0); without it no clause
// asks, "films" is the first word naming a type, and the ranker's one-hop
// plan stands (her film, node 1). A noun phrase with no question mark, one
// with no determiner and one with a verb in it ask nothing.
func TestNounClauses(t *testing.T) {
	const q = "Ann Lee starred in some films; their directors?"
	clauseRule(t, "NounClauses", func(p *LinkingPlanner, on bool) { p.Cfg.Anchors.NounClauses = on }, []string{q}, []askCase{
		{q, true},
		{"Ann Lee starred in some films; their directors.", false},
		{"Ann Lee starred in some films; directors?", false},
		{"Ann Lee starred in some films; their directors died?", false},
		{"Ann Lee starred in some films; the many other directors?", false},
	})
}

// TestColonNouns: with NounClauses, "Ann Lee starred in some films: the
// directors" is read whole ("films" the first word naming a type: her
// film, node 1), a noun phrase without a "?" asking nothing; with
// ColonNouns the phrase after the colon closing the text asks for the
// directors (Paul Smith, node 0), with a full stop too. After a
// semicolon, or followed by more words, it asks as before.
func TestColonNouns(t *testing.T) {
	const q = "Ann Lee starred in some films: the directors"
	clauseRule(t, "ColonNouns", func(p *LinkingPlanner, on bool) {
		p.Cfg.Anchors.NounClauses, p.Cfg.Anchors.ColonNouns = true, on
	}, []string{q, q + "."}, []askCase{
		{q, true},
		{q + "?", true},
		{"Ann Lee starred in some films; the directors", false},
		{"Ann Lee starred in some films: the directors died", false},
		{"Ann Lee starred in some films: the directors!", false},
	})
}

// TestNamingClauses: with NounClauses, "Ann Lee starred in some films;
// the directors are called?" asks nothing (a verb closes the phrase), and
// "films", the first word naming a type, is asked for (her film, node 1);
// with NamingClauses the phrase as the subject of a naming verb's passive
// asks for the directors (Paul Smith, node 0), "named" and "titled" too.
// Another verb, a naming verb with no "be" right before it, or a phrase
// with no determiner asks nothing.
func TestNamingClauses(t *testing.T) {
	const q = "Ann Lee starred in some films; the directors are called?"
	clauseRule(t, "NamingClauses", func(p *LinkingPlanner, on bool) {
		p.Cfg.Anchors.NounClauses, p.Cfg.Anchors.NamingClauses = true, on
	}, []string{q, "Ann Lee starred in some films; the directors were named?"}, []askCase{
		{q, true},
		{"Ann Lee starred in some films; the directors are titled?", true},
		{"Ann Lee starred in some films; the directors are known?", false},
		{"Ann Lee starred in some films; the directors called?", false},
		{"Ann Lee starred in some films; the directors soon called?", false},
		{"Ann Lee starred in some films; directors are called?", false},
		{"Ann Lee starred in some films; the directors are called.", false},
	})
}

// askCase is a text and whether askingClause finds a clause that asks in
// it.
type askCase struct {
	text string
	asks bool
}

// wantAsks wants askingClause of p to find a clause that asks (> 0) in
// each case's text exactly where the case says it does.
func wantAsks(t *testing.T, p *LinkingPlanner, cases []askCase) {
	t.Helper()
	for _, c := range cases {
		if got := p.askingClause(c.text, p.findMentions(c.text)) > 0; got != c.asks {
			t.Errorf("askingClause(%q) > 0 = %v, want %v", c.text, got, c.asks)
		}
	}
}

// clauseRule asks qs of a clausePlanner with a rule off and on (set sets
// it, and whatever else the test needs; firstOnOff): her film (node 1)
// first with it off, Paul Smith (node 0) with it on; then, with the rule
// on, wants askingClause to find a clause that asks exactly where each
// of cases says (wantAsks).
func clauseRule(t *testing.T, rule string, set func(p *LinkingPlanner, on bool), qs []string, cases []askCase) {
	t.Helper()
	firstOnOff(t, rule, set, 1, 0, qs...)
	p := clausePlanner(t)
	set(p, true)
	wantAsks(t, p, cases)
}
