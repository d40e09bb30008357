// Package reranker holds second-stage ranking pieces shared by the methods:
// fusion (the one weighted reciprocal rank fusion FuseRRF, GRASP's static
// and plan-conditioned RRF and its grid search), the LLM reranker's
// prompts, candidate serialization and listwise training records, and the
// byte-level BPE tokenizer (reranker/bpe). MoR's trajectory reranker lives
// in models and infer/mor.
package reranker
