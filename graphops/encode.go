package graphops

import (
	"fmt"
	"unsafe"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/data/snapshot"
)

// EncodeRels adds a relation column as section name (the low bytes) and,
// for a KB with more than 256 relation types, name+"hi" (the high bits).
// A column of ids below 256 is written byte for byte as before wide ids
// existed, so STaRK-size snapshots keep their size and bytes.
func EncodeRels(w *snapshot.Writer, name string, r *data.Rels) {
	w.Add(name, r.Lo)
	if r.Hi != nil {
		w.AddUint16s(name+"hi", r.Hi)
	}
}

// DecodeRels reads a column written by EncodeRels (views into the
// snapshot buffer), checking that it has n entries.
func DecodeRels(r *snapshot.Reader, name string, n int) (data.Rels, error) {
	var out data.Rels
	var err error
	if out.Lo, err = r.Bytes(name); err != nil {
		return out, err
	}
	if r.Has(name + "hi") {
		if out.Hi, err = r.Uint16s(name + "hi"); err != nil {
			return out, err
		}
		if len(out.Hi) != len(out.Lo) {
			return out, fmt.Errorf("%w: sections %s and %shi differ in length", snapshot.ErrCorrupt, name, name)
		}
	}
	if len(out.Lo) != n {
		return out, fmt.Errorf("%w: section %s has %d entries, want %d", snapshot.ErrCorrupt, name, len(out.Lo), n)
	}
	return out, nil
}

// encodeTypes adds the node types: one byte each (section graph.types, as
// before wide ids existed) while every type id is below 256, else two
// (graph.types16).
func encodeTypes(w *snapshot.Writer, types []data.TypeID) {
	narrow := make([]byte, len(types))
	for i, t := range types {
		if t > 0xff {
			wide := unsafe.Slice((*uint16)(unsafe.Pointer(unsafe.SliceData(types))), len(types))
			w.AddUint16s("graph.types16", wide)
			return
		}
		narrow[i] = byte(t)
	}
	w.Add("graph.types", narrow)
}

// decodeTypes reads the node types written by encodeTypes.
func decodeTypes(r *snapshot.Reader) ([]data.TypeID, error) {
	if r.Has("graph.types16") {
		wide, err := r.Uint16s("graph.types16")
		if err != nil {
			return nil, err
		}
		if len(wide) == 0 {
			return []data.TypeID{}, nil
		}
		return unsafe.Slice((*data.TypeID)(unsafe.Pointer(&wide[0])), len(wide)), nil
	}
	b, err := r.Bytes("graph.types")
	if err != nil {
		return nil, err
	}
	out := make([]data.TypeID, len(b))
	for i, t := range b {
		out[i] = data.TypeID(t)
	}
	return out, nil
}

// Encode adds the graph's node types and adjacency to a snapshot. The
// attribute store is not written: it is a function of the types (Decode
// rebuilds it), and kelindar/column's own snapshot carries time-based
// commit ids, which would make two imports of the same data differ. The
// node text belongs to the node table, which its owner saves.
func (g *Graph) Encode(w *snapshot.Writer) error {
	encodeTypes(w, g.types)
	w.AddUint64s("graph.off", g.off)
	w.AddUint32s("graph.nbr", g.nbr)
	EncodeRels(w, "graph.rel", &g.rel)
	w.Add("graph.dir", g.dir)
	return nil
}

// Decode reads a graph written by Encode; schema must be the one it was
// built with, and nodes the node table saved beside it (Name and Field
// read it; its Type fields are not consulted, the graph's own types are).
// The adjacency arrays are views into the snapshot buffer. A graph.attrs
// section written by older versions is ignored.
func Decode(r *snapshot.Reader, schema data.Schema, nodes []data.Node) (*Graph, error) {
	g := &Graph{schema: schema, nodes: nodes}
	var err error
	if g.types, err = decodeTypes(r); err != nil {
		return nil, err
	}
	if g.off, err = r.Uint64s("graph.off"); err != nil {
		return nil, err
	}
	if g.nbr, err = r.Uint32s("graph.nbr"); err != nil {
		return nil, err
	}
	if g.rel, err = DecodeRels(r, "graph.rel", len(g.nbr)); err != nil {
		return nil, fmt.Errorf("graph: %w", err)
	}
	if g.dir, err = r.Bytes("graph.dir"); err != nil {
		return nil, err
	}
	n := len(g.types)
	m := uint64(len(g.nbr))
	if len(g.off) != n+1 || g.off[0] != 0 || g.off[n] != m || uint64(len(g.dir)) != (m+3)/4 {
		return nil, fmt.Errorf("graph: %w: inconsistent adjacency arrays", snapshot.ErrCorrupt)
	}
	for v := 0; v < n; v++ {
		if g.off[v] > g.off[v+1] {
			return nil, fmt.Errorf("graph: %w: offsets decrease at node %d", snapshot.ErrCorrupt, v)
		}
		if int(g.types[v]) >= len(schema.NodeTypes) {
			return nil, fmt.Errorf("graph: %w: node %d has type id %d", snapshot.ErrCorrupt, v, g.types[v])
		}
	}
	for i, u := range g.nbr {
		if r := g.rel.At(i); int(u) >= n || int(r) >= len(schema.RelationTypes) {
			return nil, fmt.Errorf("graph: %w: entry %d points at node %d relation %d", snapshot.ErrCorrupt, i, u, r)
		}
	}
	if len(nodes) != n {
		return nil, fmt.Errorf("graph: %w: %d nodes in the node table, %d in the graph", snapshot.ErrCorrupt, len(nodes), n)
	}
	nf := len(schema.TextFields)
	for v := range nodes {
		if len(nodes[v].Fields) != nf {
			return nil, fmt.Errorf("graph: node %d has %d fields, the schema %d", v, len(nodes[v].Fields), nf)
		}
	}
	g.computeTypeBlocks()
	if err := g.buildAttrs(); err != nil {
		return nil, fmt.Errorf("graph attributes: %w", err)
	}
	return g, nil
}
