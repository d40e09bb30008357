package main

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/strata-retrieval/strata/graphops/workspace"
	"github.com/strata-retrieval/strata/infer"
	"github.com/strata-retrieval/strata/infer/pipeline"
	"github.com/strata-retrieval/strata/models"
	"github.com/strata-retrieval/strata/train"
)

type trainEncoderOptions struct {
	WS          string
	Flags       trainFlags
	Encoder     models.EncoderConfig
	Temperature float64
	SpanPairs   int
	NamesOnly   bool
}

const trainEncoderLong = `Train the hashed n-gram encoder (word unigrams and bigrams and character
n-grams hashed into a table, IDF-weighted mean pooling, a projection, L2
normalisation) with in-batch contrastive loss, then encode every node with the
best checkpoint (by validation MRR) and make it the workspace's dense channel
(WORKSPACE/dense).

It learns from the SKB's own text as well as from the train split's (question,
gold document) pairs: up to --span-pairs candidate nodes (default 200,000: on
the WordNet SKB every synset with a definition of six words or more) each give
a pair whose query is a span of 4 to 12 words of the node's longest text field
(drawn afresh each epoch) and whose positive is the node's document without
that span, so the encoder learns which words describe which names (an inverse
cloze task). A node's document is read with the names of up to --neighbors
nodes its stored edges point to (default 8: a synset's hypernyms, a product's
brand), which say what a document alone may not ("a kind of mathematician"),
each by its other names too where the SKB has alias fields (WordNet's lemmas,
"book; volume"; --names-only for names alone, as before December 1).
--span-pairs 0 --neighbors 0 trains as strata did before November 29: on the
questions alone, each document read alone; make experiments-kgqa does so for
KGQA over triples, whose documents are names (with the defaults MetaQA's
mined-path KGQA was 0.1-0.6 points lower).`

func newTrainEncoderCmd(u *ui) *cobra.Command {
	var o trainEncoderOptions
	cmd := &cobra.Command{
		Use:   "encoder WORKSPACE",
		Short: "Train the hashed n-gram text encoder: the dense channel that needs no download",
		Long:  trainEncoderLong,
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.WS = args[0]
			return runTrainEncoder(cmd.Context(), u, o)
		},
	}
	o.Flags.bind(cmd, 4, 128, 1e-3, defaultPatience)
	cmd.Flags().IntVar(&o.Encoder.Buckets, "buckets", 1<<17, "hash table rows")
	cmd.Flags().IntVar(&o.Encoder.EmbDim, "dim", 128, "embedding and output dimension")
	cmd.Flags().Float64Var(&o.Temperature, "temperature", 0.05, "InfoNCE temperature")
	cmd.Flags().IntVar(&o.Encoder.Neighbors, "neighbors", train.DefaultNeighbors, "a node's document is read with the names of up to this many nodes its stored edges point to (0: its own text only)")
	cmd.Flags().BoolVar(&o.NamesOnly, "names-only", false, "read a document's neighbours by their names alone, not by their other names too (alias fields such as WordNet's lemmas)")
	cmd.Flags().IntVar(&o.SpanPairs, "span-pairs", train.DefaultSpanPairs, "up to this many (span of a node's text, rest of its document) pairs of the SKB's own text join the question pairs (0: none)")
	return cmd
}

func runTrainEncoder(ctx context.Context, u *ui, o trainEncoderOptions) error {
	ws, err := workspace.Load(o.WS)
	if err != nil {
		return err
	}
	defer ws.Close()
	if o.Encoder.OutDim == 0 {
		o.Encoder.OutDim = o.Encoder.EmbDim
	}
	// 0 on the command line means none; train.EncoderOptions reads 0 as
	// the default and a negative count as none.
	if o.Encoder.Neighbors == 0 {
		o.Encoder.Neighbors = -1
	}
	if o.SpanPairs == 0 {
		o.SpanPairs = -1
	}
	run, err := o.Flags.options(u, ws, "encoder")
	if err != nil {
		return err
	}
	u.stage("training the encoder into %s", run.RunDir)
	_, res, err := train.Dense(ctx, ws, train.EncoderOptions{Encoder: o.Encoder, Train: o.Flags.cfg, Run: run, Temperature: o.Temperature, SpanPairs: o.SpanPairs, NamesOnly: o.NamesOnly})
	if err != nil {
		return err
	}
	fmt.Fprintf(u.out, "trained encoder: %d steps (%s), best %s val/mrr %.4f; dense channel saved in %s\n",
		res.Steps, res.Stopped, res.Best, res.BestValue, filepath.Join(ws.Dir, infer.DenseDir))
	return finishRun(ctx, u, ws, run.RunDir, "encoder", pipeline.BestStage())
}

// ensureDense is train.EnsureDense, saying so when it trained the encoder.
func ensureDense(ctx context.Context, u *ui, ws *workspace.Workspace, seed uint64) (*infer.DenseChannel, error) {
	d, res, err := train.EnsureDense(ctx, infer.NewEnv(ctx, ws), seed, u.log())
	if err == nil && res != nil {
		fmt.Fprintf(u.out, "trained encoder: %d steps (%s), best %s val/mrr %.4f; dense channel saved in %s\n",
			res.Steps, res.Stopped, res.Best, res.BestValue, filepath.Join(ws.Dir, infer.DenseDir))
	}
	return d, err
}
