// Package graphops holds the typed graph of an SKB and the operations on
// it: typed neighbour queries now; entity linking, plan execution, mixed
// traversal, expansion and subgraph matching as later work builds them.
//
// Layout. Node attributes (type, name, text fields) live in a
// kelindar/column collection whose row index is the node id; the node type
// is an enum column with one bitmap index per type. Adjacency is CSR over
// the undirected union of the stored edges: for node v the entries
// [Off[v], Off[v+1]) hold (neighbour id uint32, relation id uint8) sorted by
// (relation, neighbour), plus two direction bits per entry (packed) that
// keep the stored direction: an entry may have been stored v→u, u→v or both.
// That is 5.25 bytes per directed entry plus 8 bytes per node of offsets.
//
// Graphs are built once and then read-only; every method is safe for
// concurrent use.
package graphops
