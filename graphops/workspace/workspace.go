// Package workspace assembles what strata needs to answer queries over one
// SKB: the SKB itself, its typed graph, the name dictionary, the BM25
// indexes (whole document over candidates, and one per text field over all
// nodes) and the ground-truth or imported plans. A workspace is built once
// from an SKB and saved as a versioned, checksummed snapshot that loads
// fast (see snapshot.go).
package workspace

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"hash"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/data/index"
	"github.com/strata-retrieval/strata/graphops"
	"github.com/strata-retrieval/strata/graphops/linking"
)

// DocField is the name of the whole-document index.
const DocField = "doc"

// NameField is the name of the node-name index.
const NameField = "name"

// Config holds the hyperparameters of the indexes.
type Config struct {
	BM25 index.Config `json:"bm25"`
}

// Workspace is an SKB with its graph and indexes. It is read-only once
// built.
type Workspace struct {
	Config     Config
	SKB        *data.SKB
	Graph      *graphops.Graph
	Candidates []uint32 // candidate node ids, ascending
	CandMask   []bool   // CandMask[v]: v is a candidate
	// Doc indexes the whole document of every candidate; its document d is
	// node Candidates[d].
	Doc *index.BM25
	// Fields holds one index per text field and one over names, each over
	// all nodes (document d is node d).
	Fields map[string]*index.BM25
	// Plans maps query ids to plans (ground truth from the generator or
	// imported); nil when there are none.
	Plans map[int]data.Plan
	// Fingerprint identifies the SKB content (schema, nodes, edges, QA).
	Fingerprint string
	// Dir is the directory the workspace was loaded from or saved to ("" for
	// one only built in memory). Models and dense vectors live under it.
	Dir string

	namesOnce  sync.Once
	names      *linking.NameIndex
	linkerOnce sync.Once
	linker     *linking.Linker
	mentOnce   sync.Once
	mentions   *linking.MentionIndex
	docOnce    sync.Once
	docOf      []int32
	askOnce    sync.Once
	asked      map[int]string // question id -> text, of the synthesized questions
	memoMu     sync.Mutex
	memo       map[string]*memoEntry
}

type memoEntry struct {
	once sync.Once
	v    any
	err  error
}

// Memo returns what build makes for key: built on the first call for key,
// then kept for the workspace's life (a structure another package derives
// from the SKB, as infer's reading index), and so is its error (a panic in
// build is returned as one). Concurrent first calls build once; the others
// wait for it.
func (ws *Workspace) Memo(key string, build func() (any, error)) (any, error) {
	ws.memoMu.Lock()
	if ws.memo == nil {
		ws.memo = map[string]*memoEntry{}
	}
	e := ws.memo[key]
	if e == nil {
		e = &memoEntry{}
		ws.memo[key] = e
	}
	ws.memoMu.Unlock()
	e.once.Do(func() {
		defer func() {
			if p := recover(); p != nil {
				e.v, e.err = nil, fmt.Errorf("workspace: building %s: %v", key, p)
			}
		}()
		e.v, e.err = build()
	})
	return e.v, e.err
}

// Mentions returns the mention index over node names and alias-like
// fields (linking.MentionIndex with detected alias fields), built on
// first use.
func (ws *Workspace) Mentions() *linking.MentionIndex {
	ws.mentOnce.Do(func() { ws.mentions = linking.NewMentionIndex(ws.SKB, linking.MentionConfig{}) })
	return ws.mentions
}

// DocOf returns the document of candidate v in the whole-document index,
// and false when v is not a candidate.
// ScoreText scores text by BM25 against the whole document of each node (0
// for a node that is not a candidate, or whose document shares no term):
// the text scorer plan restrictions rank by (graphops/plan.TextScorer).
func (ws *Workspace) ScoreText(text string, nodes []uint32) []float32 {
	score := ws.TextScorer(text)
	out := make([]float32, len(nodes))
	for i, v := range nodes {
		out[i] = score(v)
	}
	return out
}

// TextScorer scores nodes by the BM25 of text over their documents (0 for
// non-candidates and unmatched documents), plus the weight of each of
// text's phrases a document states (see Phrases): the score a plan's text
// restriction ranks by.
func (ws *Workspace) TextScorer(text string) func(uint32) float32 {
	score := ws.Doc.Scorer(text)
	phrases := Phrases(ws.Doc, text)
	if len(phrases) > longQueryPhrases {
		// A long text: its phrases looked up from the document's pairs
		// rather than each phrase searched in the postings (mayState) and
		// the document; the same sums (a document holding no phrase adds
		// 0 either way).
		at := make(map[[2]string]int, len(phrases))
		for i, p := range phrases {
			at[[2]string{p.A, p.B}] = i
		}
		return func(v uint32) float32 {
			d, ok := ws.DocOf(v)
			if !ok {
				return 0
			}
			s := score(d)
			if s > 0 {
				s += phraseScoreIndexed(phrases, at, index.Tokenize(nil, ws.SKB.Document(v)))
			}
			return s
		}
	}
	return func(v uint32) float32 {
		d, ok := ws.DocOf(v)
		if !ok {
			return 0
		}
		s := score(d)
		if s > 0 && mayState(phrases, d) {
			s += PhraseScore(phrases, index.Tokenize(nil, ws.SKB.Document(v)))
		}
		return s
	}
}

// mayState reports whether document d holds both terms of some phrase
// (from the postings: only such documents are tokenised).
func mayState(phrases []Phrase, d uint32) bool {
	for _, p := range phrases {
		if holds(p.docsA, d) && holds(p.docsB, d) {
			return true
		}
	}
	return false
}

// holds reports whether sorted docs contains d.
func holds(docs []uint32, d uint32) bool {
	_, ok := slices.BinarySearch(docs, d)
	return ok
}

// Phrase is two terms a restriction says one after the other (after BM25's
// tokenisation, which drops stop words), with the weight a document that
// says them one after the other gains: the sum of the terms' idf.
type Phrase struct {
	A, B   string
	Weight float32
	// docsA and docsB are the documents holding A and B (the index's
	// postings).
	docsA, docsB []uint32
}

// Phrases returns the adjacent term pairs of text that ix knows both terms
// of, each once. A definition quoted in part ("a favorite of Elizabeth I")
// and an attribute written next to its key ("on chromosome 19", "released
// in 2007", as a document states "chromosome: 19") are such pairs; BM25
// alone scores their words wherever they stand.
func Phrases(ix *index.BM25, text string) []Phrase {
	toks := index.Tokenize(nil, text)
	var out []Phrase
	seen := map[[2]string]bool{} // linear in the text's length, however long
	for i := 1; i < len(toks); i++ {
		a, b := toks[i-1], toks[i]
		if a == b || seen[[2]string{a, b}] {
			continue
		}
		ia, okA := ix.IDF(a)
		ib, okB := ix.IDF(b)
		if !okA || !okB {
			continue
		}
		seen[[2]string{a, b}] = true
		out = append(out, Phrase{A: a, B: b, Weight: ia + ib, docsA: ix.Postings(a), docsB: ix.Postings(b)})
	}
	return out
}

// longQueryPhrases is how many phrases make TextScorer look them up from
// each document's pairs.
const longQueryPhrases = 64

// phraseScoreIndexed is PhraseScore with the phrases indexed by their pair
// (at): the phrases doc states, each once, summed in phrase order.
func phraseScoreIndexed(phrases []Phrase, at map[[2]string]int, doc []string) float32 {
	var found []int
	for i := 1; i < len(doc); i++ {
		if j, ok := at[[2]string{doc[i-1], doc[i]}]; ok {
			found = append(found, j)
		}
	}
	slices.Sort(found)
	var s float32
	for k, j := range found {
		if k == 0 || found[k-1] != j {
			s += phrases[j].Weight
		}
	}
	return s
}

// PhraseScore is the summed weight of the phrases doc (a document's BM25
// tokens, in order) states, each counted once.
func PhraseScore(phrases []Phrase, doc []string) float32 {
	var s float32
	if len(phrases) > 8 && len(doc) > 8 {
		// Many phrases (a long query): the document's pairs once, then a
		// look-up per phrase, summed in the same order.
		pairs := make(map[[2]string]bool, len(doc))
		for i := 1; i < len(doc); i++ {
			pairs[[2]string{doc[i-1], doc[i]}] = true
		}
		for _, p := range phrases {
			if pairs[[2]string{p.A, p.B}] {
				s += p.Weight
			}
		}
		return s
	}
	for _, p := range phrases {
		for i := 1; i < len(doc); i++ {
			if doc[i-1] == p.A && doc[i] == p.B {
				s += p.Weight
				break
			}
		}
	}
	return s
}

func (ws *Workspace) DocOf(v uint32) (uint32, bool) {
	ws.docOnce.Do(func() {
		ws.docOf = make([]int32, len(ws.SKB.Nodes))
		for i := range ws.docOf {
			ws.docOf[i] = -1
		}
		for d, c := range ws.Candidates {
			ws.docOf[c] = int32(d)
		}
	})
	if int(v) >= len(ws.docOf) || ws.docOf[v] < 0 {
		return 0, false
	}
	return uint32(ws.docOf[v]), true
}

// Keyed reports whether what is stored under q's id (the workspace's plan
// for it, a plans file's line) is for q: the workspace's question of that
// id has q's words (spaces around them aside), or the workspace has no
// question of that id. A query that reuses a question's id with other
// words takes nothing stored for it, never another question's plan: a
// service's client numbering its own requests, a queries file numbering
// its own questions, STaRK's human-written questions (numbered from 0,
// like the synthesized ones the plans are keyed by). It is planned, or
// falls back, as any new text.
func (ws *Workspace) Keyed(q data.Query) bool {
	ws.askOnce.Do(func() {
		ws.asked = map[int]string{}
		if ws.SKB.QA != nil {
			for _, a := range ws.SKB.QA.Queries {
				ws.asked[a.ID] = a.Text
			}
		}
	})
	t, ok := ws.asked[q.ID]
	return !ok || strings.TrimSpace(t) == strings.TrimSpace(q.Text)
}

// StoredPlan returns the workspace's plan for q, when it has one keyed
// by q's id and for q (Keyed).
func (ws *Workspace) StoredPlan(q data.Query) (data.Plan, bool) {
	p, ok := ws.Plans[q.ID]
	if !ok || !ws.Keyed(q) {
		return data.Plan{}, false
	}
	return p, true
}

// Linker returns the Aho-Corasick linker over node names (of at least three
// bytes), built on first use.
func (ws *Workspace) Linker() *linking.Linker {
	ws.linkerOnce.Do(func() { ws.linker = linking.NewLinker(ws.SKB, 3) })
	return ws.linker
}

// Names returns the exact-name dictionary, built on first use.
func (ws *Workspace) Names() *linking.NameIndex {
	ws.namesOnce.Do(func() { ws.names = linking.NewNameIndex(ws.SKB) })
	return ws.names
}

// Progress reports build progress: done of total items of a stage (total 0
// for a stage without a count). nil means silent. Calls come from one
// goroutine.
type Progress func(stage string, done, total int)

// Build constructs a workspace.
func Build(ctx context.Context, skb *data.SKB, plans map[int]data.Plan, cfg Config, progress Progress) (*Workspace, error) {
	if err := cfg.BM25.Validate(); err != nil {
		return nil, err
	}
	say := func(s string) {
		if progress != nil {
			progress(s, 0, 0)
		}
	}
	count := func(s string, done, total int) {
		if progress != nil && (done%4096 == 0 || done == total) {
			progress(s, done, total)
		}
	}
	ws := &Workspace{Config: cfg, SKB: skb, Plans: plans}
	say("fingerprint")
	ws.Fingerprint = Fingerprint(skb)
	say("graph")
	g, err := graphops.Build(skb)
	if err != nil {
		return nil, err
	}
	ws.Graph = g
	ws.Candidates = skb.CandidateIDs()
	ws.CandMask = make([]bool, len(skb.Nodes))
	for _, c := range ws.Candidates {
		ws.CandMask[c] = true
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	say("bm25 " + DocField)
	b := index.NewBuilder(cfg.BM25)
	for i, c := range ws.Candidates {
		if i%4096 == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		b.Add(skb.Document(c))
		count("bm25 "+DocField, i+1, len(ws.Candidates))
	}
	ws.Doc = b.Build()
	ws.Fields = map[string]*index.BM25{}
	fields := []string{NameField}
	for _, f := range skb.Schema.TextFields {
		if f != NameField {
			fields = append(fields, f)
		}
	}
	for _, f := range fields {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		say("bm25 " + f)
		b := index.NewBuilder(cfg.BM25)
		for i := range skb.Nodes {
			if i%4096 == 0 && ctx.Err() != nil {
				return nil, ctx.Err()
			}
			b.Add(skb.Field(uint32(i), f))
			count("bm25 "+f, i+1, len(skb.Nodes))
		}
		ws.Fields[f] = b.Build()
	}
	return ws, nil
}

// PlanRecords returns the workspace's plans as records ordered by query id,
// each with its query's text and answers when the QA holds it (what
// export writes as stark_qa/plans.jsonl).
func (ws *Workspace) PlanRecords() []data.PlanRecord {
	ids := make([]int, 0, len(ws.Plans))
	for id := range ws.Plans {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	var out []data.PlanRecord
	for _, id := range ids {
		rec := data.PlanRecord{QID: id, Plan: ws.Plans[id]}
		if ws.SKB.QA != nil {
			if q, ok := ws.SKB.QA.ByID(id); ok {
				rec.Query, rec.AnswerIDs = q.Text, q.Answers
			}
		}
		out = append(out, rec)
	}
	return out
}

// Close releases the graph's attribute store.
func (ws *Workspace) Close() error {
	if ws.Graph != nil {
		return ws.Graph.Close()
	}
	return nil
}

// FieldNames returns the per-field index names, sorted.
func (ws *Workspace) FieldNames() []string {
	out := make([]string, 0, len(ws.Fields))
	for f := range ws.Fields {
		out = append(out, f)
	}
	sort.Strings(out)
	return out
}

// SearchDoc runs BM25 over the whole documents of the candidates and returns
// node ids.
func (ws *Workspace) SearchDoc(query string, k int) []index.Hit {
	hits := ws.Doc.Search(query, k, nil)
	for i := range hits {
		hits[i].ID = ws.Candidates[hits[i].ID]
	}
	return hits
}

// Fingerprint hashes the content of an SKB: schema, nodes, edges and QA.
func Fingerprint(skb *data.SKB) string {
	h := sha256.New()
	w := func(s string) { writeString(h, s) }
	s := skb.Schema
	for _, list := range [][]string{{s.Name}, s.NodeTypes, s.RelationTypes, s.CandidateTypes, s.TextFields} {
		writeUint(h, uint64(len(list)))
		for _, x := range list {
			w(x)
		}
	}
	writeUint(h, uint64(len(skb.Nodes)))
	for i := range skb.Nodes {
		n := &skb.Nodes[i]
		writeUint(h, uint64(n.Type))
		w(n.Name)
		for _, f := range n.Fields {
			w(f)
		}
	}
	writeUint(h, uint64(skb.Edges.Len()))
	for i := range skb.Edges.Src {
		r := skb.Edges.Rel.At(i)
		writeUint(h, uint64(skb.Edges.Src[i])<<40|uint64(r&0xff)<<32|uint64(skb.Edges.Dst[i]))
		if r > 0xff { // ids past 255 (the old limit) add their high bits, so older fingerprints stay as they were
			writeUint(h, uint64(r>>8))
		}
	}
	if qa := skb.QA; qa != nil {
		for _, set := range [][]data.Query{qa.Queries, qa.Human} {
			writeUint(h, uint64(len(set)))
			for _, q := range set {
				writeUint(h, uint64(q.ID))
				w(q.Text)
				writeUint(h, uint64(len(q.Answers)))
				for _, a := range q.Answers {
					writeUint(h, uint64(a))
				}
			}
		}
		names := make([]string, 0, len(qa.Splits))
		for k := range qa.Splits {
			names = append(names, k)
		}
		sort.Strings(names)
		for _, k := range names {
			w(k)
			writeUint(h, uint64(len(qa.Splits[k])))
			for _, id := range qa.Splits[k] {
				writeUint(h, uint64(id))
			}
		}
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil))
}

func writeUint(h hash.Hash, v uint64) {
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], v)
	h.Write(b[:])
}

func writeString(h hash.Hash, s string) {
	writeUint(h, uint64(len(s)))
	h.Write([]byte(s))
}

// String summarises the workspace.
func (ws *Workspace) String() string {
	return fmt.Sprintf("%s: %d nodes, %d edges, %d candidates", ws.SKB.Schema.Name, len(ws.SKB.Nodes), ws.SKB.Edges.Len(), len(ws.Candidates))
}
