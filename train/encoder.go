package train

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"

	"github.com/nlpodyssey/spago/mat"

	"github.com/strata-retrieval/strata/checkpoints"
	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/eval"
	"github.com/strata-retrieval/strata/graphops/linking"
	"github.com/strata-retrieval/strata/graphops/workspace"
	"github.com/strata-retrieval/strata/infer"
	"github.com/strata-retrieval/strata/infer/baseline"
	"github.com/strata-retrieval/strata/infer/pipeline"
	"github.com/strata-retrieval/strata/models"
)

// EncoderModel adapts the hashed encoder to the loop.
type EncoderModel struct{ *models.Encoder }

func (m EncoderModel) Kind() string { return infer.KindEncoder }

func (m EncoderModel) ConfigJSON() (json.RawMessage, error) { return json.Marshal(m.Config) }

// EncoderTask trains the encoder with in-batch contrastive loss on (query,
// gold document) pairs: every other document of the batch is a negative.
// Besides the questions' pairs it may hold span pairs (AddSpanPairs),
// whose query and positive are drawn afresh each time a batch holds them.
type EncoderTask struct {
	Enc         *models.Encoder
	Temperature float64
	queries     [][]uint32
	docs        [][]uint32
	// spans are the span pairs' nodes and fields, after the question
	// pairs; skb and line read them.
	spans []spanSource
	skb   *data.SKB
	line  func(uint32) string
}

// spanSource is a span pair's node, the text field its spans come from
// and that field's words.
type spanSource struct {
	node  uint32
	field int
	words []string
}

// NewEncoderTask builds the pairs of a split: each query with each of its
// gold answers (at most maxGold per query, the first ones), documents read
// as the encoder reads them (infer.NodeTexts).
func NewEncoderTask(ws *workspace.Workspace, enc *models.Encoder, split string, maxGold int, temperature float64) (*EncoderTask, error) {
	if ws.SKB.QA == nil {
		return nil, fmt.Errorf("the workspace has no questions to train on")
	}
	qs, err := ws.SKB.QA.Split(split)
	if err != nil {
		return nil, err
	}
	t := &EncoderTask{Enc: enc, Temperature: temperature}
	text := infer.NodeTexts(ws.SKB, enc.Config)
	docFeats := map[uint32][]uint32{}
	for _, q := range qs {
		qf := enc.Features(q.Text)
		for i, a := range q.Answers {
			if i == maxGold {
				break
			}
			df, ok := docFeats[a]
			if !ok {
				df = enc.Features(text(a))
				docFeats[a] = df
			}
			t.queries = append(t.queries, qf)
			t.docs = append(t.docs, df)
		}
	}
	if len(t.queries) == 0 {
		return nil, fmt.Errorf("split %q has no (query, answer) pairs", split)
	}
	return t, nil
}

// Span pairs: a span of minSpan to maxSpan words of a node's longest text
// field (other than its name) that has at least minSpanField words.
const (
	minSpan      = 4
	maxSpan      = 12
	minSpanField = 6
)

// AddSpanPairs adds up to n pairs made from the SKB's own text (an inverse
// cloze task): each time a batch holds one, a span of its candidate
// node's longest text field other than the name, drawn by the batch's
// random source, is the query, and the node's document without that span
// (its name, other fields and neighbour line) the positive. Describing a
// node in other words than its document's is what a question or another
// dictionary's definition does; the encoder learns which words go with
// which names from every document of the SKB, not only from the training
// questions, and a fresh span each epoch keeps it from learning the
// spans by heart. Nodes are drawn without repeats in an order r
// shuffles; it returns the number added.
func (t *EncoderTask) AddSpanPairs(ws *workspace.Workspace, n int, r *rand.Rand) int {
	t.skb = ws.SKB
	t.line = infer.EncoderLine(ws.SKB, t.Enc.Config)
	order := slices.Clone(ws.Candidates)
	r.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
	added := 0
	for _, v := range order {
		if added == n {
			break
		}
		best, words := infer.LongestField(ws.SKB, v)
		if len(words) < minSpanField {
			continue
		}
		t.spans = append(t.spans, spanSource{node: v, field: best, words: words})
		added++
	}
	return added
}

// spanPair draws the query and positive features of span source s.
func (t *EncoderTask) spanPair(s *spanSource, r *rand.Rand) (q, d []uint32) {
	l := min(minSpan+r.IntN(maxSpan-minSpan+1), len(s.words))
	start := r.IntN(len(s.words) - l + 1)
	rest := strings.Join(append(slices.Clone(s.words[:start]), s.words[start+l:]...), " ")
	return t.Enc.Features(strings.Join(s.words[start:start+l], " ")), t.Enc.Features(t.skb.DocumentWith(s.node, s.field, rest) + t.line(s.node))
}

func (t *EncoderTask) NumExamples() int { return len(t.queries) + len(t.spans) }

func (t *EncoderTask) Loss(idx []int, r *rand.Rand) (mat.Tensor, error) {
	qs := make([][]uint32, len(idx))
	ds := make([][]uint32, len(idx))
	for k, i := range idx {
		if i < len(t.queries) {
			qs[k], ds[k] = t.queries[i], t.docs[i]
		} else {
			qs[k], ds[k] = t.spanPair(&t.spans[i-len(t.queries)], r)
		}
	}
	return InfoNCE(t.Enc.Op(append(qs, ds...)), len(idx), t.Enc.Dim(), t.Temperature)
}

// SplitMetrics evaluates a ranker on a split of the workspace and returns
// its metrics keyed "<split>/hit@1", "<split>/hit@5", "<split>/recall@20" and
// "<split>/mrr".
func SplitMetrics(ctx context.Context, ws *workspace.Workspace, r eval.Ranker, split string) (map[string]float64, error) {
	s, err := SplitSummary(ctx, ws, r, split)
	if err != nil {
		return nil, err
	}
	return map[string]float64{split + "/hit@1": s.Hit1, split + "/hit@5": s.Hit5, split + "/recall@20": s.Recall20, split + "/mrr": s.MRR}, nil
}

// SplitSummary evaluates a ranker on a split of ws (Method and Split set
// from the ranker's name and the split when it has a name).
func SplitSummary(ctx context.Context, ws *workspace.Workspace, r eval.Ranker, split string) (eval.Summary, error) {
	qs, err := ws.SKB.QA.Split(split)
	if err != nil {
		return eval.Summary{}, err
	}
	rs, err := eval.Run(ctx, eval.NewEvaluator(len(ws.SKB.Nodes), ws.Candidates), qs, r, eval.RunOptions{})
	if err != nil {
		return eval.Summary{}, err
	}
	s := eval.Summarize(rs)
	s.Split = split
	if n, ok := r.(interface{ Name() string }); ok {
		s.Method = n.Name()
	}
	return s, nil
}

// EncoderOptions configures Encoder.
type EncoderOptions struct {
	Encoder     models.EncoderConfig
	Train       Config
	Run         Options
	Temperature float64 // default 0.05
	MaxGold     int     // gold documents per training query, default 4
	ValSplit    string  // default "val"
	// SpanPairs: up to this many (span, rest of the document) pairs of
	// the SKB's own text join the question pairs (AddSpanPairs); 0 means
	// DefaultSpanPairs, negative none.
	SpanPairs int
	// NamesOnly reads a document's neighbours by their names alone; by
	// default by their other names too where the SKB has alias fields
	// (EncoderConfig.NeighborAliases from linking.DetectAliasFields, unless
	// Encoder sets them).
	NamesOnly bool
}

// Defaults of the encoder's training: how many neighbour names a document
// is read with (EncoderConfig.Neighbors, when EncoderOptions leaves it 0;
// negative for none) and the span pairs (EncoderOptions.SpanPairs).
const (
	DefaultNeighbors = 8
	DefaultSpanPairs = 200_000
)

// neighborAliases is the alias fields an encoder of o reads a document's
// neighbours by: o.Encoder's when set, none with o.NamesOnly or without
// neighbours, else the SKB's (linking.DetectAliasFields).
func neighborAliases(skb *data.SKB, o EncoderOptions) []string {
	switch {
	case o.Encoder.Neighbors <= 0 || o.NamesOnly:
		return nil
	case o.Encoder.NeighborAliases != nil:
		return o.Encoder.NeighborAliases
	}
	return linking.DetectAliasFields(skb)
}

// Encoder trains the hashed encoder on the workspace's train split,
// selecting the checkpoint with the best dense validation MRR, and returns
// the encoder with the best weights loaded.
func Encoder(ctx context.Context, ws *workspace.Workspace, o EncoderOptions) (*models.Encoder, *Result, error) {
	if o.Temperature == 0 {
		o.Temperature = 0.05
	}
	if o.MaxGold == 0 {
		o.MaxGold = 4
	}
	if o.ValSplit == "" {
		o.ValSplit = data.SplitVal
	}
	switch {
	case o.Encoder.Neighbors == 0:
		o.Encoder.Neighbors = DefaultNeighbors
	case o.Encoder.Neighbors < 0:
		o.Encoder.Neighbors = 0
	}
	if o.SpanPairs == 0 {
		o.SpanPairs = DefaultSpanPairs
	}
	o.Encoder.NeighborAliases = neighborAliases(ws.SKB, o)
	enc, err := models.NewEncoder(o.Encoder, rand.New(rand.NewPCG(o.Train.Seed, 0xe)))
	if err != nil {
		return nil, nil, err
	}
	// IDF pooling weights from the candidate documents.
	text := infer.NodeTexts(ws.SKB, enc.Config)
	docs := make([][]uint32, len(ws.Candidates))
	for i, c := range ws.Candidates {
		docs[i] = enc.Features(text(c))
	}
	enc.FitIDF(docs)
	task, err := NewEncoderTask(ws, enc, data.SplitTrain, o.MaxGold, o.Temperature)
	if err != nil {
		return nil, nil, err
	}
	if o.SpanPairs > 0 {
		n := task.AddSpanPairs(ws, o.SpanPairs, rand.New(rand.NewPCG(o.Train.Seed, 0x5a)))
		logf(o.Run.Log, "encoder: %d question pairs and %d span pairs of the SKB's text\n", task.NumExamples()-n, n)
	}
	res, err := fitBest(ctx, EncoderModel{enc}, task, o.Train, o.Run, o.ValSplit+"/mrr", func(ctx context.Context) (map[string]float64, error) {
		docs, err := infer.EncodeNodes(ctx, ws.SKB, enc)
		if err != nil {
			return nil, err
		}
		return SplitMetrics(ctx, ws, baseline.NewDense(ws, &infer.DenseChannel{Docs: docs, Encoder: enc}), o.ValSplit)
	})
	if err != nil {
		return nil, nil, err
	}
	return enc, res, nil
}

// fitBest trains m with eval scoring every checkpoint (metric selects the
// best unless cfg names one) and loads the best checkpoint's weights back
// into m; without eval the last weights stay.
func fitBest(ctx context.Context, m Model, task Task, cfg Config, run Options, metric string, eval EvalFunc) (*Result, error) {
	run.Eval = eval
	if cfg.Metric == "" {
		cfg.Metric = metric
	}
	res, err := Train(ctx, m, task, cfg, run)
	if err != nil {
		return nil, err
	}
	if eval != nil {
		if err := LoadBest(run.RunDir, m.Params()); err != nil {
			return nil, err
		}
	}
	return res, nil
}

// LoadBest loads the weights of runDir/best into params.
func LoadBest(runDir string, params []models.NamedParam) error {
	ck, err := checkpoints.Load(filepath.Join(runDir, checkpoints.BestLink))
	if err != nil {
		return err
	}
	byName := map[string]checkpoints.Tensor{}
	for _, t := range ck.Model {
		byName[t.Name] = t
	}
	return models.LoadParams(params, func(name string) ([]int, []float32, bool) {
		t, ok := byName[name]
		return t.Shape, t.Data, ok
	})
}

// Dense trains the hashed encoder (Encoder), encodes every node
// with its best checkpoint and makes that the workspace's dense channel;
// the run gets its pipeline.json.
func Dense(ctx context.Context, ws *workspace.Workspace, o EncoderOptions) (*infer.DenseChannel, *Result, error) {
	enc, res, err := Encoder(ctx, ws, o)
	if err != nil {
		return nil, nil, err
	}
	if err := pipeline.WriteRun(o.Run.RunDir, "encoder", pipeline.BestStage()); err != nil {
		return nil, nil, err
	}
	d, err := infer.SaveDenseFromEncoder(ctx, ws, enc, filepath.Join(o.Run.RunDir, res.Best))
	if err != nil {
		return nil, nil, err
	}
	return d, res, nil
}

// EnsureDense returns the workspace's dense channel, training the default
// encoder first (4 epochs, WORKSPACE/runs/encoder) when it has none, as
// the models that need a dense channel do; the result is that training's
// (nil when the channel existed).
func EnsureDense(ctx context.Context, env *infer.Env, seed uint64, log io.Writer) (*infer.DenseChannel, *Result, error) {
	d, err := env.Dense()
	if !errors.Is(err, infer.ErrNoDense) {
		return d, nil, err
	}
	logf(log, "no dense channel: training the default encoder first\n")
	ws := env.WS
	d, res, err := Dense(ctx, ws, EncoderOptions{Train: Config{Epochs: 4, BatchSize: 128, LR: 1e-3, Seed: seed},
		Run: Options{RunDir: filepath.Join(ws.Dir, "runs", "encoder"), Fingerprint: ws.Fingerprint, Log: log}})
	if err != nil {
		return nil, nil, err
	}
	env.SetDense(d)
	return d, res, nil
}
