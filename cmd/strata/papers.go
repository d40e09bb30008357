package main

import "github.com/spf13/cobra"

// papersLong lists, per paper strata implements, where strata departs from
// it and why (the measured reason where there is one). README's method
// sections say the same at more length.
const papersLong = `Where strata departs from the papers it implements (GRASP, SimGRAG, SAGE,
MoR, CoRAG, mFAR), and why; the README's method sections have the details and
the numbers.

GRASP (strata train grasp; GRASP's stages 1-3)
  - Plans come from strata's native planner (trained on plans mined from the
    train answers) or a plans file, not an LLM; hops may be directed and
    labels "*" (strata's plan extensions).
  - The native planner declares no risk_level: the dynamic-RRF search
    calibrates one from the planner's confidence (three cuts at quantiles of
    the val confidences, searched jointly with the paper's grids), so
    unconfident plans can be no_trade. Formula, grids, buckets and the
    Hit@1 selection rule are the paper's; --rule hit1-recall-floor restores
    strata's earlier rule (keep the better branch's val Recall@20).
  - Stage 3 reranks stage 2's top 100 as the paper does; a model that cannot
    rerank a pool (or --stage3-mode independent) is fused by its own ranking,
    and the table says which. The LLM reranker's base is whatever Qwen3
    checkpoint the user has (no model hub).
  - Texts are embedded by the dense channel's encoder or an ONNX sentence
    encoder (--onnx-encoder), not the paper's; with imported vectors alone,
    only linked anchors work (at cosine 1) and the relevance text is scored
    by the query's imported vector.

LLM reranker (strata train llm-reranker, export onnx; GRASP appendix B.5-B.6)
  - Instruction: B.5's verbatim for amazon/mag/prime, B.5's wording with the
    workspace's node types otherwise; serialization as B.6, fields cut to
    300 model tokens; the prompt is cut to --max-len at the document's end.

SimGRAG (strata eval --method simgrag, --patterns; strata train kgqa)
  - No LLM writes the pattern or the answer: patterns come from plans, a
    patterns file or KGQA's predictor, and the target's bindings in the
    best-GSD subgraphs are the ranking.
  - k = 100 subgraphs, not 3: the answers of the top 3 come first either way,
    and k = 3 cut MetaQA's test Recall@20 from 0.990/0.973 to 0.852/0.657 (2-
    and 3-hop) at the same Hit@1. k(n) = k(r) = 16 as the paper's MetaQA runs.
  - A match may reuse a node but not one stored triple twice at a node (the
    paper's isomorphism makes answers that return to the topic unreachable);
    "->rel" triples are directed.

MoR (strata train mor; the planner and the trajectory reranker)
  - The planner is strata's own, trained from mined (or the workspace's)
    plans, not an LLM; the textual matcher is BM25 for every data set.
  - As GRASP's stage 3, a node the traversal did not reach gets the one-step
    trajectory of a textual retrieval.

CoRAG (strata train cor)
  - See strata train cor --help: defaults, loss and the external reranker
    are measured there against the paper's.

mFAR (strata train mfar)
  - See strata train mfar --help: encoder fine-tuning against frozen, and
    the inference-time temperature.

SAGE (strata eval --method sage, sage-sim, sage-hybrid; strata simgraph)
  - See strata simgraph --help: the similarity graph from each candidate's
    nearest neighbours per field (the percentile rule kept), the fusion's
    normalisation, and plan-based seeds instead of SPARK.`

func newPapersTopic() *cobra.Command {
	return &cobra.Command{Use: "papers", Short: "Where strata departs from the papers it implements, and why", Long: papersLong}
}
