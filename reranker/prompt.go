package reranker

import "strings"

// Qwen3-Reranker's prompt: the system turn, then the user turn holding the
// instruction, query and document, then an empty thinking block; the score
// is softmax([logit_no, logit_yes])[yes] at the last position.
const (
	PromptPrefix = "<|im_start|>system\nJudge whether the Document meets the requirements based on the Query and the Instruct provided. Note that the answer can only be \"yes\" or \"no\".<|im_end|>\n<|im_start|>user\n"
	PromptSuffix = "<|im_end|>\n<|im_start|>assistant\n<think>\n\n</think>\n\n"
)

// Instructions are the per-data-set instructions of the LLM reranker.
var Instructions = map[string]string{
	"amazon": "Given a product search query, judge whether the product satisfies every requirement of the query",
	"mag":    "Given a query about academic papers, judge whether the paper satisfies every requirement of the query",
	"prime":  "Given a biomedical query, judge whether the entity satisfies every requirement of the query",
}

// DefaultInstruction is used for other data sets.
const DefaultInstruction = "Given a query, judge whether the document satisfies every requirement of the query"

// PromptBody is "<Instruct>: {instruction}\n<Query>: {query}\n<Document>: {document}".
func PromptBody(instruction, query, document string) string {
	return "<Instruct>: " + instruction + "\n<Query>: " + query + "\n<Document>: " + document
}

// Prompt is the whole reranker input text.
func Prompt(instruction, query, document string) string {
	var b strings.Builder
	b.WriteString(PromptPrefix)
	b.WriteString(PromptBody(instruction, query, document))
	b.WriteString(PromptSuffix)
	return b.String()
}
