package reranker

import (
	"fmt"
	"strings"
	"sync"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/reranker/bpe"
)

// Qwen3-Reranker's prompt: the system turn, then the user turn holding the
// instruction, query and document, then an empty thinking block; the score
// is softmax([logit_no, logit_yes])[yes] at the last position.
const (
	PromptPrefix = "<|im_start|>system\nJudge whether the Document meets the requirements based on the Query and the Instruct provided. Note that the answer can only be \"yes\" or \"no\".<|im_end|>\n<|im_start|>user\n"
	PromptSuffix = "<|im_end|>\n<|im_start|>assistant\n<think>\n\n</think>\n\n"
)

// Instructions are GRASP's stage-3 instructions for STaRK's three SKBs
// (appendix B.5, verbatim).
var Instructions = map[string]string{
	"amazon": "Given a question about Amazon products in a product knowledge graph (products, brands, categories, colors, with ALSO_BUY / ALSO_VIEW co-purchase edges), judge whether the candidate node is a correct answer. Consider the product's title, description, features, brand, category, and color, and how well they match the question's requirements (brand filters, descriptive attributes, etc.).",
	"mag":    "Given a question about entities in an academic knowledge graph (papers, authors, institutions, fields of study), judge whether the candidate node is a correct answer. Consider the node's attributes, its relations to other nodes, and how well it matches the question's requirements.",
	"prime":  "Given a question about entities in a biomedical knowledge graph (diseases, genes/proteins, drugs, pathways, anatomy, biological processes, phenotypes, etc.), judge whether the candidate node is a correct answer. Consider the node's attributes, its relations to other nodes, and how well it matches the question's requirements.",
}

// SchemaInstruction is appendix B.5's instruction for any SKB: the wording
// of the MAG and Prime instructions with the SKB's own node types.
func SchemaInstruction(s *data.Schema) string {
	return "Given a question about entities in a knowledge graph (" + strings.Join(s.NodeTypes, ", ") +
		"), judge whether the candidate node is a correct answer. Consider the node's attributes, its relations to other nodes, and how well it matches the question's requirements."
}

// ResolveInstruction turns an --instruction value into the instruction:
// "" or "auto" the schema's (SchemaInstruction), amazon, mag or prime
// GRASP's verbatim, anything else the text itself.
func ResolveInstruction(v string, s *data.Schema) string {
	if v == "" || v == "auto" {
		return SchemaInstruction(s)
	}
	if in, ok := Instructions[v]; ok {
		return in
	}
	return v
}

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
