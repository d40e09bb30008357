package infer

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/data/index"
	"github.com/strata-retrieval/strata/graphops/workspace"
	"github.com/strata-retrieval/strata/internal/parallel"
	"github.com/strata-retrieval/strata/models"
)

// MFARField is one field of mFAR's document decomposition.
type MFARField struct {
	Name string `json:"name"`
	Kind string `json:"kind"` // "doc", "text" or "relation"
}

// MFARFields derives mFAR's fields from a schema: the whole document, every
// text field, and one field per relation holding the names of the node's
// neighbours by that relation (both directions).
func MFARFields(s *data.Schema) []MFARField {
	out := []MFARField{{Name: "doc", Kind: "doc"}}
	for _, f := range s.TextFields {
		out = append(out, MFARField{Name: f, Kind: "text"})
	}
	for _, r := range s.RelationTypes {
		out = append(out, MFARField{Name: r, Kind: "relation"})
	}
	return out
}

// MFARScorers are the two scorers of every field.
var MFARScorers = []string{"bm25", "dense"}

// MFARConfig describes a trained mFAR model.
type MFARConfig struct {
	Fields      []MFARField               `json:"fields"`
	Weights     models.FieldWeightsConfig `json:"weights"`
	Temperature float64                   `json:"temperature"` // dense scores are divided by it, in training and at inference
	Neighbours  int                       `json:"max_neighbours"`
	K           int                       `json:"k"`                      // per (field, scorer) index at inference, and kept
	ONNXEncoder string                    `json:"onnx_encoder,omitempty"` // encoder directory; "" means the dense channel's
	Dense       string                    `json:"dense,omitempty"`        // the dense channel's vectors hash
}

// DefaultMFARConfig is mFAR's setup for a schema.
func DefaultMFARConfig(s *data.Schema, queryDim int) MFARConfig {
	c := MFARConfig{Fields: MFARFields(s), Temperature: 0.05, Neighbours: 50, K: 100}
	c.Weights.QueryDim = queryDim
	for _, f := range c.Fields {
		for _, sc := range MFARScorers {
			c.Weights.Pairs = append(c.Weights.Pairs, f.Name+"/"+sc)
		}
	}
	return c
}

// MFAR is multi-field adaptive retrieval: per field a BM25 index and the
// encoder's vectors of the field's text, weighted per query.
type MFAR struct {
	Cfg   MFARConfig
	Model *models.FieldWeights
	Enc   TextEncoder
	ws    *workspace.Workspace
	bm25  []*index.BM25   // per field, document i = candidate i
	emb   []*index.Matrix // per field, row i = candidate i (zero for empty text)
	label string
}

// FieldText is the text of field f of node v.
func (m *MFAR) FieldText(f MFARField, v uint32) string {
	skb := m.ws.SKB
	switch f.Kind {
	case "doc":
		return skb.Document(v)
	case "text":
		return skb.Field(v, f.Name)
	}
	r, ok := skb.Schema.RelationID(f.Name)
	if !ok {
		return ""
	}
	nb := m.ws.Graph.NeighborsByRel(v, r)
	names := make([]string, 0, min(len(nb), m.Cfg.Neighbours))
	for _, u := range nb[:min(len(nb), m.Cfg.Neighbours)] {
		names = append(names, skb.Nodes[u].Name)
	}
	return strings.Join(names, "; ")
}

// NewMFAR indexes every field of the workspace's candidates: BM25 and the
// encoder's vectors.
func NewMFAR(ctx context.Context, ws *workspace.Workspace, enc TextEncoder, cfg MFARConfig, model *models.FieldWeights) (*MFAR, error) {
	if enc.Dim() != cfg.Weights.QueryDim {
		return nil, fmt.Errorf("mFAR: encoder dimension %d, weights expect %d", enc.Dim(), cfg.Weights.QueryDim)
	}
	m := &MFAR{Cfg: cfg, Model: model, Enc: enc, ws: ws, label: "mfar"}
	n := len(ws.Candidates)
	for _, f := range cfg.Fields {
		texts := make([]string, n)
		b := index.NewBuilder(ws.Config.BM25)
		for i, v := range ws.Candidates {
			texts[i] = m.FieldText(f, v)
			b.Add(texts[i])
		}
		m.bm25 = append(m.bm25, b.Build())
		x := index.NewMatrix(n, enc.Dim())
		var mu sync.Mutex
		var encErr error
		err := parallel.Chunks(ctx, n, 1024, 0, func(lo, hi int) {
			var todo []string
			var at []int
			for i := lo; i < hi; i++ {
				if texts[i] != "" {
					todo = append(todo, texts[i])
					at = append(at, i)
				}
			}
			if len(todo) == 0 {
				return
			}
			vecs, err := enc.EncodeTexts(todo)
			if err != nil {
				mu.Lock()
				encErr = cmp.Or(encErr, err)
				mu.Unlock()
				return
			}
			for j, i := range at {
				copy(x.Row(i), vecs[j*x.Dim:(j+1)*x.Dim])
			}
		})
		if err = cmp.Or(err, encErr); err != nil {
			return nil, fmt.Errorf("mFAR: encoding field %s: %w", f.Name, err)
		}
		m.emb = append(m.emb, x)
	}
	return m, nil
}

func (m *MFAR) Name() string { return m.label }

// candIndex is v's position among the candidates.
func (m *MFAR) candIndex(v uint32) (int, bool) {
	return slices.BinarySearch(m.ws.Candidates, v)
}

// PairScores appends to dst the scores of candidate i (by position) for a
// query: per field, BM25 then dense (q · e / temperature).
func (m *MFAR) PairScores(dst []float32, query string, qv []float32, i int) []float32 {
	inv := float32(1 / m.Cfg.Temperature)
	for f := range m.Cfg.Fields {
		var dot float32
		for j, x := range m.emb[f].Row(i) {
			dot += x * qv[j]
		}
		dst = append(dst, m.bm25[f].Score(query, uint32(i)), dot*inv)
	}
	return dst
}

// QueryVector encodes a query.
func (m *MFAR) QueryVector(text string) ([]float32, error) { return m.Enc.EncodeTexts([]string{text}) }

// Rank takes the top K of every (field, scorer) index, merges them,
// rescores every candidate with all scorers and the query's weights, and
// keeps the top K. Each field's BM25 is accumulated once per query.
func (m *MFAR) Rank(ctx context.Context, q data.Query) ([]index.Hit, error) {
	qv, err := m.QueryVector(q.Text)
	if err != nil {
		return nil, err
	}
	F := len(m.Cfg.Fields)
	pool := map[uint32]bool{}
	lex := make([]map[uint32]float32, F)
	qm := &index.Matrix{Rows: 1, Dim: len(qv), Data: qv}
	var top index.TopK
	for f := range F {
		all := m.bm25[f].ScoreAll(q.Text, nil)
		lex[f] = make(map[uint32]float32, len(all))
		top.Reset(m.Cfg.K)
		for _, h := range all {
			lex[f][h.ID] = h.Score
			top.Push(h)
		}
		for _, h := range top.Sorted(nil) {
			pool[h.ID] = true
		}
		hs, err := index.SearchDense(ctx, m.emb[f], qm, m.Cfg.K, nil, index.DenseConfig{Workers: 1})
		if err != nil {
			return nil, err
		}
		for _, h := range hs[0] {
			pool[h.ID] = true
		}
	}
	w := m.Model.Weights(qv)
	inv := float32(1 / m.Cfg.Temperature)
	hits := make([]index.Hit, 0, len(pool))
	for i := range pool {
		var score float32
		for f := range F {
			var dot float32
			for j, x := range m.emb[f].Row(int(i)) {
				dot += x * qv[j]
			}
			// The same operations in the same order as Score(w, PairScores).
			score += w[2*f] * lex[f][i]
			score += w[2*f+1] * (dot * inv)
		}
		hits = append(hits, index.Hit{ID: m.ws.Candidates[i], Score: score})
	}
	slices.SortFunc(hits, func(a, b index.Hit) int {
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		return cmp.Compare(a.ID, b.ID)
	})
	return hits[:min(len(hits), m.Cfg.K)], nil
}

// FieldWeight is one (field, scorer) weight of a query.
type FieldWeight struct {
	Pair   string  `json:"pair"`
	Weight float32 `json:"weight"`
}

// Explain returns the query's weights, largest first.
func (m *MFAR) Explain(text string) ([]FieldWeight, error) {
	qv, err := m.QueryVector(text)
	if err != nil {
		return nil, err
	}
	w := m.Model.Weights(qv)
	out := make([]FieldWeight, len(w))
	for j, v := range w {
		out[j] = FieldWeight{Pair: m.Cfg.Weights.Pairs[j], Weight: v}
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].Weight > out[b].Weight })
	return out, nil
}

// hashedEncoder adapts the hashed n-gram encoder to TextEncoder.
type hashedEncoder struct{ e *models.Encoder }

func (h hashedEncoder) EncodeTexts(texts []string) ([]float32, error) {
	return h.e.EncodeTexts(texts), nil
}
func (h hashedEncoder) Dim() int { return h.e.Dim() }

// DenseTextEncoder is the dense channel's encoder as a TextEncoder.
func DenseTextEncoder(d *DenseChannel) (TextEncoder, error) {
	if d == nil || d.Encoder == nil {
		return nil, fmt.Errorf("mFAR encodes every field, so it needs a text encoder: the dense channel's (strata train encoder) or an ONNX encoder (--onnx-encoder DIR)")
	}
	return hashedEncoder{d.Encoder}, nil
}
