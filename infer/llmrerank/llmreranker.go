package llmrerank

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/strata-retrieval/strata/checkpoints"
	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/data/index"
	"github.com/strata-retrieval/strata/graphops/workspace"
	"github.com/strata-retrieval/strata/infer"
	"github.com/strata-retrieval/strata/infer/onnx"
	"github.com/strata-retrieval/strata/infer/registry"
	"github.com/strata-retrieval/strata/internal/atomicfile"
	"github.com/strata-retrieval/strata/models"
	"github.com/strata-retrieval/strata/reranker"
	"github.com/strata-retrieval/strata/reranker/bpe"
)

// SaveQwen3Dir writes m as a Hugging Face checkpoint directory
// (config.json, model.safetensors in F32) with the tokenizer.json at
// tokenizer copied beside it, atomically: the directory appears whole or
// not at all, and replaces an existing one only with overwrite and when
// strata made it (atomicfile.WriteDir).
func SaveQwen3Dir(dir string, m *models.Qwen3, tokenizer string, overwrite bool) error {
	return atomicfile.WriteDir(dir, overwrite, func(dir string) error { return writeQwen3Files(dir, m, tokenizer) })
}

// writeQwen3Files writes the files of a Qwen3 directory into dir.
func writeQwen3Files(dir string, m *models.Qwen3, tokenizer string) error {
	cfg, err := json.MarshalIndent(struct {
		models.Qwen3Config
		ModelType     string   `json:"model_type"`
		Architectures []string `json:"architectures"`
		TorchDtype    string   `json:"torch_dtype"`
	}{m.Cfg, "qwen3", []string{"Qwen3ForCausalLM"}, "float32"}, "", "  ")
	if err != nil {
		return err
	}
	if err := atomicfile.WriteFile(filepath.Join(dir, "config.json"), func(w io.Writer) error { _, err := w.Write(cfg); return err }); err != nil {
		return err
	}
	var ts []checkpoints.Tensor
	add := func(name string, shape []int, d []float32) {
		ts = append(ts, checkpoints.Tensor{Name: name, Shape: shape, Data: d})
	}
	shapes := models.Qwen3Shapes(m.Cfg)
	vals := map[string][]float32{"model.embed_tokens.weight": m.Embed, "model.norm.weight": m.Norm, "lm_head.weight": m.LMHead}
	for l, L := range m.Layers {
		p := fmt.Sprintf("model.layers.%d.", l)
		for k, v := range map[string][]float32{"input_layernorm.weight": L.InputNorm, "post_attention_layernorm.weight": L.PostNorm,
			"self_attn.q_proj.weight": L.Q, "self_attn.k_proj.weight": L.K, "self_attn.v_proj.weight": L.V, "self_attn.o_proj.weight": L.O,
			"self_attn.q_norm.weight": L.QNorm, "self_attn.k_norm.weight": L.KNorm,
			"mlp.gate_proj.weight": L.Gate, "mlp.up_proj.weight": L.Up, "mlp.down_proj.weight": L.Down} {
			vals[p+k] = v
		}
	}
	for _, ns := range shapes {
		add(ns.Name, ns.Shape, vals[ns.Name])
	}
	if err := checkpoints.WriteFile(filepath.Join(dir, "model.safetensors"), ts, map[string]string{"format": "pt"}); err != nil {
		return err
	}
	if tokenizer != "" {
		b, err := os.ReadFile(tokenizer)
		if err != nil {
			return err
		}
		if err := atomicfile.WriteFile(filepath.Join(dir, "tokenizer.json"), func(w io.Writer) error { _, err := w.Write(b); return err }); err != nil {
			return err
		}
	}
	return nil
}

// BaseHash identifies a Qwen3 base directory's weights: the SHA-256 of its
// model.safetensors. Adapters record it, so they are never merged into or
// trained on as another base (a base they were already merged into).
func BaseHash(dir string) (string, error) {
	return infer.FileSHA256(filepath.Join(dir, "model.safetensors"))
}

// ErrOtherBase reports adapters given a base other than theirs.
var ErrOtherBase = errors.New("the adapters were trained on another base")

// CheckBase refuses a base directory whose weights are not those the
// adapters (an llm-reranker checkpoint or run) recorded; adapters that
// recorded none are not checked.
func CheckBase(adapters, baseDir string) error {
	dir, m, err := checkpoints.ReadRunManifest(adapters)
	if err != nil {
		return err
	}
	var mc struct {
		Model struct {
			BaseHash string `json:"base_sha256"`
		} `json:"model"`
	}
	if err := json.Unmarshal(m.Config, &mc); err != nil {
		return fmt.Errorf("%s: %w", dir, err)
	}
	if mc.Model.BaseHash == "" {
		return nil
	}
	h, err := BaseHash(baseDir)
	if err != nil {
		return err
	}
	if h != mc.Model.BaseHash {
		return fmt.Errorf("%s: %w: they recorded %s, %s holds %s (the adapters merged into it already?)", dir, ErrOtherBase, mc.Model.BaseHash, baseDir, h)
	}
	return nil
}

// LoadLoRA attaches the adapters of an llm-reranker checkpoint (or run
// directory) to base.
func LoadLoRA(base *models.Qwen3, dir string) (*models.LoRA, json.RawMessage, error) {
	dir, _, err := checkpoints.ReadRunManifest(dir)
	if err != nil {
		return nil, nil, err
	}
	ck, err := checkpoints.Load(dir)
	if err != nil {
		return nil, nil, err
	}
	if ck.Manifest.Kind != infer.KindLLMReranker {
		return nil, nil, fmt.Errorf("%s is a %s checkpoint, not llm-reranker adapters", dir, ck.Manifest.Kind)
	}
	var mc struct {
		Model struct {
			LoRA models.LoRAConfig  `json:"lora"`
			Base models.Qwen3Config `json:"base"`
		} `json:"model"`
	}
	if err := json.Unmarshal(ck.Manifest.Config, &mc); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", dir, err)
	}
	if mc.Model.Base != base.Cfg {
		return nil, nil, fmt.Errorf("%s: adapters trained on a base with config %+v, this base is %+v", dir, mc.Model.Base, base.Cfg)
	}
	get := func(name string) ([]int, []float32, bool) {
		for _, t := range ck.Model {
			if t.Name == name {
				return t.Shape, t.Data, true
			}
		}
		return nil, nil, false
	}
	// The rank is compared with the adapters before they are allocated.
	if err := models.CheckShapes(models.LoRAShapes(base, mc.Model.LoRA), get); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", dir, err)
	}
	l, err := models.NewLoRA(base, mc.Model.LoRA, nil)
	if err != nil {
		return nil, nil, err
	}
	if err := models.LoadParams(l.Params(), get); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", dir, err)
	}
	return l, ck.Manifest.Config, nil
}

// RerankerSpec is an exported reranker directory's reranker.json.
type RerankerSpec struct {
	// Instruction is the --instruction value: "" (or auto) for the
	// schema's B.5 instruction, amazon, mag or prime for GRASP's, or the
	// text itself (reranker.ResolveInstruction, applied at load).
	Instruction string `json:"instruction"`
	MaxLen      int    `json:"max_len"`
	FirstStage  string `json:"first_stage"` // method name, or model or run whose ranking is reranked (relative to the directory, or absolute)
	TopN        int    `json:"top_n"`       // candidates reranked per query (default 100, GRASP's)
	// FieldTokens truncates each text field of a candidate to that many
	// model tokens (default 300, GRASP's max_text_field_tokens).
	FieldTokens int  `json:"field_tokens,omitempty"`
	Batch       int  `json:"batch"`
	Threads     int  `json:"threads,omitempty"`
	CUDA        bool `json:"cuda,omitempty"`
}

// RerankerSpecFile names the spec in an exported reranker directory.
const RerankerSpecFile = "reranker.json"

// LLMReranker scores the top candidates of a first stage with an exported
// Qwen3 reranker (model.onnx run by ONNX Runtime, tokenizer.json with the
// native BPE), in right-padded batches; the rest of the first stage's
// ranking follows.
type LLMReranker struct {
	Spec  RerankerSpec
	ws    *workspace.Workspace
	first infer.Method
	sess  *onnx.Session
	P     *reranker.PromptTokenizer
	label string
	ser   reranker.SerializeConfig
}

// DefaultTopN is how many first-stage candidates the reranker scores
// (GRASP's stage 3 scores stage 2's top 100).
const DefaultTopN = 100

func init() {
	registry.RegisterDir(RerankerSpecFile, func(env *infer.Env, dir string) (infer.Method, error) { return Load(env, dir) })
}

// Load opens an exported reranker directory; its first stage loads
// through the registry.
func Load(env *infer.Env, dir string) (*LLMReranker, error) {
	b, err := os.ReadFile(filepath.Join(dir, RerankerSpecFile))
	if err != nil {
		return nil, err
	}
	var spec RerankerSpec
	if err := json.Unmarshal(b, &spec); err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, RerankerSpecFile), err)
	}
	if spec.TopN <= 0 {
		spec.TopN = DefaultTopN
	}
	if spec.Batch <= 0 {
		spec.Batch = 8
	}
	fs := spec.FirstStage
	if !registry.IsMethod(fs) && !filepath.IsAbs(fs) {
		fs = filepath.Join(dir, fs)
	}
	first, err := registry.Ranker(env, fs)
	if err != nil {
		return nil, fmt.Errorf("%s: first stage %s: %w", dir, fs, err)
	}
	tok, err := bpe.Load(filepath.Join(dir, "tokenizer.json"))
	if err != nil {
		return nil, err
	}
	p, err := reranker.NewPromptTokenizer(tok, reranker.ResolveInstruction(spec.Instruction, &env.WS.SKB.Schema), spec.MaxLen)
	if err != nil {
		return nil, err
	}
	s, err := onnx.NewSession(filepath.Join(dir, "model.onnx"), []string{"input_ids", "position_ids", "last_index"}, []string{"score"},
		onnx.Options{Threads: spec.Threads, CUDA: spec.CUDA})
	if err != nil {
		return nil, err
	}
	return &LLMReranker{Spec: spec, ws: env.WS, first: first, sess: s, P: p, label: "llm-reranker",
		ser: reranker.SerializeConfig{MaxFieldTokens: spec.FieldTokens, Tokenizer: tok}}, nil
}

// GRASP's stage 3 and a pipeline's scorer stage rerank a pool through it.
var _ infer.Reranker = (*LLMReranker)(nil)

func (m *LLMReranker) Name() string { return m.label }

// Score runs the ONNX model on prompts in batches; a cancelled ctx stops
// it between batches.
func (m *LLMReranker) Score(ctx context.Context, seqs [][]int) ([]float32, error) {
	out := make([]float32, 0, len(seqs))
	for lo := 0; lo < len(seqs); lo += m.Spec.Batch {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		hi := min(lo+m.Spec.Batch, len(seqs))
		s, err := onnx.RunQwen3Session(m.sess, seqs[lo:hi])
		if err != nil {
			return nil, err
		}
		out = append(out, s[0]...)
	}
	return out, nil
}

// Rank reranks the first stage's top TopN; the rest of its ranking
// follows.
func (m *LLMReranker) Rank(ctx context.Context, q data.Query) ([]index.Hit, error) {
	hits, err := m.first.Rank(ctx, q)
	if err != nil {
		return nil, err
	}
	infer.SortHits(hits)
	n := min(m.Spec.TopN, len(hits))
	top, err := m.Rerank(ctx, q, hits[:n])
	if err != nil {
		return nil, err
	}
	out := make([]index.Hit, 0, len(hits))
	for _, h := range top {
		out = append(out, index.Hit{ID: h.ID, Score: 2 + h.Score}) // above every later candidate
	}
	for i, h := range hits[n:] {
		out = append(out, index.Hit{ID: h.ID, Score: 1 - float32(i+1)/float32(len(hits)+1)})
	}
	return out, nil
}

// Rerank scores a pool with the reranker: the probability of "yes" for
// each candidate serialized as appendix B.6 (fields cut in model tokens),
// best first (ties by id, as every ranking: index.Compare).
func (m *LLMReranker) Rerank(ctx context.Context, q data.Query, pool []index.Hit) ([]index.Hit, error) {
	seqs := make([][]int, len(pool))
	for i, h := range pool {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		var err error
		if seqs[i], err = m.P.IDs(q.Text, reranker.Serialize(m.ws.SKB, m.ws.Graph, h.ID, m.ser)); err != nil {
			return nil, err
		}
	}
	scores, err := m.Score(ctx, seqs)
	if err != nil {
		return nil, err
	}
	out := make([]index.Hit, len(pool))
	for i, h := range pool {
		out[i] = index.Hit{ID: h.ID, Score: scores[i]}
	}
	index.Sort(out)
	return out, nil
}

// RecordOptions shapes the training records of a stage-3 reranker.
type RecordOptions struct {
	PoolK, Hard int // stage-2 candidates kept, hard negatives per query
	Serialize   reranker.SerializeConfig
}

// Records ranks every query with the stage-2 model m and turns the
// rankings into listwise training records (reranker.NewRecord).
func Records(ctx context.Context, ws *workspace.Workspace, m infer.Method, qs []data.Query, o RecordOptions) ([]reranker.Record, error) {
	recs := make([]reranker.Record, 0, len(qs))
	for _, q := range qs {
		hits, err := m.Rank(ctx, q)
		if err != nil {
			return nil, err
		}
		index.Sort(hits)
		ids := make([]uint32, len(hits))
		for i, h := range hits {
			ids[i] = h.ID
		}
		recs = append(recs, reranker.NewRecord(ws.SKB, ws.Graph, q, ids, o.PoolK, o.Hard, o.Serialize))
	}
	return recs, nil
}

// Export writes a Qwen3 checkpoint directory's reranker as OUT/model.onnx
// (onnx.Qwen3Graph: the yes score at last_index), OUT/tokenizer.json and,
// when spec names a first stage (a method, or a model path made absolute),
// OUT/reranker.json, which makes OUT a model the registry loads. OUT
// appears whole or not at all, and replaces an existing directory only
// with overwrite and when strata made it (atomicfile.WriteDir).
func Export(modelDir, out string, spec RerankerSpec, overwrite bool) error {
	m, err := LoadQwen3Dir(modelDir)
	if err != nil {
		return err
	}
	tok, err := bpe.Load(filepath.Join(modelDir, "tokenizer.json"))
	if err != nil {
		return err
	}
	yes, ok1 := tok.ID("yes")
	no, ok2 := tok.ID("no")
	if !ok1 || !ok2 {
		return fmt.Errorf("%s: the tokenizer has no yes/no tokens", modelDir)
	}
	g, err := onnx.Qwen3Graph(m, yes, no, m.Cfg.MaxPositions)
	if err != nil {
		return err
	}
	b, err := os.ReadFile(filepath.Join(modelDir, "tokenizer.json"))
	if err != nil {
		return err
	}
	if _, err := os.Stat(spec.FirstStage); spec.FirstStage != "" && err == nil {
		if spec.FirstStage, err = filepath.Abs(spec.FirstStage); err != nil {
			return err
		}
	}
	return atomicfile.WriteDir(out, overwrite, func(dir string) error {
		if err := g.Save(filepath.Join(dir, "model.onnx")); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, "tokenizer.json"), b, 0o644); err != nil {
			return err
		}
		if spec.FirstStage == "" {
			return nil
		}
		js, _ := json.MarshalIndent(spec, "", "  ")
		return os.WriteFile(filepath.Join(dir, RerankerSpecFile), js, 0o644)
	})
}
