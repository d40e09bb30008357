package train

import (
	"context"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"sync/atomic"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/graphops/linking"
	"github.com/strata-retrieval/strata/graphops/mine"
	"github.com/strata-retrieval/strata/graphops/workspace"
	"github.com/strata-retrieval/strata/infer"
	"github.com/strata-retrieval/strata/infer/baseline"
	"github.com/strata-retrieval/strata/infer/planner"
	"github.com/strata-retrieval/strata/internal/parallel"
	"github.com/strata-retrieval/strata/models"
)

// LinkingPlannerOptions configures LinkingPlanner.
type LinkingPlannerOptions struct {
	Hidden int // template classifier hidden units, default 128
	// Members is how many gates the template classifier averages
	// (planner.Config.Members), default 1.
	Members int
	// TextDense, when set, is the dense channel the run may answer the
	// queries no plan fits with, fused with BM25 (chooseText).
	TextDense *infer.DenseChannel
	Train     Config
	Run       Options
	ValSplit  string // default "val"
	// Mined holds mined plans by q_id (strata mine-plans): those of the
	// training split are the labels, those of ValSplit select the
	// checkpoint.
	Mined map[int]data.MinedPlanRecord
	// MinF1 is the least F1 of a mined plan used for training, default 0.5.
	MinF1 float64
	// TypeAgreement is the share of a template's examples that must agree
	// on the target type for the template to keep it, default 0.9.
	TypeAgreement float64
	// NoTwins: the planner never ranks middle nodes (its candidates are
	// tried without their ranked twins): the ablation.
	NoTwins bool
	// NoAttributes: no attribute keys are learned, and no candidate is
	// tried filtered by an attribute (the ablation).
	NoAttributes bool
	// NoNamed: no NamedAnswers are learned; a node the question names is
	// ranked by the restriction alone, and the plan ranker does not see
	// whether a candidate puts one first (AnchorConfig.NamedTop; the
	// ablation).
	NoNamed      bool
	AnchorEpochs int     // anchor scorer epochs, default 8
	AnchorLR     float64 // AdaGrad step, default 0.2
	AnchorDim    int     // hashed features, default 2^18
	RankDim      int     // plan ranker's hashed features, default 2^16; negative: no ranker
	Folds        int     // cross-fitting folds for the plan ranker's data, default 3
	// NoFit: no text-fit gate (planner.FitConfig): every query gets a
	// plan, however unlike the training questions (the ablation).
	NoFit  bool
	FitDim int // the gate's hashed features, default 2^18
	// NoFitLeadVerbs: the gate reads a request's first verb as it reads
	// any word (planner.FitConfig.LeadVerbs; the ablation).
	NoFitLeadVerbs bool
	// NoFitLowerRequests: a lower-case first verb followed by "me" or
	// "us" is no lead verb (planner.FitConfig.LowerRequests; the
	// ablation).
	NoFitLowerRequests bool
	// NoFitLeadOf: a first verb followed by "of" is a lead verb too
	// (planner.FitConfig.LeadOf; the ablation).
	NoFitLeadOf bool
	// NoFitSpeakerRequests: a text opening with its speaker as a verb's
	// subject ("I need ...") is read by the gate as any other text
	// (planner.FitConfig.SpeakerRequests; the ablation).
	NoFitSpeakerRequests bool
	// NoFitFrontedRequests: a request after a fronted phrase closed by a
	// comma ("Of all the senses of 'daze', pick the one ...") is read by
	// the gate as any other text (planner.FitConfig.FrontedRequests; the
	// ablation).
	NoFitFrontedRequests bool
	// NoFitQuestionMarks: a text closing with a question mark meets the
	// gate as any other text (planner.FitConfig.QuestionMarks; the
	// ablation).
	NoFitQuestionMarks bool
	// NoFitAskedSentences: only a text closing with a question mark is
	// planned whatever the gate says, not one holding a sentence that
	// closes so (planner.FitConfig.AskedSentences; the ablation).
	NoFitAskedSentences bool
	// NoFitAskedRequests: a text holding a later sentence that opens with
	// a request's verb meets the gate as any other text does
	// (planner.FitConfig.AskedRequests; the ablation).
	NoFitAskedRequests bool
	// NoFitReaderRequests: a text that addresses its reader ("..., please.",
	// "... and tell me ...", "...; pick it out.") meets the gate as any
	// other text does (planner.FitConfig.ReaderRequests; the ablation).
	NoFitReaderRequests bool
	// NoFitQuotes: the gate reads a quotation's words as it reads any
	// other words (planner.FitConfig.Quotes; the ablation).
	NoFitQuotes bool
	// FitDraws: the text-fit gate is the mean of this many gates, each
	// trained against its own draw of the SKB's passages (default 4; 1
	// is the single gate trained before draws were).
	FitDraws int
	// NoFitPass: the gate's threshold is calibrated on the val questions
	// against as many held-out passages (planner.CalibrateFit, with
	// NoFitLowest), not set to pass planner.FitPassShare of up to 65,536
	// of them (the ablation).
	NoFitPass bool
	// NoFitLowest: the gate's threshold is the model's boundary, 0.5,
	// where that separates the val questions from the held-out passages
	// as well as any threshold, not the lowest that does
	// (planner.CalibrateFit's lowest; the ablation).
	NoFitLowest bool
	// NoCompose: the plan ranker does not see which parts of a
	// candidate's plan the question's words name (the ablation of
	// planner's composeFeatures).
	NoCompose bool
	// NoFrameWords: restrictions keep the words the training questions
	// ask with (planner.LearnFrameWords; the ablation).
	NoFrameWords bool
	// NoNamedType: a question's word for its answer type does not rule
	// out candidates of another type (planner.AnchorConfig.NamedType).
	NoNamedType bool
	// NoNamedRelations: the question's words for relations do not rule
	// out candidates that walk none of them (AnchorConfig.NamedRelations).
	NoNamedRelations bool
	// NoLexicon: words no training question used are not read through the
	// general English lexicon (AnchorConfig.Lexicon).
	NoLexicon bool
	// NoBareAnchors: the anchor scorer learns only from its examples as
	// they are, not also from their copies without the mentions' own
	// words (planner.LinkingPlanner.AnchorGroup's bare; the ablation).
	NoBareAnchors bool
	// NoShapeAnchors: nor from their copies without the words around the
	// mentions (planner.AnchorShape; the ablation).
	NoShapeAnchors bool
	// ExactBest: the checkpoint is the one of the highest validation
	// MRR, however little it beats an earlier one, not the earliest
	// within one validation question's share of it (Config.Tolerance;
	// the ablation).
	ExactBest bool
	// FitRescue: a query below the text-fit gate keeps its plan when the
	// planner is sure enough of it (planner.FitConfig.Rescue). Off by
	// default: on WordNet's held-out paraphrases it gained 0.4 points and
	// put the served planner one GCIDE definition under BM25's Hit@10.
	FitRescue bool
	// NoDeeperSearch: a question whose words rule out every candidate,
	// or whose top templates reach nothing, gets no deeper search
	// (AnchorConfig.DeeperSearch, DeeperUnreached).
	NoDeeperSearch bool
	// NoJoinSingles: two one-path candidates on mentions apart give no
	// candidate of the template that intersects their paths unless the
	// classifier ranks it among its most probable (AnchorConfig.JoinSingles;
	// the ablation).
	NoJoinSingles bool
	// NoSlotsPastRuled: a mention the question's form rules out takes a
	// place among a template slot's best mentions like any other
	// (AnchorConfig.SlotsPastRuled; the ablation).
	NoSlotsPastRuled bool
	// NoNonAnchors: no mention texts are learned that the training never
	// anchored (AnchorConfig.NonAnchors; the ablation).
	NoNonAnchors bool
	// NoHeadOf: a mention followed by "of" is no form of mention to learn
	// whether the training anchored (planner.FormHeadOf; the ablation).
	NoHeadOf bool
	// NoInCompound: a mention that is a part of a hyphened word is no
	// form of mention to learn whether the training anchored
	// (planner.FormInCompound; the ablation).
	NoInCompound bool
	// NoPassive: a verb's participle right after a form of "be" is no
	// form of mention to learn whether the training anchored
	// (planner.FormPassive; the ablation).
	NoPassive bool
	// NoRelativeVerb: a verb's inflection right after a relative pronoun
	// is no form whose anchoring the training questions teach
	// (planner.FormRelativeVerb; the ablation).
	NoRelativeVerb bool
	// NoInPassage: a mention inside a quotation that holds more words
	// than it is not learned as a form no anchor is written in
	// (planner.FormInPassage; the ablation).
	NoInPassage bool
	// NoReadMentions: a word no training question used that names a node
	// is never read as a known word (AnchorConfig.ReadMentions; the
	// ablation).
	NoReadMentions bool
	// NoReadSamePOS: an unseen word is read as the known word the schema
	// and the training's word pairs prefer, noun or not
	// (AnchorConfig.ReadSamePOS; the ablation).
	NoReadSamePOS bool
	// NoSynonymTypes: a word names a node type only with the schema's own
	// words or their base forms (AnchorConfig.SynonymTypes; the ablation).
	NoSynonymTypes bool
	// NoKindTypes: a word the training never used names no node type as a
	// kind of the type's schema word (AnchorConfig.KindTypes; the
	// ablation).
	NoKindTypes bool
	// NoGeneralTypes: nor as a more general word than the type's schema
	// word (AnchorConfig.GeneralTypes; the ablation).
	NoGeneralTypes bool
	// NoSiblingTypes: nor as a word whose hypernym is more general than
	// the type's schema word (AnchorConfig.SiblingTypes; the ablation).
	NoSiblingTypes bool
	// NoNounSlots: a word after an article or an asking word may be read
	// as a word that may not be a noun, and a verb's form names no type
	// after an asking word (AnchorConfig.NounSlots; the ablation).
	NoNounSlots bool
	// NoDeeperAsked: the deeper search ignores the type the question asks
	// for, the types its templates start from, and, for a longer mention,
	// the relations the question names (AnchorConfig.DeeperAsked; the
	// ablation).
	NoDeeperAsked bool
	// NoRepeatTwice: a word the question nests ("hyponyms of hyponyms of
	// X") rules out no candidate that walks no relation twice, whatever
	// the training bears out (AnchorConfig.RepeatTwice; the ablation).
	NoRepeatTwice bool
	// NoDepthSaid: a candidate that walks one relation twice in a row
	// stands where the question says no depth, and one that walks none
	// twice where it says "two" (AnchorConfig.DepthSaid; the ablation).
	NoDepthSaid bool
	// NoDepthPairs: only a relation walked twice in a row is deep, not
	// the two different steps the training's questions walk only where
	// they say a depth (AnchorConfig.DepthPairs; the ablation).
	NoDepthPairs bool
	// NoNestedRelations: two different words of one relation, each
	// before "of", do not nest as a word said twice does
	// (AnchorConfig.NestedRelations; the ablation).
	NoNestedRelations bool
	// NoDirectionNests: a preposition of place before a noun's plural
	// and "of" ("beneath the hyponyms of X") nests nothing
	// (AnchorConfig.DirectionNests; the ablation).
	NoDirectionNests bool
	// NoNestedKin: a nested word no training question used is not read
	// through the lexicon, nor does a word of no relation nest with its
	// synonym of one (AnchorConfig.NestedKin; the ablation).
	NoNestedKin bool
	// NoReadNoKind: a word the lexicon reads as a training word names a
	// type as a kind of the type's schema word all the same
	// (AnchorConfig.ReadNoKind; the ablation).
	NoReadNoKind bool
	// NoQuoteLabels: a word right before a quotation that names no node
	// is read as a word of a relation all the same
	// (AnchorConfig.QuoteLabels; the ablation).
	NoQuoteLabels bool
	// NoPlainDeterminers: a determiner that asks for nothing ("any",
	// "every") names the type its lift in the training leans to all the
	// same (AnchorConfig.PlainDeterminers; the ablation).
	NoPlainDeterminers bool
	// NoCoWords: a co-word ("co-stars", "co-wrote") rules out no
	// candidate that shares no neighbour with its anchor along the
	// relation the word names (AnchorConfig.CoWords; the ablation).
	NoCoWords bool
	// NoReturnedAnchors: a candidate that reaches only the anchors its
	// path walks straight back to keeps them as its reach
	// (AnchorConfig.ReturnedAnchors; the ablation).
	NoReturnedAnchors bool
	// NoNonAnchorNorms: non-anchors are learned by their texts as written,
	// a text quoted once is none, and quoted mentions are ruled out too
	// (AnchorConfig.NonAnchorNorms; the ablation).
	NoNonAnchorNorms bool
	// NoSharedWith: "share ... with X" asks for nothing a co-word asks
	// for (AnchorConfig.SharedWith; the ablation).
	NoSharedWith bool
	// NoFuzzyNames: a question is planned as typed, a misspelt name and
	// all (AnchorConfig.FuzzyNames; the ablation).
	NoFuzzyNames bool
	// NoMultiwordTypes: a mention of two or more words counts for
	// CoverMentions only as one of a word does (AnchorConfig.MultiwordTypes;
	// the ablation).
	NoMultiwordTypes bool
	// NoTypeAfterAnchor: a type word right after an anchor mention may
	// name the type asked for (AnchorConfig.TypeAfterAnchor; the
	// ablation).
	NoTypeAfterAnchor bool
	// NoTypeAfterMention: a type word right after a mention no candidate
	// anchors on, naming that mention's type ("the comedy genre"), may
	// name the type asked for or an answer word
	// (AnchorConfig.TypeAfterMention; the ablation).
	NoTypeAfterMention bool
	// NoLeadVerbAsks: a question's first word, a verb, asks for nothing
	// unless it is a learned asking word (AnchorConfig.LeadVerbAsks; the
	// ablation).
	NoLeadVerbAsks bool
	// NoAnswerWordsLead: an answer word names the plan's final step
	// whatever the question's lead words ask for
	// (AnchorConfig.AnswerWordsLead; the ablation).
	NoAnswerWordsLead bool
	// NoTrailingAnswerWords: a question with no noun before its first
	// anchor names no answer word after its last
	// (AnchorConfig.TrailingAnswerWords; the ablation).
	NoTrailingAnswerWords bool
	// NoInflectedRelations: a word the training never used names no
	// relation its base form names (AnchorConfig.InflectedRelations; the
	// ablation).
	NoInflectedRelations bool
	// NoStemRelations: a noun the training never used names nothing the
	// verb it is formed from names (AnchorConfig.StemRelations; the
	// ablation).
	NoStemRelations bool
	// NoContextSentences: a question's sentences before its last are
	// always read with it (AnchorConfig.ContextSentences; the ablation).
	NoContextSentences bool
	// NoCasualContext: nor in lower case, nor when they name nothing
	// (AnchorConfig.CasualContext; the ablation).
	NoCasualContext bool
	// NoNounHeads: a word that may be a verb is no noun before a
	// preposition, and a word after "of" may name the type a question
	// asks for (AnchorConfig.NounHeads; the ablation).
	NoNounHeads bool
	// NoOfValues: in "N of M", M's first word may be a value ("cast of
	// X's 1926 films": "1926"), and the type word after it names the type
	// asked for (AnchorConfig.OfValues; the ablation).
	NoOfValues bool
	// NoRequestObject: a request's verb asks for the first word after it
	// that is no stop word or number, even the addressee "me", and a verb
	// that is an asking word asks for nothing when a determiner follows
	// it (AnchorConfig.RequestObject; the ablation).
	NoRequestObject bool
	// NoObjectModifiers: a word before a request's object that the
	// lexicon has only as an adjective, not as a noun or a verb's form
	// ("List the other movies ..."), is the object (AnchorConfig.ObjectModifiers; the ablation).
	NoObjectModifiers bool
	// NoQuotedSlotsYield: an unquoted slot rules a candidate out as much
	// as a non-anchor (AnchorConfig.QuotedSlotsYield; the ablation).
	NoQuotedSlotsYield bool
	// NoQuotedRival: an unquoted mention anchoring a quoted slot rules a
	// candidate out whether or not the question quotes a word the slot
	// may take (AnchorConfig.QuotedRival; the ablation).
	NoQuotedRival bool
	// NoCasualFit: the text-fit gate trains and calibrates on the
	// questions and passages as written only (FitConfig.Casual; the
	// ablation).
	NoCasualFit bool
	// NoAnswerWords: no answer words are learned (AnchorConfig.AnswerWords;
	// the ablation).
	NoAnswerWords bool
	// NoAnchorWords: no anchor words are learned (AnchorConfig.AnchorWords;
	// the ablation).
	NoAnchorWords bool
	// NoTypeWords: no type words are learned from the SKB's documents
	// (AnchorConfig.TypeWords; the ablation).
	NoTypeWords bool
	// NoReadInContext: an unseen word whose nearest known words name
	// different parts of the schema stays unread (AnchorConfig.ReadInContext;
	// the ablation).
	NoReadInContext bool
	// NoRepeatWords: the plan ranker does not see whether a word of the
	// question comes twice (AnchorConfig.RepeatWords; the ablation).
	NoRepeatWords bool
	// NoSynonymRelations: a synonym of a relation's schema word names no
	// relation (AnchorConfig.SynonymRelations; the ablation).
	NoSynonymRelations bool
	// NoDeclineRuledOut: the planner answers with the best candidate even
	// when what the question names rules out every one and its lead words
	// rule out the type it answers with (AnchorConfig.DeclineRuledOut;
	// the ablation).
	NoDeclineRuledOut bool
	// NoSchemaSteps: the planner's templates are the training plans'
	// only, without one step along each relation of the schema either
	// way (the ablation).
	NoSchemaSteps bool
	// NoSchemaPaths: the planner's templates add no two steps along the
	// schema's relations that no training plan is after the schema's one
	// steps (the ablation; NoSchemaSteps leaves out both).
	NoSchemaPaths bool
	// NoOuterAnchors: a candidate that reaches a node a longer mention
	// around one of its anchors names, or is anchored inside a longer
	// mention, is not ruled out for it (AnchorConfig.OuterAnchors,
	// InnerAnchors; the ablation).
	NoOuterAnchors bool
	// NoCoverMentions: a candidate that leaves more of the question's
	// mentions unexplained is not ruled out by it
	// (AnchorConfig.CoverMentions; the ablation).
	NoCoverMentions bool
	// NoAddressee: "me" or "us" after a verb's base form may anchor a
	// candidate as any mention does (AnchorConfig.Addressee; the
	// ablation).
	NoAddressee bool
	// NoPronounVerbs: a verb right after an auxiliary and a subject
	// pronoun may anchor as any word may (AnchorConfig.PronounVerbs; the
	// ablation).
	NoPronounVerbs bool
	// NoPhrasalVerbs: a verb and its particle that are the clause's own
	// verb ("what geological formation turns up?", "Go down two levels
	// from X") may anchor as any mention may (AnchorConfig.PhrasalVerbs;
	// the ablation).
	NoPhrasalVerbs bool
	// NoFiniteVerbs: a one-word verb that is its clause's finite verb
	// ("what sits there?", "Which nouns sit two links under X?") may
	// anchor as any mention may (AnchorConfig.FiniteVerbs; the ablation).
	NoFiniteVerbs bool
	// NoWhSubjects: a verb's -s form right after "what" or "who" that
	// closes its clause ("what results?") may anchor as any mention may
	// (AnchorConfig.WhSubjects; the ablation).
	NoWhSubjects bool
	// NoWhPrepositions: a verb's -s form right after "what" or "who"
	// followed by a preposition of place ("What falls under X ...?") may
	// anchor as any word may (AnchorConfig.WhPrepositions; the ablation).
	NoWhPrepositions bool
	// NoMarkedMentions: a mention whose words span a clause's end or a
	// quotation's edge ("parts; name") may anchor as any mention may
	// (AnchorConfig.MarkedMentions; the ablation).
	NoMarkedMentions bool
	// NoPersonPronouns: "someone", "anybody" and the other indefinite
	// pronouns for people may anchor as any mention may
	// (AnchorConfig.PersonPronouns; the ablation).
	NoPersonPronouns bool
	// NoPersonalPronouns: a personal or possessive pronoun in lower case
	// ("them", "her") may anchor as any mention may
	// (AnchorConfig.PersonalPronouns; the ablation).
	NoPersonalPronouns bool
	// NoAppositive: a mention after "the" and a word the training never
	// anchored after is ruled out as any after that word is
	// (AnchorConfig.Appositive; the ablation).
	NoAppositive bool
	// NoKindAnswerWords: an unseen noun of the lead read as a word naming
	// a relation names no answer step (AnchorConfig.KindAnswerWords; the
	// ablation).
	NoKindAnswerWords bool
	// NoDerivedFirstSense: an unseen word is read as a known word
	// derivationally related to any of its senses, not only to its most
	// frequent one (AnchorConfig.DerivedFirstSense; the ablation).
	NoDerivedFirstSense bool
	// NoFormSenses: an unseen word is read through every sense of its
	// base forms (AnchorConfig.FormSenses; the ablation).
	NoFormSenses bool
	// NoOpeningNoun: the noun a question opens with names no asked type
	// (AnchorConfig.OpeningNoun; the ablation).
	NoOpeningNoun bool
	// NoOpeningFirst: a question no question word occurs in asks for what
	// an asking word's slot names before its opening noun's type
	// (AnchorConfig.OpeningFirst; the ablation).
	NoOpeningFirst bool
	// NoOpeningLift: the noun opening a question names a type only by the
	// schema's word or the lexicon, not by a training lift
	// (AnchorConfig.OpeningLift; the ablation).
	NoOpeningLift bool
	// NoSlotLifts: a noun after an asking determiner names a type only by
	// the schema's word or the lexicon, not by a training lift
	// (AnchorConfig.SlotLifts; the ablation).
	NoSlotLifts bool
	// NoWrittenAnchors: a mention of a word read (an unseen word read as
	// a known one) anchors plans as the question's own do
	// (AnchorConfig.WrittenAnchors; the ablation).
	NoWrittenAnchors bool
	// NoWhAsks: a question word opening a question asks for no type the
	// training bears out (AnchorConfig.WhAsks; the ablation).
	NoWhAsks bool
	// NoClosingWh: a question word closing a question that none opens
	// asks for nothing (AnchorConfig.ClosingWh; the ablation).
	NoClosingWh bool
	// NoInSituWh: a question word asked in place with words after it
	// ("X has taken direction from whom over the years?") asks for
	// nothing (AnchorConfig.InSituWh; the ablation).
	NoInSituWh bool
	// NoInSituObjects: a question word asked in place right after a
	// verb ("... put whom in front of the camera?") asks for nothing
	// (AnchorConfig.InSituObjects; the ablation).
	NoInSituObjects bool
	// NoTypeWordNouns: a type word names its type in any form, a verb's
	// too (AnchorConfig.TypeWordNouns; the ablation).
	NoTypeWordNouns bool
	// NoBareObject: a bare question word before the auxiliary asks for
	// what the verb reaches by any path's last step (AnchorConfig.BareObject;
	// the ablation).
	NoBareObject bool
	// NoMixedForms: a word whose training questions bear out no relation
	// names none, whatever its other forms name (AnchorConfig.MixedForms;
	// the ablation).
	NoMixedForms bool
	// NoFrontedPhrase: a phrase fronted before a question's question word
	// is read where it stands (AnchorConfig.FrontedPhrase; the ablation).
	NoFrontedPhrase bool
	// NoPrepositionWh: a preposition opening a question before its
	// question word opens it ("By whom has X been directed?";
	// AnchorConfig.PrepositionWh; the ablation).
	NoPrepositionWh bool
	// NoOpeningTitles: a title opening the text is read as any word
	// (AnchorConfig.OpeningTitles; the ablation).
	NoOpeningTitles bool
	// NoPossessiveNests: a word said again after a possessor nests
	// nothing (AnchorConfig.PossessiveNests; the ablation).
	NoPossessiveNests bool
	// NoPossessiveChains: a word said right after itself as a possessor
	// nests nothing (AnchorConfig.PossessiveChains; the ablation).
	NoPossessiveChains bool
	// NoRelativeChains: a word said right before "whose" and again right
	// after it nests nothing (AnchorConfig.RelativeChains; the ablation).
	NoRelativeChains bool
	// NoAuxiliaries: a question's auxiliary "do" may anchor
	// (AnchorConfig.Auxiliaries; the ablation).
	NoAuxiliaries bool
	// NoPairedUnexplained: the deeper search pairs only candidates left
	// (AnchorConfig.PairedUnexplained; the ablation).
	NoPairedUnexplained bool
	// NoRelativeThat: "that" or "which" after a noun is a determiner all
	// the same (AnchorConfig.RelativeThat; the ablation).
	NoRelativeThat bool
	// NoFrontedRoles: a fronted "As a N," phrase leaves the question's
	// type to be read as a whole (AnchorConfig.FrontedRoles; the
	// ablation).
	NoFrontedRoles bool
	// NoOfHeads: a closing pronoun refers back to the last type-naming
	// word, "of" or not (AnchorConfig.OfHeads; the ablation).
	NoOfHeads bool
	// NoRequestClauses: a request after a comma asks only after a phrase
	// naming a type, and none past "and" and its speaker
	// (AnchorConfig.RequestClauses; the ablation).
	NoRequestClauses bool
	// NoClauseAnswerWords: answer words are read before the first anchor
	// and right after the last, never in an asking clause
	// (AnchorConfig.ClauseAnswerWords; the ablation).
	NoClauseAnswerWords bool
	// NoSaidTwice: a plural or a preposition said twice anywhere nests
	// nothing unless said before "of" (AnchorConfig.SaidTwice; the
	// ablation).
	NoSaidTwice bool
	// NoSaidVerbs: a word said twice nests also where an object pronoun
	// follows it, a verb (AnchorConfig.SaidVerbs; the ablation).
	NoSaidVerbs bool
	// NoPoliteWords: a question's words of courtesy ("please", "kindly")
	// are read as any word (AnchorConfig.PoliteWords; the ablation).
	NoPoliteWords bool
	// NoNounClauses: a noun phrase put as a question after the clauses
	// that state asks nothing (AnchorConfig.NounClauses; the ablation).
	NoNounClauses bool
	// NoColonNouns: a noun phrase after a colon closing the text asks only
	// with a "?" (AnchorConfig.ColonNouns; the ablation).
	NoColonNouns bool
	// NoNamingClauses: a noun phrase as the subject of a naming verb's
	// passive closing the question asks for nothing
	// (AnchorConfig.NamingClauses; the ablation).
	NoNamingClauses bool
	// NoQuantifierTails: a noun phrase put as a question closing with a
	// quantifier set apart by a comma ("their directors, all of them?")
	// asks for nothing (AnchorConfig.QuantifierTails; the ablation).
	NoQuantifierTails bool
	// NoPrepositionSlots: a word right after a preposition is read
	// through all its senses ("by type" as "by wrote";
	// AnchorConfig.PrepositionSlots; the ablation).
	NoPrepositionSlots bool
	// NoClauseCompounds: in an asking clause, a compound's first word
	// names the type asked for where it names one ("which film
	// categories": films; AnchorConfig.ClauseCompounds; the ablation).
	NoClauseCompounds bool
	// NoStatedLeads: the nouns before a question's first anchor name an
	// answer word's step also in a sentence that states before the one
	// that asks (AnchorConfig.StatedLeads; the ablation).
	NoStatedLeads bool
	// NoElidedQuestions: a question word standing alone as the last
	// clause asks for nothing the phrase before it names
	// (AnchorConfig.ElidedQuestions; the ablation).
	NoElidedQuestions bool
	// NoBackPastRoles: a pronoun closing the asking clause refers back to
	// a capacity stated with "as" too (AnchorConfig.BackPastRoles; the
	// ablation).
	NoBackPastRoles bool
	// NoStatedNames: a node a candidate reaches explains the mention that
	// names it, where the training questions bear StatedNames out too
	// (AnchorConfig.StatedNames; the ablation).
	NoStatedNames bool
	// NoDepthBack: a candidate that walks one relation twice and a step
	// straight back walks deep all the same (AnchorConfig.DepthBack; the
	// ablation).
	NoDepthBack bool
	// NoPairWords: "couple" and "pair" say no count of two
	// (AnchorConfig.PairWords; the ablation).
	NoPairWords bool
	// NoArgumentCompounds: a mention joined by a hyphen to "like" or a
	// verb's inflection is in a compound as any other part
	// (AnchorConfig.ArgumentCompounds; the ablation).
	NoArgumentCompounds bool
	// NoBeObject: a form of "be" after a bare question word is no
	// auxiliary of the object rule (AnchorConfig.BeObject; the ablation).
	NoBeObject bool
	// NoObjectBeyond: the bare reading walks the verb's relation first
	// and last whatever type the question word asks for
	// (AnchorConfig.ObjectBeyond; the ablation).
	NoObjectBeyond bool
	// NoQuotedOpening: a quoted noun opening the question names the type
	// asked for as any other (AnchorConfig.QuotedOpening; the ablation).
	NoQuotedOpening bool
	// NoRelativeAntecedents: a verb's form after a relative pronoun that
	// follows a stop word is a relative verb as any other
	// (AnchorConfig.RelativeAntecedents; the ablation).
	NoRelativeAntecedents bool
	// NoNounAntecedents: a pronoun after a verb alone relates as after a
	// noun (AnchorConfig.NounAntecedents; the ablation).
	NoNounAntecedents bool
	// NoPairedAnchors: no deeper search for two candidates left anchored
	// on one name each (AnchorConfig.PairedAnchors; the ablation).
	NoPairedAnchors bool
	// NoCompoundHeads: the word in an asking word's slot names the type
	// asked for, whatever noun heads its compound
	// (AnchorConfig.CompoundHeads; the ablation).
	NoCompoundHeads bool
	// NoAddressedRequests: a request put to "you" ("Could you name ...")
	// asks for nothing by its verb (AnchorConfig.AddressedRequests; the
	// ablation).
	NoAddressedRequests bool
	// NoFuzzyOpenings: a capitalised word opening a sentence may be read
	// as a misspelt one-word name (AnchorConfig.FuzzyOpenings; the
	// ablation).
	NoFuzzyOpenings bool
	// NoKindCompounds: a mention hyphened to "type", "sort" or another
	// word of kinds is in a compound (AnchorConfig.KindCompounds; the
	// ablation).
	NoKindCompounds bool
	// NoPrefixTwice: a prefix hyphened to a word that opens with it
	// again ("sub-subcategories") nests nothing (AnchorConfig.PrefixTwice;
	// the ablation).
	NoPrefixTwice bool
	// NoTheirsTwice: "theirs" after an owned plural ("its subtypes, then
	// theirs") nests nothing (AnchorConfig.TheirsTwice; the ablation).
	NoTheirsTwice bool
	// NoWhSlotsFirst: the first asking word's slot names the type asked
	// for, "which" or not (AnchorConfig.WhSlotsFirst; the ablation).
	NoWhSlotsFirst bool
	// NoAskingClause: a last clause that asks after clauses that state
	// names the type asked for no more than the rest of the question
	// (AnchorConfig.AskingClause; the ablation).
	NoAskingClause bool
	// NoFrontedClause: a clause after a comma that asks after a phrase
	// that states ("For films whose scripts came from X, list the cast
	// members.") names the type asked for no more than the rest of the
	// question (AnchorConfig.FrontedClause; the ablation).
	NoFrontedClause bool
	// NoClauseSlots: an asking clause names the type asked for by the
	// schema's word or the lexicon alone, and by its first noun alone
	// (AnchorConfig.ClauseSlots; the ablation).
	NoClauseSlots bool
	// NoSlotHeads: "Which of the 2000 releases ..." and "which new
	// releases" read "of" and "new" as the asking word's slot where
	// candidates are ruled out (AnchorConfig.SlotHeads; the ablation).
	NoSlotHeads bool
	// NoHyphenedLeads: a first word hyphened to the next may be a
	// request's verb ("Second-generation ...";
	// AnchorConfig.HyphenedLeads; the ablation).
	NoHyphenedLeads bool
	// NoRequestTitles: a singular noun after a request's verb opening the
	// text, before a name, is read as any word (AnchorConfig.RequestTitles;
	// the ablation).
	NoRequestTitles bool
	// NoMarkTitles: a singular noun opening a phrase after a mark, before
	// a name, is read as any word (AnchorConfig.MarkTitles; the ablation).
	NoMarkTitles bool
	// NoHeldSlots: where an anchor fills an asking determiner's slot, the
	// other words still name the type asked for (AnchorConfig.HeldSlots;
	// the ablation).
	NoHeldSlots bool
	// NoDeterminedValues: a word that may be a verb is a noun only right
	// after a determiner (AnchorConfig.DeterminedValues; the ablation).
	NoDeterminedValues bool
	// NoPersonObjects: a request's object "everyone" names no type
	// (AnchorConfig.PersonObjects; the ablation).
	NoPersonObjects bool
	// NoPersonOpenings: "everyone" opening the text names no type
	// (AnchorConfig.PersonOpenings; the ablation).
	NoPersonOpenings bool
	// NoPersonSlots: "everyone" as the object of a request whose verb is
	// an asking word ("List everyone cast in ...", "...; list everyone
	// acting in it.") names no type (AnchorConfig.PersonSlots; the
	// ablation).
	NoPersonSlots bool
	// NoSlotKinds: a word read as another in a noun slot names no type as
	// a kind where it is a verb's form too ("Which authors supplied
	// scripts to ...", read "Which written ..."; AnchorConfig.SlotKinds;
	// the ablation).
	NoSlotKinds bool
	// NoDirectionModifiers: a preposition of place nests no plural that
	// adjectives come before ("What lies below the direct subcategories of
	// X?"; AnchorConfig.DirectionModifiers; the ablation).
	NoDirectionModifiers bool
	// NoMarkedNests: a phrase mark after the "of" that opens a nesting
	// does not end it ("Raw material of X, a kind of Y?";
	// AnchorConfig.MarkedNests; the ablation).
	NoMarkedNests bool
	// NoNamedSteps: a candidate that walks another's relations and more,
	// to answer with other types, competes though no word names what it
	// walks more or answers with (AnchorConfig.NamedSteps; the ablation).
	NoNamedSteps bool
	// NoKindWords: a word read as a kind of a type names it only in an
	// asking word's slot, not opening the text (AnchorConfig.KindWords;
	// the ablation).
	NoKindWords bool
	// NoAskingMentions: a type word after a mention that is an asking
	// determiner ("what", a film's name) says what the mention is
	// (AnchorConfig.AskingMentions; the ablation).
	NoAskingMentions bool
	// NoPossessorWh: "whose" asks for nothing where the training opened
	// too few questions with it (AnchorConfig.PossessorWh; the ablation).
	NoPossessorWh bool
	// NoObjectWh: "whom" opening a question asks for nothing where the
	// training opened too few questions with it (AnchorConfig.ObjectWh;
	// the ablation).
	NoObjectWh bool
	// NoWhVerbSlots: the word after "who" (a question word determining no
	// noun) may read as a kind of a type, as after "which"
	// (AnchorConfig.WhVerbSlots; the ablation).
	NoWhVerbSlots bool
	// NoFormSlots: a template's slots take the best mentions alone, all
	// of which the question's form may rule out (AnchorConfig.FormSlots;
	// the ablation).
	NoFormSlots bool
	// NoMarkedFollowers: a mention right after a non-anchor word is ruled
	// out as an anchor though a mark sets it apart ("Broader term: X";
	// AnchorConfig.MarkedFollowers; the ablation).
	NoMarkedFollowers bool
	// NoTitleObjects: a bare singular noun after the first word and before
	// a name is a request's object ("Cast member X ..." asks for members;
	// AnchorConfig.TitleObjects; the ablation).
	NoTitleObjects bool
	// NoPrepositionOpenings: a first word before a preposition opens a
	// request in the clauses before an asking one ("Back in 1998, ...";
	// AnchorConfig.PrepositionOpenings; the ablation).
	NoPrepositionOpenings bool
	// NoImperativeOpenings: a first word that is a verb and a noun names
	// what is asked for even before a determiner ("Break every type of
	// X into parts: ..." asks for a break; AnchorConfig.ImperativeOpenings;
	// the ablation).
	NoImperativeOpenings bool
	// NoMarkedSlots: an asking word after a noun opens no noun slot even
	// with a mark between ("...; which label is it?" may read "label" as
	// a verb; AnchorConfig.MarkedSlots; the ablation).
	NoMarkedSlots bool
	// NoCompoundSlots: a word after a singular noun read in a noun slot
	// is read with all its senses ("the genre label for X" may read
	// "label" as a verb; AnchorConfig.CompoundSlots; the ablation).
	NoCompoundSlots bool
	// NoTitlePrepositions: a bare singular noun before a name is a title
	// only after the common prepositions ("between director X" asks for
	// directors; AnchorConfig.TitlePrepositions; the ablation).
	NoTitlePrepositions bool
	// NoWhoseRelatives: an answer word after a relative "whose" asks for
	// what it names ("... whose cast includes X" asks for people;
	// AnchorConfig.WhoseRelatives; the ablation).
	NoWhoseRelatives bool
	// NoBackPastTypeWords: a pronoun closing the asking clause may refer
	// back to a type word that says what a mention is ("the drama kind
	// ...: list them." asks for genres; AnchorConfig.BackPastTypeWords;
	// the ablation).
	NoBackPastTypeWords bool
	// NoSpeakerVerbs: a verb whose subject is the speaker or the
	// addressee is read as any other unknown word is
	// (AnchorConfig.SpeakerVerbs; the ablation).
	NoSpeakerVerbs bool
	// NoOpeningAdverbs: a participle opening the question is the
	// speaker's only right before its preposition, not past adverbs
	// (AnchorConfig.OpeningAdverbs; the ablation).
	NoOpeningAdverbs bool
	// NoEmbeddedQuestions: a question put inside the speaker's words
	// ("Do you know what X directed?") opens where the text does
	// (AnchorConfig.EmbeddedQuestions; the ablation).
	NoEmbeddedQuestions bool
	// NoNameSubjects: a name right before a verb naming a relation need
	// not anchor a path walking it first (AnchorConfig.NameSubjects; the
	// ablation).
	NoNameSubjects bool
	// NoClosedFollowers: a mention after a word of NonAnchorAfter is
	// ruled out whatever stood after it in the training
	// (AnchorConfig.ClosedFollowers; the ablation).
	NoClosedFollowers bool
	// NoClauseBounds: a word beyond a relative word next to a mention is
	// its anchor word too (AnchorConfig.ClauseBounds; the ablation).
	NoClauseBounds bool
	// NoSubjectVerbs: the verb after a question word that asks for one
	// type names no step that ends the plan (AnchorConfig.SubjectVerbs;
	// the ablation).
	NoSubjectVerbs bool
	// NoAskedAnswerWords: an answer word names the plan's last step even
	// where that step ends at no type the question names as asked for
	// (AnchorConfig.AskedAnswerWords; the ablation).
	NoAskedAnswerWords bool
	// NoObjectVerbs: a question that puts its subject between a do- or
	// have-auxiliary and its verb asks for nothing the subject rules out
	// (AnchorConfig.ObjectVerbs; the ablation).
	NoObjectVerbs bool
	// NoFormRelations: a word no training question used names only what
	// its base forms name, not what the other inflections the training
	// used name (AnchorConfig.FormRelations; the ablation).
	NoFormRelations bool
	// NoNamedFirst: a deeper search tries the templates the classifier
	// finds equally probable in the schema's order, and none of the
	// schema's two-step paths on a longer mention (AnchorConfig.NamedFirst;
	// the ablation).
	NoNamedFirst bool
	// NoVerbFirst: the verb of a question whose subject is its anchor
	// alone is walked last, whatever names its object
	// (AnchorConfig.VerbFirst; the ablation).
	NoVerbFirst bool
	// NoHeadsOf: "N of M" keeps M's type word from the type asked for
	// only where N opens the question (AnchorConfig.HeadsOf; the
	// ablation).
	NoHeadsOf bool
	// NoWhichVerbs: only a question word that asks for one type makes
	// the verb after it a subject verb (AnchorConfig.WhichVerbs; the
	// ablation).
	NoWhichVerbs bool
	// NoWhichUnknown: a word the lexicon does not know is not one of the
	// nouns a question word asks with before its subject verb
	// (AnchorConfig.WhichUnknown; the ablation).
	NoWhichUnknown bool
	// NoWhichSubject: a type word after the subject verb of a question
	// word and its nouns may name the type asked for
	// (AnchorConfig.WhichSubject; the ablation).
	NoWhichSubject bool
	// NoCompoundWords: planning reads a closed compound no lexicon knows as
	// written (AnchorConfig.CompoundWords; the ablation).
	NoCompoundWords bool
	// NoCoAnchors: an anchor after "together with" or "alongside" need
	// not walk the subject verb's relation (AnchorConfig.CoAnchors; the
	// ablation).
	NoCoAnchors bool
	// NoExplainedWords: a word keeps every relation its questions' plans
	// walk, also those the question's other words explain
	// (RelWords.Explain; the ablation).
	NoExplainedWords bool
	// NoKinRelations: a word the training bears out for one relation
	// alone names it only with the schema's words
	// (AnchorConfig.KinRelations; the ablation).
	NoKinRelations bool
	// NoMentionForms: the words no anchor follows are learned over every
	// mention, numbers and names together, as before
	// (AnchorConfig.NumberNonAnchorAfter; the ablation).
	NoMentionForms bool
	// NoTitles: a singular noun with no determiner before a name, its
	// title, is read like any other word (AnchorConfig.Titles; the
	// ablation).
	NoTitles bool
	// NoRoles: a singular noun with no determiner after "as", the role a
	// name played ("X's movies as director"), is read as the training's
	// words like any other (AnchorConfig.Roles; the ablation).
	NoRoles bool
	// NoAskedBeforeAnchor: a type word right before an anchor says what
	// the anchor is even right after an asking word and of another type
	// than the anchor's (AnchorConfig.AskedBeforeAnchor; the ablation).
	NoAskedBeforeAnchor bool
	// NoCasedAnchors: an anchoring on a mention in lower case of a name
	// written with a capital letter ("made", the film Made) does not give
	// way to one of the same template on a capitalised mention
	// (AnchorConfig.CasedAnchors; the ablation).
	NoCasedAnchors bool
	// NoCasedAcross: such an anchoring gives way to one of the same
	// template alone (AnchorConfig.CasedAcross; the ablation).
	NoCasedAcross bool
	Log           io.Writer
	// Progress, when set, is told how far each stage that runs over the
	// training questions on all cores has got (done of total; called
	// from several goroutines).
	Progress func(stage string, done, total int)
}

// LinkingPlannerStats describes the training data of a linking planner.
type LinkingPlannerStats struct {
	Train, Used int     // training questions, and those with a usable mined plan
	Val         int     // validation questions with a mined plan
	PlanAcc     float64 // the best checkpoint's LinkedPlanAccuracy on them
	Templates   int
	// SchemaSteps: one-step templates added along the schema's relations
	// that no training plan is (LinkingPlannerOptions.NoSchemaSteps).
	SchemaSteps int
	// SchemaPaths: how many of the SchemaSteps are two steps along the
	// schema's relations whose types chain (LinkingPlannerOptions.
	// SchemaPaths).
	SchemaPaths int
	Ranked      int     // questions whose mined plan ranks its middle nodes (their template is the unranked structure)
	AnchorLoss  float64 // last epoch's mean anchor loss
	RankGroups  int     // questions the plan ranker learned from
	RankLoss    float64 // its last epoch's mean loss
	// FitMin is the text-fit gate's calibrated threshold, FitVal and
	// FitHeld the shares of validation questions it passes and of
	// held-out passages it turns to the text (0 without a gate).
	FitMin          float32
	FitRescue       float32  // the rescue threshold (planner.FitConfig.Rescue)
	fitHeld         []string // the held-out passages the gate rejects
	FitVal, FitHeld float64
	// Named: training mentions left in a candidate's restriction that
	// name a node it reaches (each mention and anchors once), and
	// NamedAnswers those naming an answer.
	Named, NamedAnswers int
	// Nested: training questions that say a word twice before "of"
	// outside their anchors (planner.LearnRepeatTwice), and NestedTwice
	// those whose mined plans walk one relation twice in a row.
	Nested, NestedTwice int
	// Deep: training questions that walk one relation twice in a row or
	// say a depth outside their anchors (planner.LearnDepthSaid), and
	// DeepSaid those that do both.
	Deep, DeepSaid int
	// Returned: training questions whose mined plans walk straight back
	// to their anchors (plan.Returned), and ReturnedBeyond those with an
	// answer that is none of those anchors (planner.ReturnedCounts).
	Returned, ReturnedBeyond int
}

// minedTemplate is a mined plan's template: its paths in canonical order
// (sorted by their relation tokens) with untyped anchors and intermediate
// nodes, and for each of them the index of the plan's path it came from.
// A template is a structure: whether the question ranks the middle nodes
// (data.RankMark) is the plan ranker's choice between a candidate and its
// twin (planner.PlanCandidate.Twin), learned from how the restriction
// scores each, which carries over to phrasings the training never showed.
func minedTemplate(p data.Plan) ([]data.Path, []int) {
	idx := make([]int, len(p.Paths))
	for i := range idx {
		idx[i] = i
	}
	rels := func(path data.Path) string {
		r := make([]string, len(path.Steps))
		for i, st := range path.Steps {
			r[i] = st.Token()
		}
		return strings.Join(r, " / ")
	}
	sort.SliceStable(idx, func(a, b int) bool { return rels(p.Paths[idx[a]]) < rels(p.Paths[idx[b]]) })
	var out []data.Path
	for _, i := range idx {
		path := p.Paths[i].Clone()
		for j := range path.Nodes[:len(path.Nodes)-1] {
			path.Nodes[j] = data.PathNode{Type: data.AnyType}
		}
		out = append(out, path)
	}
	return out, idx
}

// eachIndex runs fn on every index of [0, n) on all cores, telling
// progress how far it got, and returns the error of the lowest failing
// index (or ctx's). fn must write only its own index's results.
func eachIndex(ctx context.Context, n int, stage string, progress func(string, int, int), fn func(i int) error) error {
	errs := make([]error, n)
	var done atomic.Int64
	if progress != nil {
		progress(stage, 0, n)
	}
	err := parallel.Chunks(ctx, n, 1, 0, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			errs[i] = fn(i)
			if d := done.Add(1); progress != nil {
				progress(stage, int(d), n)
			}
		}
	})
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return err
}

// anchorMention finds the mention a mined plan's anchor was: same text,
// naming the anchor node. -1 when none does.
func anchorMention(ments []linking.LinkedMention, a data.PlanAnchor) int {
	for mi, m := range ments {
		if m.Text != a.Text {
			continue
		}
		for _, n := range m.Nodes {
			if slices.Contains(a.Nodes, n.Node) {
				return mi
			}
		}
	}
	return -1
}

// linkExample is a training question with its mined plan, the plan's
// template and the order of its paths in the template.
type linkExample struct {
	q     data.Query
	rec   data.MinedPlanRecord
	tmpl  []data.Path
	order []int
}

// LinkingPlanner trains a planner that links its anchors from mined
// plans: the template classifier on the training questions whose mined
// plan reaches F1 >= MinF1, and the anchor scorer (a listwise softmax over
// the question's mentions for each path, AdaGrad) on the same questions.
// A template keeps a target type when TypeAgreement of its examples agree
// on it; other positions are untyped. The checkpoint with the best
// validation MRR of its plans executed (plan-exec) is kept.
func LinkingPlanner(ctx context.Context, ws *workspace.Workspace, d *infer.DenseChannel, o LinkingPlannerOptions) (*planner.LinkingPlanner, *Result, LinkingPlannerStats, error) {
	var st LinkingPlannerStats
	o.withDefaults()
	if o.Members < 0 {
		return nil, nil, st, fmt.Errorf("planner: %d classifier members, want at least 1", o.Members)
	}
	if o.FitDraws < 0 {
		return nil, nil, st, fmt.Errorf("planner: %d text-fit gate draws, want at least 1", o.FitDraws)
	}
	if ws.SKB.QA == nil {
		return nil, nil, st, fmt.Errorf("the workspace has no questions")
	}
	qs, err := ws.SKB.QA.Split(data.SplitTrain)
	if err != nil {
		return nil, nil, st, err
	}
	st.Train = len(qs)
	var exs []linkExample
	skelTypes := map[string]map[string]int{}
	for _, q := range qs {
		rec, ok := o.Mined[q.ID]
		if !ok || rec.Mined.F1 < o.MinF1 || len(rec.Plan.Anchors) != len(rec.Plan.Paths) {
			continue
		}
		t, order := minedTemplate(rec.Plan)
		if rec.Plan.HasRankMarks() {
			st.Ranked++
		}
		key := mine.SkeletonKey(rec.Plan)
		if skelTypes[key] == nil {
			skelTypes[key] = map[string]int{}
		}
		skelTypes[key][rec.Plan.TargetType()]++
		exs = append(exs, linkExample{q: q, rec: rec, tmpl: t, order: order})
	}
	st.Used = len(exs)
	if len(exs) == 0 {
		return nil, nil, st, fmt.Errorf("no training question has a mined plan of F1 >= %.2f (run strata mine-plans)", o.MinF1)
	}
	// Target types by agreement.
	target := map[string]string{}
	for key, counts := range skelTypes {
		best, bn, total := data.AnyType, 0, 0
		for t, n := range counts {
			total += n
			if n > bn || n == bn && t < best {
				best, bn = t, n
			}
		}
		if best != data.AnyType && float64(bn) >= o.TypeAgreement*float64(total) {
			target[key] = best
		} else {
			target[key] = data.AnyType
		}
	}
	keys := map[string][]data.Path{}
	for i := range exs {
		e := &exs[i]
		tt := target[mine.SkeletonKey(e.rec.Plan)]
		for _, path := range e.tmpl {
			path.Nodes[len(path.Nodes)-1] = data.PathNode{Type: tt}
		}
		keys[planner.TemplateKey(e.tmpl)] = e.tmpl
	}
	names := make([]string, 0, len(keys))
	for k := range keys {
		names = append(names, k)
	}
	sort.Strings(names)
	ix := ws.Mentions()
	cfg := planner.Config{NodeTypes: ws.SKB.Schema.NodeTypes, Bigrams: true,
		Anchors: &planner.AnchorConfig{Dim: o.AnchorDim, Mentions: ix.Config(), RankDim: max(0, o.RankDim), NoTwins: o.NoTwins}}
	label := map[string]int{}
	for i, k := range names {
		cfg.Templates = append(cfg.Templates, keys[k])
		label[k] = i
	}
	st.Templates = len(names)
	if !o.NoSchemaSteps {
		// One step along each relation of the schema, either way, that no
		// training question's plan is, after the trained templates: the
		// classifier does not score them (planner.Config.SchemaSteps), so
		// a search reaches them only past every trained template (a deeper
		// search, or the first when it tries more templates than were
		// trained): "Who directed The Godfather?", from a film to its
		// director, where the training only ever asked for a person's
		// films.
		trained := map[string]bool{} // the trained one-step templates' steps, whatever their types
		for _, t := range cfg.Templates {
			if len(t) == 1 && t[0].Hops() == 1 {
				trained[t[0].Steps[0].Token()] = true
			}
		}
		for _, rel := range ws.SKB.Schema.RelationTypes {
			for _, dir := range []data.RelDir{data.Forward, data.Backward} {
				if step := data.Step(rel, dir); !trained[step.Token()] {
					cfg.Templates = append(cfg.Templates, []data.Path{data.TypePath([]string{data.AnyType, data.AnyType}, []data.PathStep{step})})
					st.SchemaSteps++
				}
			}
		}
		// Two steps along the schema's relations whose node types chain
		// (the first step's ends are a type the second starts from, as
		// the data's edges say: graphops.RelationEnds), that no training
		// plan is, after those: "Who wrote the movies that Ridley Scott
		// directed?", the writers of a director's films, which no
		// training question asked.
		if !o.NoSchemaPaths {
			trained2 := map[string]bool{}
			for _, t := range cfg.Templates {
				if len(t) == 1 && t[0].Hops() == 2 {
					trained2[t[0].Steps[0].Token()+" "+t[0].Steps[1].Token()] = true
				}
			}
			type relStep struct {
				step         data.PathStep
				starts, ends []data.TypeID
			}
			var steps []relStep
			for r, rel := range ws.SKB.Schema.RelationTypes {
				for _, dir := range []data.RelDir{data.Forward, data.Backward} {
					back := data.Backward
					if dir == data.Backward {
						back = data.Forward
					}
					steps = append(steps, relStep{data.Step(rel, dir), ws.Graph.RelationEnds(data.RelID(r), back), ws.Graph.RelationEnds(data.RelID(r), dir)})
				}
			}
			for _, a := range steps {
				for _, b := range steps {
					if trained2[a.step.Token()+" "+b.step.Token()] || !slices.ContainsFunc(a.ends, func(t data.TypeID) bool { return slices.Contains(b.starts, t) }) {
						continue
					}
					cfg.Templates = append(cfg.Templates, []data.Path{data.TypePath([]string{data.AnyType, data.AnyType, data.AnyType}, []data.PathStep{a.step, b.step})})
					st.SchemaSteps++
					st.SchemaPaths++
				}
			}
		}
		cfg.SchemaSteps = st.SchemaSteps
	}
	if d != nil {
		cfg.QueryDim = d.Docs.Dim
		cfg.Dense = d.Meta.Hash
	}
	cfg.Gate = models.GateConfig{In: cfg.InputDim(), Hidden: o.Hidden, Out: cfg.Classified()}
	if o.Members > 1 {
		cfg.Members = o.Members // one member is written as none, as before members
	}
	if !o.NoTypeWords {
		cfg.Anchors.TypeWords = planner.LearnTypeWords(ws.SKB)
	}
	c := newCrossFit(ws, d, o, cfg, exs)
	newPlanner := c.planner
	all := func(int) bool { return true }
	p, err := newPlanner(o.Train.Seed, all)
	if err != nil {
		return nil, nil, st, err
	}
	_, st.Nested, st.NestedTwice = c.nested(all)
	_, st.Deep, st.DeepSaid = c.depthSaid(all)
	st.Returned, st.ReturnedBeyond = c.returnedAnchors(all)
	// Classifier inputs and anchor groups of every example.
	logf(o.Log, "planner: linking %d training questions\n", len(exs))
	xs := make([][]float32, len(exs))
	ys := make([]int, len(exs))
	groups := make([][]planner.AnchorGroup, len(exs))
	err = eachIndex(ctx, len(exs), "linking the training questions", o.Progress, func(i int) error {
		e := exs[i]
		ti := label[planner.TemplateKey(e.tmpl)]
		ments := ix.Find(e.q.Text)
		for pi, src := range e.order {
			gold := anchorMention(ments, e.rec.Plan.Anchors[src])
			if gold < 0 {
				continue
			}
			if g, ok := p.AnchorGroup(e.q.Text, ments, ti, pi, gold, planner.AnchorWhole); ok {
				groups[i] = append(groups[i], g)
			}
			// The same example without the mentions' own words: the
			// scorer learns to tell an anchor by where it stands, too,
			// so a mention no training question used ("Tell" in "Tell
			// me which ...") is judged by its context rather than by
			// nothing.
			if !o.NoBareAnchors {
				if g, ok := p.AnchorGroup(e.q.Text, ments, ti, pi, gold, planner.AnchorBare); ok {
					groups[i] = append(groups[i], g)
				}
			}
			// And without the words around the mentions: the scorer
			// learns what a mention's own words and shape tell, so a
			// frame no training question used ("Going two steps down
			// from X, which ...") does not outweigh them.
			if !o.NoShapeAnchors {
				if g, ok := p.AnchorGroup(e.q.Text, ments, ti, pi, gold, planner.AnchorShape); ok {
					groups[i] = append(groups[i], g)
				}
			}
		}
		var err error
		xs[i], _, err = p.Features(e.q)
		ys[i] = ti
		return err
	})
	if err != nil {
		return nil, nil, st, err
	}
	subset := func(keep func(i int) bool) (*plannerTask, []planner.AnchorGroup) {
		task := &plannerTask{k: cfg.Classified()}
		var gs []planner.AnchorGroup
		for i := range exs {
			if keep(i) {
				task.x = append(task.x, xs[i])
				task.y = append(task.y, ys[i])
				gs = append(gs, groups[i]...)
			}
		}
		return task, gs
	}
	// The plan ranker learns, on every training question, which of the
	// planner's candidates answers it best; the candidates come from
	// planners trained on the other folds, so that their probabilities are
	// as (un)reliable as on unseen questions.
	if p.Ranker != nil {
		fold := map[int]int{}
		for j, q := range qs {
			fold[q.ID] = j % o.Folds
		}
		// Each fold's planner, trained on the other folds; whether a
		// question asks for a node it names is learned from the
		// candidates these planners try on their fold's questions (the
		// plans the final planner will choose among, wrong ones
		// included), and each fold's candidates are scored with the
		// counts of the other folds'.
		pks := make([]*planner.LinkingPlanner, o.Folds)
		named := make([][]planner.NamedExample, o.Folds)
		for k := 0; k < o.Folds; k++ {
			logf(o.Log, "plan ranker: fold %d of %d: training a planner on the other folds\n", k+1, o.Folds)
			others := func(i int) bool { return fold[exs[i].q.ID] != k }
			pk, err := newPlanner(o.Train.Seed+uint64(k)+1, others)
			if err != nil {
				return nil, nil, st, err
			}
			task, gs := subset(func(i int) bool { return fold[exs[i].q.ID] != k })
			task.g, task.more = pk.Gate, pk.More
			if _, err := Train(ctx, PlannerModel{P: pk}, task, o.Train, Options{}); err != nil {
				return nil, nil, st, err
			}
			trainAnchorScorer(pk.Anchor, gs, o.AnchorEpochs, o.AnchorLR, o.Train.Seed)
			pks[k] = pk
			if o.NoNamed {
				continue
			}
			var in []data.Query
			for _, q := range qs {
				if fold[q.ID] == k {
					in = append(in, q)
				}
			}
			nexs := make([][]planner.NamedExample, len(in))
			err = eachIndex(ctx, len(in), fmt.Sprintf("plan ranker: fold %d of %d: named answers", k+1, o.Folds), o.Progress, func(i int) error {
				var err error
				nexs[i], err = candidateNamed(pk, in[i], ws.CandMask)
				return err
			})
			if err != nil {
				return nil, nil, st, err
			}
			for _, xs := range nexs {
				named[k] = append(named[k], xs...)
			}
		}
		namedTable := func(skip int) *planner.NamedAnswers {
			if o.NoNamed {
				return nil
			}
			n := planner.NewNamedAnswers()
			for k, xs := range named {
				if k != skip {
					for _, x := range xs {
						n.Add(x.Keys, x.Answer)
					}
				}
			}
			return n
		}
		var rgroups []rankGroup
		for k, pk := range pks {
			pk.Cfg.Anchors.Named = namedTable(k)
			var in []data.Query
			for _, q := range qs {
				if fold[q.ID] == k {
					in = append(in, q)
				}
			}
			gs := make([]rankGroup, len(in))
			oks := make([]bool, len(in))
			err := eachIndex(ctx, len(in), fmt.Sprintf("plan ranker: fold %d of %d: candidates", k+1, o.Folds), o.Progress, func(i int) error {
				var err error
				gs[i], oks[i], err = planRankGroup(pk, in[i], ws.CandMask)
				return err
			})
			if err != nil {
				return nil, nil, st, err
			}
			for i, g := range gs {
				if oks[i] {
					rgroups = append(rgroups, g)
				}
			}
			logf(o.Log, "plan ranker: fold %d of %d done (%d questions with candidates to learn from)\n", k+1, o.Folds, len(rgroups))
		}
		p.Cfg.Anchors.Named = namedTable(-1)
		for _, xs := range named {
			for _, x := range xs {
				st.Named++
				if x.Answer {
					st.NamedAnswers++
				}
			}
		}
		st.RankGroups = len(rgroups)
		st.RankLoss = trainRanker(p.Ranker, rgroups, o.AnchorEpochs, o.AnchorLR, o.Train.Seed)
		logf(o.Log, "plan ranker: %d questions, final loss %.4f\n", st.RankGroups, st.RankLoss)
	}
	task, gs := subset(func(int) bool { return true })
	task.g, task.more = p.Gate, p.More
	st.AnchorLoss = trainAnchorScorer(p.Anchor, gs, o.AnchorEpochs, o.AnchorLR, o.Train.Seed)
	logf(o.Log, "anchor scorer: %d groups, %d epochs, final loss %.4f\n", len(gs), o.AnchorEpochs, st.AnchorLoss)
	if !o.NoFit {
		if err := trainFit(ws, p, qs, o, &st); err != nil {
			return nil, nil, st, err
		}
	}
	// Checkpoints are selected by the validation MRR of the plans
	// executed (plan-exec): what the planner is for. Mined plans are
	// labels with ties and alternatives (a restricted 1-hop plan and an
	// intersection may both fit), so exact plan accuracy is only reported.
	var pe infer.Method = baseline.NewPlanExec(ws)
	if text, err := chooseText(ctx, ws, o.TextDense, o.ValSplit, p.Classifier, o.Log); err != nil {
		return nil, nil, st, err
	} else if text != nil {
		pe = pe.(infer.TextFallback).WithText(text)
	}
	metric := o.ValSplit + "/mrr"
	eval := func(ctx context.Context) (map[string]float64, error) {
		return SplitMetrics(ctx, ws, &planner.PlannedMethod{P: p, M: pe}, o.ValSplit)
	}
	if a := p.Cfg.Anchors; a.JoinSingles || a.SlotsPastRuled {
		metric, eval = proposedEval(p, o.ValSplit, eval)
	}
	if f := p.Cfg.Anchors.Fit; f != nil && o.Run.Resume && o.Run.RunDir != "" {
		if f.Rescue, err = storedRescue(o.Run.RunDir); err != nil {
			return nil, nil, st, err
		}
	}
	vqs, err := ws.SKB.QA.Split(o.ValSplit)
	if err != nil {
		return nil, nil, st, err
	}
	// Validation MRR is flat for most epochs on real SKBs, and a later
	// epoch that beats an earlier one by less than one question has fitted
	// the training frames longer: WordNet's twelfth epoch beat its fifth
	// by 0.0006 and answered 123 fewer development questions
	// (docs/robustness.md, stop 121).
	tcfg := o.Train
	if !o.ExactBest && tcfg.Tolerance == 0 && len(vqs) > 0 {
		tcfg.Tolerance = 1 / float64(len(vqs))
	}
	res, err := fitBest(ctx, PlannerModel{P: p}, task, tcfg, o.Run, metric, eval)
	if err != nil {
		return nil, nil, st, err
	}
	if f := p.Cfg.Anchors.Fit; f != nil && o.FitRescue && len(st.fitHeld) > 0 {
		if err := fitRescue(ctx, p, st.fitHeld, o.Run.RunDir, &st); err != nil {
			return nil, nil, st, err
		}
	}
	if st.PlanAcc, st.Val, err = LinkedPlanAccuracy(p, o.Mined, vqs); err != nil {
		return nil, nil, st, err
	}
	return p, res, st, nil
}

// LinkedPlanAccuracy is the share of queries whose predicted plan has the
// mined plan's relation structure and anchors every path at the mined
// anchor node (queries without a mined plan are skipped).
func LinkedPlanAccuracy(p *planner.LinkingPlanner, mined map[int]data.MinedPlanRecord, qs []data.Query) (float64, int, error) {
	right, n := 0, 0
	for _, q := range qs {
		rec, ok := mined[q.ID]
		if !ok {
			continue
		}
		pred, err := p.Predict(context.Background(), q)
		if err != nil {
			return 0, 0, err
		}
		n++
		if pred.Template >= 0 && SamePlan(pred.Plan, rec.Plan) {
			right++
		}
	}
	if n == 0 {
		return 0, 0, nil
	}
	return float64(right) / float64(n), n, nil
}

// SamePlan reports whether got has want's relation structure and each of
// want's anchor nodes among got's anchors.
func SamePlan(got, want data.Plan) bool {
	if mine.SkeletonKey(got) != mine.SkeletonKey(want) {
		return false
	}
	var have []uint32
	for _, a := range got.Anchors {
		have = append(have, a.Nodes...)
	}
	for _, a := range want.Anchors {
		for _, v := range a.Nodes {
			if !slices.Contains(have, v) {
				return false
			}
		}
	}
	return true
}

// answerType is the node type most answers have ("" without answers; ties
// by type id).
func answerType(ws *workspace.Workspace, answers []uint32) string {
	counts := map[data.TypeID]int{}
	best, bn := data.TypeID(0), 0
	for _, a := range answers {
		if int(a) >= len(ws.SKB.Nodes) {
			continue
		}
		t := ws.SKB.Nodes[a].Type
		counts[t]++
		if n := counts[t]; n > bn || n == bn && t < best {
			best, bn = t, n
		}
	}
	if bn == 0 {
		return ""
	}
	return ws.SKB.Schema.NodeTypes[best]
}

// chooseText picks the text channel that a planner's run answers the
// queries no plan fits with (planner.Config.Text): of BM25, BM25 fused
// with the dense channel d (bm25+dense, RRF) and the reading channel over
// d (reading: stemmed BM25 with neighbour names, fused with d, reranked by
// a type prior), the one that ranks the split's questions best (MRR; a
// later one must do strictly better), BM25 returned as nil. Questions no
// plan fits have no labels, so the split's questions, whose answers the
// text channel ranks without a plan, stand in for them. With no d it is
// BM25 (--text bm25).
func chooseText(ctx context.Context, ws *workspace.Workspace, d *infer.DenseChannel, split string, c *planner.Classifier, log io.Writer) (infer.Method, error) {
	if d == nil {
		return nil, nil
	}
	key := split + "/mrr"
	cands := []infer.Method{baseline.NewBM25(ws), baseline.NewBM25DenseOf(ws, d), baseline.NewReading(ws, d)}
	scores := make([]float64, len(cands))
	best := 0
	for i, m := range cands {
		r, err := SplitMetrics(ctx, ws, m, split)
		if err != nil {
			return nil, err
		}
		scores[i] = r[key]
		if scores[i] > scores[best] {
			best = i
		}
	}
	var b strings.Builder
	for i, m := range cands {
		if i != best {
			fmt.Fprintf(&b, "; %s %.4f", m.Name(), scores[i])
		}
	}
	logf(log, "text channel for queries no plan fits: %s (%s %.4f%s)\n", cands[best].Name(), key, scores[best], b.String())
	if best == 0 {
		return nil, nil
	}
	c.Cfg.Text, c.Cfg.TextDense = cands[best].Name(), d.Meta.Hash
	return cands[best], nil
}

// proposedEval wraps eval, the served planner's metrics on split, to
// record also the MRR of the plans of the classifier's own candidates,
// without what a prediction adds to them (AnchorConfig.JoinSingles'
// intersections, SlotsPastRuled's slots), as split/mrr-proposed: the
// metric it returns, which chooses the checkpoint as it was chosen before
// the planner added them; every metric recorded and served is the
// planner's with its additions. The additions repair what a classifier
// misranks, and a choice that counted their repairs picked WordNet's
// tenth epoch over its fifth by 0.0004 of validation MRR (half a question
// of 1,200), a classifier that answered 86 fewer development questions
// (docs/robustness.md, stop 118).
func proposedEval(p *planner.LinkingPlanner, split string, eval EvalFunc) (string, EvalFunc) {
	metric := split + "/mrr-proposed"
	return metric, func(ctx context.Context) (map[string]float64, error) {
		m, err := eval(ctx)
		if err != nil {
			return nil, err
		}
		a := p.Cfg.Anchors
		join, past := a.JoinSingles, a.SlotsPastRuled
		a.JoinSingles, a.SlotsPastRuled = false, false
		own, err := eval(ctx)
		a.JoinSingles, a.SlotsPastRuled = join, past
		if err != nil {
			return nil, err
		}
		m[metric] = own[split+"/mrr"]
		return m, nil
	}
}
