// Package bpe is a byte-level BPE tokenizer with Qwen3's semantics, read
// from a Hugging Face tokenizer.json: added and special tokens matched
// before anything else (leftmost, longest), NFC normalisation, the split
// pattern with its lookahead (dlclark/regexp2), GPT-2's byte-to-unicode
// mapping, and merges applied by rank with ties broken by position.
package bpe

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/dlclark/regexp2"
	"golang.org/x/text/unicode/norm"

	"github.com/strata-retrieval/strata/internal/cache"
)

// Tokenizer encodes text to token ids.
type Tokenizer struct {
	vocab   map[string]int
	inverse []string
	ranks   map[[2]string]int
	added   []addedToken // longest first
	split   *regexp2.Regexp
	nfc     bool
	byteMap [256]string
	cache   sync.Map // piece -> []int
}

type addedToken struct {
	content string
	id      int
	special bool
}

type tokenizerJSON struct {
	AddedTokens []struct {
		ID      int    `json:"id"`
		Content string `json:"content"`
		Special bool   `json:"special"`
	} `json:"added_tokens"`
	Normalizer *struct {
		Type string `json:"type"`
	} `json:"normalizer"`
	PreTokenizer *struct {
		Type          string `json:"type"`
		Pretokenizers []struct {
			Type    string `json:"type"`
			Pattern struct {
				Regex string `json:"Regex"`
			} `json:"pattern"`
		} `json:"pretokenizers"`
	} `json:"pre_tokenizer"`
	Model struct {
		Type   string            `json:"type"`
		Vocab  map[string]int    `json:"vocab"`
		Merges []json.RawMessage `json:"merges"`
	} `json:"model"`
}

// Qwen3Env names the environment variable holding Qwen3's tokenizer.json
// (make test fetches it into .cache/tokenizer-qwen3-3.7.2/).
const Qwen3Env = "STRATA_QWEN3_TOKENIZER"

// Qwen3Path finds Qwen3's tokenizer.json: $STRATA_QWEN3_TOKENIZER, else the
// make cache in the working directory or a parent.
func Qwen3Path() (string, bool) {
	return cache.Find(Qwen3Env, filepath.Join("tokenizer-qwen3-3.7.2", "tokenizer.json"))
}

// Load reads a tokenizer.json.
func Load(path string) (*Tokenizer, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	t, err := Parse(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return t, nil
}

// Parse reads a tokenizer.json's bytes.
func Parse(b []byte) (*Tokenizer, error) {
	var j tokenizerJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return nil, err
	}
	if j.Model.Type != "BPE" {
		return nil, fmt.Errorf("model type %q, want BPE", j.Model.Type)
	}
	t := &Tokenizer{vocab: j.Model.Vocab, ranks: make(map[[2]string]int, len(j.Model.Merges))}
	for i, m := range j.Model.Merges {
		var pair []string
		if err := json.Unmarshal(m, &pair); err != nil {
			var s string
			if err := json.Unmarshal(m, &s); err != nil {
				return nil, fmt.Errorf("merge %d: %s", i, m)
			}
			pair = strings.SplitN(s, " ", 2)
		}
		if len(pair) != 2 {
			return nil, fmt.Errorf("merge %d: %s", i, m)
		}
		k := [2]string{pair[0], pair[1]}
		if _, dup := t.ranks[k]; !dup {
			t.ranks[k] = i
		}
	}
	for _, a := range j.AddedTokens {
		t.added = append(t.added, addedToken{a.Content, a.ID, a.Special})
		t.vocab[a.Content] = a.ID
	}
	sort.SliceStable(t.added, func(a, b int) bool { return len(t.added[a].content) > len(t.added[b].content) })
	t.nfc = j.Normalizer != nil && j.Normalizer.Type == "NFC"
	if j.PreTokenizer == nil {
		return nil, errors.New("no pre_tokenizer")
	}
	for _, p := range j.PreTokenizer.Pretokenizers {
		if p.Type == "Split" && p.Pattern.Regex != "" {
			re, err := regexp2.Compile(p.Pattern.Regex, regexp2.Unicode)
			if err != nil {
				return nil, fmt.Errorf("split pattern: %w", err)
			}
			t.split = re
		}
	}
	if t.split == nil {
		return nil, errors.New("no Split pre-tokenizer pattern")
	}
	max := 0
	for _, id := range t.vocab {
		max = maxInt(max, id)
	}
	t.inverse = make([]string, max+1)
	for s, id := range t.vocab {
		t.inverse[id] = s
	}
	t.byteMap = byteToUnicode()
	return t, nil
}

func maxInt(a, b int) int {
	if a > b {
		return a
	}
	return b
}

// byteToUnicode is GPT-2's reversible mapping of bytes to printable runes.
func byteToUnicode() [256]string {
	var m [256]string
	n := 0
	for b := 0; b < 256; b++ {
		if b >= '!' && b <= '~' || b >= 0xA1 && b <= 0xAC || b >= 0xAE && b <= 0xFF {
			m[b] = string(rune(b))
		} else {
			m[b] = string(rune(256 + n))
			n++
		}
	}
	return m
}

// ID returns a token's id.
func (t *Tokenizer) ID(token string) (int, bool) {
	id, ok := t.vocab[token]
	return id, ok
}

// VocabSize is the largest id plus one.
func (t *Tokenizer) VocabSize() int { return len(t.inverse) }

// Encode returns the ids of text.
func (t *Tokenizer) Encode(text string) ([]int, error) {
	var out []int
	for len(text) > 0 {
		// The leftmost added token, the longest at that position.
		at, which := -1, -1
		for i, a := range t.added {
			if p := strings.Index(text, a.content); p >= 0 && (at < 0 || p < at) {
				at, which = p, i
			}
		}
		seg := text
		if at >= 0 {
			seg = text[:at]
		}
		ids, err := t.encodeSegment(seg)
		if err != nil {
			return nil, err
		}
		out = append(out, ids...)
		if at < 0 {
			break
		}
		out = append(out, t.added[which].id)
		text = text[at+len(t.added[which].content):]
	}
	return out, nil
}

func (t *Tokenizer) encodeSegment(s string) ([]int, error) {
	if s == "" {
		return nil, nil
	}
	if t.nfc {
		s = norm.NFC.String(s)
	}
	var out []int
	m, err := t.split.FindStringMatch(s)
	for ; m != nil && err == nil; m, err = t.split.FindNextMatch(m) {
		out = append(out, t.piece(m.String())...)
	}
	return out, err
}

// piece is the BPE of one pre-token.
func (t *Tokenizer) piece(p string) []int {
	if v, ok := t.cache.Load(p); ok {
		return v.([]int)
	}
	syms := make([]string, 0, len(p))
	for i := 0; i < len(p); i++ {
		syms = append(syms, t.byteMap[p[i]])
	}
	for len(syms) > 1 {
		best, at := -1, -1
		for i := 0; i+1 < len(syms); i++ {
			if r, ok := t.ranks[[2]string{syms[i], syms[i+1]}]; ok && (best < 0 || r < best) {
				best, at = r, i
			}
		}
		if at < 0 {
			break
		}
		syms[at] += syms[at+1]
		syms = append(syms[:at+1], syms[at+2:]...)
	}
	ids := make([]int, 0, len(syms))
	for _, s := range syms {
		if id, ok := t.vocab[s]; ok {
			ids = append(ids, id)
			continue
		}
		// Unknown symbol (cannot happen with a complete byte vocabulary):
		// fall back to its bytes' ids.
		for _, r := range s {
			if id, ok := t.vocab[string(r)]; ok {
				ids = append(ids, id)
			}
		}
	}
	t.cache.Store(p, ids)
	return ids
}

// Decode turns ids back into text.
func (t *Tokenizer) Decode(ids []int) string {
	inv := map[rune]byte{}
	for b, s := range t.byteMap {
		inv[[]rune(s)[0]] = byte(b)
	}
	var out []byte
	for _, id := range ids {
		if id < 0 || id >= len(t.inverse) {
			continue
		}
		s := t.inverse[id]
		special := false
		for _, a := range t.added {
			if a.id == id {
				out = append(out, a.content...)
				special = true
				break
			}
		}
		if special {
			continue
		}
		for _, r := range s {
			if b, ok := inv[r]; ok {
				out = append(out, b)
			}
		}
	}
	return string(out)
}
