// Package models holds parameter structs with Forward methods: the MLP
// gate, the trajectory reranker, field weighting, the hashed text encoder
// and the Qwen3 decoder with LoRA. Models do no file I/O and no data
// loading; they import neither data nor train. Kernels take []float32 and
// write into a caller-owned dst.
//
// # Numerics and threads
//
// Matrix products go through internal/gemm, whose results do not depend
// on its thread count. Qwen3's attention is a blocked causal kernel (one
// GEMM per 64-query block and head, parallel over heads and blocks, each
// output written by one task); its backward pass rebuilds the
// probabilities from the saved log-normaliser. So the gate, the encoder
// and a Qwen3 forward give bit-identical results for any GOMAXPROCS. The
// LoRA listwise operator runs its sequences on LoRAConfig.Threads workers
// with one gradient buffer each, summed in worker order: its gradients are
// bit-identical for a given thread count and differ by rounding across
// thread counts.
//
// Generation runs over a KVCache (Qwen3.Generate, KVCache.Append): the
// prompt once, then each new token alone against the cached keys and
// values.
package models
