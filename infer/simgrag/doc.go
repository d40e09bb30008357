// Package simgrag is SimGRAG's pattern-to-subgraph alignment as a method:
// a pattern graph (triples over known mentions and UNKNOWN nodes, from a
// planner, a plans file or a patterns file) gets node candidates (top k(n)
// = 8 by L2 distance of dense vectors, or the planner's linked nodes) and
// relation candidates (top k(r) = 3, or an exact relation set), and the k =
// 100 matches of smallest Graph Semantic Distance rank the target's
// bindings (graphops.TopKSubgraphs).
//
// Deviations from SimGRAG: no LLM writes the pattern or the answer (the
// target's best-GSD bindings are the ranking); a match may reuse a node
// but not cross one stored triple twice at a node (the paper asks for an
// isomorphism, which makes answers that return to the topic unreachable);
// edge direction is ignored unless a triple is written "->rel"; a query
// without a matchable pattern falls back to BM25 and is counted.
package simgrag
