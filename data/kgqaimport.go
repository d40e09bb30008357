package data

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
)

// KGQA question file formats.
const (
	// KGQAMetaQA: question<TAB>ans1|ans2, the topic entity in [brackets].
	KGQAMetaQA = "metaqa"
	// KGQAPathQuestion: IRN's question<TAB>answer(ans1/ans2/)<TAB>path,
	// the topic entity written inline and first on the path.
	KGQAPathQuestion = "pathquestion"
	// KGQAWorldCup: IRN's WorldCup2014 files (WC-P1, WC-P2, WC-C):
	// question<TAB>answer<TAB>path[*path]<TAB>ans1/ans2/<TAB>facts[<TAB>topic1/topic2],
	// one path per topic entity, each written inline in the question.
	KGQAWorldCup = "worldcup"
)

// DetectKGQAFormat names the format of a question file from its first
// non-empty line: three TAB-separated columns whose third is a #-separated
// path is PathQuestion, five or six whose third is a path and fourth a
// /-terminated answer list is WorldCup, anything else MetaQA.
func DetectKGQAFormat(b []byte) string {
	for len(b) > 0 {
		line := b
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			line, b = b[:i], b[i+1:]
		} else {
			b = nil
		}
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		cols := bytes.Split(bytes.TrimRight(line, "\r"), []byte{'\t'})
		if len(cols) == 3 && bytes.IndexByte(cols[2], '#') >= 0 {
			return KGQAPathQuestion
		}
		if (len(cols) == 5 || len(cols) == 6) && bytes.IndexByte(cols[2], '#') >= 0 && bytes.HasSuffix(bytes.TrimSpace(cols[3]), []byte{'/'}) {
			return KGQAWorldCup
		}
		return KGQAMetaQA
	}
	return KGQAMetaQA
}

// ReadKGQAFile reads a question file of either format (DetectKGQAFormat)
// and returns its questions and format. qtypePath (MetaQA's aligned
// question types) is read when not empty.
func ReadKGQAFile(path, qtypePath string) ([]KGQuestion, string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, "", perrf(path, 0, "", ErrMissingFile, "file not found")
		}
		return nil, "", err
	}
	if err := checkUTF8Text(path, b); err != nil {
		return nil, "", err
	}
	switch f := DetectKGQAFormat(b); f {
	case KGQAPathQuestion:
		qs, err := ParsePathQuestion(bytes.NewReader(b), path)
		return qs, f, err
	case KGQAWorldCup:
		qs, err := ParseWorldCup(bytes.NewReader(b), path)
		return qs, f, err
	}
	qs, err := ReadKGQA(path, qtypePath)
	return qs, KGQAMetaQA, err
}

// ParsePathQuestion parses IRN's PathQuestion files (PQ-2H, PQ-3H, PQL-*):
//
//	question<TAB>FIRST(ANS1/ANS2/.../)<TAB>topic#rel1#e1#rel2#...#answer[#<end>#answer]
//
// The topic entity is the path's first element; it is written inline in the
// question, and the question's text marks its first whole-word occurrence
// in [brackets] as MetaQA does, so KGQA finds it the same way. The answers
// are the parenthesised set (entity names may hold parentheses: the split
// is at the "(" whose prefix is one of the listed answers). The path's
// relations become Paths (and the question's plan, KGQuestion.Plan). Leading
// and trailing spaces of the question are dropped (PQL lines start with one).
func ParsePathQuestion(r io.Reader, file string) ([]KGQuestion, error) {
	sc := newLineScanner(r, file)
	var out []KGQuestion
	for {
		b, ok := sc.Next()
		if !ok {
			break
		}
		if len(bytes.TrimSpace(b)) == 0 {
			continue
		}
		cols := strings.Split(string(b), "\t")
		if len(cols) != 3 {
			return nil, perrf(file, sc.line, "", ErrSyntax, "want question<TAB>answers<TAB>path, got %d columns", len(cols))
		}
		q, err := kgqaQuestion(file, sc.line, cols[0])
		if err != nil {
			return nil, err
		}
		answers, err := pathQuestionAnswers(strings.TrimSpace(cols[1]))
		if err != nil {
			return nil, perrf(file, sc.line, "answers", ErrSyntax, "%v", err)
		}
		topic, rels, err := pathQuestionPath(strings.TrimSpace(cols[2]))
		if err != nil {
			return nil, perrf(file, sc.line, "path", ErrSyntax, "%v", err)
		}
		text, ok := bracketWord(q, topic)
		if !ok {
			return nil, perrf(file, sc.line, "question", ErrSyntax, "the topic entity %s (the path's first element) is not a word of the question", quoteClip(topic))
		}
		out = append(out, KGQuestion{Line: sc.line, Text: text, Topic: topic, Topics: []string{topic}, Answers: answers, Paths: [][]string{rels}})
	}
	return out, sc.Err()
}

// ParseWorldCup parses IRN's WorldCup2014 question files:
//
//	question<TAB>ANSWER<TAB>PATH[*PATH]<TAB>ANS1/ANS2/.../<TAB>FACTS[<TAB>TOPIC1/TOPIC2]
//
// Each PATH is topic#rel1#e1#...#answer[#<end>#answer] as in PathQuestion;
// a conjunctive question (WC-C) has one path per topic entity, joined by
// "*", and asks for the targets every path reaches. Topics are written
// inline in the question and marked in [brackets], as MetaQA's are. The
// answer set is the fourth column; the fifth (the facts IRN shows its
// model) is not read; the sixth, when present, must list the paths' topics
// in order. Relations are the KB's own names (WorldCup's KB stores each
// "_inverse" relation as a triple of its own), each step in its stored
// direction.
func ParseWorldCup(r io.Reader, file string) ([]KGQuestion, error) {
	sc := newLineScanner(r, file)
	var out []KGQuestion
	for {
		b, ok := sc.Next()
		if !ok {
			break
		}
		if len(bytes.TrimSpace(b)) == 0 {
			continue
		}
		cols := strings.Split(strings.TrimRight(string(b), "\r"), "\t")
		if len(cols) != 5 && len(cols) != 6 {
			return nil, perrf(file, sc.line, "", ErrSyntax, "want question<TAB>answer<TAB>path<TAB>answers<TAB>facts[<TAB>topics], got %d columns", len(cols))
		}
		text, err := kgqaQuestion(file, sc.line, cols[0])
		if err != nil {
			return nil, err
		}
		list := strings.TrimSpace(cols[3])
		if !strings.HasSuffix(list, "/") {
			return nil, perrf(file, sc.line, "answers", ErrSyntax, "want ANS1/ANS2/.../, got %s", quoteClip(list))
		}
		answers := strings.Split(strings.TrimSuffix(list, "/"), "/")
		if slices.Contains(answers, "") {
			return nil, perrf(file, sc.line, "answers", ErrSyntax, "an empty answer in %s", quoteClip(list))
		}
		q := KGQuestion{Line: sc.line, Answers: answers}
		for _, part := range strings.Split(strings.TrimSpace(cols[2]), "*") {
			topic, rels, err := pathQuestionPath(part)
			if err != nil {
				return nil, perrf(file, sc.line, "path", ErrSyntax, "%v", err)
			}
			if slices.Contains(q.Topics, topic) {
				return nil, perrf(file, sc.line, "path", ErrSyntax, "two paths start at %s", quoteClip(topic))
			}
			q.Topics = append(q.Topics, topic)
			q.Paths = append(q.Paths, rels)
		}
		if len(cols) == 6 {
			if listed := strings.Split(strings.TrimSpace(cols[5]), "/"); !slices.Equal(listed, q.Topics) {
				return nil, perrf(file, sc.line, "topics", ErrSyntax, "lists %s, the paths start at %s", quoteClip(cols[5]), quoteClip(strings.Join(q.Topics, "/")))
			}
		}
		for _, t := range q.Topics {
			marked, ok := bracketWord(text, t)
			if !ok {
				return nil, perrf(file, sc.line, "question", ErrSyntax, "the topic entity %s (a path's first element) is not a word of the question", quoteClip(t))
			}
			text = marked
		}
		q.Text, q.Topic = text, q.Topics[0]
		out = append(out, q)
	}
	return out, sc.Err()
}

// kgqaQuestion is the question column of an IRN line, trimmed: not empty,
// and without brackets (its topics get marked [topic]).
func kgqaQuestion(file string, line int, col string) (string, error) {
	q := strings.TrimSpace(col)
	if q == "" {
		return "", perrf(file, line, "question", ErrSyntax, "empty")
	}
	if strings.ContainsAny(q, "[]") {
		return "", perrf(file, line, "question", ErrSyntax, "holds a bracket, which would blur the [topic] mark")
	}
	return q, nil
}

// pathQuestionAnswers splits FIRST(ANS1/ANS2/.../) into the answer set.
func pathQuestionAnswers(s string) ([]string, error) {
	if !strings.HasSuffix(s, "/)") {
		return nil, fmt.Errorf("want FIRST(ANS1/ANS2/.../), got %s", quoteClip(s))
	}
	for i := strings.IndexByte(s, '('); i >= 0; {
		first, list := s[:i], strings.Split(s[i+1:len(s)-2], "/")
		if first != "" && slices.Contains(list, first) && !slices.Contains(list, "") {
			return list, nil
		}
		j := strings.IndexByte(s[i+1:], '(')
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return nil, fmt.Errorf("want FIRST(ANS1/ANS2/.../) with FIRST one of the answers, got %s", quoteClip(s))
}

// pathQuestionPath reads topic#rel1#e1#...#answer, optionally followed by
// #<end>#answer, into the topic and the relations.
func pathQuestionPath(s string) (string, []string, error) {
	parts := strings.Split(s, "#")
	if i := slices.Index(parts, "<end>"); i >= 0 {
		if i == 0 || i != len(parts)-2 || parts[i+1] != parts[i-1] {
			return "", nil, fmt.Errorf("<end> must be followed by the path's last entity only, got %s", quoteClip(s))
		}
		parts = parts[:i]
	}
	if len(parts) < 3 || len(parts)%2 == 0 {
		return "", nil, fmt.Errorf("want entity#relation#entity[#relation#entity...], got %s", quoteClip(s))
	}
	for i, p := range parts {
		if strings.TrimSpace(p) == "" {
			return "", nil, fmt.Errorf("element %d of %s is empty", i+1, quoteClip(s))
		}
	}
	if strings.ContainsAny(parts[0], "[]") {
		return "", nil, fmt.Errorf("the topic entity %s holds a bracket, which would not mark it", quoteClip(parts[0]))
	}
	var rels []string
	for i := 1; i < len(parts); i += 2 {
		rels = append(rels, parts[i])
	}
	return parts[0], rels, nil
}

// bracketWord marks the first occurrence of word in text that stands
// between spaces (or the text's ends) as [word].
func bracketWord(text, word string) (string, bool) {
	for from := 0; ; {
		i := strings.Index(text[from:], word)
		if i < 0 {
			return "", false
		}
		i += from
		end := i + len(word)
		if (i == 0 || text[i-1] == ' ') && (end == len(text) || text[end] == ' ') {
			return text[:i] + "[" + word + "]" + text[end:], true
		}
		from = i + 1
	}
}

// Plan is the question's relation paths as a plan over the triples SKB:
// from the path column (PathQuestion, WorldCup: one path per topic, every
// step in the stored direction, "->rel", as the path reads subject to
// object; several paths meet at the target) or the question type (MetaQA:
// undirected, the types walk relations both ways).
func (q KGQuestion) Plan() (Plan, bool) {
	if len(q.Paths) == 0 {
		return MetaQAPlan(q.QType, q.Topic)
	}
	if len(q.Paths) != len(q.Topics) {
		return Plan{}, false
	}
	plan := Plan{Restriction: map[string][]string{TriplesEntityType: slices.Clone(q.Topics)}}
	for _, rels := range q.Paths {
		types := []string{TriplesEntityType}
		var steps []PathStep
		for _, r := range rels {
			types = append(types, TriplesEntityType)
			steps = append(steps, Step(r, Forward))
		}
		plan.Paths = append(plan.Paths, TypePath(types, steps))
	}
	return plan, true
}

// SplitByPosition assigns questions to train, val and test by their
// position in the file: of every ten, the first six train, two val, two
// test (MetaQA's dev files, which have no split of their own).
func SplitByPosition(ids []int) map[string][]int {
	out := map[string][]int{}
	for i, id := range ids {
		s := SplitTrain
		switch i % 10 {
		case 6, 7:
			s = SplitVal
		case 8, 9:
			s = SplitTest
		}
		out[s] = append(out[s], id)
	}
	return out
}

// SplitRandom assigns questions to train, val and test at random, 80/10/10
// as IRN splits PathQuestion: a permutation seeded by seed; the first
// ⌊0.8n⌋ train, the next ⌊0.1n⌋ val, the rest test; each split in file
// order.
func SplitRandom(ids []int, seed uint64) map[string][]int {
	perm := rand.New(rand.NewPCG(seed, 0x5eed)).Perm(len(ids))
	nTrain, nVal := len(ids)*8/10, len(ids)/10
	out := map[string][]int{}
	for i, p := range perm {
		s := SplitTest
		switch {
		case i < nTrain:
			s = SplitTrain
		case i < nTrain+nVal:
			s = SplitVal
		}
		out[s] = append(out[s], ids[p])
	}
	for _, v := range out {
		sort.Ints(v)
	}
	return out
}

// KGQAFileSpec is a question file given as FILE[:SPLIT].
type KGQAFileSpec struct {
	Path  string
	Split string // "" when none was given
}

// String writes the spec back as FILE[:SPLIT].
func (s KGQAFileSpec) String() string {
	if s.Split == "" {
		return s.Path
	}
	return s.Path + ":" + s.Split
}

// ParseKGQAFileSpec splits FILE[:SPLIT] at its last colon. The split name
// is checked (CheckSplitName) when the file is imported.
func ParseKGQAFileSpec(spec string) KGQAFileSpec {
	if i := strings.LastIndex(spec, ":"); i > 0 {
		return KGQAFileSpec{Path: spec[:i], Split: spec[i+1:]}
	}
	return KGQAFileSpec{Path: spec}
}

// MetaQAQuestionFiles lists MetaQA's question files below dir
// (*/qa_*.txt and */*/qa_*.txt, question-type files excluded), sorted.
func MetaQAQuestionFiles(dir string) []string {
	var out []string
	for _, pat := range []string{"*/qa_*.txt", "*/*/qa_*.txt"} {
		m, _ := filepath.Glob(filepath.Join(dir, pat))
		for _, f := range m {
			if !strings.HasSuffix(f, "_qtype.txt") {
				out = append(out, f)
			}
		}
	}
	sort.Strings(out)
	return out
}

// KGQAFileResult reports one imported question file.
type KGQAFileResult struct {
	File, Format string
	Split        string // the split holding all of the file's questions
	Assigned     string // how they were spread over train/val/test
	Stats        KGQAStats
}

// KGQAImport is what ImportKGQA added besides the questions.
type KGQAImport struct {
	Plans      map[int]Plan // from question types (MetaQA) or paths (PathQuestion)
	Incomplete map[int]bool // questions with answers the KB lacks
	Files      []KGQAFileResult
}

// ImportKGQA reads question files (either format) into skb's QA. A file
// given with a split (FILE:SPLIT) puts its questions in that split only. A
// file without one gets a split of its own, named after its directory and
// file (MetaQA's 1-hop/qa_dev.txt: "1-hop-dev"; PQ-2H.txt: "<dir>-PQ-2H"),
// and its questions are also spread over train, val and test: MetaQA's by
// position (SplitByPosition, 60/20/20), PathQuestion's at random
// (SplitRandom, 80/10/10, seeded by seed), so planners and rerankers can
// train on part of a file and report on the rest. Every split name must
// pass CheckSplitName, checked before any file is read.
func ImportKGQA(skb *SKB, specs []KGQAFileSpec, seed uint64) (*KGQAImport, error) {
	imp := &KGQAImport{Plans: map[int]Plan{}, Incomplete: map[int]bool{}}
	splits := make([]string, len(specs))
	for i, spec := range specs {
		splits[i] = spec.Split
		if splits[i] == "" {
			splits[i] = filepath.Base(filepath.Dir(spec.Path)) + "-" + strings.TrimSuffix(strings.TrimPrefix(filepath.Base(spec.Path), "qa_"), ".txt")
		}
		if err := CheckSplitName(splits[i]); err != nil {
			return nil, fmt.Errorf("%s: %w", spec, err)
		}
	}
	for si, spec := range specs {
		qtype := strings.TrimSuffix(spec.Path, ".txt") + "_qtype.txt"
		if _, err := os.Stat(qtype); err != nil {
			qtype = ""
		}
		qs, format, err := ReadKGQAFile(spec.Path, qtype)
		if err != nil {
			return nil, err
		}
		split := splits[si]
		res := KGQAFileResult{File: spec.Path, Format: format, Split: split, Stats: KGQAToQA(skb, split, qs)}
		added := skb.QA.Queries[len(skb.QA.Queries)-len(qs):]
		ids := make([]int, len(added))
		for i, q := range added {
			ids[i] = q.ID
			if len(q.Answers) < len(qs[i].Answers) {
				imp.Incomplete[q.ID] = true
			}
			if p, ok := qs[i].Plan(); ok {
				imp.Plans[q.ID] = p
			}
		}
		if spec.Split == "" {
			var parts map[string][]int
			if format == KGQAPathQuestion || format == KGQAWorldCup {
				parts, res.Assigned = SplitRandom(ids, seed), fmt.Sprintf("train/val/test at random, 80/10/10, seed %d", seed)
			} else {
				parts, res.Assigned = SplitByPosition(ids), "train/val/test by position, 60/20/20"
			}
			for _, s := range []string{SplitTrain, SplitVal, SplitTest} {
				skb.QA.Splits[s] = append(skb.QA.Splits[s], parts[s]...)
			}
		} else {
			res.Assigned = "that split only"
		}
		imp.Files = append(imp.Files, res)
	}
	return imp, nil
}
