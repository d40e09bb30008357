// Package grasp is GRASP's stages 2 and 3: the graph branch executes each
// query's GRASP plan on the graph (anchors linked by dense cosine to names
// or documents, or bound to the nodes the planner linked; typed hops; a
// candidate scores the best sum of anchor cosines along a matched path plus
// the cosine of the plan's relevance text), fused with mFAR's ranking by
// static or plan-conditioned RRF, and optionally with a stage-3 reranker by
// static RRF. train.FitGrasp fits the fusions on the val split.
//
// Deviations from GRASP: plans come from the native planner (no LLM; the
// risk level from its template probability) or a plans file; hops may be
// directed and labels "*" (strata's plan extensions); the fusion grids are
// searched by validation Hit@1 among the settings that keep the better
// branch's Recall@20, and the dynamic weight is clipped to [0, 1] (the
// paper's formula is not clipped); stage 3 fuses the reranker's own ranking
// (issue "paper fidelity" tracks the remaining differences).
package grasp
