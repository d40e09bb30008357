// Package cor is CoRAG's cooperative retrievers (CoR) as a method: one
// textual retriever per candidate node type and one relational retriever
// per relation (neighbours of the query's topic entities, found by
// Aho-Corasick over node names), combined by learned gates (gating.CoR),
// with an optional external reranker score added (ŝ + s′, CoRAG §3.4). See
// gating for the model and README's CoR section for the deviations from
// the paper (the training pool, the encoder).
package cor
