package infer

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/strata-retrieval/strata/checkpoints"
	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/data/index"
	"github.com/strata-retrieval/strata/graphops/workspace"
	"github.com/strata-retrieval/strata/internal/atomicfile"
	"github.com/strata-retrieval/strata/internal/parallel"
	"github.com/strata-retrieval/strata/models"
)

// Files of a workspace's dense channel, under WORKSPACE/dense/.
const (
	DenseDir         = "dense"
	DenseMetaFile    = "meta.json"
	DenseDocFile     = "doc.safetensors"
	DenseQueryFile   = "query.safetensors"
	DenseEncoderFile = "encoder.safetensors"
)

// ErrNoDense reports a workspace without a dense channel.
var ErrNoDense = errors.New("the workspace has no dense channel (run strata train encoder, or import embeddings)")

// DenseMeta describes a workspace's dense channel.
type DenseMeta struct {
	Source      string               `json:"source"` // "encoder" or "imported"
	Dim         int                  `json:"dim"`
	Fingerprint string               `json:"data_fingerprint"`
	Encoder     models.EncoderConfig `json:"encoder,omitempty"`
	Checkpoint  string               `json:"checkpoint,omitempty"` // where the encoder came from
	// Hash identifies the document vectors (SHA-256 of their float32 bits);
	// models trained on this channel record it.
	Hash string `json:"vectors_sha256,omitempty"`
}

// vectorsHash hashes a matrix's shape and float32 bits.
func vectorsHash(m *index.Matrix) string {
	h := sha256.New()
	var b [8]byte
	binary.LittleEndian.PutUint32(b[:4], uint32(m.Rows))
	binary.LittleEndian.PutUint32(b[4:], uint32(m.Dim))
	h.Write(b[:])
	buf := make([]byte, 0, 4096)
	for _, v := range m.Data {
		buf = binary.LittleEndian.AppendUint32(buf, math.Float32bits(v))
		if len(buf) == cap(buf) {
			h.Write(buf)
			buf = buf[:0]
		}
	}
	h.Write(buf)
	return "sha256:" + hex.EncodeToString(h.Sum(nil))
}

// DenseChannel holds the document vectors of every node (L2-normalised) and
// how to get a query's vector: the encoder, or imported query vectors.
type DenseChannel struct {
	Meta    DenseMeta
	Docs    *index.Matrix
	Encoder *models.Encoder
	Queries *data.Embeddings
}

// QueryVector returns the normalised vector of a query.
func (d *DenseChannel) QueryVector(q data.Query) ([]float32, error) {
	if d.Encoder != nil {
		return d.Encoder.EncodeTexts([]string{q.Text}), nil
	}
	if d.Queries == nil || q.ID < 0 || q.ID >= d.Queries.M.Rows || !d.Queries.Present[q.ID] {
		return nil, fmt.Errorf("no imported embedding for query %d (imported vectors cannot encode new text)", q.ID)
	}
	return append([]float32(nil), d.Queries.M.Row(q.ID)...), nil
}

// EncodeNodes encodes the whole document of every node with enc, on all
// cores; the result does not depend on scheduling. ctx is checked before
// every chunk of 512 nodes: once cancelled (Ctrl-C, SIGTERM), it returns
// ctx's error after the chunks in flight.
func EncodeNodes(ctx context.Context, skb *data.SKB, enc *models.Encoder) (*index.Matrix, error) {
	if a := enc.Config.NeighborAliases; len(FieldIndexes(&skb.Schema, a)) != len(a) {
		return nil, fmt.Errorf("the encoder reads neighbours by the alias fields %q, not all among the SKB's text fields %q", a, skb.Schema.TextFields)
	}
	n := len(skb.Nodes)
	m := index.NewMatrix(n, enc.Dim())
	text := NodeTexts(skb, enc.Config)
	err := parallel.Chunks(ctx, n, 512, 0, func(lo, hi int) {
		feats := make([][]uint32, hi-lo)
		for i := range feats {
			feats[i] = enc.Features(text(uint32(lo + i)))
		}
		copy(m.Data[lo*m.Dim:hi*m.Dim], enc.Encode(feats))
	})
	return m, err
}

// NodeTexts returns the text an encoder of config c reads for a node: its
// whole document (data.SKB.Document) and its EncoderLine. The returned
// function is safe for concurrent use.
func NodeTexts(skb *data.SKB, c models.EncoderConfig) func(uint32) string {
	if c.Neighbors <= 0 {
		return skb.Document
	}
	line := EncoderLine(skb, c)
	return func(v uint32) string { return skb.Document(v) + line(v) }
}

// EncoderLine is the neighbour line an encoder of config c reads a node's
// document with: NeighborAliasLine over c.NeighborAliases (NeighborLine's
// names when there are none).
func EncoderLine(skb *data.SKB, c models.EncoderConfig) func(uint32) string {
	return NeighborAliasLine(skb, c.Neighbors, c.NeighborAliases)
}

// NeighborLine returns, for neighbors > 0, a node's line of neighbour
// names: "\nrelated: " and the names of the first neighbors nodes its
// stored edges point to, in edge order, "; " between them ("" for a node
// with none, and for every node with neighbors <= 0). Stored edges point
// from a node to what it is (a synset's hypernym, a part's whole, a
// product's brand) more often than to what it has, and a few names say
// what a document alone may not ("a kind of mathematician"). The returned
// function is safe for concurrent use.
func NeighborLine(skb *data.SKB, neighbors int) func(uint32) string {
	return neighborLine(skb, neighbors, nil, false)
}

// NeighborAliasLine is NeighborLine with each neighbour read by its other
// names where it has some: the values of its alias fields (as
// linking.DetectAliasFields finds them: WordNet's lemmas, "book; volume"),
// else its name.
func NeighborAliasLine(skb *data.SKB, neighbors int, aliasFields []string) func(uint32) string {
	return neighborLine(skb, neighbors, FieldIndexes(&skb.Schema, aliasFields), false)
}

// BothWaysAliasLine is NeighborAliasLine with the places its edges out
// leave filled by edges in: up to neighbors nodes, those v's edges point
// to first (in edge order), then those whose edges point to v, each node
// once. A synset's hyponyms and the words derived from it name it too.
func BothWaysAliasLine(skb *data.SKB, neighbors int, aliasFields []string) func(uint32) string {
	return neighborLine(skb, neighbors, FieldIndexes(&skb.Schema, aliasFields), true)
}

func neighborLine(skb *data.SKB, neighbors int, aliases []int, in bool) func(uint32) string {
	if neighbors <= 0 {
		return func(uint32) string { return "" }
	}
	out := make([][]uint32, len(skb.Nodes))
	for i, src := range skb.Edges.Src {
		if dst := skb.Edges.Dst[i]; int(src) < len(out) && len(out[src]) < neighbors && int(dst) < len(skb.Nodes) && dst != src && !(in && slices.Contains(out[src], dst)) {
			out[src] = append(out[src], dst)
		}
	}
	if in {
		for i, dst := range skb.Edges.Dst {
			if src := skb.Edges.Src[i]; int(dst) < len(out) && len(out[dst]) < neighbors && int(src) < len(skb.Nodes) && dst != src && !slices.Contains(out[dst], src) {
				out[dst] = append(out[dst], src)
			}
		}
	}
	return func(v uint32) string {
		if len(out[v]) == 0 {
			return ""
		}
		var b strings.Builder
		b.WriteString("\nrelated: ")
		for i, u := range out[v] {
			if i > 0 {
				b.WriteString("; ")
			}
			WriteNames(&b, &skb.Nodes[u], aliases)
		}
		return b.String()
	}
}

// WriteNames writes a node's names to b: the values of its alias fields
// (indexes into the schema's text fields) joined by "; ", or its name when
// it has none.
func WriteNames(b *strings.Builder, n *data.Node, aliases []int) {
	named := false
	for _, f := range aliases {
		if f < len(n.Fields) && n.Fields[f] != "" {
			if named {
				b.WriteString("; ")
			}
			b.WriteString(n.Fields[f])
			named = true
		}
	}
	if !named {
		b.WriteString(n.Name)
	}
}

// FieldIndexes returns the indexes of the named fields among the schema's
// text fields, in the schema's order.
func FieldIndexes(s *data.Schema, names []string) []int {
	var out []int
	for i, f := range s.TextFields {
		if slices.Contains(names, f) {
			out = append(out, i)
		}
	}
	return out
}

// SaveDenseFromEncoder encodes every node with enc and writes the dense
// channel (vectors, encoder weights, meta) under ws.Dir/dense.
func SaveDenseFromEncoder(ctx context.Context, ws *workspace.Workspace, enc *models.Encoder, checkpoint string) (*DenseChannel, error) {
	docs, err := EncodeNodes(ctx, ws.SKB, enc)
	if err != nil {
		return nil, err
	}
	d := &DenseChannel{Meta: DenseMeta{Source: "encoder", Dim: enc.Dim(), Fingerprint: ws.Fingerprint, Encoder: enc.Config, Checkpoint: checkpoint},
		Docs: docs, Encoder: enc}
	var ts []checkpoints.Tensor
	for _, p := range enc.Params() {
		ts = append(ts, checkpoints.Tensor{Name: p.Name, Shape: p.Shape, Data: p.Data()})
	}
	return d, saveDense(ws, d, ts)
}

// SaveDenseImported stores imported document (and optional query) vectors
// as the workspace's dense channel. Rows are normalised.
func SaveDenseImported(ws *workspace.Workspace, docs, queries *data.Embeddings) (*DenseChannel, error) {
	if docs.M.Rows != len(ws.SKB.Nodes) {
		return nil, fmt.Errorf("%d document vectors for %d nodes", docs.M.Rows, len(ws.SKB.Nodes))
	}
	if queries != nil && queries.M.Dim != docs.M.Dim {
		return nil, fmt.Errorf("query vectors have dimension %d, document vectors %d", queries.M.Dim, docs.M.Dim)
	}
	docs.M.NormalizeRows()
	if queries != nil {
		queries.M.NormalizeRows()
	}
	d := &DenseChannel{Meta: DenseMeta{Source: "imported", Dim: docs.M.Dim, Fingerprint: ws.Fingerprint}, Docs: docs.M, Queries: queries}
	return d, saveDense(ws, d, nil)
}

func saveDense(ws *workspace.Workspace, d *DenseChannel, encTensors []checkpoints.Tensor) error {
	if ws.Dir == "" {
		return errors.New("the workspace has no directory to save the dense channel in")
	}
	dir := filepath.Join(ws.Dir, DenseDir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	d.Meta.Hash = vectorsHash(d.Docs)
	if err := checkpoints.WriteFile(filepath.Join(dir, DenseDocFile), []checkpoints.Tensor{{Name: "doc", Shape: []int{d.Docs.Rows, d.Docs.Dim}, Data: d.Docs.Data}}, nil); err != nil {
		return err
	}
	if encTensors != nil {
		if err := checkpoints.WriteFile(filepath.Join(dir, DenseEncoderFile), encTensors, nil); err != nil {
			return err
		}
		os.Remove(filepath.Join(dir, DenseQueryFile))
	}
	if d.Queries != nil {
		present := make([]float32, len(d.Queries.Present))
		for i, p := range d.Queries.Present {
			if p {
				present[i] = 1
			}
		}
		if err := checkpoints.WriteFile(filepath.Join(dir, DenseQueryFile), []checkpoints.Tensor{
			{Name: "query", Shape: []int{d.Queries.M.Rows, d.Queries.M.Dim}, Data: d.Queries.M.Data},
			{Name: "present", Shape: []int{len(present)}, Data: present}}, nil); err != nil {
			return err
		}
		os.Remove(filepath.Join(dir, DenseEncoderFile))
	}
	return atomicfile.WriteFile(filepath.Join(dir, DenseMetaFile), func(w io.Writer) error {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(d.Meta)
	})
}

// LoadDense reads a workspace's dense channel.
func LoadDense(ws *workspace.Workspace) (*DenseChannel, error) {
	dir := filepath.Join(ws.Dir, DenseDir)
	b, err := os.ReadFile(filepath.Join(dir, DenseMetaFile))
	if errors.Is(err, os.ErrNotExist) {
		return nil, ErrNoDense
	}
	if err != nil {
		return nil, err
	}
	d := &DenseChannel{}
	if err := json.Unmarshal(b, &d.Meta); err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, DenseMetaFile), err)
	}
	if d.Meta.Fingerprint != ws.Fingerprint {
		return nil, fmt.Errorf("%s: the dense vectors were made for data %s, the workspace is %s (retrain the encoder)", dir, d.Meta.Fingerprint, ws.Fingerprint)
	}
	df, err := checkpoints.ReadFile(filepath.Join(dir, DenseDocFile))
	if err != nil {
		return nil, err
	}
	t := df.Tensors["doc"]
	if t == nil || len(t.Shape) != 2 || t.Shape[0] != len(ws.SKB.Nodes) {
		return nil, fmt.Errorf("%s: want a tensor \"doc\" of shape [%d, D]", filepath.Join(dir, DenseDocFile), len(ws.SKB.Nodes))
	}
	d.Docs = &index.Matrix{Rows: t.Shape[0], Dim: t.Shape[1], Data: t.Data}
	switch d.Meta.Source {
	case "encoder":
		enc, err := models.NewEncoder(d.Meta.Encoder, nil)
		if err != nil {
			return nil, err
		}
		ef, err := checkpoints.ReadFile(filepath.Join(dir, DenseEncoderFile))
		if err != nil {
			return nil, err
		}
		if err := models.LoadParams(enc.Params(), tensorGetter(ef)); err != nil {
			return nil, fmt.Errorf("%s: %w", filepath.Join(dir, DenseEncoderFile), err)
		}
		d.Encoder = enc
	case "imported":
		if qf, err := checkpoints.ReadFile(filepath.Join(dir, DenseQueryFile)); err == nil {
			q, p := qf.Tensors["query"], qf.Tensors["present"]
			if q == nil || p == nil || len(q.Shape) != 2 || q.Shape[0] != len(p.Data) {
				return nil, fmt.Errorf("%s: want tensors query [Q, D] and present [Q]", filepath.Join(dir, DenseQueryFile))
			}
			e := &data.Embeddings{M: &index.Matrix{Rows: q.Shape[0], Dim: q.Shape[1], Data: q.Data}, Present: make([]bool, len(p.Data))}
			for i, v := range p.Data {
				e.Present[i] = v != 0
			}
			d.Queries = e
		}
	default:
		return nil, fmt.Errorf("%s: unknown dense source %q", dir, d.Meta.Source)
	}
	return d, nil
}

func tensorGetter(f *checkpoints.File) func(string) ([]int, []float32, bool) {
	return func(name string) ([]int, []float32, bool) {
		t, ok := f.Tensors[name]
		if !ok {
			return nil, nil, false
		}
		return t.Shape, t.Data, true
	}
}

// TextEncoder turns texts into L2-normalised vectors (row-major).
type TextEncoder interface {
	EncodeTexts(texts []string) ([]float32, error)
	Dim() int
}

// ErrNoEncoder reports a dense channel that cannot encode new text
// (imported vectors).
var ErrNoEncoder = errors.New("the dense channel has no text encoder (imported vectors cannot encode new text): train one with strata train encoder")

// hashedEncoder adapts the hashed n-gram encoder to TextEncoder.
type hashedEncoder struct{ e *models.Encoder }

func (h hashedEncoder) EncodeTexts(texts []string) ([]float32, error) {
	return h.e.EncodeTexts(texts), nil
}
func (h hashedEncoder) Dim() int { return h.e.Dim() }

// DenseTextEncoder is the dense channel's encoder as a TextEncoder
// (ErrNoEncoder without one).
func DenseTextEncoder(d *DenseChannel) (TextEncoder, error) {
	if d == nil || d.Encoder == nil {
		return nil, ErrNoEncoder
	}
	return hashedEncoder{d.Encoder}, nil
}
