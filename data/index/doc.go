// Package index holds the text indexes of an SKB: BM25 (bm25s' "lucene"
// variant, exactly) over any set of documents, and an exact top-k collector.
//
// Build, then freeze: a Builder consumes documents and produces an immutable
// *BM25 whose methods are safe for concurrent use. Scores are float32;
// rankings are []Hit sorted by descending score, ties broken by ascending
// document id. Queries reuse per-goroutine scratch from a pool and do not
// allocate beyond their result.
package index
