// Package llmrerank is GRASP's stage-3 LLM reranker: a Qwen3 checkpoint
// (Hugging Face directory) with LoRA adapters, merged and exported to ONNX
// (Export), served by ONNX Runtime over a first stage's top 100 (GRASP's
// pool; LLMReranker, a model directory the registry loads, which also
// reranks any pool it is given, as GRASP's stage 3 does with stage 2's),
// and the listwise training records (Records).
//
// Prompts follow appendix B.5 and B.6: Qwen3-Reranker's chat template with
// B.5's instruction (GRASP's verbatim for amazon, mag and prime; B.5's
// wording with the SKB's node types otherwise), the question, and the
// candidate serialized as "[Type]", "[name]", one line per text field cut
// to 300 model tokens (max_text_field_tokens) and up to 10 neighbour names
// per relation.
//
// Deviations from GRASP: the base reranker is whatever Qwen3 checkpoint
// the user has (no model hub here; Qwen3-Reranker-0.6B when available);
// the whole prompt is cut to --max-len tokens at the end of the document.
package llmrerank
