package planner

import (
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"unicode"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/graphops/linking"
	"github.com/strata-retrieval/strata/graphops/workspace"
	"github.com/strata-retrieval/strata/infer"
	"github.com/strata-retrieval/strata/models"
)

// LexBuckets is the size of the planner's hashed bag of words.
const LexBuckets = 1024

// Config describes a trained planner: its metapath templates (the
// classes) and its input layout.
type Config struct {
	Templates [][]data.Path `json:"templates"`
	// SchemaSteps is how many of the last Templates are one step along a
	// relation of the schema, or two along relations whose node types
	// chain, that no training plan is: the classifier
	// scores the others only (Classified), and these come after every
	// one of them at probability 0, so a search tries them only past the
	// trained ones (0 in checkpoints saved before them).
	SchemaSteps int               `json:"schema_steps,omitempty"`
	QueryDim    int               `json:"query_dim"`
	NodeTypes   []string          `json:"node_types"`
	Gate        models.GateConfig `json:"gate"`
	// Members is how many gates of config Gate the classifier averages
	// (Classifier.Probs): each trained on the same batches from its own
	// initial weights, so that no template's rank hangs on one draw of
	// them (0 and 1: one gate, as checkpoints saved before members).
	Members int    `json:"members,omitempty"`
	Dense   string `json:"dense,omitempty"`
	// Text names the text channel that answers the queries no plan fits
	// (the text-fit gate rejects them, or their plan reaches nothing):
	// "" is BM25; "bm25+dense" fuses BM25 with the dense channel whose
	// vectors hash to TextDense, "reading" reads with it (infer/baseline's
	// Reading); training chooses the one that ranks the validation
	// questions best.
	Text      string `json:"text,omitempty"`
	TextDense string `json:"text_dense,omitempty"`
	// Bigrams adds word bigrams to the hashed bag of words.
	Bigrams bool `json:"bigrams,omitempty"`
	// Anchors, when set, makes the planner link its anchors (a planner
	// trained from mined plans): see LinkingPlanner.
	Anchors *AnchorConfig `json:"anchors,omitempty"`
}

// Classified is the number of templates the classifier scores: all but
// the SchemaSteps.
func (c *Config) Classified() int { return len(c.Templates) - c.SchemaSteps }

// AnchorConfig configures the planner's anchor linking: which mention of
// the question anchors each path of the template.
type AnchorConfig struct {
	Dim      int                   `json:"dim"`      // hashed features of the anchor scorer
	Mentions linking.MentionConfig `json:"mentions"` // the mention index (alias fields) it was trained with
	// TopTemplates and TopMentions bound the search: the templates tried
	// (most probable first, default 8) and the mentions per path (3).
	TopTemplates int `json:"top_templates,omitempty"`
	TopMentions  int `json:"top_mentions,omitempty"`
	// NoTwins: candidates are tried as proposed, never with their middle
	// nodes ranked (the ablation of ranked middle positions).
	NoTwins bool `json:"no_twins,omitempty"`
	// AttrKeys are the attribute keys learned from the training answers'
	// text (LearnAttrKeys), sorted: a restricted candidate whose reach
	// states (key, question word) for some nodes is also tried filtered
	// to them.
	AttrKeys []string `json:"attr_keys,omitempty"`
	// FrameWords are the words the training questions ask with rather
	// than restrict by (LearnFrameWords), sorted, lower case: a
	// candidate's restriction leaves them out (StripFrameWords).
	FrameWords []string `json:"frame_words,omitempty"`
	// RelWords: which question words come with which relations, for the
	// plan ranker.
	RelWords *RelWords `json:"rel_words,omitempty"`
	// Lead: answer types by lead words, for the plan ranker.
	Lead *LeadTypes `json:"lead_types,omitempty"`
	// Named: whether a question asks for a node it names, by the
	// mention's context words; ScoreCandidates moves such nodes.
	Named *NamedAnswers `json:"named,omitempty"`
	// NamedTop: the plan ranker sees whether a candidate's first node is
	// one that a mention left in its restriction names, and how probable
	// Named makes it that the question asks for such a node ("which
	// lymphatic tissue forms part of the lymphatic system" ranks the node
	// "lymphatic tissue" first when the plan leaves the type word in the
	// restriction, not when it anchors a second path on it).
	NamedTop bool `json:"named_top,omitempty"`
	// RankDim sizes the plan ranker's hashed features (0: no ranker, the
	// most probable candidate that reaches a candidate wins).
	RankDim int `json:"rank_dim,omitempty"`
	// Fit, when set, is the text-fit gate (fit.go): queries it puts below
	// its threshold get no plan.
	Fit *FitConfig `json:"fit,omitempty"`
	// Compose: the plan ranker sees which parts of each candidate's plan
	// the question's words name (compose.go).
	Compose bool `json:"compose,omitempty"`
	// Elements: which question words come with which parts of the
	// training questions' plans (PlanElements), for the plan ranker's
	// reading of the answer type a question asks for (askedType).
	Elements *RelWords `json:"elements,omitempty"`
	// DeeperSearch: when what the question names (NamedType,
	// NamedRelations) rules out every candidate, up to two more
	// templates are tried, the most probable beyond TopTemplates that
	// walk a relation for every word of the question naming relations
	// ("What person penned the films X appeared in?": written_by, in a
	// frame the classifier never saw). Off in checkpoints saved before it.
	DeeperSearch bool `json:"deeper_search,omitempty"`
	// JoinSingles: where two candidates of one-path templates anchor on
	// mentions apart from each other, the template that asks for both
	// paths' answers at once (and(A, B)), when there is one, is a
	// candidate too, however improbable the classifier finds it: "Which
	// seating area do they use in UK?", worded as no training question
	// was, put the region's and the hypernym's one-path templates among
	// its most probable but not their intersection, and the answer was a
	// seating area from anywhere. Off in checkpoints saved before it.
	JoinSingles bool `json:"join_singles,omitempty"`
	// DeeperAsked: with DeeperSearch, when the type the question names as
	// asked for rules out every candidate, the templates tried end with a
	// step the data's edges take to that type ("which type of movie are
	// all of X's screenplays": the genre every one of X's films has); the
	// templates a deeper search tries start with a step the data's edges
	// take from their anchors' types (startsFrom), and those tried for a
	// longer mention walk the relations the question names ("Who wrote
	// the script of Primal Fear?": its writers, anchored on the film, not
	// its cast). Off in checkpoints saved before it.
	DeeperAsked bool `json:"deeper_asked,omitempty"`
	// DeeperUnreached: when no candidate of the TopTemplates most
	// probable templates reaches a node (no mention of the question
	// anchors any of them: "What is X made up of?" in a frame the
	// classifier never saw, where X has parts but no kinds), up to eight
	// more templates are tried (as many as TopTemplates' default), the
	// most probable beyond them that some mention anchors: the graph
	// rules the others out. Off in checkpoints saved before it.
	DeeperUnreached bool `json:"deeper_unreached,omitempty"`
	// Addressee: "me" or "us" after a verb's base form ("Tell me which
	// ...", "give us ...") names no node: it is the request's
	// addressee, not Maine ("ME") or the United States ("US"), and a
	// training split that never says "tell me" learns no non-anchor for
	// it (addressees). Off in checkpoints saved before it.
	Addressee bool `json:"addressee,omitempty"`
	// PronounVerbs: a word in lower case right after an auxiliary and a
	// personal subject pronoun ("would you hear", "do we call", "have
	// they seen"), a verb's form the lexicon knows, is the clause's verb
	// and names no node (pronounVerbs): "Which pedlar would you hear
	// mainly in Britain?" anchors on Britain and pedlar, not on the verb
	// hear. Off in checkpoints saved before it.
	PronounVerbs bool `json:"pronoun_verbs,omitempty"`
	// PhrasalVerbs: a mention of two words, a verb and a particle or
	// preposition in lower case, outside quotations, is the clause's own
	// verb and names no node where the verb is in its -s form ("turns
	// up", "falls under": a name of a verb is its base form) or opens
	// the question ("Go down two levels from X; what is there?",
	// an imperative); phrasalVerbs. "Dismantle X: what geological
	// formation turns up?" anchored on the verb "turn up", which WordNet
	// names, not on X. Off in checkpoints saved before it.
	PhrasalVerbs bool `json:"phrasal_verbs,omitempty"`
	// FiniteVerbs: a mention of one word in lower case, outside
	// quotations, is its clause's finite verb and names no node where it
	// is a verb's -s form and no noun's plural ("Go two generations down
	// from X; what sits there?") or a verb's base form right after a
	// plural noun, its subject ("Which nouns sit two hyponym links under
	// X?"); finiteVerb. Both anchored on WordNet's verb "sit". Off in
	// checkpoints saved before it.
	FiniteVerbs bool `json:"finite_verbs,omitempty"`
	// WhSubjects: with FiniteVerbs, a mention of one word in lower case,
	// outside quotations, names no node where it is a verb's -s form
	// right after "what" or "who", its subject, and closes its clause
	// ("Hyponyms, and then hyponyms again, starting at X: what
	// results?", anchored on WordNet's noun "result"): a noun in that
	// place would leave its clause without a verb (whSubjectVerb). Off
	// in checkpoints saved before it.
	WhSubjects bool `json:"wh_subjects,omitempty"`
	// WhPrepositions: with WhSubjects, such a verb followed by a
	// preposition of place or order (placePrepositions) names no node
	// either ("What falls under X and is defined as ...?" anchored on
	// WordNet's falls, waterfalls; whSubjectVerb). Off in checkpoints
	// saved before it.
	WhPrepositions bool `json:"wh_prepositions,omitempty"`
	// MarkedMentions: a mention whose words span a mark that ends a
	// clause or a quotation's edge (; : ? ! and double quotes) names no
	// node unless the node's name holds the mark too ("Each kind of X has
	// parts; name them." anchored on WordNet's "part name";
	// markedMention). Off in checkpoints saved before it.
	MarkedMentions bool `json:"marked_mentions,omitempty"`
	// PersonPronouns: a mention that is an indefinite pronoun for people
	// (personPronouns: "someone", "anybody" ...), in lower case or
	// opening the question, names no node unless it follows a preposition
	// ("a kind of someone") or a quotation is made of it alone ("I heard someone say \"daze\" for a confusedness"
	// anchored on WordNet's "someone", a person; personPronoun). Off in
	// checkpoints saved before it.
	PersonPronouns bool `json:"person_pronouns,omitempty"`
	// PersonalPronouns: a mention that is a personal or possessive
	// pronoun written in lower case (personalPronouns: "them", "her",
	// "it" ...) names no node unless a quotation is made of it alone:
	// movies-skb's films Them!, Her and They are named so, and "their
	// directors, all of them?" anchored on Them! (personalPronoun). Off in
	// checkpoints saved before it.
	PersonalPronouns bool `json:"personal_pronouns,omitempty"`
	// Appositive: a mention after "the" and a word of NonAnchorAfter
	// ("near-synonyms of the adjective fruitful") may anchor all the same:
	// the word names the mention's kind, an appositive (appositive). Off
	// in checkpoints saved before it.
	Appositive bool `json:"appositive,omitempty"`
	// InnerAnchors: a candidate anchored on a mention inside a longer
	// one that could take its place ("golf" in "golf stroke", which has
	// kinds too) is ruled out when another is not (anchoredInside); set
	// when at most 5% of the training questions' anchors were such
	// mentions (InnerAnchorsFrom). Off in checkpoints saved before it.
	InnerAnchors bool `json:"inner_anchors,omitempty"`
	// LongerAnchors: a candidate anchored on a mention inside a longer one
	// is ruled out when another, anchored on the longer one and ruled out
	// by nothing more, reaches a node, whatever its template ("helmet" in
	// "crash helmet includes which more specific things?", where the
	// plan of the helmet's parts reaches some); set with InnerAnchors.
	// Off in checkpoints saved before it.
	LongerAnchors bool `json:"longer_anchors,omitempty"`
	// NonAnchors: mention texts the training questions never anchored
	// (LearnNonAnchors), sorted; a candidate anchored on one is ruled out
	// when another is not. Empty in checkpoints saved before them.
	NonAnchors []string `json:"non_anchors,omitempty"`
	// NonAnchorNorms: NonAnchors holds mention texts in their singular
	// forms ("term" rules out "terms" too), counted where the training
	// questions left them unquoted, and rules out unquoted mentions only
	// (LearnNonAnchors). Off in checkpoints saved before it.
	NonAnchorNorms bool `json:"non_anchor_norms,omitempty"`
	// QuotedSlots are the template paths (template, path) whose anchor the
	// training questions quoted (at least 5 of them, all but at most 2%:
	// WordNet's near-synonyms of 'X'); a candidate anchoring one on an
	// unquoted mention ("used" in "What vocabulary is used in X?") is
	// ruled out when another is not (LearnQuotedSlots). Empty in
	// checkpoints saved before them.
	QuotedSlots [][2]int `json:"quoted_slots,omitempty"`
	// QuotedSlotsYield: an unquoted slot rules a candidate out less than
	// an answer word or relation word it misses (unquotedWeight): the
	// training's quotes are its authors' habit, the words the question's
	// meaning ("Find me a close synonym of metal whose gloss uses the word
	// bronze.": every near-synonym plan anchors a quoted slot unquoted,
	// and the plans that miss "synonym" won). Nor does an unquoted slot
	// alone make the planner decline (DeclineRuledOut counts words a plan
	// misses). Off in checkpoints saved before it.
	QuotedSlotsYield bool `json:"quoted_slots_yield,omitempty"`
	// QuotedRival: an unquoted mention anchoring a quoted slot rules a
	// candidate out only where the question quotes another mention that
	// may anchor the slot (quotedRival): the training's quotes are its
	// authors' habit, and a question that quotes no word the slot may take
	// ("what's a word that means roughly haired and has stiff in its
	// definition?") does not share it. Off in checkpoints saved before it.
	QuotedRival bool `json:"quoted_rival,omitempty"`
	// NonAnchorForms are the forms a question may write a mention in
	// (FormLeadVerb: "Tell me what ...") that at least 5 training
	// questions wrote one in, at most 2% of them anchoring on it
	// (LearnNonAnchorForms); a candidate anchored on a mention in one is
	// ruled out when another is not. Empty in checkpoints saved before
	// them.
	NonAnchorForms []string `json:"non_anchor_forms,omitempty"`
	// ReadMentions: with Lexicon, a word no training question used that
	// names a node of its own (on WordNet nearly every word does) is read
	// as its known word all the same when that word names a relation of
	// the schema and no type ("pieces": parts, "examples": instance), the
	// word before it is not one after which the training's mentions
	// mostly anchored (AnchorAfter: "part of penis" stays), and another
	// mention the question may anchor on is left (readInMention). Off in
	// checkpoints saved before it.
	ReadMentions bool `json:"read_mentions,omitempty"`
	// AnchorAfter are the words (lower case, sorted) after which at least
	// 5 training questions had a mention, half or more of them anchoring
	// on it ("of" in "a part of X"; LearnAnchorAfter).
	AnchorAfter []string `json:"anchor_after,omitempty"`
	// ReadRelations: with NamedRelations and Lexicon, a noun the lexicon
	// read an unseen word as, which names a relation with the schema's own
	// words and which fewer than 5 training questions used, names that
	// relation ("examples" read as "instance": instance hypernym;
	// namedRelations). Off in checkpoints saved before it.
	ReadRelations bool `json:"read_relations,omitempty"`
	// DerivedFirstSense: with Lexicon, an unseen word is read as a known
	// word it is derivationally related to only through the known word's
	// most frequent sense (lexicon.Derived): "work", whose doer is a
	// worker, is not read "actors" ({actor, doer, worker} is actor's
	// second sense), and "Among X's directing work, which titles ..."
	// asks for films. Off in checkpoints saved before it
	// (lexicon.Matcher.AnySenseDerived).
	DerivedFirstSense bool `json:"derived_first_sense,omitempty"`
	// FormSenses: with Lexicon, an unseen word is read through the senses
	// of the parts of speech it is a form of each base in: "narrower", an
	// adjective's comparative, through narrow's adjective senses, not the
	// verb's ("make narrower", a kind of change, read "a narrower form of
	// X" as "a change form of X"). Off in checkpoints saved before it
	// (lexicon.Matcher.FormSenses).
	FormSenses bool `json:"form_senses,omitempty"`
	// NonAnchorAfter are the words (lower case, sorted) after which at
	// least 5 training questions had a mention, at most 2% of them
	// anchoring on it ("which" in "Which things ..."; LearnNonAnchorAfter);
	// a candidate anchored on an unquoted mention after one is ruled out
	// when another is not. Empty in checkpoints saved before them.
	NonAnchorAfter []string `json:"non_anchor_after,omitempty"`
	// ClosedFollowers are, for each word of NonAnchorAfter whose
	// followers in the training were closed (fewer than 5 seen in one
	// question alone), the first words of the mentions it stood before
	// (LearnClosedFollowers); a mention after such a word is ruled out
	// only where its first word is one of them or related to one in the
	// lexicon (closedFollows): "A more specific swayer, meaning ..."
	// anchors on swayer, though "specific" stood only before "kind",
	// "type", "way" and "manner". Empty in checkpoints saved before it,
	// where a mention after any of NonAnchorAfter was ruled out.
	ClosedFollowers map[string][]string `json:"closed_followers,omitempty"`
	// NumberNonAnchorAfter are the further words after which at least 5
	// training questions had a number ("from" in "movies from 1990"), at
	// most 2% of them anchoring on it; a candidate anchored on a number
	// after one is ruled out when another is not, a name after one ("films
	// from Ridley Scott") is not. Where it is set, NonAnchorAfter was
	// learned from the mentions other than numbers
	// (LearnNonAnchorAfterForms). Empty in checkpoints saved before it,
	// whose NonAnchorAfter counted every mention.
	NumberNonAnchorAfter []string `json:"number_non_anchor_after,omitempty"`
	// Titles: planning reads a noun in the singular with no determiner
	// between a preposition or an auxiliary verb and a mention, the
	// name's title, as a verb of the one relation it names ("movies by
	// director X" as "movies by directed X": X directed them, and the
	// question asks for no directors), and leaves it unread where it
	// names none or another word names another relation ("Which films did
	// writer X direct?"). Off in checkpoints saved before it.
	Titles bool `json:"titles,omitempty"`
	// OpeningTitles: with Titles, such a noun opening the text right
	// before a mention is a title too: "Director X: any comedy titles?"
	// asks for X's films, not for directors. Off in checkpoints saved
	// before it.
	OpeningTitles bool `json:"opening_titles,omitempty"`
	// PossessiveNests: with RepeatTwice, a word said before "of" and
	// again after a possessor nests as "W of the W of X" does: "Which
	// words are hyponyms of X's hyponyms?" asks two steps down
	// (nestsPossessive). Off in checkpoints saved before it.
	PossessiveNests bool `json:"possessive_nests,omitempty"`
	// PossessiveChains: with RepeatTwice, a word said right after
	// itself as a possessor nests too: "the terms whose hypernym's
	// hypernym is X", "X's hyponyms' hyponyms" (possessiveChain). Off in
	// checkpoints saved before it.
	PossessiveChains bool `json:"possessive_chains,omitempty"`
	// RelativeChains: with RepeatTwice, a word said right before
	// "whose" and again right after it (past "own") nests as a
	// possessive chain does: "Which synsets have a hypernym whose own
	// hypernym is X?" asks two steps down, as "whose hypernym's hypernym
	// is X" does (relativeChain). Off in checkpoints saved before it.
	RelativeChains bool `json:"relative_chains,omitempty"`
	// Auxiliaries: a one-word mention that is a form of "do" after a
	// question word of its clause and before a word, the auxiliary of
	// the question's inversion, is ruled out as an anchor as a mention in
	// one of NonAnchorForms is (questionAuxiliary): "What do you get two
	// rungs down from X?" anchored "do" (a syllable on WordNet). Off in
	// checkpoints saved before it.
	Auxiliaries bool `json:"auxiliaries,omitempty"`
	// PairedUnexplained: with PairedAnchors, the other anchor of the
	// pair may be that of a one-anchor candidate ruled out only for the
	// mentions it leaves unexplained, the ranker's choice's among them
	// (pairedSearch): "What sandwich do people in United Kingdom have a
	// word for?" chose the words of the region, and the kinds of sandwich,
	// leaving United Kingdom unexplained, paired with nothing. Off in
	// checkpoints saved before it.
	PairedUnexplained bool `json:"paired_unexplained,omitempty"`
	// RelativeThat: "that" or "which" right after a noun opens a
	// relative clause, and is no determiner: the word after it, a noun or
	// a verb's form, is the clause's verb ("films that cast X"; not "Find
	// that cast", nor "In which cast ..."; determinedNoun). Off in
	// checkpoints saved before it.
	RelativeThat bool `json:"relative_that,omitempty"`
	// FrontedRoles: with FrontedClause, a phrase fronted before a comma
	// that opens with "as" and a determiner and names a type, loosely
	// too ("As a director, what is the only genre X has worked in?"),
	// states the capacity the question's subject acts in, and the clause
	// after the comma asks (capacityPhrase). Off in checkpoints saved
	// before it.
	FrontedRoles bool `json:"fronted_roles,omitempty"`
	// OfHeads: a pronoun closing an asking clause refers back to a noun
	// phrase's head: where the last type-naming word before it follows
	// "of" and the word before "of" names a type too, that word ("X
	// writes just one genre of film. What is it?" asks for the genre;
	// clauseType). Off in checkpoints saved before it.
	OfHeads bool `json:"of_heads,omitempty"`
	// RequestClauses: a request opening a clause after a comma asks
	// whatever the phrase before it names ("For X's 2000 directing work,
	// list the cast members."), and a request's verb past a coordinating
	// "and" and its speaker opens the asking clause ("In 2000, X made some
	// films as director, and I'd like the full casts of those."; requestAt).
	// Off in checkpoints saved before it.
	RequestClauses bool `json:"request_clauses,omitempty"`
	// ClauseAnswerWords: where no answer word comes before a candidate's
	// first anchor, the nouns opening an asking clause after it are read
	// as the question's lead ("For X's films as director, list the cast
	// members.": "cast", the cast's step; clauseNouns). Off in
	// checkpoints saved before it.
	ClauseAnswerWords bool `json:"clause_answer_words,omitempty"`
	// SaidTwice: with RepeatTwice, a word said twice anywhere outside
	// the candidate's anchors and quotations, not a stop word, nests as
	// one said twice before "of" does (saidTwice): "What is below the
	// things directly below X?", "Take each of X's direct hyponyms and
	// give me their hyponyms." Off in checkpoints saved before it.
	SaidTwice bool `json:"said_twice,omitempty"`
	// SaidVerbs: with SaidTwice, a word one of whose occurrences has an
	// object pronoun right after it is a verb there and nests nothing:
	// "A stronghold carries the usage note archaism. Which stronghold
	// carries it?" (saidTwice). Off in checkpoints saved before it.
	SaidVerbs bool `json:"said_verbs,omitempty"`
	// DirectionNests: with SaidTwice, a preposition of place (directions)
	// before a noun's plural and "of", past determiners, nests as a word
	// said twice does (directionNest: "What lies beneath the hyponyms of
	// X?" asks for what is below them, two steps down). Off in checkpoints
	// saved before it.
	DirectionNests bool `json:"direction_nests,omitempty"`
	// DirectionModifiers: with DirectionNests, adjectives that are no
	// nouns may come between the preposition's determiner and the plural
	// ("What lies below the direct subcategories of X?", "Beneath the
	// direct hyponyms of X, ..."). Off in checkpoints saved before it.
	DirectionModifiers bool `json:"direction_modifiers,omitempty"`
	// PoliteWords: a question's words of courtesy ("please", "kindly")
	// are left out where they stand as such, set off by a comma, closing
	// it or before a request's verb (withoutPolite): "Cast lists, please,
	// for whatever X directed in 2000." is read "Cast lists for ...",
	// whose opening nouns ask for the cast; "Could you please name the
	// screenwriters of ..." as "Could you name ...", whose request names
	// its object's type. Off in checkpoints saved before it.
	PoliteWords bool `json:"polite_words,omitempty"`
	// StatedNames: a strong mention no anchor of a candidate explains
	// stays unexplained though the candidate reaches its node
	// (unexplainedSpans): a question does not ask for what it states
	// ("Sometime, X was the director and Y had a part. Tell me where." is
	// not answered by the directors of Y's films, X among them). Set by
	// the training where its questions bear it out (LearnStatedNames: no
	// training question's answers hold a node a mention of it names
	// outside its anchors; WordNet's do, "Which sense of the word 'digit'
	// is a kind of integer?"). Off in checkpoints saved before it.
	StatedNames bool `json:"stated_names,omitempty"`
	// PrefixTwice: with RepeatTwice, a prefix hyphened to a plural that
	// opens with it again ("sub-subcategories of X") nests as a word said
	// twice does (prefixTwice). Off in checkpoints saved before it.
	PrefixTwice bool `json:"prefix_twice,omitempty"`
	// TheirsTwice: with RepeatTwice, "theirs" after a noun's plural that
	// a possessive determiner owns stands for that noun said again,
	// theirs the plural's own (theirsTwice: "X, then its subtypes, then
	// theirs" asks for the subtypes' subtypes) and nests as a word said
	// twice does. Off in checkpoints saved before it.
	TheirsTwice bool `json:"theirs_twice,omitempty"`
	// WhSlotsFirst: a type named (by the schema's word or the lexicon)
	// right after an asking word that is "which", "what" or "whose" is the
	// type asked for before any other asking word's slot
	// (askedTypeOf): "Each picture X directed is a film of which genre?"
	// asks for a genre, though "is" asked in the training. Off in
	// checkpoints saved before it.
	WhSlotsFirst bool `json:"wh_slots_first,omitempty"`
	// AskingClause: a question whose last clause asks, after clauses
	// that state and ask nothing, asks for the type that clause names
	// (askingClause, clauseType): "X directs films of only one genre.
	// Name that genre." asks for a genre, "X directed some films; who
	// filled the acting roles in them?" for people. Off in checkpoints
	// saved before it.
	AskingClause bool `json:"asking_clause,omitempty"`
	// FrontedClause: with AskingClause, where no clause after a
	// sentence's mark, a semicolon or a colon asks, the first clause after
	// a comma that asks after a phrase that states is the asking clause
	// (askingClause): "For films whose scripts came from X, list the cast
	// members." asks for people, not for the films the phrase fronts. A
	// question word right after a noun or a preposition in the phrase
	// ("films whose", "films of which") opens a relative clause and asks
	// nothing. Off in checkpoints saved
	// before it.
	FrontedClause bool `json:"fronted_clause,omitempty"`
	// ClauseSlots: an asking clause's type word (clauseType) is read as
	// an asking word's slot is: a type a training lift names counts
	// (wordType's Elements), not the schema's word or the lexicon's alone
	// ("X wrote some films; list the actors." asks for people, though
	// "actors" names person through the training questions only: read
	// as a whole, such a word is the ranker's to weigh, and after clauses
	// that state the ranker weighs their words as well), and with
	// CompoundHeads a compound's head names it where its first word names
	// none ("list the cast members": members, people). Off in checkpoints
	// saved before it.
	ClauseSlots bool `json:"clause_slots,omitempty"`
	// SlotHeads: the slot of "which", "what" or "whose" is its noun
	// (askedTypeOf, where candidates are ruled out): past "of" and the
	// determiners after it ("Which of the 2000 releases count X as a cast
	// member?" asks for films as "Which 2000 releases ..." does) and past
	// words that may be adjectives and name no type ("which new
	// releases"). An asking word learned from the training that is a noun
	// ("genre of all their films") keeps its slot. The plan ranker's
	// features read as before. Off in checkpoints saved before it.
	SlotHeads bool `json:"slot_heads,omitempty"`
	// HyphenedLeads: a question's first word joined by a hyphen to the
	// next is a compound's modifier, no request's verb (verbType):
	// "Second-generation hyponyms of X, please." asks for no generation
	// ("second" is a verb in the lexicon). Off in checkpoints saved
	// before it.
	HyphenedLeads bool `json:"hyphened_leads,omitempty"`
	// RequestTitles: with Titles, such a noun right after a question's
	// first word that is a verb's base form (a request: "Name director X's
	// features in the comedy genre.") is a title too: the request asks
	// for X's films, not for directors. Off in checkpoints saved before
	// it.
	RequestTitles bool `json:"request_titles,omitempty"`
	// MarkTitles: with Titles, such a noun opening a phrase after a mark
	// (a comma, colon, semicolon, dash, bracket or a sentence's end) is a
	// title too: "Japanese language films, director X" asks for X's
	// films, not for directors, as "films by director X" does. Off in
	// checkpoints saved before it.
	MarkTitles bool `json:"mark_titles,omitempty"`
	// HeldSlots: where one of a candidate's anchors fills the slot of an
	// asking determiner (which, what, whose) and ends its clause ("Someone
	// working in baseball would use which piece of ground?"), no other
	// word names the type asked for (namedAsked): the anchor is what the
	// slot names, and "Someone", opening the question, asked for no
	// person. Off in checkpoints saved before it.
	HeldSlots bool `json:"held_slots,omitempty"`
	// DeterminedValues: a word that may be a noun or a verb is a noun
	// after a determiner past values too ("Give the 1998 cast of anything
	// directed by X": "cast" names the answer word's step as in "the cast
	// of", not the verb; answerMisses). Off in checkpoints saved before
	// it.
	DeterminedValues bool `json:"determined_values,omitempty"`
	// PersonObjects: with LeadVerbAsks, a request whose object is an
	// indefinite pronoun for people ("Give me everyone cast in a film X
	// was the writer of.", "Name someone who ...") asks for what "who"
	// asked for opening the training questions (whWordType), a type named
	// (verbType). Off in checkpoints saved before it.
	PersonObjects bool `json:"person_objects,omitempty"`
	// PersonOpenings: with PersonObjects, "everyone" or "everybody"
	// opening the text heads a search box's noun phrase and asks for what
	// "who" asked for (personOpening): "everyone cast in X-directed films"
	// asks for people, not for the films. Off in checkpoints saved before
	// it.
	PersonOpenings bool `json:"person_openings,omitempty"`
	// PersonSlots: with PersonObjects, an indefinite pronoun for people
	// as the object of a request's verb that is an asking word, its slot
	// ("List everyone cast in ...", "X made a film in 1998 as director;
	// list everyone acting in it.") asks for what "who" asked for opening
	// the training questions (personSlotType), as it does after a verb
	// that asks nothing itself; after a question word it asks nothing
	// ("What has everyone ..."). Off in checkpoints saved before it.
	PersonSlots bool `json:"person_slots,omitempty"`
	// SlotKinds: with KindTypes and NounSlots, a word read as another
	// (Lexicon) in a noun slot keeps the type its noun sense names as a
	// kind (kindType in a slot), though it is a verb's form too: "Which
	// authors supplied scripts to the movies with X?" is read "Which
	// written ...", and still asks for people ("to author" is a verb, so
	// no kind was kept and the films answered). Off in checkpoints saved
	// before it.
	SlotKinds bool `json:"slot_kinds,omitempty"`
	// NamedSteps: a candidate that walks every relation another one
	// anchored on the same mentions walks, and more, gives way to it where
	// no word of the question names a relation of that more
	// (unnamedExtra): "the title of whatever X directed" asks for X's
	// films, not their cast. Off in checkpoints saved before it.
	NamedSteps bool `json:"named_steps,omitempty"`
	// StemRelations: with InflectedRelations, a noun no training question
	// used names what the verb it is formed from names, through the
	// verb's forms the training used (lexicon.StemVerbs, inflections):
	// "Whose direction did X work under?" names directing, as "directed"
	// does. Off in checkpoints saved before it.
	StemRelations bool `json:"stem_relations,omitempty"`
	// KindWords: with KindTypes, a word the question was read with as a
	// kind of a type (readSpan.kind) names that type wherever the first
	// word naming a type is read as the one asked for (askedTypeOf), not
	// only in an asking word's slot: "Screenwriters behind X's movies?"
	// asks for people. Off in checkpoints saved before it.
	KindWords bool `json:"kind_words,omitempty"`
	// AskingMentions: with TypeAfterMention, a mention that is an asking
	// determiner alone ("what", the film What?) leaves the type word
	// after it to say what the question asks for (typeAfterMentions):
	// "X played a part in what film?" asks for a film. Off in checkpoints
	// saved before it.
	AskingMentions bool `json:"asking_mentions,omitempty"`
	// PossessorWh: with WhAsks, "whose" opening a question or an asking
	// clause after a colon, a semicolon or a sentence's end asks for what
	// "who" asked for opening the training questions, where they opened
	// too few with "whose" to say (possessorType). Off in checkpoints
	// saved before it.
	PossessorWh bool `json:"possessor_wh,omitempty"`
	// ObjectWh: with WhAsks, a question word in another case than the
	// subject's ("whom") opening a question asks for what its subject
	// form ("who") asked for opening the training questions, where they
	// opened too few with it to say (objectFormType): "Whom has X put in
	// front of the camera?" asks for people, not X's films. Off in
	// checkpoints saved before it.
	ObjectWh bool `json:"object_wh,omitempty"`
	// WhVerbSlots: with KindTypes, the word after an asking word that is
	// a question word determining no noun ("who", "whom", "where",
	// "when", "why", "how") is read as no kind of a type (kindType), nor
	// as a compound's first noun (compoundHead): it is the question's
	// verb ("Who shows up on screen when X is directing?" asks for no
	// show, a kind of film). The schema's word and a training lift still
	// name a type there. Off in checkpoints saved before it.
	WhVerbSlots bool `json:"wh_verb_slots,omitempty"`
	// FormSlots: a template slot whose TopMentions best mentions are all
	// ones the question's form rules out as anchors (a text the training
	// never anchored, a non-anchor form, right after a non-anchor word)
	// also tries the best mention it does not (candidates): "Go two
	// levels down from X in the taxonomy" tries X. Off in checkpoints
	// saved before it.
	FormSlots bool `json:"form_slots,omitempty"`
	// SlotsPastRuled: with FormSlots, a mention the question's form rules
	// out takes no place among a slot's TopMentions: a slot tries its
	// TopMentions best mentions the form leaves open, and the ruled-out
	// ones that score above them ("Moving down from sarcoma through the
	// kind-of links twice" gave the slots of the two-level template to
	// "down", "links" and the ruled-out "kind", and never tried sarcoma).
	// A prediction's candidates only: the plan ranker learns from the
	// classifier's own (Candidates). Off in checkpoints saved before it.
	SlotsPastRuled bool `json:"slots_past_ruled,omitempty"`
	// MarkedFollowers: a mention a mark sets apart from the word before
	// it (a colon, a comma, a dash: phraseMark) is not ruled out as an
	// anchor by that word (NonAnchorAfter, afterNonAnchor): "Broader
	// term: X. Word?" may anchor on X. Off in checkpoints saved before it.
	MarkedFollowers bool `json:"marked_followers,omitempty"`
	// TitleObjects: with LeadVerbAsks, a first word followed by a bare
	// singular noun and then a name is no request's verb: the noun is the
	// name's title ("Cast member X; release year 2000; titles wanted."
	// asks for no member; verbType). Off in checkpoints saved before it.
	TitleObjects bool `json:"title_objects,omitempty"`
	// PrepositionOpenings: with AskingClause, a first word followed by a
	// preposition opens no request in the clauses that state before an
	// asking one (asksAfter), as it opens none for verbType (NounHeads):
	// "Back in 1998, X directed a film. Who starred in it?" asks in its
	// last clause, "Back" being no request's verb. Off in checkpoints
	// saved before it.
	PrepositionOpenings bool `json:"preposition_openings,omitempty"`
	// TitlePrepositions: with Titles, a bare singular noun before a name
	// is the name's title after the 28 English prepositions of
	// titlePrepositions too, not only after the nine commonest: "the
	// collaboration between director X and writer Y" names no directors
	// asked for (wordResolver.title). Off in checkpoints saved before it.
	TitlePrepositions bool `json:"title_prepositions,omitempty"`
	// WhoseRelatives: with AnswerWords, an answer word right after a
	// "whose" that opens a relative clause (relativeWhose) says what the
	// clause's antecedent has, not what the question asks for, and is
	// passed over (answerStep): "Features from 2000 whose cast includes
	// X" asks for films, not for a cast. Off in checkpoints saved before
	// it.
	WhoseRelatives bool `json:"whose_relatives,omitempty"`
	// BackPastTypeWords: with AskingClause and TypeAfterMention, a
	// pronoun closing the asking clause refers back past a type word
	// right after a mention of a node of that type, which says what the
	// mention is (typeAfterMentions): "Productions of the drama kind with
	// X on screen: list them." refers to no genre (namedAsked). Off in
	// checkpoints saved before it.
	BackPastTypeWords bool `json:"back_past_type_words,omitempty"`
	// ImperativeOpenings: with OpeningNoun, a first word that is a verb
	// in the lexicon and is followed by a determiner is a request's verb,
	// not a noun naming what is asked for (imperativeOpening): "Break
	// every type of X into parts: what parts come up?" asks for no
	// break, a kind of event (openingType). Off in checkpoints saved
	// before it.
	ImperativeOpenings bool `json:"imperative_openings,omitempty"`
	// MarkedSlots: with NounSlots, a word after "which", "what" or
	// "whose" is read through its noun senses alone also where a noun
	// comes before the asking word with a mark between (a comma, a
	// semicolon, a colon, ...): the asking word opens a clause then, not
	// a relative clause on that noun. "X's directorial output; which label
	// is it?" was read "which directed is it?" (wordResolver.nounSlot).
	// Off in checkpoints saved before it.
	MarkedSlots bool `json:"marked_slots,omitempty"`
	// CompoundSlots: with NounSlots, a word the resolver would read as a
	// known word, right after a singular noun read in a noun slot and
	// itself a singular noun as written, is read through its noun senses
	// alone: the head of a compound, where a verb would take its -s form.
	// "Pick the genre label for X's writing work" was read "the genre
	// directed for ..." (wordResolver.compoundHead). Off in checkpoints
	// saved before it.
	CompoundSlots bool `json:"compound_slots,omitempty"`
	// PrepositionSlots: with NounSlots, a word right after a preposition
	// ("by", "of", "in", ...: prepositions) is read through its noun
	// senses alone: a verb's base form never stands there. "Sort by type
	// the pictures that cast X" was read "... by wrote the movies ..."
	// (type, to write with a typewriter; wordResolver.nounSlot). Off in
	// checkpoints saved before it.
	PrepositionSlots bool `json:"preposition_slots,omitempty"`
	// SpeakerVerbs: with Lexicon, a verb whose subject is the question's
	// speaker or addressee ("I'm looking for the films X directed", "Do
	// you know ...", "Looking for movies ...") is left unread
	// (wordResolver.speakerVerb): it says how the question is put, not
	// what the graph holds. Off in checkpoints saved before it.
	SpeakerVerbs bool `json:"speaker_verbs,omitempty"`
	// OpeningAdverbs: with SpeakerVerbs, a present participle opening the
	// question is the speaker's also where adverbs (words the lexicon has
	// as neither a noun nor a verb's form, at most two) stand before its
	// preposition: "Looking only at films in Spanish, which did X
	// direct?" read "Looking" as "Appeared" (speakerVerb). Off in
	// checkpoints saved before it.
	OpeningAdverbs bool `json:"opening_adverbs,omitempty"`
	// NounClauses: with AskingClause, a last clause that is a noun phrase
	// put as a question, a possessive or demonstrative and nouns ending
	// with "?", asks as a request would (nounQuestion): "X penned a
	// number of films; their casts, please?" read "films" as the type
	// asked for and answered X's films. Off in checkpoints saved before
	// it.
	NounClauses bool `json:"noun_clauses,omitempty"`
	// ColonNouns: with NounClauses, such a noun phrase after a colon
	// closing the text asks without a "?" too (a search box's "X 2008
	// films: the directors" asks for the directors, not X's films). Off
	// in checkpoints saved before it.
	ColonNouns bool `json:"colon_nouns,omitempty"`
	// NamingClauses: with NounClauses, such a noun phrase as the subject
	// of a naming verb's passive asks too (nounQuestion: "Writer X,
	// director Y: the movie is called?" asks for the movie, where the
	// planner walked to people). Off in checkpoints saved before it.
	NamingClauses bool `json:"naming_clauses,omitempty"`
	// QuantifierTails: with NounClauses, such a noun phrase asks with a
	// quantifier set apart by a comma closing it too (quantifierTail:
	// "Pictures with X acting: their directors, all of them?" asks for
	// the directors). Off in checkpoints saved before it.
	QuantifierTails bool `json:"quantifier_tails,omitempty"`
	// ClauseCompounds: with ClauseSlots and CompoundHeads, the head of a
	// compound in an asking clause's slot names the type asked for where
	// the slot's word names one too, as in the question's own slot
	// ("Stories by X: which film categories do they fall under?" asks
	// for genres, where the planner walked to X's films; clauseType). Off
	// in checkpoints saved before it.
	ClauseCompounds bool `json:"clause_compounds,omitempty"`
	// StatedLeads: where a question's last sentence asks ("?") and its
	// first anchor stands in a sentence before it that states (closed by
	// a full stop or "!"), the nouns before that anchor say what the
	// anchor is, not what is asked, and name no answer word's step
	// (statedLead): "My two favourite actors are X and Y. Did a film ever
	// feature the pair of them?" asks for no actors. Off in checkpoints
	// saved before it.
	StatedLeads bool `json:"stated_leads,omitempty"`
	// ElidedQuestions: with ClosingWh, a question word standing alone
	// as the last clause ("X's screenplays all share a category;
	// which?") asks for what the head of the last indefinite noun phrase
	// before it names ("which category?"), where the question word asks
	// for no one type itself (elidedType). Off in checkpoints saved
	// before it.
	ElidedQuestions bool `json:"elided_questions,omitempty"`
	// BackPastRoles: with AskingClause, a pronoun closing the asking
	// clause refers back past a capacity stated with "as" ("as a
	// director", "as director"): "I recall X acting in something Y made
	// as a director; name it." asks for the film, not for a director
	// (clauseType). Off in checkpoints saved before it.
	BackPastRoles bool `json:"back_past_roles,omitempty"`
	// EmbeddedQuestions: a question put inside the speaker's or the
	// addressee's words ("Do you know what X directed in 1969?", "I
	// wonder which films X wrote") opens at its question word
	// (embeddedOpening), and with ObjectVerbs its subject and verb, said
	// in the order of a statement, read as after a do-auxiliary ("What
	// did X direct in 1969?"). Off in checkpoints saved before it.
	EmbeddedQuestions bool `json:"embedded_questions,omitempty"`
	// DepthBack: with RepeatTwice, a candidate that walks one relation
	// twice and a step straight back ("<-hypernym <-hypernym ->hypernym",
	// the siblings of X's kinds) walks nothing deep where the question
	// nests a word or says two (repeatMisses): "Which terms come beneath
	// the terms beneath X?" asks for X's kinds' kinds. Off in checkpoints
	// saved before it.
	DepthBack bool `json:"depth_back,omitempty"`
	// ArgumentCompounds: a mention joined by a hyphen to "like" or to a
	// verb's inflection after it ("geared-like adjectives", "X-directed
	// titles") is read as written in no compound: it names what it
	// names, where "near" in "near-synonyms" does not
	// (argumentCompound). Learning NonAnchorForms reads every hyphened
	// part as before. Off in checkpoints saved before it.
	ArgumentCompounds bool `json:"argument_compounds,omitempty"`
	// BeObject: with ObjectVerbs, VerbFirst and BareObject, a form of
	// "be" right after a bare opening question word is the object
	// rule's auxiliary for its bare reading: "What was X acting in?" and
	// "What was X directed by?" walk the verb's relation from X, first
	// and last, as "What has X acted in?" does (beAux). Off in
	// checkpoints saved before it.
	BeObject bool `json:"be_object,omitempty"`
	// ObjectBeyond: with BareObject, a bare question word that asks for
	// a type (WhAsks' whType) the verb's relation does not reach from the
	// subject asks for what the verb's object leads to: "Who did X direct
	// in 2001?" asks for the cast of X's 2001 films, so the verb's
	// relation is walked by a path's first step and not by its last (a
	// last step along it again reaches the verb's subjects, X's
	// co-directors, which only "with" asks for: "Who has X acted with?").
	// Off in checkpoints saved before it, where the bare reading walked
	// the verb's relation first and last whatever the question word asked.
	ObjectBeyond bool `json:"object_beyond,omitempty"`
	// QuotedOpening: with OpeningNoun, a quoted noun opening the
	// question names no type asked for: "\"cake\" is the name of which
	// baked goods?" mentions the word (openingType). Off in checkpoints
	// saved before it.
	QuotedOpening bool `json:"quoted_opening,omitempty"`
	// RelativeAntecedents: a mention is the verb of a relative clause
	// (FormRelativeVerb) only after a pronoun that follows a word of
	// its own, not a stop word: "\"cake\" is the name of which baked
	// goods?" asks for baked goods (relativeVerb). Learning
	// NonAnchorForms reads every pronoun as before. Off in checkpoints
	// saved before it.
	RelativeAntecedents bool `json:"relative_antecedents,omitempty"`
	// NounAntecedents: with RelativeAntecedents, the word before the
	// pronoun must also be one the lexicon has as a noun: after a verb
	// alone the pronoun asks ("The word \"cake\" denotes which baked
	// goods?" asks for baked goods; relativeVerb). Off in checkpoints
	// saved before it.
	NounAntecedents bool `json:"noun_antecedents,omitempty"`
	// NameSubjects: a strong mention right before a verb that names one
	// relation alone (a do- or have-auxiliary between allowed) is the
	// verb's subject: a candidate that leaves it unanchored, or walks the
	// verb's relation by no first step from it, is ruled out as an answer
	// word's is (nameSubjects): "Titles where X directed and Y acted?"
	// asks for the films of both, not for the directors of Y's films
	// (which X is one of), whatever "titles" names. Off in checkpoints
	// saved before it.
	NameSubjects bool `json:"name_subjects,omitempty"`
	// CompoundHeads: a word in an asking word's slot that names a type
	// names none where the noun after it is the head of their compound
	// and names another (compoundHead): "Which film directors has X
	// worked for?" asks for people. Off in checkpoints saved before it.
	CompoundHeads bool `json:"compound_heads,omitempty"`
	// AddressedRequests: with LeadVerbAsks, a request put to "you" ("Could
	// you name the screenwriters of ...?") asks as the request does
	// ("Name the screenwriters of ...": verbType). Off in checkpoints
	// saved before it.
	AddressedRequests bool `json:"addressed_requests,omitempty"`
	// FuzzyOpenings: with FuzzyNames, a word that opens a sentence is no
	// name of one word by its capital alone ("Whose performances appear
	// in ...?" is not read "Whore performances ..."; opensSentence). Off
	// in checkpoints saved before it.
	FuzzyOpenings bool `json:"fuzzy_openings,omitempty"`
	// KindCompounds: with ArgumentCompounds, a mention hyphened to a noun
	// the lexicon has as "kind" or one link from it ("impervious-type
	// adjectives", "X-sort") opens an argument compound, as before "-like"
	// (argumentCompound). Off in checkpoints saved before it.
	KindCompounds bool `json:"kind_compounds,omitempty"`
	// PairedAnchors: with DeeperSearch, where no candidate left is
	// ruled out and two that reach nodes are anchored on one strong
	// mention each, apart, the deeper search tries the templates of two
	// paths or more anchored on both (pairedSearch). Off in checkpoints
	// saved before it.
	PairedAnchors bool `json:"paired_anchors,omitempty"`
	// ClauseBounds: a relative word ("that", "which", "who" ...) between
	// a mention and the word next to it ends the look for an anchor word,
	// in learning AnchorWords and in reading them: in "X's script that Y
	// acted in", "script" says nothing of how Y is related (anchorWords).
	// Off in checkpoints saved before it.
	ClauseBounds bool `json:"clause_bounds,omitempty"`
	// Roles: with Titles, planning reads a noun in the singular with no
	// determiner right after "as", the role a name played ("X's movies as
	// director", "films X made as writer"), as a verb of the one relation
	// it names, whatever other words name ("Which of X's movies as
	// director had Y acting in them?"): read as the training's
	// "directors" it asked for directors. Where it names no relation or
	// several it is read as any word. Off in checkpoints saved before it.
	Roles bool `json:"roles,omitempty"`
	// ReadSamePOS: of the known words the lexicon reads an unseen word as
	// that name what the word names, planning prefers one that may be a
	// noun and may be a verb where the word may ("performers" as "actors",
	// not "star" or "starred"). Off in checkpoints saved before it.
	ReadSamePOS bool `json:"read_same_pos,omitempty"`
	// ReadInContext: an unseen word whose nearest known words name
	// different parts of the schema is read as those of the meaning whose
	// training words the question's next word follows far more often
	// ("performed in" as "starred in", not "directed in"; inContext). Off
	// in checkpoints saved before it.
	ReadInContext bool `json:"read_in_context,omitempty"`
	// SynonymRelations: with NamedRelations and Lexicon, a word among the
	// lemmas of the most frequent noun sense of a relation's schema word
	// names the relation where the training questions bear it out
	// ("component" and "components": part holonym; "field", "area",
	// "subject": domain topic; synonymBorneOut). Off in checkpoints saved
	// before it.
	SynonymRelations bool `json:"synonym_relations,omitempty"`
	// DeclineRuledOut: when what the question names rules out every
	// candidate that reaches a node (ruleOut's key of at least 1<<10: a
	// relation it names walked by none, an answer word, a type named,
	// an anchor on a word the training never anchored) and the question's
	// lead words all but rule out the type the best of them answers with
	// (LeadTypes.Prob below minLeadTypeProb: "Who directed The
	// Godfather?" against a plan answering with films), no plan fits: the
	// planner answers with none (PlanPrediction.RuledOut) and the text
	// channel answers, counted as a fallback. Off in checkpoints saved
	// before it.
	DeclineRuledOut bool `json:"decline_ruled_out,omitempty"`
	// RepeatWords: the plan ranker sees whether a word of the question
	// (outside the candidate's anchors and quotations) comes twice, with
	// the candidate's hops and whether it walks one relation twice in a
	// row ("the varieties of the varieties of X"; repeatFeatures). Off in
	// checkpoints saved before it.
	RepeatWords bool `json:"repeat_words,omitempty"`
	// RepeatTwice: with RepeatWords, a question that nests a word
	// (nestsWord: says it twice, each time before "of", outside the
	// candidate's anchors and quotations) rules out a candidate that walks
	// no relation twice in a row, weighing less than a missed relation
	// word, and the deeper search tries templates that do ("hyponyms of
	// hyponyms of X", a word no training question used). Set by the
	// training when its questions bear it out (LearnRepeatTwice): on
	// WordNet most training questions that nest a word walk one relation
	// twice; none of movies-skb's nests one. Off in checkpoints saved
	// before it.
	RepeatTwice bool `json:"repeat_twice,omitempty"`
	// DepthSaid: with RepeatTwice, a candidate walks one relation twice
	// in a row only where the question says so outside its anchors and
	// quotations: it nests a word (nestsWord) or says a count of two
	// ("two", "2", "second", "twice"; saysTwo). A candidate that walks a
	// relation twice unsaid weighs above the unexplained mentions and
	// below every other rule ("Of the senses of odyssey, which are a kind
	// of journeying?" asks for journeying's kinds, not their kinds), and
	// one that walks none twice where the question says two is ruled out
	// as RepeatTwice rules it out ("Which words sit two levels below rima
	// in the hierarchy?"). Set by the training when its questions bear it
	// out (LearnDepthSaid). Off in checkpoints saved before it.
	DepthSaid bool `json:"depth_said,omitempty"`
	// PairWords: with DepthSaid, a noun for a set of two (pairWords:
	// "couple", "pair") says a count of two as "two" does (saysTwo):
	// "What sits a couple of rungs beneath X in the taxonomy?" asks for
	// the kinds of X's kinds. The training reads the count words alone.
	// Off in checkpoints saved before it.
	PairWords bool `json:"pair_words,omitempty"`
	// DepthPairs: with DepthSaid, the two different steps in a row (their
	// plan tokens) that the training's questions walk only where they say
	// a depth, as a relation walked twice (LearnDepthPairs: WordNet's
	// "kinds of the kinds of X" reach instances as often as kinds, one
	// hypernym step then one instance hypernym step). A candidate that
	// walks one is deep as one that walks a relation twice is (walksDeep):
	// unsaid it weighs as DepthSaid weighs a relation walked twice unsaid
	// ("Name some particular examples of resort area" asks for its
	// instances, not for instances of its kinds), and said it misses no
	// repeat.
	// Empty in checkpoints saved before it.
	DepthPairs [][2]string `json:"depth_pairs,omitempty"`
	// NestedRelations: with RepeatTwice, two different words that each
	// come before "of", the second within a few words of the first "of",
	// nest as one word said twice does (nestsWord) where the training
	// bears out one relation for both (nestsRelation: "the subtypes of
	// the kinds of X" asks for what "the kinds of the kinds of X" does).
	// Off in checkpoints saved before it.
	NestedRelations bool `json:"nested_relations,omitempty"`
	// NestedKin: with NestedRelations and the lexicon, a nested word no
	// training question used names the one relation its readings name
	// ("the subtypes of the varieties of X": varieties read as kinds), and
	// a nested word of no relation nests with one of a relation where the
	// lexicon relates the two closely (a synset shared or one hypernym
	// link in the most frequent sense of one: "the forms of the kinds of
	// X", forms and kinds one synset). Off in checkpoints saved before it.
	NestedKin bool `json:"nested_kin,omitempty"`
	// MarkedNests: a phrase mark between the "of" that opens a nesting
	// and the word said again (nestsWord) or the second word of the
	// relation (nestsRelation) ends the phrase, and nothing nests: "Raw
	// material of basalt, a kind of mineral?" says in apposition what the
	// material is, and asks for one level, not the kinds of the kinds of
	// mineral. Off in checkpoints saved before it.
	MarkedNests bool `json:"marked_nests,omitempty"`
	// ReadNoKind: with KindTypes, a word the lexicon reads as a training
	// word of its base form or a synonym (wordResolver.word) names the
	// type the training's lifts name for that word, or none, not one as a
	// kind of the type's schema word ("Name the types of the varieties of
	// X": "types" reads as "type" and "varieties" as "kinds", which asked
	// for every type in training, not as a sibling of shape and a
	// taxonomic group). Off in checkpoints saved before it.
	ReadNoKind bool `json:"read_no_kind,omitempty"`
	// QuoteLabels: with the lexicon, a word right before a quotation,
	// which labels the quoted text ("defined with the fragment 'travel
	// at an excessive velocity'"), is not read as a word that names a
	// relation of the schema and no type (quoteLabel: "fragment" read as
	// "part" ruled out every plan that walks no part). Off in checkpoints
	// saved before it.
	QuoteLabels bool `json:"quote_labels,omitempty"`
	// PlainDeterminers: a determiner that asks for nothing ("any",
	// "every", "some": determiners less askingDeterminers) names no asked
	// type by its lift in the training: "Any Japanese films directed by
	// X?" asks for films, not for the people "any" leans to in training
	// questions ("Did any actor ..."). Off in checkpoints saved before it.
	PlainDeterminers bool `json:"plain_determiners,omitempty"`
	// SynonymTypes: a word that names no node type with the schema's own
	// words names the one type with a word in the word's most frequent
	// noun sense in the lexicon ("films": movie; namedType). Off in
	// checkpoints saved before it.
	SynonymTypes bool `json:"synonym_types,omitempty"`
	// KindTypes: where a question names the type it asks for (after an
	// asking word), a word the training questions never used that names
	// no type otherwise names the type whose schema word's most frequent
	// noun sense is the nearest hypernym of the word's own, at most
	// maxKindLevels links up ("Which screenwriters ...": person, four
	// up), also when the word is read as another ("written"; readKinds).
	// It rules candidates out (typeConflict), not in the ranker's
	// features, so training is unchanged. Off in checkpoints saved
	// before it.
	KindTypes bool `json:"kind_types,omitempty"`
	// GeneralTypes: with KindTypes, such a word that names no type as a
	// kind of one names the type whose schema word's most frequent noun
	// sense is, at most maxGeneralLevels links up, a kind of one of the
	// word's noun senses ("Which category does every film written by X
	// fall into?": genre, a kind, a category; generalType). Off in
	// checkpoints saved before it.
	GeneralTypes bool `json:"general_types,omitempty"`
	// SiblingTypes: with GeneralTypes, such a word that names no type as
	// a more general word either names the type one of its own
	// hypernyms names so ("Which type of movie are all of X's
	// screenplays?": a type is a kind, and a genre is one; siblingType).
	// Off in checkpoints saved before it.
	SiblingTypes bool `json:"sibling_types,omitempty"`
	// NounSlots: a word that may be a noun, right after an article or a
	// possessive, or an asking word no noun comes right before (nounSlot:
	// not in "films which feature X"), is read through its noun senses alone
	// ("Which type of movie": not "wrote", though to type is to write;
	// lexicon.NearestNoun), and one after an asking word or a request's
	// verb names a type as a kind of it though it may be a verb too
	// (kindType). Off in checkpoints saved before it.
	NounSlots bool `json:"noun_slots,omitempty"`
	// TypeAfterAnchor: a word right after an anchor mention that names
	// the type of the anchor's node says what the anchor is, as one right
	// before it does, not what the question asks for ("titles in the
	// comedy genre that feature X"; withoutAnchorTypeWords). It rules
	// candidates out, not in the ranker's features. Off in checkpoints
	// saved before it.
	TypeAfterAnchor bool `json:"type_after_anchor,omitempty"`
	// TypeAfterMention: with TypeAfterAnchor, so is a word right after any
	// mention naming a node of the type it names, anchor or not (the
	// longest mention ending there: typeAfterMentions). "Show me titles in
	// the comedy genre that feature X" asks for no genre though no
	// candidate the classifier proposed anchors "comedy". Off in
	// checkpoints saved before it.
	TypeAfterMention bool `json:"type_after_mention,omitempty"`
	// AskedBeforeAnchor: a word naming a type right before an anchor
	// mention, right after an asking word, names the type asked for where
	// the anchor is no node of that type ("Which person made the film X
	// ...?" anchored on "made", a film; askedBefore), not the anchor's
	// kind. Off in checkpoints saved before it, where it was blanked.
	AskedBeforeAnchor bool `json:"asked_before_anchor,omitempty"`
	// CasedAnchors: of two anchorings of one template that differ in one
	// path's mention, one written in lower case whose nodes' names all
	// have a capital letter gives way to one with a capital letter ("made",
	// the film Made, to "Germinal" in "Which person made the film Germinal
	// as its director?"; casedAnchors). Off in checkpoints saved before it.
	CasedAnchors bool `json:"cased_anchors,omitempty"`
	// CasedAcross: with CasedAnchors, such a lower-case anchoring gives
	// way as well to an anchoring of another template on a capitalised
	// mention it leaves unanchored and does not overlap ("the stars", the
	// film The Stars, to "The Ring" in "What else have the stars of The
	// Ring appeared in?"). Off in checkpoints saved before it.
	CasedAcross bool `json:"cased_across,omitempty"`
	// LeadVerbAsks: a question's first word that is a verb's base form in
	// the lexicon (a request: "Name the 2008 releases scripted by X.")
	// asks as an asking word does, for the first word after it that is
	// no stop word or number (askedTypeBy; leadVerb). Like KindTypes it
	// rules candidates out, not in the ranker's features. Off in
	// checkpoints saved before it.
	LeadVerbAsks bool `json:"lead_verb_asks,omitempty"`
	// RequestObject: with LeadVerbAsks, a request's object is read past
	// the addressee after its verb ("Give me the 1996 releases with X in
	// the cast": releases, films) and past a determiner after a verb that
	// is a learned asking word too ("List the writers of the movies
	// featuring X": writers, people; the asking word's own slot, "the",
	// names nothing). Off in checkpoints saved before it, where such a
	// question's verb asked for nothing.
	RequestObject bool `json:"request_object,omitempty"`
	// ObjectModifiers: with RequestObject, a word before the request's
	// object that the lexicon has as an adjective, never as a noun nor as
	// a verb's form, is read past too ("List the other movies made by the director of X":
	// movies, not "other", which names no type and left a plan that
	// answers with the director). Off in checkpoints saved before it.
	ObjectModifiers bool `json:"object_modifiers,omitempty"`
	// AnswerWordsLead: an answer word (AnswerWords) names the step that
	// ends the plan only where the question's lead words give the type
	// the step ends at a probability of at least minLeadTypeProb
	// (leadRulesOut): "Who wrote the screenplay for X?" asks for a
	// person, though "script" ended the plans of "Which scripts ...?"
	// with the step to films. Off in checkpoints saved before it.
	AnswerWordsLead bool `json:"answer_words_lead,omitempty"`
	// TrailingAnswerWords: a question with no noun (but a question word)
	// before its first anchor ("The Bang Bang Club director", a search
	// box's noun phrase; "Who are X's directors?") names its answer word
	// after its last anchor, where English puts a noun phrase's head
	// (trailNouns), yielding to the lead words as one before the anchors
	// does (AnswerWordsLead). Answer words are learned from leads as
	// before, so training is unchanged. Off in checkpoints saved before
	// it.
	TrailingAnswerWords bool `json:"trailing_answer_words,omitempty"`
	// KindAnswerWords: a noun of the question's lead that no training
	// question used, read as a word naming a relation, names the step of
	// that relation that ends at the type the noun is a kind of
	// (kindStep): "Name the writers behind the films X appeared in",
	// read "Name the written ...", where "writer" is a kind of person,
	// asks for the films' ->written_by, not for the actors of the films X
	// wrote. It counts as an answer word where no learned one (AnswerWords)
	// stands in the lead; nothing is learned for it. Off in checkpoints
	// saved before it.
	KindAnswerWords bool `json:"kind_answer_words,omitempty"`
	// KinRelations: a word that the plans of 90% of at least 5 training
	// questions with it walk one relation, and no other at 70%, names
	// that relation (namedRelations) where the lexicon puts it one link
	// from a schema word of the relation in some sense of each
	// (lexicon.Kin): "script", which came in "direct from a script by X",
	// names written_by ("Who scripted X?", read "Who script X?"). Off in
	// checkpoints saved before it.
	KinRelations bool `json:"kin_relations,omitempty"`
	// OpeningNoun: a question whose lead names no asked type with an
	// asking word's slot or the schema's word names it with the noun it
	// opens with, past values (openingType): "2005 releases directed by
	// X, please" asks for films ("releases", a type word), not for their
	// cast. It only rules out; the plan ranker's features do not read
	// it. Off in checkpoints saved before it.
	OpeningNoun bool `json:"opening_noun,omitempty"`
	// OpeningFirst: with OpeningNoun, a question no question word occurs
	// in asks for the type its opening noun names (openingType) before
	// any an asking word's slot names after it: "Genre labels attached to
	// films X penned?" asks for genres, not for the films after "to". Off
	// in checkpoints saved before it.
	OpeningFirst bool `json:"opening_first,omitempty"`
	// OpeningLift: with OpeningNoun, the noun opening a question names
	// the type a training lift gives it (wordType) where neither the
	// schema's word nor the lexicon names one and the training questions
	// bear it out (liftBorneOut: 90% of at least 5 with the word asked for
	// the type): "People seen on screen in X's scripts?" asks for persons
	// ("people" names a group to the lexicon, persons to the training
	// questions), not X's films; an auxiliary ("Have X and Y ever ...?")
	// names nothing, nor does a label a colon sets apart ("Gloss: ...").
	// Off in checkpoints saved before it.
	OpeningLift bool `json:"opening_lift,omitempty"`
	// SlotLifts: with NamedType, a noun right after an asking determiner
	// ("which", "what", "whose") that the question writes names the type
	// a training lift gives it, as the schema's word does, where the
	// training questions bear the lift out (liftedSlot: a noun to the
	// lexicon, 90% of at least 5 questions with the word asked for the
	// type): "Which people act in films whose screenplay X wrote?" asks
	// for persons and rules out X's films, though no training question
	// wrote "which people". So does a noun whose lift is below the 2
	// wordType asks, when the share is borne out (borneOutType: "Which
	// 1970 feature did X helm?" asks for films, which most training
	// questions ask for; "feature" came in 39, all asking for films). A
	// word the lexicon read an unseen word as ("efforts" read as "share")
	// names nothing so. Off in checkpoints saved before it.
	SlotLifts bool `json:"slot_lifts,omitempty"`
	// WrittenAnchors: a question's anchors are words it writes: a mention
	// lying within a word the planner read an unseen word as (resolveRead,
	// outside every mention) anchors no plan. "Two levels down from
	// isopod, what concepts exist?" read "exist" as "being", a WordNet
	// noun, and walked two levels down from it (candidates). Off in
	// checkpoints saved before it.
	WrittenAnchors bool `json:"written_anchors,omitempty"`
	// WhAsks: a question that names no asked type otherwise asks for the
	// type its first word, an English question word, asked for in at
	// least 90% of the 5 or more training questions it opened (whType,
	// read off Lead's first words): "Who plays in X?" asks for a person,
	// not for X's genre. It only rules out. Off in checkpoints saved
	// before it.
	WhAsks bool `json:"wh_asks,omitempty"`
	// ClosingWh: with WhAsks, an English question word that closes a
	// question no question word opens asks for what it asks for opening
	// one, read in its subject form ("whom" as "who"), before any type
	// the words before it name: "X's films were written by whom?" and "X
	// wrote films starring whom?" ask for people, not films
	// (closingWhType). Off in checkpoints saved before it.
	ClosingWh bool `json:"closing_wh,omitempty"`
	// InSituWh: with ClosingWh, the last question word of a question no
	// question word opens asks as a closing one does where it stands
	// right after a preposition, the word after it (if any) is no
	// content word and no verb's form that is no noun follows it: the
	// question asked in place, with words after it ("X has taken
	// direction from whom over the years?" asks for people, not X's
	// films); "the director with whom X worked" opens a relative clause
	// (inSituWh). Off in checkpoints saved before it.
	InSituWh bool `json:"in_situ_wh,omitempty"`
	// InSituObjects: with InSituWh, a question word asked in place right
	// after a verb's form, its object, asks as one after a preposition
	// does ("X's 1970 directing job put whom in front of the camera?"
	// asks for people, not X's films; inSituWh): a content word the
	// lexicon knows as a verb's form, no mark between them. Off in
	// checkpoints saved before it.
	InSituObjects bool `json:"in_situ_objects,omitempty"`
	// TypeWordNouns: a type word (TypeWords) names its type only in a
	// form the lexicon reads as a noun, as a type's name is one: "1993
	// releases" names films, "is tagged with" (of "tags") and "related
	// to" (of "relating", WordNet's relational adjectives) are verbs
	// and name none (typeWordType). Off in checkpoints saved before it.
	TypeWordNouns bool `json:"type_word_nouns,omitempty"`
	// SubjectVerbs: with WhAsks, the verb right after a question word
	// that asks for one type (and an auxiliary, if any), before the
	// anchors, has the answers as its subject: a relation it names alone
	// (namedRelations) ends the plan ("Who has acted in a movie alongside
	// X?" asks for the actors of X's films, not their directors), and a
	// candidate whose last step walks none is ruled out as an answer
	// word's is (subjectVerbMisses). Off in checkpoints saved before it.
	SubjectVerbs bool `json:"subject_verbs,omitempty"`
	// WhichVerbs: with SubjectVerbs, a question word that asks with nouns
	// ("Which actors appeared in films together with X?") makes the verb
	// after them (and an auxiliary, if any) a subject verb too, whatever
	// type the question word asks for alone. Off in checkpoints saved
	// before it.
	WhichVerbs bool `json:"which_verbs,omitempty"`
	// WhichUnknown: with WhichVerbs, a lower-case word the lexicon knows
	// in no form, followed by a verb that is no noun or by an auxiliary,
	// is one of the nouns a question word asks with ("Which helmers
	// directed X's films?" has the subject verb "directed", as "Which
	// directors directed ..." does). Off in checkpoints saved before it.
	WhichUnknown bool `json:"which_unknown,omitempty"`
	// CompoundWords: with Lexicon, planning reads a closed compound that
	// neither the training nor the lexicon knows in any form as the
	// training's word that is the same compound with a synonymous modifier
	// ("moviemakers" as "filmmakers"; compoundTwin), else as its head noun
	// ("... makers ..."; compoundTail), as the words the lexicon relates
	// that head to. The text-fit gate reads it as written. Off in
	// checkpoints saved before it.
	CompoundWords bool `json:"compound_words,omitempty"`
	// WhichSubject: with WhichVerbs, the type asked for is named by the
	// question word and the nouns it asks with, before the subject verb,
	// or by no word: "films" in "Which folks starred in the films X
	// wrote?" is the verb's object (subjectAsked). Off in checkpoints
	// saved before it.
	WhichSubject bool `json:"which_subject,omitempty"`
	// CoAnchors: with SubjectVerbs, an anchor right after "alongside",
	// "together with", or "with" right after the subject verb does what
	// the answers do: its path walks the verb's relation first
	// (coVerbMisses: "Which actors appeared in films together with X?",
	// X's co-stars). Off in checkpoints saved before it.
	CoAnchors bool `json:"co_anchors,omitempty"`
	// CoWords: with NamedRelations, a word "co-" makes of a word naming a
	// relation ("co-stars", "costars", "co-wrote") asks for the nodes
	// that share a neighbour along that relation with the anchor: a
	// candidate none of whose paths walks the relation into a node and
	// straight back out of it is ruled out as a missed relation word is
	// (coMisses: "Who were the co-stars of X?" asks for the cast of X's
	// films, not their genres nor their directors). Off in checkpoints
	// saved before it.
	CoWords bool `json:"co_words,omitempty"`
	// SharedWith: with CoWords, a form of the verb "share" with "with"
	// after it asks as a co-word does, along the relations the words
	// between name or, where they name none, along any (sharedWith: "Who
	// has shared the screen with X?", X's co-stars where X acted only).
	// Off in checkpoints saved before it.
	SharedWith bool `json:"shared_with,omitempty"`
	// FuzzyNames: a question that gets no plan is read once more with a
	// misspelt name spelt as a node names it (fuzzyRead: one letter of one
	// word dropped, added, changed or swapped with the next; "Tom Hansk"
	// as "Tom Hanks"), and planned so where that finds a plan. Off in
	// checkpoints saved before it.
	FuzzyNames bool `json:"fuzzy_names,omitempty"`
	// ReturnedAnchors: a candidate whose plan reaches no node but the
	// anchors its path walks straight back to (plan.Returned: "the
	// hyponyms' hypernyms of X" where X's hyponyms have no other
	// hypernym) reaches nothing: plan-exec ranks such anchors below every
	// other answer (plan.ReturnedLast), so the plan has no answer of its
	// own, and a question is not asked for what it names ("What is
	// hallway made up of?" was answered with hallway; a question that
	// names its answer, "Which sense of the word 'digit' is a kind of
	// integer?", has a plan of its own that reaches it, and the named
	// answers put it first: NamedTop). Off in checkpoints saved before it.
	ReturnedAnchors bool `json:"returned_anchors,omitempty"`
	// AskedAnswerWords: an answer word whose step ends at no type the
	// question names as asked for around the candidate's anchors
	// (namedAsked) is no answer word; the next one in the lead may be
	// ("Which other films were directed by the director of X?" asks for
	// films: "director" there names the step in between, not the last).
	// Off in checkpoints saved before it.
	AskedAnswerWords bool `json:"asked_answer_words,omitempty"`
	// ObjectVerbs: a question that puts its subject between a do- or
	// have-auxiliary and the verb ending it asks for that verb's object
	// ("What else did the director of X direct?"): a candidate that
	// answers with the subject (walks a relation the subject's words
	// name last, or not at all) or walks no relation the verb names last
	// is ruled out as an answer word's is (objectRule). Off in
	// checkpoints saved before it.
	ObjectVerbs bool `json:"object_verbs,omitempty"`
	// VerbFirst: with ObjectVerbs, a subject whose words name no relation
	// is the anchor itself, and the verb's relation is walked from it, by
	// a path's first step, not its last: "Which stars has X directed?"
	// asks for the cast of X's films (objectReading.first). Off in
	// checkpoints saved before it.
	VerbFirst bool `json:"verb_first,omitempty"`
	// BareObject: with VerbFirst, a bare question word ("What has X
	// appeared in?", nothing but the auxiliary after it) asks for what
	// the verb reaches from the subject anchor, so the verb's relation
	// is walked by a path's first step and its last: X's films, not the
	// cast of the films X directed (objectReading.bare). Off in
	// checkpoints saved before it.
	BareObject bool `json:"bare_object,omitempty"`
	// FrontedPhrase: where a phrase of at most 8 words opens a question
	// before its question word, closed by a comma, that question word
	// opens the question for the rules that read its opening words
	// (WhAsks, ObjectVerbs, SubjectVerbs, ClosingWh): "In Hebrew, what has
	// X appeared in?" asks as "What has X appeared in?" does (opening).
	// Off in checkpoints saved before it.
	FrontedPhrase bool `json:"fronted_phrase,omitempty"`
	// PrepositionWh: a preposition that opens a question right before
	// its question word leaves that word the question's opening one for
	// the same rules (opening): "By whom has X been directed?" asks as
	// "Whom has X directed?" does, for a person, not for X's films. Off
	// in checkpoints saved before it.
	PrepositionWh bool `json:"preposition_wh,omitempty"`
	// HeadsOf: with NounHeads, the first word of M in "N of M" names no
	// asked type also where N does not open the question, when one of
	// N's nouns names the answers by a relation (an answer word, or a
	// word naming a relation): "Name the cast members of X's 2000 films
	// as director." asks for the cast; "Give me a list of films" still
	// for films. Off in checkpoints saved before it.
	HeadsOf bool `json:"heads_of,omitempty"`
	// NounHeads: "N of M" opening a question asks for N. A question's
	// first word that may be a noun or a verb is a noun before a
	// preposition ("cast of films directed by X": an answer word, and no
	// request's verb; an answer word learned from such an opening too),
	// and where no asking word names the type a question asks for, M's
	// first word names none. It rules candidates out, not in the ranker's
	// features. Off in checkpoints saved before it.
	NounHeads bool `json:"noun_heads,omitempty"`
	// OfValues: with NounHeads, M's first word is its first past the
	// values before it: "cast of X's 1926 films as director" asks for the
	// cast, not for films, as "cast of the films" does. Off in
	// checkpoints saved before it, where "1926" was M's first word and
	// "films" named the type asked for.
	OfValues bool `json:"of_values,omitempty"`
	// ContextSentences: a question whose sentences before its last, a
	// question, only set the scene (every node of an anchor type they
	// name, the last names too) is planned from its last sentence
	// (askingSentence): "I love the films of X. Which genre does every
	// film written by X belong to?". Off in checkpoints saved before it.
	ContextSentences bool `json:"context_sentences,omitempty"`
	// CasualContext: with ContextSentences, text typed in lower case may
	// start its sentences so, and sentences before the last that name no
	// node of an anchor type are context too when none of their words
	// names a type or relation of the schema ("i'm trying to remember
	// something. what did X helm in 2005?"; askingSentence). Off in
	// checkpoints saved before it.
	CasualContext bool `json:"casual_context,omitempty"`
	// InflectedRelations: a question word that names nothing as written
	// and that no training question used outside its anchors names the
	// relations its base forms name (NamedRelations; the lexicon's base
	// forms, namedRelations): "Which stars appeared in ..." names
	// starred_actors as "star" does, which the training bore out, though
	// a movie named "Stars" makes "stars" a mention the lexicon does not
	// read. It rules candidates out and steers the deeper search, not in
	// the ranker's features. Off in checkpoints saved before it.
	InflectedRelations bool `json:"inflected_relations,omitempty"`
	// FormRelations: with InflectedRelations, such a word also names what
	// the other inflections of its base forms the training used (in at
	// least minRelWordQuestions questions) name, as written and borne out:
	// "Which movies share an actor with X?" names starred_actors as
	// "actors" does, though the training never said "actor" and the
	// lexicon, which has "actor" for a word of the schema's, reads it as
	// itself. Off in checkpoints saved before it.
	FormRelations bool `json:"form_relations,omitempty"`
	// MixedForms: with InflectedRelations, a word the training used in
	// minRelWordQuestions or more questions whose plans bear out no
	// relation (mined plans mix: a director who wrote her films makes
	// "What movies did X direct in 1997?" a written_by plan) names what
	// its other forms name, where they name one relation and that is the
	// one its own questions walk most: "direct" (72 of 122 directed_by)
	// as "directed". Off in checkpoints saved before it.
	MixedForms bool `json:"mixed_forms,omitempty"`
	// NamedFirst: a deeper search tries, among templates the classifier
	// finds as probable as each other (every schema step and path, at 0),
	// those that walk fewer relations no word of the question names first
	// (namedFirst): "Which films share a screenwriter with X?" comes to
	// the film's writers' films before a director's. And the search on a
	// longer mention no candidate anchors (unanchoredLonger) tries the
	// schema's two-step paths too: "Which movies share an actor with The
	// Land Girls?" found only the film's actors, people, along the
	// schema's one step. Off in checkpoints saved before it.
	NamedFirst bool `json:"named_first,omitempty"`
	// AnswerWords maps a noun to the relation step (one direction, as
	// "->directed_by") that ends the plans of at least 90% of the 5 or
	// more training questions that used it before their first anchor,
	// where the question names what it asks for ("Which directors ...",
	// "Find the cast of ..."; LearnAnswerWords); a candidate whose paths
	// end with no such step is ruled out when another is not
	// (answerMisses). Empty in checkpoints saved before them.
	AnswerWords map[string]string `json:"answer_words,omitempty"`
	// AnchorWords maps a word next to an anchor ("a:wrote" after it,
	// "b:starring" before it; anchorWords) that names a relation to the
	// relation steps (one direction, as "<-written_by") that start the
	// paths from 98% of the 5 or more training anchors it was next to
	// (LearnAnchorWords); a candidate whose path from such an anchor starts
	// otherwise is ruled out when another is not (anchorWordMisses). Empty
	// in checkpoints saved before them.
	AnchorWords map[string][]string `json:"anchor_words,omitempty"`
	// TypeWords are, per node type, words nearly every document of the
	// type says and nearly no other does ("released" of movie in
	// movies-skb; LearnTypeWords), sorted: they name the type as its schema
	// word does. Empty in checkpoints saved before them.
	TypeWords map[string][]string `json:"type_words,omitempty"`
	// OuterAnchors: a candidate that reaches a node a longer mention
	// around one of its anchors names is ruled out when another is not
	// (reachesOuter). Off in checkpoints saved before it.
	OuterAnchors bool `json:"outer_anchors,omitempty"`
	// AskWords are the words after which a word naming a type names the
	// answer's type (LearnAskWords), sorted: askedType reads the word
	// after one first. Empty in checkpoints saved before them.
	AskWords []string `json:"ask_words,omitempty"`
	// NamedType: a word names a type only when it names exactly one
	// (WordNet's "noun" names none), and when the question names its
	// answer type with the schema's own word ("Which person ..."), a
	// candidate that answers with another type is chosen only if none
	// answers with that one (typeConflict). Off in checkpoints saved
	// before it, whose first type-naming word could name several.
	NamedType bool `json:"named_type,omitempty"`
	// NamedRelations: among the candidates left, those that walk a
	// relation for more of the question's relation-naming words
	// (relationMisses: "directed" names directed_by) win; a candidate that
	// walks none of the relations a word names competes only when no
	// candidate does better.
	NamedRelations bool `json:"named_relations,omitempty"`
	// CoverMentions: among the candidates left after NamedType and
	// NamedRelations, those that leave fewer of the question's mentions
	// unexplained win (unexplained: "Which comedy movies featuring X?"
	// answered by X's films leaves "comedy" unused). Only mentions of a
	// node of one of AnchorTypes count, and not those of WeakMentions
	// (LearnWeakMentions). Off in checkpoints saved before it.
	CoverMentions bool     `json:"cover_mentions,omitempty"`
	AnchorTypes   []string `json:"anchor_types,omitempty"`
	WeakMentions  []string `json:"weak_mentions,omitempty"`
	// MultiwordTypes: a mention of two or more words naming a node of one
	// of these types counts too (LearnMultiwordTypes: WordNet's "dining
	// room" in "Which type of furniture is found in dining room?", left
	// unexplained by the kinds of furniture). Empty in checkpoints saved
	// before it.
	MultiwordTypes []string `json:"multiword_types,omitempty"`
	// Lexicon: a question word no training question used is read as the
	// known word the general English lexicon relates it to most closely
	// ("helmed": directed, "penned": wrote; lexwords.go). Off in
	// checkpoints saved before it.
	Lexicon bool `json:"lexicon,omitempty"`
}

// Predictor predicts a question's plan without an LLM; plan-based methods,
// MoR, GRASP and KGQA plan through it. It is one of two planners:
// TemplatePlanner (templates with typed anchors, filled by entity linking;
// trained on a workspace's plans) or LinkingPlanner (relation paths whose
// anchors it links, chosen among executed candidates; trained on mined
// plans). FromCheckpoint builds the one a checkpoint holds.
type Predictor interface {
	infer.Planner
	// Config is the planner's configuration, as saved in its checkpoint.
	Config() Config
	// Params are the planner's trained tensors.
	Params() []models.NamedParam
}

// Classifier is what both planners share: a classifier over the metapath
// templates seen in training, whose input is the dense query vector, the
// node types of the entities the query names and a hashed bag of words.
type Classifier struct {
	Cfg  Config
	Gate *models.Gate
	// More are the members past the first (Config.Members).
	More   []*models.Gate
	Dense  *infer.DenseChannel
	Linker *linking.Linker
	ws     *workspace.Workspace
	skb    *data.SKB
}

// TemplatePlanner completes the most probable template with restrictions
// from entity linking: each path's anchor is a mention linked to a node of
// the path's first type; the rest of the query is the target's textual
// restriction. It is MoR's planner (trained on a workspace's plans) and
// KGQA's pattern predictor.
type TemplatePlanner struct{ *Classifier }

// TemplateKey is the canonical text of a metapath (the class label).
func TemplateKey(paths []data.Path) string {
	b, _ := json.Marshal(paths)
	return string(b)
}

func newClassifier(ws *workspace.Workspace, d *infer.DenseChannel, cfg Config, gate *models.Gate) *Classifier {
	return &Classifier{Cfg: cfg, Gate: gate, Dense: d, Linker: ws.Linker(), ws: ws, skb: ws.SKB}
}

// NewTemplatePlanner binds a template planner to a workspace.
func NewTemplatePlanner(ws *workspace.Workspace, d *infer.DenseChannel, cfg Config, gate *models.Gate) (*TemplatePlanner, error) {
	if cfg.Anchors != nil {
		return nil, fmt.Errorf("planner: a configuration with anchor linking is a linking planner's")
	}
	return &TemplatePlanner{newClassifier(ws, d, cfg, gate)}, nil
}

// Config implements Predictor.
func (c *Classifier) Config() Config { return c.Cfg }

// Params implements Predictor: the classifier's tensors, member by member.
func (c *Classifier) Params() []models.NamedParam {
	ps := c.Gate.Params()
	for _, g := range c.More {
		ps = append(ps, g.Params()...)
	}
	return ps
}

// Probs are the classifier's template probabilities for the input x of
// one query: the mean of its members' (Config.Members), added in member
// order.
func (c *Classifier) Probs(x []float32) []float32 {
	p := c.Gate.Forward(x, 1)
	if len(c.More) == 0 {
		return p
	}
	for _, g := range c.More {
		for i, v := range g.Forward(x, 1) {
			p[i] += v
		}
	}
	inv := 1 / float32(1+len(c.More))
	for i := range p {
		p[i] *= inv
	}
	return p
}

// MemberPrefix names member k's tensors in checkpoints: "planner" for the
// first (as before members), "planner.m<k>" for the others.
func MemberPrefix(k int) string {
	if k == 0 {
		return "planner"
	}
	return fmt.Sprintf("planner.m%d", k)
}

// NewGates returns the classifier's gates for cfg, Members of them (at
// least one): member k's initial weights are drawn from PCG(seed,
// 0x91+256k), so the first is the gate of a planner without members.
func NewGates(cfg Config, seed uint64) (*models.Gate, []*models.Gate, error) {
	var more []*models.Gate
	var first *models.Gate
	for k := range max(cfg.Members, 1) {
		g, err := models.NewGate(cfg.Gate, MemberPrefix(k), rand.New(rand.NewPCG(seed, 0x91+256*uint64(k))))
		if err != nil {
			return nil, nil, err
		}
		if k == 0 {
			first = g
		} else {
			more = append(more, g)
		}
	}
	return first, more, nil
}

// InputDim is the classifier's input size.
func (c Config) InputDim() int { return c.QueryDim + len(c.NodeTypes) + LexBuckets }

// Features computes the classifier input of a query.
func (p *Classifier) Features(q data.Query) ([]float32, []linking.Mention, error) {
	x := make([]float32, p.Cfg.InputDim())
	if p.Cfg.QueryDim > 0 {
		v, err := p.Dense.QueryVector(q)
		if err != nil {
			return nil, nil, err
		}
		copy(x, v)
	}
	ments := p.Linker.Link(q.Text)
	for _, m := range ments {
		for _, n := range m.Nodes {
			x[p.Cfg.QueryDim+int(p.skb.Nodes[n].Type)] = 1
		}
	}
	words := strings.FieldsFunc(strings.ToLower(q.Text), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsNumber(r) })
	lex := x[p.Cfg.QueryDim+len(p.Cfg.NodeTypes):]
	h := fnv.New32a()
	for i, w := range words {
		h.Reset()
		h.Write([]byte(w))
		lex[h.Sum32()%LexBuckets]++
		if p.Cfg.Bigrams && i > 0 {
			h.Reset()
			h.Write([]byte(words[i-1]))
			h.Write([]byte{0})
			h.Write([]byte(w))
			lex[h.Sum32()%LexBuckets]++
		}
	}
	var s float64
	for _, v := range lex {
		s += float64(v) * float64(v)
	}
	if s > 0 {
		inv := float32(1 / math.Sqrt(s))
		for i := range lex {
			lex[i] *= inv
		}
	}
	return x, ments, nil
}

// Predict implements Predictor: the most probable template filled by
// entity linking (Fill), with the template's probability as the
// confidence. The plan is not executed (Reach is nil).
func (p *TemplatePlanner) Predict(ctx context.Context, q data.Query) (infer.PlanPrediction, error) {
	if err := ctx.Err(); err != nil {
		return infer.PlanPrediction{Template: -1}, err
	}
	x, ments, err := p.Features(q)
	if err != nil {
		return infer.PlanPrediction{Template: -1}, err
	}
	probs := p.Probs(x)
	best := 0
	for i, v := range probs {
		if v > probs[best] {
			best = i
		}
	}
	return infer.PlanPrediction{Plan: p.Fill(p.Cfg.Templates[best], q.Text, ments), Prob: probs[best], Conf: probs[best], Template: best}, nil
}

// Fill completes a template with restrictions from the query's mentions:
// every path's anchor type takes the first unused mention linked to a node
// of that type (the node's name), and the target type gets the query text
// without the mentions.
func (p *TemplatePlanner) Fill(tmpl []data.Path, text string, ments []linking.Mention) data.Plan {
	plan := data.Plan{Paths: tmpl, Restriction: map[string][]string{}}
	used := make([]bool, len(ments))
	for _, path := range tmpl {
		if path.Hops() == 0 {
			continue
		}
		t, ok := p.skb.Schema.NodeTypeID(path.Anchor())
		if !ok {
			continue
		}
		for mi, m := range ments {
			if used[mi] {
				continue
			}
			if i := slices.IndexFunc(m.Nodes, func(n uint32) bool { return p.skb.Nodes[n].Type == t }); i >= 0 {
				used[mi] = true
				plan.Restriction[path.Anchor()] = append(plan.Restriction[path.Anchor()], p.skb.Nodes[m.Nodes[i]].Name)
				break
			}
		}
	}
	low := strings.ToLower(text)
	var rest strings.Builder
	pos := 0
	for mi, m := range ments {
		if !used[mi] {
			continue
		}
		rest.WriteString(low[pos:m.Start])
		pos = m.End
	}
	rest.WriteString(low[pos:])
	target := tmpl[0].Target()
	if r := strings.Join(strings.Fields(rest.String()), " "); r != "" {
		plan.Restriction[target] = append(plan.Restriction[target], r)
	}
	return plan
}

// Workspace implements Predictor.
func (c *Classifier) Workspace() *workspace.Workspace { return c.ws }
