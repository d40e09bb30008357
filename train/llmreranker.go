package train

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"

	"github.com/nlpodyssey/spago/mat"

	"github.com/strata-retrieval/strata/infer"
	"github.com/strata-retrieval/strata/models"
	"github.com/strata-retrieval/strata/reranker"
	"github.com/strata-retrieval/strata/reranker/bpe"
)

// LLMRerankerConfig is saved with the adapters.
type LLMRerankerConfig struct {
	LoRA        models.LoRAConfig  `json:"lora"`
	Base        models.Qwen3Config `json:"base"`
	BaseDir     string             `json:"base_dir,omitempty"`
	BaseHash    string             `json:"base_sha256,omitempty"` // llmrerank.BaseHash of the base: merge and --resume check it
	Instruction string             `json:"instruction"`
	MaxLen      int                `json:"max_len"`
	Group       int                `json:"group"`
	Yes         int                `json:"yes_id"`
	No          int                `json:"no_id"`
}

// LLMRerankerModel adapts the adapters to the loop (checkpoints hold only
// the adapters).
type LLMRerankerModel struct {
	L   *models.LoRA
	Cfg LLMRerankerConfig
}

func (m LLMRerankerModel) Kind() string                         { return infer.KindLLMReranker }
func (m LLMRerankerModel) Params() []models.NamedParam          { return m.L.Params() }
func (m LLMRerankerModel) ConfigJSON() (json.RawMessage, error) { return json.Marshal(m.Cfg) }

// LLMRerankerTask draws, for each record of a batch, a group of G prompts
// afresh (one positive, G−1 hard negatives) and returns the listwise
// softmax loss of the adapted model's log-odds.
type LLMRerankerTask struct {
	L       *models.LoRA
	P       *reranker.PromptTokenizer
	Records []reranker.Record
	G       int
	Yes, No int
}

func (t *LLMRerankerTask) NumExamples() int { return len(t.Records) }

// groups draws the tokenized groups of records idx; a token id the base
// model does not have is an error.
func (t *LLMRerankerTask) groups(idx []int, r *rand.Rand) ([]models.ListwiseGroup, error) {
	var out []models.ListwiseGroup
	for _, i := range idx {
		g, ok := reranker.Collate(&t.Records[i], t.G, r)
		if !ok {
			continue
		}
		lg := models.ListwiseGroup{Positive: g.Positive}
		for _, d := range g.Docs {
			ids, err := t.P.IDs(g.Query, d.Text)
			if err != nil {
				return nil, err
			}
			lg.Seqs = append(lg.Seqs, ids)
		}
		out = append(out, lg)
	}
	// spago kills the process on an error inside an operator: token ids
	// outside the base's vocabulary are refused here, before ListwiseOp
	// and ListwiseLoss see them.
	if err := t.L.CheckGroups(out, t.Yes, t.No); err != nil {
		return nil, err
	}
	return out, nil
}

func (t *LLMRerankerTask) Loss(idx []int, r *rand.Rand) (mat.Tensor, error) {
	gs, err := t.groups(idx, r)
	if err != nil {
		return nil, err
	}
	if len(gs) == 0 {
		return nil, fmt.Errorf("no record of the batch has a positive and a negative")
	}
	return t.L.ListwiseOp(gs, t.Yes, t.No), nil
}

// usable keeps records with a positive and a negative.
func usable(recs []reranker.Record) []reranker.Record {
	var out []reranker.Record
	for _, r := range recs {
		if len(r.Positives) > 0 && len(r.Negatives) > 0 {
			out = append(out, r)
		}
	}
	return out
}

// LLMRerankerOptions configures LLMReranker.
type LLMRerankerOptions struct {
	LoRA        models.LoRAConfig // default rank 32, alpha 64
	Group       int               // G, default 24
	MaxLen      int               // prompt tokens, default 512
	Instruction string
	BaseDir     string
	BaseHash    string // llmrerank.BaseHash of the base
	Train       Config // LR default 3e-5, warmup 5%, cosine decay
	Run         Options
}

// LLMReranker fine-tunes LoRA adapters of base on listwise records,
// selecting the checkpoint with the best validation group accuracy (the
// positive scored first among a fixed draw of G prompts per val record).
func LLMReranker(ctx context.Context, base *models.Qwen3, tok *bpe.Tokenizer, train, val []reranker.Record, o LLMRerankerOptions) (*models.LoRA, *Result, error) {
	if o.LoRA.Rank == 0 {
		o.LoRA = models.LoRAConfig{Rank: 32, Alpha: 64}
	}
	if o.Group == 0 {
		o.Group = 24
	}
	if o.MaxLen == 0 {
		o.MaxLen = 512
	}
	if o.Train.LR == 0 {
		o.Train.LR = 3e-5
	}
	if tok.VocabSize() > base.Cfg.VocabSize {
		return nil, nil, fmt.Errorf("the tokenizer has %d tokens, the base's vocabulary %d: they do not belong together", tok.VocabSize(), base.Cfg.VocabSize)
	}
	yes, ok1 := tok.ID("yes")
	no, ok2 := tok.ID("no")
	if !ok1 || !ok2 {
		return nil, nil, fmt.Errorf("the tokenizer has no single tokens for yes and no")
	}
	l, err := models.NewLoRA(base, o.LoRA, rand.New(rand.NewPCG(o.Train.Seed, 0x10a)))
	if err != nil {
		return nil, nil, err
	}
	p, err := reranker.NewPromptTokenizer(tok, o.Instruction, o.MaxLen)
	if err != nil {
		return nil, nil, err
	}
	train, val = usable(train), usable(val)
	if len(train) == 0 {
		return nil, nil, fmt.Errorf("no training record has a positive and a negative")
	}
	task := &LLMRerankerTask{L: l, P: p, Records: train, G: o.Group, Yes: yes, No: no}
	var eval EvalFunc
	metric := ""
	if len(val) > 0 {
		vt := &LLMRerankerTask{L: l, P: p, Records: val, G: o.Group, Yes: yes, No: no}
		idx := make([]int, len(val))
		for i := range idx {
			idx[i] = i
		}
		vg, err := vt.groups(idx, rand.New(rand.NewPCG(0xfeed, 1)))
		if err != nil {
			return nil, nil, err
		}
		metric = "val/group_acc"
		eval = func(ctx context.Context) (map[string]float64, error) {
			loss, zs := l.ListwiseLoss(vg, yes, no)
			right := 0
			for i, z := range zs {
				best := 0
				for j, v := range z {
					if v > z[best] {
						best = j
					}
				}
				if best == vg[i].Positive {
					right++
				}
			}
			return map[string]float64{"val/group_acc": float64(right) / float64(len(vg)), "val/listwise_loss": loss}, nil
		}
	}
	cfg := LLMRerankerConfig{LoRA: o.LoRA, Base: base.Cfg, BaseDir: o.BaseDir, BaseHash: o.BaseHash, Instruction: o.Instruction, MaxLen: o.MaxLen, Group: o.Group, Yes: yes, No: no}
	res, err := fitBest(ctx, LLMRerankerModel{L: l, Cfg: cfg}, task, o.Train, o.Run, metric, eval)
	if err != nil {
		return nil, nil, err
	}
	return l, res, nil
}
