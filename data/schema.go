package data

import (
	"fmt"
	"strings"
)

// FormatSKBDir is the format tag of schema.json.
const FormatSKBDir = "skbdir/1"

// TypeID is the id of a node type: its index in Schema.NodeTypes.
type TypeID uint16

// RelID is the id of a relation type: its index in Schema.RelationTypes.
type RelID uint32

// MaxNodeTypes bounds the number of node types: a node's type takes two
// bytes, and the id 65535 stands for "any type" in compiled plans.
const MaxNodeTypes = 65535

// MaxRelationTypes bounds the number of relation types: a graph stores 24
// bits of relation per adjacency entry (see Rels), one byte while the KB
// has at most 256.
const MaxRelationTypes = 1 << 24

// Schema describes an SKB: its node types, relation types, the node types
// that are retrieval candidates and the text fields nodes may carry.
type Schema struct {
	Format         string   `json:"format"`
	Name           string   `json:"name"`
	NodeTypes      []string `json:"node_types"`
	RelationTypes  []string `json:"relation_types"`
	CandidateTypes []string `json:"candidate_types"`
	TextFields     []string `json:"text_fields"`
}

// Validate checks that names are non-empty and unique and that candidate
// types are node types.
func (s *Schema) Validate() error {
	if len(s.NodeTypes) == 0 {
		return fmt.Errorf("%w: node_types is empty", ErrSchema)
	}
	if len(s.NodeTypes) > MaxNodeTypes || len(s.RelationTypes) > MaxRelationTypes {
		return fmt.Errorf("%w: at most %d node types and %d relation types (have %d and %d)",
			ErrSchema, MaxNodeTypes, MaxRelationTypes, len(s.NodeTypes), len(s.RelationTypes))
	}
	for _, list := range []struct {
		key   string
		names []string
	}{{"node_types", s.NodeTypes}, {"relation_types", s.RelationTypes}, {"text_fields", s.TextFields}} {
		seen := map[string]bool{}
		for _, n := range list.names {
			if strings.TrimSpace(n) == "" {
				return fmt.Errorf("%w: %s has an empty name", ErrSchema, list.key)
			}
			if strings.ContainsAny(n, "\t\n") {
				return fmt.Errorf("%w: %s name %s contains a tab or newline", ErrSchema, list.key, quoteClip(n))
			}
			if seen[n] {
				return fmt.Errorf("%w: %s lists %s twice", ErrSchema, list.key, quoteClip(n))
			}
			seen[n] = true
		}
	}
	for _, c := range s.CandidateTypes {
		if _, ok := s.NodeTypeID(c); !ok {
			return fmt.Errorf("%w: candidate type %s is not a node type", ErrSchema, quoteClip(c))
		}
	}
	return nil
}

// NodeTypeID returns the id of the named node type.
func (s *Schema) NodeTypeID(name string) (TypeID, bool) {
	for i, n := range s.NodeTypes {
		if n == name {
			return TypeID(i), true
		}
	}
	return 0, false
}

// RelationID returns the id of the named relation type.
func (s *Schema) RelationID(name string) (RelID, bool) {
	for i, n := range s.RelationTypes {
		if n == name {
			return RelID(i), true
		}
	}
	return 0, false
}

// FieldIndex returns the position of the named text field.
func (s *Schema) FieldIndex(name string) (int, bool) {
	for i, n := range s.TextFields {
		if n == name {
			return i, true
		}
	}
	return -1, false
}

// CandidateTypeMask returns, for each node type id, whether it is a
// candidate type. An empty CandidateTypes list makes every type a candidate.
func (s *Schema) CandidateTypeMask() []bool {
	m := make([]bool, len(s.NodeTypes))
	if len(s.CandidateTypes) == 0 {
		for i := range m {
			m[i] = true
		}
		return m
	}
	for _, c := range s.CandidateTypes {
		if id, ok := s.NodeTypeID(c); ok {
			m[id] = true
		}
	}
	return m
}
