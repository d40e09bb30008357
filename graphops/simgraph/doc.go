// Package simgraph is SAGE's offline similarity graph: text-rich nodes
// linked when their metadata is alike (Build: per field, each node's
// nearest neighbours, exact or through an inverted file, kept above SAGE's
// percentile threshold of random pairs; any field links, SAGE's OR). SAGE's
// retrieval (infer/sage) expands its seeds along it.
package simgraph
