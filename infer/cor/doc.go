// Package cor is CoRAG's cooperative retrievers (CoR) as a method: one
// textual retriever per candidate node type and one relational retriever
// per relation (neighbours of the query's topic entities, found by
// Aho-Corasick over node names), combined by learned gates (gating.CoR).
//
// CoRAG's external reranker (§3.4) is Rerank: the top K = 25 of CoR's
// ranking get s′ from any method or model (binary, eq. 12: 1 when its
// score reaches a threshold; or its score itself), and every candidate
// scores ŝ* = ŝ + s′ (eq. 13). A model directory holding corag.json (the
// CoR run, the reranker, top_k, s_prime, threshold) loads through the
// registry as the method corag, so eval --model and pipelines use it.
//
// Deviations from CoRAG (docs/methods.md's CoR section has the numbers): the
// default learning rate and epochs are 3e-3 and 10, not 1e-4 and 5, which
// underfit on every validation split measured; the encoder is the
// workspace's dense channel, not text-ada-002; the reranker is whatever
// strata has (a trained model, a method, an exported LLM reranker), not
// gpt-4o-mini.
package cor
