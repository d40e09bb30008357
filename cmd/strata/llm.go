package main

import (
	"encoding/json"
	"fmt"
	"github.com/strata-retrieval/strata/infer/llmrerank"
	"github.com/strata-retrieval/strata/infer/onnx"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/strata-retrieval/strata/internal/atomicfile"
	"github.com/strata-retrieval/strata/models"
	"github.com/strata-retrieval/strata/reranker"
	"github.com/strata-retrieval/strata/reranker/bpe"
	"github.com/strata-retrieval/strata/train"
)

func newInitQwen3Cmd(u *ui) *cobra.Command {
	var out, tokPath string
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
			if err := llmrerank.SaveQwen3Dir(out, m, tokPath); err != nil {
				return err
			}
			fmt.Fprintf(u.out, "wrote a random Qwen3 (%d layers, hidden %d, %d/%d heads, vocabulary %d) to %s\n", cfg.NumLayers, cfg.HiddenSize, cfg.NumHeads, cfg.NumKVHeads, cfg.VocabSize, out)
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&out, "out", "", "output directory")
	f.StringVar(&tokPath, "tokenizer", "", "a Qwen3 tokenizer.json")
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

func newTrainLLMRerankerCmd(u *ui) *cobra.Command {
	var f trainFlags
	var o train.LLMRerankerOptions
	var base, records, valRecords, preset string
	cmd := &cobra.Command{
		Use:   "llm-reranker WORKSPACE --base DIR --records FILE [--val-records FILE]",
		Short: "LoRA listwise fine-tuning of a Qwen3 reranker on GRASP stage-3 records",
		Long: `Fine-tune LoRA adapters (rank 32, alpha 64 by default, on every linear
layer; the base frozen) of a Qwen3 checkpoint directory (--base: config.json,
safetensors, tokenizer.json) as Qwen3-Reranker: the score of a (query,
document) prompt is softmax([logit_no, logit_yes])[yes] at the last position.
Training draws for every record a group of --group prompts afresh each step
(one positive, the rest from its hard negatives) and minimises the listwise
softmax of the log-odds, with AdamW and cosine decay from --lr after a 5%
warmup. Records come from strata export reranker-data. Checkpoints hold only
the adapters; RUNDIR/best is the best val group accuracy. Fold them into the
base with strata merge-lora, then strata export onnx.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if base == "" || records == "" {
				return fmt.Errorf("--base and --records are required")
			}
			m, err := llmrerank.LoadQwen3Dir(base)
			if err != nil {
				return err
			}
			tok, err := bpe.Load(filepath.Join(base, "tokenizer.json"))
			if err != nil {
				return err
			}
			tr, err := reranker.ReadRecords(records)
			if err != nil {
				return err
			}
			var va []reranker.Record
			if valRecords != "" {
				if va, err = reranker.ReadRecords(valRecords); err != nil {
					return err
				}
			}
			o.Instruction = reranker.DefaultInstruction
			if s, ok := reranker.Instructions[preset]; ok {
				o.Instruction = s
			}
			if o.BaseDir, err = filepath.Abs(base); err != nil {
				return err
			}
			dir := f.out
			if dir == "" {
				dir = filepath.Join(args[0], "runs", "llm-reranker")
			}
			o.Train = f.cfg
			o.Run = train.Options{RunDir: dir, Fingerprint: "records:" + filepath.Base(records), Resume: f.resume}
			if u.tty {
				o.Run.Log = u.err
			}
			u.stage("fine-tuning on %d records into %s", len(tr), dir)
			_, res, err := train.TrainLLMReranker(cmd.Context(), m, tok, tr, va, o)
			if err != nil {
				return err
			}
			if len(va) == 0 {
				fmt.Fprintf(u.out, "trained the LLM reranker's adapters: %d steps (%s); no validation records, so %s is the last checkpoint\n", res.Steps, res.Stopped, res.Best)
			} else {
				fmt.Fprintf(u.out, "trained the LLM reranker's adapters: %d steps (%s), best %s (val group accuracy %.4f)\n", res.Steps, res.Stopped, res.Best, res.BestValue)
			}
			return nil
		},
	}
	f.bind(cmd, 1, 4, 3e-5)
	fl := cmd.Flags()
	fl.StringVar(&base, "base", "", "Qwen3 checkpoint directory")
	fl.StringVar(&records, "records", "", "training records (strata export reranker-data)")
	fl.StringVar(&valRecords, "val-records", "", "validation records")
	fl.StringVar(&preset, "instruction", "", "per-data-set instruction: amazon, mag or prime (default a generic one)")
	fl.IntVar(&o.LoRA.Rank, "rank", 32, "LoRA rank")
	fl.Float64Var(&o.LoRA.Alpha, "alpha", 64, "LoRA alpha")
	fl.IntVar(&o.Group, "group", 24, "prompts per listwise group (one positive)")
	fl.IntVar(&o.MaxLen, "max-len", 512, "prompt tokens; the document is truncated to fit")
	return cmd
}

func newMergeLoRACmd(u *ui) *cobra.Command {
	var base, adapters, out string
	cmd := &cobra.Command{
		Use:   "merge-lora --base DIR --adapters RUNDIR --out DIR",
		Short: "Fold LoRA adapters into their base: W + (alpha/r)·B·A",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if base == "" || adapters == "" || out == "" {
				return fmt.Errorf("--base, --adapters and --out are required")
			}
			m, err := llmrerank.LoadQwen3Dir(base)
			if err != nil {
				return err
			}
			l, _, err := llmrerank.LoadLoRA(m, adapters)
			if err != nil {
				return err
			}
			if err := llmrerank.SaveQwen3Dir(out, l.Merge(), filepath.Join(base, "tokenizer.json")); err != nil {
				return err
			}
			fmt.Fprintf(u.out, "merged %s into %s\n", adapters, out)
			return nil
		},
	}
	cmd.Flags().StringVar(&base, "base", "", "Qwen3 checkpoint directory")
	cmd.Flags().StringVar(&adapters, "adapters", "", "llm-reranker run or checkpoint")
	cmd.Flags().StringVar(&out, "out", "", "merged checkpoint directory")
	return cmd
}

func newExportONNXCmd(u *ui) *cobra.Command {
	var model, out, firstStage, preset string
	var spec llmrerank.RerankerSpec
	cmd := &cobra.Command{
		Use:   "onnx --model DIR --out DIR [--first-stage RUNDIR]",
		Short: "Export a Qwen3 reranker as an ONNX graph for ONNX Runtime (opset 23)",
		Long: `Write OUT/model.onnx (IR 11, opset 23: RMSNormalization, RotaryEmbedding,
Attention; inputs input_ids, position_ids and last_index, output the yes
score), OUT/tokenizer.json and OUT/reranker.json. With --first-stage, OUT is
a model that strata eval --model, pipelines and strata train grasp --stage3
load: it reranks the top --top-n candidates of the first stage's ranking
with ONNX Runtime (--threads; --cuda uses the CUDA execution provider, which
needs ONNX Runtime's GPU library in STRATA_ORT_LIB).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if model == "" || out == "" {
				return fmt.Errorf("--model and --out are required")
			}
			m, err := llmrerank.LoadQwen3Dir(model)
			if err != nil {
				return err
			}
			tok, err := bpe.Load(filepath.Join(model, "tokenizer.json"))
			if err != nil {
				return err
			}
			yes, ok1 := tok.ID("yes")
			no, ok2 := tok.ID("no")
			if !ok1 || !ok2 {
				return fmt.Errorf("the tokenizer has no yes/no tokens")
			}
			g, err := onnx.Qwen3Graph(m, yes, no, m.Cfg.MaxPositions)
			if err != nil {
				return err
			}
			if err := os.MkdirAll(out, 0o755); err != nil {
				return err
			}
			if err := g.Save(filepath.Join(out, "model.onnx")); err != nil {
				return err
			}
			b, err := os.ReadFile(filepath.Join(model, "tokenizer.json"))
			if err != nil {
				return err
			}
			if err := atomicfile.WriteFile(filepath.Join(out, "tokenizer.json"), func(w io.Writer) error { _, err := w.Write(b); return err }); err != nil {
				return err
			}
			spec.Instruction = reranker.DefaultInstruction
			if s, ok := reranker.Instructions[preset]; ok {
				spec.Instruction = s
			}
			if firstStage != "" {
				spec.FirstStage = firstStage // a method name, or a model path made absolute
				if _, err := os.Stat(firstStage); err == nil {
					if spec.FirstStage, err = filepath.Abs(firstStage); err != nil {
						return err
					}
				}
				js, _ := json.MarshalIndent(spec, "", "  ")
				if err := atomicfile.WriteFile(filepath.Join(out, llmrerank.RerankerSpecFile), func(w io.Writer) error { _, err := w.Write(js); return err }); err != nil {
					return err
				}
			}
			fmt.Fprintf(u.out, "exported %s to %s\n", model, filepath.Join(out, "model.onnx"))
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&model, "model", "", "Qwen3 checkpoint directory (merged)")
	f.StringVar(&out, "out", "", "output directory")
	f.StringVar(&firstStage, "first-stage", "", "model or run whose ranking the reranker reranks")
	f.StringVar(&preset, "instruction", "", "per-data-set instruction: amazon, mag or prime")
	f.IntVar(&spec.MaxLen, "max-len", 512, "prompt tokens")
	f.IntVar(&spec.TopN, "top-n", 20, "candidates reranked per query")
	f.IntVar(&spec.Batch, "batch", 8, "prompts per ONNX Runtime run")
	f.IntVar(&spec.Threads, "threads", 0, "ONNX Runtime intra-op threads (0: its default)")
	f.BoolVar(&spec.CUDA, "cuda", false, "use ONNX Runtime's CUDA execution provider")
	return cmd
}
