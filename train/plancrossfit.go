package train

import (
	"slices"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/data/lexicon"
	"github.com/strata-retrieval/strata/graphops/linking"
	"github.com/strata-retrieval/strata/graphops/workspace"
	"github.com/strata-retrieval/strata/infer"
	"github.com/strata-retrieval/strata/infer/planner"
	"github.com/strata-retrieval/strata/models"
)

// crossFit holds what the linking planner's training reads off its
// examples beyond their plans (the lead words and answer type of each
// question, its restriction and mentions, the relations of its mined
// plan) and learns the planner's word tables from any subset of them: the
// final planner's from every example, each fold's planner's from the other
// folds' (as the plan ranker learns on cross-fitted candidates).
type crossFit struct {
	ws        *workspace.Workspace
	d         *infer.DenseChannel
	o         LinkingPlannerOptions
	cfg       planner.Config
	exs       []linkExample
	leads     [][2]string
	atypes    []string
	attrExs   []planner.AttrExample
	rels      [][]string
	exMents   [][]linking.LinkedMention
	exAnchors [][]int
}

// newCrossFit links every example's question and reads its tables.
func newCrossFit(ws *workspace.Workspace, d *infer.DenseChannel, o LinkingPlannerOptions, cfg planner.Config, exs []linkExample) *crossFit {
	c := &crossFit{ws: ws, d: d, o: o, cfg: cfg, exs: exs,
		leads: make([][2]string, len(exs)), atypes: make([]string, len(exs)), attrExs: make([]planner.AttrExample, len(exs)),
		rels: make([][]string, len(exs)), exMents: make([][]linking.LinkedMention, len(exs)), exAnchors: make([][]int, len(exs))}
	ix := ws.Mentions()
	for i, e := range exs {
		ments := ix.Find(e.q.Text)
		var am []int
		for _, a := range e.rec.Plan.Anchors {
			if mi := anchorMention(ments, a); mi >= 0 {
				am = append(am, mi)
			}
		}
		c.exMents[i], c.exAnchors[i] = ments, am
		c.leads[i] = planner.LeadWords(e.q.Text, ments, am)
		c.atypes[i] = answerType(ws, e.q.Answers)
		var ans []uint32
		for _, a := range e.q.Answers {
			if int(a) < len(ws.CandMask) && ws.CandMask[a] {
				ans = append(ans, a)
			}
		}
		c.attrExs[i] = planner.AttrExample{Restriction: linking.RestrictionText(e.q.Text, ments, am), Answers: ans}
		c.rels[i] = planner.PlanRelations(&e.rec.Plan)
	}
	return c
}

// relWords: which words of the questions come with which relations of
// their plans (the plan ranker's relation-word features).
func (c *crossFit) relWords(keep func(i int) bool) *planner.RelWords {
	if c.o.RankDim < 0 {
		return nil
	}
	r := planner.NewRelWords()
	var restrictions []string
	var rels [][]string
	for i := range c.exs {
		if keep(i) {
			r.Add(c.attrExs[i].Restriction, c.rels[i])
			if !c.o.NoLexicon {
				r.AddContext(c.attrExs[i].Restriction)
			}
			restrictions, rels = append(restrictions, c.attrExs[i].Restriction), append(rels, c.rels[i])
		}
	}
	r.PruneContext(2)
	// Explaining away narrows only the nouns and verbs of the lexicon
	// whose other forms agree, so it needs the lexicon.
	if lex, err := lexicon.WordNet(); err == nil && !c.o.NoExplainedWords && !c.o.NoLexicon {
		r.Explain(restrictions, rels, lex)
	}
	return r
}

// attrKeys: the attribute keys the answers' texts state.
func (c *crossFit) attrKeys(keep func(i int) bool) []string {
	if c.o.NoAttributes {
		return nil
	}
	var sub []planner.AttrExample
	for i := range c.exs {
		if keep(i) {
			sub = append(sub, c.attrExs[i])
		}
	}
	return planner.LearnAttrKeys(c.ws.Graph, sub, max(3, len(sub)/200))
}

// frameWords: the words of the question frames, which name no node.
func (c *crossFit) frameWords(keep func(i int) bool) []string {
	if c.o.NoFrameWords {
		return nil
	}
	var sub []planner.AttrExample
	for i := range c.exs {
		if keep(i) {
			sub = append(sub, c.attrExs[i])
		}
	}
	return planner.LearnFrameWords(c.ws, sub, max(5, len(sub)/100))
}

// weakMentions: mention texts that seldom anchor a plan, and the types
// whose mentions do (planner.LearnWeakMentions).
func (c *crossFit) weakMentions(keep func(i int) bool) (weak, types []string) {
	if c.o.NoCoverMentions {
		return nil, nil
	}
	_, ms, as := c.kept(keep)
	return planner.LearnWeakMentions(ms, as, func(v uint32) string { return c.ws.SKB.Schema.NodeTypes[c.ws.Graph.Type(v)] })
}

// statedNames: whether the kept questions bear out StatedNames
// (planner.LearnStatedNames).
func (c *crossFit) statedNames(keep func(i int) bool) bool {
	_, ms, as := c.kept(keep)
	var answers [][]uint32
	for i := range c.exs {
		if keep(i) {
			answers = append(answers, c.exs[i].q.Answers)
		}
	}
	ok, _, _ := planner.LearnStatedNames(ms, as, answers)
	return ok
}

// kept returns the kept examples' questions, mentions and anchor
// mentions.
func (c *crossFit) kept(keep func(i int) bool) (texts []string, ms [][]linking.LinkedMention, as [][]int) {
	for i := range c.exs {
		if keep(i) {
			texts, ms, as = append(texts, c.exs[i].q.Text), append(ms, c.exMents[i]), append(as, c.exAnchors[i])
		}
	}
	return texts, ms, as
}

// nonAnchorForms: the forms of mentions the training's questions (nearly)
// never anchored on (planner.LearnNonAnchorForms).
func (c *crossFit) nonAnchorForms(keep func(i int) bool) ([]string, error) {
	if c.o.NoNonAnchors {
		return nil, nil
	}
	lex, err := lexicon.WordNet()
	if err != nil {
		return nil, err
	}
	texts, ms, as := c.kept(keep)
	forms := planner.LearnNonAnchorForms(lex, texts, ms, as)
	if c.o.NoHeadOf {
		forms = slices.DeleteFunc(forms, func(f string) bool { return f == planner.FormHeadOf })
	}
	if c.o.NoInCompound {
		forms = slices.DeleteFunc(forms, func(f string) bool { return f == planner.FormInCompound })
	}
	if c.o.NoPassive {
		forms = slices.DeleteFunc(forms, func(f string) bool { return f == planner.FormPassive })
	}
	if c.o.NoRelativeVerb {
		forms = slices.DeleteFunc(forms, func(f string) bool { return f == planner.FormRelativeVerb })
	}
	if c.o.NoInPassage {
		forms = slices.DeleteFunc(forms, func(f string) bool { return f == planner.FormInPassage })
	}
	return forms, nil
}

// quotedSlots: the template paths whose anchors the training questions
// quoted (planner.LearnQuotedSlots).
func (c *crossFit) quotedSlots(keep func(i int) bool) [][2]int {
	if c.o.NoNonAnchors {
		return nil
	}
	index := map[string]int{}
	for i, t := range c.cfg.Templates {
		index[planner.TemplateKey(t)] = i
	}
	var texts []string
	var ms [][]linking.LinkedMention
	var ts []int
	var as [][]int
	for i, e := range c.exs {
		ti, ok := index[planner.TemplateKey(e.tmpl)]
		if !keep(i) || !ok {
			continue
		}
		per := make([]int, len(e.rec.Plan.Anchors))
		for k, a := range e.rec.Plan.Anchors {
			per[k] = anchorMention(c.exMents[i], a)
		}
		texts, ms, ts, as = append(texts, e.q.Text), append(ms, c.exMents[i]), append(ts, ti), append(as, per)
	}
	return planner.LearnQuotedSlots(texts, ms, ts, as)
}

// nonAnchors: mention texts the questions never anchored
// (planner.LearnNonAnchors).
func (c *crossFit) nonAnchors(keep func(i int) bool, norms bool) []string {
	if c.o.NoNonAnchors {
		return nil
	}
	texts, ms, as := c.kept(keep)
	return planner.LearnNonAnchors(texts, ms, as, norms)
}

// nested: whether the questions that nest a word walk one relation
// twice, how many nest one and how many of those walk one twice
// (planner.LearnRepeatTwice).
func (c *crossFit) nested(keep func(i int) bool) (bool, int, int) {
	return planner.LearnRepeatTwice(c.restrPlans(keep))
}

// depthSaid: whether the questions that walk one relation twice say a
// depth and those that say one walk it, how many do either and how many
// both (planner.LearnDepthSaid).
func (c *crossFit) depthSaid(keep func(i int) bool) (bool, int, int) {
	return planner.LearnDepthSaid(c.restrPlans(keep))
}

// returnedAnchors: how many of the questions' mined plans walk straight
// back to their anchors, and how many of those questions have an answer
// beyond those anchors (planner.ReturnedCounts).
func (c *crossFit) returnedAnchors(keep func(i int) bool) (int, int) {
	var plans []*data.Plan
	var answers [][]uint32
	for i := range c.exs {
		if keep(i) {
			plans, answers = append(plans, &c.exs[i].rec.Plan), append(answers, c.exs[i].q.Answers)
		}
	}
	return planner.ReturnedCounts(plans, answers)
}

// restrPlans are the restrictions (outside their anchors) and mined
// plans of the kept training questions.
func (c *crossFit) restrPlans(keep func(i int) bool) ([]string, []*data.Plan) {
	var restrs []string
	var plans []*data.Plan
	for i := range c.exs {
		if keep(i) {
			restrs, plans = append(restrs, c.attrExs[i].Restriction), append(plans, &c.exs[i].rec.Plan)
		}
	}
	return restrs, plans
}

// innerShare: the share of the questions' anchors inside a longer
// mention (planner.InnerAnchorShare).
func (c *crossFit) innerShare(keep func(i int) bool) float64 {
	_, ms, as := c.kept(keep)
	return planner.InnerAnchorShare(ms, as)
}

// leadTable: the answer types that follow the questions' lead words.
func (c *crossFit) leadTable(keep func(i int) bool) *planner.LeadTypes {
	if c.o.RankDim < 0 {
		return nil // no plan ranker to use them
	}
	l := planner.NewLeadTypes()
	for i := range c.exs {
		if keep(i) && c.atypes[i] != "" {
			l.Add(c.leads[i], c.atypes[i])
		}
	}
	return l
}

// elemWords: which words come with which parts of the plans
// (planner.PlanElements of the mined plan, with the answers' type): the
// plan ranker reads the answer type a question asks for off them when it
// names none of the schema's types.
func (c *crossFit) elemWords(keep func(i int) bool) *planner.RelWords {
	if c.o.NoCompose || c.o.RankDim < 0 {
		return nil
	}
	r := planner.NewRelWords()
	for i := range c.exs {
		if keep(i) && c.atypes[i] != "" {
			r.Add(c.attrExs[i].Restriction, planner.PlanElements(&c.exs[i].rec.Plan, c.atypes[i]))
		}
	}
	return r
}

// planner is a new, untrained planner whose learned word tables come from
// the examples keep selects (every example for the final planner, the
// other folds' for a fold's).
func (c *crossFit) planner(seed uint64, keep func(i int) bool) (*planner.LinkingPlanner, error) {
	cfg := c.cfg
	a := *cfg.Anchors
	a.Lead, a.AttrKeys, a.RelWords = c.leadTable(keep), c.attrKeys(keep), c.relWords(keep)
	a.FrameWords = c.frameWords(keep)
	a.NamedTop = !c.o.NoNamed
	a.Compose = !c.o.NoCompose && a.RankDim > 0
	a.RepeatWords = a.Compose && !c.o.NoRepeatWords
	a.Elements = c.elemWords(keep)
	a.NamedType = !c.o.NoNamedType
	a.NamedRelations = !c.o.NoNamedRelations
	a.ReadRelations = a.NamedRelations && !c.o.NoLexicon
	a.SynonymRelations = a.ReadRelations && !c.o.NoSynonymRelations
	a.DeclineRuledOut = a.RankDim > 0 && !c.o.NoDeclineRuledOut
	a.Lexicon = !c.o.NoLexicon
	a.SynonymTypes = a.Lexicon && a.NamedType && !c.o.NoSynonymTypes
	a.KindTypes = a.Lexicon && a.NamedType && !c.o.NoKindTypes
	a.ReadNoKind = a.KindTypes && !c.o.NoReadNoKind
	a.QuoteLabels = a.Lexicon && !c.o.NoQuoteLabels
	a.PlainDeterminers = a.NamedType && !c.o.NoPlainDeterminers
	a.GeneralTypes = a.KindTypes && !c.o.NoGeneralTypes
	a.SiblingTypes = a.GeneralTypes && !c.o.NoSiblingTypes
	a.NounSlots = a.Lexicon && !c.o.NoNounSlots
	a.TypeAfterAnchor = a.NamedType && !c.o.NoTypeAfterAnchor
	a.TypeAfterMention = a.TypeAfterAnchor && !c.o.NoTypeAfterMention
	a.AskedBeforeAnchor = a.NamedType && !c.o.NoAskedBeforeAnchor
	a.CasedAnchors = !c.o.NoCasedAnchors
	a.CasedAcross = a.CasedAnchors && !c.o.NoCasedAcross
	a.LeadVerbAsks = a.Lexicon && a.NamedType && !c.o.NoLeadVerbAsks
	a.RequestObject = a.LeadVerbAsks && !c.o.NoRequestObject
	a.ObjectModifiers = a.RequestObject && !c.o.NoObjectModifiers
	a.AnswerWordsLead = !c.o.NoAnswerWordsLead
	a.TrailingAnswerWords = !c.o.NoTrailingAnswerWords
	a.InflectedRelations = a.NamedRelations && a.Lexicon && !c.o.NoInflectedRelations
	a.FormRelations = a.InflectedRelations && !c.o.NoFormRelations
	a.StemRelations = a.InflectedRelations && !c.o.NoStemRelations
	a.MixedForms = a.FormRelations && !c.o.NoMixedForms
	a.ContextSentences = !c.o.NoContextSentences
	a.CasualContext = a.ContextSentences && !c.o.NoCasualContext
	a.NounHeads = !c.o.NoNounHeads
	a.OfValues = a.NounHeads && !c.o.NoOfValues
	a.HeadsOf = a.NounHeads && a.Lexicon && !c.o.NoHeadsOf
	a.QuotedSlotsYield = !c.o.NoQuotedSlotsYield
	a.QuotedRival = !c.o.NoQuotedRival
	a.ReadSamePOS = a.Lexicon && !c.o.NoReadSamePOS
	a.ReadInContext = a.Lexicon && !c.o.NoReadInContext
	a.DeeperSearch = !c.o.NoDeeperSearch
	a.NamedFirst = a.DeeperSearch && a.NamedRelations && !c.o.NoNamedFirst
	a.DeeperAsked = a.DeeperSearch && a.NamedType && !c.o.NoDeeperAsked
	a.DeeperUnreached = !c.o.NoDeeperSearch
	a.JoinSingles = !c.o.NoJoinSingles
	a.Addressee = !c.o.NoAddressee
	a.PronounVerbs = !c.o.NoPronounVerbs
	a.PhrasalVerbs = a.Lexicon && !c.o.NoPhrasalVerbs
	a.FiniteVerbs = a.Lexicon && !c.o.NoFiniteVerbs
	a.WhSubjects = a.FiniteVerbs && !c.o.NoWhSubjects
	a.WhPrepositions = a.WhSubjects && !c.o.NoWhPrepositions
	a.MarkedMentions = !c.o.NoMarkedMentions
	a.PersonPronouns = !c.o.NoPersonPronouns
	a.PersonalPronouns = !c.o.NoPersonalPronouns
	a.Appositive = !c.o.NoAppositive
	a.KindAnswerWords = !c.o.NoKindAnswerWords
	a.KinRelations = a.NamedRelations && a.Lexicon && !c.o.NoKinRelations
	a.Titles = a.Lexicon && !c.o.NoTitles
	a.OpeningTitles = a.Titles && !c.o.NoOpeningTitles
	a.Roles = a.Titles && !c.o.NoRoles
	a.DerivedFirstSense = a.Lexicon && !c.o.NoDerivedFirstSense
	a.FormSenses = a.Lexicon && !c.o.NoFormSenses
	a.OpeningNoun = a.NamedType && !c.o.NoOpeningNoun
	a.OpeningFirst = a.OpeningNoun && !c.o.NoOpeningFirst
	a.OpeningLift = a.OpeningNoun && !c.o.NoOpeningLift
	a.SlotLifts = a.NamedType && a.Lexicon && !c.o.NoSlotLifts
	a.WrittenAnchors = a.Lexicon && !c.o.NoWrittenAnchors
	a.WhAsks = a.NamedType && !c.o.NoWhAsks
	a.ClosingWh = a.WhAsks && !c.o.NoClosingWh
	a.InSituWh = a.ClosingWh && a.Lexicon && !c.o.NoInSituWh
	a.InSituObjects = a.InSituWh && !c.o.NoInSituObjects
	a.TypeWordNouns = len(a.TypeWords) > 0 && a.Lexicon && !c.o.NoTypeWordNouns
	a.SubjectVerbs = a.WhAsks && a.NamedRelations && a.Lexicon && !c.o.NoSubjectVerbs
	a.WhichVerbs = a.SubjectVerbs && !c.o.NoWhichVerbs
	a.WhichUnknown = a.WhichVerbs && !c.o.NoWhichUnknown
	a.WhichSubject = a.WhichVerbs && !c.o.NoWhichSubject
	a.CompoundWords = a.Lexicon && !c.o.NoCompoundWords
	a.CoAnchors = a.SubjectVerbs && !c.o.NoCoAnchors
	a.CoWords = a.NamedRelations && !c.o.NoCoWords
	a.SharedWith = a.CoWords && !c.o.NoSharedWith
	a.FuzzyNames = a.Lexicon && !c.o.NoFuzzyNames
	a.AskedAnswerWords = a.NamedType && !c.o.NoAnswerWords && !c.o.NoAskedAnswerWords
	a.ObjectVerbs = a.NamedRelations && a.Lexicon && !c.o.NoObjectVerbs
	a.VerbFirst = a.ObjectVerbs && !c.o.NoVerbFirst
	a.BareObject = a.VerbFirst && !c.o.NoBareObject
	a.FrontedPhrase = a.WhAsks && !c.o.NoFrontedPhrase
	a.PrepositionWh = a.WhAsks && !c.o.NoPrepositionWh
	if a.RepeatWords && a.DeeperSearch && !c.o.NoRepeatTwice {
		a.RepeatTwice, _, _ = c.nested(keep)
	}
	a.ReturnedAnchors = !c.o.NoReturnedAnchors
	a.NestedRelations = a.RepeatTwice && !c.o.NoNestedRelations
	a.MarkedNests = a.RepeatTwice && !c.o.NoMarkedNests
	a.PossessiveNests = a.RepeatTwice && !c.o.NoPossessiveNests
	a.PossessiveChains = a.RepeatTwice && !c.o.NoPossessiveChains
	a.RelativeChains = a.RepeatTwice && !c.o.NoRelativeChains
	a.Auxiliaries = !c.o.NoAuxiliaries
	a.SaidTwice = a.RepeatTwice && !c.o.NoSaidTwice
	a.SaidVerbs = a.SaidTwice && !c.o.NoSaidVerbs
	a.DirectionNests = a.SaidTwice && !c.o.NoDirectionNests
	a.DirectionModifiers = a.DirectionNests && !c.o.NoDirectionModifiers
	a.PrefixTwice = a.RepeatTwice && !c.o.NoPrefixTwice
	a.TheirsTwice = a.RepeatTwice && !c.o.NoTheirsTwice
	a.WhSlotsFirst = !c.o.NoWhSlotsFirst
	a.AskingClause = !c.o.NoAskingClause
	a.FrontedClause = a.AskingClause && !c.o.NoFrontedClause
	a.ClauseSlots = a.AskingClause && !c.o.NoClauseSlots
	a.SlotHeads = !c.o.NoSlotHeads
	a.HyphenedLeads = !c.o.NoHyphenedLeads
	a.RequestTitles = a.Titles && !c.o.NoRequestTitles
	a.MarkTitles = a.Titles && !c.o.NoMarkTitles
	a.HeldSlots = !c.o.NoHeldSlots
	a.DeterminedValues = !c.o.NoDeterminedValues
	a.PersonObjects = !c.o.NoPersonObjects
	a.PersonOpenings = a.PersonObjects && !c.o.NoPersonOpenings
	a.PersonSlots = a.PersonObjects && !c.o.NoPersonSlots
	a.SlotKinds = a.KindTypes && a.NounSlots && !c.o.NoSlotKinds
	a.NamedSteps = !c.o.NoNamedSteps
	a.KindWords = a.KindTypes && !c.o.NoKindWords
	a.AskingMentions = a.TypeAfterMention && !c.o.NoAskingMentions
	a.PossessorWh = a.WhAsks && !c.o.NoPossessorWh
	a.ObjectWh = a.WhAsks && !c.o.NoObjectWh
	a.WhVerbSlots = a.KindTypes && !c.o.NoWhVerbSlots
	a.FormSlots = !c.o.NoFormSlots
	a.SlotsPastRuled = a.FormSlots && !c.o.NoSlotsPastRuled
	a.MarkedFollowers = !c.o.NoMarkedFollowers
	a.TitleObjects = a.LeadVerbAsks && !c.o.NoTitleObjects
	a.PrepositionOpenings = a.AskingClause && !c.o.NoPrepositionOpenings
	a.TitlePrepositions = a.Titles && !c.o.NoTitlePrepositions
	a.WhoseRelatives = !c.o.NoWhoseRelatives
	a.BackPastTypeWords = a.AskingClause && a.TypeAfterMention && !c.o.NoBackPastTypeWords
	a.ImperativeOpenings = a.OpeningNoun && !c.o.NoImperativeOpenings
	a.MarkedSlots = a.NounSlots && !c.o.NoMarkedSlots
	a.CompoundSlots = a.NounSlots && !c.o.NoCompoundSlots
	a.PrepositionSlots = a.NounSlots && !c.o.NoPrepositionSlots
	a.SpeakerVerbs = !c.o.NoSpeakerVerbs
	a.OpeningAdverbs = a.SpeakerVerbs && !c.o.NoOpeningAdverbs
	a.EmbeddedQuestions = !c.o.NoEmbeddedQuestions
	a.DepthBack = a.RepeatTwice && !c.o.NoDepthBack
	a.ArgumentCompounds = !c.o.NoArgumentCompounds
	a.BeObject = !c.o.NoBeObject
	a.ObjectBeyond = a.BareObject && !c.o.NoObjectBeyond
	a.QuotedOpening = !c.o.NoQuotedOpening
	a.RelativeAntecedents = !c.o.NoRelativeAntecedents
	a.NounAntecedents = a.RelativeAntecedents && !c.o.NoNounAntecedents
	a.PairedAnchors = a.DeeperSearch && !c.o.NoPairedAnchors
	a.PairedUnexplained = a.PairedAnchors && !c.o.NoPairedUnexplained
	a.RelativeThat = !c.o.NoRelativeThat
	a.FrontedRoles = a.FrontedClause && !c.o.NoFrontedRoles
	a.OfHeads = !c.o.NoOfHeads
	a.RequestClauses = a.AskingClause && !c.o.NoRequestClauses
	a.NounClauses = a.AskingClause && !c.o.NoNounClauses
	a.ColonNouns = a.NounClauses && !c.o.NoColonNouns
	a.NamingClauses = a.NounClauses && !c.o.NoNamingClauses
	a.QuantifierTails = a.NounClauses && !c.o.NoQuantifierTails
	a.StatedLeads = !c.o.NoStatedLeads
	a.ElidedQuestions = a.ClosingWh && !c.o.NoElidedQuestions
	a.BackPastRoles = a.AskingClause && !c.o.NoBackPastRoles
	a.ClauseAnswerWords = a.AskingClause && !c.o.NoAnswerWords && !c.o.NoClauseAnswerWords
	a.PoliteWords = !c.o.NoPoliteWords
	a.NameSubjects = a.Lexicon && a.NamedRelations && !c.o.NoNameSubjects
	a.CompoundHeads = a.Lexicon && !c.o.NoCompoundHeads
	a.ClauseCompounds = a.ClauseSlots && a.CompoundHeads && !c.o.NoClauseCompounds
	a.AddressedRequests = a.LeadVerbAsks && !c.o.NoAddressedRequests
	a.FuzzyOpenings = a.FuzzyNames && !c.o.NoFuzzyOpenings
	a.KindCompounds = a.ArgumentCompounds && a.Lexicon && !c.o.NoKindCompounds
	a.NestedKin = a.NestedRelations && a.Lexicon && !c.o.NoNestedKin
	if a.RepeatTwice && !c.o.NoDepthSaid {
		a.DepthSaid, _, _ = c.depthSaid(keep)
	}
	a.PairWords = a.DepthSaid && !c.o.NoPairWords
	if a.DepthSaid && !c.o.NoDepthPairs {
		a.DepthPairs = planner.LearnDepthPairs(c.restrPlans(keep))
	}
	a.OuterAnchors = !c.o.NoOuterAnchors
	a.InnerAnchors = !c.o.NoOuterAnchors && planner.InnerAnchorsFrom(c.innerShare(keep))
	a.LongerAnchors = a.InnerAnchors
	a.NonAnchorNorms = !c.o.NoNonAnchors && !c.o.NoNonAnchorNorms
	a.NonAnchors = c.nonAnchors(keep, a.NonAnchorNorms)
	forms, err := c.nonAnchorForms(keep)
	if err != nil {
		return nil, err
	}
	a.NonAnchorForms = forms
	a.QuotedSlots = c.quotedSlots(keep)
	switch {
	case c.o.NoNonAnchors:
	case c.o.NoMentionForms:
		a.NonAnchorAfter = planner.LearnNonAnchorAfter(c.kept(keep))
	default:
		a.NonAnchorAfter, a.NumberNonAnchorAfter = planner.LearnNonAnchorAfterForms(c.kept(keep))
	}
	if len(a.NonAnchorAfter) > 0 && !c.o.NoClosedFollowers {
		texts, ms, as := c.kept(keep)
		a.ClosedFollowers = planner.LearnClosedFollowers(texts, ms, as, a.NonAnchorAfter)
	}
	if a.ReadMentions = a.Lexicon && !c.o.NoReadMentions; a.ReadMentions {
		a.AnchorAfter = planner.LearnAnchorAfter(c.kept(keep))
	}
	a.CoverMentions = !c.o.NoCoverMentions
	a.WeakMentions, a.AnchorTypes = c.weakMentions(keep)
	a.StatedNames = a.CoverMentions && !c.o.NoStatedNames && c.statedNames(keep)
	if a.CoverMentions && !c.o.NoMultiwordTypes {
		_, ms, as := c.kept(keep)
		a.MultiwordTypes = planner.LearnMultiwordTypes(ms, as, func(v uint32) string { return c.ws.SKB.Schema.NodeTypes[c.ws.Graph.Type(v)] })
	}
	cfg.Anchors = &a
	gate, more, err := planner.NewGates(cfg, seed)
	if err != nil {
		return nil, err
	}
	anchor, err := models.NewSparseLinear(c.o.AnchorDim, "planner.anchor")
	if err != nil {
		return nil, err
	}
	var ranker *models.SparseLinear
	if cfg.Anchors.RankDim > 0 {
		if ranker, err = models.NewSparseLinear(cfg.Anchors.RankDim, "planner.ranker"); err != nil {
			return nil, err
		}
	}
	p, err := planner.NewLinkingPlanner(c.ws, c.d, cfg, gate, anchor, ranker)
	if err != nil {
		return nil, err
	}
	p.More = more
	if a.Elements == nil {
		return p, nil
	}
	var restr, types []string
	for i := range c.exs {
		if keep(i) {
			restr = append(restr, c.attrExs[i].Restriction)
			types = append(types, c.atypes[i])
		}
	}
	p.Cfg.Anchors.AskWords = p.LearnAskWords(restr, types)
	texts, ms, as := c.kept(keep)
	var plans []*data.Plan
	for i := range c.exs {
		if keep(i) {
			plans = append(plans, &c.exs[i].rec.Plan)
		}
	}
	if !c.o.NoAnswerWords {
		p.Cfg.Anchors.AnswerWords = p.LearnAnswerWords(texts, ms, as, plans, types)
	}
	if !c.o.NoAnchorWords {
		p.Cfg.Anchors.ClauseBounds = !c.o.NoClauseBounds
		p.Cfg.Anchors.AnchorWords = planner.LearnAnchorWords(texts, ms, as, plans, p.Cfg.Anchors.RelWords, p.Cfg.Anchors.ClauseBounds)
	}
	return p, nil
}

// withDefaults fills the options' zero values with the defaults.
func (o *LinkingPlannerOptions) withDefaults() {
	if o.Hidden == 0 {
		o.Hidden = 128
	}
	if o.ValSplit == "" {
		o.ValSplit = data.SplitVal
	}
	if o.MinF1 == 0 {
		o.MinF1 = 0.5
	}
	if o.TypeAgreement == 0 {
		o.TypeAgreement = 0.9
	}
	if o.AnchorEpochs == 0 {
		o.AnchorEpochs = 8
	}
	if o.AnchorLR == 0 {
		o.AnchorLR = 0.2
	}
	if o.AnchorDim == 0 {
		o.AnchorDim = 1 << 18
	}
	if o.RankDim == 0 {
		o.RankDim = 1 << 16
	}
	if o.Folds == 0 {
		o.Folds = 3
	}
	if o.FitDim == 0 {
		o.FitDim = 1 << 18
	}
	if o.FitDraws == 0 {
		o.FitDraws = 4
	}
}
