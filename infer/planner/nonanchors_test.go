package planner

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/data/lexicon"
	"github.com/strata-retrieval/strata/graphops/linking"
)

// TestLearnNonAnchors: a text found unquoted in five questions that no
// plan anchored is a non-anchor ("things"), and so is one anchored in at most
// 2% of its questions ("mean"), or in at most 10% of 100 or more ("what"); one anchored once in ten ("kinds"),
// one quoted once ("purple": a value a question states), and one found in
// four questions only ("rare") are not. A question counts a text once,
// and an anchor overlapping a mention anchors it.
func TestLearnNonAnchors(t *testing.T) {
	var f anchorFixture
	add := func(text string, anchor string, words ...string) {
		t.Helper()
		f.add(t, text, anchor, words...)
	}
	for range 4 {
		add("Which things are kinds of rare ape?", "ape", "things", "kinds", "rare", "ape")
		add("Which purple things are kinds of dog?", "dog", "purple", "things", "kinds", "dog")
	}
	add("Which things things are kinds of fish?", "fish", "things", "things", "kinds", "fish")
	add("List the kinds of cat.", "kinds", "kinds", "cat")
	add("Which cat is defined with 'purple'?", "cat", "cat", "purple")
	// "mean" comes in 61 questions and anchored one (a mined plan's
	// slip): at most maxNonAnchorShare, a non-anchor still.
	for range 60 {
		add("What does cat mean?", "cat", "cat", "mean")
	}
	add("The mean of dog.", "mean", "mean", "dog")
	// In 100 questions or more, a tenth may have anchored: "what" (10 of
	// 100) is a non-anchor, "who" (11 of 100) and "each" (9 of 99) are
	// not; the names beside them anchor 89-90% and are not either.
	for i := range 100 {
		a, b := "bird", "elk"
		if i < 10 {
			a = "what"
		}
		if i < 11 {
			b = "who"
		}
		add("what is bird?", a, "what", "bird")
		add("who is elk?", b, "who", "elk")
		if i < 99 {
			c := "owl"
			if i < 9 {
				c = "each"
			}
			add("each owl?", c, "each", "owl")
		}
	}
	got := LearnNonAnchors(f.texts, f.ments, f.anchors, false)
	if want := []string{"mean", "things", "what"}; !slices.Equal(got, want) {
		t.Errorf("LearnNonAnchors = %v, want %v", got, want)
	}
}

// TestLearnNonAnchorNorms: with norms, a text is counted in its singular
// form and only where it is unquoted. "term" comes in five questions
// unquoted, twice as "terms", never anchored, and once quoted, where it
// is the word a question asks about: a non-anchor "term" (without norms,
// neither "term", three unquoted, nor "terms" comes in five questions,
// and the quote keeps "term" out). "cat" anchors every question it comes
// in; "kinds" (five questions, once quoted) is a non-anchor "kind" with
// norms and none without.
func TestLearnNonAnchorNorms(t *testing.T) {
	var f anchorFixture
	add := func(text string, anchor string, words ...string) {
		t.Helper()
		f.add(t, text, anchor, words...)
	}
	for range 3 {
		add("Which term names a kind of cat?", "cat", "term", "kind", "cat")
	}
	for range 2 {
		add("Which terms name kinds of cat?", "cat", "terms", "kinds", "cat")
	}
	add("What does 'term' mean when it names a kind of cat?", "cat", "term", "kind", "cat")
	add("Which cat is defined with 'kinds'?", "cat", "cat", "kinds")
	if got, want := LearnNonAnchors(f.texts, f.ments, f.anchors, true), []string{"kind", "term"}; !slices.Equal(got, want) {
		t.Errorf("LearnNonAnchors with norms = %v, want %v", got, want)
	}
	if got := LearnNonAnchors(f.texts, f.ments, f.anchors, false); len(got) != 0 {
		t.Errorf("LearnNonAnchors without norms = %v, want none", got)
	}
}

// TestNonAnchorNorms: "Which things are members of Solea?" with the
// non-anchor "thing" learned by its singular form: with NonAnchorNorms the
// candidate anchored on "things" is ruled out and the members of Solea
// answer (fish one); without, "thing" is not the question's text and the
// ranker's choice stands (object). Quoted, "things" is a value the
// question states and is not ruled out even with NonAnchorNorms.
func TestNonAnchorNorms(t *testing.T) {
	for _, c := range []struct {
		q     string
		norms bool
		want  uint32
	}{
		{"Which things are members of Solea?", true, 2},
		{"Which things are members of Solea?", false, 3},
		{"Which 'things' are members of Solea?", true, 3},
	} {
		p := trustingPlanner(t, []string{"things", "Solea", "fish one", "object"}, AnchorConfig{NonAnchors: []string{"thing"}, NonAnchorNorms: c.norms})
		pred, err := p.Predict(context.Background(), data.Query{Text: c.q, ID: -1})
		if err != nil || pred.Reach == nil || !slices.Equal(pred.Reach.Nodes, []uint32{c.want}) {
			t.Errorf("norms %v: %q planned %v reaching %v (%v), want [%d]", c.norms, c.q, pred.Plan.MetapathTokens(), pred.Reach, err, c.want)
		}
	}
}

// TestNonAnchors: "Which things are members of Solea?" where the kinds
// template is the classifier's first (probability 0.88) and a ranker that
// trusts it (weight 5 on its probability's bucket) anchors it on "things",
// whose kind is object; with "things" a non-anchor that candidate is ruled
// out and the members of Solea answer (fish one). Without NonAnchors the
// ranker's choice stands.
func TestNonAnchors(t *testing.T) {
	planner := func(non []string) *LinkingPlanner {
		return trustingPlanner(t, []string{"things", "Solea", "fish one", "object"}, AnchorConfig{NonAnchors: non})
	}
	q := data.Query{Text: "Which things are members of Solea?", ID: -1}
	for _, c := range []struct {
		non  []string
		want uint32
	}{{[]string{"things"}, 2}, {nil, 3}} {
		pred, err := planner(c.non).Predict(context.Background(), q)
		if err != nil || pred.Reach == nil || !slices.Equal(pred.Reach.Nodes, []uint32{c.want}) {
			t.Errorf("NonAnchors %v: %q planned %v reaching %v (%v), want [%d]", c.non, q.Text, pred.Plan.MetapathTokens(), pred.Reach, err, c.want)
		}
	}
}

// TestLearnNonAnchorForms: six training questions open with a verb's
// base form ("Name", "List") and none anchored on it, so lead verbs are a
// non-anchor form; with one more that anchored on it ("Find the Find.",
// 1/7 > 2%) they are not, until 60 more open with one without anchoring
// on it (1/67). A quoted first word, an inflected verb ("Tells") and a
// first word that is no verb ("Plastid") are no lead verbs. The same
// questions' "kinds" and "parts" are mentions followed by "of", never
// anchored: a non-anchor form (head of) until two of 68 such questions
// anchor on one ("cat of Ohio", 2.9%).
func TestLearnNonAnchorForms(t *testing.T) {
	lex, err := lexicon.WordNet()
	if err != nil {
		t.Fatal(err)
	}
	var f anchorFixture
	add := func(text string, anchor string, words ...string) {
		t.Helper()
		f.add(t, text, anchor, words...)
	}
	for range 5 {
		add("Name the kinds of cat.", "cat", "Name", "kinds", "cat")
	}
	add("List the parts of consumer goods.", "consumer goods", "List", "parts", "consumer goods")
	add("'find' can mean what?", "find", "find")
	add("Tells the parts of Ohio?", "Ohio", "Tells", "Ohio")
	add("Plastid includes which things?", "Plastid", "Plastid")
	if got, want := LearnNonAnchorForms(lex, f.texts, f.ments, f.anchors), []string{FormHeadOf, FormLeadVerb}; !slices.Equal(got, want) {
		t.Errorf("LearnNonAnchorForms = %v, want %v", got, want)
	}
	add("Find the Find.", "Find", "Find")
	if got, want := LearnNonAnchorForms(lex, f.texts, f.ments, f.anchors), []string{FormHeadOf}; !slices.Equal(got, want) {
		t.Errorf("LearnNonAnchorForms = %v, want %v", got, want)
	}
	for range 60 {
		add("Name the kinds of cat.", "cat", "Name", "kinds", "cat")
	}
	if got, want := LearnNonAnchorForms(lex, f.texts, f.ments, f.anchors), []string{FormHeadOf, FormLeadVerb}; !slices.Equal(got, want) {
		t.Errorf("LearnNonAnchorForms = %v, want %v", got, want)
	}
	for range 2 {
		add("Which kinds of cat of Ohio?", "cat", "kinds", "cat", "Ohio")
	}
	if got, want := LearnNonAnchorForms(lex, f.texts, f.ments, f.anchors), []string{FormLeadVerb}; !slices.Equal(got, want) {
		t.Errorf("LearnNonAnchorForms = %v, want %v", got, want)
	}
	// The form itself: "of" after white space, before more words or at
	// the end of the question ("What is dhow made up of?": the relation
	// asked along).
	for text, want := range map[string]bool{
		"What type of cuisine?": true, "What type  of cuisine?": true, "What type Of cuisine?": true,
		"Which is the type of": true, "Which is the type of?": true, "Which is the type of ": true, "What type of, then?": true,
		"What type off cuisine?": false, "What typeof cuisine?": false, "What 'type' of cuisine?": false,
		"What type often?": false, "What type of-cuisine?": false, "What type o": false,
	} {
		m := fixtureMention(t, text, "type")
		if got := slices.Contains(mentionForms(lex, text, &m, nil), FormHeadOf); got != want {
			t.Errorf("%q: %q in form head of = %v, want %v", text, m.Text, got, want)
		}
	}
}

// TestNonAnchorForms: "Tell me the members of Solea." where the kinds
// template is the classifier's first and a ranker that trusts it anchors
// it on "Tell" (a node here, as William Tell is on WordNet); with lead
// verbs a non-anchor form that candidate is ruled out and the members of
// Solea answer (fish one); without, the ranker's choice stands.
func TestNonAnchorForms(t *testing.T) {
	planner := func(forms []string) *LinkingPlanner {
		return trustingPlanner(t, []string{"Tell", "Solea", "fish one", "object"}, AnchorConfig{NonAnchorForms: forms})
	}
	for _, c := range []struct {
		q     string
		forms []string
		want  uint32
	}{
		{"Tell me the members of Solea.", []string{FormLeadVerb}, 2},
		{"Tell me the members of Solea.", nil, 3},
	} {
		pred, err := planner(c.forms).Predict(context.Background(), data.Query{Text: c.q, ID: -1})
		if err != nil || pred.Reach == nil || !slices.Equal(pred.Reach.Nodes, []uint32{c.want}) {
			t.Errorf("forms %v: %q planned %v reaching %v (%v), want [%d]", c.forms, c.q, pred.Plan.MetapathTokens(), pred.Reach, err, c.want)
		}
	}
}

// TestHeadOfForm: "What type of thing is a member of Solea?" where a
// ranker that trusts the kinds template anchors it on "type" (a node
// here, as on WordNet) and answers with its kind (object); with head of
// a non-anchor form that candidate is ruled out and the members of Solea
// answer (fish one); without, the ranker's choice stands.
func TestHeadOfForm(t *testing.T) {
	formRulesOut(t, "What type of thing is a member of Solea?", "Type", FormHeadOf)
}

// formRulesOut checks that a ranker that trusts the kinds template,
// anchoring it on the node named (a node with a kind, object), answers q
// with the members of Solea (fish one) when form is a non-anchor form
// and with that kind without it.
func formRulesOut(t *testing.T, q, named, form string) {
	t.Helper()
	for _, c := range []struct {
		forms []string
		want  uint32
	}{{[]string{form}, 2}, {nil, 3}} {
		p := trustingPlanner(t, []string{named, "Solea", "fish one", "object"}, AnchorConfig{NonAnchorForms: c.forms})
		pred, err := p.Predict(context.Background(), data.Query{Text: q, ID: -1})
		if err != nil || pred.Reach == nil || !slices.Equal(pred.Reach.Nodes, []uint32{c.want}) {
			t.Errorf("forms %q: %q planned %v reaching %v (%v), want [%d]", c.forms, q, pred.Plan.MetapathTokens(), pred.Reach, err, c.want)
		}
	}
}

// TestLearnQuotedSlots: template 1's path 0 was anchored on a quoted
// mention in 60 of 61 questions (one unquoted: at most 2%), so it is a
// quoted slot; template 0's path 0 was never quoted, template 2's path 1
// quoted in 4 questions only, template 3's path 0 unquoted in 1 of 11.
func TestLearnQuotedSlots(t *testing.T) {
	var texts []string
	var ments [][]linking.LinkedMention
	var tmpl []int
	var anchors [][]int
	add := func(text string, ti int, per ...string) {
		t.Helper()
		var ms []linking.LinkedMention
		var as []int
		for _, w := range per {
			if w == "" {
				as = append(as, -1)
				continue
			}
			as = append(as, len(ms))
			ms = append(ms, fixtureMention(t, text, w))
		}
		texts, ments, tmpl, anchors = append(texts, text), append(ments, ms), append(tmpl, ti), append(anchors, as)
	}
	for range 60 {
		add("Which adjectives are similar to 'happy'?", 1, "happy")
	}
	add("Which adjectives are similar to sad?", 1, "sad")
	for range 5 {
		add("What are the kinds of dog?", 0, "dog")
	}
	for range 4 {
		add("Which 'cat' is part of 'Ohio'?", 2, "", "Ohio")
	}
	for range 10 {
		add("What does 'fish' mean?", 3, "fish")
	}
	add("What does fish mean?", 3, "fish")
	if got, want := LearnQuotedSlots(texts, ments, tmpl, anchors), [][2]int{{1, 0}}; !slices.Equal(got, want) {
		t.Errorf("LearnQuotedSlots = %v, want %v", got, want)
	}
}

// TestQuotedSlots: "Which things are members of Solea?" where a ranker
// that trusts the kinds template anchors it on "things", unquoted; with
// the kinds template's path a quoted slot that candidate is ruled out and
// the members of Solea answer (fish one); without, or when the question
// quotes 'things', the ranker's choice stands. An unquoted slot weighs
// less than what the question's words name: where "things" before Solea
// is an answer word naming the kinds template's step (<-kind_of), the
// members candidate misses it and the kinds candidate stands, quoted
// slot and all (WordNet's "Find me a close synonym of metal whose gloss
// ...", typed by someone who quotes nothing); without QuotedSlotsYield
// the slot weighs more.
func TestQuotedSlots(t *testing.T) {
	lex, err := lexicon.WordNet()
	if err != nil {
		t.Fatal(err)
	}
	planner := func(slots [][2]int, words map[string]string, yield bool) *LinkingPlanner {
		p := trustingPlanner(t, []string{"things", "Solea", "fish one", "object"}, AnchorConfig{QuotedSlots: slots, AnswerWords: words, QuotedSlotsYield: yield})
		p.names.setLexicon(lex)
		return p
	}
	kinds := map[string]string{"things": "<-kind_of"}
	for _, c := range []struct {
		q     string
		slots [][2]int
		words map[string]string
		yield bool
		want  uint32
	}{
		{"Which things are members of Solea?", [][2]int{{0, 0}}, nil, true, 2},
		{"Which things are members of Solea?", nil, nil, true, 3},
		{"Which things are members of Solea?", [][2]int{{1, 0}}, nil, true, 3},
		{"Which 'things' are members of Solea?", [][2]int{{0, 0}}, nil, true, 3},
		{"Which things are members of Solea?", [][2]int{{0, 0}}, kinds, true, 3},
		{"Which things are members of Solea?", [][2]int{{0, 0}}, kinds, false, 2},
	} {
		pred, err := planner(c.slots, c.words, c.yield).Predict(context.Background(), data.Query{Text: c.q, ID: -1})
		if err != nil || pred.Reach == nil || !slices.Equal(pred.Reach.Nodes, []uint32{c.want}) {
			t.Errorf("QuotedSlots %v (yield %v): %q planned %v reaching %v (%v), want [%d]", c.slots, c.yield, c.q, pred.Plan.MetapathTokens(), pred.Reach, err, c.want)
		}
	}
}

// TestQuotedRival: with QuotedRival, the kinds template's quoted slot
// anchored on an unquoted "things" rules the candidate out only where the
// question quotes another mention the slot may take (one with a kind:
// 'things' again); a quoted 'Solea', which has no kind, is no rival. So
// "Which things are members of Solea?" keeps the ranker's kinds of things
// (object); quoting 'things' elsewhere hands it to the members of Solea
// only when the unquoted one is anchored, and TestQuotedSlots' case
// without QuotedRival still rules the unquoted anchor out.
func TestQuotedRival(t *testing.T) {
	p := trustingPlanner(t, []string{"things", "Solea", "fish one", "object"}, AnchorConfig{QuotedSlots: [][2]int{{0, 0}}, QuotedSlotsYield: true, QuotedRival: true})
	for _, c := range []struct {
		q, anchor string
		rival     bool
	}{
		{"Which things are members of Solea?", "things", false},
		{"Which things are members of 'Solea'?", "things", false},
		{"Which things, the 'things' I mean, are members of Solea?", "things", true},
	} {
		ments := p.findMentions(c.q)
		a := slices.IndexFunc(ments, func(m linking.LinkedMention) bool {
			return m.Text == c.anchor && !quotedMention(c.q, &m)
		})
		if a < 0 {
			t.Fatalf("%q: no unquoted mention %q in %v", c.q, c.anchor, ments)
		}
		cand := PlanCandidate{Template: 0, Mentions: []int{a}}
		if got := p.unquotedSlot(c.q, ments, &cand); got != c.rival {
			t.Errorf("%q: unquotedSlot = %v, want %v", c.q, got, c.rival)
		}
	}
	pred, err := p.Predict(context.Background(), data.Query{Text: "Which things are members of Solea?", ID: -1})
	if err != nil || pred.Reach == nil || !slices.Equal(pred.Reach.Nodes, []uint32{3}) {
		t.Errorf("QuotedRival: planned %v reaching %v (%v), want [3]", pred.Plan.MetapathTokens(), pred.Reach, err)
	}
}

// fixtureMention is the mention of w's first occurrence in text, its
// words placed as MentionWords places them.
func fixtureMention(t *testing.T, text, w string) linking.LinkedMention {
	t.Helper()
	i := strings.Index(text, w)
	tok := slices.IndexFunc(linking.MentionWords(text), func(x linking.Word) bool { return x.Start == i })
	if i < 0 || tok < 0 {
		t.Fatalf("%q is no word of %q", w, text)
	}
	return linking.LinkedMention{Start: i, End: i + len(w), TokStart: tok, TokEnd: tok + len(linking.MentionWords(w)), Text: w}
}

// anchorFixture collects training questions, their mentions and their
// anchor mentions for the learners' tests.
type anchorFixture struct {
	texts   []string
	ments   [][]linking.LinkedMention
	anchors [][]int
}

// add appends text with mentions words, anchored on those whose text is
// anchor.
func (f *anchorFixture) add(t *testing.T, text, anchor string, words ...string) {
	t.Helper()
	var ms []linking.LinkedMention
	var as []int
	for _, w := range words {
		if w == anchor {
			as = append(as, len(ms))
		}
		ms = append(ms, fixtureMention(t, text, w))
	}
	f.texts, f.ments, f.anchors = append(f.texts, text), append(f.ments, ms), append(f.anchors, as)
}

// trustingPlanner is the planner the rule tests share: the kinds
// template (0) and the members template (1) over nodes names (names[0]
// has a kind, names[3]; names[2] is a member of names[1]), the
// classifier's first template kinds (probability 0.88) and a ranker that
// trusts it (weight 5 on its probability's bucket).
func trustingPlanner(t *testing.T, names []string, a AnchorConfig) *LinkingPlanner {
	t.Helper()
	p := filmPlanner(t, []string{"kind_of", "member_of"}, names,
		[][3]int{{3, 0, 0}, {2, 1, 1}},
		[][][]string{{{"*", "<-kind_of", "person"}}, {{"*", "<-member_of", "person"}}}, a)
	trustFirstTemplate(p)
	return p
}

// trustFirstTemplate makes p's classifier prefer its first template of
// two and its plan ranker trust the classifier's most probable template.
func trustFirstTemplate(p *LinkingPlanner) {
	rankTemplates(p, []float32{2, 0})
	p.Ranker.W.Data()[featureIndex(p.Ranker.Dim, "tlp0")] = 5
}

// TestLearnAnchorAfter: "of" stood before a mention in 6 questions, 3 of
// them anchoring on it (half: a word anchors follow); "the" before one in
// 3 and "subtype" in 4 (all anchored), too few; "Name" starts its
// questions, with nothing before it. A seventh "of" never anchored takes
// "of" below half.
func TestLearnAnchorAfter(t *testing.T) {
	var f anchorFixture
	add := func(text string, anchor string, words ...string) {
		t.Helper()
		f.add(t, text, anchor, words...)
	}
	for range 2 {
		add("Name the parts of cat.", "cat", "Name", "parts", "cat")
	}
	add("List the parts of Ohio.", "Ohio", "parts", "Ohio")
	for range 3 {
		add("Which kinds of things are there?", "", "kinds", "things")
	}
	for range 4 {
		add("A subtype dog?", "dog", "dog")
	}
	if got, want := LearnAnchorAfter(f.texts, f.ments, f.anchors), []string{"of"}; !slices.Equal(got, want) {
		t.Errorf("LearnAnchorAfter = %v, want %v", got, want)
	}
	add("Which kinds of things are there?", "", "kinds", "things")
	if got := LearnAnchorAfter(f.texts, f.ments, f.anchors); len(got) != 0 {
		t.Errorf("with a seventh 'of' never anchored: LearnAnchorAfter = %v, want none", got)
	}
}

// TestLearnNonAnchorAfter: "specific" stood before a mention in 5
// questions and never before an anchor, so it is a word no anchor follows;
// "hold" came before anchors only, "the" is a stop word (what follows it
// depends on the sentence frame), and "does" came before quoted mentions
// only, which say nothing of an unquoted word after it. A sixth question
// anchored after "specific" (1 of 6, above 2%) takes it off.
func TestLearnNonAnchorAfter(t *testing.T) {
	var f anchorFixture
	add := func(text string, anchor string, words ...string) {
		t.Helper()
		f.add(t, text, anchor, words...)
	}
	for range 5 {
		add("Which specific things hold cat?", "cat", "things", "cat")
		add("List the kinds of dog.", "dog", "kinds", "dog")
		add("What does 'cat' mean as a kind of pet?", "pet", "cat", "pet")
	}
	if got, want := LearnNonAnchorAfter(f.texts, f.ments, f.anchors), []string{"specific"}; !slices.Equal(got, want) {
		t.Errorf("LearnNonAnchorAfter = %v, want %v", got, want)
	}
	add("Which specific cat?", "cat", "cat")
	if got := LearnNonAnchorAfter(f.texts, f.ments, f.anchors); len(got) != 0 {
		t.Errorf("with an anchor after 'specific': LearnNonAnchorAfter = %v, want none", got)
	}
}

// TestLearnNonAnchorAfterForms: "from" stood before a year in 5
// questions, never anchored, and before no name, so no anchor follows it
// where a number does (numbers) and nothing is learned for a name after it
// (words); "specific" stood before names only. Counted over every mention
// (LearnNonAnchorAfter) "from" rules out names too. A sixth question with
// a name anchored after "from" leaves the rule for numbers as it is.
func TestLearnNonAnchorAfterForms(t *testing.T) {
	var f anchorFixture
	add := func(text string, anchor string, words ...string) {
		t.Helper()
		f.add(t, text, anchor, words...)
	}
	for range 5 {
		add("Find movies from 1990 that cat directed.", "cat", "1990", "cat")
		add("Which specific things hold dog?", "dog", "things", "dog")
	}
	check := func(wantWords, wantNumbers []string) {
		t.Helper()
		words, numbers := LearnNonAnchorAfterForms(f.texts, f.ments, f.anchors)
		if !slices.Equal(words, wantWords) || !slices.Equal(numbers, wantNumbers) {
			t.Errorf("LearnNonAnchorAfterForms = %v, %v, want %v, %v", words, numbers, wantWords, wantNumbers)
		}
	}
	check([]string{"specific"}, []string{"from"})
	if got, want := LearnNonAnchorAfter(f.texts, f.ments, f.anchors), []string{"from", "specific"}; !slices.Equal(got, want) {
		t.Errorf("LearnNonAnchorAfter = %v, want %v", got, want)
	}
	add("Show films from cat.", "cat", "cat")
	check([]string{"specific"}, []string{"from"})
}

// TestNumberNonAnchorAfter: with "from" a word no number follows as an
// anchor, the candidate anchored on the number 1917 right after it is
// ruled out and the members of Solea answer; "Tell" after "from", a name,
// stays (the kinds of Tell), unless "from" is a word no anchor follows.
func TestNumberNonAnchorAfter(t *testing.T) {
	for _, c := range []struct {
		q              string
		after, numbers []string
		name           string
		want           uint32
	}{
		{"Name things from 1917 among the members of Solea.", nil, []string{"from"}, "1917", 2},
		{"Name things from 1917 among the members of Solea.", nil, nil, "1917", 3},
		{"Name things from Tell among the members of Solea.", nil, []string{"from"}, "Tell", 3},
		{"Name things from Tell among the members of Solea.", []string{"from"}, nil, "Tell", 2},
	} {
		p := trustingPlanner(t, []string{c.name, "Solea", "fish one", "object"}, AnchorConfig{NonAnchorAfter: c.after, NumberNonAnchorAfter: c.numbers})
		pred, err := p.Predict(context.Background(), data.Query{Text: c.q, ID: -1})
		if err != nil || pred.Reach == nil || !slices.Equal(pred.Reach.Nodes, []uint32{c.want}) {
			t.Errorf("after %v, numbers after %v: %q planned %v reaching %v (%v), want [%d]", c.after, c.numbers, c.q, pred.Plan.MetapathTokens(), pred.Reach, err, c.want)
		}
	}
}

// TestNonAnchorAfter: the planner trusts its most probable template (the
// kinds of Tell: object); with "particular" a word no anchor follows, the
// candidate anchored on "Tell" right after it is ruled out and the
// members of Solea (fish one) answer; a quoted mention there stays a
// value the question states.
func TestNonAnchorAfter(t *testing.T) {
	for _, c := range []struct {
		q     string
		after []string
		want  uint32
	}{
		{"Name a particular Tell among the members of Solea.", []string{"particular"}, 2},
		{"Name a particular Tell among the members of Solea.", nil, 3},
		{"Name a particular 'Tell' among the members of Solea.", []string{"particular"}, 3},
	} {
		p := trustingPlanner(t, []string{"Tell", "Solea", "fish one", "object"}, AnchorConfig{NonAnchorAfter: c.after})
		pred, err := p.Predict(context.Background(), data.Query{Text: c.q, ID: -1})
		if err != nil || pred.Reach == nil || !slices.Equal(pred.Reach.Nodes, []uint32{c.want}) {
			t.Errorf("after %v: %q planned %v reaching %v (%v), want [%d]", c.after, c.q, pred.Plan.MetapathTokens(), pred.Reach, err, c.want)
		}
	}
}
