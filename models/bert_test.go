package models

import (
	"encoding/json"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/strata-retrieval/strata/checkpoints"
)

// loadTinyBert opens testdata/bert-tiny, a randomly initialised BERT of the
// real architecture that scripts/bert_reference.py wrote with PyTorch,
// with the hidden states PyTorch computed for four id sequences.
func loadTinyBert(t *testing.T) (*Bert, []struct {
	IDs    []int     `json:"ids"`
	Types  []int     `json:"types"`
	Hidden []float32 `json:"hidden"`
	Mean   []float32 `json:"mean"`
	CLS    []float32 `json:"cls"`
}) {
	t.Helper()
	var cfg BertConfig
	b, err := os.ReadFile("testdata/bert-tiny/config.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &cfg); err != nil {
		t.Fatal(err)
	}
	f, err := checkpoints.ReadFile("testdata/bert-tiny/model.safetensors")
	if err != nil {
		t.Fatal(err)
	}
	get := func(name string) ([]int, []float32, bool) {
		if x, ok := f.Tensors[name]; ok {
			return x.Shape, x.Data, true
		}
		return nil, nil, false
	}
	m, err := NewBert(cfg, get)
	if err != nil {
		t.Fatal(err)
	}
	var ref struct {
		Cases []struct {
			IDs    []int     `json:"ids"`
			Types  []int     `json:"types"`
			Hidden []float32 `json:"hidden"`
			Mean   []float32 `json:"mean"`
			CLS    []float32 `json:"cls"`
		} `json:"cases"`
	}
	if b, err = os.ReadFile("testdata/bert-tiny/reference.json"); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &ref); err != nil {
		t.Fatal(err)
	}
	return m, ref.Cases
}

// TestBertMatchesPyTorch: the native forward pass gives PyTorch's last
// hidden states, mean-pooled and [CLS] vectors on a random BERT (two
// layers, four heads, token types, 16 positions) within 2e-5.
func TestBertMatchesPyTorch(t *testing.T) {
	m, cases := loadTinyBert(t)
	H := m.Cfg.HiddenSize
	near := func(what string, got, want []float32) {
		t.Helper()
		if len(got) != len(want) {
			t.Fatalf("%s: %d values, want %d", what, len(got), len(want))
		}
		worst := 0.0
		for i := range got {
			worst = max(worst, math.Abs(float64(got[i]-want[i])))
		}
		if worst > 2e-5 {
			t.Errorf("%s: largest difference from PyTorch %.3g", what, worst)
		}
	}
	for i, c := range cases {
		h, err := m.Hidden(c.IDs, c.Types)
		if err != nil {
			t.Fatal(err)
		}
		near("hidden", h, c.Hidden)
		near("mean", Pool(h, H, PoolMean), c.Mean)
		near("cls", Pool(h, H, PoolCLS), c.CLS)
		if i == 0 {
			// Token types default to 0.
			h0, _ := m.Hidden(c.IDs, nil)
			near("types nil", h0, c.Hidden)
		}
	}
}

func TestBertRejectsBadInput(t *testing.T) {
	m, _ := loadTinyBert(t)
	for _, c := range []struct {
		ids, types []int
		want       string
	}{
		{nil, nil, "0 tokens"},
		{make([]int, 17), nil, "17 tokens"},
		{[]int{2, 40}, nil, "token id 40"},
		{[]int{2, -1}, nil, "token id -1"},
		{[]int{2, 3}, []int{0}, "1 token types for 2 tokens"},
		{[]int{2, 3}, []int{0, 2}, "token type 2"},
	} {
		if _, err := m.Hidden(c.ids, c.types); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Hidden(%v, %v) = %v, want an error with %q", c.ids, c.types, err, c.want)
		}
	}
	cfg := m.Cfg
	for _, c := range []struct {
		edit func(*BertConfig)
		want string
	}{
		{func(c *BertConfig) { c.HiddenAct = "relu" }, "hidden_act"},
		{func(c *BertConfig) { c.ModelType = "roberta" }, "model_type"},
		{func(c *BertConfig) { c.NumHeads = 5 }, "not a multiple"},
		{func(c *BertConfig) { c.NumLayers = 3 }, "encoder.layer.2"},
		{func(c *BertConfig) { c.NumLayers = 1 }, "checkpoint more"},
		{func(c *BertConfig) { c.Intermediate = 65 }, "intermediate.dense.weight"},
		{func(c *BertConfig) { c.HiddenSize = 1 << 20 }, "sizes past"},
	} {
		bad := cfg
		c.edit(&bad)
		get := func(name string) ([]int, []float32, bool) {
			w, ok := m.w[name]
			if !ok {
				return nil, nil, false
			}
			for _, ns := range BertShapes(cfg) {
				if ns.Name == name {
					return ns.Shape, w, true
				}
			}
			return nil, nil, false
		}
		if _, err := NewBert(bad, get); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("NewBert with %+v: %v, want an error with %q", bad, err, c.want)
		}
	}
}
