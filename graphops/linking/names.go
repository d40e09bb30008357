package linking

import (
	"strings"

	"github.com/strata-retrieval/strata/data"
)

// NameIndex maps node names, case-folded, to node ids per node type.
type NameIndex struct {
	byType []map[string][]uint32
}

// NewNameIndex indexes the names of every node of skb.
func NewNameIndex(skb *data.SKB) *NameIndex {
	ix := &NameIndex{byType: make([]map[string][]uint32, len(skb.Schema.NodeTypes))}
	for t := range ix.byType {
		ix.byType[t] = map[string][]uint32{}
	}
	for i := range skb.Nodes {
		n := &skb.Nodes[i]
		k := strings.ToLower(strings.TrimSpace(n.Name))
		ix.byType[n.Type][k] = append(ix.byType[n.Type][k], uint32(i))
	}
	return ix
}

// Lookup returns the nodes of type t whose name equals name, ignoring case
// and surrounding space.
func (ix *NameIndex) Lookup(t data.TypeID, name string) []uint32 {
	return ix.byType[t][strings.ToLower(strings.TrimSpace(name))]
}
