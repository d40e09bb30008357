// Package sage is SAGE's graph expansion: the top k seeds of a method are
// expanded by their 1-hop neighbours (along relations, or along an offline
// similarity graph of the candidates' text fields), rescored by 0.4·dense
// + 0.6·BM25 over the neighbour set, and the best k′ are added after the
// seeds. Variants: sage, sage-sim (similarity graph at the 95th
// percentile), sage-plan and sage-plan-always (plan-based seeds with and
// without the ±Edge policy).
//
// Deviations from SAGE: the hybrid seeds are the RRF of BM25 and dense
// (the paper fuses linearly with α = 0.6); the similarity graph compares
// all pairs exactly (the paper keeps top-k neighbours).
package sage
