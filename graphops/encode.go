package graphops

import (
	"fmt"
	"unsafe"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/data/snapshot"
)

func u8bytes[T ~uint8](xs []T) []byte {
	if len(xs) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&xs[0])), len(xs))
}

func u8view[T ~uint8](b []byte) []T {
	if len(b) == 0 {
		return []T{}
	}
	return unsafe.Slice((*T)(unsafe.Pointer(&b[0])), len(b))
}

// Encode adds the graph's node types and adjacency to a snapshot. The
// attribute store is not written: it is a function of the types (Decode
// rebuilds it), and kelindar/column's own snapshot carries time-based
// commit ids, which would make two imports of the same data differ. The
// node text belongs to the node table, which its owner saves.
func (g *Graph) Encode(w *snapshot.Writer) error {
	w.Add("graph.types", u8bytes(g.types))
	w.AddUint64s("graph.off", g.off)
	w.AddUint32s("graph.nbr", g.nbr)
	w.Add("graph.rel", u8bytes(g.rel))
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
	tb, err := r.Bytes("graph.types")
	if err != nil {
		return nil, err
	}
	g.types = u8view[data.TypeID](tb)
	if g.off, err = r.Uint64s("graph.off"); err != nil {
		return nil, err
	}
	if g.nbr, err = r.Uint32s("graph.nbr"); err != nil {
		return nil, err
	}
	rb, err := r.Bytes("graph.rel")
	if err != nil {
		return nil, err
	}
	g.rel = u8view[data.RelID](rb)
	if g.dir, err = r.Bytes("graph.dir"); err != nil {
		return nil, err
	}
	n := len(g.types)
	m := uint64(len(g.nbr))
	if len(g.off) != n+1 || g.off[0] != 0 || g.off[n] != m || uint64(len(g.rel)) != m || uint64(len(g.dir)) != (m+3)/4 {
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
		if int(u) >= n || int(g.rel[i]) >= len(schema.RelationTypes) {
			return nil, fmt.Errorf("graph: %w: entry %d points at node %d relation %d", snapshot.ErrCorrupt, i, u, g.rel[i])
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
