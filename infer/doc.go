// Package infer holds the scorers that rank candidates for a query — the
// retrieval methods strata can evaluate and serve — and, as later work adds
// them, batch offline scoring and ONNX sessions.
//
// A method implements Rank(ctx, query) returning a possibly partial ranking
// of node ids; eval places unscored candidates as STaRK does.
package infer
