package reranker

import (
	"fmt"
	"io"
	"math/rand/v2"
	"strings"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/graphops"
	"github.com/strata-retrieval/strata/reranker/bpe"
)

// SerializeConfig bounds GRASP's candidate serialization (appendix A:
// max_text_field_tokens 300 on Amazon and Prime, 512 on MAG; 10 neighbours
// per relation).
type SerializeConfig struct {
	MaxFieldTokens int // per text field, default 300
	MaxNeighbours  int // per relation, default 10
	// Tokenizer counts MaxFieldTokens in the reranker's tokens, as GRASP
	// does; nil counts whitespace-separated words.
	Tokenizer *bpe.Tokenizer
}

// WithTokenizer returns c counting field tokens with the tokenizer.json at
// path, or, when path is "", Qwen3's (the one make fetches) if it is
// there. found is false when there is no tokenizer at all: fields are then
// cut in words.
func (c SerializeConfig) WithTokenizer(path string) (_ SerializeConfig, found bool, err error) {
	if path == "" {
		path, _ = bpe.Qwen3Path()
	}
	if path == "" {
		return c, false, nil
	}
	if c.Tokenizer, err = bpe.Load(path); err != nil {
		return c, false, err
	}
	return c, true, nil
}

// truncate keeps the first n tokens of a field.
func (c SerializeConfig) truncate(v string, n int) string {
	if c.Tokenizer != nil {
		ids, err := c.Tokenizer.Encode(v)
		if err != nil || len(ids) <= n {
			return v
		}
		// A cut inside a character leaves a partial UTF-8 sequence.
		return strings.ToValidUTF8(c.Tokenizer.Decode(ids[:n]), "")
	}
	toks := strings.Fields(v)
	if len(toks) > n {
		toks = toks[:n]
	}
	return strings.Join(toks, " ")
}

// Serialize writes a candidate as GRASP's appendix B.6 does: "[Type]
// <node type>", "[name] <name>", one "[field] value" line per non-empty
// text field truncated to MaxFieldTokens, then the 1-hop neighbours
// grouped by relation (both storage directions), "[relation] name1;
// name2; ...", at most MaxNeighbours each.
func Serialize(skb *data.SKB, g *graphops.Graph, v uint32, c SerializeConfig) string {
	if c.MaxFieldTokens <= 0 {
		c.MaxFieldTokens = 300
	}
	if c.MaxNeighbours <= 0 {
		c.MaxNeighbours = 10
	}
	var b strings.Builder
	n := &skb.Nodes[v]
	fmt.Fprintf(&b, "[Type] %s\n[name] %s", skb.Schema.NodeTypes[n.Type], c.truncate(n.Name, c.MaxFieldTokens))
	for i, f := range skb.Schema.TextFields {
		if i >= len(n.Fields) || strings.TrimSpace(n.Fields[i]) == "" {
			continue
		}
		fmt.Fprintf(&b, "\n[%s] %s", f, c.truncate(n.Fields[i], c.MaxFieldTokens))
	}
	for r, rel := range skb.Schema.RelationTypes {
		nb := g.NeighborsByRel(v, data.RelID(r))
		if len(nb) == 0 {
			continue
		}
		names := make([]string, 0, min(len(nb), c.MaxNeighbours))
		for _, u := range nb[:min(len(nb), c.MaxNeighbours)] {
			names = append(names, skb.Nodes[u].Name)
		}
		fmt.Fprintf(&b, "\n[%s] %s", rel, strings.Join(names, "; "))
	}
	return b.String()
}

// Doc is a serialized candidate.
type Doc struct {
	ID   uint32 `json:"id"`
	Rank int    `json:"rank,omitempty"` // 1-based rank in the stage-2 pool, 0 if outside
	Text string `json:"text"`
}

// Record is one training query for a listwise reranker: the stage-2 pool
// (top 100, best first), every positive and the hardest negatives (the
// best-ranked non-answers of the pool).
type Record struct {
	QID       int      `json:"q_id"`
	Query     string   `json:"query"`
	Pool      []uint32 `json:"pool"`
	Positives []Doc    `json:"positives"`
	Negatives []Doc    `json:"negatives"`
}

// NewRecord builds a query's record from its stage-2 ranking.
func NewRecord(skb *data.SKB, g *graphops.Graph, q data.Query, ranking []uint32, poolK, hardNeg int, c SerializeConfig) Record {
	rec := Record{QID: q.ID, Query: q.Text, Pool: ranking[:min(poolK, len(ranking))]}
	rank := map[uint32]int{}
	for i, v := range rec.Pool {
		rank[v] = i + 1
	}
	gold := map[uint32]bool{}
	for _, a := range q.Answers {
		if !gold[a] {
			gold[a] = true
			rec.Positives = append(rec.Positives, Doc{ID: a, Rank: rank[a], Text: Serialize(skb, g, a, c)})
		}
	}
	for _, v := range rec.Pool {
		if len(rec.Negatives) == hardNeg {
			break
		}
		if !gold[v] {
			rec.Negatives = append(rec.Negatives, Doc{ID: v, Rank: rank[v], Text: Serialize(skb, g, v, c)})
		}
	}
	return rec
}

// ReadRecords reads records written by WriteRecords; a bad line is an
// error naming the file and line.
func ReadRecords(path string) ([]Record, error) {
	var out []Record
	err := data.ReadJSONL(path, func(_ int, r *Record) error {
		out = append(out, *r)
		return nil
	})
	return out, err
}

// WriteRecords writes one record per line.
func WriteRecords(w io.Writer, recs []Record) error { return data.WriteJSONL(w, recs) }

// Group is one listwise training group: the query, G documents and the
// index of the positive among them.
type Group struct {
	Query    string
	Docs     []Doc
	Positive int
}

// Collate draws a group of size g from a record afresh: one positive (at
// random), g−1 negatives sampled without replacement from the hard
// negatives (with replacement when there are fewer), in random order. ok is
// false when the record has no positive or no negative.
func Collate(rec *Record, g int, r *rand.Rand) (Group, bool) {
	if len(rec.Positives) == 0 || len(rec.Negatives) == 0 || g < 2 {
		return Group{}, false
	}
	docs := make([]Doc, 0, g)
	docs = append(docs, rec.Positives[r.IntN(len(rec.Positives))])
	if len(rec.Negatives) >= g-1 {
		for _, i := range r.Perm(len(rec.Negatives))[:g-1] {
			docs = append(docs, rec.Negatives[i])
		}
	} else {
		for range g - 1 {
			docs = append(docs, rec.Negatives[r.IntN(len(rec.Negatives))])
		}
	}
	perm := r.Perm(g)
	out := Group{Query: rec.Query, Docs: make([]Doc, g)}
	for i, p := range perm {
		out.Docs[p] = docs[i]
		if i == 0 {
			out.Positive = p
		}
	}
	return out, true
}
