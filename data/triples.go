package data

import (
	"bytes"
	"errors"
	"io"
	"os"
	"strings"
)

// TriplesEntityType is the single node type of an SKB read from triples.
const TriplesEntityType = "entity"

// relationTypeLimit is MaxRelationTypes; tests lower it to reach the limit.
var relationTypeLimit = MaxRelationTypes

// ReadTriples reads a knowledge base of head|relation|tail lines (MetaQA's
// kb.txt). Entities become nodes in order of first appearance, relations
// become relation types in order of first appearance, duplicate triples are
// dropped. sep is the column separator ('|' for MetaQA, '\t' for TSV such
// as PathQuestion's KBs); 0 detects it: TAB when the first non-empty line
// holds one, else '|'.
func ReadTriples(path string, sep byte) (*SKB, error) {
	rc, name, err := openMaybeZst(path)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	return ParseTriples(rc, name, sep)
}

// ParseTriples parses triples from r; file names the input in errors.
func ParseTriples(r io.Reader, file string, sep byte) (*SKB, error) {
	skb := &SKB{Schema: Schema{
		Format:         FormatSKBDir,
		Name:           "triples",
		NodeTypes:      []string{TriplesEntityType},
		CandidateTypes: []string{TriplesEntityType},
	}}
	nodeID := map[string]uint32{}
	relID := map[string]RelID{}
	type triple struct {
		h uint32
		r RelID
		t uint32
	}
	seen := map[triple]struct{}{}
	intern := func(s string) uint32 {
		if id, ok := nodeID[s]; ok {
			return id
		}
		id := uint32(len(skb.Nodes))
		nodeID[s] = id
		skb.Nodes = append(skb.Nodes, Node{Name: s, Fields: []string{}})
		return id
	}
	sc := newLineScanner(r, file)
	for {
		b, ok := sc.Next()
		if !ok {
			break
		}
		if len(bytes.TrimSpace(b)) == 0 {
			continue
		}
		if sep == 0 {
			sep = '|'
			if bytes.IndexByte(b, '\t') >= 0 {
				sep = '\t'
			}
		}
		parts := bytes.Split(b, []byte{sep})
		if len(parts) != 3 {
			return nil, perrf(file, sc.line, "", ErrSyntax, "want head%crelation%ctail, got %d columns", sep, sep, len(parts))
		}
		h, rel, t := strings.TrimSpace(string(parts[0])), strings.TrimSpace(string(parts[1])), strings.TrimSpace(string(parts[2]))
		for _, f := range []struct{ name, v string }{{"head", h}, {"relation", rel}, {"tail", t}} {
			if f.v == "" {
				return nil, perrf(file, sc.line, f.name, ErrSyntax, "empty")
			}
		}
		rid, ok := relID[rel]
		if !ok {
			if len(relID) >= relationTypeLimit {
				return nil, perrf(file, sc.line, "relation", ErrSchema, "%s would be relation type %d, past strata's limit of %d", quoteClip(rel), len(relID)+1, relationTypeLimit)
			}
			rid = RelID(len(relID))
			relID[rel] = rid
			skb.Schema.RelationTypes = append(skb.Schema.RelationTypes, rel)
		}
		tr := triple{intern(h), rid, intern(t)}
		if _, dup := seen[tr]; dup {
			continue
		}
		seen[tr] = struct{}{}
		skb.Edges.Add(tr.h, tr.r, tr.t)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return skb, nil
}

// KGQuestion is one KGQA question in MetaQA's layout: the topic entity is
// marked in brackets in the text (several entities: several brackets).
type KGQuestion struct {
	Line    int
	Text    string     // the question, brackets kept
	Topic   string     // the first bracketed entity
	Topics  []string   // every bracketed entity, in order of mention
	Answers []string   // answer entity names
	QType   string     // from the aligned qtype file, if given
	Paths   [][]string // each topic's relation path, aligned with Topics, when the file gives them (PathQuestion, WorldCup)
}

// ReadKGQA reads question<TAB>ans1|ans2 lines and, when qtypePath is not
// empty, the aligned question-type file (one type per line).
func ReadKGQA(path, qtypePath string) ([]KGQuestion, error) {
	f, err := os.Open(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, perrf(path, 0, "", ErrMissingFile, "file not found")
		}
		return nil, err
	}
	defer f.Close()
	qs, err := ParseKGQA(f, path)
	if err != nil || qtypePath == "" {
		return qs, err
	}
	tf, err := os.Open(qtypePath)
	if err != nil {
		return nil, err
	}
	defer tf.Close()
	sc := newLineScanner(tf, qtypePath)
	i := 0
	for {
		b, ok := sc.Next()
		if !ok {
			break
		}
		if i >= len(qs) {
			return nil, perrf(qtypePath, sc.line, "qtype", ErrSyntax, "more lines than the %d questions of %s", len(qs), path)
		}
		qs[i].QType = strings.TrimSpace(string(b))
		i++
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if i != len(qs) {
		return nil, perrf(qtypePath, 0, "qtype", ErrSyntax, "%d lines, but %s has %d questions", i, path, len(qs))
	}
	return qs, nil
}

// ParseKGQA parses MetaQA questions from r.
func ParseKGQA(r io.Reader, file string) ([]KGQuestion, error) {
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
		tab := bytes.IndexByte(b, '\t')
		if tab < 0 {
			return nil, perrf(file, sc.line, "", ErrSyntax, "want question<TAB>answers")
		}
		q, ans := string(b[:tab]), string(b[tab+1:])
		topics, ok := BracketedTopics(q)
		if !ok {
			return nil, perrf(file, sc.line, "question", ErrSyntax, "want one or more non-empty [topic entities] in brackets, none nested")
		}
		// The text keeps MetaQA's brackets: they mark the topic entity for
		// KGQA's linker, and every tokenizer treats them as separators.
		kq := KGQuestion{Line: sc.line, Text: q, Topic: topics[0], Topics: topics}
		for _, a := range strings.Split(ans, "|") {
			if a = strings.TrimSpace(a); a != "" {
				kq.Answers = append(kq.Answers, a)
			}
		}
		if len(kq.Answers) == 0 {
			return nil, perrf(file, sc.line, "answers", ErrSyntax, "no answer")
		}
		out = append(out, kq)
	}
	return out, sc.Err()
}

// KGQAStats counts what KGQAToQA could not resolve.
type KGQAStats struct {
	Questions      int
	MissingTopics  int // questions with a topic entity that is not a node of the KB
	DroppedAnswers int // answer names not nodes of the KB
	NoAnswer       int // questions left without any resolvable answer
}

// KGQAToQA resolves KGQA answers to node ids of skb by exact name and
// appends the questions as queries (ids continuing after the existing ones)
// to the named split. Answers that are not nodes are dropped and counted;
// MetaQA's reconstructed kb.txt lacks some entities, so neither a missing
// topic nor a missing answer is an error.
func KGQAToQA(skb *SKB, split string, qs []KGQuestion) KGQAStats {
	byName := make(map[string]uint32, len(skb.Nodes))
	for i := range skb.Nodes {
		if _, ok := byName[skb.Nodes[i].Name]; !ok {
			byName[skb.Nodes[i].Name] = uint32(i)
		}
	}
	if skb.QA == nil {
		skb.QA = &QA{Splits: map[string][]int{}}
	}
	next := 0
	for _, q := range skb.QA.Queries {
		if q.ID >= next {
			next = q.ID + 1
		}
	}
	st := KGQAStats{Questions: len(qs)}
	for _, q := range qs {
		for _, t := range append([]string{q.Topic}, q.Topics...) {
			if _, ok := byName[t]; !ok {
				st.MissingTopics++
				break
			}
		}
		ans := []uint32{}
		for _, a := range q.Answers {
			if id, ok := byName[a]; ok {
				ans = append(ans, id)
			} else {
				st.DroppedAnswers++
			}
		}
		if len(ans) == 0 {
			st.NoAnswer++
		}
		skb.QA.Queries = append(skb.QA.Queries, Query{ID: next, Text: q.Text, Answers: ans})
		skb.QA.Splits[split] = append(skb.QA.Splits[split], next)
		next++
	}
	skb.QA.Index()
	return st
}

// metaQARelation maps the non-movie side of a MetaQA question-type hop to
// its kb.txt relation.
var metaQARelation = map[string]string{
	"director": "directed_by", "writer": "written_by", "actor": "starred_actors",
	"year": "release_year", "genre": "has_genre", "language": "in_language",
	"tag": "has_tags", "tags": "has_tags", "imdbvotes": "has_imdb_votes", "imdbrating": "has_imdb_rating",
}

// MetaQAPlan turns a MetaQA question type ("actor_to_movie_to_director")
// and topic entity into a plan over the triples SKB: one path from the topic
// through one relation per hop, every node of type "entity".
func MetaQAPlan(qtype, topic string) (Plan, bool) {
	parts := strings.Split(qtype, "_to_")
	if len(parts) < 2 {
		return Plan{}, false
	}
	path := []string{TriplesEntityType}
	for i := 1; i < len(parts); i++ {
		a, b := parts[i-1], parts[i]
		other := a
		if a == "movie" {
			other = b
		} else if b != "movie" {
			return Plan{}, false
		}
		rel, ok := metaQARelation[other]
		if !ok {
			return Plan{}, false
		}
		path = append(path, rel, TriplesEntityType)
	}
	return Plan{Paths: MustPaths(path), Restriction: map[string][]string{TriplesEntityType: {topic}}}, true
}
