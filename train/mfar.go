package train

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/nlpodyssey/spago/mat"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/graphops/linking"
	"github.com/strata-retrieval/strata/graphops/workspace"
	"github.com/strata-retrieval/strata/infer"
	"github.com/strata-retrieval/strata/infer/mfar"
	"github.com/strata-retrieval/strata/models"
)

// MFARModel adapts mFAR's field weights to the loop.
type MFARModel struct{ *mfar.Method }

func (m MFARModel) Kind() string                         { return infer.KindMFAR }
func (m MFARModel) Params() []models.NamedParam          { return m.Method.Params() }
func (m MFARModel) ConfigJSON() (json.RawMessage, error) { return json.Marshal(m.Cfg) }

// MFARTask is mFAR's training objective: for each query of a batch, one of
// its gold documents and one hard negative drawn from the BM25 ranks 51–100
// of the whole document (gold removed); every query scores every document
// of the batch (in-batch negatives) and the listwise softmax loss takes the
// query's gold documents as positives. Dense scores are divided by the
// temperature (as at inference). With a fine-tuned encoder (the method's
// Tuned) the queries and every field of the batch's documents are encoded
// in the step, so the loss trains the encoder together with the weights
// (models.FieldWeights.JointOp), as mFAR does.
type MFARTask struct {
	ws    *workspace.Workspace
	m     *mfar.Method
	text  []string
	toks  [][]string // text as the lexical scorers read it (QueryTokens)
	qv    [][]float32
	golds [][]int // candidate positions
	hard  [][]int
}

// NewMFARTask prepares the training queries; hard negatives come from the
// BM25 ranks [from, to] (1-based) of the whole document.
func NewMFARTask(ws *workspace.Workspace, m *mfar.Method, qs []data.Query, from, to int) (*MFARTask, error) {
	if from < 1 || to < from {
		return nil, fmt.Errorf("hard negatives from BM25 ranks %d-%d: want 1 <= from <= to", from, to)
	}
	t := &MFARTask{ws: ws, m: m}
	for _, q := range qs {
		var golds []int
		for _, a := range q.Answers {
			if i, ok := slices.BinarySearch(ws.Candidates, a); ok {
				golds = append(golds, i)
			}
		}
		if len(golds) == 0 {
			continue
		}
		var hard []int
		for r, h := range ws.SearchDoc(q.Text, to) {
			if r+1 < from || slices.Contains(q.Answers, h.ID) {
				continue
			}
			i, _ := slices.BinarySearch(ws.Candidates, h.ID)
			hard = append(hard, i)
		}
		if len(hard) == 0 {
			continue
		}
		v, err := m.QueryVector(q.Text)
		if err != nil {
			return nil, err
		}
		t.text = append(t.text, q.Text)
		t.toks = append(t.toks, m.QueryTokens(q.Text))
		t.qv = append(t.qv, v)
		t.golds = append(t.golds, golds)
		t.hard = append(t.hard, hard)
	}
	if len(t.qv) == 0 {
		return nil, fmt.Errorf("no training query has a gold candidate and BM25 hard negatives")
	}
	return t, nil
}

func (t *MFARTask) NumExamples() int { return len(t.qv) }

func (t *MFARTask) Loss(idx []int, r *rand.Rand) (mat.Tensor, error) {
	docs := make([]int, 0, 2*len(idx))
	for _, i := range idx {
		docs = append(docs, t.golds[i][r.IntN(len(t.golds[i]))])
	}
	for _, i := range idx {
		docs = append(docs, t.hard[i][r.IntN(len(t.hard[i]))])
	}
	cols := len(docs)
	labels := make([]bool, 0, len(idx)*cols)
	for _, i := range idx {
		for _, d := range docs {
			_, gold := slices.BinarySearch(t.golds[i], d)
			labels = append(labels, gold)
		}
	}
	if t.m.Tuned != nil {
		return ListwiseSoftmax(t.jointScores(idx, docs), cols, labels)
	}
	var qs, s []float32
	for _, i := range idx {
		qs = append(qs, t.qv[i]...)
		for _, d := range docs {
			s = t.m.PairScores(s, t.toks[i], t.qv[i], d)
		}
	}
	return ListwiseSoftmax(t.m.Model.Op(qs, s, cols), cols, labels)
}

// jointScores encodes the batch's queries and the non-empty fields of its
// documents with the fine-tuned encoder (one operator, so its backward
// pass has one consumer) and scores them with JointOp.
func (t *MFARTask) jointScores(idx, docs []int) mat.Tensor {
	m := t.m
	F := len(m.Cfg.Fields)
	feats := make([][]uint32, 0, len(idx)+len(docs)*F)
	for _, i := range idx {
		feats = append(feats, m.Tuned.Features(t.text[i]))
	}
	jb := &models.JointBatch{B: len(idx), Cols: len(docs), Fields: F, InvTemp: float32(1 / m.Cfg.Temperature)}
	for _, d := range docs {
		v := t.ws.Candidates[d]
		for _, f := range m.Cfg.Fields {
			text := m.FieldText(f, v)
			if text == "" {
				jb.Field = append(jb.Field, -1)
				continue
			}
			jb.Field = append(jb.Field, int32(len(feats)))
			feats = append(feats, m.Tuned.Features(text))
		}
	}
	for _, i := range idx {
		for _, d := range docs {
			for f := range F {
				jb.Lex = append(jb.Lex, m.LexicalTokens(f, t.toks[i], d))
			}
		}
	}
	return m.Model.JointOp(m.Tuned.Op(feats), jb)
}

// MFAROptions configures MFAR.
type MFAROptions struct {
	Train       Config
	Run         Options
	Temperature float64 // default 0.05
	ONNXEncoder string  // recorded in the model config when enc is an ONNX encoder
	Dense       string  // the dense channel's hash when enc is its encoder
	Lexical     string  // every field's lexical scorer (mfar.LexicalBM25Stem when "")
	// NamesOnly names a relation field's neighbours by their names alone
	// (mFAR's); by default by their other names too, where the SKB has
	// alias fields (linking.DetectAliasFields).
	NamesOnly bool
	// NoReadingField leaves out the "doc+neighbours" field (mFAR's
	// fields).
	NoReadingField bool
	ValSplit       string // default "val"
	// HardFrom and HardTo are the BM25 ranks hard negatives are drawn
	// from, default mFAR's 51-100.
	HardFrom, HardTo int
	// Tune, when set, is a hashed encoder fine-tuned together with the
	// weights, as mFAR does (a copy is trained; enc is not used); nil
	// keeps the encoder frozen.
	Tune *models.Encoder
}

// MFAR trains mFAR's field weights over enc (or, with o.Tune, together
// with a copy of that encoder), selecting the checkpoint with the best
// validation MRR.
func MFAR(ctx context.Context, ws *workspace.Workspace, enc infer.TextEncoder, o MFAROptions) (*mfar.Method, *Result, error) {
	if o.ValSplit == "" {
		o.ValSplit = data.SplitVal
	}
	if o.Tune != nil {
		enc = nil
	} else if enc == nil {
		return nil, nil, fmt.Errorf("mFAR needs an encoder")
	}
	dim := 0
	if o.Tune != nil {
		dim = o.Tune.Dim()
	} else {
		dim = enc.Dim()
	}
	cfg := mfar.DefaultConfig(&ws.SKB.Schema, dim)
	if o.Temperature > 0 {
		cfg.Temperature = o.Temperature
	}
	cfg.ONNXEncoder, cfg.Dense = o.ONNXEncoder, o.Dense
	if o.Lexical != "" {
		if err := mfar.ValidLexical(o.Lexical); err != nil {
			return nil, nil, err
		}
		cfg.SetLexical(o.Lexical)
	}
	if o.NoReadingField {
		cfg.DropReadingField()
	}
	if !o.NamesOnly {
		cfg.Aliases = linking.DetectAliasFields(ws.SKB)
	}
	fw, err := models.NewFieldWeights(cfg.Weights)
	if err != nil {
		return nil, nil, err
	}
	var m *mfar.Method
	if o.Tune != nil {
		m, err = mfar.NewTuned(ctx, ws, o.Tune.Clone(), cfg, fw)
	} else {
		m, err = mfar.New(ctx, ws, enc, cfg, fw)
	}
	if err != nil {
		return nil, nil, err
	}
	if ws.SKB.QA == nil {
		return nil, nil, fmt.Errorf("the workspace has no questions to train on")
	}
	qs, err := ws.SKB.QA.Split(data.SplitTrain)
	if err != nil {
		return nil, nil, err
	}
	if o.HardFrom == 0 && o.HardTo == 0 {
		o.HardFrom, o.HardTo = 51, 100
	}
	task, err := NewMFARTask(ws, m, qs, o.HardFrom, o.HardTo)
	if err != nil {
		return nil, nil, err
	}
	res, err := fitBest(ctx, MFARModel{m}, task, o.Train, o.Run, o.ValSplit+"/mrr", func(ctx context.Context) (map[string]float64, error) {
		if m.Tuned != nil {
			if err := m.Reencode(ctx); err != nil { // the fields' vectors of the encoder as trained so far
				return nil, err
			}
		}
		return SplitMetrics(ctx, ws, m, o.ValSplit)
	})
	if err != nil {
		return nil, nil, err
	}
	return m, res, nil
}
