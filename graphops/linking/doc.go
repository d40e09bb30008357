// Package linking finds the nodes a text names. MentionIndex matches
// normalised word sequences against node names, the items of alias-like
// text fields (lemmas, synonyms) and names without a parenthesised
// qualifier; it is what the planner, the plan miner, GRASP and KGQA link
// questions with. Linker is the longest-match linker over names alone that
// CoR's retrievers and the planner's gate read, and NameIndex looks a node
// up by its type and exact name (plans name their anchors so).
package linking
