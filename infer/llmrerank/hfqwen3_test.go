package llmrerank

import (
	"encoding/binary"
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strata-retrieval/strata/models"
)

// writeBF16 writes tensors as a safetensors file in BF16 (the dtype of
// released Qwen3 checkpoints), rounding to nearest even.
func writeBF16(t *testing.T, path string, names []string, shapes map[string][]int, data map[string][]float32) {
	t.Helper()
	header := map[string]any{}
	var body []byte
	for _, n := range names {
		start := len(body)
		for _, v := range data[n] {
			b := math.Float32bits(v)
			b += 0x7FFF + (b>>16)&1
			body = binary.LittleEndian.AppendUint16(body, uint16(b>>16))
		}
		header[n] = map[string]any{"dtype": "BF16", "shape": shapes[n], "data_offsets": []int{start, len(body)}}
	}
	h, _ := json.Marshal(header)
	for len(h)%8 != 0 {
		h = append(h, ' ')
	}
	out := binary.LittleEndian.AppendUint64(nil, uint64(len(h)))
	out = append(append(out, h...), body...)
	if err := os.WriteFile(path, out, 0o644); err != nil {
		t.Fatal(err)
	}
}

func bf16(v float32) float32 {
	b := math.Float32bits(v)
	b += 0x7FFF + (b>>16)&1
	return math.Float32frombits(b &^ 0xFFFF)
}

// TestLoadQwen3Dir writes a tiny Qwen3 checkpoint as two BF16 shards with
// an index and config.json, loads it and checks the weights and errors.
func TestLoadQwen3Dir(t *testing.T) {
	dir := t.TempDir()
	cfg := models.Qwen3Config{VocabSize: 40, HiddenSize: 16, IntermediateSize: 24, NumLayers: 2, NumHeads: 4, NumKVHeads: 2,
		HeadDim: 4, RMSNormEps: 1e-6, RopeTheta: 1e6, TieEmbeddings: true, MaxPositions: 32}
	cj, _ := json.Marshal(struct {
		models.Qwen3Config
		ModelType string `json:"model_type"`
	}{cfg, "qwen3"})
	os.WriteFile(filepath.Join(dir, "config.json"), cj, 0o644)
	r := rand.New(rand.NewPCG(2, 2))
	shapes, data := map[string][]int{}, map[string][]float32{}
	var shard1, shard2 []string
	weightMap := map[string]string{}
	for i, ns := range models.Qwen3Shapes(cfg) {
		n := 1
		for _, d := range ns.Shape {
			n *= d
		}
		d := make([]float32, n)
		for j := range d {
			d[j] = float32(r.NormFloat64())
		}
		shapes[ns.Name], data[ns.Name] = ns.Shape, d
		if i%2 == 0 {
			shard1 = append(shard1, ns.Name)
			weightMap[ns.Name] = "model-00001-of-00002.safetensors"
		} else {
			shard2 = append(shard2, ns.Name)
			weightMap[ns.Name] = "model-00002-of-00002.safetensors"
		}
	}
	writeBF16(t, filepath.Join(dir, "model-00001-of-00002.safetensors"), shard1, shapes, data)
	writeBF16(t, filepath.Join(dir, "model-00002-of-00002.safetensors"), shard2, shapes, data)
	ij, _ := json.Marshal(map[string]any{"weight_map": weightMap})
	os.WriteFile(filepath.Join(dir, "model.safetensors.index.json"), ij, 0o644)
	m, err := LoadQwen3Dir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if m.Cfg != cfg || len(m.Layers) != 2 || m.LMHead != nil {
		t.Fatalf("config %+v, %d layers", m.Cfg, len(m.Layers))
	}
	for i, v := range data["model.layers.1.mlp.down_proj.weight"] {
		if m.Layers[1].Down[i] != bf16(v) {
			t.Fatalf("down_proj[%d] = %v, want bf16(%v) = %v", i, m.Layers[1].Down[i], v, bf16(v))
		}
	}
	if _, err := m.RerankScore([]int{1, 2, 3}, 4, 5); err != nil {
		t.Fatal(err)
	}
	// A shard without one of its tensors: the error names the tensor.
	writeBF16(t, filepath.Join(dir, "model-00002-of-00002.safetensors"), shard2[1:], shapes, data)
	if _, err := LoadQwen3Dir(dir); err == nil || !strings.Contains(err.Error(), shard2[0]+" is missing") {
		t.Errorf("missing tensor: %v", err)
	}
}
