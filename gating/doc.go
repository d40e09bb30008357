// Package gating holds CoR (CoRAG's cooperative retrievers): per-retriever
// score vectors, the textual, relational and hybrid gates, and the CoR
// scorer. It must not import train (train imports it).
package gating
