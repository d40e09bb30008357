// Package kgqa answers knowledge-graph questions (MetaQA, PathQuestion)
// as SimGRAG does with a native pattern predictor in place of the LLM: the
// planner classifies the question into a relation path, the [bracketed]
// topic entities (or the linked mentions) become known nodes, and SimGRAG
// retrieves the subgraphs. Labels come from the workspace's plans
// (question types) or are mined from the answers (MinePlans).
package kgqa
