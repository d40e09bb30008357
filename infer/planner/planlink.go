package planner

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/data/index"
	"github.com/strata-retrieval/strata/graphops"
	"github.com/strata-retrieval/strata/graphops/linking"
	"github.com/strata-retrieval/strata/graphops/workspace"
	"github.com/strata-retrieval/strata/infer"
	"github.com/strata-retrieval/strata/models"
)

// Defaults of AnchorConfig.
const (
	defaultAnchorDim    = 1 << 18
	defaultTopTemplates = 8
	defaultTopMentions  = 3
)

// LinkingPlanner plans from relation paths whose anchors it links (a
// planner trained from mined plans, Cfg.Anchors set): the question's
// mentions (names and alias fields, see linking.MentionIndex) are scored
// for each path of a template by a hashed linear model of their context,
// the template's first hop and how many of their nodes have such an edge;
// the most probable (template, mentions) pairs, each with its ranked or
// unranked twin, are executed on the graph, and the plan ranker chooses
// among those that reach a candidate (plan execution checks the plan, as
// an empty answer set rules it out). The anchors keep every node of the
// mention that has the path's first hop.
type LinkingPlanner struct {
	*Classifier
	Anchor *models.SparseLinear
	Ranker *models.SparseLinear // the plan ranker; nil without Cfg.Anchors.RankDim
	// Fit is the text-fit gate (fit.go); nil without Cfg.Anchors.Fit.
	Fit   *models.SparseLinear
	ments *linking.MentionIndex
	hops  [][]graphops.Hop   // per template, the first hop of each path
	walks [][][]graphops.Hop // per template, every hop of each path
	names schemaNames
	words *wordResolver // nil without Cfg.Anchors.Lexicon
	// joins: the two-path templates by their paths' tokens, first path
	// and second; single: each one-path template's path tokens, "" for
	// the others (AnchorConfig.JoinSingles).
	joins  map[[2]string][]int
	single []string
}

// NewLinkingPlanner binds a linking planner (Cfg.Anchors set) to a
// workspace. Templates must compile against the schema.
func NewLinkingPlanner(ws *workspace.Workspace, d *infer.DenseChannel, cfg Config, gate *models.Gate, anchor, ranker *models.SparseLinear) (*LinkingPlanner, error) {
	if cfg.Anchors == nil || anchor == nil {
		return nil, fmt.Errorf("planner: a linking planner needs its anchor config and scorer")
	}
	if (cfg.Anchors.RankDim > 0) != (ranker != nil) {
		return nil, fmt.Errorf("planner: plan ranker dimension %d but ranker %v", cfg.Anchors.RankDim, ranker != nil)
	}
	if cfg.SchemaSteps < 0 || cfg.SchemaSteps > len(cfg.Templates) || cfg.Gate.Out != cfg.Classified() {
		return nil, fmt.Errorf("planner: %d templates, %d of them schema steps, but the classifier scores %d", len(cfg.Templates), cfg.SchemaSteps, cfg.Gate.Out)
	}
	p := &LinkingPlanner{Classifier: newClassifier(ws, d, cfg, gate), Anchor: anchor, Ranker: ranker, names: newSchemaNames(&ws.SKB.Schema)}
	if slices.Equal(ws.Mentions().Config().AliasFields, cfg.Anchors.Mentions.AliasFields) && cfg.Anchors.Mentions.MaxTokens == ws.Mentions().Config().MaxTokens {
		p.ments = ws.Mentions()
	} else {
		p.ments = linking.NewMentionIndex(ws.SKB, cfg.Anchors.Mentions)
	}
	for ti, t := range cfg.Templates {
		var hs []graphops.Hop
		var walks [][]graphops.Hop
		for pi, path := range t {
			_, hops, err := graphops.CompilePath(&ws.SKB.Schema, pi, path)
			if err != nil {
				return nil, fmt.Errorf("planner template %d: %w", ti, err)
			}
			if len(hops) == 0 {
				return nil, fmt.Errorf("planner template %d path %d has no hop", ti, pi)
			}
			hs = append(hs, hops[0])
			walks = append(walks, hops)
		}
		p.hops = append(p.hops, hs)
		p.walks = append(p.walks, walks)
		single := ""
		switch len(t) {
		case 1:
			single = strings.Join(t[0].Tokens(), " ")
		case 2:
			if p.joins == nil {
				p.joins = map[[2]string][]int{}
			}
			k := [2]string{strings.Join(t[0].Tokens(), " "), strings.Join(t[1].Tokens(), " ")}
			p.joins[k] = append(p.joins[k], ti)
		}
		p.single = append(p.single, single)
	}
	words, err := p.newWordResolver()
	if err != nil {
		return nil, err
	}
	p.words = words
	if words != nil && cfg.Anchors.ReadMentions {
		words.inMentions = p.readInMention
	}
	if words != nil && cfg.Anchors.QuoteLabels {
		words.relOnly = p.relationOnly
	}
	return p, nil
}

// Resolve is the question as the planner reads it: with Cfg.Anchors.Lexicon,
// each word no training question used that the lexicon relates to a word
// the planner knows, outside the question's mentions and quotes (with
// ReadMentions, inside a mention of its own too, where readInMention
// allows), is replaced by that word (lexwords.go); otherwise text itself.
func (p *LinkingPlanner) Resolve(text string) string {
	if p.words == nil {
		return text
	}
	out, _ := p.resolveRead(text)
	return out
}

// resolveRead is Resolve, also returning the spans of the words read:
// where one was read inside a mention (AnchorConfig.ReadMentions) the
// question no longer names a node, so no candidate anchors on a mention
// overlapping it.
func (p *LinkingPlanner) resolveRead(text string) (string, []readSpan) {
	if p.words == nil {
		return text, nil
	}
	out, _, read := p.words.resolveRead(text, p.findMentions)
	return out, read
}

// FitText is the text the text-fit gate reads: with Cfg.Anchors.Lexicon,
// every word no training question used that the lexicon relates to a
// known word is read as it, words that name nodes included (the gate asks
// whether a query is worded like the training questions, not what it
// names: "Tell me which textile forms component of shirt" is worded as
// "... forms part of ..."); otherwise text itself. Training reads its
// questions and passages, and calibrates the threshold, the same way.
func (p *LinkingPlanner) FitText(text string) string {
	if p.words == nil {
		return text
	}
	out, _ := p.words.resolve(text, nil)
	return out
}

// Mentions returns the mention index the planner links with.
func (p *LinkingPlanner) Mentions() *linking.MentionIndex { return p.ments }

// Params implements Predictor: the classifier's, the anchor scorer's and
// the plan ranker's tensors.
func (p *LinkingPlanner) Params() []models.NamedParam {
	ps := append(p.Classifier.Params(), p.Anchor.Params()...)
	if p.Ranker != nil {
		ps = append(ps, p.Ranker.Params()...)
	}
	if p.Fit != nil {
		ps = append(ps, p.Fit.Params()...)
	}
	return ps
}

// maxDeeper bounds the templates a deeper search tries beyond
// TopTemplates (candidates' more).
const maxDeeper = 2

// maxUnreached bounds the templates tried beyond TopTemplates when none
// of theirs reaches a node (DeeperUnreached).
const maxUnreached = 8

// Predict implements Predictor: the candidate the plan ranker scores
// highest among those whose plan reaches a candidate (without a ranker,
// the most probable such candidate). The chosen plan comes back executed
// (infer.PlanPrediction.Reach), so nothing executes it again.
func (p *LinkingPlanner) Predict(ctx context.Context, q data.Query) (infer.PlanPrediction, error) {
	if err := ctx.Err(); err != nil {
		return infer.PlanPrediction{Template: -1}, err
	}
	if tooLong(q.Text) {
		return infer.PlanPrediction{Template: -1, TooLong: true}, nil
	}
	fit := float32(1)
	below := false
	if f := p.Cfg.Anchors.Fit; f != nil && p.Fit != nil {
		if fit = FitProb(p.Fit, p.FitFeatures(q.Text)); fit < f.Min && !(f.QuestionMarks && (closesAsked(q.Text) || f.AskedSentences && asksSentence(q.Text))) && !(f.AskedRequests && requestSentence(q.Text)) && !(f.ReaderRequests && readerRequest(q.Text)) {
			if f.Rescue <= 0 {
				return infer.PlanPrediction{Template: -1, NoFit: true, Fit: fit}, nil
			}
			below = true
		}
	}
	pred, err := p.PredictUngated(ctx, q)
	pred.Fit = fit
	// Below the gate's threshold, a plan stands only when the planner is
	// more sure of it than FitConfig.Rescue.
	if below && err == nil && pred.Conf < p.Cfg.Anchors.Fit.Rescue {
		return infer.PlanPrediction{Template: -1, NoFit: true, Fit: fit}, nil
	}
	return pred, err
}

// minLeadTypeProb is how probable the type a plan answers with must be
// after the question's lead words (LeadTypes.Prob) for the plan to stand
// when what the question names rules out every candidate
// (AnchorConfig.DeclineRuledOut). On the development sets every plan
// chosen while ruled out whose type had a probability below it was
// wrong but one (WordNet's "displease includes which more specific
// things?"), none of them on movies-skb's; "What is liter made up of?",
// anchored on "up" and answering with adjectives, is the kind it stops.
const minLeadTypeProb = 0.01

// declines reports whether the planner answers with no plan rather than
// with c, the best candidate, when least (ruleOut's) rules out every
// candidate that reaches a node (DeclineRuledOut).
func (p *LinkingPlanner) declines(text string, ments []linking.LinkedMention, c *PlanCandidate, least int) bool {
	l := p.Cfg.Anchors.Lead
	if !p.Cfg.Anchors.DeclineRuledOut || l == nil || least < 1<<10 || len(c.Reach) == 0 {
		return false
	}
	t := p.skb.Schema.NodeTypes[p.ws.Graph.Type(c.Reach[0])]
	return l.Prob(LeadWords(text, ments, c.Mentions), t) < minLeadTypeProb
}

// MaxPlanWords is the most words a question the planner plans may have
// (STaRK's longest question has 101; movies-skb's and WordNet's, 25).
// Reading a question's mentions against each other grows with the square
// of their number, and a word may start up to 8 of them: a longer text
// is answered by the text channel (PlanPrediction.TooLong), so a
// request's planning cost is bounded whatever its length.
const MaxPlanWords = 128

// tooLong reports whether text has more than MaxPlanWords words.
func tooLong(text string) bool {
	n, in := 0, false
	for _, r := range text {
		w := unicode.IsLetter(r) || unicode.IsDigit(r)
		if w && !in {
			if n++; n > MaxPlanWords {
				return true
			}
		}
		in = w
	}
	return false
}

// PredictUngated is Predict without the text-fit gate: the plan the
// planner would choose for any text.
func (p *LinkingPlanner) PredictUngated(ctx context.Context, q data.Query) (infer.PlanPrediction, error) {
	if err := ctx.Err(); err != nil {
		return infer.PlanPrediction{Template: -1}, err
	}
	if tooLong(q.Text) {
		return infer.PlanPrediction{Template: -1, TooLong: true}, nil
	}
	pred, err := p.predictRead(ctx, q)
	// A word neither the lexicon nor the training knows may be a
	// misspelt name (FuzzyNames).
	if err == nil && p.Cfg.Anchors.FuzzyNames {
		if text, ok := p.fuzzyRead(q.Text); ok {
			fq := q
			fq.Text = text
			if fp, ferr := p.predictRead(ctx, fq); ferr == nil && len(fp.Plan.Paths) > 0 {
				fp.ReadAs = cmp.Or(fp.ReadAs, text)
				return fp, nil
			} else if ferr != nil {
				return fp, ferr
			}
		}
	}
	return pred, err
}

// predictRead plans q as read: its asking sentence, with the words no
// training question used read by the lexicon and, with PoliteWords, its
// words of courtesy left out (withoutPolite; ReadAs, where that changed
// the text).
func (p *LinkingPlanner) predictRead(ctx context.Context, q data.Query) (infer.PlanPrediction, error) {
	text := q.Text
	if p.Cfg.Anchors.PoliteWords {
		var isVerb func(string) bool
		if p.names.lex != nil {
			isVerb = p.names.lex.IsVerb
		}
		q.Text = withoutPolite(q.Text, isVerb, p.findMentions)
	}
	q.Text = p.askingSentence(q.Text)
	resolved, read := p.resolveRead(q.Text)
	q.Text = resolved
	pred, err := p.predict(ctx, q, read)
	pred.Fit = 1
	if q.Text != text {
		pred.ReadAs = q.Text
	}
	return pred, err
}

func (p *LinkingPlanner) predict(ctx context.Context, q data.Query, read []readSpan) (infer.PlanPrediction, error) {
	cs, ments, err := p.candidates(ctx, q, nil, 0, read, true)
	if err != nil {
		return infer.PlanPrediction{Template: -1}, err
	}
	// No candidate reaches a node: the search goes deeper, among the
	// templates some mention anchors (DeeperUnreached).
	if p.Cfg.Anchors.DeeperUnreached && !slices.ContainsFunc(cs, func(c PlanCandidate) bool { return len(c.Reach) > 0 }) {
		deep, dments, err := p.candidates(ctx, q, func(int, []int, [][]uint32) bool { return true }, maxUnreached, read, true)
		if err != nil {
			return infer.PlanPrediction{Template: -1}, err
		}
		if len(deep) > len(cs) {
			cs, ments = deep, dments
		}
	}
	if len(cs) == 0 {
		return infer.PlanPrediction{Template: -1}, nil
	}
	if p.Ranker != nil {
		words, kinds := readWords(q.Text, read), readKinds(q.Text, read)
		key, least, err := p.ruleOutRead(ctx, q.Text, ments, cs, words, kinds)
		if err != nil {
			return infer.PlanPrediction{Template: -1}, err
		}
		// When the question's words rule out every candidate, the search
		// goes deeper (DeeperSearch) among the templates beyond the top
		// ones: see deeper.
		if more := p.deeper(q.Text, ments, cs, key, least, words, kinds); more != nil {
			deep, dments, err := p.candidates(ctx, q, more, maxDeeper, read, true)
			if err != nil {
				return infer.PlanPrediction{Template: -1}, err
			}
			if len(deep) > len(cs) {
				cs, ments = deep, dments
				if key, least, err = p.ruleOutRead(ctx, q.Text, ments, cs, words, kinds); err != nil {
					return infer.PlanPrediction{Template: -1}, err
				}
			}
		}
		feats := p.RankFeatures(q.Text, ments, cs)
		// A two-step template of the schema, which the ranker never saw
		// in training, is chosen only where no other candidate is left
		// ("Name some particular examples of aquarium." keeps its
		// instances, not the instances of its instances' classes).
		plain := false
		for i, c := range cs {
			plain = plain || len(c.Reach) > 0 && key[i] == least && !p.schemaPath(c.Template)
		}
		// Where two-step templates of the schema alone are left, which no
		// ranker saw in training, the ones that walk the fewest relations
		// no word of the question names come first (unnamedWalks), and
		// the ranker chooses among them.
		unnamed := map[int]int{}
		if !plain {
			for i := range cs {
				if len(cs[i].Reach) > 0 && key[i] == least {
					unnamed[i] = p.unnamedWalks(q.Text, ments, &cs[i], words)
				}
			}
		}
		eligible := func(i int) bool {
			return len(cs[i].Reach) > 0 && key[i] <= least && !(plain && p.schemaPath(cs[i].Template))
		}
		var extra map[int]bool
		if p.Cfg.Anchors.NamedSteps {
			extra = p.unnamedExtra(q.Text, ments, cs, eligible, words, kinds)
		}
		best, bs := -1, float32(0)
		var scores []float32
		for i := range cs {
			if !eligible(i) || extra[i] {
				continue
			}
			s := p.Ranker.Score(feats[i])
			scores = append(scores, s)
			if best < 0 || unnamed[i] < unnamed[best] || unnamed[i] == unnamed[best] && s > bs {
				best, bs = i, s
			}
		}
		if best >= 0 && p.declines(q.Text, ments, &cs[best], least) {
			return infer.PlanPrediction{Template: -1, RuledOut: true}, nil
		}
		if best >= 0 {
			var z float64
			for _, s := range scores {
				z += math.Exp(float64(s - bs))
			}
			c := &cs[best]
			return infer.PlanPrediction{Plan: c.Plan, Prob: float32(math.Exp(c.TemplateLP)), Conf: float32(1 / z), Template: c.Template, Reach: c.executed()}, nil
		}
	}
	for i := range cs {
		if c := &cs[i]; len(c.Reach) > 0 {
			p.ScoreCandidates(q.Text, ments, cs[i:i+1])
			pr := float32(math.Exp(c.TemplateLP))
			return infer.PlanPrediction{Plan: c.Plan, Prob: pr, Conf: pr, Template: c.Template, Reach: c.executed()}, nil
		}
	}
	pr := float32(math.Exp(cs[0].TemplateLP))
	return infer.PlanPrediction{Plan: cs[0].Plan, Prob: pr, Conf: pr, Template: cs[0].Template}, nil
}

// deeper returns which anchorings of templates beyond the top ones a
// deeper search tries (candidates' more), nil for none: when the question
// names a type or relation that rules out every candidate, templates that
// walk a relation for each word naming one ("What person penned pictures
// X appeared in?": the writers-of-an-actor's-films template ranked 13th)
// and end with the step an answer word names ("Which directors made
// movies out of X's scripts?": the directors of a writer's films);
// when every candidate left leaves a mention unexplained (CoverMentions),
// anchorings on every mention one of them leaves unexplained ("Which
// comedy movies featuring X?": the genre-and-actor template ranked 10th);
// with LongerAnchors, when every candidate left is anchored inside a
// longer mention no candidate that reaches a node anchors on, anchorings
// on such a longer mention ("What is Jewish calendar made up of?": the
// top templates anchor "calendar", none "Jewish calendar", which has no
// kinds but parts). With DeeperAsked, when the type the question asks
// for rules out every candidate, the templates tried end with a step the
// data's edges take to that type (graphops.RelationEnds: "which type of
// movie are all of X's screenplays", a genre, tries the genre every one
// of X's films has, ranked 9th). key and least are ruleOut's, kinds
// resolveRead's (readKinds).
//
// With DeeperAsked, the search for what a named type or relation rules
// out (ruledOutSearch) tries anchorings on no mention the question's
// form rules out as an anchor (ruledOutAnchor), every path of which
// leads somewhere from its anchors (leads).
//
// A two-step template of the schema (schemaPath), which no training
// question walks, is tried only where a named type or relation rules out
// every candidate (ruledOutSearch: "Who wrote the movies that Ridley
// Scott directed?"), anchored where the ranker's choice among them is,
// or where no candidate reaches a node (predict's DeeperUnreached); the
// longer-anchor, repeat and cover searches try trained templates alone.
// Anchored anywhere, on the generated demo SKB, "Which Chiogil Home item
// is realicru?" (its answer word "item" ruling out every candidate) got
// a schema path from "realicru", also a product's name, through the
// product's category and back, which explained "item" and won on the
// rule-out key before the ranker was asked.
func (p *LinkingPlanner) deeper(text string, ments []linking.LinkedMention, cs []PlanCandidate, key []int, least int, read map[string]bool, kinds map[string]string) func(ti int, chosen []int, nodes [][]uint32) bool {
	if !p.Cfg.Anchors.DeeperSearch || least < 0 {
		return nil
	}
	if longer := p.unanchoredLonger(text, ments, cs, key, least); len(longer) > 0 {
		// With DeeperAsked, the templates tried walk the relations the
		// question names too ("Who wrote the script of Primal Fear?": the
		// film's writers, not its cast, anchored on "Primal Fear" for
		// "Fear"). The schema's two-step paths are tried only with
		// NamedFirst.
		var named [][]string
		if p.Cfg.Anchors.DeeperAsked {
			named = p.namedOutside(text, ments, longer, read)
		}
		return func(ti int, chosen []int, _ [][]uint32) bool {
			if p.schemaPath(ti) && !p.Cfg.Anchors.NamedFirst || !slices.ContainsFunc(chosen, func(a int) bool { return slices.Contains(longer, a) }) {
				return false
			}
			walked := PlanRelations(&data.Plan{Paths: p.Cfg.Templates[ti]})
			for _, rels := range named {
				if !slices.ContainsFunc(rels, func(r string) bool { return slices.Contains(walked, r) }) {
					return false
				}
			}
			return true
		}
	}
	if least == 0 {
		return p.pairedSearch(text, ments, cs, key)
	}
	// With DeeperAsked, a mention the question's form rules out as an
	// anchor (ruledOutAnchor) is the question's word, not a name: when
	// every candidate left is anchored on one, the templates tried walk
	// the relations such words name ("What are the parts of a dhow?":
	// every top template anchors "parts", in the head-of form, and the
	// deeper search walks part holonym from dhow).
	var outForm []bool // ruledOutAnchor of each mention, read once
	if p.Cfg.Anchors.DeeperAsked {
		outForm = make([]bool, len(ments))
		for i := range ments {
			outForm[i] = p.ruledOutAnchor(text, &ments[i])
		}
	}
	formOut := func(a int) bool { return a >= 0 && a < len(outForm) && outForm[a] }
	allFormOut := p.Cfg.Anchors.DeeperAsked && least < 1<<20 && least >= 1<<15
	for i := range cs {
		if allFormOut && len(cs[i].Reach) > 0 && key[i] == least && !slices.ContainsFunc(cs[i].Mentions, formOut) {
			allFormOut = false
		}
	}
	// Ruled out by a named type or relation (an outer anchor's node
	// alone is not a word the deeper templates could walk), or anchored
	// where the question's form says no name is and a word there names
	// a relation.
	if more, ok := p.ruledOutSearch(text, ments, cs, key, least, read, kinds, formOut, allFormOut); ok {
		return more
	}
	// A nested word that every candidate left walks no relation twice
	// for (RepeatTwice): the templates tried do.
	if least%(1<<10) >= 1<<9 {
		return func(ti int, _ []int, _ [][]uint32) bool {
			return !p.schemaPath(ti) && walksTwice(&data.Plan{Paths: p.Cfg.Templates[ti]})
		}
	}
	// A relation every candidate left walks twice where the question
	// says no depth (DepthSaid): the templates tried walk none twice.
	if least%(1<<8) >= 1<<7 {
		return func(ti int, _ []int, _ [][]uint32) bool {
			return !p.schemaPath(ti) && !walksTwice(&data.Plan{Paths: p.Cfg.Templates[ti]})
		}
	}
	var open [][]int
	for i := range cs {
		if len(cs[i].Reach) > 0 && key[i] == least {
			for _, span := range p.unexplainedSpans(ments, &cs[i]) {
				if !slices.ContainsFunc(open, func(o []int) bool { return slices.Equal(o, span) }) {
					open = append(open, span)
				}
			}
		}
	}
	return func(ti int, chosen []int, _ [][]uint32) bool {
		if p.schemaPath(ti) {
			return false
		}
		for _, span := range open {
			if !slices.ContainsFunc(chosen, func(a int) bool {
				return slices.ContainsFunc(span, func(m int) bool { return explains(&ments[a], &ments[m]) })
			}) {
				return false
			}
		}
		return true
	}
}

// ruledOutSearch is deeper's search when a named type or relation rules
// out every candidate (least, key: ruleOut's), or when every candidate
// left is anchored on a mention formOut rules out as an anchor
// (allFormOut) and the words outside the other anchors name a relation:
// the templates that walk a relation for each word naming one, end with
// the step an answer word names, and, with DeeperAsked, end at the type
// the question asks for; with DeeperAsked, anchored on no mention formOut
// rules out, every path leading somewhere from its anchors (leads): the
// two templates tried for "What are the parts of a dhow?" are dhow's
// parts, not the hypernyms of its parts that are acts, which reach
// nothing. False when it does not apply; nil and true when it applies
// and nothing is named to search for.
func (p *LinkingPlanner) ruledOutSearch(text string, ments []linking.LinkedMention, cs []PlanCandidate, key []int, least int, read map[string]bool, kinds map[string]string, formOut func(int) bool, allFormOut bool) (func(ti int, chosen []int, nodes [][]uint32) bool, bool) {
	ruled := least >= 1<<20 || least%(1<<15) >= 1<<10
	if !ruled && !allFormOut {
		return nil, false
	}
	// The relations named outside every ruled-out candidate's anchors (a
	// word one of them anchors on names nothing for the others either,
	// unless its form rules it out as an anchor), and the steps their
	// answer words name.
	var anchored []int
	var ends []string
	verbRels, verbAt := p.subjectRels(text, read)
	object := p.objectVerbRule(text, read)
	for i := range cs {
		if len(cs[i].Reach) > 0 && key[i] == least {
			for _, a := range cs[i].Mentions {
				if !formOut(a) {
					anchored = append(anchored, a)
				}
			}
			if s := p.answerStep(text, ments, &cs[i], kinds, read); s != "" && !slices.Contains(ends, s) {
				ends = append(ends, s)
			}
			// The relation the subject verb names ends the plan, either
			// way (subjectVerbMisses), and so does the one the object's
			// verb names (objectRule).
			var verbs []string
			if subjectVerbMisses(verbRels, verbAt, ments, &cs[i]) {
				verbs = verbRels
			}
			if object.misses(ments, &cs[i]) {
				verbs = append(slices.Clone(verbs), object.verbRels(ments, &cs[i])...)
			}
			for _, r := range verbs {
				for _, s := range []string{"->" + r, "<-" + r} {
					if !slices.Contains(ends, s) {
						ends = append(ends, s)
					}
				}
			}
		}
	}
	named := p.namedOutside(text, ments, anchored, read)
	// A co-word names the relation its templates walk too (coMisses).
	if p.Cfg.Anchors.CoWords {
		named = append(named, p.coRelations(linking.RestrictionText(text, ments, slices.DeleteFunc(slices.Clone(anchored), func(i int) bool { return i < 0 || i >= len(ments) })), read)...)
	}
	if !ruled && len(named) == 0 {
		return nil, false
	}
	var asked []string
	if least >= 1<<20 && p.Cfg.Anchors.DeeperAsked {
		asked = p.askedOfRuledOut(text, ments, cs, key, least, kinds, read)
	}
	if len(named) == 0 && len(ends) == 0 && len(asked) == 0 {
		return nil, true
	}
	// The anchors of the candidate the ranker would choose among those
	// ruled out and anchored on no mention formOut rules out (none
	// where all are: "What else did the director of X direct?" found X's
	// director by the deeper search alone, its first candidates anchored
	// on "What"), read once and only for a schema path.
	var top []int
	ranked := func() []int {
		if top == nil {
			top = []int{}
			feats := p.RankFeatures(text, ments, cs)
			var bs float32
			for i := range cs {
				if len(cs[i].Reach) == 0 || key[i] != least || slices.ContainsFunc(cs[i].Mentions, formOut) {
					continue
				}
				if s := p.Ranker.Score(feats[i]); len(top) == 0 || s > bs {
					top, bs = cs[i].Mentions, s
				}
			}
		}
		return top
	}
	return func(ti int, chosen []int, nodes [][]uint32) bool {
		if p.Cfg.Anchors.DeeperAsked && (slices.ContainsFunc(chosen, formOut) || !p.leads(ti, nodes)) {
			return false
		}
		// A two-step template of the schema is anchored where the ranker's
		// choice among the ruled-out candidates is: it re-reads the
		// question's relation, never its anchor.
		if p.schemaPath(ti) {
			if top := ranked(); len(top) > 0 && !slices.Equal(chosen, top) {
				return false
			}
		}
		plan := &data.Plan{Paths: p.Cfg.Templates[ti]}
		walked := PlanRelations(plan)
		for _, rels := range named {
			if !slices.ContainsFunc(rels, func(r string) bool { return slices.Contains(walked, r) }) {
				return false
			}
		}
		if len(asked) > 0 && !p.endsIn(p.Cfg.Templates[ti], asked) {
			return false
		}
		// Nor one the object's verb rules out (objectRule): "What else
		// did the writer of X write?" spends no search on the writers
		// of the films of X's director.
		if object.misses(ments, &PlanCandidate{Mentions: chosen, Plan: *plan}) {
			return false
		}
		// Nor one that walks the subject verb's relation from none of its
		// co-participants (coVerbMisses).
		if p.coVerbMisses(text, verbRels, verbAt, ments, &PlanCandidate{Mentions: chosen, Plan: *plan}) {
			return false
		}
		// Nor one that shares no neighbour along the relation a co-word
		// names (coMisses).
		if p.coMisses(text, ments, &PlanCandidate{Mentions: chosen, Plan: *plan}, read) {
			return false
		}
		return len(ends) == 0 || slices.ContainsFunc(finalSteps(plan), func(s string) bool { return slices.Contains(ends, s) })
	}, true
}

// pairedSearch returns, with PairedAnchors, the deeper search of a
// question none of whose candidates left (key 0) is ruled out where the
// plan ranker's choice among them and another that reaches nodes are
// anchored on one unquoted mention each, the two apart, and none anchors
// both: the templates of two paths or more
// anchored on both are tried ("Find a vasodilative that is labelled trade
// name.": the kinds of vasodilative and the words labelled trade name
// both stand, and explain each other's name, as the kinds' definitions
// say "trade name"; their intersection, a template the classifier ranked
// low, is what the question asks). The templates tried are anchored on
// the choice's mention and another's; with PairedUnexplained, the other
// may anchor a candidate ruled out only for leaving the choice's mention
// unexplained. nil where there is no such pair.
func (p *LinkingPlanner) pairedSearch(text string, ments []linking.LinkedMention, cs []PlanCandidate, key []int) func(ti int, chosen []int, nodes [][]uint32) bool {
	if !p.Cfg.Anchors.PairedAnchors || p.Ranker == nil {
		return nil
	}
	// The ranker's choice among the candidates left, and the one anchor
	// of each of them that reach nodes.
	var single, loose []int
	best, bs := -1, float32(0)
	quoted := quotedSpans(text, true)
	var feats [][]uint32
	for i := range cs {
		c := &cs[i]
		// With PairedUnexplained, a candidate ruled out by nothing but
		// the mentions it leaves unexplained (key below every other
		// rule's bit) may pair too, where the choice's anchor is one of
		// them (below).
		unexplainedOnly := p.Cfg.Anchors.PairedUnexplained && key[i] > 0 && key[i] < 1<<7
		if len(c.Reach) == 0 || key[i] != 0 && !unexplainedOnly {
			continue
		}
		if len(c.Mentions) != 1 {
			if len(c.Mentions) > 1 && key[i] == 0 {
				return nil // one anchors two names already
			}
			continue
		}
		if unexplainedOnly {
			loose = append(loose, i)
			continue
		}
		if feats == nil {
			feats = p.RankFeatures(text, ments, cs)
		}
		if s := p.Ranker.Score(feats[i]); best < 0 || s > bs {
			best, bs = i, s
		}
		// A quoted mention is mentioned, not named: a definition's words
		// ("whose definition contains the words 'persist with actions'")
		// or a word's ("'daze' names which confusedness?").
		if a := c.Mentions[0]; a >= 0 && a < len(ments) && !inSpans(ments[a].Start, nil, quoted) && !slices.Contains(single, a) {
			single = append(single, a)
		}
	}
	if best < 0 {
		return nil
	}
	top := cs[best].Mentions[0]
	if !slices.Contains(single, top) {
		return nil
	}
	var others []int
	for _, a := range single {
		if a != top && !overlaps(&ments[a], &ments[top]) {
			others = append(others, a)
		}
	}
	// A candidate that leaves the choice's anchor unexplained, anchored
	// apart from it and unquoted ("What sandwich do people in United
	// Kingdom have a word for?": the kinds of sandwich leave United
	// Kingdom unexplained, and the words of its region stand).
	for _, i := range loose {
		a := cs[i].Mentions[0]
		if a < 0 || a >= len(ments) || a == top || overlaps(&ments[a], &ments[top]) || inSpans(ments[a].Start, nil, quoted) || slices.Contains(others, a) {
			continue
		}
		if slices.ContainsFunc(p.unexplainedSpans(ments, &cs[i]), func(span []int) bool { return slices.Contains(span, top) }) {
			others = append(others, a)
		}
	}
	if len(others) == 0 {
		return nil
	}
	return func(ti int, chosen []int, _ [][]uint32) bool {
		if p.schemaPath(ti) || len(p.Cfg.Templates[ti]) < 2 || !slices.Contains(chosen, top) {
			return false
		}
		return slices.ContainsFunc(others, func(a int) bool { return slices.Contains(chosen, a) })
	}
}

// unnamedWalks counts the relations c walks that no word of the
// question outside c's anchors names (namedRelations).
func (p *LinkingPlanner) unnamedWalks(text string, ments []linking.LinkedMention, c *PlanCandidate, read map[string]bool) int {
	named := p.namedRelations(linking.RestrictionText(text, ments, c.Mentions), read)
	n := 0
	for _, r := range PlanRelations(&c.Plan) {
		if !slices.ContainsFunc(named, func(rels []string) bool { return slices.Contains(rels, r) }) {
			n++
		}
	}
	return n
}

// unnamedExtra marks the candidates among those eligible that walk every
// relation another eligible candidate anchored on the same mentions walks,
// and more, to answer with other types than it (planEnds), where no word
// of the question outside their anchors names a relation of that more
// (namedRelations, or an answer word's step) nor a type it answers with
// (an asking word's, whWordType, or another word's, slotType, named
// and not a training lift)
// (AnchorConfig.NamedSteps): "Do you happen to know the title of whatever
// X directed back in 1970?" names directing alone, so X's films and not
// their cast, whose starring no word names; "Who called the shots when X
// was acting?" names people, so the directors of X's films stand.
func (p *LinkingPlanner) unnamedExtra(text string, ments []linking.LinkedMention, cs []PlanCandidate, eligible func(int) bool, read map[string]bool, kinds map[string]string) map[int]bool {
	rels := make([][]string, len(cs))
	ends := make([][]string, len(cs))
	for i := range cs {
		if eligible(i) {
			rels[i] = PlanRelations(&cs[i].Plan)
			ends[i] = p.planEnds(&cs[i].Plan)
		}
	}
	out := map[int]bool{}
	for i := range cs {
		if rels[i] == nil || ends[i] == nil {
			continue
		}
		var named [][]string
		var types []string
		read1 := false
		for j := range cs {
			if j == i || rels[j] == nil || ends[j] == nil || len(rels[j]) >= len(rels[i]) || !slices.Equal(cs[i].Mentions, cs[j].Mentions) ||
				slices.ContainsFunc(rels[j], func(r string) bool { return !slices.Contains(rels[i], r) }) ||
				slices.ContainsFunc(ends[j], func(t string) bool { return slices.Contains(ends[i], t) }) {
				continue
			}
			if !read1 {
				read1 = true
				rest := linking.RestrictionText(text, ments, cs[i].Mentions)
				named = p.namedRelations(rest, read)
				for _, w := range index.TokenizeAll(nil, unquoted(rest)) {
					if s, ok := p.Cfg.Anchors.AnswerWords[w]; ok {
						named = append(named, []string{data.ParseRelStep(s).Rel})
					}
					t := ""
					if whWords[w] {
						if p.Cfg.Anchors.Lead != nil {
							t = p.whWordType(w)
						}
					} else if st, ok := p.slotType(w, kinds, true); ok {
						t = st
					}
					if t != "" {
						types = append(types, t)
					}
				}
			}
			if slices.ContainsFunc(ends[i], func(t string) bool { return slices.Contains(types, t) }) {
				continue
			}
			for _, r := range rels[i] {
				if !slices.Contains(rels[j], r) && !slices.ContainsFunc(named, func(rs []string) bool { return slices.Contains(rs, r) }) {
					out[i] = true
				}
			}
		}
	}
	return out
}

// planEnds are the node types a plan's paths may end at (pathEnds), each
// once; nil where a path's are not bound.
func (p *LinkingPlanner) planEnds(plan *data.Plan) []string {
	var out []string
	for _, path := range plan.Paths {
		ends, bound := p.pathEnds(path)
		if !bound {
			return nil
		}
		for _, t := range ends {
			if !slices.Contains(out, t) {
				out = append(out, t)
			}
		}
	}
	return out
}

// pathEnds are the node types a path may end at: its target's type where
// it names one, else the data's edges of its last step
// (graphops.RelationEnds); not bound where the path has no step, or its
// last step may take any relation or one the schema does not name.
func (p *LinkingPlanner) pathEnds(path data.Path) ([]string, bool) {
	if t := path.Target(); t != data.AnyType {
		return []string{t}, true
	}
	if len(path.Steps) == 0 {
		return nil, false
	}
	ends, bound := p.relStepTypes(path.Steps[len(path.Steps)-1], false)
	if !bound {
		return nil, false
	}
	out := make([]string, len(ends))
	for i, t := range ends {
		out[i] = p.skb.Schema.NodeTypes[t]
	}
	return out, true
}

// namedOutside is namedRelations of the words of text outside the
// mentions at idx (linking.RestrictionText): a word of the name a
// candidate or a deeper search anchors on names no relation ("Star" in
// "Who directed Lone Star?", a film, is no starring), as for
// relationMisses.
func (p *LinkingPlanner) namedOutside(text string, ments []linking.LinkedMention, idx []int, read map[string]bool) [][]string {
	idx = slices.DeleteFunc(slices.Clone(idx), func(i int) bool { return i < 0 || i >= len(ments) })
	return p.namedRelations(linking.RestrictionText(text, ments, idx), read)
}

// askedOfRuledOut are the types the question names as asked for around
// the anchors of the candidates that reach nodes at key least (namedAsked),
// each once; nil when one names none.
func (p *LinkingPlanner) askedOfRuledOut(text string, ments []linking.LinkedMention, cs []PlanCandidate, key []int, least int, kinds map[string]string, read map[string]bool) []string {
	var verb askedVerb
	verb.t, verb.named = p.verbType(text, kinds)
	var out []string
	for i := range cs {
		if len(cs[i].Reach) == 0 || key[i] != least {
			continue
		}
		t := p.namedAsked(text, ments, &cs[i], kinds, read, verb)
		if t == "" {
			return nil
		}
		if !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	return out
}

// endsIn reports whether every path of template tmpl may end at a node
// of one of types: its target's type where the template names one, else
// by the data's edges of its last step (graphops.RelationEnds; a path
// with no step ends where it starts, at any type, and one whose last
// step may take any relation, or one the schema does not name, anywhere).
func (p *LinkingPlanner) endsIn(tmpl []data.Path, types []string) bool {
	for _, path := range tmpl {
		if len(path.Steps) == 0 {
			continue
		}
		if ends, bound := p.pathEnds(path); bound && !slices.ContainsFunc(ends, func(t string) bool { return slices.Contains(types, t) }) {
			return false
		}
	}
	return true
}

// startsFrom reports whether, for every path of template tmpl, some of
// its anchor nodes (nodes, one list per path) is of a type the data's
// edges of the path's first step start from (graphops.RelationEnds the
// other way; a path with no step, or whose first step may take any
// relation or one the schema does not name, starts anywhere).
func (p *LinkingPlanner) startsFrom(tmpl []data.Path, nodes [][]uint32) bool {
	for pi, path := range tmpl {
		if len(path.Steps) == 0 || pi >= len(nodes) {
			continue
		}
		starts, bound := p.relStepTypes(path.Steps[0], true)
		if bound && !slices.ContainsFunc(nodes[pi], func(v uint32) bool { return slices.Contains(starts, p.ws.Graph.Type(v)) }) {
			return false
		}
	}
	return true
}

// maxLeadLook bounds the adjacency entries leads looks at for one
// anchoring: past it, the anchoring is taken to lead somewhere.
const maxLeadLook = 1 << 14

// leads reports whether every path of template ti leads somewhere from
// its anchor nodes (nodes, one list per path): some walk along all its
// steps reaches a node (a universal step taken as a plain one, and the
// paths' ends not intersected, so a plan that reaches nothing may still
// lead), looking at no more than maxLeadLook adjacency entries in all.
func (p *LinkingPlanner) leads(ti int, nodes [][]uint32) bool {
	look := 0
	var buf []uint32
	var walk func(v uint32, hops []graphops.Hop) bool
	walk = func(v uint32, hops []graphops.Hop) bool {
		if len(hops) == 0 || look > maxLeadLook {
			return true
		}
		buf = p.ws.Graph.Step(buf[:0], v, hops[0])
		look += len(buf)
		next := slices.Clone(buf)
		slices.Sort(next)
		for _, u := range slices.Compact(next) {
			if walk(u, hops[1:]) {
				return true
			}
		}
		return false
	}
	for pi, hops := range p.walks[ti] {
		if pi < len(nodes) && !slices.ContainsFunc(nodes[pi], func(v uint32) bool { return walk(v, hops) }) {
			return false
		}
	}
	return true
}

// relStepTypes are the node types the data's edges take step st to
// (graphops.RelationEnds), or, with back, those they take it from; bound
// is false when the step may take any relation or one the schema does
// not name, which bounds nothing.
func (p *LinkingPlanner) relStepTypes(st data.PathStep, back bool) (ends []data.TypeID, bound bool) {
	if st.Rels == nil {
		return nil, false
	}
	for _, rs := range st.Rels {
		r, known := p.skb.Schema.RelationID(rs.Rel)
		if !known {
			return nil, false
		}
		if back {
			rs = rs.Reverse()
		}
		ends = append(ends, p.ws.Graph.RelationEnds(r, rs.Dir)...)
	}
	return ends, true
}

// unquotedWeight is how much an unquoted slot (unquotedSlot) rules a
// candidate out: as much as an anchor on a text the training never
// anchored, or, with yield (AnchorConfig.QuotedSlotsYield), less than
// one word the question names a step or relation with, which a user who
// quotes nothing still means.
func unquotedWeight(yield bool) int {
	if yield {
		return 1 << 8
	}
	return 1 << 15
}

// ruleOut scores the candidates (ScoreCandidates) and returns, for each,
// how much what the question names rules it out, and the least of those
// over the candidates that reach something (-1 when none does): one
// answering with another type than the type the question names competes
// only when none answers with that type (typeConflict), then one that
// reaches a node a longer mention around its anchor names (reachesOuter),
// is anchored inside a longer mention that could take its place
// (anchoredInside, with InnerAnchors)
// or on a text the training never anchored (anchoredOnNonAnchor), only
// when fewer of these hold for none of the rest, then only
// the candidates that walk
// a relation for the most of its relation-naming words compete
// (relationMisses). A co-word's relation walked into no shared node
// (coMisses, CoWords) weighs as a missed answer word; a relation walked
// twice where the question says no depth (twiceUnsaid, DepthSaid), just
// above the mentions a candidate leaves unexplained.
func (p *LinkingPlanner) ruleOut(ctx context.Context, text string, ments []linking.LinkedMention, cs []PlanCandidate) ([]int, int, error) {
	return p.ruleOutRead(ctx, text, ments, cs, nil, nil)
}

// ruleOutRead is ruleOut for a question read with the words read
// (readWords of resolveRead's spans).
func (p *LinkingPlanner) ruleOutRead(ctx context.Context, text string, ments []linking.LinkedMention, cs []PlanCandidate, read map[string]bool, kinds map[string]string) ([]int, int, error) {
	p.ScoreCandidates(text, ments, cs)
	if err := ctx.Err(); err != nil {
		return nil, 0, err
	}
	key := make([]int, len(cs))
	least := -1
	awMiss := p.anchorWordMisses(text, ments, cs)
	verbRels, verbAt := p.subjectRels(text, read)
	object := p.objectVerbRule(text, read)
	subjects := p.nameSubjects(text, ments, read)
	var verb askedVerb
	verb.t, verb.named = p.verbType(text, kinds)
	for i := range cs {
		if len(cs[i].Reach) == 0 {
			continue
		}
		if p.typeConflict(text, ments, &cs[i], kinds, read, verb) {
			key[i] = 1 << 20
		}
		if p.reachesOuter(ments, &cs[i]) {
			key[i] += 1 << 15
		}
		if p.anchoredOnNonAnchor(text, ments, &cs[i]) {
			key[i] += 1 << 15
		}
		if p.Cfg.Anchors.InnerAnchors && p.anchoredInside(ments, &cs[i]) {
			key[i] += 1 << 15
		}
		if p.anchoredInForm(text, ments, &cs[i]) {
			key[i] += 1 << 15
		}
		if p.unquotedSlot(text, ments, &cs[i]) {
			key[i] += unquotedWeight(p.Cfg.Anchors.QuotedSlotsYield)
		}
		if p.anchoredAfterNonAnchor(text, ments, &cs[i]) {
			key[i] += 1 << 15
		}
		if p.answerMisses(text, ments, &cs[i], kinds, read) {
			key[i] += 1 << 10
		}
		if awMiss[i] || subjectVerbMisses(verbRels, verbAt, ments, &cs[i]) || p.coVerbMisses(text, verbRels, verbAt, ments, &cs[i]) || object.misses(ments, &cs[i]) || p.coMisses(text, ments, &cs[i], read) || nameSubjectMisses(subjects, ments, &cs[i]) {
			key[i] += 1 << 10
		}
		if p.repeatMisses(text, ments, &cs[i]) {
			key[i] += 1 << 9
		}
		if p.twiceUnsaid(text, ments, &cs[i]) {
			key[i] += 1 << 7
		}
		// Unexplained spans count below every bit above (a question has at
		// most MaxPlanWords words).
		key[i] += p.relationMisses(text, ments, &cs[i], read)<<10 + min(p.unexplained(ments, &cs[i]), 1<<7-1)
	}
	if p.Cfg.Anchors.LongerAnchors {
		p.longerAnchors(ments, cs, key)
	}
	p.casedAnchors(ments, cs, key)
	for i := range cs {
		if len(cs[i].Reach) > 0 && (least < 0 || key[i] < least) {
			least = key[i]
		}
	}
	return key, least, nil
}
