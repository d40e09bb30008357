package index

import (
	"math"
	"testing"
)

// TestNaiveBayes: a posterior worked out by hand. Label 0 has two
// documents ("a b", "a"), label 1 one ("c"); alpha 1, V = 3 features.
// For "a d" (d never seen): label 0 gets 2/3 * (2+1)/(3+3) * 1/(3+3) =
// 1/18, label 1 gets 1/3 * 1/(1+3) * 1/(1+3) = 1/48, so P = 48/66 and
// 18/66. A label with no document gets -Inf; Add after the first
// LogPosterior is ignored.
func TestNaiveBayes(t *testing.T) {
	m := NewNaiveBayes(3, 1)
	m.Add(0, []string{"a", "b"})
	m.Add(0, []string{"a"})
	m.Add(1, []string{"c"})
	m.Add(5, []string{"a"}) // no such label: ignored
	out := make([]float64, 3)
	m.LogPosterior([]string{"a", "d"}, out)
	if math.Abs(out[0]-math.Log(48.0/66)) > 1e-12 || math.Abs(out[1]-math.Log(18.0/66)) > 1e-12 || !math.IsInf(out[2], -1) {
		t.Fatalf("posterior %v, want [ln 48/66, ln 18/66, -Inf]", out)
	}
	m.Add(1, []string{"a", "a", "a"})
	m.LogPosterior([]string{"a", "d"}, out)
	if math.Abs(out[0]-math.Log(48.0/66)) > 1e-12 {
		t.Errorf("Add after LogPosterior changed the model: %v", out)
	}
	// No features: the prior.
	m.LogPosterior(nil, out)
	if math.Abs(out[0]-math.Log(2.0/3)) > 1e-12 || math.Abs(out[1]-math.Log(1.0/3)) > 1e-12 {
		t.Errorf("prior %v, want [ln 2/3, ln 1/3, -Inf]", out)
	}
	// Nothing learned: every label -Inf, no NaN.
	e := NewNaiveBayes(2, 0)
	e.Add(0, nil) // a document without features still counts as one
	e2 := NewNaiveBayes(2, 0)
	for _, mm := range []*NaiveBayes{e2} {
		mm.LogPosterior([]string{"a"}, out[:2])
		if !math.IsInf(out[0], -1) || !math.IsInf(out[1], -1) {
			t.Errorf("no documents: %v, want -Inf", out[:2])
		}
	}
	e.LogPosterior([]string{"a"}, out[:2])
	if math.IsNaN(out[0]) || math.IsNaN(out[1]) || out[0] != 0 || !math.IsInf(out[1], -1) {
		t.Errorf("one featureless document of label 0: %v, want [0 -Inf]", out[:2])
	}
}
