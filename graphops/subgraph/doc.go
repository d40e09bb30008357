// Package subgraph is SimGRAG's top-k subgraph search: a pattern graph
// (triples over known entity mentions and unknowns, Pattern) is aligned
// onto an SKB's graph, edge direction ignored unless the pattern gives
// one, and the k matches with the smallest Graph Semantic Distance come
// back (TopK), with an exact branch-and-bound pruning; RankTargets turns
// the matches into a ranking of one pattern node's images. infer/simgrag
// is the retrieval method built on it. How a match may reuse a fact, where
// strata differs from the paper's isomorphisms, is stated at the top of
// subgraph.go.
package subgraph
