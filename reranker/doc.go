// Package reranker holds second-stage ranking: MoR trajectory features and
// reranker, the LLM reranker's prompt, serialization and listwise groups,
// and fusion (static and plan-conditioned RRF, reranker fusion).
package reranker
