package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/strata-retrieval/strata/graphops/mine"

	"github.com/spf13/cobra"

	"github.com/strata-retrieval/strata/graphops/workspace"
	"github.com/strata-retrieval/strata/infer"
	"github.com/strata-retrieval/strata/infer/planner"
	"github.com/strata-retrieval/strata/train"
)

type trainPlannerOptions struct {
	WS, Mined      string
	Text           string
	NoBare         bool
	NoShape        bool
	ExactBest      bool
	NoOuter        bool
	NoNonAnch      bool
	NoReadMents    bool
	NoAnswerWords  bool
	NoAnchorWords  bool
	NoTypeWords    bool
	NoReadInCtx    bool
	NoRepeatWords  bool
	NoSynRels      bool
	NoDecline      bool
	NoSchemaSteps  bool
	NoSchemaPaths  bool
	NoSynonymTypes bool
	NoKindTypes    bool
	NoGeneralTypes bool
	NoSiblingTypes bool
	NoNounSlots    bool
	NoDeeperAsked  bool
	NoRepeatTwice  bool
	NoDepthSaid    bool
	NoNestedRels   bool
	NoDirNests     bool
	NoNestedKin    bool
	NoReadNoKind   bool
	NoQuoteLabels  bool
	NoPlainDets    bool
	NoClosingWh    bool
	NoTWNouns      bool
	NoBareObject   bool
	NoMixedForms   bool
	NoFronted      bool
	NoPrepWh       bool
	NoOpenTitles   bool
	NoPossNests    bool
	NoPossChains   bool
	NoRelChains    bool
	NoAuxiliaries  bool
	NoPairedUnexpl bool
	NoRelativeThat bool
	NoFrontedRoles bool
	NoOfHeads      bool
	NoReqClauses   bool
	NoClauseAW     bool
	NoSaidTwice    bool
	NoSaidVerbs    bool
	NoPoliteWords  bool
	NoNounClauses  bool
	NoColonNouns   bool
	NoNamingCl     bool
	NoQuantTails   bool
	NoClauseComp   bool
	NoStatedLeads  bool
	NoElidedQs     bool
	NoBackRoles    bool
	NoStatedNames  bool
	NoDepthBack    bool
	NoPairWords    bool
	NoArgCompounds bool
	NoBeObject     bool
	NoObjBeyond    bool
	NoQuotedOpen   bool
	NoRelAnte      bool
	NoNounAnte     bool
	NoPaired       bool
	NoNameSubj     bool
	NoClosedFollow bool
	NoCompoundHead bool
	NoAddressedReq bool
	NoFuzzyOpening bool
	NoKindCompound bool
	NoPrefixTwice  bool
	NoTheirsTwice  bool
	NoWhSlotsFirst bool
	NoAskingClause bool
	NoFrontedCl    bool
	NoClauseSlots  bool
	NoSlotHeads    bool
	NoHyphLeads    bool
	NoReqTitles    bool
	NoMarkTitles   bool
	NoPersonOpens  bool
	NoPersonSlots  bool
	NoSlotKinds    bool
	NoDirMods      bool
	NoMarkedNests  bool
	NoNamedSteps   bool
	NoKindWords    bool
	NoAskingMents  bool
	NoPossessorWh  bool
	NoObjectWh     bool
	NoWhVerbSlots  bool
	NoFormSlots    bool
	NoMarkedFollow bool
	NoTitleObjects bool
	NoPrepOpenings bool
	NoTitlePreps   bool
	NoWhoseRels    bool
	NoBackTypes    bool
	NoImperOpens   bool
	NoMarkedSlots  bool
	NoCompSlots    bool
	NoPrepSlots    bool
	NoStemRels     bool
	NoHeldSlots    bool
	NoDetValues    bool
	NoPersonObjs   bool
	NoSpeakerVerbs bool
	NoOpenAdverbs  bool
	NoEmbedded     bool
	NoClauses      bool
	NoDepthPairs   bool
	NoCoWords      bool
	NoReturned     bool
	NoNonAnchNorms bool
	NoSharedWith   bool
	NoFuzzyNames   bool
	NoMultiword    bool
	NoTypeAfter    bool
	NoLeadVerb     bool
	NoAWLead       bool
	NoTrailAW      bool
	NoInflRels     bool
	NoContext      bool
	NoCasualCtx    bool
	NoHeadOf       bool
	NoNounHeads    bool
	NoOfValues     bool
	NoReqObject    bool
	NoObjModifiers bool
	NoQuotedYield  bool
	NoCasualFit    bool
	NoReadSamePOS  bool
	Flags          trainFlags
	Hidden         int
	Members        int
	MinF1          float64
	NoTwins        bool
	NoAttrs        bool
	NoNamed        bool
	NoFit          bool
	NoFitLead      bool
	NoFitLowest    bool
	NoFitLowerReq  bool
	NoFitLeadOf    bool
	NoFitSpeaker   bool
	NoFitFronted   bool
	NoFitQMarks    bool
	NoFitQuotes    bool
	NoFitAsked     bool
	NoFitAskedReq  bool
	NoFitReaderReq bool
	NoJoinSingles  bool
	NoPastRuled    bool
	NoFitPass      bool
	FitDraws       int
	NoCompose      bool
	NoNamedType    bool
	NoNamedRels    bool
	NoLexicon      bool
	Rescue         bool
	NoDeeper       bool
	NoCover        bool
	NoAddressee    bool
	NoPronounVerbs bool
	NoPhrasalVerbs bool
	NoFiniteVerbs  bool
	NoWhSubjects   bool
	NoWhPreps      bool
	NoInSituWh     bool
	NoInSituObjs   bool
	NoMarkedMents  bool
	NoPersonPron   bool
	NoPersonalPron bool
	NoAppositive   bool
	NoKindAnswer   bool
	NoDerivedFirst bool
	NoFormSenses   bool
	NoOpeningNoun  bool
	NoOpeningFirst bool
	NoOpeningLift  bool
	NoSlotLifts    bool
	NoWrittenAnch  bool
	NoWhAsks       bool
	NoSubjectVerbs bool
	NoAskedAW      bool
	NoObjectVerbs  bool
	NoFormRels     bool
	NoNamedFirst   bool
	NoVerbFirst    bool
	NoHeadsOf      bool
	NoWhichVerbs   bool
	NoWhichUnknown bool
	NoWhichSubject bool
	NoCompounds    bool
	NoCoAnchors    bool
	NoExplained    bool
	NoKinRels      bool
	NoMentionForms bool
	NoTitles       bool
	NoRoles        bool
	NoAskedBefore  bool
	NoCasedAnchors bool
	NoCasedAcross  bool
	NoInCompound   bool
	NoPassive      bool
	NoRelativeVerb bool
	NoInPassage    bool
	NoQuotedRival  bool
	NoTypeAfterMen bool
	NoFrame        bool
	Dense          bool
}

const trainPlannerLong = `Train MoR's planner without an LLM: a classifier over the metapath templates of
the training queries' plans, whose input is the node types of the entities
the query names, a hashed bag of words and, with the workspace's plans, the
dense query vector (when the workspace has a dense channel; with mined plans
only with --dense).

With the workspace's plans (the generator's ground truth, or plan files such
as MoR's imported with strata import --plans), restrictions come from entity
linking: each path's anchor is a mention linked to a node of the path's first
type, and the rest of the query restricts the target. Checkpoints are selected
by validation accuracy (exact metapath).

A workspace without plans (a real SKB: questions and answers only) trains from
mined plans (strata mine-plans; --mined, default WORKSPACE/mined-plans.jsonl):
the train split's plans of F1 >= --min-f1 are the labels. Templates are
relation paths with untyped anchors (a target type is kept when 90% of a
template's questions agree on it); a hashed linear scorer learns which mention
of the question anchors each path (its words and context words, the path's
first hop, how many of its nodes have that hop), from each example as it is
and again without the mentions' own words, so that it also learns an anchor's
context and shape, all it has for a mention whose words no training question
used (--no-bare-anchors is the ablation), and again without the words around
the mentions, so that a frame no training question used does not outweigh what
a mention's own words tell (--no-shape-anchors); at inference the most probable (template,
mentions) pairs are executed in turn until one reaches a candidate, and the
rest of the question restricts the target. A plan ranker (hashed linear,
trained on cross-fitted candidates of the training questions against their
answers) chooses among the candidates that reach something: their
probabilities, shape, reach size, how their reaches nest, how sharply the
restriction ranks them and how its best score compares with the other
candidates', the answer type the question's lead words expect, and how well the
question's words support the plan's relations (counts over the training
questions' words and mined relations). It also reads which parts of a plan the
question's words name, whatever the sentence around them: the type the question
asks for (its first word that names a node type of the schema, "movies",
"genres", or that came with one answer type in training, "who"; not a
determiner that asks for nothing, "Any drama films ...": --no-plain-determiners)
against the
type the candidate reaches, the role of each type it names (answer, anchor,
other), relations it names that the plan does not walk, and each frame word
with the plan's structure (a universal step, an intersection, the hops, an
attribute filter); --no-compose is the ablation. Frame words are the words the
training questions ask with rather than restrict by: in the restrictions of at
least max(5, 1%) of them, held by the document of an answer in under a tenth of
those ("what", "films", "starring"); restrictions leave them out, so "What is
the 2000 film starring X?" does not rank a film titled "What ..." first; they
are printed after training, and --no-frame-words is the ablation. Restrictions
score by BM25 plus the idf of each pair of adjacent restriction words a
document says together (a quoted definition, "chromosome 19"). Attribute keys
are learned from the training answers' text (a word such as "released" or
"language" that stands before a word of the question in every answer, and
before the questions' words at least 1.5 times as often as before the other
words of the same answers' text, so that filler words are not keys); each
restricted candidate whose reach states (key, a word of the question) is also
tried filtered to the nodes that state it (the plan's Attributes;
--no-attributes is the ablation), and the plan ranker chooses. A reached node
that a mention left in the restriction names ("which sense of the word 'root'
...") goes first when that mention's context words named an answer in the
training questions' candidates (smoothed counts), and the plan ranker sees
whether a candidate puts first a node the question names, with that probability
("which lymphatic tissue forms part of the lymphatic system" asks for a kind of
lymphatic tissue, not for it); --no-named is the ablation of both. The
classifier reads the dense query vector only with --dense: on WordNet it lowered
the validation MRR in 4 of 5 seeds (mean 0.9754 without, 0.9718 with; test Hit@1
0.9595 and 0.9533), and without it the planner is the same whether or not an
encoder was trained first. Checkpoints are selected by the validation MRR of the
plans executed (plan-exec); the plan accuracy against the mined val plans is
reported. With --members N the classifier averages the probabilities of N gates
trained together on the same batches, each from its own initial weights (the
first is the one gate of --members 1, the default, which trains the planner as
before). On WordNet two seeds flip 594 development questions against each other
with one gate and 529 with four (the ranker, anchor scorer and text-fit gate
move with the seed too), their totals 6,602 and 6,500 of 7,940 with one, 6,558
and 6,573 with four; docs/robustness.md has the measurements. A text-fit gate
knows when no plan fits: a logistic model over the query's hashed words and word
pairs, each quotation read as one word whatever it quotes (a question that cites
a gloss reads by its own words; --no-fit-quotes), trained on the training
questions against as many passages of the SKB's own candidate documents (their
text fields but name and alias fields: text that describes a node and asks for
nothing), each also as typed casually, in lower case without a closing mark
(--no-casual-fit): the mean of --fit-draws gates (default 4), each against its
own draw of passages. Its threshold passes one in 8,192 of up to 65,536 held-out
passages, a quantile where the highest of a few thousand, the rule before it,
moved with the seed (WordNet 0.25-0.52 over three seeds); --no-fit-pass
calibrates it as before: the lowest that separates the val questions from as
many held-out passages as well as any threshold does, just above the highest
passage below them (--no-fit-lowest: the model's own boundary, 0.5, when that
separates them as well, else the middle of the gap). A query below it (a
definition, free text), or of more than 128 words (planning reads mentions
against each other; STaRK's longest question has 101 words), gets no plan and
plan-exec answers it by the text channel, counted as a fallback in eval, score
and serve: with --text auto (the default) and a workspace with a dense channel,
whichever of BM25, bm25+dense (BM25 fused with the dense channel, RRF) and
reading (stemmed BM25 over documents with their neighbours' names, fused
with the dense channel, reranked by the node type the query's words
suggest; docs/real-data.md) ranks the val questions best (MRR), pinned to
those vectors (another encoder's make the run refuse to load), else BM25;
--text bm25 keeps BM25;
with --fit-rescue it keeps its plan when the planner is surer of it than of its
plans of 95% of those held-out passages (a question in words the gate never
saw; off by default: on WordNet it gained 0.4 points on paraphrases and put
one GCIDE definition more out of the top 10 than BM25); --no-fit is the
ablation (every query planned). A word no training question
used ("helmed", "penned", "performers") is read as the nearest word the planner
knows that names a type or relation (the schema's words, and training words the
training questions bear out for one), by a general English lexicon embedded in
the binary (WordNet 3.0: the same base form, a synonym in the most frequent
sense of either word, or one hypernym link
from the word's most frequent sense), in the form the training used between the
same neighbouring words; words that name nodes, quoted words, and words whose
nearest known words name different relations stay as they are. With the lexicon
a word also names a schema word it shares a base form with ("wrote"
written_by). The text-fit gate reads through it too. A closed compound neither
the training nor the lexicon knows is read, when planning, as the compound the
lexicon knows with a synonymous modifier ("moviemakers" as "filmmakers"), else
as its head noun ("screenwriting" as "writing"; --no-compound-words). strata explain prints the
question as read; --no-lexicon is the ablation. Right after an article, a
possessive, or an asking word no noun comes right before (not in "films which
feature X"), a word that may be a noun is read through its noun senses alone
("Which type of movie": not "wrote", though to type is to write;
--no-noun-slots). A noun in the singular with no determiner between a
preposition or an auxiliary verb and a name is the name's title, read as a
verb of the relation it names ("movies by director X" as "movies by directed
X": it asks for no directors), or left unread where another word names another
relation ("Which films did writer X direct?"; --no-titles), and so is one
opening the text before a name ("Director X: any comedy titles?";
--no-opening-titles); one right after "as" is the role a name played, read so
whatever other words name ("Which of X's movies as director had Y acting in
them?"; --no-roles). When the words of a question rule out every candidate plan
(it names a type or a relation none of them answers with or walks), up to 2 more
templates are tried, the most probable of those that walk a relation for each
word naming one ("What person penned the films X appeared in?" in a frame the
classifier never saw); when no candidate of the top templates reaches a node, up
to 8 more are tried, the most probable that some mention anchors ("What is X
made up of?": X has parts, no kinds); --no-deeper-search is the ablation of
both. Where two candidates of one-path templates anchor on mentions apart from
each other, the template that intersects their two paths is a candidate too,
however improbable the classifier finds it ("Which seating area do they use in
UK?": the region's terms and the seating areas, not a seating area from
anywhere; --no-join-singles); a run's checkpoint is still chosen by the
validation MRR of the classifier's own candidates (val/mrr-proposed, recorded
beside the metrics it serves), and it is the earliest whose MRR is within one
validation question's share (1/|val|) of the highest: later epochs that beat it
by less have fitted the training frames longer (--exact-best takes the
highest). When the type the question asks
for rules out every candidate, the templates tried end with a step the data's
edges take to that type ("What types of movies did X direct?": the genre every
one of X's films has); a deeper search tries only templates whose first step
the data's edges take from the anchors' types, and those it tries for a longer
mention walk the relations the question names ("Who wrote the script of Primal
Fear?": its writers, not the cast; --no-deeper-asked). Where the training's
questions that say a word twice before "of" mostly walk one relation twice in a
row (20 or more of them; WordNet's "the subtypes of the subtypes of X"), a
question that does so ("hyponyms of hyponyms of X", in words the training never
used) rules out a candidate that walks no relation twice, and the deeper search
tries templates that do (--no-repeat-twice); so do two different words the
training bears out for one relation ("the subtypes of the kinds of X";
--no-nested-relations), a word it never used read as one ("the types of the
varieties of X") or a close synonym of one ("the forms of the kinds of X";
--no-nested-kin), and a word said again after a possessor ("hyponyms of X's
hyponyms"; --no-possessive-nests), right after itself as a possessor ("whose
hypernym's hypernym is X"; --no-possessive-chains) or right after "whose" ("a
hypernym whose own hypernym is X"; --no-relative-chains), and so does a noun's plural
or a preposition of place said twice anywhere outside the quotations ("What is
below the things directly below X?"; not "Name the ... trade name", nor "among
... among"; --no-said-twice) or before a noun's plural and "of" ("What lies
beneath the hyponyms of X?"; --no-direction-nests), also past adjectives ("below
the direct subcategories of X"; --no-direction-modifiers), but not a word an
object pronoun follows once, a verb ("A X carries the note Y. Which X carries
it?"; --no-said-verbs), nor words before "of" with a phrase mark after the first
"of" ("Raw material of X, a kind of Y?"; --no-marked-nests); a
candidate that walks one relation twice and a step straight back
("<-hypernym <-hypernym ->hypernym", the siblings of the kinds) walks nothing
deep there (--no-depth-back). Where nine in ten of the
training's questions that walk one relation twice or say a depth ("two",
"second", "twice" or a nested word) do both, a candidate that walks one twice
where the question says no depth weighs just above the words it leaves
unexplained ("Of the senses of odyssey, which are a kind of journeying?"), and
one that walks none twice where it says two is ruled out as above ("Which words
sit two levels below rima?"; --no-depth-said; "a couple" or "a pair" of levels
says two as well: "What sits a couple of rungs beneath X in the taxonomy?";
--no-pair-words); so does one that walks two different steps in a row that 20 or
more training questions walk, nine in ten
of them saying a depth (WordNet's hypernym then instance hypernym: "Name some
particular examples of resort area" asks for no instance of a kind of resort
area; --no-depth-pairs). After the templates of the
training's plans come one step along each relation of the schema, either way,
that no training plan is ("Who directed X?" from a film, where the training
asked only for a person's films); the classifier scores none of them, so they
are tried after every trained template, by the searches above
(--no-schema-steps); after them two steps along the schema's relations whose
node types chain, as the data's edges say, that no training plan is ("Who wrote
the movies that X directed?", the writers of a director's films;
--no-schema-paths), tried only where a named type or relation rules out every
candidate, from the anchor of the ranker's choice among them, or where no
candidate reaches a node, and chosen only where no other candidate is left. Among
templates the classifier finds equally probable (every schema step and path), a
deeper search tries those that walk fewer relations the question leaves unnamed
first, and on a longer mention it tries the schema's paths too ("Which films
share a screenwriter with X?": the films of X's writers, not of its director;
--no-named-first). When what a question names rules out every candidate that
reaches a node and its first two words all but rule out the type the best one
answers with (below 1% after them in the training, smoothed), no plan fits: the
text channel answers, counted as a fallback, and explain says why
(--no-decline-ruled-out). A candidate that reaches a node
named by a longer mention around its anchor ("membrane" in "What varieties of
semipermeable membrane are there?" reaches "semipermeable membrane") is ruled
out when another is not: the question names that node whole, it is not an
answer; and so is one anchored inside a longer mention ("helmet" in "crash
helmet") when a candidate anchored on the longer one, ruled out by nothing
more, reaches a node; --no-outer-anchors is the ablation. So is a candidate
anchored on a word the training questions never anchored (unquoted in 5 or
more of them, anchored in at most 2%: "things", "kinds"; in 100 or more, at
most 10%: movies-skb's "What", a film's title; counted by their singular forms
and where unquoted, so that "terms" is ruled out as "term" is, and a word quoted
once, the word a question asks about, is still one; a quoted mention is not
ruled out: --no-non-anchor-norms), one anchored on the question's first word
when the lexicon knows it as a verb's base form ("Tell me what ...": a request)
or on a word followed by "of" ("what type of cuisine ...": --no-head-of), on a
part of a hyphened word ("near" in "near-synonyms": --no-in-compound; not one
that "like" or a verb's inflection follows: "geared-like", "X-directed":
--no-argument-compounds) or on a verb's participle right after a form of "be"
("used" in "is used in": --no-passive) or on a verb's inflection right after
"that", "which" or "who" ("falls" in "the sense that falls under X":
--no-relative-verb; not after a pronoun that follows a stop word, which asks:
"the name of which baked goods?": --no-relative-antecedents, nor one that
follows a word the lexicon has only as a verb: "denotes which baked goods?":
--no-noun-antecedents) or on a word inside a quotation of more words than it
("resist" in 'glossed "resist or withstand wear"', a passage quoted to be
matched, as a template's first anchor; a later one may be the whole a definition
names: "the urban center that is 'a city in central Chile'": --no-in-passage),
where the training anchored at most 2% of
such words, one anchored on a question's auxiliary "do", "does" or "did" after
a question word of its clause ("What do you get two rungs down from X?", whose
"do" names a syllable on WordNet; --no-auxiliaries), one anchored on an
unquoted word right after a word (not a stop
word) that at most 2% of the training's mentions after it were anchors ("Which
specific individuals ..."), counted apart for numbers and for names ("from",
which only came before years, rules out "movies from 1990" but not "films from
Ridley Scott": --no-mention-forms), unless "the" comes before that word ("the adjective
fruitful" names the word's kind: --no-appositive), and one anchoring on an unquoted word a template
path whose anchor the training quoted (near-synonyms of 'X'; this one weighs
less than a word the plan misses, since users quote nothing:
--no-quoted-slots-yield; and it counts only where the question quotes another
word the slot may take, "Which adjectives mean nearly the same as 'covered'?"
against "same", not "near synonyms of inebriated defined with "influence"":
--no-quoted-rival); --no-non-anchors is the ablation of the four. The text-fit
gate reads such an opening verb as one word for all of them, so "Give me ..."
reads as the training's "Name ..." (--no-fit-lead-verbs), also typed in lower
case when "me" or "us" follows it, as no gloss opens ("give me a ...";
--no-fit-lower-requests, which --no-fit-lead-verbs and --no-fit imply), and a
text opening with its speaker as a verb's subject reads from that verb ("I need
the word under X ..." as "Give me the word ..."; --no-fit-speaker-requests,
implied the same way), and so does a request after a phrase fronted before it
and closed by a comma ("Of all the senses of 'daze', pick the one ...";
--no-fit-fronted-requests, implied the same way). A text closing with a question
mark is planned whatever the gate says: it asks something, and the gate, which
learned the training's wordings against the SKB's documents, reads a question
worded otherwise ("A sandwich used chiefly in the UK?") as a description
(--no-fit-question-marks); so is a text holding a sentence that closes with one
outside its quotations ("Did X act in 2008? Name them.";
--no-fit-asked-sentences): the question marks of the SKBs' documents are quoted
examples or tags. So is a text holding a later sentence that opens with a
request's verb ("X has components. Tell me the Y among them.";
--no-fit-asked-requests), which the gate cannot learn: no training question asks
so. So is a text that addresses its reader ("the shrub one, please.", "... and
tell me who lives there", "...; pick it out."; --no-fit-reader-requests): no
passage of either SKB is written so. An unseen word that names a node is read as
its known word when that word names a relation of the schema and no type
("pieces": parts), the word before it is not one the training's
anchors mostly follow ("of"), and another mention is left to anchor on
(--no-read-mentions); a word read anchors no plan, a question's anchors being
the words it writes ("Two levels down from isopod, what concepts exist?" read
"exist" as WordNet's "being" and walked down from it; --no-written-anchors); a
word right before a quotation that names no node labels it and is not read as a
word of a relation ("defined with the fragment '...'":
no part; --no-quote-labels); a noun an unseen word is read as that names a relation
with the schema's own words and that fewer than 5 training questions used
names that relation ("examples": instance, of instance hypernym;
--no-named-relations ablates it with the rest); a word no training question
used outside its anchors that names nothing names what its base form names
("Which stars appeared in ...": "star", starred_actors; --no-inflected-relations,
which --no-named-relations and --no-lexicon imply), and what the other forms of
its base the training used name ("Which movies share an actor with X?":
"actors"; --no-form-relations), and a noun formed from a verb by a suffix
names what the verb's forms name ("Whose direction did X work under?":
"direct", "directed"; --no-stem-relations); a word the training used whose plans bear out
no relation names what its other forms name, where they name one and its own
plans walk that one most ("direct": 72 of 122 directed_by, its plans mixed by
directors who wrote their films; --no-mixed-forms). A word that comes with two
relations in its training questions keeps only the one the question's other
words leave it, where that is at least 90% of its questions, it is a noun or
verb, and its other forms the training used name it too: "appeared", in "actors
who appeared in films directed by X", keeps starred_actors once "directed"
explains directed_by, and then names it ("Who appeared in X?" asks for the
cast, not the director; --no-explained-words). A word 90% of whose training
questions walk one relation names it also where the lexicon puts it one link
from the relation's schema words in some sense of each: "script", from "direct
from a script by X", names written_by ("Who scripted X?"; --no-kin-relations). A plan
should use what the question names: among the candidates left, those that
leave fewer of its mentions unexplained (no anchor covers it or names its node,
it names no node reached, the first answer's document does not hold it) win,
and when every one leaves some, up to 2 more templates anchored on all of them
are tried ("Which comedy movies featuring X?" answered by X's films leaves
"comedy"); only mentions of the node types the training questions' plans
anchored on at least half of the time count, and not texts they mostly did not
anchor ("what"), and mentions of two or more words of the types whose such
mentions the plans anchored on at least half of the time, borne out by a 95%
Wilson interval (WordNet's "dining room" in "Which type of furniture is found
in dining room?"; not in a scene before the question; --no-multiword-types);
--no-cover-mentions is the ablation. Where no candidate left is ruled out and
the plan ranker's choice and another that reaches nodes are anchored on one
unquoted name each, apart, the templates of two paths anchored on both are
tried too ("Find a vasodilative that is labelled trade name.": its kinds'
definitions say "trade name", so both one-name plans explain both names;
--no-paired-anchors), and so do templates anchored on the choice's name and
that of a one-name plan ruled out only for leaving the choice's name
unexplained ("What sandwich do people in United Kingdom have a word for?";
--no-paired-unexplained). A name right before a verb that names one relation (a
do- or have-auxiliary between allowed; no preposition before the name, no -ing
form, no "by" after the verb) is the verb's subject: "Titles where X directed
and Y acted?" anchors both, each on a path that walks its verb's relation
first, not the directors of Y's films (--no-name-subjects). A word the
training questions never anchored after rules out any mention after it where
it is a noun and no adjective or its followers in the training were open (five
or more seen in one question alone), and otherwise only a mention whose first
word is one of them or related to one in WordNet: "specific" stood only before
"kind", "type", "way" and "manner", so "A more specific swayer, meaning ..."
may anchor on swayer, and "a specific sort of" still anchors nothing on sort
(--no-closed-followers). The noun heading a compound in an asking word's slot
names the type asked for where it names one and no verb's form can be it:
"Which film directors has X worked for?" asks for people (--no-compound-heads),
and so it does in an asking clause: "Stories by X: which film categories do
they fall under?" asks for genres (--no-clause-compounds). A request put to
"you" asks as the request does: "Could you name the screenwriters of ...?" as
"Name the screenwriters of ..."
(--no-addressed-requests). A sentence's first word is capitalised whatever it
is, so it is no misspelt one-word name by its capital alone: "Whose
performances ..." is not read as the film Whore (--no-fuzzy-openings). A
mention hyphened to "type", "sort", "variety" or another word one link from
"kind" in WordNet is that word's argument, as before "-like": "Which
impervious-type adjectives ..." anchors on impervious (--no-kind-compounds).
A prefix hyphened to a plural that opens with it again says the relation
twice, as a word said twice does: "What are the sub-subcategories of X?" asks
two levels down (--no-prefix-twice), and so does "theirs" after a plural a
possessive owns: "X, then its subtypes, then theirs" (--no-theirs-twice). A
type named right after "which", "what"
or "whose" is the one asked for before any other asking word's: "Each picture
X directed is a film of which genre?" asks for a genre, though "is" asked in
the training (--no-wh-slots-first). A last clause that asks after clauses
that state asks for the type it names: "X directs films of only one genre.
Name that genre." asks for a genre, "X directed some films; who filled the
acting roles in them?" for people (--no-asking-clause). So does a clause after
a comma that asks after a phrase that states and names a type: "For films
whose scripts came from X, list the cast members." asks for people
(--no-fronted-clause), and so does one after a fronted capacity, "as" and a
determiner before a word naming a type, loosely too: "As a director, what is
the only genre X has worked in?" asks for a genre (--no-fronted-roles). A
pronoun closing an asking clause refers back to the head before "of" where it
names a type: "X writes just one genre of film. What is it?" asks for a genre
(--no-of-heads). A request opens the asking clause after a comma whatever the
phrase before names, and past "and" and its speaker: "For X's 2000 directing
work, list the cast members." and "In 2000, X made some films as director,
and I'd like the casts of those." ask in their last clause
(--no-request-clauses); where no answer word comes before a candidate's first
anchor, the asking clause's nouns are its answer words, "cast" naming the
cast's step (--no-clause-answer-words). Words of courtesy set off by a comma,
closing the question or before a request's verb are left out: "Cast lists,
please, for X's 2000 films." asks as "Cast lists for ..." does, and "Could you
please name ..." as "Could you name ..." (--no-polite-words). A noun phrase
put as a question after the clauses that state asks as a request would: "X
penned a number of films; their casts?" asks for people (--no-noun-clauses).
A question word standing alone as the last clause asks for what the last
indefinite noun phrase before it names: "X's screenplays all share a
category; which?" asks for a genre (--no-elided-questions). A pronoun closing
the asking clause refers back past a capacity stated with "as": "I recall X
acting in something Y made as a director; name it." asks for the film
(--no-back-past-roles). A title may open a phrase after a mark: "Japanese
language films, director X" asks for X's films, not for directors
(--no-mark-titles). A noun phrase after a colon closing the text asks without
a "?" too: "X 2008 films: the directors" asks for the directors
(--no-colon-nouns), and so does one as the subject of a naming verb's passive
closing the question: "Writer X, director Y: the movie is called?" asks for the
movie (--no-naming-clauses); a quantifier set apart by a comma closing such a
phrase adds nothing to it: "their directors, all of them?" asks for the
directors (--no-quantifier-tails). The nouns before the first name in a
sentence that states, before the last one that asks, say what the name is: "My
two favourite actors are X and Y. Did a film ever feature the pair of them?"
asks for no actors (--no-stated-leads). A plan that walks every relation another plan from the
same names walks, and more, to answer with other types, gives way to it where
no word names a relation of that more or a type it answers with: "Do you
happen to know the title of whatever X directed back in 1970?" names directing
alone, and asks for X's films, not their cast (--no-named-steps). A word read
as a kind of a type that opens the text, past determiners alone, names that
type: "Screenwriters behind X's movies as an actor?", read "Written behind
...", asks for people (--no-kind-words). A mention that is an asking
determiner alone leaves the type word after it to the question: "Y played a
part in what film?" asks for a film, though "what" names the film What?
(--no-asking-mentions). Where the training opened too few questions with
"whose" to say what it asks for, "whose" opening the question, or an asking
clause after a colon, a semicolon or a sentence's end, asks for what "who" asked
for: "Whose faces are seen in the movies X wrote?" asks for people
(--no-possessor-wh). So does "whom" opening a question, where the training
opened too few with it: "Whom has X put in front of the camera?" asks for
people, not X's films (--no-object-wh). The word after "who" (a question word
that determines no noun) is its verb, read as no kind of a type: "Who shows up
on screen when X is directing?" asks for people, not shows, films
(--no-wh-verb-slots). A template slot whose best mentions the question's form
all rules out as anchors also tries the best one it does not: "Go two levels
down from X in the taxonomy" tries X, not only "two", "down" and "taxonomy"
(--no-form-slots). Nor does a mention the form rules out take the place of one
it leaves open: "Moving down from X through the kind-of links twice" tries X
beside "down" and "links", though "kind" ranked above it
(--no-slots-past-ruled). A word no training question anchored after rules out no
mention a colon, a comma or a dash sets apart from it: "Broader term: X. Word?"
may anchor on X (--no-marked-followers). A first word followed by a bare
singular noun and then a name is no request's verb, the noun being the name's
title: "Cast member X; release year 2000; titles wanted." asks for no member
(--no-title-objects). A first word followed by a preposition opens no request in
the clauses before an asking one: "Back in 1998, X directed a film. Who starred
in it?" asks in its last clause (--no-preposition-openings). A bare singular
noun before a name is the name's title after 28 more English prepositions, not
only the nine commonest: "the collaboration between director X and writer Y"
asks for no directors (--no-title-prepositions). An answer word right after a
"whose" that opens a relative clause says what the clause's antecedent has, not
what is asked for: "Features from 2000 whose cast includes X" asks for films,
not for their cast (--no-whose-relatives). A pronoun closing the asking clause
refers back past a type word that says what the mention before it is:
"Productions of the drama kind with X on screen: list them." asks for no genre
(--no-back-past-type-words). A first word that is a verb and is followed by a
determiner opens a request and names nothing asked for: "Break every type of X
into parts: what parts come up?" asks for no break, a kind of event
(--no-imperative-openings). A word after "which", "what" or "whose" is read as a
noun also where a noun comes before the asking word with a mark between: "X's
directorial output; which label is it?" is not read "which directed is it?"
(--no-marked-slots). After a singular noun read there, a word in its base form
that is a noun too is the compound's head and is read as a noun: "Pick the genre
label for X's work" is not read "the genre directed" (--no-compound-slots).
So is a word right after a preposition, where no verb's base form stands:
"Sort by type the pictures that cast X" is not read "by wrote"
(--no-preposition-slots). A noun read in a noun slot keeps the type it names
as a kind, though it is a verb's form too: "Which authors supplied scripts to
..." is read "Which written ..." and asks for people (--no-slot-kinds).
Where no training question states one of its answers (movies-skb's; WordNet's
name theirs, "Which sense of the word 'digit' ..."), a name that a
candidate's answers hold leaves its mention unexplained all the same:
"Sometime, X was the director and Y had a part. Tell me where." asks for the
films both made, not for the directors of Y's films, X among them
(--no-stated-names). An asking clause's noun names its type also through what
the training questions taught ("list the actors"),
where it lifted towards that type alone, and a compound's head names it
("list the cast members"; --no-clause-slots). "Which of the 2000 releases ..." asks as "Which
2000 releases ..." does, and "which new releases" as "which releases"
(--no-slot-heads). A first word hyphened to the next is no request's verb:
"Second-generation hyponyms of X, please." asks for no generation
(--no-hyphened-leads). A title may follow a request's verb: "Name director X's
features in the comedy genre." asks for X's films, not for directors
(--no-request-titles). Where a candidate's anchor fills the slot of "which",
"what" or "whose" at its clause's end, no other word names the type asked
for: "Someone working in baseball would use which piece of ground?" asks for
no person (--no-held-slots). A word that may be a verb is a noun after a
determiner past values too: "Give the 1998 cast of anything directed by X"
asks for the cast (--no-determined-values), though not right after "that" or
"which" after a noun, which open a relative clause: "I'm after films that cast
X alongside Y." asks for films (--no-relative-that). A request whose object is
"everyone", "someone" or the like asks for what "who" asked for in the training
questions: "Give me everyone cast in a film X was the writer of." asks for people
(--no-person-objects), and so does "everyone" or "everybody" opening the text:
"everyone cast in X-directed films" (--no-person-openings), or after a request's
verb that is an asking word: "X made a film in 1998 as director; list everyone
acting in it." (--no-person-slots). A verb whose subject is
the speaker or the addressee says how the question is put and is not read as a
known word: "I'm looking for the films X directed" is not read "I'm appeared
for ..." (--no-speaker-verbs), and neither is a participle opening the
question before its preposition, past adverbs too: "Looking only at films in
Spanish, ..." (--no-opening-adverbs). A question put inside the speaker's or the
addressee's words opens at its question word, its subject and verb in a
statement's order read as after an auxiliary: "Do you know what X directed in
1969?" asks as "What did X direct in 1969?" (--no-embedded-questions).
"me" or "us" after a verb's base form
("Tell me which ...", "can you give us ...") is the request's addressee and
anchors nothing, though a node's name may be "ME" (Maine); one written all in
capitals still may (--no-addressee). The type a question asks for is read from
the word after an asking word first (words after which a type word named the
answer's type in 90% of the training questions: "which films"; letters only,
not "2001"), so a verb the training used only in other questions' frames does
not decide it; a word that names no type with the schema's words names the one
whose word is in the lexicon's most frequent noun sense of it ("films": movie;
quoted words name none; --no-synonym-types); to rule candidates out, a noun no
training question used names the type whose schema word's sense is the nearest
of its hypernyms, up to 4 links ("Which screenwriters ...": person), also when
it is read as another word (--no-kind-types; not a word read as a training
word of its base form or a synonym, which names what that word's questions
bear out: "varieties" as "kinds", no taxonomic group; --no-read-no-kind), or whose schema word's sense is
a kind of one of its senses, up to 2 links ("Which category ...": genre, a
kind, a category; --no-general-types), or, failing those, the type one of
its own hypernyms names so ("Which type of movie ...": a type is a kind, as a
genre is; --no-sibling-types; after an asking word such a noun may be a verb
too), and a question's first word, a
verb, asks as an asking word does, past stop words ("Name the 2008 releases
..."; --no-lead-verb-asks), its addressee ("Give me the ...") and, for a verb
the training made an asking word, the determiner after it ("List the writers
of ..."; --no-request-object) and a word the lexicon has only as an adjective
("List the other movies ..."; --no-object-modifiers), and a question with neither names it with the noun
it opens with, past a year ("2005 releases directed by X, please": films;
--no-opening-noun; a quoted one names none: "'cake' is the name of which baked
goods?"; --no-quoted-opening; where no question word occurs in it, before the
slot of an asking word after it: "Genre labels attached to films X penned?"
asks for genres, not for the films after "to"; --no-opening-first; by the type a
training lift gives it where nothing else names one and 90% of the 5 or more
training questions with it asked for that type: "People seen on screen in X's
scripts?" asks for persons; --no-opening-lift), or failing all these, with
its question word where 90% of the
5 or more training questions it opened asked for one type ("Who plays in X?": a
person, not X's genre; --no-wh-asks); a question word closing a question that
none opens, in its subject form, asks so before any type the words before it name
("X's films were written by whom?": people, not films; --no-closing-wh), as
does one asked in place after a preposition, with no verb of its own clause
after it ("X has taken direction from whom over the years?"; --no-in-situ-wh),
or right after a verb, its object ("X's 1970 directing job put whom in front of
the camera?"; --no-in-situ-objects); a
word most documents of one type say names that type only in a noun's form ("1993
releases" of "released"; "is tagged with what genre?" asks for a genre, not the
films "tags" names; --no-type-word-nouns), and the
verb right after such a question
word (and an auxiliary), before the anchors, has the answers as its subject: a
relation it names ends the plan ("Who has acted in a movie alongside X?": the
actors of X's films, not their directors; --no-subject-verbs), also after a
question word and the nouns it asks with ("Which actors appeared in ...";
--no-which-verbs), a lower-case word the lexicon knows in no form among them
("Which helmers directed ..."; --no-which-unknown), and the type asked for is
named before that verb or not at all ("films" in "Which folks starred in the
films X wrote?" is its object; --no-which-subject), and an anchor after "together with", "alongside", or "with"
right after that verb walks the verb's relation first (X's co-stars;
--no-co-anchors), and so does a word "co" makes of a word naming a relation
("Who were the co-stars of X?", "Name X's co-writers", "Who co-directed movies
with X?"): the relation is walked from the anchor into a node and back out, or
from two anchors into one (--no-co-words), and so does a form of "share" with
"with" after it, along the relations the words between name, or any ("Who has
shared the screen with X?": --no-shared-with); a word neither the lexicon nor
the training knows is read as the name one letter from it where that names a node
and plans ("Tom Hansk": Tom Hanks; --no-fuzzy-names); a plan that reaches only the anchors
it walks straight back to (the co-directors of a film directed alone) reaches
nothing (--no-returned-anchors); an answer word whose
step ends at no type the question names as asked for is passed over for the next
("Which other films were directed by the director of X?": films, not the
director; --no-asked-answer-words); a question that puts its subject between a do-
or have-auxiliary and its verb asks for what the subject does: no plan that answers
with the subject, or walks the verb's relation anywhere but last ("What else did the
director of X direct?": his films; --no-object-verbs), and where the subject is the
anchor alone and a noun names the object, or "with" follows the verb, the verb's
relation is walked from the anchor, first ("Which stars has X directed?": the cast
of X's films; "Who has X acted with?": last too; --no-verb-first), as it is,
first and last, after a bare question word ("What has X appeared in?": X's
films, not the cast of the films X directed; --no-bare-object), and so is it
after a form of "be" right after a bare question word ("What was X acting in?",
"What was X directed by?"; not "Who was in the films X wrote?", a copula;
--no-be-object), but where the bare question word asks for a type (one that
asked for it in the training's questions) the verb's relation does not reach
from the subject, the answers are what the verb's object leads to: the relation
is walked first and not last ("Who did X direct in 2001?": the cast of X's 2001
films, not X's co-directors; --no-object-beyond). A phrase that opens a question
before its question word, closed by a comma, leaves the question word opening it
for these rules ("In Hebrew, what has X appeared in?"; --no-fronted-phrase), and
so does a preposition right before it ("By whom has X been directed?" asks for a
person; --no-preposition-wh). A type word right after an anchor that names the
anchor's type says what the anchor is ("titles in the comedy genre that
feature X"; --no-type-after-anchor), and so does one after any mention naming a
node of that type, anchor or not, for the type asked and the answer words
(--no-type-after-mention), but one right before an anchor, after an
asking word, names the type asked for where the anchor is of another ("Which
person made the film X ...?" anchored on "made", a film;
--no-asked-before-anchor). Of two anchorings of a template that differ in one
mention, one in lower case of a capitalised name gives way to one with a
capital letter ("made", the film Made, to "Germinal"; --no-cased-anchors), and
so to another template's anchoring on a capitalised mention it leaves ("the
stars", the film The Stars, to "The Ring"; --no-cased-across). A
question's sentences before its last,
a question, that name only people or genres it names too are context: the last
is planned (--no-context-sentences); also in text typed in lower case, and
when they name nothing of the schema ("i'm trying to remember something. what
did X helm in 2005?"; --no-casual-context). A noun before a question's first
anchor names the step that ends the plans of at least 90% of the 5 or more
training questions that used it there ("Which directors ...": ->directed_by;
a noun that may be a verb only after a determiner or opening the question
before a preposition, "cast of films directed by X", whose "films" then names no
asked type, --no-noun-heads, nor past a year, "cast of X's 1926 films",
--no-of-values, nor after a noun that names the answers by a relation further on,
"Name the cast members of X's films", --no-heads-of; one that names a type only where those questions
asked for that type; not where the question's first two words give the type the
step ends at a probability below 1%: "Who wrote the screenplay for X?",
--no-answer-words-lead); in a question with no noun before its first anchor, a
noun right after its last anchor, where a noun phrase has its head ("The Bang
Bang Club director"; --no-trailing-answer-words); where no such noun stands
before the anchors, an unseen noun there read as a word naming a relation names
the step of that relation that ends at the type it is a kind of ("Name the
writers behind the films X appeared in", read "Name the written ...":
->written_by, to people; --no-kind-answer-words). The first such noun rules out
the candidates that end otherwise, and when it rules out all of them, up to 2 more
templates that end with its step are tried ("Which filmmakers have cast X?",
"Which directors made movies out of X's scripts?"; --no-answer-words). Of the
known words an unseen word may be read as, one that may be a noun and may be a
verb where the word may is preferred ("performers" as "actors", not "star";
--no-read-same-pos); a word derived from another is read as a known word only
through that word's most frequent sense ("work", whose doer is a worker, is no
"actors": --no-derived-first-sense), and through the senses of the parts of
speech it is a form of each base in ("narrower", an adjective's comparative, is
no "change", a hypernym of the verb narrow; --no-form-senses). A verb in lower
case right after an auxiliary and a subject pronoun ("Which pedlar would you
hear mainly in Britain?") names no node (--no-pronoun-verbs), nor does a verb and
its particle in lower case where the verb is in its -s form or opens the
question ("what geological formation turns up?", "Go down two levels from X";
--no-phrasal-verbs), nor a one-word verb in lower case that is its clause's
finite verb: an -s form that is no noun's plural ("Go two generations down from
X; what sits there?") or a base form right after a plural noun, its subject
("Which nouns sit two hyponym links under X?"; --no-finite-verbs). A mention
whose words span a clause's end or a quotation's edge ("Each kind of X has
parts; name them.") names no node unless the node's name holds the mark too
("Mission: Impossible"; --no-marked-mentions), and an indefinite pronoun for
people ("I heard someone say ...") names none unless quoted alone or after a
preposition ("a kind of someone"; --no-person-pronouns), nor a personal or
possessive pronoun in lower case, unless quoted alone ("their directors, all of
them?", not the film Them!; --no-personal-pronouns), nor a verb's -s form
right after "what" or "who", its subject, closing its clause ("...: what
results?"; --no-wh-subjects) or followed by a preposition of place ("What
falls under X ...?"; --no-wh-prepositions). Training stops early
once the validation MRR has not improved for --patience checkpoints (default
6: on WordNet it rose again after four flat epochs, at epoch 13 of 20;
--patience 0 runs every epoch). Linking the training questions and building the
plan ranker's candidates run on all cores, with a bar (rate, time left) on a
terminal and otherwise a line when a stage starts, every 15 s while it runs and
when it ends; each checkpoint's metrics get a line too. The run directory's
pipeline.json serves the planner's plans executed (plan-exec with the planner:
the row checkpoints are selected by), so strata score --pipeline RUN, bundle
and serve give what eval --planner RUN --method plan-exec gives; the last line
prints that row on val. Other plan-based methods plan with it in eval
(--planner RUN) and in pipelines (a stage {"method": "simgrag", "planner":
"RUN/best"}).`

// plannerPatience is train planner's default --patience: checkpoints
// (epochs) without a better validation MRR before training stops.
const plannerPatience = 6

func newTrainPlannerCmd(u *ui) *cobra.Command {
	var o trainPlannerOptions
	cmd := &cobra.Command{
		Use:   "planner WORKSPACE [--mined FILE]",
		Short: "Train the native query planner (metapath template classifier + entity-linked restrictions)",
		Long:  trainPlannerLong,
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.WS = args[0]
			return runTrainPlanner(cmd.Context(), u, o)
		},
	}
	// Early stopping as every trainer's, with more patience: the
	// validation MRR peaks well before the last of 20 epochs on real SKBs.
	o.Flags.bind(cmd, 20, 64, 3e-3, plannerPatience)
	cmd.Flags().IntVar(&o.Hidden, "hidden", 128, "classifier hidden units")
	cmd.Flags().IntVar(&o.Members, "members", 1, "gates the template classifier averages, each from its own initial weights (planner from mined plans)")
	cmd.Flags().StringVar(&o.Mined, "mined", "", "mined plans file to train from (default WORKSPACE/"+mine.DefaultFile+" when the workspace has no plans)")
	cmd.Flags().Float64Var(&o.MinF1, "min-f1", 0.5, "least F1 of a mined plan used as a label")
	cmd.Flags().BoolVar(&o.NoTwins, "no-ranked-middle", false, "mined plans: never rank a plan's middle nodes by the question (no ranked twins; the ablation)")
	cmd.Flags().BoolVar(&o.Dense, "dense", false, "mined plans: also feed the dense channel's query vector to the template classifier (off by default: it lowered WordNet's validation MRR)")
	cmd.Flags().BoolVar(&o.NoNamed, "no-named", false, "mined plans: never move a reached node that the question names, and the plan ranker does not see one first (the ablation of the named-answer counts)")
	cmd.Flags().BoolVar(&o.NoFitQMarks, "no-fit-question-marks", false, "mined plans: a text closing with a question mark meets the text-fit gate as any other text does, not planned whatever the gate says (\"A sandwich used chiefly in the UK?\" then goes to the text; the ablation)")
	cmd.Flags().BoolVar(&o.NoFitQuotes, "no-fit-quotes", false, "mined plans: the text-fit gate reads a quotation's words as it reads any other words, not each quotation as one word (the ablation)")
	cmd.Flags().BoolVar(&o.NoFitAsked, "no-fit-asked-sentences", false, "mined plans: only a text closing with a question mark is planned whatever the text-fit gate says, not one holding a sentence that closes with one outside quotations (\"Did X act in 2008? Name them.\"; the ablation)")
	cmd.Flags().BoolVar(&o.NoFitAskedReq, "no-fit-asked-requests", false, "mined plans: a text holding a later sentence that opens with a request's verb (\"X has components. Tell me the Y among them.\") meets the text-fit gate as any other text does, not planned whatever the gate says (the ablation)")
	cmd.Flags().BoolVar(&o.NoFitReaderReq, "no-fit-reader-requests", false, "mined plans: a text that addresses its reader (\"the shrub one, please.\", \"... and tell me who ...\", \"...; pick it out.\") meets the text-fit gate as any other text does, not planned whatever the gate says (the ablation)")
	cmd.Flags().BoolVar(&o.NoJoinSingles, "no-join-singles", false, "mined plans: two one-path candidates anchored on mentions apart give no candidate of the template that intersects their two paths unless the classifier ranks it among its most probable (the ablation)")
	cmd.Flags().BoolVar(&o.NoFitPass, "no-fit-pass", false, "mined plans: the text-fit gate's threshold is calibrated on the val questions against as many held-out passages, not set to pass one in 8,192 of up to 65,536 held-out passages (the ablation)")
	cmd.Flags().IntVar(&o.FitDraws, "fit-draws", 4, "mined plans: the text-fit gate is the mean of this many gates, each trained against its own draw of the SKB's passages (1: one gate)")
	cmd.Flags().BoolVar(&o.NoFitSpeaker, "no-fit-speaker-requests", false, "mined plans: the text-fit gate reads a text opening with its speaker as a verb's subject (\"I need the word under X ...\") as any other text, not from that verb read as a lead verb (the ablation)")
	cmd.Flags().BoolVar(&o.NoFitFronted, "no-fit-fronted-requests", false, "mined plans: the text-fit gate reads a request after a fronted phrase closed by a comma (\"Of all the senses of 'daze', pick the one ...\") as any other text, not from its verb (the ablation; implied by --no-fit-lead-verbs)")
	cmd.Flags().BoolVar(&o.NoFitLeadOf, "no-fit-lead-of", false, "mined plans: the text-fit gate reads a first verb followed by \"of\" (\"Want of resemblance\") as a lead verb, as a request's (the ablation)")
	cmd.Flags().BoolVar(&o.NoFitLowerReq, "no-fit-lower-requests", false, "mined plans: the text-fit gate reads a lower-case first verb followed by \"me\" or \"us\" (\"give me ...\") as it reads any word, not as a lead verb (the ablation)")
	cmd.Flags().BoolVar(&o.NoFitLead, "no-fit-lead-verbs", false, "mined plans: the text-fit gate reads a request's first verb (\"Tell me ...\") as it reads any word, not as the verbs the training questions opened with (the ablation)")
	cmd.Flags().BoolVar(&o.NoFitLowest, "no-fit-lowest", false, "mined plans: the text-fit gate's threshold is the model's own boundary, 0.5, where that separates the val questions from the held-out passages as well as any, not the lowest threshold that does (the ablation)")
	cmd.Flags().BoolVar(&o.NoFit, "no-fit", false, "mined plans: no text-fit gate; every query gets a plan, however unlike a question (the ablation)")
	cmd.Flags().BoolVar(&o.NoFrame, "no-frame-words", false, "mined plans: restrictions keep the words the training questions ask with, not restrict by (the ablation)")
	cmd.Flags().BoolVar(&o.NoNamedType, "no-named-type", false, "mined plans: a question that names its answer type with the schema's word for it (\"Which person ...\") does not rule out plans answering with another type (the ablation)")
	cmd.Flags().BoolVar(&o.NoKindAnswer, "no-kind-answer-words", false, "an unseen noun before the anchors that the lexicon reads as a word naming a relation (\"writers\" as \"written\") names no step the plan must end with (the ablation)")
	cmd.Flags().BoolVar(&o.NoFormSenses, "no-form-senses", false, "an unseen word is read through every sense of its base forms (\"narrower\" through the verb narrow, a kind of change), not only those of the parts of speech it is a form of (the ablation)")
	cmd.Flags().BoolVar(&o.NoDerivedFirst, "no-derived-first-sense", false, "an unseen word is read as a known word derivationally related to any of the known word's senses (\"work\" as \"actors\", through worker), not only to its most frequent one (the ablation)")
	cmd.Flags().BoolVar(&o.NoCasedAcross, "no-cased-across", false, "an anchoring on a mention in lower case of a capitalised name gives way to one of the same template alone, not to another template's on a capitalised mention it leaves (\"the stars\", the film The Stars, against \"The Ring\"; the ablation)")
	cmd.Flags().BoolVar(&o.NoCasedAnchors, "no-cased-anchors", false, "an anchoring on a mention in lower case of a capitalised name (\"made\", the film Made) does not give way to one of the same template on a capitalised mention (\"Germinal\"; the ablation)")
	cmd.Flags().BoolVar(&o.NoAskedBefore, "no-asked-before-anchor", false, "a type word right before an anchor says what the anchor is even right after an asking word and of another type (\"Which person made the film X ...?\" anchored on \"made\", a film, asks for no person; the ablation)")
	cmd.Flags().BoolVar(&o.NoRoles, "no-roles", false, "a noun in the singular with no determiner right after \"as\" (\"X's movies as director\") is read as the training's words like any other, so \"director\" asks for directors (the ablation)")
	cmd.Flags().BoolVar(&o.NoTitles, "no-titles", false, "a noun in the singular with no determiner right before a name (\"movies by director X\") is read as the training's words like any other, so \"director\" asks for directors (the ablation)")
	cmd.Flags().BoolVar(&o.NoMentionForms, "no-mention-forms", false, "the words no training anchor followed are counted over numbers and names together, so \"from\", said only before years, rules out \"films from Ridley Scott\" too (the ablation)")
	cmd.Flags().BoolVar(&o.NoKinRels, "no-kin-relations", false, "a word 90% of whose training questions walk one relation (\"script\": written_by) names it only with the schema's words, not where the lexicon puts it one link from them (the ablation)")
	cmd.Flags().BoolVar(&o.NoExplained, "no-explained-words", false, "a word keeps every relation its training questions' plans walk, also those the question's other words name alone (\"appeared\" keeps directed_by, from \"actors who appeared in films directed by X\"; the ablation)")
	cmd.Flags().BoolVar(&o.NoNamedFirst, "no-named-first", false, "a deeper search tries the templates the classifier finds as probable as each other in the schema's order, not those that walk fewer relations the question leaves unnamed first, and no two-step path of the schema on a longer mention (the ablation)")
	cmd.Flags().BoolVar(&o.NoFormRels, "no-form-relations", false, "a word no training question used names only what its base forms name, not what the other inflections the training used name (\"actor\" as \"actors\"; the ablation)")
	cmd.Flags().BoolVar(&o.NoWhichVerbs, "no-which-verbs", false, "only a question word that asks for one type makes the verb after it a subject verb, not \"Which actors\" and the like (the ablation)")
	cmd.Flags().BoolVar(&o.NoWhichUnknown, "no-which-unknown", false, "mined plans: a lower-case word the lexicon knows in no form after a question word (\"Which helmers directed ...\") is not read as the noun it asks with, so the verb after it is no subject verb (the ablation)")
	cmd.Flags().BoolVar(&o.NoWhichSubject, "no-which-subject", false, "mined plans: a type word after the subject verb of a question word and its nouns (\"films\" in \"Which folks starred in the films X wrote?\") may name the type asked for (the ablation)")
	cmd.Flags().BoolVar(&o.NoCompounds, "no-compound-words", false, "mined plans: planning reads a closed compound neither the training nor the lexicon knows (\"moviemakers\") as written, not by its parts (\"filmmakers\", or its head \"makers\") (the ablation)")
	cmd.Flags().BoolVar(&o.NoCoAnchors, "no-co-anchors", false, "an anchor after \"together with\", \"alongside\" or \"with\" right after the subject verb need not walk the verb's relation first (\"Which actors appeared in films together with X?\"; the ablation)")
	cmd.Flags().BoolVar(&o.NoHeadsOf, "no-heads-of", false, "the type word after \"of\" names the type asked for unless the noun before \"of\" opens the question, also where that noun names the answers by a relation (\"Name the cast members of X's films\" as films; the ablation)")
	cmd.Flags().BoolVar(&o.NoVerbFirst, "no-verb-first", false, "a question whose subject is its anchor alone walks its verb's relation last, also where a noun names its object (\"Which stars has X directed?\" as the directors of X's films; the ablation)")
	cmd.Flags().BoolVar(&o.NoObjectVerbs, "no-object-verbs", false, "a question that puts its subject between a do- or have-auxiliary and its verb (\"What else did the director of X direct?\") may be answered with its subject (the ablation)")
	cmd.Flags().BoolVar(&o.NoAskedAW, "no-asked-answer-words", false, "an answer word names the plan's last step even where that step ends at no type the question names as asked for (the ablation)")
	cmd.Flags().BoolVar(&o.NoSubjectVerbs, "no-subject-verbs", false, "the verb after a question word that asks for one type (\"Who has acted in a movie alongside X?\") names no relation that ends the plan (the ablation)")
	cmd.Flags().BoolVar(&o.NoClosingWh, "no-closing-wh", false, "a question word closing a question that none opens (\"X's films were written by whom?\") asks for nothing, and the types the words before it name stand (the ablation)")
	cmd.Flags().BoolVar(&o.NoClauses, "no-clause-bounds", false, "a word beyond a relative word (\"X's script that Y acted in\") is the anchor word of the mention after it, which then must be written as a script's is (the ablation)")
	cmd.Flags().BoolVar(&o.NoPossNests, "no-possessive-nests", false, "a word said before \"of\" and again after a possessor (\"hyponyms of X's hyponyms\") nests nothing, as \"hyponyms of the hyponyms of X\" does (the ablation)")
	cmd.Flags().BoolVar(&o.NoPaired, "no-paired-anchors", false, "where no candidate is ruled out and two are anchored on one name each (\"Find a vasodilative that is labelled trade name.\"), the deeper search tries no template anchored on both (the ablation)")
	cmd.Flags().BoolVar(&o.NoNameSubj, "no-name-subjects", false, "a name right before a verb that names one relation (\"Titles where X directed and Y acted?\") need not anchor a path that walks the verb's relation first (the ablation)")
	cmd.Flags().BoolVar(&o.NoCompoundHead, "no-compound-heads", false, "the word after an asking word names the type asked for whatever noun heads its compound (\"Which film directors has X worked for?\" asks for films; the ablation)")
	cmd.Flags().BoolVar(&o.NoClauseComp, "no-clause-compounds", false, "in an asking clause, a compound's first word names the type asked for where it names one (\"Stories by X: which film categories do they fall under?\" asks for films; the ablation)")
	cmd.Flags().BoolVar(&o.NoAddressedReq, "no-addressed-requests", false, "a request put to \"you\" (\"Could you name the screenwriters of ...?\") asks for nothing by its verb (the ablation)")
	cmd.Flags().BoolVar(&o.NoFuzzyOpening, "no-fuzzy-openings", false, "a capitalised word opening a sentence may be read as a misspelt one-word name (\"Whose\" as the film Whore; the ablation)")
	cmd.Flags().BoolVar(&o.NoKindCompound, "no-kind-compounds", false, "a mention hyphened to \"type\", \"sort\" or \"variety\" (\"impervious-type adjectives\") is part of a compound, no anchor (the ablation)")
	cmd.Flags().BoolVar(&o.NoTheirsTwice, "no-theirs-twice", false, "\"theirs\" after a plural a possessive owns (\"X, then its subtypes, then theirs\") nests nothing, so a one-level plan may answer (the ablation)")
	cmd.Flags().BoolVar(&o.NoPrefixTwice, "no-prefix-twice", false, "a prefix hyphened to a word that opens with it again (\"sub-subcategories of X\") nests nothing, so a one-level plan may answer (the ablation)")
	cmd.Flags().BoolVar(&o.NoEmbedded, "no-embedded-questions", false, "a question put inside the speaker's or the addressee's words (\"Do you know what X directed?\") opens where the text does, and its statement-ordered subject and verb are read as no auxiliary's (the ablation)")
	cmd.Flags().BoolVar(&o.NoOpenAdverbs, "no-opening-adverbs", false, "a participle opening the question is the speaker's only right before its preposition, not past adverbs (\"Looking only at films in Spanish, ...\" reads \"Looking\" as \"Appeared\"; the ablation)")
	cmd.Flags().BoolVar(&o.NoSpeakerVerbs, "no-speaker-verbs", false, "a verb whose subject is the speaker or the addressee (\"I'm looking for ...\") is read as a known word as any other unknown word is (the ablation)")
	cmd.Flags().BoolVar(&o.NoMarkedFollow, "no-marked-followers", false, "a mention right after a word no training question anchored after is ruled out as an anchor though a colon, a comma or a dash sets it apart (\"Broader term: X. Word?\" never anchors on X; the ablation)")
	cmd.Flags().BoolVar(&o.NoPrepOpenings, "no-preposition-openings", false, "a first word before a preposition opens a request in the clauses before an asking one (\"Back in 1998, X directed a film. Who starred in it?\" reads no asking clause; the ablation)")
	cmd.Flags().BoolVar(&o.NoTitlePreps, "no-title-prepositions", false, "a bare singular noun before a name is its title only after the common prepositions (\"between director X\" asks for directors; the ablation)")
	cmd.Flags().BoolVar(&o.NoWhoseRels, "no-whose-relatives", false, "an answer word after a relative \"whose\" asks for what it names (\"... whose cast includes X\" asks for people; the ablation)")
	cmd.Flags().BoolVar(&o.NoCompSlots, "no-compound-slots", false, "a word after a singular noun read in a noun slot is read with all its senses (\"the genre label for X\" may read \"label\" as a verb; the ablation)")
	cmd.Flags().BoolVar(&o.NoPrepSlots, "no-preposition-slots", false, "a word right after a preposition is read with all its senses (\"Sort by type the pictures ...\" may read \"type\" as a verb, \"wrote\"; the ablation)")
	cmd.Flags().BoolVar(&o.NoMarkedSlots, "no-marked-slots", false, "an asking word after a noun opens no noun slot even with a mark between (\"...; which label is it?\" may read \"label\" as a verb; the ablation)")
	cmd.Flags().BoolVar(&o.NoImperOpens, "no-imperative-openings", false, "a first word that may be a verb or a noun names what is asked for even before a determiner (\"Break every type of X into parts: ...\" asks for a break; the ablation)")
	cmd.Flags().BoolVar(&o.NoBackTypes, "no-back-past-type-words", false, "a pronoun closing the asking clause may refer back to a type word that says what a mention is (\"the drama kind ...: list them.\" asks for genres; the ablation)")
	cmd.Flags().BoolVar(&o.NoTitleObjects, "no-title-objects", false, "a bare singular noun after the first word and before a name is a request's object (\"Cast member X; release year 2000; titles wanted.\" asks for members; the ablation)")
	cmd.Flags().BoolVar(&o.NoKindWords, "no-kind-words", false, "a word read as a kind of a type (\"screenwriters\", read \"written\") names that type only in an asking word's slot, not opening the text (\"Screenwriters behind X's movies?\" asks for the movies; the ablation)")
	cmd.Flags().BoolVar(&o.NoAskingMents, "no-asking-mentions", false, "a type word after a mention that is an asking determiner (\"what\", the film What?) says what the mention is (\"in what film?\" asks for no film; the ablation)")
	cmd.Flags().BoolVar(&o.NoPossessorWh, "no-possessor-wh", false, "\"whose\" asks for nothing where the training opened too few questions with it (\"Whose faces are seen in the movies X wrote?\" asks for no person; the ablation)")
	cmd.Flags().BoolVar(&o.NoWhVerbSlots, "no-wh-verb-slots", false, "the word after \"who\" (a question word determining no noun) may read as a kind of a type, as after \"which\" (\"Who shows up on screen when X is directing?\" asks for shows, films; the ablation)")
	cmd.Flags().BoolVar(&o.NoObjectWh, "no-object-wh", false, "\"whom\" opening a question asks for nothing where the training opened too few questions with it (\"Whom has X put in front of the camera?\" asks for no person; the ablation)")
	cmd.Flags().BoolVar(&o.NoFormSlots, "no-form-slots", false, "a template's slots take the mentions the anchor scorer ranks best alone, though the question's form rules them all out (\"Go two levels down from X in the taxonomy\" never tries X; the ablation)")
	cmd.Flags().BoolVar(&o.NoPastRuled, "no-slots-past-ruled", false, "mined plans: a mention the question's form rules out as an anchor takes a place among a template slot's best mentions like any other, and may keep the one it should have anchored out of them (the ablation)")
	cmd.Flags().BoolVar(&o.NoNamedSteps, "no-named-steps", false, "a plan that walks another's relations and more, to answer with other types, competes though no word names what it walks more or answers with (\"the title of whatever X directed\" answered with the cast; the ablation)")
	cmd.Flags().BoolVar(&o.NoSlotKinds, "no-slot-kinds", false, "a word read as another in a noun slot names no type as a kind where it is a verb's form too (\"Which authors supplied scripts to ...\", read \"Which written ...\", asks for no person; the ablation)")
	cmd.Flags().BoolVar(&o.NoPersonSlots, "no-person-slots", false, "\"everyone\" as the object of a request whose verb is an asking word (\"List everyone cast in ...\", \"...; list everyone acting in it.\") names no type (the ablation)")
	cmd.Flags().BoolVar(&o.NoPersonOpens, "no-person-openings", false, "\"everyone\" or \"everybody\" opening the text (\"everyone cast in X-directed films\") names no type (the ablation)")
	cmd.Flags().BoolVar(&o.NoMarkTitles, "no-mark-titles", false, "a singular noun opening a phrase after a mark, before a name (\"Japanese films, director X\"), is read as any word, not as the name's title (the ablation)")
	cmd.Flags().BoolVar(&o.NoReqTitles, "no-request-titles", false, "a singular noun after a request's verb opening the text, before a name (\"Name director X's features\"), is read as any word, not as the name's title (the ablation)")
	cmd.Flags().BoolVar(&o.NoHeldSlots, "no-held-slots", false, "where a candidate's anchor fills the slot of which/what/whose at its clause's end, the other words still name the type asked for (\"Someone ... would use which piece of ground?\" asks for a person; the ablation)")
	cmd.Flags().BoolVar(&o.NoDetValues, "no-determined-values", false, "a word that may be a verb is a noun only right after a determiner, not past values after one (\"the 1998 cast\"; the ablation)")
	cmd.Flags().BoolVar(&o.NoPersonObjs, "no-person-objects", false, "a request whose object is \"everyone\", \"someone\" or the like names no type, not what \"who\" asked for in the training (the ablation)")
	cmd.Flags().BoolVar(&o.NoHyphLeads, "no-hyphened-leads", false, "a first word hyphened to the next may be a request's verb (\"Second-generation hyponyms of X, please.\" asks for a generation; the ablation)")
	cmd.Flags().BoolVar(&o.NoSlotHeads, "no-slot-heads", false, "\"Which of the 2000 releases count X as a cast member?\" and \"which new releases ...\" name no type by \"releases\": the asking word's slot is \"of\" or \"new\" (the ablation)")
	cmd.Flags().BoolVar(&o.NoClauseSlots, "no-clause-slots", false, "an asking clause names the type asked for by the schema's word or the lexicon alone, not by a training lift (\"X wrote some films; list the actors.\" asks for the films), and by its first noun alone (\"list the cast members\"; the ablation)")
	cmd.Flags().BoolVar(&o.NoFrontedCl, "no-fronted-clause", false, "a clause after a comma that asks after a phrase that states (\"For films whose scripts came from X, list the cast members.\") names the type asked for no more than the rest of the question (the ablation)")
	cmd.Flags().BoolVar(&o.NoAskingClause, "no-asking-clause", false, "a last clause that asks after clauses that state (\"X directs films of only one genre. Name that genre.\") names the type asked for no more than the rest of the question (the ablation)")
	cmd.Flags().BoolVar(&o.NoWhSlotsFirst, "no-wh-slots-first", false, "the first asking word's slot names the type asked for, \"which\" or not (\"Each picture X directed is a film of which genre?\" asks for films; the ablation)")
	cmd.Flags().BoolVar(&o.NoClosedFollow, "no-closed-followers", false, "a mention after a word the training never anchored after is ruled out whatever stood after that word in the training (\"A more specific swayer, meaning ...\" anchors nothing on swayer; the ablation)")
	cmd.Flags().BoolVar(&o.NoNounAnte, "no-noun-antecedents", false, "a verb's form after \"which\", \"that\" or \"who\" right after a verb (\"The word 'cake' denotes which baked goods?\") is a relative clause's verb, no anchor, as after a noun (the ablation)")
	cmd.Flags().BoolVar(&o.NoRelAnte, "no-relative-antecedents", false, "a verb's form after \"which\", \"that\" or \"who\" right after a stop word (\"the name of which baked goods?\") is a relative clause's verb, no anchor, as after a noun (the ablation)")
	cmd.Flags().BoolVar(&o.NoQuotedOpen, "no-quoted-opening", false, "a quoted noun opening the question (\"'cake' is the name of which baked goods?\") names the type asked for, as an unquoted one does (the ablation)")
	cmd.Flags().BoolVar(&o.NoObjBeyond, "no-object-beyond", false, "a bare question word that asks for a type the verb's relation does not reach (\"Who did X direct in 2001?\") still asks for what the verb's relation reaches walked first and last, X's co-directors, not the cast of X's films (the ablation)")
	cmd.Flags().BoolVar(&o.NoBeObject, "no-be-object", false, "a form of \"be\" right after a bare question word (\"What was X acting in?\", \"What was X directed by?\") is no auxiliary of the object rule (the ablation)")
	cmd.Flags().BoolVar(&o.NoArgCompounds, "no-argument-compounds", false, "a name joined by a hyphen to \"like\" or a verb's inflection (\"X-directed titles\", \"geared-like adjectives\") is a part of a compound, which names nothing (the ablation)")
	cmd.Flags().BoolVar(&o.NoPairWords, "no-pair-words", false, "\"couple\" and \"pair\" say no count of two (\"What sits a couple of rungs beneath X in the taxonomy?\" asks for X's kinds; the ablation)")
	cmd.Flags().BoolVar(&o.NoDepthBack, "no-depth-back", false, "where the question nests a word or says two, a candidate that walks one relation twice and a step straight back (\"<-hypernym <-hypernym ->hypernym\") walks deep all the same (the ablation)")
	cmd.Flags().BoolVar(&o.NoStatedNames, "no-stated-names", false, "a name a candidate's answers hold explains its mention though no training question states an answer (\"Sometime, X was the director and Y had a part. Tell me where.\" answered by the directors of Y's films, X among them; the ablation)")
	cmd.Flags().BoolVar(&o.NoElidedQs, "no-elided-questions", false, "a question word standing alone as the last clause (\"X's screenplays all share a category; which?\") asks for nothing the indefinite noun phrase before it names (the ablation)")
	cmd.Flags().BoolVar(&o.NoBackRoles, "no-back-past-roles", false, "a pronoun closing the asking clause refers back to a capacity stated with \"as\" too (\"... something Y made as a director; name it.\" asks for directors; the ablation)")
	cmd.Flags().BoolVar(&o.NoStatedLeads, "no-stated-leads", false, "the nouns before the first name in a sentence that states, before the one that asks (\"My favourite actors are X and Y. Did a film feature both?\"), name what is asked, as in the asking sentence (the ablation)")
	cmd.Flags().BoolVar(&o.NoNamingCl, "no-naming-clauses", false, "a noun phrase as the subject of a naming verb's passive closing the question (\"Writer X, director Y: the movie is called?\") asks for nothing (the ablation)")
	cmd.Flags().BoolVar(&o.NoQuantTails, "no-quantifier-tails", false, "a noun phrase put as a question closing with a quantifier set apart by a comma (\"X's films: their directors, all of them?\") asks for nothing (the ablation)")
	cmd.Flags().BoolVar(&o.NoColonNouns, "no-colon-nouns", false, "a noun phrase after a colon closing the text (\"X 2008 films: the directors\") asks only with a \"?\" (the ablation)")
	cmd.Flags().BoolVar(&o.NoNounClauses, "no-noun-clauses", false, "a noun phrase put as a question after the clauses that state (\"X penned a number of films; their casts?\") asks nothing, and the type words before it name what is asked (the ablation)")
	cmd.Flags().BoolVar(&o.NoPoliteWords, "no-polite-words", false, "a question's words of courtesy (\"Cast lists, please, for ...\", \"Could you please name ...\", \"Kindly list ...\") are read as any word, not left out (the ablation)")
	cmd.Flags().BoolVar(&o.NoSaidVerbs, "no-said-verbs", false, "a word said twice nests also where an object pronoun follows it, a verb's form (\"A X carries the note Y. Which X carries it?\"; the ablation)")
	cmd.Flags().BoolVar(&o.NoSaidTwice, "no-said-twice", false, "a noun's plural or a preposition of place said twice anywhere (\"What is below the things directly below X?\") nests nothing unless said before \"of\" (the ablation)")
	cmd.Flags().BoolVar(&o.NoReqClauses, "no-request-clauses", false, "a request after a comma asks only after a phrase that names a type, and none past \"and\" and its speaker (\"..., and I'd like the casts of those\"; the ablation)")
	cmd.Flags().BoolVar(&o.NoClauseAW, "no-clause-answer-words", false, "answer words are read before a candidate's first anchor and right after its last, never in an asking clause after it (\"For X's films, list the cast members.\"; the ablation)")
	cmd.Flags().BoolVar(&o.NoOfHeads, "no-of-heads", false, "a pronoun closing an asking clause (\"X writes one genre of film. What is it?\") refers back to the last word naming a type, not to the head before \"of\" (the ablation)")
	cmd.Flags().BoolVar(&o.NoFrontedRoles, "no-fronted-roles", false, "a fronted capacity (\"As a director, what is the only genre X has worked in?\") leaves the question's type to be read as a whole (the ablation)")
	cmd.Flags().BoolVar(&o.NoRelativeThat, "no-relative-that", false, "\"that\" or \"which\" after a noun (\"films that cast X\") is a determiner, and the word after it a noun (the ablation)")
	cmd.Flags().BoolVar(&o.NoPairedUnexpl, "no-paired-unexplained", false, "the deeper search pairs only candidates left, not one ruled out for leaving the other's anchor unexplained (the ablation)")
	cmd.Flags().BoolVar(&o.NoAuxiliaries, "no-auxiliaries", false, "a question's auxiliary \"do\" (\"What do you get ...?\") may anchor (the ablation)")
	cmd.Flags().BoolVar(&o.NoRelChains, "no-relative-chains", false, "a word said right before \"whose\" and again right after it (\"a hypernym whose own hypernym is X\") nests nothing (the ablation)")
	cmd.Flags().BoolVar(&o.NoPossChains, "no-possessive-chains", false, "a word said right after itself as a possessor (\"whose hypernym's hypernym is X\", \"X's hyponyms' hyponyms\") nests nothing (the ablation)")
	cmd.Flags().BoolVar(&o.NoOpenTitles, "no-opening-titles", false, "a singular noun opening the text before a name (\"Director X: any comedy titles?\") is read as any word, not as the name's title (the ablation)")
	cmd.Flags().BoolVar(&o.NoFronted, "no-fronted-phrase", false, "a phrase before a question's question word, closed by a comma (\"In Hebrew, what has X appeared in?\"), is read where it stands, not at the question's end (the ablation)")
	cmd.Flags().BoolVar(&o.NoPrepWh, "no-preposition-wh", false, "a preposition right before the question word that opens a question (\"By whom has X been directed?\") leaves the preposition opening it (the ablation)")
	cmd.Flags().BoolVar(&o.NoMixedForms, "no-mixed-forms", false, "a word whose training questions' plans bear out no relation (\"direct\": 72 of 122 directed_by) names none, though its other forms name one (the ablation)")
	cmd.Flags().BoolVar(&o.NoBareObject, "no-bare-object", false, "a bare question word before the auxiliary (\"What has X appeared in?\") asks for what the verb reaches by any path, not only the verb's relation walked from the subject (the ablation)")
	cmd.Flags().BoolVar(&o.NoTWNouns, "no-type-word-nouns", false, "a word most documents of one type say names that type in any form, a verb's too (\"is tagged with what genre?\" as films, of \"tags\"; the ablation)")
	cmd.Flags().BoolVar(&o.NoWhAsks, "no-wh-asks", false, "a question word opening a question (\"Who plays in X?\") asks for no type, though 90% of the 5 or more training questions it opened asked for one (the ablation)")
	cmd.Flags().BoolVar(&o.NoOpeningNoun, "no-opening-noun", false, "a question with no asking word or request's verb naming its type does not ask for the type its opening noun names (\"2005 releases directed by X\"; the ablation)")
	cmd.Flags().BoolVar(&o.NoWrittenAnch, "no-written-anchors", false, "a mention of a word the planner read an unseen word as anchors plans as the question's own mentions do (\"what concepts exist?\" read \"exist\" as WordNet's \"being\" and walked from it; the ablation)")
	cmd.Flags().BoolVar(&o.NoSlotLifts, "no-slot-lifts", false, "a noun after \"which\", \"what\" or \"whose\" names a type only by the schema's word or the lexicon, not by a lift the training questions bear out (\"Which people act in films X wrote?\" rules out none of X's films; the ablation)")
	cmd.Flags().BoolVar(&o.NoOpeningLift, "no-opening-lift", false, "the noun opening a question names a type only by the schema's word or the lexicon, not by a lift the training questions bear out (\"People seen on screen in X's scripts?\" asks for nothing the rules read; the ablation)")
	cmd.Flags().BoolVar(&o.NoOpeningFirst, "no-opening-first", false, "a question no question word occurs in asks for what an asking word's slot names before the type its opening noun names (\"Genre labels attached to films X penned?\" asks for the films after \"to\"; the ablation)")
	cmd.Flags().BoolVar(&o.NoAppositive, "no-appositive", false, "a mention after \"the\" and a word the training questions never anchored after (\"the adjective fruitful\") is ruled out as any mention after that word is (the ablation)")
	cmd.Flags().BoolVar(&o.NoRelativeVerb, "no-relative-verb", false, "a verb's inflection right after a relative pronoun (\"falls\" in \"the sense that falls under X\") is no form whose anchoring the training questions teach (the ablation)")
	cmd.Flags().BoolVar(&o.NoInPassage, "no-in-passage", false, "a mention inside a quotation of more words than it (\"resist\" in 'glossed \"resist or withstand wear\"') is not learned as a form no anchor is written in (the ablation)")
	cmd.Flags().BoolVar(&o.NoPassive, "no-passive", false, "a verb's participle right after a form of \"be\" (\"used\" in \"is used in\") is no form whose anchoring the training questions teach (the ablation)")
	cmd.Flags().BoolVar(&o.NoTypeAfterMen, "no-type-after-mention", false, "a type word right after a mention no candidate anchors on, naming that mention's type (\"the comedy genre\"), may name the type asked for or an answer word (the ablation)")
	cmd.Flags().BoolVar(&o.NoQuotedRival, "no-quoted-rival", false, "an unquoted mention anchoring a slot the training always quoted rules a candidate out even where the question quotes no word the slot may take (the ablation)")
	cmd.Flags().BoolVar(&o.NoInCompound, "no-in-compound", false, "a mention that is a part of a hyphened word (\"near\" in \"near-synonyms\") is no form whose anchoring the training questions teach (the ablation)")
	cmd.Flags().BoolVar(&o.NoWhSubjects, "no-wh-subjects", false, "a verb's -s form right after \"what\" or \"who\" that closes its clause (\"...: what results?\") may name a node as any other mention may (the ablation)")
	cmd.Flags().BoolVar(&o.NoWhPreps, "no-wh-prepositions", false, "a verb's -s form right after \"what\" or \"who\" followed by a preposition of place (\"What falls under X ...?\") may name a node as any other mention may (the ablation)")
	cmd.Flags().BoolVar(&o.NoInSituObjs, "no-in-situ-objects", false, "a question word asked in place right after a verb, its object (\"X's 1970 directing job put whom in front of the camera?\"), asks for nothing (the ablation)")
	cmd.Flags().BoolVar(&o.NoInSituWh, "no-in-situ-wh", false, "a question word asked in place, right after a preposition, with words after it (\"X has taken direction from whom over the years?\") asks for nothing (the ablation)")
	cmd.Flags().BoolVar(&o.NoFiniteVerbs, "no-finite-verbs", false, "a one-word verb that is its clause's finite verb (\"what sits there?\", \"Which nouns sit two links under X?\") may name a node as any other mention may (the ablation)")
	cmd.Flags().BoolVar(&o.NoPersonPron, "no-person-pronouns", false, "\"someone\", \"anybody\" and the other indefinite pronouns for people (\"I heard someone say ...\") may name a node as any other mention may (the ablation)")
	cmd.Flags().BoolVar(&o.NoPersonalPron, "no-personal-pronouns", false, "a personal or possessive pronoun in lower case (\"their directors, all of them?\", movies-skb's film Them!) may name a node as any other mention may (the ablation)")
	cmd.Flags().BoolVar(&o.NoMarkedMents, "no-marked-mentions", false, "a mention whose words span a clause's end or a quotation's edge (\"parts; name\") may name a node as any other mention may (the ablation)")
	cmd.Flags().BoolVar(&o.NoPhrasalVerbs, "no-phrasal-verbs", false, "a verb and its particle that are the clause's own verb (\"what formation turns up?\", \"Go down two levels from X\") may name a node as any other mention may (the ablation)")
	cmd.Flags().BoolVar(&o.NoPronounVerbs, "no-pronoun-verbs", false, "a verb in lower case right after an auxiliary and a subject pronoun (\"Which pedlar would you hear mainly in Britain?\") may name a node as any other word may (the ablation)")
	cmd.Flags().BoolVar(&o.NoAddressee, "no-addressee", false, "\"me\" or \"us\" after a verb's base form (\"Tell me ...\") may name a node (\"ME\", Maine) as any other word may (the ablation)")
	cmd.Flags().BoolVar(&o.NoCover, "no-cover-mentions", false, "mined plans: a candidate that leaves more of the question's mentions unexplained is not ruled out for it, and no deeper search anchors them (the ablation)")
	cmd.Flags().BoolVar(&o.NoDeeper, "no-deeper-search", false, "mined plans: a question whose words rule out every candidate (a type or relation it names), or whose top templates reach nothing, gets no deeper search among less probable templates (the ablation)")
	cmd.Flags().BoolVar(&o.Rescue, "fit-rescue", false, "mined plans: a query below the text-fit gate keeps its plan when the planner is surer of it than of its plans of 95% of the held-out passages the gate rejects (off by default: it can put the served planner under BM25 on text no plan fits)")
	cmd.Flags().BoolVar(&o.NoReadSamePOS, "no-read-same-pos", false, "mined plans: an unseen word is read as the known word the schema and the training's word pairs prefer, whether or not it may be a noun and a verb where the word may (\"performers\" as \"star\", not \"actors\"; the ablation)")
	cmd.Flags().BoolVar(&o.NoSynonymTypes, "no-synonym-types", false, "mined plans: a word names a node type only with the schema's own words or their base forms, not as the lexicon's synonym of one (\"films\" for movie; the ablation)")
	cmd.Flags().BoolVar(&o.NoTypeAfter, "no-type-after-anchor", false, "a type word right after an anchor mention that names the anchor's type may name the type asked for (\"titles in the comedy genre that feature X\" asking for a genre; the ablation)")
	cmd.Flags().BoolVar(&o.NoSiblingTypes, "no-sibling-types", false, "a word the training never used names no node type through its hypernym, a more general word than the type's schema word (\"type\": genre, both kinds; the ablation)")
	cmd.Flags().BoolVar(&o.NoNounSlots, "no-noun-slots", false, "a word after an article or an asking word may be read as a word that is no noun (\"Which type of movie\" as \"Which wrote of movie\"), and one that may be a verb names no node type after an asking word (the ablation)")
	cmd.Flags().BoolVar(&o.NoMultiword, "no-multiword-types", false, "a mention of two or more words (\"dining room\") a candidate leaves unexplained counts against it only as a mention of one word does, whatever the training bears out (the ablation)")
	cmd.Flags().BoolVar(&o.NoNonAnchNorms, "no-non-anchor-norms", false, "non-anchors are learned by their texts as written (\"terms\" is not \"term\"), a text quoted once is none, and quoted mentions are ruled out too (the ablation)")
	cmd.Flags().BoolVar(&o.NoReturned, "no-returned-anchors", false, "a candidate whose plan reaches only the anchors it walks straight back to keeps them as its answers (the ablation)")
	cmd.Flags().BoolVar(&o.NoFuzzyNames, "no-fuzzy-names", false, "a question with a word neither the lexicon nor the training knows is planned as typed, not read with a node's name one letter from it (\"Tom Hansk\" as Tom Hanks; the ablation)")
	cmd.Flags().BoolVar(&o.NoSharedWith, "no-shared-with", false, "a form of \"share\" with \"with\" after it (\"Who has shared the screen with X?\") asks for nothing a co-word asks for (the ablation)")
	cmd.Flags().BoolVar(&o.NoCoWords, "no-co-words", false, "a co-word (\"co-stars\", \"costars\", \"co-wrote\") rules out no candidate that shares no neighbour with its anchor along the relation the word after \"co\" names (the ablation)")
	cmd.Flags().BoolVar(&o.NoMarkedNests, "no-marked-nests", false, "a phrase mark after the \"of\" that opens a nesting does not end it (\"Raw material of X, a kind of Y?\" nests as \"the material of the kinds of Y\"; the ablation)")
	cmd.Flags().BoolVar(&o.NoDirMods, "no-direction-modifiers", false, "a preposition of place nests no plural that adjectives come before (\"What lies below the direct subcategories of X?\"; the ablation)")
	cmd.Flags().BoolVar(&o.NoDirNests, "no-direction-nests", false, "a preposition of place before a noun's plural and \"of\" (\"What lies beneath the hyponyms of X?\") does not nest as a word said twice does (the ablation)")
	cmd.Flags().BoolVar(&o.NoNestedRels, "no-nested-relations", false, "two different words the training bears out for one relation, each before \"of\" (\"the subtypes of the kinds of X\"), do not nest as one word said twice does (the ablation)")
	cmd.Flags().BoolVar(&o.NoDepthSaid, "no-depth-said", false, "a candidate that walks one relation twice in a row stands where the question says no depth (nests no word, says no \"two\", \"second\" or \"twice\"), and one that walks none twice where the question says \"two\", whatever the training bears out (the ablation)")
	cmd.Flags().BoolVar(&o.NoRepeatTwice, "no-repeat-twice", false, "a word the question says twice before \"of\" (\"hyponyms of hyponyms of X\") rules out no candidate that walks no relation twice in a row, whatever the training bears out (the ablation)")
	cmd.Flags().BoolVar(&o.NoDeeperAsked, "no-deeper-asked", false, "the deeper search tries templates whatever type they end at when the type a question asks for rules out every candidate, whatever type their first step starts from, and, for a longer mention, whatever relations they walk (the ablation)")
	cmd.Flags().BoolVar(&o.NoGeneralTypes, "no-general-types", false, "a word the training never used names no node type as a more general word than the type's schema word (\"category\": genre, a kind, a category; the ablation)")
	cmd.Flags().BoolVar(&o.NoNestedKin, "no-nested-kin", false, "a nested word no training question used is not read through the lexicon (\"the subtypes of the varieties of X\"), nor does a word of no relation nest with a close synonym of one (\"the forms of the kinds of X\"; the ablation)")
	cmd.Flags().BoolVar(&o.NoReadNoKind, "no-read-no-kind", false, "a word the lexicon reads as a training word of its base form or a synonym names a type as a kind of the type's schema word all the same (\"varieties\", a taxonomic group; the ablation)")
	cmd.Flags().BoolVar(&o.NoDepthPairs, "no-depth-pairs", false, "only a relation walked twice in a row needs a depth said, not the two different steps the training's questions walk only where they say one (WordNet's hypernym then instance hypernym; the ablation)")
	cmd.Flags().BoolVar(&o.NoPlainDets, "no-plain-determiners", false, "a determiner that asks for nothing (\"any\", \"every\") names the type its lift in the training leans to all the same (\"Any drama films directed by X?\" read as asking for people; the ablation)")
	cmd.Flags().BoolVar(&o.NoQuoteLabels, "no-quote-labels", false, "a word right before a quotation that names no node (\"defined with the fragment '...'\") is read as a word of a relation all the same (\"fragment\": part; the ablation)")
	cmd.Flags().BoolVar(&o.NoKindTypes, "no-kind-types", false, "a word the training never used names no node type as a kind of the type's schema word (\"screenwriters\", four hypernym links below person; the ablation)")
	cmd.Flags().BoolVar(&o.NoLeadVerb, "no-lead-verb-asks", false, "a question's first word, a verb (\"Name the 2008 releases ...\"), asks for the type named after it only when the training made it an asking word (the ablation)")
	cmd.Flags().BoolVar(&o.NoQuotedYield, "no-quoted-slots-yield", false, "an anchor unquoted where the training always quoted it rules a plan out as much as a text the training never anchored, more than a word the plan misses (the ablation)")
	cmd.Flags().BoolVar(&o.NoReqObject, "no-request-object", false, "a request's verb asks for the word after it even when that is the addressee (\"Give me the ...\": me), and one that is a learned asking word asks for nothing before a determiner (\"List the writers of ...\") (the ablation)")
	cmd.Flags().BoolVar(&o.NoObjModifiers, "no-object-modifiers", false, "mined plans: a word before a request's object that the lexicon has only as an adjective, not as a noun or a verb's form (\"List the other movies ...\": other), is read as the object, which names no type (the ablation)")
	cmd.Flags().BoolVar(&o.NoOfValues, "no-of-values", false, "in \"N of M\" opening a question, M's first word may be a value, so \"cast of X's 1926 films\" asks for films (the ablation)")
	cmd.Flags().BoolVar(&o.NoNounHeads, "no-noun-heads", false, "a word that may be a verb is no noun before a preposition, and a word after \"of\" may name the type asked for (\"cast of films directed by X\"; the ablation)")
	cmd.Flags().BoolVar(&o.NoHeadOf, "no-head-of", false, "a mention followed by \"of\" is no form whose anchoring the training questions teach (\"what type of cuisine ...\" may anchor on \"type\"; the ablation)")
	cmd.Flags().BoolVar(&o.NoCasualCtx, "no-casual-context", false, "sentences before the last are context only when they start with a capital and name a person or genre the last names, not also in text typed in lower case or when they name nothing of the schema (\"i'm trying to remember something. what did X helm ...?\"; the ablation)")
	cmd.Flags().BoolVar(&o.NoContext, "no-context-sentences", false, "a question's sentences before its last, a question naming every person or genre they name, are planned with it, not left as context (\"I love the films of X. Which genre ...?\"; the ablation)")
	cmd.Flags().BoolVar(&o.NoStemRels, "no-stem-relations", false, "a noun no training question used names nothing the verb it is formed from names (\"Whose direction ...\" as \"direct\"; the ablation)")
	cmd.Flags().BoolVar(&o.NoInflRels, "no-inflected-relations", false, "a word no training question used names no relation its base form names (\"Which stars appeared in ...\" as \"star\"; the ablation)")
	cmd.Flags().BoolVar(&o.NoTrailAW, "no-trailing-answer-words", false, "a question with no noun before its first anchor names no answer word after its last (\"The Bang Bang Club director\"; the ablation)")
	cmd.Flags().BoolVar(&o.NoAWLead, "no-answer-words-lead", false, "an answer word names the step that ends the plan even where the question's lead words rule out the type it ends at (\"Who wrote the screenplay for X?\"; the ablation)")
	cmd.Flags().BoolVar(&o.NoCasualFit, "no-casual-fit", false, "the text-fit gate learns from the questions and passages as written only, not also lower-cased without a closing question mark (\"which adjectives mean nearly the same as 'unaware'\" then reads as a gloss on WordNet; the ablation)")
	cmd.Flags().BoolVar(&o.NoAnswerWords, "no-answer-words", false, "mined plans: no answer words are learned (nouns before the anchors, \"Which directors ...\", tied to the step that ends the training plans that used them); a candidate ending with another step is not ruled out (the ablation)")
	cmd.Flags().BoolVar(&o.NoAnchorWords, "no-anchor-words", false, "mined plans: no anchor words are learned (the word next to an anchor, \"the films X wrote\", \"movies directed by X\", tied to the step that starts the training plans' paths from it); a candidate whose path from that anchor starts otherwise is not ruled out (the ablation)")
	cmd.Flags().BoolVar(&o.NoTypeWords, "no-type-words", false, "no type words are learned from the SKB's documents (words nearly every document of one node type says and nearly no other does, such as movies-skb's \"released\" of movies); only the schema's words and their synonyms name a type (the ablation)")
	cmd.Flags().BoolVar(&o.NoSchemaPaths, "no-schema-paths", false, "the templates add no two steps along the schema's relations whose types chain that no training plan is (\"Who wrote the movies that X directed?\"; the ablation)")
	cmd.Flags().BoolVar(&o.NoSchemaSteps, "no-schema-steps", false, "the templates are the training plans' only: no one-step template along each relation of the schema either way that no training plan is (\"Who directed The Godfather?\" then has no plan where the training asked only for a person's films; the ablation)")
	cmd.Flags().BoolVar(&o.NoDecline, "no-decline-ruled-out", false, "answer with the best plan even when what the question names rules out every plan found and its first words rule out the type the best answers with (\"Who directed The Godfather?\" answered with films; the ablation)")
	cmd.Flags().BoolVar(&o.NoSynRels, "no-synonym-relations", false, "a word in the most frequent sense of a relation's schema word (\"component\" of part) names no relation, however often the training questions with it walk the relation (the ablation)")
	cmd.Flags().BoolVar(&o.NoRepeatWords, "no-repeat-words", false, "the plan ranker does not see whether a word of the question comes twice (\"the varieties of the varieties of X\" applies one relation twice; the ablation)")
	cmd.Flags().BoolVar(&o.NoReadInCtx, "no-read-in-context", false, "an unseen word the lexicon relates to words of different relations (\"performed\": directed, starred) stays unread, whatever word follows it (the ablation; by default the meaning whose training words the next word follows far more often is read: \"performed in\" as \"starred in\")")
	cmd.Flags().BoolVar(&o.NoReadMents, "no-read-mentions", false, "mined plans: a word no training question used that names a node (\"pieces\") is never read as the known word the lexicon relates it to (\"parts\"), even where it names a relation and stands where no anchor stood (the ablation)")
	cmd.Flags().BoolVar(&o.NoNonAnch, "no-non-anchors", false, "mined plans: a candidate anchored on a word the training questions never anchored (in 5 or more of them: \"things\", \"kinds\"), on a leading verb (\"Tell me ...\"), right after a word no training anchor followed (\"specific\") or unquoted where the training always quoted, is not ruled out for it (the ablation)")
	cmd.Flags().BoolVar(&o.NoOuter, "no-outer-anchors", false, "mined plans: a candidate that reaches a node named by a longer mention around its anchor (\"membrane\" in \"varieties of semipermeable membrane\"), or is anchored inside a longer mention another candidate anchors on (\"helmet\" in \"crash helmet\"), is not ruled out for it (the ablation)")
	cmd.Flags().BoolVar(&o.NoBare, "no-bare-anchors", false, "mined plans: the anchor scorer learns only from its examples as they are, not also from copies without the mentions' own words, which teach it an anchor's context (the ablation)")
	cmd.Flags().BoolVar(&o.NoShape, "no-shape-anchors", false, "mined plans: the anchor scorer does not also learn from copies of its examples without the words around the mentions, which teach it what a mention's own words and shape tell (the ablation)")
	cmd.Flags().BoolVar(&o.ExactBest, "exact-best", false, "mined plans: choose the checkpoint of the highest validation MRR, however little it beats an earlier one, not the earliest within one validation question's share of it (the ablation)")
	cmd.Flags().BoolVar(&o.NoLexicon, "no-lexicon", false, "mined plans: a question word no training question used is not read as the known word the general English lexicon relates it to (\"helmed\" as directed; the ablation)")
	cmd.Flags().BoolVar(&o.NoNamedRels, "no-named-relations", false, "mined plans: the question's words that name relations (\"directed\" for directed_by) do not rule out plans that walk none of them (the ablation)")
	cmd.Flags().BoolVar(&o.NoCompose, "no-compose", false, "mined plans: the plan ranker does not see which parts of a candidate's plan the question's words name (the ablation)")
	cmd.Flags().StringVar(&o.Text, "text", "auto", "the text channel that answers the queries no plan fits: auto (of BM25, bm25+dense and reading over the workspace's dense channel, the one that ranks the validation questions best; BM25 without a dense channel) or bm25")
	cmd.Flags().BoolVar(&o.NoAttrs, "no-attributes", false, "mined plans: learn no attribute keys and never filter a candidate by an attribute the question states (the ablation)")
	return cmd
}

func runTrainPlanner(ctx context.Context, u *ui, o trainPlannerOptions) error {
	ws, err := workspace.Load(o.WS)
	if err != nil {
		return err
	}
	defer ws.Close()
	d, err := optionalDense(infer.NewEnv(ctx, ws))
	if err != nil {
		return err
	}
	var text *infer.DenseChannel // the dense channel the fallback may fuse with BM25
	switch o.Text {
	case "auto":
		text = d
	case "bm25":
	default:
		return fmt.Errorf("--text %q: want auto or bm25", o.Text)
	}
	run, err := o.Flags.options(u, ws, "planner", o.Mined)
	if err != nil {
		return err
	}
	if run.Log == nil {
		run.Log = u.err // a line per checkpoint off a terminal too
	}
	if len(ws.Plans) > 0 && o.Mined == "" {
		p, res, err := train.Planner(ctx, ws, d, train.PlannerOptions{Hidden: o.Hidden, Train: o.Flags.cfg, Run: run, TextDense: text, Log: u.err})
		if err != nil {
			return err
		}
		fmt.Fprintf(u.out, "trained planner: %d templates, %d steps (%s), best %s val plan accuracy %.4f; queries no plan fits: %s\n",
			len(p.Cfg.Templates), res.Steps, res.Stopped, res.Best, res.BestValue, textChannel(p.Cfg))
		return finishRun(ctx, u, ws, run.RunDir, "planner", train.PlannerStage())
	}
	recs, path, err := mine.Load(ws, o.Mined)
	if err != nil {
		return err
	}
	if !o.Dense {
		d = nil
	}
	fmt.Fprintf(u.out, "training from mined plans (%s)\n", path)
	p, res, st, err := train.LinkingPlanner(ctx, ws, d, train.LinkingPlannerOptions{Hidden: o.Hidden, Members: o.Members, Train: o.Flags.cfg, Run: run, TextDense: text, Mined: recs, MinF1: o.MinF1, NoTwins: o.NoTwins, NoAttributes: o.NoAttrs, NoNamed: o.NoNamed, NoFit: o.NoFit, NoFitLeadVerbs: o.NoFitLead, NoFitLowerRequests: o.NoFitLowerReq, NoFitLeadOf: o.NoFitLeadOf, NoFitSpeakerRequests: o.NoFitSpeaker, NoFitFrontedRequests: o.NoFitFronted, NoFitQuestionMarks: o.NoFitQMarks, NoFitQuotes: o.NoFitQuotes, NoFitAskedSentences: o.NoFitAsked, NoFitAskedRequests: o.NoFitAskedReq, NoFitReaderRequests: o.NoFitReaderReq, NoFitPass: o.NoFitPass, FitDraws: o.FitDraws, NoFitLowest: o.NoFitLowest, NoCompose: o.NoCompose, NoFrameWords: o.NoFrame, NoNamedType: o.NoNamedType, NoNamedRelations: o.NoNamedRels, NoLexicon: o.NoLexicon, NoBareAnchors: o.NoBare, NoShapeAnchors: o.NoShape, ExactBest: o.ExactBest, NoOuterAnchors: o.NoOuter, NoNonAnchors: o.NoNonAnch, NoReadMentions: o.NoReadMents, NoAnswerWords: o.NoAnswerWords, NoAnchorWords: o.NoAnchorWords, NoTypeWords: o.NoTypeWords, NoReadInContext: o.NoReadInCtx, NoRepeatWords: o.NoRepeatWords, NoSynonymRelations: o.NoSynRels, NoDeclineRuledOut: o.NoDecline, NoSchemaSteps: o.NoSchemaSteps, NoSchemaPaths: o.NoSchemaPaths, NoSynonymTypes: o.NoSynonymTypes, NoKindTypes: o.NoKindTypes, NoGeneralTypes: o.NoGeneralTypes, NoSiblingTypes: o.NoSiblingTypes, NoNounSlots: o.NoNounSlots, NoDeeperAsked: o.NoDeeperAsked, NoRepeatTwice: o.NoRepeatTwice, NoDepthSaid: o.NoDepthSaid, NoNestedRelations: o.NoNestedRels, NoDirectionNests: o.NoDirNests, NoNestedKin: o.NoNestedKin, NoReadNoKind: o.NoReadNoKind, NoQuoteLabels: o.NoQuoteLabels, NoPlainDeterminers: o.NoPlainDets, NoDepthPairs: o.NoDepthPairs, NoCoWords: o.NoCoWords, NoReturnedAnchors: o.NoReturned, NoNonAnchorNorms: o.NoNonAnchNorms, NoSharedWith: o.NoSharedWith, NoFuzzyNames: o.NoFuzzyNames, NoMultiwordTypes: o.NoMultiword, NoTypeAfterAnchor: o.NoTypeAfter, NoLeadVerbAsks: o.NoLeadVerb, NoAnswerWordsLead: o.NoAWLead, NoTrailingAnswerWords: o.NoTrailAW, NoInflectedRelations: o.NoInflRels, NoContextSentences: o.NoContext, NoCasualContext: o.NoCasualCtx, NoHeadOf: o.NoHeadOf, NoNounHeads: o.NoNounHeads, NoOfValues: o.NoOfValues, NoRequestObject: o.NoReqObject, NoObjectModifiers: o.NoObjModifiers, NoQuotedSlotsYield: o.NoQuotedYield, NoCasualFit: o.NoCasualFit, NoReadSamePOS: o.NoReadSamePOS, FitRescue: o.Rescue, NoDeeperSearch: o.NoDeeper, NoJoinSingles: o.NoJoinSingles, NoCoverMentions: o.NoCover, NoAddressee: o.NoAddressee, NoPronounVerbs: o.NoPronounVerbs, NoPhrasalVerbs: o.NoPhrasalVerbs, NoFiniteVerbs: o.NoFiniteVerbs, NoWhSubjects: o.NoWhSubjects, NoWhPrepositions: o.NoWhPreps, NoInSituWh: o.NoInSituWh, NoInSituObjects: o.NoInSituObjs, NoMarkedMentions: o.NoMarkedMents, NoPersonPronouns: o.NoPersonPron, NoPersonalPronouns: o.NoPersonalPron, NoAppositive: o.NoAppositive, NoKindAnswerWords: o.NoKindAnswer, NoDerivedFirstSense: o.NoDerivedFirst, NoFormSenses: o.NoFormSenses, NoOpeningNoun: o.NoOpeningNoun, NoOpeningFirst: o.NoOpeningFirst, NoOpeningLift: o.NoOpeningLift, NoSlotLifts: o.NoSlotLifts, NoWrittenAnchors: o.NoWrittenAnch, NoWhAsks: o.NoWhAsks, NoClosingWh: o.NoClosingWh, NoTypeWordNouns: o.NoTWNouns, NoBareObject: o.NoBareObject, NoMixedForms: o.NoMixedForms, NoFrontedPhrase: o.NoFronted, NoPrepositionWh: o.NoPrepWh, NoOpeningTitles: o.NoOpenTitles, NoPossessiveNests: o.NoPossNests, NoPossessiveChains: o.NoPossChains, NoRelativeChains: o.NoRelChains, NoAuxiliaries: o.NoAuxiliaries, NoPairedUnexplained: o.NoPairedUnexpl, NoRelativeThat: o.NoRelativeThat, NoFrontedRoles: o.NoFrontedRoles, NoOfHeads: o.NoOfHeads, NoRequestClauses: o.NoReqClauses, NoClauseAnswerWords: o.NoClauseAW, NoSaidTwice: o.NoSaidTwice, NoSaidVerbs: o.NoSaidVerbs, NoPoliteWords: o.NoPoliteWords, NoNounClauses: o.NoNounClauses, NoColonNouns: o.NoColonNouns, NoNamingClauses: o.NoNamingCl, NoQuantifierTails: o.NoQuantTails, NoStatedLeads: o.NoStatedLeads, NoElidedQuestions: o.NoElidedQs, NoBackPastRoles: o.NoBackRoles, NoStatedNames: o.NoStatedNames, NoDepthBack: o.NoDepthBack, NoPairWords: o.NoPairWords, NoArgumentCompounds: o.NoArgCompounds, NoBeObject: o.NoBeObject, NoObjectBeyond: o.NoObjBeyond, NoQuotedOpening: o.NoQuotedOpen, NoRelativeAntecedents: o.NoRelAnte, NoNounAntecedents: o.NoNounAnte, NoPairedAnchors: o.NoPaired, NoNameSubjects: o.NoNameSubj, NoClosedFollowers: o.NoClosedFollow, NoCompoundHeads: o.NoCompoundHead, NoClauseCompounds: o.NoClauseComp, NoAddressedRequests: o.NoAddressedReq, NoFuzzyOpenings: o.NoFuzzyOpening, NoKindCompounds: o.NoKindCompound, NoPrefixTwice: o.NoPrefixTwice, NoTheirsTwice: o.NoTheirsTwice, NoWhSlotsFirst: o.NoWhSlotsFirst, NoAskingClause: o.NoAskingClause, NoFrontedClause: o.NoFrontedCl, NoClauseSlots: o.NoClauseSlots, NoSlotHeads: o.NoSlotHeads, NoHyphenedLeads: o.NoHyphLeads, NoRequestTitles: o.NoReqTitles, NoMarkTitles: o.NoMarkTitles, NoHeldSlots: o.NoHeldSlots, NoDeterminedValues: o.NoDetValues, NoPersonObjects: o.NoPersonObjs, NoPersonOpenings: o.NoPersonOpens, NoPersonSlots: o.NoPersonSlots, NoSlotKinds: o.NoSlotKinds, NoDirectionModifiers: o.NoDirMods, NoMarkedNests: o.NoMarkedNests, NoNamedSteps: o.NoNamedSteps, NoKindWords: o.NoKindWords, NoAskingMentions: o.NoAskingMents, NoPossessorWh: o.NoPossessorWh, NoObjectWh: o.NoObjectWh, NoWhVerbSlots: o.NoWhVerbSlots, NoFormSlots: o.NoFormSlots, NoSlotsPastRuled: o.NoPastRuled, NoMarkedFollowers: o.NoMarkedFollow, NoTitleObjects: o.NoTitleObjects, NoPrepositionOpenings: o.NoPrepOpenings, NoTitlePrepositions: o.NoTitlePreps, NoWhoseRelatives: o.NoWhoseRels, NoBackPastTypeWords: o.NoBackTypes, NoImperativeOpenings: o.NoImperOpens, NoMarkedSlots: o.NoMarkedSlots, NoCompoundSlots: o.NoCompSlots, NoPrepositionSlots: o.NoPrepSlots, NoStemRelations: o.NoStemRels, NoSpeakerVerbs: o.NoSpeakerVerbs, NoOpeningAdverbs: o.NoOpenAdverbs, NoEmbeddedQuestions: o.NoEmbedded, NoClauseBounds: o.NoClauses, NoSubjectVerbs: o.NoSubjectVerbs, NoAskedAnswerWords: o.NoAskedAW, NoObjectVerbs: o.NoObjectVerbs, NoFormRelations: o.NoFormRels, NoNamedFirst: o.NoNamedFirst, NoVerbFirst: o.NoVerbFirst, NoHeadsOf: o.NoHeadsOf, NoWhichVerbs: o.NoWhichVerbs, NoWhichUnknown: o.NoWhichUnknown, NoWhichSubject: o.NoWhichSubject, NoCompoundWords: o.NoCompounds, NoCoAnchors: o.NoCoAnchors, NoExplainedWords: o.NoExplained, NoKinRelations: o.NoKinRels, NoMentionForms: o.NoMentionForms, NoTitles: o.NoTitles, NoRoles: o.NoRoles, NoAskedBeforeAnchor: o.NoAskedBefore, NoCasedAnchors: o.NoCasedAnchors, NoCasedAcross: o.NoCasedAcross, NoInCompound: o.NoInCompound, NoPassive: o.NoPassive, NoRelativeVerb: o.NoRelativeVerb, NoInPassage: o.NoInPassage, NoQuotedRival: o.NoQuotedRival, NoTypeAfterMention: o.NoTypeAfterMen, Log: u.err, Progress: u.stageProgress()})
	if err != nil {
		return err
	}
	fmt.Fprintf(u.out, "trained planner from mined plans: %d of %d train questions with a plan of F1 >= %.2f, %d templates (%d of them one step and %d two steps along the schema's relations that no training plan is), plan ranker from %d questions; %d steps (%s), best %s val plan-exec mrr %.4f; plan accuracy against %d mined val plans %.4f; queries no plan fits: %s\n",
		st.Used, st.Train, o.MinF1, len(p.Cfg.Templates), st.SchemaSteps-st.SchemaPaths, st.SchemaPaths, st.RankGroups, res.Steps, res.Stopped, res.Best, res.BestValue, st.Val, st.PlanAcc, textChannel(p.Cfg))
	if st.Ranked > 0 {
		fmt.Fprintf(u.out, "%d train questions rank their middle nodes (~): their templates are the structures, ranked or not as the plan ranker chooses\n", st.Ranked)
	}
	if st.Named > 0 {
		fmt.Fprintf(u.out, "named answers: %d of the %d mentions that the training questions' candidates leave in the restriction and that name a node they reach name an answer (where a mention's context words mostly did, the node it names goes first)\n", st.NamedAnswers, st.Named)
	}
	if st.Nested > 0 {
		rule := "too few or too seldom to rule out anything"
		switch a := p.Cfg.Anchors; {
		case a.RepeatTwice:
			rule = "a question that does rules out a candidate walking none twice"
		case o.NoRepeatTwice || !a.RepeatWords || !a.DeeperSearch:
			rule = "the rule is off (--no-repeat-twice, or no repeated-word features or deeper search)"
		}
		fmt.Fprintf(u.out, "nested words: %d train questions say a word twice before \"of\" outside their anchors, %d of them walk one relation twice in a row: %s\n", st.Nested, st.NestedTwice, rule)
	}
	if st.Deep > 0 {
		rule := "too few or too seldom both to rule out anything"
		switch a := p.Cfg.Anchors; {
		case a.DepthSaid:
			rule = "a candidate walking one twice where the question says no depth, or none where it says two, is ruled out"
		case o.NoDepthSaid || !a.RepeatTwice:
			rule = "the rule is off (--no-depth-said, or no nested-word rule)"
		}
		fmt.Fprintf(u.out, "said depth: %d train questions walk one relation twice in a row or say a depth (a nested word, \"two\", \"second\", \"twice\") outside their anchors, %d of them both: %s\n", st.Deep, st.DeepSaid, rule)
		for _, pair := range p.Cfg.Anchors.DepthPairs {
			fmt.Fprintf(u.out, "said depth: the train questions that walk %s then %s say a depth; a candidate walking the two is deep as one walking a relation twice\n", pair[0], pair[1])
		}
	}
	if st.Returned > 0 {
		rule := "a candidate reaching only the anchors it walks back to reaches nothing"
		if !p.Cfg.Anchors.ReturnedAnchors {
			rule = "the rule is off (--no-returned-anchors)"
		}
		fmt.Fprintf(u.out, "returned anchors: %d train questions' mined plans walk straight back to their anchors, %d of them have an answer beyond those anchors (the rest name their answer and were anchored on it): %s\n", st.Returned, st.ReturnedBeyond, rule)
	}
	if p.Cfg.Anchors.Fit != nil {
		fmt.Fprintf(u.out, "text-fit gate: threshold %.4f, calibrated on held-out passages of the SKB's documents: passes %.4f of the val questions, sends %.4f of the held-out passages to the text channel (%s)\n", st.FitMin, st.FitVal, st.FitHeld, textChannel(p.Cfg))
		if st.FitRescue > 0 {
			fmt.Fprintf(u.out, "text-fit gate: a query below it keeps its plan when the planner's confidence reaches %.4f (reached on %.0f%% of the held-out passages it rejects)\n", st.FitRescue, 100*planner.RescueShare)
		}
	}
	if keys := p.Cfg.Anchors.AttrKeys; len(keys) > 0 {
		fmt.Fprintf(u.out, "attribute keys learned from the train answers' text (a candidate is also tried filtered to the nodes stating key + a word of the question): %s\n", strings.Join(keys, ", "))
	}
	if fw := p.Cfg.Anchors.FrameWords; len(fw) > 0 {
		fmt.Fprintf(u.out, "frame words learned from the train questions (in many restrictions, rarely in their answers' text; restrictions leave them out): %s\n", strings.Join(fw, ", "))
	}
	return finishRun(ctx, u, ws, run.RunDir, "planner", train.PlannerStage())
}

// textChannel names the text channel a planner's run answers the queries
// no plan fits with.
func textChannel(c planner.Config) string {
	if c.Text == "" {
		return "bm25"
	}
	return c.Text + ", chosen on val"
}
