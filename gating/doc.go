// Package gating holds CoR (CoRAG's cooperative retrievers): per-retriever
// score vectors, the textual, relational and hybrid gates, the CoR scorer
// (Score, ScoreOp) and its training loss (LossOp). It must not import
// train (train imports it).
//
// LossAll is CoRAG's eq. 11, the MSE of ŝ against 1 for gold answers and
// 0 otherwise, averaged over the query's whole candidate set C_q (every
// candidate but its topic entities) and then over the queries of a batch.
// LossInputs makes that cheap: a candidate that only a textual retriever
// scores contributes h₀²·g⁽ᵗ⁾[type]²·cos², so per query the Σ cos² of those
// candidates is summed once per type, and only the gold answers and the
// candidates a relational retriever reaches are scored at every step.
// The default, Config.Loss "pool", averages over the union of every
// retriever's top PoolK plus the gold answers: it won on the real WordNet
// SKB's validation split (docs/methods.md, CoR).
package gating
