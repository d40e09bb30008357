// Package mor is MoR's structure-aware trajectory reranker over the mixed
// traversal's pool (MoR §3.3): every candidate's trajectory gives a
// textual fingerprint (BM25 of each path node and the dense score), a
// structural fingerprint (the node-type sequence) and a traversal
// identifier (how each step was reached); the model is
// models.TrajectoryReranker. Plans come from the planner (infer.Planner) at validation
// and serving time.
//
// Deviations from MoR: the planner is strata's native one (see planner),
// trained from the workspace's or mined plans, not an LLM; the textual
// matcher is BM25 for every data set (MoR fine-tunes Contriever for Prime);
// a trajectory step records its node's own type (untyped plan positions
// have none). Training follows MoR: softmax cross-entropy of one gold
// candidate against 100 pool candidates sampled with replacement.
package mor
