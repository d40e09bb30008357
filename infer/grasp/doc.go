// Package grasp is GRASP's stages 2 and 3: the graph branch executes each
// query's GRASP plan on the graph (anchors linked by cosine to names or
// documents in one text space, or bound to the nodes the planner linked;
// typed hops; a candidate scores the best sum of anchor cosines along a
// matched path plus the cosine of the plan's relevance text), fused with
// mFAR's ranking by static RRF w/(k+rank_g) + (1−w)/(k+rank_m) or dynamic
// RRF ŵ/(k+rank_g) + 1/(k+rank_m), ŵ = w_bucket[b(n_cand)]·m_risk[r]
// unclipped (section 3.2), and optionally stage 3: a reranker over stage
// 2's top 100 fused with stage 2 by static RRF (section 3.3).
// train.FitGrasp searches the paper's grids (appendix A) on the val split.
//
// Deviations from GRASP:
//   - plans come from the native planner (no LLM) or a plans file; hops may
//     be directed, universal ("∀->rel": the nodes related to every node
//     bound to the hop's source) and labels "*", and the target may carry
//     attributes that its text must state (strata's plan extensions, the
//     planner's typed plan carried into GRASP's);
//   - the native planner declares no risk level: the dynamic search
//     calibrates one from its confidence with three cuts at quantiles of
//     the val confidences, searched jointly with the weights, so
//     unconfident plans can be no_trade (the paper's LLM self-reports it);
//   - the selection rule is the paper's (val Hit@1) by default; strata's
//     recall floor (keep the better branch's Recall@20) is --rule
//     hit1-recall-floor;
//   - stage 3 may also fuse a model's own ranking (mode independent), and
//     the LLM reranker's base is whatever Qwen3 checkpoint the user has;
//   - texts are embedded by the dense channel's encoder, an ONNX sentence
//     encoder, or not at all (imported vectors: linked anchors only, at
//     cosine 1, and the relevance text scored by the query's vector).
package grasp
