package models

import (
	"fmt"
	"math/rand/v2"

	"github.com/nlpodyssey/spago/ag"
	"github.com/nlpodyssey/spago/mat"
)

// Trajectory sizes, as in MoR's reranker.
const (
	TrajLen    = 3 // positions of the structural fingerprint and identifier
	TrajTF     = 4 // textual fingerprint: path BM25 scores + dense score
	TrajCodes  = 3 // identifier codes: 0 pad, 1 textual, 2 structural
	TrajHidden = 256
)

// TrajectoryConfig shapes the reranker; the three Use flags are MoR's
// feature ablations (textual fingerprint, structural fingerprint, traversal
// identifier).
type TrajectoryConfig struct {
	NodeTypes int  `json:"node_types"`
	UseTF     bool `json:"use_tf"`
	UseSF     bool `json:"use_sf"`
	UseTI     bool `json:"use_ti"`
}

// TrajectoryReranker is MoR's structure-aware reranker: a textual
// fingerprint through Linear(4→256), a structural fingerprint (the node-type
// sequence, a learned per-position type embedding summed to 256) and a
// traversal identifier (Embedding(3, 256) per position, 768 flattened), each
// through ReLU, concatenated and scored by a Linear(1280→1).
type TrajectoryReranker struct {
	Cfg TrajectoryConfig
	Wt  NamedParam // [256, 4]
	Bt  NamedParam // [256]
	Es  NamedParam // [3·(types+1), 256]
	Ei  NamedParam // [3, 256]
	Wo  NamedParam // [1280]
	Bo  NamedParam // [1]
}

// TrajectoryInput is one candidate's features.
type TrajectoryInput struct {
	TF    [TrajTF]float32
	Types [TrajLen]int32 // node type ids, -1 for padding
	Codes [TrajLen]int8  // 0 pad, 1 textual, 2 structural
}

// TrajectoryShapes lists the parameters of a reranker with config cfg, as
// Params orders them (for CheckShapes before NewTrajectoryReranker).
func TrajectoryShapes(cfg TrajectoryConfig) []NamedShape {
	H := TrajHidden
	return []NamedShape{
		{"mor.tf.w", []int{H, TrajTF}},
		{"mor.tf.b", []int{H}},
		{"mor.sf.emb", []int{TrajLen * (cfg.NodeTypes + 1), H}},
		{"mor.ti.emb", []int{TrajCodes, H}},
		{"mor.out.w", []int{5 * H}},
		{"mor.out.b", []int{1}},
	}
}

// NewTrajectoryReranker initialises the reranker from r (nil: zeros).
func NewTrajectoryReranker(cfg TrajectoryConfig, r *rand.Rand) (*TrajectoryReranker, error) {
	if cfg.NodeTypes <= 0 || !(cfg.UseTF || cfg.UseSF || cfg.UseTI) {
		return nil, fmt.Errorf("models: bad trajectory config %+v", cfg)
	}
	H := TrajHidden
	s := TrajectoryShapes(cfg)
	m := &TrajectoryReranker{Cfg: cfg, Wt: paramOf(s[0]), Bt: paramOf(s[1]), Es: paramOf(s[2]), Ei: paramOf(s[3]), Wo: paramOf(s[4]), Bo: paramOf(s[5])}
	if r != nil {
		xavier(r, m.Wt.Data(), TrajTF, H)
		for _, p := range []NamedParam{m.Es, m.Ei} {
			for i, d := 0, p.Data(); i < len(d); i++ {
				d[i] = float32(r.NormFloat64() * 0.1)
			}
		}
		xavier(r, m.Wo.Data(), 5*H, 1)
	}
	return m, nil
}

// Params lists the parameters.
func (m *TrajectoryReranker) Params() []NamedParam {
	return []NamedParam{m.Wt, m.Bt, m.Es, m.Ei, m.Wo, m.Bo}
}

// hidden computes the 1280 activations of one input into h (pre-ReLU
// values kept in pre for the backward pass).
func (m *TrajectoryReranker) hidden(in *TrajectoryInput, pre, h []float32) {
	H := TrajHidden
	clear(pre)
	if m.Cfg.UseTF {
		wt, bt := m.Wt.Data(), m.Bt.Data()
		for i := 0; i < H; i++ {
			s := bt[i]
			for j := 0; j < TrajTF; j++ {
				s += wt[i*TrajTF+j] * in.TF[j]
			}
			pre[i] = s
		}
	}
	if m.Cfg.UseSF {
		es := m.Es.Data()
		for p := 0; p < TrajLen; p++ {
			row := m.sfRow(p, in.Types[p])
			for i, v := range es[row*H : (row+1)*H] {
				pre[H+i] += v
			}
		}
	}
	if m.Cfg.UseTI {
		ei := m.Ei.Data()
		for p := 0; p < TrajLen; p++ {
			c := int(in.Codes[p])
			copy(pre[2*H+p*H:2*H+(p+1)*H], ei[c*H:(c+1)*H])
		}
	}
	for i, v := range pre {
		if v > 0 {
			h[i] = v
		} else {
			h[i] = 0
		}
	}
}

func (m *TrajectoryReranker) sfRow(pos int, t int32) int {
	if t < 0 {
		t = int32(m.Cfg.NodeTypes)
	}
	return pos*(m.Cfg.NodeTypes+1) + int(t)
}

// Score returns the score of every input.
func (m *TrajectoryReranker) Score(in []TrajectoryInput) []float32 {
	pre := make([]float32, 5*TrajHidden)
	h := make([]float32, 5*TrajHidden)
	wo, bo := m.Wo.Data(), m.Bo.Data()[0]
	out := make([]float32, len(in))
	for i := range in {
		m.hidden(&in[i], pre, h)
		s := bo
		for j, v := range h {
			s += wo[j] * v
		}
		out[i] = s
	}
	return out
}

// Op returns a differentiable node with the scores [len(in)].
func (m *TrajectoryReranker) Op(in []TrajectoryInput) mat.Tensor {
	if len(in) == 0 {
		panic("models: TrajectoryReranker.Op: no inputs")
	}
	return ag.NewOperator(&trajFn{m: m, in: in}).Run()
}

type trajFn struct {
	m  *TrajectoryReranker
	in []TrajectoryInput
}

func (f *trajFn) Operands() []mat.Tensor {
	var out []mat.Tensor
	for _, p := range f.m.Params() {
		out = append(out, p.Param)
	}
	return out
}

func (f *trajFn) Forward() (mat.Tensor, error) {
	s := f.m.Score(f.in)
	return mat.NewDense[float32](mat.WithShape(len(s)), mat.WithBacking(s)), nil
}

func (f *trajFn) Backward(gy mat.Tensor) error {
	m := f.m
	H := TrajHidden
	g := mat.Data[float32](gy)
	gWt := make([]float32, H*TrajTF)
	gBt := make([]float32, H)
	gEs := make([]float32, len(m.Es.Data()))
	gEi := make([]float32, len(m.Ei.Data()))
	gWo := make([]float32, 5*H)
	var gBo float32
	pre := make([]float32, 5*H)
	h := make([]float32, 5*H)
	wo := m.Wo.Data()
	for n := range f.in {
		in := &f.in[n]
		m.hidden(in, pre, h)
		gn := g[n]
		gBo += gn
		for j, v := range h {
			gWo[j] += gn * v
		}
		// gradient of the pre-activations
		gp := func(j int) float32 {
			if pre[j] > 0 {
				return gn * wo[j]
			}
			return 0
		}
		if m.Cfg.UseTF {
			for i := 0; i < H; i++ {
				d := gp(i)
				if d == 0 {
					continue
				}
				gBt[i] += d
				for j := 0; j < TrajTF; j++ {
					gWt[i*TrajTF+j] += d * in.TF[j]
				}
			}
		}
		if m.Cfg.UseSF {
			for p := 0; p < TrajLen; p++ {
				row := m.sfRow(p, in.Types[p])
				for i := 0; i < H; i++ {
					gEs[row*H+i] += gp(H + i)
				}
			}
		}
		if m.Cfg.UseTI {
			for p := 0; p < TrajLen; p++ {
				c := int(in.Codes[p])
				for i := 0; i < H; i++ {
					gEi[c*H+i] += gp(2*H + p*H + i)
				}
			}
		}
	}
	m.Wt.Param.AccGrad(grad(gWt, H, TrajTF))
	m.Bt.Param.AccGrad(grad(gBt, H))
	m.Es.Param.AccGrad(grad(gEs, m.Es.Shape...))
	m.Ei.Param.AccGrad(grad(gEi, TrajCodes, H))
	m.Wo.Param.AccGrad(grad(gWo, 5*H))
	m.Bo.Param.AccGrad(grad([]float32{gBo}, 1))
	return nil
}
