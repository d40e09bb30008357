package main

import "github.com/spf13/cobra"

// papersLong lists, per paper strata implements, where strata departs from
// it and why (the measured reason where there is one). docs/methods.md
// sections say the same at more length.
const papersLong = `Where strata departs from the papers it implements (GRASP, SimGRAG, SAGE,
MoR, CoRAG, mFAR), and why; docs/methods.md has the details and
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
    best-GSD subgraphs are the ranking. With a plan, the typed plan does
    the LLM's answer step: at equal GSD, bindings rank by the plan's named
    nodes, the share of a universal step's members they relate to ("the
    genre every film of P has", which a pattern graph cannot say), then
    the restriction's BM25 on their documents.
  - k = 100 subgraphs, not 3: the answers of the top 3 come first either way,
    and k = 3 cut MetaQA's test Recall@20 from 0.990/0.973 to 0.852/0.657 (2-
    and 3-hop) at the same Hit@1. k(n) = k(r) = 16 as the paper's MetaQA runs.
  - A match may reuse a node but not one stored triple twice at a node (the
    paper's isomorphism makes answers that return to the topic unreachable);
    "->rel" triples are directed.

MoR (strata train mor; the planner and the trajectory reranker)
  - The planner is strata's own, trained from mined (or the workspace's)
    plans, not MoR's fine-tuned Llama 3.2 3B: a question shape absent from
    training cannot be planned.
  - The textual matcher is BM25 for every data set (MoR fine-tunes a
    Contriever for Prime; no pretrained encoder is reachable here).
  - As GRASP's stage 3, a node the traversal did not reach gets the one-step
    trajectory of a textual retrieval.
  - The traversal walks strata's typed plan: a universal step keeps the
    nodes related to every node of the previous layer (with the layer's
    textual matches), and attribute filters cut the final set, where MoR's
    plans have neither (movies-skb test Hit@1 0.715 -> 0.739: 128 of 1,170
    questions fell back to BM25 before).

CoRAG (strata train cor; a corag.json model directory for the reranker)
  - The loss averages over each retriever's top 20 and the gold answers,
    not eq. 11's C_q (--loss all): on real WordNet val MRR 0.318 against
    0.295 (eq. 11 led by 0.002-0.028 on the generated presets only).
  - Learning rate 3e-3 and 10 epochs, not 1e-4 and 5: the paper's setting
    gave val MRR 0.25 / 0.10 / 0.28 on amazon / mag / prime against 0.52 /
    0.47 / 0.66 (600 training questions make 50 steps).
  - The encoder is the dense channel, not text-ada-002; the external
    reranker (s' on CoR's top 25, eq. 12-13) is any strata model or method,
    not gpt-4o-mini.

mFAR (strata train mfar)
  - The encoder is frozen by default (--finetune-encoder trains it with the
    weights as mFAR does): tuning strata's hashed encoder lowered val MRR on
    every preset (amazon 0.513 -> 0.397, mag 0.311 -> 0.253, prime 0.512 ->
    0.317 at the best learning rate tried).
  - Dense scores are divided by the training temperature at inference too
    (mFAR's code does not, which puts them 20x below their training scale).

SAGE (strata eval --method sage-hybrid, sage, sage-sim, sage-plan; strata simgraph)
  - BM25 is divided by its maximum in the 0.6/0.4 fusion (the paper names no
    normalisation); the fusion replaced an RRF that halved BM25's Hit@1.
  - The similarity graph keeps each candidate's 10 nearest per field above
    the 95th-percentile threshold (an all-pairs build did not finish in 8
    minutes on 64k candidates; K = 10 best on val among 5/10/20/50).
  - SKB seeds come from MoR's traversal of a plan (sage-plan), not SPARK.`

func newPapersTopic() *cobra.Command {
	return &cobra.Command{Use: "papers", Short: "Where strata departs from the papers it implements, and why", Long: papersLong}
}
