package planner

import (
	"context"
	"slices"
	"testing"

	"github.com/strata-retrieval/strata/data"
)

// helmPlanner is a linking planner over a graph where Paul Smith directed
// First Film and Second Film and starred in Third Film. Its templates are
// the films an anchor starred in (first) and the films an anchor directed;
// its training counts say "directed" comes with directed_by, "starred"
// with starred_actors, and "wrote" (10 questions, "wrote the") and
// "written" (12, "written by") with written_by, and its plan ranker has no weights, so without
// other evidence the first candidate stands.
func helmPlanner(t *testing.T, lexicon bool) *LinkingPlanner {
	t.Helper()
	return helmPlannerWith(t, AnchorConfig{Lexicon: lexicon})
}

// helmPlannerWith is helmPlanner with a's switches (RelWords and the
// rules helmPlanner sets are its own) and more nodes, of no edge, named
// extra.
func helmPlannerWith(t *testing.T, a AnchorConfig, extra ...string) *LinkingPlanner {
	t.Helper()
	rw := NewRelWords()
	for i := range 12 {
		for _, c := range [][2]string{{"Which films directed", "directed_by"}, {"Which films starred", "starred_actors"},
			{"Who wrote the films", "written_by"}, {"Which films were written by", "written_by"}} {
			if i < 10 || c[0] == "Which films were written by" {
				rw.Add(c[0], []string{c[1]})
				rw.AddContext(c[0])
			}
		}
	}
	rw.PruneContext(2)
	return filmPlanner(t, []string{"directed_by", "starred_actors", "written_by"}, append([]string{"Paul Smith", "First Film", "Second Film", "Third Film", "Helm"}, extra...),
		[][3]int{{1, 0, 0}, {2, 0, 0}, {3, 1, 0}}, [][][]string{{{"*", "<-starred_actors", "movie"}}, {{"*", "<-directed_by", "movie"}}},
		AnchorConfig{RelWords: rw, NamedType: true, NamedRelations: true, Lexicon: a.Lexicon, ReadMentions: a.ReadMentions, AnchorAfter: a.AnchorAfter, CompoundWords: a.CompoundWords})
}

// TestLexiconReadsUnseenWords: "helmed", a word no training question used,
// is read as "directed" (the lexicon links helm's only sense to a sense of
// direct), so the relation rule picks the directors' plan (First Film,
// Second Film); without the lexicon the planner has no evidence and keeps
// its first candidate, the films Paul Smith starred in (Third Film).
// Known words, words of mentions ("Helm" names a node) and quoted words
// stay as they are.
func TestLexiconReadsUnseenWords(t *testing.T) {
	on, off := helmPlanner(t, true), helmPlanner(t, false)
	for _, c := range []struct{ in, want string }{
		{"Which films were helmed by Paul Smith?", "Which films were directed by Paul Smith?"},
		{"Helmed by Paul Smith: which films?", "Directed by Paul Smith: which films?"},
		{"Which films did Paul Smith starred in?", "Which films did Paul Smith starred in?"},
		{"Which films did Paul Smith star in?", "Which films did Paul Smith starred in?"},
		{"Which films did Helm direct?", "Which films did Helm directed?"},
		{"Which films are titled 'helmed'?", "Which films are titled 'helmed'?"},
		{"Which films did zqxv Paul Smith?", "Which films did zqxv Paul Smith?"},
		// The inflection the training used in the same place: "penned the"
		// as "wrote the", "penned by" as "written by" (without the
		// context, the more used "written" in both).
		{"Who penned the films of Paul Smith?", "Who wrote the films of Paul Smith?"},
		// "perform" is as near "directed" as "starred": which relation it
		// means the lexicon cannot say, so it stays as it is.
		{"Which films did Paul Smith perform in?", "Which films did Paul Smith perform in?"},
		{"Which films were penned by Paul Smith?", "Which films were written by Paul Smith?"},
	} {
		if got := on.Resolve(c.in); got != c.want {
			t.Errorf("Resolve(%q) = %q, want %q", c.in, got, c.want)
		}
		if got := off.Resolve(c.in); got != c.in {
			t.Errorf("without the lexicon Resolve(%q) = %q", c.in, got)
		}
	}
	reach := func(p *LinkingPlanner, text string) ([]uint32, string) {
		t.Helper()
		pred, err := p.Predict(context.Background(), data.Query{Text: text, ID: -1})
		if err != nil || pred.Reach == nil {
			t.Fatalf("%q: %v, reach %v", text, err, pred.Reach)
		}
		out := slices.Clone(pred.Reach.Nodes)
		slices.Sort(out)
		return out, pred.ReadAs
	}
	// Without the lexicon one plan answers both questions, so one of them
	// is wrong; with it each gets its own.
	helmed, featured := "Which films were helmed by Paul Smith?", "Which films was Paul Smith featured in?"
	h, readAs := reach(on, helmed)
	if !slices.Equal(h, []uint32{1, 2}) || readAs != "Which films were directed by Paul Smith?" {
		t.Errorf("with the lexicon %q reaches %v (read as %q), want [1 2]", helmed, h, readAs)
	}
	if f, readAs := reach(on, featured); !slices.Equal(f, []uint32{3}) || readAs != "Which films was Paul Smith starred in?" {
		t.Errorf("with the lexicon %q reaches %v (read as %q), want [3]", featured, f, readAs)
	}
	h, _ = reach(off, helmed)
	f, _ := reach(off, featured)
	if !slices.Equal(h, f) {
		t.Errorf("without the lexicon the two questions reach %v and %v: the fixture no longer shows the difference", h, f)
	}
}

// TestFitTextReadsNamesToo: the text-fit gate asks how a query is worded,
// so it reads every unseen word through the lexicon, words that name
// nodes included ("Helm", "helm" name a node here), where planning keeps them;
// quoted words stay in both, and without the lexicon both are the text.
func TestFitTextReadsNamesToo(t *testing.T) {
	on, off := helmPlanner(t, true), helmPlanner(t, false)
	q := "Which films did Helm helm, titled 'helmed'?"
	for _, c := range []struct{ got, want string }{
		{on.FitText(q), "Which films did Directed directed, titled 'helmed'?"},
		{on.Resolve(q), q}, // "helm" names the node Helm too
		{off.FitText(q), q},
		{off.Resolve(q), q},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}

// TestReadMentions: "helm" and "featured" name nodes (Helm, Featured) and
// no training question used them; with ReadMentions each is read as its
// known word all the same ("directed", "starred"), as it names a relation
// and "Paul Smith" is left to anchor on, so "Which films was Paul Smith
// featured in?" reaches the film he starred in (Third Film), where
// without ReadMentions it reaches those he directed (the first candidate,
// as nothing tells them apart). A word stays a name after a word anchors
// follow (AnchorAfter) and when no other mention is left to anchor on
// ("Helm" is an unseen word the lexicon reads too).
func TestReadMentions(t *testing.T) {
	on := helmPlannerWith(t, AnchorConfig{Lexicon: true, ReadMentions: true}, "Featured")
	after := helmPlannerWith(t, AnchorConfig{Lexicon: true, ReadMentions: true, AnchorAfter: []string{"smith"}}, "Featured")
	off := helmPlannerWith(t, AnchorConfig{Lexicon: true}, "Featured")
	q, f := "Which films did Paul Smith helm?", "Which films was Paul Smith featured in?"
	for _, c := range []struct {
		p        *LinkingPlanner
		in, want string
	}{
		{on, q, "Which films did Paul Smith directed?"},
		{on, f, "Which films was Paul Smith starred in?"},
		{after, q, q},
		{off, q, q},
		{off, f, f},
		{on, "Which films did Helm helm?", "Which films did Helm helm?"},
		{on, "Which films did helm?", "Which films did helm?"},
	} {
		if got := c.p.Resolve(c.in); got != c.want {
			t.Errorf("Resolve(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	out, read := on.resolveRead(q)
	if want := []readSpan{{27, 35, true, ""}}; !slices.Equal(read, want) || out[27:35] != "directed" {
		t.Errorf("read spans %v of %q, want %v", read, out, want)
	}
	for _, c := range []struct {
		p    *LinkingPlanner
		want []uint32
	}{{on, []uint32{3}}, {off, []uint32{1, 2}}} {
		pred, err := c.p.Predict(context.Background(), data.Query{Text: f, ID: -1})
		if err != nil || pred.Reach == nil {
			t.Fatalf("%v, reach %v", err, pred.Reach)
		}
		got := slices.Clone(pred.Reach.Nodes)
		slices.Sort(got)
		if !slices.Equal(got, c.want) {
			t.Errorf("%q reaches %v, want %v", f, got, c.want)
		}
	}
}

// TestReadSamePOS: "performers", a noun no training question used, is one
// lexicon link from "actors" (a hyponym of performer) and from "star" and
// "starred" (star, a performer who gets top billing); all name
// starred_actors, and the training's word pairs prefer "star" and
// "starred" before "in". With ReadSamePOS the noun that is no verb reads
// as the one of them that is no verb either.
func TestReadSamePOS(t *testing.T) {
	for _, same := range []bool{false, true} {
		rw := NewRelWords()
		for range 10 {
			for _, r := range []string{"Which films has he starred in", "Which films does he star in", "Which actors were in"} {
				rw.Add(r, []string{"starred_actors"})
				rw.AddContext(r)
			}
		}
		rw.PruneContext(2)
		p := filmPlanner(t, []string{"starred_actors"}, []string{"Paul Smith", "First Film"}, [][3]int{{1, 0, 0}},
			[][][]string{{{"*", "<-starred_actors", "movie"}}}, AnchorConfig{RelWords: rw, NamedType: true, Lexicon: true, ReadSamePOS: same})
		want := "Name the star in the films of Paul Smith."
		if same {
			want = "Name the actors in the films of Paul Smith."
		}
		if got := p.Resolve("Name the performers in the films of Paul Smith."); got != want {
			t.Errorf("ReadSamePOS %v: read as %q, want %q", same, got, want)
		}
	}
}

// TestReadInContext: "perform" is as near "directed" as "starred" (the
// lexicon's Linked), so "performed" is read as neither, unless the word
// after it says which: the training said "starred in" in each of its 10
// questions with "starred", "directed in" in 1 of 20 with "directed", so
// "performed in" reads as "starred in"; "performed for" follows neither
// and stays, as does "performed in" without ReadInContext. A margin: with
// "directed in" in 5 of the 20 questions, "starred" is followed by "in"
// only 4 times as often and "performed in" stays.
func TestReadInContext(t *testing.T) {
	for _, c := range []struct {
		ctx        bool
		directedIn int
		q, want    string
	}{
		{true, 1, "Who performed in the films of Paul Smith?", "Who starred in the films of Paul Smith?"},
		{true, 1, "Who performed for the films of Paul Smith?", "Who performed for the films of Paul Smith?"},
		{false, 1, "Who performed in the films of Paul Smith?", "Who performed in the films of Paul Smith?"},
		{true, 5, "Who performed in the films of Paul Smith?", "Who performed in the films of Paul Smith?"},
	} {
		rw := NewRelWords()
		for i := range 20 {
			r := "Which films has he directed by now"
			if i < c.directedIn {
				r = "Which films has he directed in all"
			}
			rw.Add(r, []string{"directed_by"})
			rw.AddContext(r)
			if i < 10 {
				r = "Which films has he starred in"
				rw.Add(r, []string{"starred_actors"})
				rw.AddContext(r)
			}
		}
		rw.PruneContext(1)
		p := filmPlanner(t, []string{"directed_by", "starred_actors"}, []string{"Paul Smith", "First Film"}, [][3]int{{1, 0, 0}, {1, 1, 0}},
			[][][]string{{{"*", "<-starred_actors", "movie"}}}, AnchorConfig{RelWords: rw, NamedType: true, Lexicon: true, ReadInContext: c.ctx})
		if got := p.Resolve(c.q); got != c.want {
			t.Errorf("ReadInContext %v, %d of 20 \"directed in\": %q read as %q, want %q", c.ctx, c.directedIn, c.q, got, c.want)
		}
	}
}

// TestCompoundWords: with CompoundWords planning reads a closed compound
// neither the training nor the lexicon knows as the compound the lexicon
// knows with another lemma of its modifier's first noun sense
// ("moviemakers" as "filmmakers"), else as its head noun ("songwalkers" as
// "walkers"), then as what the lexicon reads that word as. A word
// no noun begins ("helmers", "blickets"), one a prefix begins that changes
// what the rest means ("subcategories", "supertypes", "overkinds") and a
// word the lexicon knows ("screenwriters") are not; the text-fit gate
// reads the compound as written.
func TestCompoundWords(t *testing.T) {
	on := helmPlannerWith(t, AnchorConfig{Lexicon: true, CompoundWords: true})
	off := helmPlannerWith(t, AnchorConfig{Lexicon: true})
	for w, want := range map[string]string{
		"moviemakers": "makers", "filmgoers": "goers", "helmers": "", "blickets": "",
		"screenwriters": "", "directors": "", "xqmakers": "", "subcategories": "", "supertypes": "", "overkinds": "",
		"screenwriting": "writing",
	} {
		if got := on.words.compoundTail(w); got != want {
			t.Errorf("compoundTail(%q) = %q, want %q", w, got, want)
		}
	}
	const q, q2 = "Which films were moviemakers in Paul Smith's credits?", "Which films were songwalkers in Paul Smith's credits?"
	for _, c := range []struct {
		p       *LinkingPlanner
		q, want string
	}{
		{on, q, "Which films were filmmakers in Paul Smith's credits?"},
		{on, q2, "Which films were walkers in Paul Smith's credits?"},
		{off, q, q}, {off, q2, q2},
	} {
		if got := c.p.Resolve(c.q); got != c.want {
			t.Errorf("CompoundWords %v: Resolve(%q) = %q, want %q", c.p == on, c.q, got, c.want)
		}
	}
	if got := on.FitText(q); got != q {
		t.Errorf("FitText(%q) = %q, want it as written", q, got)
	}
	// Where the lexicon knows the same compound with another lemma of the
	// modifier's first noun sense (movie's is film's), that word is read.
	if got := on.words.compoundTwin("moviemakers", "makers"); got != "filmmakers" {
		t.Errorf("compoundTwin(moviemakers) = %q, want filmmakers", got)
	}
	if got := on.words.compoundTwin("moviewalkers", "walkers"); got != "" {
		t.Errorf("compoundTwin(moviewalkers) = %q, want none", got)
	}
}
