// Package cache finds files that `make` fetches into the git-ignored
// .cache directory at the repository root (ONNX Runtime's library, Qwen3's
// tokenizer.json).
package cache

import (
	"os"
	"path/filepath"
)

// Find returns the file named by the environment variable env, or else
// .cache/rel in the working directory or the nearest parent that has it.
// ok is false when neither exists.
func Find(env, rel string) (string, bool) {
	if p := os.Getenv(env); p != "" {
		_, err := os.Stat(p)
		return p, err == nil
	}
	dir, _ := os.Getwd()
	for dir != "" {
		p := filepath.Join(dir, ".cache", rel)
		if _, err := os.Stat(p); err == nil {
			return p, true
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	return "", false
}
