package models

import (
	"context"
	"fmt"
	"math"
	"sync"

	"github.com/strata-retrieval/strata/internal/gemm"
	"github.com/strata-retrieval/strata/internal/parallel"
)

// attnBlock is the attention kernel's query block: the scores of attnBlock
// queries against every key the last of them sees are one GEMM.
const attnBlock = 64

// attnShape is one attention call: T queries, row t at position pos0+t,
// over the keys and values of positions 0..pos0+T−1; nh query heads of
// width hd share nkv key/value heads (head h reads kv head h/(nh/nkv)).
// Queries and outputs are [T, nh·hd], keys and values [pos0+T, nkv·hd].
type attnShape struct {
	T, pos0, nh, nkv, hd int
}

func (s attnShape) blocks() int { return ceilDiv(s.T, attnBlock) }

func (s attnShape) check(q, k, v, out, lse []float32) {
	qd, kd, nk := s.nh*s.hd, s.nkv*s.hd, s.pos0+s.T
	if s.T < 1 || s.pos0 < 0 || s.nkv < 1 || s.nh%s.nkv != 0 || len(q) < s.T*qd || len(out) < s.T*qd ||
		len(k) < nk*kd || len(v) < nk*kd || (lse != nil && len(lse) < s.T*s.nh) {
		panic(fmt.Sprintf("models: attention %+v: len(q)=%d len(k)=%d len(v)=%d len(out)=%d len(lse)=%d", s, len(q), len(k), len(v), len(out), len(lse)))
	}
}

var serial = gemm.Config{Threads: 1}

// scorePool holds the kernels' score blocks ([attnBlock, keys]).
var scorePool sync.Pool

func scores(n int) *[]float32 {
	if p, ok := scorePool.Get().(*[]float32); ok && cap(*p) >= n {
		*p = (*p)[:n]
		return p
	}
	s := make([]float32, n)
	return &s
}

// attend is causal scaled dot-product attention: out[t, h] =
// Σ_{s ≤ pos0+t} softmax_s(q[t,h]·k[s,kh]/√hd)·v[s,kh], and, when lse is
// not nil, lse[t·nh+h] = the log of the softmax's normaliser (the backward
// pass rebuilds the probabilities from it). Work is split into (head,
// query block) tasks on up to threads goroutines (0: GOMAXPROCS); each
// output element is written by one task, so results do not depend on
// threads.
func attend(threads int, s attnShape, q, k, v, out, lse []float32) {
	s.check(q, k, v, out, lse)
	nb := s.blocks()
	parallel.Chunks(context.Background(), s.nh*nb, 1, threads, func(lo, hi int) {
		for task := lo; task < hi; task++ {
			i0 := task % nb * attnBlock
			attendBlock(s, task/nb, i0, min(i0+attnBlock, s.T), q, k, v, out, lse)
		}
	})
}

// attendBlock computes head h's outputs for queries i0..i1−1.
func attendBlock(s attnShape, h, i0, i1 int, q, k, v, out, lse []float32) {
	hd, qd, kd := s.hd, s.nh*s.hd, s.nkv*s.hd
	kh, nk, bq := h/(s.nh/s.nkv), s.pos0+i1, i1-i0
	scale := float32(1 / math.Sqrt(float64(hd)))
	buf := scores(bq * nk)
	S := *buf
	serial.Sgemm(gemm.NoTrans, gemm.Trans, bq, nk, hd, scale, q[i0*qd+h*hd:], qd, k[kh*hd:], kd, 0, S, nk)
	for i := range bq {
		l := causalSoftmax(S[i*nk:(i+1)*nk], s.pos0+i0+i+1)
		if lse != nil {
			lse[(i0+i)*s.nh+h] = l
		}
	}
	serial.Sgemm(gemm.NoTrans, gemm.NoTrans, bq, hd, nk, 1, S, nk, v[kh*hd:], kd, 0, out[i0*qd+h*hd:], qd)
	scorePool.Put(buf)
}

// causalSoftmax replaces row[:n] by its softmax and zeroes row[n:] (the
// keys a query must not see); it returns the log of the normaliser,
// max + log Σ exp(x − max).
func causalSoftmax(row []float32, n int) float32 {
	mx := float32(math.Inf(-1))
	for _, x := range row[:n] {
		mx = max(mx, x)
	}
	z := expNegSub(row[:n], row[:n], mx)
	inv := 1 / z
	for i := range row[:n] {
		row[i] *= inv
	}
	clear(row[n:])
	return mx + float32(math.Log(float64(z)))
}

// attendBack is attend's backward pass (pos0 = 0): from the forward's q, k,
// v, out and lse and the output gradient dout it writes dq, dk and dv
// (overwriting them). The probabilities are rebuilt block by block from
// lse, never stored. One task per kv head runs its query heads and blocks
// in a fixed order, so the sums into dk and dv do not depend on threads.
func attendBack(threads int, s attnShape, q, k, v, out, lse, dout, dq, dk, dv []float32) {
	s.check(q, k, v, out, lse)
	s.check(dq, dk, dv, dout, lse)
	group := s.nh / s.nkv
	parallel.Chunks(context.Background(), s.nkv, 1, threads, func(lo, hi int) {
		for kh := lo; kh < hi; kh++ {
			for t := range s.T {
				clear(dk[(t*s.nkv+kh)*s.hd : (t*s.nkv+kh+1)*s.hd])
				clear(dv[(t*s.nkv+kh)*s.hd : (t*s.nkv+kh+1)*s.hd])
			}
			for h := kh * group; h < (kh+1)*group; h++ {
				for i0 := 0; i0 < s.T; i0 += attnBlock {
					attendBlockBack(s, h, i0, min(i0+attnBlock, s.T), q, k, v, out, lse, dout, dq, dk, dv)
				}
			}
		}
	})
}

// attendBlockBack adds head h's queries i0..i1−1 to the gradients: with P
// the block's probabilities, dP = dO·Vᵀ, dS = P ⊙ (dP − rowsum(dO ⊙ O))/√hd,
// dV += Pᵀ·dO, dQ = dS·K, dK += dSᵀ·Q.
func attendBlockBack(s attnShape, h, i0, i1 int, q, k, v, out, lse, dout, dq, dk, dv []float32) {
	hd, qd, kd := s.hd, s.nh*s.hd, s.nkv*s.hd
	kh, nk, bq := h/(s.nh/s.nkv), i1, i1-i0
	scale := float32(1 / math.Sqrt(float64(hd)))
	pb, db := scores(bq*nk), scores(bq*nk)
	P, dP := *pb, *db
	qo, ko := i0*qd+h*hd, kh*hd
	serial.Sgemm(gemm.NoTrans, gemm.Trans, bq, nk, hd, scale, q[qo:], qd, k[ko:], kd, 0, P, nk)
	serial.Sgemm(gemm.NoTrans, gemm.Trans, bq, nk, hd, 1, dout[qo:], qd, v[ko:], kd, 0, dP, nk)
	for i := range bq {
		t := i0 + i
		p, dp := P[i*nk:(i+1)*nk], dP[i*nk:(i+1)*nk]
		l := lse[t*s.nh+h]
		var D float32
		for j, o := range out[t*qd+h*hd : t*qd+(h+1)*hd] {
			D += o * dout[t*qd+h*hd+j]
		}
		for j := range p[:t+1] {
			p[j] = expNeg(p[j] - l)
			dp[j] = p[j] * (dp[j] - D) * scale
		}
		clear(p[t+1:])
		clear(dp[t+1:])
	}
	serial.Sgemm(gemm.Trans, gemm.NoTrans, nk, hd, bq, 1, P, nk, dout[qo:], qd, 1, dv[ko:], kd)
	serial.Sgemm(gemm.NoTrans, gemm.NoTrans, bq, hd, nk, 1, dP, nk, k[ko:], kd, 0, dq[qo:], qd)
	serial.Sgemm(gemm.Trans, gemm.NoTrans, nk, hd, bq, 1, dP, nk, q[qo:], qd, 1, dk[ko:], kd)
	scorePool.Put(pb)
	scorePool.Put(db)
}

// expf is e^x in float32 (Cephes' expf: x = n·ln2 + r, |r| ≤ ln2/2, a
// degree-6 polynomial for e^r; relative error about 1e-7): 0 below −87.3,
// +Inf above 88.7.
func expf(x float32) float32 {
	switch {
	case x < -87.33654:
		return 0
	case x > 88.72283:
		return float32(math.Inf(1))
	case x != x:
		return x
	}
	fx := x*1.44269504088896341 + 0.5
	n := int32(fx)
	if float32(n) > fx {
		n--
	}
	fn := float32(n)
	r := x - fn*0.693359375 + fn*2.12194440e-4
	p := float32(1.9875691500e-4)
	p = p*r + 1.3981999507e-3
	p = p*r + 8.3334519073e-3
	p = p*r + 4.1665795894e-2
	p = p*r + 1.6666665459e-1
	p = p*r + 5.0000001201e-1
	y := p*r*r + r + 1
	if n == 128 { // e^x just under the float32 maximum: scale in two steps
		return y * 2 * math.Float32frombits(254<<23)
	}
	return y * math.Float32frombits(uint32(n+127)<<23)
}

// expNeg is expf for x ≤ 0 (a hair above 0 from rounding is fine), the
// softmax case, without branches: n = round(x·log2 e) by the 1.5·2²³
// trick, then the same polynomial. Below −87.3 it returns about 1e-38
// instead of 0.
func expNeg(x float32) float32 {
	const magic = 12582912 // 1.5·2²³: adding it rounds to an integer
	x = max(x, -87.33654)
	t := x*1.44269504088896341 + magic
	n := int32(math.Float32bits(t)) - 0x4B400000
	fn := t - magic
	r := x - fn*0.693359375 + fn*2.12194440e-4
	p := float32(1.9875691500e-4)
	p = p*r + 1.3981999507e-3
	p = p*r + 8.3334519073e-3
	p = p*r + 4.1665795894e-2
	p = p*r + 1.6666665459e-1
	p = p*r + 5.0000001201e-1
	return (p*r*r + r + 1) * math.Float32frombits(uint32(n+127)<<23)
}

// expNegSub writes expNeg(src[i] − mx) to dst[i] (dst may be src) and
// returns their sum: eight lanes at a time with AVX2 where the CPU has it
// (the same float32 operations as expNeg, so the same values), the lanes
// summed in a fixed order, then the rest one by one.
func expNegSub(dst, src []float32, mx float32) float32 {
	n8, l := expNegSubVec(dst, src, mx)
	z := ((l[0] + l[1]) + (l[2] + l[3])) + ((l[4] + l[5]) + (l[6] + l[7]))
	for i := n8; i < len(src); i++ {
		e := expNeg(src[i] - mx)
		dst[i] = e
		z += e
	}
	return z
}

func ceilDiv(a, b int) int { return (a + b - 1) / b }
