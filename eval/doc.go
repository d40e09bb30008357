// Package eval computes STaRK's retrieval metrics exactly as
// stark_qa/evaluator.py does (before torchmetrics 1.8 changed retrieval
// metrics for non-positive scores), runs methods over query splits, and
// formats results as tables and JSON.
//
// The ranking of a query covers every candidate (the nodes of the data set's
// candidate types). Candidates the method did not score get min(score) − 1,
// so they follow every scored candidate; ties are broken by ascending node
// id; gold answers outside the candidate set are dropped (a query left with
// no gold scores 0 on every metric); Hit@k is 1 when any gold is in the top
// k; Recall@k = |gold ∩ top k| / |gold|; MRR is 1 / the rank of the first
// gold in the full ranking. Every metric is averaged over queries.
package eval
