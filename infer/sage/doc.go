// Package sage is SAGE's graph expansion (structure-aware graph expansion):
// the top k = 10 seeds of a seed retriever are expanded by their 1-hop
// neighbours (along relations, or along an offline similarity graph of the
// candidates' text fields), the neighbours are rescored by SAGE's linear
// fusion 0.6·BM25/max + 0.4·cosine (Fuse) over the neighbour set, and the
// best k′ = 10 are added after the seeds. Variants: sage-hybrid (SAGE's
// hybrid seed retriever alone: Fuse over every candidate), sage and
// sage-sim (hybrid seeds, expanding along relations or the similarity
// graph), sage-plan and sage-plan-always (plan-based seeds with and
// without the ±Edge policy).
//
// The similarity graph follows SAGE's percentile rule: per field, the
// threshold is the 95th percentile of the cosine of random pairs, and two
// nodes are linked when any field (OR) passes it. The candidate pairs are
// each node's K = 10 nearest neighbours per field (simgraph.Build:
// exact up to 20,000 distinct values, above that an inverted file refined
// by two rounds of neighbour-of-neighbour search, its recall measured).
//
// Deviations from SAGE, each measured (docs/kgqa-sage.md):
//   - The fusion's normalisation: SAGE gives α = 0.6 for BM25 and β = 0.4
//     for embeddings but no normalisation; BM25 is divided by its maximum
//     over the scored set (as SAGE's code does for the neighbours) and the
//     cosine is kept as it is, in seeds and pruning alike.
//   - The similarity graph keeps each node's K nearest per field above the
//     threshold, not every pair above it: SAGE finds neighbours with an
//     HNSW index, and an all-pairs build of strata's did not finish in 8
//     minutes on 64k candidates (on generated text the 95th percentile
//     links 18% of all pairs). K = 10 was chosen on the presets' val
//     Recall@20 among 5, 10, 20, 50. On WordNet's 117,659 candidates the
//     approximate lists find 0.77-0.84 of the exact neighbours per field.
//   - Seeds for SKBs: SAGE seeds them with SPARK, an LLM agent writing
//     Cypher; sage-plan seeds with MoR's traversal of the query's plan
//     (the workspace's, a planner's or a plans file's) instead.
package sage
