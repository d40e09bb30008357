// Package graphops holds the typed graph of an SKB and the operations on
// it: typed and directed neighbour queries, compiled relation paths
// (CompilePath, Walk) that the plan algebra (graphops/plan, which executes
// every plan: MoR's, GRASP's, the planner's, SimGRAG's patterns) and the
// plan miner (graphops/mine) step with. Entity linking is
// graphops/linking, SimGRAG's top-k subgraph search graphops/subgraph,
// SAGE's similarity graph graphops/simgraph.
//
// Layout. Node types live in a kelindar/column collection whose row index
// is the node id (an enum column with a bitmap index per type, made when
// the type is first queried); names and text fields are read from the
// SKB's node table, so text of any length imports. Adjacency is CSR over
// the undirected union of the stored edges: for node v the entries
// [Off[v], Off[v+1]) hold (neighbour id uint32, relation id: one byte, or
// three once the KB has more than 256 relation types, see data.Rels)
// sorted by (relation, neighbour), plus two direction bits per entry
// (packed) that keep the stored direction: an entry may have been stored
// v→u, u→v or both. That is 5.25 bytes per directed entry (7.25 with wide
// relation ids) plus 8 bytes per node of offsets.
//
// Graphs are built once and then read-only; every method is safe for
// concurrent use.
package graphops
