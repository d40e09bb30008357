package bpe

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// qwen3 loads Qwen3's tokenizer.json (make test fetches it into .cache),
// or skips.
func qwen3(t testing.TB) *Tokenizer {
	t.Helper()
	p, ok := Qwen3Path()
	if !ok {
		t.Skip("Qwen3 tokenizer.json absent: run make test")
	}
	tok, err := Load(p)
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

// TestQwen3Golden compares the ids of 320 varied strings (code, CJK,
// emoji, repeated characters, NFD input, whitespace runs, special tokens)
// with those of the reference JS tokenizer (scripts/qwen3_tokenizer_golden.mjs).
func TestQwen3Golden(t *testing.T) {
	tok := qwen3(t)
	var strs []string
	var golden struct {
		IDs [][]int `json:"ids"`
	}
	for name, v := range map[string]any{"strings.json": &strs, "golden.json": &golden} {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, v); err != nil {
			t.Fatal(err)
		}
	}
	if len(strs) != len(golden.IDs) || len(strs) < 300 {
		t.Fatalf("%d strings, %d id lists", len(strs), len(golden.IDs))
	}
	bad := 0
	for i, s := range strs {
		got, err := tok.Encode(s)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, golden.IDs[i]) && (len(got) > 0 || len(golden.IDs[i]) > 0) {
			bad++
			if bad <= 5 {
				t.Errorf("%q:\n got %v\nwant %v", s, got, golden.IDs[i])
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d strings differ", bad, len(strs))
	}
}

func TestQwen3RoundTrip(t *testing.T) {
	tok := qwen3(t)
	for _, s := range []string{"Hello, world", "<|im_start|>user\n日本語 😀<|im_end|>", "  x\n\ty  "} {
		ids, _ := tok.Encode(s)
		if d := tok.Decode(ids); d != s {
			t.Errorf("Decode(Encode(%q)) = %q", s, d)
		}
	}
	if id, ok := tok.ID("<|im_start|>"); !ok || id != 151644 {
		t.Errorf("<|im_start|> = %d", id)
	}
}
