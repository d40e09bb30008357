// Package models holds parameter structs with Forward methods: the MLP
// gate, the trajectory reranker, field weighting, the hashed text encoder
// and the Qwen3 decoder with LoRA. Models do no file I/O and no data
// loading; they import neither data nor train. Kernels take []float32 and
// write into a caller-owned dst.
package models
