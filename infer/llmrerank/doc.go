// Package llmrerank is GRASP's stage-3 LLM reranker: a Qwen3 checkpoint
// (Hugging Face directory) with LoRA adapters, merged and exported to ONNX
// (Export), served by ONNX Runtime over a first stage's top candidates
// (LLMReranker, a model directory the registry loads), and the listwise
// training records (Records).
//
// Deviations from GRASP: the reranker rescores the first stage's top 20
// (the paper's top 100) and its ranking is fused with stage 2 by static RRF.
package llmrerank
