package reranker

import (
	"fmt"
	"strings"
	"sync"

	"github.com/strata-retrieval/strata/reranker/bpe"
)

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

// PromptTokenizer turns (query, document) into the reranker's token ids,
// truncating the document so the whole prompt fits maxLen.
type PromptTokenizer struct {
	Tok         *bpe.Tokenizer
	Instruction string
	MaxLen      int
	prefix      []int
	suffix      []int
	mu          sync.Mutex
	cache       map[string][]int
}

// NewPromptTokenizer tokenizes the fixed prefix and suffix once.
func NewPromptTokenizer(tok *bpe.Tokenizer, instruction string, maxLen int) (*PromptTokenizer, error) {
	p := &PromptTokenizer{Tok: tok, Instruction: instruction, MaxLen: maxLen, cache: map[string][]int{}}
	var err error
	if p.prefix, err = tok.Encode(PromptPrefix); err != nil {
		return nil, err
	}
	if p.suffix, err = tok.Encode(PromptSuffix); err != nil {
		return nil, err
	}
	if maxLen <= len(p.prefix)+len(p.suffix)+8 {
		return nil, fmt.Errorf("max length %d leaves no room for the body (prefix and suffix take %d tokens)", maxLen, len(p.prefix)+len(p.suffix))
	}
	return p, nil
}

// IDs returns the prompt's ids: prefix, the body truncated to fit, suffix.
func (p *PromptTokenizer) IDs(query, doc string) ([]int, error) {
	key := query + "\x00" + doc
	p.mu.Lock()
	ids, ok := p.cache[key]
	p.mu.Unlock()
	if ok {
		return ids, nil
	}
	body, err := p.Tok.Encode(PromptBody(p.Instruction, query, doc))
	if err != nil {
		return nil, err
	}
	room := p.MaxLen - len(p.prefix) - len(p.suffix)
	if len(body) > room {
		body = body[:room]
	}
	ids = append(append(append(make([]int, 0, len(p.prefix)+len(body)+len(p.suffix)), p.prefix...), body...), p.suffix...)
	p.mu.Lock()
	if len(p.cache) > 1<<16 {
		clear(p.cache)
	}
	p.cache[key] = ids
	p.mu.Unlock()
	return ids, nil
}
