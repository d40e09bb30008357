package models

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/nlpodyssey/spago/ag"
	"github.com/nlpodyssey/spago/mat"
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas32"
)

// LoRAConfig sets the adapters: rank r and alpha (the update is
// (alpha/r)·B·A), on every linear layer of every decoder layer.
type LoRAConfig struct {
	Rank  int     `json:"rank"`
	Alpha float64 `json:"alpha"`
}

// loraTargets are the linear layers that get adapters.
var loraTargets = []string{"q", "k", "v", "o", "gate", "up", "down"}

// LoRA holds the adapters of a Qwen3 model (the base stays frozen): for
// each layer and target, A [r, in] and B [out, r]. B starts at zero, so
// the adapted model starts as the base.
type LoRA struct {
	Cfg    LoRAConfig
	Base   *Qwen3
	A, B   [][]NamedParam // [layer][target]
	scale  float32
	shapes [][][2]int // [layer][target] = (out, in)
}

// NewLoRA attaches adapters to base; A is drawn from r (Kaiming-uniform
// like PEFT's), B is zero.
func NewLoRA(base *Qwen3, cfg LoRAConfig, r *rand.Rand) (*LoRA, error) {
	if cfg.Rank <= 0 || cfg.Alpha <= 0 {
		return nil, fmt.Errorf("models: LoRA rank %d, alpha %g", cfg.Rank, cfg.Alpha)
	}
	l := &LoRA{Cfg: cfg, Base: base, scale: float32(cfg.Alpha / float64(cfg.Rank))}
	for li := range base.Layers {
		var as, bs []NamedParam
		var sh [][2]int
		for ti, s := range base.linearShapes() {
			out, in := s[0], s[1]
			name := fmt.Sprintf("lora.%d.%s", li, loraTargets[ti])
			a := NamedParam{name + ".A", []int{cfg.Rank, in}, newParam(cfg.Rank, in)}
			if r != nil {
				bound := 1 / math.Sqrt(float64(in))
				for i, d := 0, a.Data(); i < len(d); i++ {
					d[i] = float32((2*r.Float64() - 1) * bound)
				}
			}
			as = append(as, a)
			bs = append(bs, NamedParam{name + ".B", []int{out, cfg.Rank}, newParam(out, cfg.Rank)})
			sh = append(sh, s)
		}
		l.A, l.B, l.shapes = append(l.A, as), append(l.B, bs), append(l.shapes, sh)
	}
	return l, nil
}

// LoRAShapes lists the adapters NewLoRA attaches to base with config cfg,
// as Params orders them (for CheckShapes before NewLoRA: a checkpoint's
// rank is compared with its tensors before anything is allocated).
func LoRAShapes(base *Qwen3, cfg LoRAConfig) []NamedShape {
	var out []NamedShape
	for li := range base.Layers {
		for ti, s := range base.linearShapes() {
			name := fmt.Sprintf("lora.%d.%s", li, loraTargets[ti])
			out = append(out, NamedShape{name + ".A", []int{cfg.Rank, s[1]}}, NamedShape{name + ".B", []int{s[0], cfg.Rank}})
		}
	}
	return out
}

// Params lists the adapters (what training updates and checkpoints hold).
func (l *LoRA) Params() []NamedParam {
	var out []NamedParam
	for li := range l.A {
		for ti := range l.A[li] {
			out = append(out, l.A[li][ti], l.B[li][ti])
		}
	}
	return out
}

// Merge returns a copy of the base with every adapter folded in:
// W' = W + (alpha/r)·B·A.
func (l *LoRA) Merge() *Qwen3 {
	m := *l.Base
	m.Layers = make([]Qwen3Layer, len(l.Base.Layers))
	for li, L := range l.Base.Layers {
		ws := L.weights()
		merged := make([][]float32, len(ws))
		for ti, w := range ws {
			out, in := l.shapes[li][ti][0], l.shapes[li][ti][1]
			A, B := l.A[li][ti].Data(), l.B[li][ti].Data()
			nw := append([]float32(nil), w...)
			for o := range out {
				for rr := range l.Cfg.Rank {
					b := l.scale * B[o*l.Cfg.Rank+rr]
					if b == 0 {
						continue
					}
					row := A[rr*in : (rr+1)*in]
					for i := range in {
						nw[o*in+i] += b * row[i]
					}
				}
			}
			merged[ti] = nw
		}
		m.Layers[li] = L
		m.Layers[li].Q, m.Layers[li].K, m.Layers[li].V, m.Layers[li].O = merged[0], merged[1], merged[2], merged[3]
		m.Layers[li].Gate, m.Layers[li].Up, m.Layers[li].Down = merged[4], merged[5], merged[6]
	}
	return &m
}

// lin is x[T, in]·(W + s·B·A)ᵀ for one adapted linear layer; xa = x·Aᵀ
// [T, r] is returned for the backward pass.
func (l *LoRA) lin(li, ti int, x []float32, T int) (y, xa []float32) {
	out, in := l.shapes[li][ti][0], l.shapes[li][ti][1]
	r := l.Cfg.Rank
	y = linear(x, T, in, l.Base.Layers[li].weights()[ti], out)
	xa = linear(x, T, in, l.A[li][ti].Data(), r)
	yb := linear(xa, T, r, l.B[li][ti].Data(), out)
	for i := range y {
		y[i] += l.scale * yb[i]
	}
	return y, xa
}

// linBack accumulates the adapter gradients of lin and returns dx.
func (l *LoRA) linBack(li, ti int, x, xa, dy []float32, T int, gA, gB [][][]float32) []float32 {
	out, in := l.shapes[li][ti][0], l.shapes[li][ti][1]
	r := l.Cfg.Rank
	W, A, B := l.Base.Layers[li].weights()[ti], l.A[li][ti].Data(), l.B[li][ti].Data()
	// dx = dy·W (GEMM).
	dx := make([]float32, T*in)
	blas32.Gemm(blas.NoTrans, blas.NoTrans, 1,
		blas32.General{Rows: T, Cols: out, Stride: out, Data: dy},
		blas32.General{Rows: out, Cols: in, Stride: in, Data: W},
		0, blas32.General{Rows: T, Cols: in, Stride: in, Data: dx})
	// dxa = s·dy·B [T, r]; gB += s·dyᵀ·xa; gA += dxaᵀ·x; dx += dxa·A.
	dxa := make([]float32, T*r)
	for t := range T {
		d := dy[t*out : (t+1)*out]
		for o, g := range d {
			if g == 0 {
				continue
			}
			g *= l.scale
			for k := range r {
				dxa[t*r+k] += g * B[o*r+k]
				gB[li][ti][o*r+k] += g * xa[t*r+k]
			}
		}
		for k := range r {
			g := dxa[t*r+k]
			if g == 0 {
				continue
			}
			a := A[k*in : (k+1)*in]
			xr := x[t*in : (t+1)*in]
			ga := gA[li][ti][k*in : (k+1)*in]
			row := dx[t*in : (t+1)*in]
			for i := range in {
				ga[i] += g * xr[i]
				row[i] += g * a[i]
			}
		}
	}
	return dx
}

// normFwd is RMSNorm of rows of width n, keeping each row's 1/rms.
func normFwd(x []float32, n int, w []float32, eps float64) (y, inv []float32) {
	y = make([]float32, len(x))
	inv = make([]float32, len(x)/n)
	for r := range inv {
		row := x[r*n : (r+1)*n]
		var ss float64
		for _, v := range row {
			ss += float64(v) * float64(v)
		}
		iv := float32(1 / math.Sqrt(ss/float64(n)+eps))
		inv[r] = iv
		for i, v := range row {
			y[r*n+i] = v * iv * w[i]
		}
	}
	return y, inv
}

// normBack: for y = x·r·w, r = (mean(x²)+eps)^(-1/2):
// dx = r·(dy⊙w) − x·r³/n·Σ(dy⊙w⊙x).
func normBack(x, dy []float32, n int, w, inv []float32) []float32 {
	dx := make([]float32, len(x))
	for r := range inv {
		xr, d := x[r*n:(r+1)*n], dy[r*n:(r+1)*n]
		iv := float64(inv[r])
		var dot float64
		for i := range n {
			dot += float64(d[i]) * float64(w[i]) * float64(xr[i])
		}
		c := iv * iv * iv / float64(n) * dot
		for i := range n {
			dx[r*n+i] = float32(iv*float64(d[i])*float64(w[i]) - float64(xr[i])*c)
		}
	}
	return dx
}

// ropeBack applies the transpose of rope to gradients in place.
func ropeBack(d []float32, T, heads, hd int, cos, sin []float32) {
	half := hd / 2
	tmp := make([]float32, hd)
	for t := range T {
		c, s := cos[t*hd:(t+1)*hd], sin[t*hd:(t+1)*hd]
		for h := range heads {
			v := d[(t*heads+h)*hd : (t*heads+h+1)*hd]
			for i := range half {
				tmp[i] = v[i]*c[i] + v[half+i]*s[half+i]
				tmp[half+i] = v[half+i]*c[half+i] - v[i]*s[i]
			}
			copy(v, tmp)
		}
	}
}

// forward runs the adapted model on one sequence and returns the final
// hidden state at the last position (normalised), the caches, the last
// position's pre-norm state and its 1/rms.
func (l *LoRA) forward(ids []int) ([]float32, []layerCache, []float32, float32) {
	m := l.Base
	H := m.Cfg.HiddenSize
	x, err := m.embed(ids)
	if err != nil {
		panic(err) // callers check ids with CheckTokens or CheckGroups
	}
	caches := make([]layerCache, len(m.Layers))
	m.decode(x, len(ids), l.lin, caches)
	lastX := append([]float32(nil), x[(len(ids)-1)*H:]...)
	y, inv := normFwd(lastX, H, m.Norm, m.Cfg.RMSNormEps)
	return y, caches, lastX, inv[0]
}

// CheckTokens returns an error when a token id of ids, or the yes or no
// row, lies outside the base model's vocabulary, or ids is empty. Token
// ids come from a tokenizer whose vocabulary may not be the model's: call
// it (or CheckGroups) before YesNo, ListwiseOp and ListwiseLoss, which
// treat such ids as programmer errors and panic.
func (l *LoRA) CheckTokens(ids []int, yes, no int) error {
	v := l.Base.Cfg.VocabSize
	if len(ids) == 0 {
		return fmt.Errorf("models: LoRA: empty token sequence")
	}
	for i, id := range ids {
		if id < 0 || id >= v {
			return fmt.Errorf("models: LoRA: token %d of %d has id %d, outside the vocabulary of %d", i, len(ids), id, v)
		}
	}
	for _, r := range [...]struct {
		name string
		id   int
	}{{"yes", yes}, {"no", no}} {
		if r.id < 0 || r.id >= v {
			return fmt.Errorf("models: LoRA: the %s token has id %d, outside the vocabulary of %d", r.name, r.id, v)
		}
	}
	return nil
}

// CheckGroups runs CheckTokens over every sequence of groups and checks
// that each group's Positive indexes one of its sequences.
func (l *LoRA) CheckGroups(groups []ListwiseGroup, yes, no int) error {
	for gi, g := range groups {
		if g.Positive < 0 || g.Positive >= len(g.Seqs) {
			return fmt.Errorf("models: LoRA: group %d: positive %d of %d sequences", gi, g.Positive, len(g.Seqs))
		}
		for si, s := range g.Seqs {
			if err := l.CheckTokens(s, yes, no); err != nil {
				return fmt.Errorf("group %d, sequence %d: %w", gi, si, err)
			}
		}
	}
	return nil
}

// LogOdds is YesNo with the ids checked first: ids outside the vocabulary
// are an error.
func (l *LoRA) LogOdds(ids []int, yes, no int) (float32, error) {
	if err := l.CheckTokens(ids, yes, no); err != nil {
		return 0, err
	}
	return l.YesNo(ids, yes, no), nil
}

// YesNo returns the adapted model's log-odds logit_yes − logit_no at the
// last position. ids must have passed CheckTokens.
func (l *LoRA) YesNo(ids []int, yes, no int) float32 {
	y, _, _, _ := l.forward(ids)
	return l.logOdds(y, yes, no)
}

func (l *LoRA) logOdds(y []float32, yes, no int) float32 {
	W := l.Base.head()
	H := l.Base.Cfg.HiddenSize
	var s float32
	for i, v := range y {
		s += v * (W[yes*H+i] - W[no*H+i])
	}
	return s
}

// backward propagates dz (the gradient of the log-odds of ids) into the
// adapter gradients.
func (l *LoRA) backward(ids []int, dz float32, yes, no int, gA, gB [][][]float32) {
	m := l.Base
	c := m.Cfg
	T, H, hd, nh, nkv := len(ids), c.HiddenSize, c.HeadDim, c.NumHeads, c.NumKVHeads
	group := nh / nkv
	scale := float32(1 / math.Sqrt(float64(hd)))
	_, caches, lastX, inv := l.forward(ids)
	cos, sin := RopeTables(T, hd, c.RopeTheta)
	W := m.head()
	dy := make([]float32, H)
	for i := range dy {
		dy[i] = dz * (W[yes*H+i] - W[no*H+i])
	}
	dx := make([]float32, T*H)
	copy(dx[(T-1)*H:], normBack(lastX, dy, H, m.Norm, []float32{inv}))
	for li := len(m.Layers) - 1; li >= 0; li-- {
		L, cc := m.Layers[li], &caches[li]
		// MLP.
		dact := l.linBack(li, 6, cc.act, cc.xa[6], dx, T, gA, gB)
		dgate, dup := make([]float32, len(dact)), make([]float32, len(dact))
		for i, g := range cc.gate {
			sg := 1 / (1 + float32(math.Exp(float64(-g))))
			dup[i] = dact[i] * g * sg
			dgate[i] = dact[i] * cc.up[i] * sg * (1 + g*(1-sg))
		}
		dh2 := l.linBack(li, 4, cc.h2, cc.xa[4], dgate, T, gA, gB)
		for i, v := range l.linBack(li, 5, cc.h2, cc.xa[5], dup, T, gA, gB) {
			dh2[i] += v
		}
		dmid := normBack(cc.xmid, dh2, H, L.PostNorm, cc.inv2)
		for i := range dmid {
			dmid[i] += dx[i]
		}
		// Attention.
		datt := l.linBack(li, 3, cc.att, cc.xa[3], dmid, T, gA, gB)
		dq, dk, dv := make([]float32, len(cc.q)), make([]float32, len(cc.k)), make([]float32, len(cc.v))
		for head := range nh {
			kh := head / group
			for t := range T {
				p := cc.p[t*nh+head]
				da := datt[(t*nh+head)*hd : (t*nh+head+1)*hd]
				dp := make([]float32, len(p))
				var dot float32
				for s := range p {
					vv := cc.v[(s*nkv+kh)*hd : (s*nkv+kh+1)*hd]
					dvv := dv[(s*nkv+kh)*hd : (s*nkv+kh+1)*hd]
					for i := range hd {
						dp[s] += da[i] * vv[i]
						dvv[i] += p[s] * da[i]
					}
					dot += p[s] * dp[s]
				}
				qv := cc.q[(t*nh+head)*hd : (t*nh+head+1)*hd]
				dqv := dq[(t*nh+head)*hd : (t*nh+head+1)*hd]
				for s := range p {
					ds := p[s] * (dp[s] - dot) * scale
					kv := cc.k[(s*nkv+kh)*hd : (s*nkv+kh+1)*hd]
					dkv := dk[(s*nkv+kh)*hd : (s*nkv+kh+1)*hd]
					for i := range hd {
						dqv[i] += ds * kv[i]
						dkv[i] += ds * qv[i]
					}
				}
			}
		}
		ropeBack(dq, T, nh, hd, cos, sin)
		ropeBack(dk, T, nkv, hd, cos, sin)
		dqpre := normBack(cc.qpre, dq, hd, L.QNorm, cc.qinv)
		dkpre := normBack(cc.kpre, dk, hd, L.KNorm, cc.kinv)
		dh1 := l.linBack(li, 0, cc.h1, cc.xa[0], dqpre, T, gA, gB)
		for i, v := range l.linBack(li, 1, cc.h1, cc.xa[1], dkpre, T, gA, gB) {
			dh1[i] += v
		}
		for i, v := range l.linBack(li, 2, cc.h1, cc.xa[2], dv, T, gA, gB) {
			dh1[i] += v
		}
		din := normBack(cc.xin, dh1, H, L.InputNorm, cc.inv1)
		for i := range din {
			dx[i] = dmid[i] + din[i]
		}
	}
}

// ListwiseGroup is one listwise training group: tokenized prompts, the
// index of the positive.
type ListwiseGroup struct {
	Seqs     [][]int
	Positive int
}

// ListwiseOp is the mean over groups of −log softmax(z)[positive], z the
// adapted model's log-odds of each prompt: a fused operator whose backward
// writes every adapter gradient once. groups must have passed CheckGroups (spago
// ends the process on an error inside an operator).
func (l *LoRA) ListwiseOp(groups []ListwiseGroup, yes, no int) mat.Tensor {
	return ag.NewOperator(&loraListwise{l: l, groups: groups, yes: yes, no: no}).Run()
}

type loraListwise struct {
	l       *LoRA
	groups  []ListwiseGroup
	yes, no int
	z       [][]float32
}

func (f *loraListwise) Operands() []mat.Tensor {
	var out []mat.Tensor
	for _, p := range f.l.Params() {
		out = append(out, p.Param)
	}
	return out
}

// ListwiseLoss evaluates the loss and the log-odds without gradients.
func (l *LoRA) ListwiseLoss(groups []ListwiseGroup, yes, no int) (float64, [][]float32) {
	var loss float64
	zs := make([][]float32, len(groups))
	for gi, g := range groups {
		z := make([]float32, len(g.Seqs))
		for i, s := range g.Seqs {
			z[i] = l.YesNo(s, yes, no)
		}
		zs[gi] = z
		mx, sum := maxExpSum(z)
		loss += -(float64(z[g.Positive]) - mx - math.Log(sum))
	}
	return loss / float64(len(groups)), zs
}

func (f *loraListwise) Forward() (mat.Tensor, error) {
	loss, zs := f.l.ListwiseLoss(f.groups, f.yes, f.no)
	f.z = zs
	return mat.Scalar(float32(loss)), nil
}

func (f *loraListwise) Backward(gy mat.Tensor) error {
	l := f.l
	g := float32(mat.Data[float32](gy)[0])
	gA := make([][][]float32, len(l.A))
	gB := make([][][]float32, len(l.B))
	for li := range l.A {
		for ti := range l.A[li] {
			gA[li] = append(gA[li], make([]float32, len(l.A[li][ti].Data())))
			gB[li] = append(gB[li], make([]float32, len(l.B[li][ti].Data())))
		}
	}
	for gi, grp := range f.groups {
		z := f.z[gi]
		mx, sum := maxExpSum(z)
		for i, s := range grp.Seqs {
			d := math.Exp(float64(z[i])-mx) / sum
			if i == grp.Positive {
				d--
			}
			dz := g * float32(d/float64(len(f.groups)))
			if dz != 0 {
				l.backward(s, dz, f.yes, f.no, gA, gB)
			}
		}
	}
	for li := range l.A {
		for ti := range l.A[li] {
			a, b := l.A[li][ti], l.B[li][ti]
			a.Param.AccGrad(grad(gA[li][ti], a.Shape...))
			b.Param.AccGrad(grad(gB[li][ti], b.Shape...))
		}
	}
	return nil
}

// maxExpSum returns max(z) and Σ exp(z − max) (a stable log-sum-exp's
// parts).
func maxExpSum(z []float32) (mx, sum float64) {
	mx = math.Inf(-1)
	for _, v := range z {
		mx = math.Max(mx, float64(v))
	}
	for _, v := range z {
		sum += math.Exp(float64(v) - mx)
	}
	return mx, sum
}
