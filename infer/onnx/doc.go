// Package onnx runs ONNX Runtime: the one process-wide environment (Init,
// the library from STRATA_ORT_LIB), sessions, BERT-family sentence encoders
// exported by the user (Encoder) and the Qwen3 reranker graph
// (Qwen3Graph, built with infer/onnxg) and its batched runs.
package onnx
