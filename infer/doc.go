// Package infer is the core every retrieval method shares: the Method
// interface and its optional abilities (Reranker, FallbackCounter,
// Explainer), the one ranking order (SortHits, which is index.Compare),
// the one plan lookup (PlanFor), the workspace's dense channel
// (DenseChannel, TextEncoder), Env (what loading a model needs) and the
// checkpoint kinds that trainers write and loaders register (Kind*).
//
// Each method lives in its own subpackage and registers itself with
// infer/registry: baseline (bm25, dense, bm25+dense, plan execution),
// planner (the native planner, plan mining, MoR's traversal), mor, cor,
// mfar, grasp, sage, simgrag, kgqa and llmrerank. infer/pipeline compiles
// pipeline files, infer/serve scores query files, serves HTTP and packs
// bundles, and infer/onnx runs ONNX Runtime. infer/all imports every
// method package so that the registry knows them.
//
// A method implements Rank(ctx, query) returning a possibly partial ranking
// of node ids; eval places unscored candidates as STaRK does.
package infer
