package models

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"sync"

	"github.com/nlpodyssey/spago/ag"
	"github.com/nlpodyssey/spago/mat"

	"github.com/strata-retrieval/strata/internal/gemm"
	"github.com/strata-retrieval/strata/internal/parallel"
)

// LoRAConfig sets the adapters: rank r and alpha (the update is
// (alpha/r)·B·A), on every linear layer of every decoder layer.
type LoRAConfig struct {
	Rank  int     `json:"rank"`
	Alpha float64 `json:"alpha"`
	// Threads runs the listwise loss and its backward pass over this many
	// sequences at once (0: GOMAXPROCS). Gradients are bit-identical for a
	// given value; it is not saved with checkpoints.
	Threads int `json:"-"`
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

// lin is x[T, in]·(W + s·B·A)ᵀ for one adapted linear layer, into y;
// xa = x·Aᵀ [T, r] is returned for the backward pass.
func (l *LoRA) lin(gc gemm.Config, li, ti int, x []float32, T int, y []float32) []float32 {
	out, in := l.shapes[li][ti][0], l.shapes[li][ti][1]
	r := l.Cfg.Rank
	linear(gc, x, T, in, l.Base.Layers[li].weights()[ti], out, y)
	xa := make([]float32, T*r)
	linear(gc, x, T, in, l.A[li][ti].Data(), r, xa)
	gc.Sgemm(gemm.NoTrans, gemm.Trans, T, out, r, l.scale, xa, r, l.B[li][ti].Data(), r, 1, y, out)
	return xa
}

// loraGrads holds adapter gradients, [layer][target].
type loraGrads struct{ a, b [][][]float32 }

func (l *LoRA) newGrads() *loraGrads {
	g := &loraGrads{a: make([][][]float32, len(l.A)), b: make([][][]float32, len(l.B))}
	for li := range l.A {
		for ti := range l.A[li] {
			g.a[li] = append(g.a[li], make([]float32, len(l.A[li][ti].Data())))
			g.b[li] = append(g.b[li], make([]float32, len(l.B[li][ti].Data())))
		}
	}
	return g
}

// add adds o to g.
func (g *loraGrads) add(o *loraGrads) {
	for li := range g.a {
		for ti := range g.a[li] {
			addTo(g.a[li][ti], o.a[li][ti])
			addTo(g.b[li][ti], o.b[li][ti])
		}
	}
}

// linBack adds lin's adapter gradients to g and writes dx = dy·W +
// s·(dy·B)·A, or adds it to dx when acc:
// gB += s·dyᵀ·xa, gA += (s·dy·B)ᵀ·x.
func (l *LoRA) linBack(gc gemm.Config, li, ti int, x, xa, dy []float32, T int, g *loraGrads, dx []float32, acc bool) {
	out, in := l.shapes[li][ti][0], l.shapes[li][ti][1]
	r := l.Cfg.Rank
	W, A, B := l.Base.Layers[li].weights()[ti], l.A[li][ti].Data(), l.B[li][ti].Data()
	var beta float32
	if acc {
		beta = 1
	}
	gc.Sgemm(gemm.NoTrans, gemm.NoTrans, T, in, out, 1, dy, out, W, in, beta, dx, in)
	dxa := make([]float32, T*r)
	gc.Sgemm(gemm.NoTrans, gemm.NoTrans, T, r, out, l.scale, dy, out, B, r, 0, dxa, r)
	gc.Sgemm(gemm.Trans, gemm.NoTrans, out, r, T, l.scale, dy, out, xa, r, 1, g.b[li][ti], r)
	gc.Sgemm(gemm.Trans, gemm.NoTrans, r, in, T, 1, dxa, r, x, in, 1, g.a[li][ti], in)
	gc.Sgemm(gemm.NoTrans, gemm.NoTrans, T, in, r, 1, dxa, r, A, in, 1, dx, in)
}

// normFwd is RMSNorm of rows of width n, keeping each row's 1/rms.
func normFwd(x []float32, n int, w []float32, eps float64) (y, inv []float32) {
	y, inv = make([]float32, len(x)), make([]float32, len(x)/n)
	normInto(y, inv, x, n, w, eps)
	return y, inv
}

// normInto writes RMSNorm of the rows of x (width n) into y and each
// row's 1/rms into inv.
func normInto(y, inv, x []float32, n int, w []float32, eps float64) {
	for r := range len(x) / n {
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

// forward runs the adapted model on one sequence, its GEMMs on gc's
// threads, and returns the final hidden state at the last position
// (normalised), the layers' activations when keep, the last position's
// pre-norm state and its 1/rms.
func (l *LoRA) forward(gc gemm.Config, ids []int, keep bool) ([]float32, []*layerCache, []float32, float32) {
	m := l.Base
	H := m.Cfg.HiddenSize
	x, err := m.embed(ids)
	if err != nil {
		panic(err) // callers check ids with CheckTokens or CheckGroups
	}
	var caches []*layerCache
	if keep {
		caches = make([]*layerCache, len(m.Layers))
	}
	pass{m: m, lin: l.lin, gc: gc}.decode(x, 0, len(ids), nil, caches)
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
	y, _, _, _ := l.forward(gemm.Config{}, ids, false)
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
// adapter gradients g, its GEMMs and attention on gc's threads. The
// forward pass is run again here (one sequence's activations at a time).
func (l *LoRA) backward(gc gemm.Config, ids []int, dz float32, yes, no int, g *loraGrads) {
	m := l.Base
	c := m.Cfg
	T, H := len(ids), c.HiddenSize
	_, caches, lastX, inv := l.forward(gc, ids, true)
	cos, sin := RopeTables(T, c.HeadDim, c.RopeTheta)
	W := m.head()
	dy := make([]float32, H)
	for i := range dy {
		dy[i] = dz * (W[yes*H+i] - W[no*H+i])
	}
	dx := make([]float32, T*H)
	copy(dx[(T-1)*H:], normBack(lastX, dy, H, m.Norm, []float32{inv}))
	for li := len(m.Layers) - 1; li >= 0; li-- {
		dmid := l.mlpBack(gc, li, caches[li], dx, T, g)
		l.attnBack(gc, li, caches[li], dmid, T, cos, sin, g, dx)
		caches[li] = nil // its activations are no longer needed
	}
}

// mlpBack returns the gradient at layer li's MLP input x_mid (through the
// block and the residual) from dx, the gradient at the layer's output.
func (l *LoRA) mlpBack(gc gemm.Config, li int, cc *layerCache, dx []float32, T int, g *loraGrads) []float32 {
	L, c := &l.Base.Layers[li], l.Base.Cfg
	H, I := c.HiddenSize, c.IntermediateSize
	dact := make([]float32, T*I)
	l.linBack(gc, li, 6, cc.act, cc.xa[6], dx, T, g, dact, false)
	dgate, dup := make([]float32, T*I), make([]float32, T*I)
	for i, gv := range cc.gate {
		sg := 1 / (1 + expf(-gv))
		dup[i] = dact[i] * gv * sg
		dgate[i] = dact[i] * cc.up[i] * sg * (1 + gv*(1-sg))
	}
	dh2 := make([]float32, T*H)
	l.linBack(gc, li, 4, cc.h2, cc.xa[4], dgate, T, g, dh2, false)
	l.linBack(gc, li, 5, cc.h2, cc.xa[5], dup, T, g, dh2, true)
	dmid := normBack(cc.xmid, dh2, H, L.PostNorm, cc.inv2)
	addTo(dmid, dx)
	return dmid
}

// attnBack writes into dx the gradient at layer li's input from dmid, the
// gradient at its attention block's output (residual included).
func (l *LoRA) attnBack(gc gemm.Config, li int, cc *layerCache, dmid []float32, T int, cos, sin []float32, g *loraGrads, dx []float32) {
	L, c := &l.Base.Layers[li], l.Base.Cfg
	H, hd, nh, nkv := c.HiddenSize, c.HeadDim, c.NumHeads, c.NumKVHeads
	datt := make([]float32, T*nh*hd)
	l.linBack(gc, li, 3, cc.att, cc.xa[3], dmid, T, g, datt, false)
	dq, dk, dv := make([]float32, len(cc.q)), make([]float32, len(cc.k)), make([]float32, len(cc.v))
	attendBack(gc.Threads, attnShape{T: T, nh: nh, nkv: nkv, hd: hd}, cc.q, cc.k, cc.v, cc.att, cc.lse, datt, dq, dk, dv)
	ropeBack(dq, T, nh, hd, cos, sin)
	ropeBack(dk, T, nkv, hd, cos, sin)
	dqpre := normBack(cc.qpre, dq, hd, L.QNorm, cc.qinv)
	dkpre := normBack(cc.kpre, dk, hd, L.KNorm, cc.kinv)
	dh1 := make([]float32, T*H)
	l.linBack(gc, li, 0, cc.h1, cc.xa[0], dqpre, T, g, dh1, false)
	l.linBack(gc, li, 1, cc.h1, cc.xa[1], dkpre, T, g, dh1, true)
	l.linBack(gc, li, 2, cc.h1, cc.xa[2], dv, T, g, dh1, true)
	din := normBack(cc.xin, dh1, H, L.InputNorm, cc.inv1)
	for i := range dx {
		dx[i] = dmid[i] + din[i]
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

// ListwiseLoss evaluates the loss and the log-odds without gradients,
// the sequences on Cfg.Threads goroutines (each sequence's log-odds does
// not depend on that number).
func (l *LoRA) ListwiseLoss(groups []ListwiseGroup, yes, no int) (float64, [][]float32) {
	zs := make([][]float32, len(groups))
	var items []seqItem
	for gi, g := range groups {
		zs[gi] = make([]float32, len(g.Seqs))
		for si := range g.Seqs {
			items = append(items, seqItem{gi: gi, si: si})
		}
	}
	workers, gc := l.split(len(items))
	parallel.Chunks(context.Background(), len(items), 1, workers, func(lo, hi int) {
		for _, it := range items[lo:hi] {
			y, _, _, _ := l.forward(gc, groups[it.gi].Seqs[it.si], false)
			zs[it.gi][it.si] = l.logOdds(y, yes, no)
		}
	})
	var loss float64
	for gi, g := range groups {
		mx, sum := maxExpSum(zs[gi])
		loss += -(float64(zs[gi][g.Positive]) - mx - math.Log(sum))
	}
	return loss / float64(len(groups)), zs
}

// seqItem is sequence si of group gi, with the gradient of its log-odds.
type seqItem struct {
	gi, si int
	dz     float32
}

// split shares Cfg.Threads between sequences run at once (workers) and
// the GEMM threads of each.
func (l *LoRA) split(n int) (workers int, gc gemm.Config) {
	t := l.Cfg.Threads
	if t <= 0 {
		t = runtime.GOMAXPROCS(0)
	}
	workers = max(1, min(t, n))
	return workers, gemm.Config{Threads: max(1, t/workers)}
}

func (f *loraListwise) Forward() (mat.Tensor, error) {
	loss, zs := f.l.ListwiseLoss(f.groups, f.yes, f.no)
	f.z = zs
	return mat.Scalar(float32(loss)), nil
}

// Backward runs the sequences' backward passes on Cfg.Threads workers:
// worker w takes sequences w, w+W, w+2W, … into its own gradients, and
// the workers' gradients are summed in order, so the result is
// bit-identical for a given thread count.
func (f *loraListwise) Backward(gy mat.Tensor) error {
	l := f.l
	items := f.items(mat.Data[float32](gy)[0])
	workers, gc := l.split(len(items))
	grads := make([]*loraGrads, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			grads[w] = l.newGrads()
			for i := w; i < len(items); i += workers {
				it := items[i]
				l.backward(gc, f.groups[it.gi].Seqs[it.si], it.dz, f.yes, f.no, grads[w])
			}
		}()
	}
	wg.Wait()
	for _, gw := range grads[1:] {
		grads[0].add(gw)
	}
	for li := range l.A {
		for ti := range l.A[li] {
			a, b := l.A[li][ti], l.B[li][ti]
			a.Param.AccGrad(grad(grads[0].a[li][ti], a.Shape...))
			b.Param.AccGrad(grad(grads[0].b[li][ti], b.Shape...))
		}
	}
	return nil
}

// items lists the sequences whose log-odds have a non-zero gradient
// (g·(softmax(z) − onehot(positive))/groups).
func (f *loraListwise) items(g float32) []seqItem {
	var out []seqItem
	for gi, grp := range f.groups {
		z := f.z[gi]
		mx, sum := maxExpSum(z)
		for i := range grp.Seqs {
			d := math.Exp(float64(z[i])-mx) / sum
			if i == grp.Positive {
				d--
			}
			if dz := g * float32(d/float64(len(f.groups))); dz != 0 {
				out = append(out, seqItem{gi: gi, si: i, dz: dz})
			}
		}
	}
	return out
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
