package planner

import (
	"hash/fnv"
	"math"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/data/lexicon"
	"github.com/strata-retrieval/strata/graphops/linking"
	"github.com/strata-retrieval/strata/models"
)

// The text-fit gate: whether a query is a question of the kind the
// planner learned to plan at all, or text no plan fits (a description, a
// definition, free text), which the text channel answers better. It is a
// logistic model over the query's hashed words, word pairs, first and
// last words and whether it ends in a question mark, trained on the
// planner's training questions against passages of the SKB's own
// documents (each candidate's text without its name and alias fields:
// text that describes a node and asks for nothing). Its threshold
// (FitConfig.Min) is calibrated on the validation questions against
// passages of other candidates. A query below it gets no plan: the
// wrapped method answers it with its text fallback and counts it.

// FitConfig is the text-fit gate's configuration.
type FitConfig struct {
	Dim int     `json:"dim"` // hashed features
	Min float32 `json:"min"` // the calibrated threshold on FitProb
	// Rescue: a query below Min is planned anyway when the plan ranker's
	// confidence in its plan reaches Rescue (the confidence the planner
	// reaches on only RescueShare of the SKB's held-out passages the gate
	// rejects: CalibrateRescue); 0 never (checkpoints saved before it).
	Rescue float32 `json:"rescue,omitempty"`
	// LeadVerbs: the gate reads a question's first word, when it is a
	// capitalised verb's base form in the lexicon (gateLeadVerb), as one
	// word for all such verbs: a request opening with a verb the training
	// never opened with ("Tell me which ...", "Give me ...") reads as one
	// opening with those it did ("Name ...", "Find ..."). Off in
	// checkpoints saved before it.
	LeadVerbs bool `json:"lead_verbs,omitempty"`
	// Casual: the gate was trained and calibrated on every question and
	// passage also as typed casually (CasualForm: lower case, no closing
	// question mark or full stop), so neither case nor a closing mark
	// tells a question from a passage: WordNet's glosses open in lower
	// case and close with none, and a gate that learned from the
	// training's written questions alone sent "which adjectives mean
	// nearly the same as 'unaware'" to the text. Off in checkpoints
	// saved before it.
	Casual bool `json:"casual,omitempty"`
	// LowerRequests: with LeadVerbs, a lower-case first word the lexicon
	// knows as a verb's base form is a lead verb too when "me" or "us"
	// follows it: a request typed casually ("give me a car window from
	// ..."), which a gloss or a description, addressed to no one, never
	// opens with (WordNet's "give a certain impression"). Off in
	// checkpoints saved before it.
	LowerRequests bool `json:"lower_requests,omitempty"`
	// LeadOf: with LeadVerbs, a first word followed by "of" is no lead
	// verb (ofAfterFirst): a request's verb takes its object right after
	// it ("Name the ...", "List things ..."), and "of" right after a
	// text's first word makes that word the head of a noun's or an
	// adjective's phrase, as a definition opens ("Want of resemblance",
	// "Act of rising", "Full of dirt"), not a request. A verb that takes
	// "of" ("Think of the adjectives ...") is read as the word it is, and
	// its text by its other words and marks. Off in checkpoints saved
	// before it.
	LeadOf bool `json:"lead_of,omitempty"`
	// SpeakerRequests: with LeadVerbs, a text opening with its speaker
	// as a verb's subject ("I need the word under X that means ...", "We
	// need every hyponym of ...", "I'm looking for a Y that ...") is a
	// request as "Give me ..." is: the gate reads it from that verb, read
	// as a lead verb (speakerRequest). A gloss or a description never
	// opens so. Off in checkpoints saved before it.
	SpeakerRequests bool `json:"speaker_requests,omitempty"`
	// FrontedRequests: with LeadVerbs, a request after a phrase fronted
	// before it and closed by a comma ("Of all the senses of 'daze',
	// pick the one ...", "Of the meanings of 'wolf', I want the one ...")
	// is read from its verb as the requests above are (frontedRequest):
	// the gate learned requests that open with their verb. Off in
	// checkpoints saved before it.
	FrontedRequests bool `json:"fronted_requests,omitempty"`
	// QuestionMarks: a text closing with a question mark asks something,
	// and the planner plans it whatever the gate's probability (closesAsked):
	// the gate learned from the training's wordings, and a question worded
	// otherwise ("A sandwich used chiefly in the UK?") reads to it as the
	// passages it learned against, none of which closes so (the SKB's
	// documents describe; they do not ask). Text written as a description
	// or a definition, a question mark aside, still meets the gate. Off in
	// checkpoints saved before it.
	QuestionMarks bool `json:"question_marks,omitempty"`
	// AskedSentences: with QuestionMarks, a text holding a sentence that
	// closes with a question mark, outside quotations, is planned
	// whatever the gate's probability too (asksSentence: "Did X perform
	// in any movie released in 2008? Name them."): a description or a
	// definition asks nothing, and the question marks the SKBs' documents
	// hold are quoted examples ("how could you do such a thing?") or
	// tags ("biography?, england"). Off in checkpoints saved before it.
	AskedSentences bool `json:"asked_sentences,omitempty"`
	// AskedRequests: a text holding a later sentence that opens with a
	// request's verb, outside quotations, is planned whatever the gate's
	// probability (requestSentence: "mountain chain has components. Tell
	// me the geological formation among them."). The gate cannot learn
	// it: no training question asks in a later sentence, and reading the
	// text from that verb while training moved its weights for every text
	// (docs/robustness.md, stop 117). Off in checkpoints saved before it.
	AskedRequests bool `json:"asked_requests,omitempty"`
	// ReaderRequests: a text that addresses its reader, outside its
	// quotations, is planned whatever the gate's probability
	// (readerRequest): "please" closing a sentence ("the shrub one,
	// please."), "and" before a verb and "me" or "us" ("... and tell me
	// who lives there"), or a closing clause of a verb and "it" or "them"
	// ("...; pick it out."). No passage of either SKB is written so (the
	// gate's own threshold passes one in 8,192). Off in checkpoints saved
	// before it.
	ReaderRequests bool `json:"reader_requests,omitempty"`
	// Quotes: the gate reads each quotation in a text (quotedSpans) as one
	// word, quoteWord, whatever it quotes: a question that cites a gloss
	// ("\"Kamarupan languages spoken in western Burma\" describes one
	// subordinate of Kamarupan. Name it.") reads to it by its own words,
	// not by the cited gloss's, which are a passage's words. Whether a
	// quotation marks a question or a passage is learned, as every other
	// feature is. Off in checkpoints saved before it.
	Quotes bool `json:"quotes,omitempty"`
}

// closesAsked reports whether text, trailing spaces and closing quotes
// and brackets aside, ends with a question mark (FitConfig.QuestionMarks).
func closesAsked(text string) bool {
	return strings.HasSuffix(strings.TrimRight(text, " \t\r\n\"')]”’"), "?")
}

// asksSentence reports whether text holds a sentence that closes with a
// question mark outside its quotations (quotedSpans): one followed by a
// space and a capital letter (FitConfig.AskedSentences).
func asksSentence(text string) bool {
	spans := quotedSpans(text, false)
	for i := 0; i < len(text); i++ {
		if text[i] != '?' || slices.ContainsFunc(spans, func(q [2]int) bool { return i >= q[0] && i < q[1] }) {
			continue
		}
		rest := strings.TrimLeft(text[i+1:], " ")
		if r, _ := utf8.DecodeRuneInString(rest); len(rest) < len(text)-i-1 && unicode.IsUpper(r) {
			return true
		}
	}
	return false
}

// requestSentence reports whether text holds, after its first, a
// sentence or clause that opens with a request, outside its quotations
// (FitConfig.AskedRequests): after . ? or ! closing a word of more than
// one letter (not an initial or "e.g.") and spaces, a capitalised verb's
// base form; after such a mark or ; or :, a lower-case one before "me"
// or "us" ("...: give me that entry"); or "I" or "we" and a verb
// (speakerRequest: "...; I want the one that ...").
func requestSentence(text string) bool {
	words := linking.MentionWords(text)
	spans := quotedSpans(text, false)
	for i := 1; i+1 < len(words); i++ {
		gap := strings.TrimLeft(text[words[i-1].End:words[i].Start], "\"')]\u201d\u2019")
		if len(gap) < 2 || strings.TrimLeft(gap[1:], " ") != "" {
			continue
		}
		sentence := strings.ContainsRune(".?!", rune(gap[0])) && utf8.RuneCountInString(words[i-1].Norm) > 1
		if !sentence && gap[0] != ';' && gap[0] != ':' || slices.ContainsFunc(spans, func(q [2]int) bool { return words[i].Start >= q[0] && words[i].Start < q[1] }) {
			continue
		}
		rest := text[words[i].Start:]
		if w := strings.ToLower(text[words[i].Start:words[i].End]); w == "i" || w == "we" {
			if speakerRequest(rest) > 0 {
				return true
			}
			continue
		}
		r, _ := utf8.DecodeRuneInString(rest)
		if unicode.IsUpper(r) && sentence && gateLeadVerb(rest, false) || !unicode.IsUpper(r) && gateLeadVerb(rest, true) {
			return true
		}
	}
	return false
}

// readerRequest reports whether text addresses its reader outside its
// quotations (FitConfig.ReaderRequests): "please" as the last word of a
// sentence, not after "to" ("eager to please"); "and", a lower-case word the lexicon knows as a verb's base
// form and "me" or "us"; or, after ; : or a sentence's end, such a verb
// and "it" or "them", with "out", "up" or "down" after them at most,
// closing the text.
func readerRequest(text string) bool {
	words := linking.MentionWords(text)
	spans := quotedSpans(text, false)
	lex, err := lexicon.WordNet()
	if err != nil {
		return false
	}
	verb := func(i int) bool {
		raw := text[words[i].Start:words[i].End]
		r, _ := utf8.DecodeRuneInString(raw)
		return !unicode.IsUpper(r) && lex.IsVerb(strings.ToLower(raw))
	}
	for i, w := range words {
		if slices.ContainsFunc(spans, func(q [2]int) bool { return w.Start >= q[0] && w.Start < q[1] }) {
			continue
		}
		if w.Norm == "please" && (i == 0 || words[i-1].Norm != "to") {
			if after := strings.TrimLeft(text[w.End:], " "); after == "" || strings.ContainsRune(".?!", rune(after[0])) {
				return true
			}
		}
		if i == 0 || i+1 >= len(words) || !verb(i) {
			continue
		}
		gap := text[words[i-1].End:w.Start]
		if words[i-1].Norm == "and" && strings.TrimLeft(gap, " ") == "" && (words[i+1].Norm == "me" || words[i+1].Norm == "us") {
			return true
		}
		gap = strings.TrimLeft(gap, "\"')]\u201d\u2019")
		if len(gap) < 2 || strings.TrimLeft(gap[1:], " ") != "" || !strings.ContainsRune(";:.?!", rune(gap[0])) || words[i+1].Norm != "it" && words[i+1].Norm != "them" {
			continue
		}
		last := i + 1
		if last+1 < len(words) && (words[last+1].Norm == "out" || words[last+1].Norm == "up" || words[last+1].Norm == "down") {
			last++
		}
		if last == len(words)-1 && strings.Trim(text[words[last].End:], " .?!") == "" {
			return true
		}
	}
	return false
}

// CasualForm is text as typed casually: lower case, with no closing
// question mark, full stop or exclamation mark.
func CasualForm(text string) string {
	return strings.ToLower(strings.TrimRight(strings.TrimSpace(text), "?.! "))
}

// RescueShare is the share of held-out passages below the gate whose
// plans the rescue threshold lets stand (0.1 let one more GCIDE
// development definition than BM25 lose its top 10 on WordNet).
const RescueShare = 0.05

// CalibrateRescue returns the rescue threshold: the confidence that
// RescueShare of confs (the planner's confidence in its plans of held-out
// passages the gate rejects) reach; 0 (no rescue) without any. A question
// worded unlike the training questions (a synonym the gate never saw) that
// the planner still plans with more confidence than it has in 19 of 20
// passages keeps its plan; text no plan fits rarely gets there.
func CalibrateRescue(confs []float32) float32 {
	if len(confs) == 0 {
		return 0
	}
	c := slices.Clone(confs)
	slices.Sort(c)
	return c[min(len(c)-1, int(math.Ceil((1-RescueShare)*float64(len(c)))))]
}

// FitFeatures hashes a query's text-fit features into dim buckets: a
// bias, each word ("w "), each pair of adjacent words ("p "), the first
// and last words ("f ", "l ") and whether the text ends with "?". With
// leadVerb the first word is read as leadVerbWord, whatever it is.
func FitFeatures(dim int, text string, leadVerb bool) []uint32 {
	return fitFeatures(dim, text, leadVerb, false)
}

// fitFeatures is FitFeatures, with quotes each quotation's words read as
// one word, quoteWord (FitConfig.Quotes).
func fitFeatures(dim int, text string, leadVerb, quotes bool) []uint32 {
	h := fnv.New32a()
	var out []uint32
	add := func(s string) {
		h.Reset()
		h.Write([]byte(s))
		out = append(out, h.Sum32()%uint32(dim))
	}
	add("bias")
	words := linking.MentionWords(text)
	if quotes {
		words = quotedAsOne(text, words)
	}
	if leadVerb && len(words) > 0 {
		words[0].Norm = leadVerbWord
	}
	for i, w := range words {
		add("w " + w.Norm)
		if i > 0 {
			add("p " + words[i-1].Norm + " " + w.Norm)
		}
	}
	if len(words) > 0 {
		add("f " + words[0].Norm)
		add("l " + words[len(words)-1].Norm)
	}
	if strings.HasSuffix(strings.TrimSpace(text), "?") {
		add("?")
	}
	return out
}

// leadVerbWord is the word the gate reads a lead verb as (FitFeatures):
// no word of a text reads so (MentionWords keeps letters and digits).
const leadVerbWord = "<verb>"

// quoteWord is the word the gate reads a quotation as (FitConfig.Quotes).
const quoteWord = "<quote>"

// quotedAsOne is words with the words of each of text's quotations
// (quotedSpans) replaced by one word, quoteWord, spanning the quotation.
func quotedAsOne(text string, words []linking.Word) []linking.Word {
	spans := quotedSpans(text, false)
	if len(spans) == 0 {
		return words
	}
	out := make([]linking.Word, 0, len(words))
	k := 0
	for _, w := range words {
		for k < len(spans) && spans[k][1] <= w.Start {
			k++
		}
		if k < len(spans) && w.Start >= spans[k][0] {
			if n := len(out); n > 0 && out[n-1].Norm == quoteWord && out[n-1].Start == spans[k][0] {
				continue
			}
			out = append(out, linking.Word{Start: spans[k][0], End: spans[k][1], Norm: quoteWord})
			continue
		}
		out = append(out, w)
	}
	return out
}

// FitProb is the gate's probability that a text with features feats
// (FitFeatures) is a question the planner plans: the logistic of the
// summed weights of its features.
func FitProb(m *models.SparseLinear, feats []uint32) float32 {
	return float32(1 / (1 + math.Exp(-float64(m.Score(feats)))))
}

// FitFeatures are the text-fit gate's features of text as the planner
// reads it (FitText), its first word read as a lead verb when
// FitConfig.LeadVerbs says so and gateLeadVerb holds. Cfg.Anchors.Fit
// must be set.
func (p *LinkingPlanner) FitFeatures(text string) []uint32 {
	f := p.Cfg.Anchors.Fit
	if f.LeadVerbs && f.SpeakerRequests {
		if at := speakerRequest(text); at > 0 {
			return fitFeatures(f.Dim, p.FitText(text[at:]), true, f.Quotes)
		}
	}
	if f.LeadVerbs && f.FrontedRequests {
		if at := frontedRequest(text, f.SpeakerRequests); at > 0 {
			return fitFeatures(f.Dim, p.FitText(text[at:]), true, f.Quotes)
		}
	}
	return fitFeatures(f.Dim, p.FitText(text), f.LeadVerbs && gateLeadVerb(text, f.LowerRequests) && !(f.LeadOf && ofAfterFirst(text)), f.Quotes)
}

// ofAfterFirst reports whether text's second word is "of"
// (FitConfig.LeadOf): "Want of resemblance", "Act of rising".
func ofAfterFirst(text string) bool {
	words := linking.MentionWords(text)
	return len(words) > 1 && words[1].Norm == "of"
}

// speakerRequest is the byte offset of the verb of a request its speaker
// is the subject of, opening text (FitConfig.SpeakerRequests): one of
// speakerSubjects first ("I", "We", "I'm", "I'd"), then, past forms of
// "be" and "would", a word the lexicon knows as a verb's form ("need",
// "looking"); 0 where text opens otherwise.
func speakerRequest(text string) int {
	words := linking.MentionWords(text)
	lower := func(i int) string {
		return strings.ReplaceAll(strings.ToLower(text[words[i].Start:words[i].End]), "\u2019", "'")
	}
	if len(words) < 3 || !speakerSubjects[lower(0)] || strings.ContainsAny(text[:words[0].Start], `'"‘“`) {
		return 0
	}
	i := 1
	for i < len(words)-1 && (beForms[lower(i)] || lower(i) == "would") {
		i++
	}
	lex, err := lexicon.WordNet()
	if err != nil || beForms[lower(i)] || !lex.IsVerbForm(lower(i)) {
		return 0
	}
	return words[i].Start
}

// requestObjects are the words a request's verb is followed by, after a
// fronted phrase (frontedRequest): a determiner or a pronoun of its
// object ("pick the one", "give me"). English, no data set's words.
var requestObjects = map[string]bool{"the": true, "a": true, "an": true, "me": true, "us": true, "one": true, "each": true, "every": true, "all": true, "its": true, "their": true, "which": true, "what": true}

// frontedRequest is the byte offset of the verb of a request that
// follows a phrase opening text, closed by a comma, within
// maxFrontedWords words and with no other mark of a phrase's end (. ; :
// ? !) before it (FitConfig.FrontedRequests): a word the lexicon knows as
// a verb's base form followed by one of requestObjects ("Of all the
// senses of 'daze', pick the one ..."), or, with speaker, the verb of a
// request its speaker is the subject of (speakerRequest: "..., I want
// the one ..."); 0 where there is none. A gloss or a description
// addressed to no one is not written so.
func frontedRequest(text string, speaker bool) int {
	words := linking.MentionWords(text)
	for i := 1; i+1 < len(words) && i <= maxFrontedWords; i++ {
		gap := text[words[i-1].End:words[i].Start]
		if strings.ContainsAny(gap, ".;:?!") {
			return 0
		}
		if !strings.Contains(gap, ",") {
			continue
		}
		if speaker {
			if at := speakerRequest(text[words[i].Start:]); at > 0 {
				return words[i].Start + at
			}
		}
		lex, err := lexicon.WordNet()
		if err != nil || !lex.IsVerb(strings.ToLower(text[words[i].Start:words[i].End])) || !requestObjects[strings.ToLower(text[words[i+1].Start:words[i+1].End])] {
			return 0
		}
		return words[i].Start
	}
	return 0
}

// gateLeadVerb reports whether text opens, unquoted, with a capitalised
// word the lexicon knows as a verb's base form: a request ("Tell me
// ...", "Name ..."). The training's passages, WordNet's glosses among
// them, open in lower case ("give a certain impression"). With
// lowerRequests a lower-case one followed by "me" or "us" is one too
// ("give me ...": FitConfig.LowerRequests).
func gateLeadVerb(text string, lowerRequests bool) bool {
	words := linking.MentionWords(text)
	if len(words) == 0 || strings.ContainsAny(text[:words[0].Start], `'"‘“`) {
		return false
	}
	raw := text[words[0].Start:words[0].End]
	if r, _ := utf8.DecodeRuneInString(raw); !unicode.IsUpper(r) && !(lowerRequests && len(words) > 1 && (words[1].Norm == "me" || words[1].Norm == "us")) {
		return false
	}
	lex, err := lexicon.WordNet()
	return err == nil && lex.IsVerb(strings.ToLower(raw))
}

// CalibrateFit picks the gate's threshold among those that maximise the
// share of pos (validation questions) at or above it plus the share of neg
// (held-out passages) below it: the logistic model's own boundary, 0.5
// (it learned from as many questions as passages), when that is one of
// them; otherwise the middle of the first such gap between sorted
// probabilities (in the logit, so a gap between 0.2 and 0.8 gives 0.5).
// The validation questions are worded as the training questions, so every
// threshold in a wide gap separates them from the passages; a question in
// other words falls in the gap, and the logit middle of a gap that reaches
// up to the training questions' own probabilities sent paraphrases to the
// text that the planner answers (WordNet vsyn, seed 1: 105 fell back,
// 0.8180; at 0.5, 41, 0.8548; no GCIDE development definition lost).
// Without pos it is 0: the gate passes everything.
//
// With lowest, the threshold is instead the lowest of the first such gap:
// just above the highest probability below it, so the gate rejects only
// what reads as much like the SKB's own text as a held-out passage that
// scored highest does. A question in words the training never used
// scores below the training questions but, as a rule, far above any
// passage: movies-skb's passages (film details: "Released in 1971.
// Language: German.") reach 0.06 and "Colin Blakely acting roles 1967"
// 0.36, which 0.5 sent to the text, whose first answer was wrong for all
// 9 movies-skb development questions it took; WordNet's glosses reach
// 0.41 and none of 2,000 more of them, nor another GCIDE development
// definition, passes.
func CalibrateFit(pos, neg []float32, lowest bool) float32 {
	if len(pos) == 0 {
		return 0
	}
	all := append(slices.Clone(pos), neg...)
	slices.Sort(all)
	all = slices.Compact(all)
	score := func(t float32) float64 {
		var a, b int
		for _, p := range pos {
			if p >= t {
				a++
			}
		}
		for _, p := range neg {
			if p < t {
				b++
			}
		}
		s := float64(a) / float64(len(pos))
		if len(neg) > 0 {
			s += float64(b) / float64(len(neg))
		}
		return s
	}
	// A threshold equal to all[i] passes all[i] and everything above; the
	// threshold in the gap below all[i] does the same.
	best, bi := -1.0, 0
	for i, t := range all {
		if s := score(t); s > best {
			best, bi = s, i
		}
	}
	if bi == 0 {
		return 0 // passing everything is best
	}
	if lowest {
		return math.Nextafter32(all[bi-1], 1)
	}
	if score(0.5) >= best {
		return 0.5
	}
	lo, hi := logit(all[bi-1]), logit(all[bi])
	return float32(1 / (1 + math.Exp(-(lo+hi)/2)))
}

// FitPassShare is the share of the SKB's held-out passages the text-fit
// gate's threshold lets through to a plan (CalibrateFitShare): about one
// in 8,192. The highest of 2,400 passages, the threshold before it, is the
// tail's extreme and moved with the draw (0.25-0.52 over three WordNet
// seeds); a share of 65,536 passages is a quantile, which a draw moves
// far less (docs/robustness.md, stop 117).
const FitPassShare = 1.0 / 8192

// CalibrateFitShare is the text-fit gate's threshold that passes share of
// neg (the probabilities of held-out passages): just above the
// probability of the passage at that place from the top, so that
// int(share*len(neg)) of them reach it, ties aside; just above the
// highest where that is none. Without neg it is 0: the gate passes
// everything.
func CalibrateFitShare(neg []float32, share float64) float32 {
	if len(neg) == 0 {
		return 0
	}
	n := slices.Clone(neg)
	slices.Sort(n)
	slices.Reverse(n)
	k := min(len(n)-1, int(share*float64(len(n))))
	return math.Nextafter32(n[k], 1)
}

func logit(p float32) float64 {
	q := min(max(float64(p), 1e-9), 1-1e-9)
	return math.Log(q / (1 - q))
}

// Passages returns, for each node of ids, the text of its document that
// names nothing: its text fields other than alias fields (the node's name
// is not a field), joined and cut at maxWords words; nodes with fewer
// than 3 such words are left out.
func Passages(skb *data.SKB, alias []string, ids []uint32, maxWords int) []string {
	var keep []int
	for i, f := range skb.Schema.TextFields {
		if f != "name" && !slices.Contains(alias, f) {
			keep = append(keep, i)
		}
	}
	var out []string
	for _, v := range ids {
		var words []string
		for _, i := range keep {
			if i < len(skb.Nodes[v].Fields) {
				words = append(words, strings.Fields(skb.Nodes[v].Fields[i])...)
			}
		}
		if len(words) < 3 {
			continue
		}
		out = append(out, strings.Join(words[:min(len(words), maxWords)], " "))
	}
	return out
}
