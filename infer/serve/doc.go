// Package serve scores queries with a compiled pipeline: query files into
// JSONL or TREC runs (ScoreFile, resumable), an HTTP service (NewHandler,
// ListenAndServe) and bundles that pack a pipeline with its checkpoints
// (WriteBundle, OpenBundle; Open compiles a file, run directory or bundle).
package serve
