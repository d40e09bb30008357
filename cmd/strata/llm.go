package main

import (
	"cmp"
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/strata-retrieval/strata/graphops/workspace"
	"github.com/strata-retrieval/strata/infer/bertenc"
	"github.com/strata-retrieval/strata/infer/llmrerank"
	"github.com/strata-retrieval/strata/infer/onnx"
	"github.com/strata-retrieval/strata/models"
	"github.com/strata-retrieval/strata/reranker"
	"github.com/strata-retrieval/strata/reranker/bpe"
	"github.com/strata-retrieval/strata/train"
)

func newInitQwen3Cmd(u *ui) *cobra.Command {
	var out, tokPath string
	var force bool
	var cfg models.Qwen3Config
	var seed uint64
	cmd := &cobra.Command{
		Use:   "init-qwen3 --tokenizer tokenizer.json --out DIR",
		Short: "Write a randomly initialised Qwen3-architecture checkpoint (a base to train a small reranker from scratch)",
		Long: `Write a Hugging Face style directory (config.json, model.safetensors,
tokenizer.json) holding a Qwen3 decoder with random weights, sized by the
flags, whose vocabulary is the tokenizer's. It is the base that strata train
llm-reranker fine-tunes when no pretrained Qwen3 checkpoint is at hand.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if out == "" || tokPath == "" {
				return fmt.Errorf("--out and --tokenizer are required")
			}
			g := inputs("")
			g.Input("--tokenizer", tokPath)
			if err := g.Check("--out", out); err != nil {
				return err
			}
			tok, err := bpe.Load(tokPath)
			if err != nil {
				return err
			}
			cfg.VocabSize = tok.VocabSize()
			cfg.TieEmbeddings = true
			if err := cfg.Validate(); err != nil {
				return err
			}
			r := rand.New(rand.NewPCG(seed, 0x9e3))
			m, err := models.RandomQwen3(cfg, r, 0.02, 0)
			if err != nil {
				return err
			}
			if err := llmrerank.SaveQwen3Dir(out, m, tokPath, force); err != nil {
				return err
			}
			fmt.Fprintf(u.out, "wrote a random Qwen3 (%d layers, hidden %d, %d/%d heads, vocabulary %d) to %s\n", cfg.NumLayers, cfg.HiddenSize, cfg.NumHeads, cfg.NumKVHeads, cfg.VocabSize, out)
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&out, "out", "", "output directory")
	f.StringVar(&tokPath, "tokenizer", "", "a Qwen3 tokenizer.json")
	f.BoolVar(&force, "force", false, "replace --out if strata made it")
	f.IntVar(&cfg.NumLayers, "layers", 2, "decoder layers")
	f.IntVar(&cfg.HiddenSize, "hidden", 64, "hidden size")
	f.IntVar(&cfg.IntermediateSize, "intermediate", 128, "MLP size")
	f.IntVar(&cfg.NumHeads, "heads", 4, "attention heads")
	f.IntVar(&cfg.NumKVHeads, "kv-heads", 2, "key/value heads")
	f.IntVar(&cfg.HeadDim, "head-dim", 16, "head dimension")
	f.IntVar(&cfg.MaxPositions, "max-positions", 1024, "longest sequence")
	f.Float64Var(&cfg.RMSNormEps, "rms-eps", 1e-6, "RMSNorm epsilon")
	f.Float64Var(&cfg.RopeTheta, "rope-theta", 1e6, "rotary base")
	f.Uint64Var(&seed, "seed", 1, "random seed")
	return cmd
}

type trainLLMRerankerOptions struct {
	WS, Base, Records, ValRecords, Instruction string
	Flags                                      trainFlags
	Train                                      train.LLMRerankerOptions
}

const trainLLMRerankerLong = `Fine-tune LoRA adapters (rank 32, alpha 64 by default, on every linear
layer; the base frozen) of a Qwen3 checkpoint directory (--base: config.json,
safetensors, tokenizer.json) as Qwen3-Reranker: the score of a (query,
document) prompt is softmax([logit_no, logit_yes])[yes] at the last position.
Training draws for every record a group of --group prompts afresh each step
(one positive, the rest from its hard negatives) and minimises the listwise
softmax of the log-odds, with AdamW and cosine decay from --lr after a 5%
warmup. Records come from strata export reranker-data. Checkpoints hold only
the adapters; RUNDIR/best is the best val group accuracy. Fold them into the
base with strata merge-lora, then strata export onnx.`

func newTrainLLMRerankerCmd(u *ui) *cobra.Command {
	var o trainLLMRerankerOptions
	cmd := &cobra.Command{
		Use:   "llm-reranker WORKSPACE --base DIR --records FILE [--val-records FILE]",
		Short: "LoRA listwise fine-tuning of a Qwen3 reranker on GRASP stage-3 records",
		Long:  trainLLMRerankerLong,
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.WS = args[0]
			return runTrainLLMReranker(cmd.Context(), u, o)
		},
	}
	o.Flags.bind(cmd, 1, 4, 3e-5, defaultPatience)
	fl := cmd.Flags()
	fl.StringVar(&o.Base, "base", "", "Qwen3 checkpoint directory")
	fl.StringVar(&o.Records, "records", "", "training records (strata export reranker-data)")
	fl.StringVar(&o.ValRecords, "val-records", "", "validation records")
	fl.StringVar(&o.Instruction, "instruction", "", instructionUsage)
	fl.IntVar(&o.Train.LoRA.Rank, "rank", 32, "LoRA rank")
	fl.Float64Var(&o.Train.LoRA.Alpha, "alpha", 64, "LoRA alpha")
	fl.IntVar(&o.Train.Group, "group", 24, "prompts per listwise group (one positive)")
	fl.IntVar(&o.Train.MaxLen, "max-len", 512, "prompt tokens; the document is truncated to fit")
	return cmd
}

func runTrainLLMReranker(ctx context.Context, u *ui, o trainLLMRerankerOptions) error {
	if o.Base == "" || o.Records == "" {
		return fmt.Errorf("--base and --records are required")
	}
	m, err := llmrerank.LoadQwen3Dir(o.Base)
	if err != nil {
		return err
	}
	tok, err := bpe.Load(filepath.Join(o.Base, "tokenizer.json"))
	if err != nil {
		return err
	}
	tr, err := reranker.ReadRecords(o.Records)
	if err != nil {
		return err
	}
	var va []reranker.Record
	if o.ValRecords != "" {
		if va, err = reranker.ReadRecords(o.ValRecords); err != nil {
			return err
		}
	}
	if o.Train.Instruction, err = instructionFor(o.Instruction, o.WS); err != nil {
		return err
	}
	if o.Train.BaseDir, err = filepath.Abs(o.Base); err != nil {
		return err
	}
	if o.Train.BaseHash, err = llmrerank.BaseHash(o.Base); err != nil {
		return err
	}
	dir := cmp.Or(o.Flags.out, filepath.Join(o.WS, "runs", "llm-reranker"))
	g := inputs(o.WS)
	for _, in := range []string{o.Base, o.Records, o.ValRecords} {
		g.Input("input", in)
	}
	if err := g.Check("run directory", dir); err != nil {
		return err
	}
	o.Train.Train = o.Flags.cfg
	o.Train.Run = train.Options{RunDir: dir, Fingerprint: "records:" + filepath.Base(o.Records), Resume: o.Flags.resume, Log: u.log()}
	u.stage("fine-tuning on %d records into %s", len(tr), dir)
	_, res, err := train.LLMReranker(ctx, m, tok, tr, va, o.Train)
	if err != nil {
		return err
	}
	if len(va) == 0 {
		fmt.Fprintf(u.out, "trained the LLM reranker's adapters: %d steps (%s); no validation records, so %s is the last checkpoint\n", res.Steps, res.Stopped, res.Best)
	} else {
		fmt.Fprintf(u.out, "trained the LLM reranker's adapters: %d steps (%s), best %s (val group accuracy %.4f)\n", res.Steps, res.Stopped, res.Best, res.BestValue)
	}
	return nil
}

func newMergeLoRACmd(u *ui) *cobra.Command {
	var base, adapters, out string
	var force bool
	cmd := &cobra.Command{
		Use:   "merge-lora --base DIR --adapters RUNDIR --out DIR",
		Short: "Fold LoRA adapters into their base: W + (alpha/r)·B·A",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if base == "" || adapters == "" || out == "" {
				return fmt.Errorf("--base, --adapters and --out are required")
			}
			g := inputs("")
			g.Input("--base", base)
			g.Input("--adapters", adapters)
			if err := g.Check("--out", out); err != nil {
				return err
			}
			if err := llmrerank.CheckBase(adapters, base); err != nil {
				return err
			}
			m, err := llmrerank.LoadQwen3Dir(base)
			if err != nil {
				return err
			}
			l, _, err := llmrerank.LoadLoRA(m, adapters)
			if err != nil {
				return err
			}
			if err := llmrerank.SaveQwen3Dir(out, l.Merge(), filepath.Join(base, "tokenizer.json"), force); err != nil {
				return err
			}
			fmt.Fprintf(u.out, "merged %s into %s\n", adapters, out)
			return nil
		},
	}
	cmd.Flags().StringVar(&base, "base", "", "Qwen3 checkpoint directory")
	cmd.Flags().StringVar(&adapters, "adapters", "", "llm-reranker run or checkpoint")
	cmd.Flags().StringVar(&out, "out", "", "merged checkpoint directory")
	cmd.Flags().BoolVar(&force, "force", false, "replace --out if strata made it")
	return cmd
}

type exportONNXOptions struct {
	Model, Out, Instruction string
	Spec                    llmrerank.RerankerSpec
	Force                   bool
}

const exportONNXLong = `Write OUT/model.onnx (IR 11, opset 23: RMSNormalization, RotaryEmbedding,
Attention; inputs input_ids, position_ids and last_index, output the yes
score), OUT/tokenizer.json and OUT/reranker.json. With --first-stage, OUT is
a model that strata eval --model, pipelines and strata train grasp --stage3
load: it reranks the top --top-n candidates of the first stage's ranking
with ONNX Runtime (--threads; --cuda uses the CUDA execution provider, which
needs ONNX Runtime's GPU library in STRATA_ORT_LIB).

With a Hugging Face BERT-family directory as --model (config.json,
model.safetensors, tokenizer.json; mean pooling), write OUT/model.onnx
(LayerNormalization, Gelu, Attention with the padding mask; inputs
input_ids, attention_mask and token_type_ids, output last_hidden_state) and
OUT/tokenizer.json: an ONNX encoder directory for --onnx-encoder, whose
vectors equal the native encoder's within 1e-5.`

func newExportONNXCmd(u *ui) *cobra.Command {
	var o exportONNXOptions
	cmd := &cobra.Command{
		Use:   "onnx --model DIR --out DIR [--first-stage RUNDIR]",
		Short: "Export a Qwen3 reranker, or a BERT-family sentence encoder, as an ONNX graph for ONNX Runtime (opset 23)",
		Long:  exportONNXLong,
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if o.Model == "" || o.Out == "" {
				return fmt.Errorf("--model and --out are required")
			}
			g := inputs("")
			g.Input("--model", o.Model)
			g.Input("--first-stage", o.Spec.FirstStage)
			if err := g.Check("--out", o.Out); err != nil {
				return err
			}
			if bertenc.Is(o.Model) {
				if err := onnx.ExportBert(o.Model, o.Out, o.Force); err != nil {
					return err
				}
				fmt.Fprintf(u.out, "exported the BERT encoder %s to %s (read it with --onnx-encoder %s)\n", o.Model, filepath.Join(o.Out, "model.onnx"), o.Out)
				return nil
			}
			o.Spec.Instruction = o.Instruction
			if err := llmrerank.Export(o.Model, o.Out, o.Spec, o.Force); err != nil {
				return err
			}
			fmt.Fprintf(u.out, "exported %s to %s\n", o.Model, filepath.Join(o.Out, "model.onnx"))
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.Model, "model", "", "Qwen3 checkpoint directory (merged), or a Hugging Face BERT-family directory (config.json, model.safetensors, tokenizer.json)")
	f.StringVar(&o.Out, "out", "", "output directory")
	f.BoolVar(&o.Force, "force", false, "replace --out if strata made it")
	f.StringVar(&o.Spec.FirstStage, "first-stage", "", "model or run whose ranking the reranker reranks")
	f.StringVar(&o.Instruction, "instruction", "", instructionUsage)
	f.IntVar(&o.Spec.FieldTokens, "field-tokens", 300, "model tokens kept per text field of a candidate (GRASP's max_text_field_tokens)")
	f.IntVar(&o.Spec.MaxLen, "max-len", 512, "prompt tokens")
	f.IntVar(&o.Spec.TopN, "top-n", llmrerank.DefaultTopN, "candidates reranked per query (GRASP: stage 2's top 100)")
	f.IntVar(&o.Spec.Batch, "batch", 8, "prompts per ONNX Runtime run")
	f.IntVar(&o.Spec.Threads, "threads", 0, "ONNX Runtime intra-op threads (0: its default)")
	f.BoolVar(&o.Spec.CUDA, "cuda", false, "use ONNX Runtime's CUDA execution provider")
	return cmd
}

const instructionUsage = "the reranker's instruction: amazon, mag or prime for GRASP's appendix B.5 ones, any other text as is, or empty for B.5's wording with the workspace's node types"

// instructionFor resolves an --instruction value; the schema's instruction
// needs the workspace.
func instructionFor(v, wsDir string) (string, error) {
	if v != "" && v != "auto" {
		return reranker.ResolveInstruction(v, nil), nil
	}
	ws, err := workspace.Load(wsDir)
	if err != nil {
		return "", err
	}
	defer ws.Close()
	return reranker.ResolveInstruction(v, &ws.SKB.Schema), nil
}
