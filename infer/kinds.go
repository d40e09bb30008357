package infer

// Checkpoint kinds: the manifest's "kind" that a trainer writes (train's
// models return these from Kind) and the registry dispatches on (each
// method package registers its loader under its own). One list, so a
// trainer and its loader cannot drift apart.
const (
	KindCoR         = "cor"          // CoR gate (infer/cor)
	KindMFAR        = "mfar"         // mFAR field weights (infer/mfar)
	KindMoR         = "mor"          // MoR trajectory reranker (infer/mor)
	KindPlanner     = "planner"      // native planner (infer/planner)
	KindKGQA        = "kgqa"         // KGQA pattern predictor (infer/kgqa)
	KindGrasp       = "grasp"        // fitted GRASP stages 2 and 3 (infer/grasp)
	KindLLMReranker = "llm-reranker" // LoRA adapters of a Qwen3 reranker (infer/llmrerank)
	KindEncoder     = "encoder"      // the hashed dense encoder (the dense channel)
)
