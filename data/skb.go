package data

import (
	"fmt"
	"strings"
)

// Node is one SKB node. Fields is aligned with Schema.TextFields. When the
// schema lists a text field called "name", that field is the node's Name:
// its slot in Fields stays empty and SKB.Field reads Name.
type Node struct {
	Type   TypeID
	Name   string
	Fields []string
}

// Edges holds typed edges in their stored direction, as parallel columns.
type Edges struct {
	Src []uint32
	Rel Rels
	Dst []uint32
}

// Len returns the number of edges.
func (e *Edges) Len() int { return len(e.Src) }

// Add appends one edge.
func (e *Edges) Add(src uint32, rel RelID, dst uint32) {
	e.Src = append(e.Src, src)
	e.Rel.Append(rel)
	e.Dst = append(e.Dst, dst)
}

// SKB is a semi-structured knowledge base with its question set.
type SKB struct {
	Schema Schema
	Nodes  []Node
	Edges  Edges
	QA     *QA // nil when the SKB has no questions
}

// NumNodes returns the number of nodes.
func (s *SKB) NumNodes() int { return len(s.Nodes) }

// Document returns the whole-document text of a node: its name, then one
// "field: value" line per non-empty text field in schema order (a text field
// called "name" is the name, which comes first, and is not repeated).
func (s *SKB) Document(id uint32) string {
	return s.DocumentWith(id, -1, "")
}

// DocumentWith is Document with text field field's value read as value
// (a field left empty is left out; field -1 replaces none).
func (s *SKB) DocumentWith(id uint32, field int, value string) string {
	n := &s.Nodes[id]
	var b strings.Builder
	b.WriteString(n.Name)
	for i, f := range s.Schema.TextFields {
		v := ""
		if i < len(n.Fields) {
			v = n.Fields[i]
		}
		if i == field {
			v = value
		}
		if f == NameField || v == "" {
			continue
		}
		b.WriteByte('\n')
		b.WriteString(f)
		b.WriteString(": ")
		b.WriteString(v)
	}
	return b.String()
}

// NameField is the text field that is a node's name.
const NameField = "name"

// Field returns the raw value of a text field of a node. "name" is the
// node's name, whether or not the schema lists it among its text fields.
func (s *SKB) Field(id uint32, field string) string {
	if field == NameField {
		return s.Nodes[id].Name
	}
	if i, ok := s.Schema.FieldIndex(field); ok && i < len(s.Nodes[id].Fields) {
		return s.Nodes[id].Fields[i]
	}
	return ""
}

// CandidateIDs returns the ids of nodes whose type is a candidate type, in
// ascending order.
func (s *SKB) CandidateIDs() []uint32 {
	mask := s.Schema.CandidateTypeMask()
	out := make([]uint32, 0, len(s.Nodes))
	for i := range s.Nodes {
		if mask[s.Nodes[i].Type] {
			out = append(out, uint32(i))
		}
	}
	return out
}

// Validate checks the internal consistency of an SKB built in memory (by a
// generator or an importer): types, relations and edge endpoints in range,
// field slices of the schema's length, and QA answers pointing at nodes.
func (s *SKB) Validate() error {
	if err := s.Schema.Validate(); err != nil {
		return err
	}
	nt, nf := len(s.Schema.NodeTypes), len(s.Schema.TextFields)
	for i := range s.Nodes {
		if int(s.Nodes[i].Type) >= nt {
			return fmt.Errorf("node %d: %w: type id %d", i, ErrUnknownType, s.Nodes[i].Type)
		}
		if len(s.Nodes[i].Fields) != nf {
			return fmt.Errorf("node %d: has %d fields, schema has %d", i, len(s.Nodes[i].Fields), nf)
		}
		if ni, ok := s.Schema.FieldIndex(NameField); ok && s.Nodes[i].Fields[ni] != "" {
			return fmt.Errorf("node %d: text field %q holds %s: the name field is the node's Name (%s), its slot stays empty", i, NameField, quoteClip(s.Nodes[i].Fields[ni]), quoteClip(s.Nodes[i].Name))
		}
	}
	n := uint32(len(s.Nodes))
	if s.Edges.Rel.Len() != len(s.Edges.Src) || len(s.Edges.Dst) != len(s.Edges.Src) || (s.Edges.Rel.Hi != nil && len(s.Edges.Rel.Hi) != len(s.Edges.Src)) {
		return fmt.Errorf("edges: src/rel/dst lengths differ (%d/%d/%d)", len(s.Edges.Src), s.Edges.Rel.Len(), len(s.Edges.Dst))
	}
	for i := range s.Edges.Src {
		if s.Edges.Src[i] >= n || s.Edges.Dst[i] >= n {
			return fmt.Errorf("edge %d: %w: %d-%d with %d nodes", i, ErrIDRange, s.Edges.Src[i], s.Edges.Dst[i], n)
		}
		if r := s.Edges.Rel.At(i); int(r) >= len(s.Schema.RelationTypes) {
			return fmt.Errorf("edge %d: %w: relation id %d", i, ErrUnknownRelation, r)
		}
	}
	if s.QA != nil {
		if err := s.QA.CheckSplitNames(); err != nil {
			return err
		}
		for _, set := range [][]Query{s.QA.Queries, s.QA.Human} {
			for _, q := range set {
				for _, a := range q.Answers {
					if a >= n {
						return fmt.Errorf("query %d: %w: answer %d with %d nodes", q.ID, ErrIDRange, a, n)
					}
				}
			}
		}
	}
	return nil
}

// TypeCounts returns the number of nodes of each node type.
func (s *SKB) TypeCounts() []int {
	c := make([]int, len(s.Schema.NodeTypes))
	for i := range s.Nodes {
		c[s.Nodes[i].Type]++
	}
	return c
}

// RelationCounts returns the number of edges of each relation type.
func (s *SKB) RelationCounts() []int {
	c := make([]int, len(s.Schema.RelationTypes))
	for i := range s.Edges.Src {
		c[s.Edges.Rel.At(i)]++
	}
	return c
}
