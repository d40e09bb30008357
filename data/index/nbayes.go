package index

import (
	"fmt"
	"math"
	"sync"
)

// NaiveBayes is a multinomial naive Bayes model of a label given a text's
// features (any strings: tokens, stems, marked opening words), with
// additive (Lidstone) smoothing: P(y | f1..fn) is proportional to
// P(y) * prod_i (count(y, fi) + alpha) / (total(y) + alpha * V), V the
// number of distinct features seen in training (at least 1). A feature never seen in
// training still counts, as alpha / (total(y) + alpha * V): a label with
// less training text is less surprised by it, so words no training text
// used lean a little toward the labels with the least text.
type NaiveBayes struct {
	alpha  float64
	labels int
	vocab  map[string]int32
	counts []float64 // [feature*labels + label]
	docs   []float64 // documents per label
	totals []float64 // feature occurrences per label
	frozen bool
	once   sync.Once
	logPri []float64
	logDen []float64 // ln(total(y) + alpha*V)
}

// NewNaiveBayes returns an empty model over labels 0..labels-1; alpha <= 0
// means 0.1.
func NewNaiveBayes(labels int, alpha float64) *NaiveBayes {
	if alpha <= 0 {
		alpha = 0.1
	}
	return &NaiveBayes{alpha: alpha, labels: labels, vocab: map[string]int32{},
		docs: make([]float64, labels), totals: make([]float64, labels)}
}

// Add counts one training document of label y. It must not be called
// after LogPosterior.
func (m *NaiveBayes) Add(y int, feats []string) {
	if m.frozen || y < 0 || y >= m.labels {
		return
	}
	m.docs[y]++
	for _, f := range feats {
		id, ok := m.vocab[f]
		if !ok {
			id = int32(len(m.vocab))
			m.vocab[f] = id
			m.counts = append(m.counts, make([]float64, m.labels)...)
		}
		m.counts[int(id)*m.labels+y]++
		m.totals[y]++
	}
}

// Docs returns the number of training documents added.
func (m *NaiveBayes) Docs() int {
	var n float64
	for _, d := range m.docs {
		n += d
	}
	return int(n)
}

// Labels returns the number of labels.
func (m *NaiveBayes) Labels() int { return m.labels }

func (m *NaiveBayes) freeze() {
	m.once.Do(m.doFreeze)
}

func (m *NaiveBayes) doFreeze() {
	m.frozen = true
	var n float64
	for _, d := range m.docs {
		n += d
	}
	v := float64(max(len(m.vocab), 1)) // at least one feature: a denominator above 0
	m.logPri = make([]float64, m.labels)
	m.logDen = make([]float64, m.labels)
	for y := range m.labels {
		if m.docs[y] == 0 {
			m.logPri[y] = math.Inf(-1)
		} else {
			m.logPri[y] = math.Log(m.docs[y] / n)
		}
		m.logDen[y] = math.Log(m.totals[y] + m.alpha*v)
	}
}

// LogPosterior writes into out (len Labels) ln P(y | feats) for every
// label y, normalised to sum to one; a label with no training document
// gets -Inf (every label, when no document was added). out must hold
// Labels values. The model takes no more Add calls once this is called; it is
// then safe for concurrent use.
func (m *NaiveBayes) LogPosterior(feats []string, out []float64) {
	if len(out) != m.labels {
		panic(fmt.Sprintf("index: NaiveBayes.LogPosterior: %d outputs for %d labels", len(out), m.labels))
	}
	m.freeze()
	copy(out, m.logPri)
	if m.Docs() == 0 {
		return // every label -Inf: nothing was learned
	}
	la := math.Log(m.alpha)
	for _, f := range feats {
		id, ok := m.vocab[f]
		for y := range m.labels {
			c := la
			if ok {
				c = math.Log(m.counts[int(id)*m.labels+y] + m.alpha)
			}
			out[y] += c - m.logDen[y]
		}
	}
	hi := math.Inf(-1)
	for _, v := range out {
		hi = max(hi, v)
	}
	if math.IsInf(hi, -1) {
		return
	}
	var z float64
	for _, v := range out {
		z += math.Exp(v - hi)
	}
	z = hi + math.Log(z)
	for y := range out {
		out[y] -= z
	}
}
