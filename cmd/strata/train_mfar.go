package main

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/strata-retrieval/strata/graphops/workspace"
	"github.com/strata-retrieval/strata/infer"
	"github.com/strata-retrieval/strata/infer/bertenc"
	"github.com/strata-retrieval/strata/infer/mfar"
	"github.com/strata-retrieval/strata/infer/onnx"
	"github.com/strata-retrieval/strata/infer/pipeline"
	"github.com/strata-retrieval/strata/train"
)

type trainMFAROptions struct {
	WS, ONNX, Hard, Lexical string
	Flags                   trainFlags
	Temperature             float64
	ONNXThreads             int
	FineTune                bool
	NamesOnly               bool
	NoReadingField          bool
}

const trainMFARLong = `Train mFAR. Every candidate is decomposed into fields derived from the
schema: the whole document; the document with the names of up to 8 nodes its
edges point to (doc+neighbours, as the reading text channel reads it;
--no-reading-field leaves it out); each text field; and one field per
relation holding the names of its neighbours by that relation. A neighbour is
named by its other names too where the SKB has alias fields, such as
WordNet's lemmas (--names-only for names alone). Each field has two scorers,
BM25 over that field (its words stemmed, --lexical bm25-stem, the default;
--lexical bm25 reads them as they are) and the dot product of the query's and
the field's vectors (one shared encoder: the dense channel's, or a BERT-family
sentence encoder with --onnx-encoder DIR: an ONNX export, tokenizer.json and
model.onnx, or a Hugging Face directory, config.json, model.safetensors and
tokenizer.json, run natively). A query's weights are softmax(q·W) over the (field, scorer)
pairs, W initialised to ones; a document's score is the weighted sum.
--lexical bm25 --names-only --no-reading-field trains mFAR's own fields and
scorers (strata's default reads WordNet's test 10 points better at Hit@1,
docs/real-data.md).

Training: in-batch contrastive loss with one hard negative per query drawn
from the BM25 ranks 51-100 of the whole document (--hard-negatives), dense scores divided by
--temperature. Inference divides dense scores by the same temperature, so
the weights see the scale they were trained on (mFAR's code does not, which
puts dense scores 20x below their training scale at the default 0.05).
Inference takes the top 100 of every (field, scorer) index, merges them and
rescores the union. strata explain --model RUNDIR shows a query's weights.

--finetune-encoder trains a copy of the dense channel's hashed encoder
together with the weights, as mFAR does (the encoder's weights go into the
checkpoint, and every field is re-encoded before each validation). It is an
option, not the default: at the same learning rate it lowered val MRR on
every generated preset measured (amazon 0.513 -> 0.384 at 1e-2 and 0.397
at 1e-3; mag 0.311 -> 0.238 / 0.253; prime 0.512 -> 0.317), 7-10x the
training time. mFAR fine-tunes a pretrained encoder on thousands of
questions; strata's hashed encoder, tuned on a few hundred, drifts.`

func newTrainMFARCmd(u *ui) *cobra.Command {
	var o trainMFAROptions
	cmd := &cobra.Command{
		Use:   "mfar WORKSPACE [--onnx-encoder DIR]",
		Short: "Train mFAR: multi-field adaptive retrieval (per-field BM25 and dense scorers, query-conditioned weights)",
		Long:  trainMFARLong,
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.WS = args[0]
			return runTrainMFAR(cmd.Context(), u, o)
		},
	}
	o.Flags.bind(cmd, 10, 32, 1e-2, defaultPatience)
	f := cmd.Flags()
	f.Float64Var(&o.Temperature, "temperature", 0.05, "dense score temperature (training and inference)")
	f.StringVar(&o.ONNX, "onnx-encoder", "", "sentence encoder directory: an ONNX export (tokenizer.json, model.onnx) or a Hugging Face BERT-family directory (config.json, model.safetensors, tokenizer.json; run natively)")
	f.IntVar(&o.ONNXThreads, "onnx-threads", 0, "ONNX Runtime intra-op threads (0: its default)")
	f.StringVar(&o.Lexical, "lexical", mfar.LexicalBM25Stem, "every field's lexical scorer: bm25-stem (BM25 over Snowball stems) or bm25 (words as they are, mFAR's)")
	f.BoolVar(&o.NamesOnly, "names-only", false, "a relation field names its neighbours by their names alone (mFAR's), not by their other names too (alias fields such as WordNet's lemmas)")
	f.BoolVar(&o.NoReadingField, "no-reading-field", false, "leave out the doc+neighbours field (with --lexical bm25 --names-only: mFAR's fields and scorers)")
	f.StringVar(&o.Hard, "hard-negatives", "51-100", "BM25 ranks of the whole document that hard negatives are drawn from (mFAR: 51-100)")
	f.BoolVar(&o.FineTune, "finetune-encoder", false, "train a copy of the dense channel's hashed encoder together with the weights, as mFAR does (its weights go into the checkpoint)")
	return cmd
}

func runTrainMFAR(ctx context.Context, u *ui, o trainMFAROptions) error {
	ws, err := workspace.Load(o.WS)
	if err != nil {
		return err
	}
	defer ws.Close()
	run, err := o.Flags.options(u, ws, "mfar", o.ONNX)
	if err != nil {
		return err
	}
	mo := train.MFAROptions{Train: o.Flags.cfg, Temperature: o.Temperature, Run: run, Lexical: o.Lexical, NamesOnly: o.NamesOnly, NoReadingField: o.NoReadingField}
	if err := mfar.ValidLexical(o.Lexical); err != nil || o.Lexical == "" {
		return fmt.Errorf("--lexical %q: want %s or %s", o.Lexical, mfar.LexicalBM25Stem, mfar.LexicalBM25)
	}
	if _, err := fmt.Sscanf(o.Hard, "%d-%d", &mo.HardFrom, &mo.HardTo); err != nil {
		return fmt.Errorf("--hard-negatives %q: want FROM-TO, e.g. 51-100", o.Hard)
	}
	var enc infer.TextEncoder
	if o.FineTune && o.ONNX != "" {
		return fmt.Errorf("--finetune-encoder trains the hashed encoder; an ONNX encoder (--onnx-encoder) cannot be trained here")
	}
	if o.ONNX != "" {
		if mo.ONNXEncoder, err = filepath.Abs(o.ONNX); err != nil {
			return err
		}
		if bertenc.Is(mo.ONNXEncoder) {
			if enc, err = bertenc.Load(mo.ONNXEncoder); err != nil {
				return err
			}
		} else {
			oe, err := onnx.LoadEncoder(mo.ONNXEncoder, onnx.EncoderConfig{ORT: onnx.Options{Threads: o.ONNXThreads}})
			if err != nil {
				return err
			}
			defer oe.Close()
			enc = oe
		}
	} else {
		d, err := ensureDense(ctx, u, ws, o.Flags.cfg.Seed)
		if err != nil {
			return err
		}
		if enc, err = infer.DenseTextEncoder(d); err != nil {
			return err
		}
		mo.Dense = d.Meta.Hash
		if o.FineTune {
			mo.Tune = d.Encoder
		}
	}
	u.stage("indexing every field and training mFAR into %s", mo.Run.RunDir)
	m, res, err := train.MFAR(ctx, ws, enc, mo)
	if err != nil {
		return err
	}
	fmt.Fprintf(u.out, "trained mFAR: %d fields x %d scorers, %d steps (%s), best %s val/mrr %.4f\n",
		len(m.Cfg.Fields), mfar.Scorers, res.Steps, res.Stopped, res.Best, res.BestValue)
	return finishRun(ctx, u, ws, mo.Run.RunDir, "mfar", pipeline.BestStage())
}
