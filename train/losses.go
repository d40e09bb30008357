package train

import (
	"fmt"
	"math"

	"github.com/nlpodyssey/spago/ag"
	"github.com/nlpodyssey/spago/mat"
)

// Each loss is one fused operator: its forward returns the scalar loss and
// its backward writes the gradient of the scores in a fixed order, so the
// result does not depend on goroutine scheduling.

func scalar(v float64) mat.Tensor { return mat.Scalar(float32(v)) }

func dataOf(x mat.Tensor) []float32 { return mat.Data[float32](x.Value()) }

func gradOf(data []float32, shape []int) mat.Tensor {
	return mat.NewDense[float32](mat.WithShape(shape...), mat.WithBacking(data))
}

// MSE is the mean squared error between pred (any shape) and target.
func MSE(pred mat.Tensor, target []float32) (mat.Tensor, error) {
	if n := pred.Value().Size(); n != len(target) || n == 0 {
		return nil, fmt.Errorf("train: MSE: %d predictions, %d targets", n, len(target))
	}
	return ag.NewOperator(&mseFn{pred: pred, target: target}).Run(), nil
}

type mseFn struct {
	pred   mat.Tensor
	target []float32
}

func (f *mseFn) Operands() []mat.Tensor { return []mat.Tensor{f.pred} }

func (f *mseFn) Forward() (mat.Tensor, error) {
	p := dataOf(f.pred)
	var s float64
	for i, v := range p {
		d := float64(v) - float64(f.target[i])
		s += d * d
	}
	return scalar(s / float64(len(p))), nil
}

func (f *mseFn) Backward(gy mat.Tensor) error {
	if !f.pred.RequiresGrad() {
		return nil
	}
	g := float64(mat.Data[float32](gy)[0])
	p := dataOf(f.pred)
	out := make([]float32, len(p))
	k := 2 * g / float64(len(p))
	for i, v := range p {
		out[i] = float32(k * (float64(v) - float64(f.target[i])))
	}
	f.pred.AccGrad(gradOf(out, f.pred.Value().Shape()))
	return nil
}

// SoftmaxCE is the mean over rows of −log softmax(scores[b])[pos[b]] for
// scores [rows, cols]: one positive among the candidates of each row.
func SoftmaxCE(scores mat.Tensor, cols int, pos []int) (mat.Tensor, error) {
	n := scores.Value().Size()
	if cols <= 0 || n != len(pos)*cols || n == 0 {
		return nil, fmt.Errorf("train: SoftmaxCE: %d scores for %d rows of %d", n, len(pos), cols)
	}
	labels := make([]bool, n)
	for r, p := range pos {
		if p < 0 || p >= cols {
			return nil, fmt.Errorf("train: SoftmaxCE: row %d positive %d outside [0, %d)", r, p, cols)
		}
		labels[r*cols+p] = true
	}
	return ListwiseSoftmax(scores, cols, labels)
}

// ListwiseSoftmax is the listwise softmax loss over groups that may hold
// several positives: for scores [groups, cols] and labels of the same shape,
// the loss of each positive p of a group is −log(e^{s_p} / (e^{s_p} +
// Σ_{n negative} e^{s_n})), averaged over all positives. Groups without a
// positive or without a negative contribute nothing.
func ListwiseSoftmax(scores mat.Tensor, cols int, labels []bool) (mat.Tensor, error) {
	n := scores.Value().Size()
	if cols <= 0 || n != len(labels) || n%cols != 0 || n == 0 {
		return nil, fmt.Errorf("train: ListwiseSoftmax: %d scores, %d labels, groups of %d", n, len(labels), cols)
	}
	return ag.NewOperator(&listwiseFn{scores: scores, cols: cols, labels: labels}).Run(), nil
}

type listwiseFn struct {
	scores mat.Tensor
	cols   int
	labels []bool
	count  int
}

func (f *listwiseFn) Operands() []mat.Tensor { return []mat.Tensor{f.scores} }

// groupTerms returns, for group g, the max score m and the sum of e^{s−m}
// over negatives.
func (f *listwiseFn) groupTerms(s []float32, g int) (float64, float64, int, int) {
	row := s[g*f.cols : (g+1)*f.cols]
	lab := f.labels[g*f.cols : (g+1)*f.cols]
	m := math.Inf(-1)
	for _, v := range row {
		m = math.Max(m, float64(v))
	}
	var neg float64
	np, nn := 0, 0
	for i, v := range row {
		if lab[i] {
			np++
		} else {
			nn++
			neg += math.Exp(float64(v) - m)
		}
	}
	return m, neg, np, nn
}

func (f *listwiseFn) Forward() (mat.Tensor, error) {
	s := dataOf(f.scores)
	var loss float64
	f.count = 0
	for g := 0; g < len(s)/f.cols; g++ {
		m, neg, np, nn := f.groupTerms(s, g)
		if np == 0 || nn == 0 {
			continue
		}
		for i := 0; i < f.cols; i++ {
			if !f.labels[g*f.cols+i] {
				continue
			}
			e := math.Exp(float64(s[g*f.cols+i]) - m)
			loss -= math.Log(e / (e + neg))
			f.count++
		}
	}
	if f.count == 0 {
		return scalar(0), nil
	}
	return scalar(loss / float64(f.count)), nil
}

func (f *listwiseFn) Backward(gy mat.Tensor) error {
	if !f.scores.RequiresGrad() || f.count == 0 {
		return nil
	}
	gscale := float64(mat.Data[float32](gy)[0]) / float64(f.count)
	s := dataOf(f.scores)
	out := make([]float64, len(s))
	for g := 0; g < len(s)/f.cols; g++ {
		m, neg, np, nn := f.groupTerms(s, g)
		if np == 0 || nn == 0 {
			continue
		}
		for i := 0; i < f.cols; i++ {
			if !f.labels[g*f.cols+i] {
				continue
			}
			e := math.Exp(float64(s[g*f.cols+i]) - m)
			z := e + neg
			// d/ds_p = −(1 − e/z); d/ds_n = e^{s_n−m}/z
			out[g*f.cols+i] -= gscale * (1 - e/z)
			for j := 0; j < f.cols; j++ {
				if !f.labels[g*f.cols+j] {
					out[g*f.cols+j] += gscale * math.Exp(float64(s[g*f.cols+j])-m) / z
				}
			}
		}
	}
	o32 := make([]float32, len(out))
	for i, v := range out {
		o32[i] = float32(v)
	}
	f.scores.AccGrad(gradOf(o32, f.scores.Value().Shape()))
	return nil
}

// InfoNCE is the in-batch contrastive loss for emb [2B, D] whose first B rows
// are queries and last B rows their positive documents: logits = q·dᵀ / τ,
// softmax cross-entropy with the diagonal as positives, averaged over
// queries. Every other document of the batch is a negative.
func InfoNCE(emb mat.Tensor, batch, dim int, temperature float64) (mat.Tensor, error) {
	if n := emb.Value().Size(); n != 2*batch*dim || batch == 0 {
		return nil, fmt.Errorf("train: InfoNCE: %d values for 2×%d×%d", n, batch, dim)
	}
	if temperature <= 0 {
		return nil, fmt.Errorf("train: InfoNCE: temperature %v must be positive", temperature)
	}
	return ag.NewOperator(&infoNCEFn{emb: emb, b: batch, d: dim, tau: temperature}).Run(), nil
}

type infoNCEFn struct {
	emb      mat.Tensor
	b, d     int
	tau      float64
	probs    []float64 // softmax rows [b, b]
	loss     float64
	computed bool
}

func (f *infoNCEFn) Operands() []mat.Tensor { return []mat.Tensor{f.emb} }

func (f *infoNCEFn) forward() {
	e := dataOf(f.emb)
	q, d := e[:f.b*f.d], e[f.b*f.d:]
	f.probs = make([]float64, f.b*f.b)
	f.loss = 0
	for i := 0; i < f.b; i++ {
		row := f.probs[i*f.b : (i+1)*f.b]
		m := math.Inf(-1)
		for j := 0; j < f.b; j++ {
			var s float64
			for k := 0; k < f.d; k++ {
				s += float64(q[i*f.d+k]) * float64(d[j*f.d+k])
			}
			row[j] = s / f.tau
			m = math.Max(m, row[j])
		}
		var z float64
		for j := range row {
			row[j] = math.Exp(row[j] - m)
			z += row[j]
		}
		for j := range row {
			row[j] /= z
		}
		f.loss -= math.Log(row[i])
	}
	f.loss /= float64(f.b)
}

func (f *infoNCEFn) Forward() (mat.Tensor, error) {
	f.forward()
	return scalar(f.loss), nil
}

func (f *infoNCEFn) Backward(gy mat.Tensor) error {
	if !f.emb.RequiresGrad() {
		return nil
	}
	g := float64(mat.Data[float32](gy)[0]) / float64(f.b) / f.tau
	e := dataOf(f.emb)
	q, d := e[:f.b*f.d], e[f.b*f.d:]
	out := make([]float64, 2*f.b*f.d)
	gq, gd := out[:f.b*f.d], out[f.b*f.d:]
	for i := 0; i < f.b; i++ {
		for j := 0; j < f.b; j++ {
			c := f.probs[i*f.b+j]
			if i == j {
				c -= 1
			}
			c *= g
			for k := 0; k < f.d; k++ {
				gq[i*f.d+k] += c * float64(d[j*f.d+k])
				gd[j*f.d+k] += c * float64(q[i*f.d+k])
			}
		}
	}
	o32 := make([]float32, len(out))
	for i, v := range out {
		o32[i] = float32(v)
	}
	f.emb.AccGrad(gradOf(o32, f.emb.Value().Shape()))
	return nil
}
