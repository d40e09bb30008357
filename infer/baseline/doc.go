// Package baseline holds the methods without a trained model: BM25 over
// every candidate's whole document (bm25s' "lucene" variant, STaRK's
// baseline), the dense channel's cosine (dense), their reciprocal rank
// fusion (bm25+dense, k = 60, SAGE's seeds) and plan execution: oracle-plan
// (the query's plan executed, reached nodes ranked by BM25 of the target's
// restriction), plan-structure (the same, ranked by id) and plan-exec (the
// same, then every other candidate by BM25 of the query), which serves a
// trained planner's plans (planner.PlannedMethod).
//
// Queries whose plan is missing, invalid or reaches no candidate fall back
// to BM25 and are counted (infer.FallbackCounter).
package baseline
