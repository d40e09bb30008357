package workspace

import (
	"sync"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/data/index"
	"github.com/strata-retrieval/strata/graphops"
)

// TypeMatcher is the textual half of MoR's traversal over a workspace
// (a graphops/plan.TextMatcher): BM25 over whole documents for candidate types and over names
// for the others, restricted to one node type.
type TypeMatcher struct {
	ws    *Workspace
	once  sync.Once
	masks [][]bool // per node type: over the doc index (candidates) or over all nodes
}

// NewTypeMatcher returns the matcher of ws.
func NewTypeMatcher(ws *Workspace) *TypeMatcher { return &TypeMatcher{ws: ws} }

func (m *TypeMatcher) init() {
	nt := len(m.ws.SKB.Schema.NodeTypes)
	cand := m.ws.SKB.Schema.CandidateTypeMask()
	m.masks = make([][]bool, nt)
	for t := 0; t < nt; t++ {
		if cand[t] {
			mask := make([]bool, len(m.ws.Candidates))
			for d, v := range m.ws.Candidates {
				mask[d] = int(m.ws.SKB.Nodes[v].Type) == t
			}
			m.masks[t] = mask
			continue
		}
		mask := make([]bool, len(m.ws.SKB.Nodes))
		for v := range m.ws.SKB.Nodes {
			mask[v] = int(m.ws.SKB.Nodes[v].Type) == t
		}
		m.masks[t] = mask
	}
}

// Match returns the top k nodes of type t (graphops.AnyTypeID: any
// candidate) for text.
func (m *TypeMatcher) Match(text string, t data.TypeID, k int) []index.Hit {
	m.once.Do(m.init)
	if t == graphops.AnyTypeID { // an untyped layer: every candidate's document
		hits := m.ws.Doc.Search(text, k, nil)
		for i := range hits {
			hits[i].ID = m.ws.Candidates[hits[i].ID]
		}
		return hits
	}
	if m.ws.SKB.Schema.CandidateTypeMask()[t] {
		hits := m.ws.Doc.Search(text, k, m.masks[t])
		for i := range hits {
			hits[i].ID = m.ws.Candidates[hits[i].ID]
		}
		return hits
	}
	return m.ws.Fields[NameField].Search(text, k, m.masks[t])
}
