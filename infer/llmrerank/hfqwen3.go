package llmrerank

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/strata-retrieval/strata/checkpoints"
	"github.com/strata-retrieval/strata/models"
)

// LoadQwen3Dir loads a Hugging Face Qwen3 checkpoint directory: every
// architecture number from config.json, the weights from model.safetensors
// or from the shards named by model.safetensors.index.json (BF16, F16 or
// F32, converted to float32). A missing or misshapen tensor is an error
// naming it.
func LoadQwen3Dir(dir string) (*models.Qwen3, error) {
	b, err := os.ReadFile(filepath.Join(dir, "config.json"))
	if err != nil {
		return nil, fmt.Errorf("Qwen3 checkpoint: %w", err)
	}
	var cfg models.Qwen3Config
	var meta struct {
		ModelType string `json:"model_type"`
	}
	if err := json.Unmarshal(b, &cfg); err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, "config.json"), err)
	}
	json.Unmarshal(b, &meta)
	if meta.ModelType != "" && meta.ModelType != "qwen3" {
		return nil, fmt.Errorf("%s: model_type %q, want qwen3", filepath.Join(dir, "config.json"), meta.ModelType)
	}
	tensors := map[string]*checkpoints.Tensor{}
	idx := filepath.Join(dir, "model.safetensors.index.json")
	var files []string
	if ib, err := os.ReadFile(idx); err == nil {
		var index struct {
			WeightMap map[string]string `json:"weight_map"`
		}
		if err := json.Unmarshal(ib, &index); err != nil {
			return nil, fmt.Errorf("%s: %w", idx, err)
		}
		seen := map[string]bool{}
		for _, f := range index.WeightMap {
			if !seen[f] {
				seen[f] = true
				files = append(files, f)
			}
		}
		sort.Strings(files)
	} else if errors.Is(err, os.ErrNotExist) {
		files = []string{"model.safetensors"}
	} else {
		return nil, err
	}
	for _, f := range files {
		sf, err := checkpoints.ReadFile(filepath.Join(dir, f))
		if err != nil {
			return nil, err
		}
		for name, t := range sf.Tensors {
			if _, dup := tensors[name]; dup {
				return nil, fmt.Errorf("%s: tensor %s appears in two shards", dir, name)
			}
			tensors[name] = t
		}
	}
	m, err := models.NewQwen3(cfg, func(name string) ([]int, []float32, bool) {
		t, ok := tensors[name]
		if !ok {
			return nil, nil, false
		}
		return t.Shape, t.Data, true
	})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", dir, err)
	}
	return m, nil
}
