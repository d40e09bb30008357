package train

import (
	"context"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/data/synth"
	"github.com/strata-retrieval/strata/infer/planner"
	"github.com/strata-retrieval/strata/models"
)

// TestFitDraws: the text-fit gate of FitDraws 2 is the weight-by-weight
// mean of the gate FitDraws 1 trains (the first draw: the training
// questions against the first len(questions) passages of the seeded
// shuffle of the candidates, in the seed's order) and of a gate trained
// here on the next len(questions) passages in the order of seed+1; its
// threshold passes planner.FitPassShare of the held-out passages after
// them, and with NoFitPass it is calibrated on the val questions
// (planner.CalibrateFit).
func TestFitDraws(t *testing.T) {
	ws, dir, recs, _ := minedBenchmark(t, synth.Config{Preset: "mag", Nodes: 2000, Queries: 240, Seed: 5})
	mined := minedByQID(recs)
	const seed = 4
	p, _, _, err := LinkingPlanner(context.Background(), ws, nil, LinkingPlannerOptions{Mined: mined, NoFit: true,
		Train: Config{Epochs: 1, BatchSize: 32, LR: 3e-3, Seed: seed}, Run: Options{RunDir: filepath.Join(dir, "runs", "draws"), Fingerprint: ws.Fingerprint}})
	if err != nil {
		t.Fatal(err)
	}
	qs, _ := ws.SKB.QA.Split(data.SplitTrain)
	gate := func(draws int, noPass bool) ([]float32, float32) {
		o := LinkingPlannerOptions{FitDraws: draws, NoFitPass: noPass, FitDim: 1 << 12, Train: Config{Seed: seed}}
		o.withDefaults()
		var st LinkingPlannerStats
		if err := trainFit(ws, p, qs, o, &st); err != nil {
			t.Fatal(err)
		}
		return slices.Clone(p.Fit.W.Data()), st.FitMin
	}
	w1, _ := gate(1, false)
	w2, min2 := gate(2, false)

	// The second draw, by hand.
	cands := slices.Clone(ws.Candidates)
	rand.New(rand.NewPCG(seed, 0xf17)).Shuffle(len(cands), func(i, j int) { cands[i], cands[j] = cands[j], cands[i] })
	all := planner.Passages(ws.SKB, p.Cfg.Anchors.Mentions.AliasFields, cands, 32)
	if len(all) < 2*len(qs)+100 {
		t.Fatalf("%d passages for %d questions: too few for two draws and a held-out set", len(all), len(qs))
	}
	feats := func(texts []string) [][]uint32 {
		var out [][]uint32
		for _, s := range fitTexts(texts, true) {
			out = append(out, p.FitFeatures(s))
		}
		return out
	}
	var qt []string
	for _, q := range qs {
		qt = append(qt, q.Text)
	}
	g, _ := models.NewSparseLinear(1<<12, "planner.fit")
	trainFitGate(g, feats(qt), feats(all[len(qs):2*len(qs)]), 5, 0.1, seed+1)
	var moved int
	for i, v := range g.W.Data() {
		if want := w1[i]/2 + v/2; math.Abs(float64(w2[i]-want)) > 1e-6 {
			t.Fatalf("weight %d of two draws %.7f, want the mean of %.7f and %.7f", i, w2[i], w1[i], v)
		}
		if w1[i] != w2[i] {
			moved++
		}
	}
	if moved == 0 {
		t.Fatal("two draws give the first draw's gate")
	}

	// The threshold: FitPassShare of the held-out passages (as written
	// and typed casually) pass it.
	m, _ := models.NewSparseLinear(1<<12, "planner.fit")
	copy(m.W.Data(), w2)
	var hp []float32
	for _, f := range feats(all[2*len(qs):]) {
		hp = append(hp, planner.FitProb(m, f))
	}
	if want := planner.CalibrateFitShare(hp, planner.FitPassShare); min2 != want {
		t.Errorf("threshold %.9f, want %.9f (FitPassShare of %d held-out texts)", min2, want, len(hp))
	}
	vqs, _ := ws.SKB.QA.Split(data.SplitVal)
	var vt []string
	for _, q := range vqs {
		vt = append(vt, q.Text)
	}
	var vp []float32
	for _, f := range feats(vt) {
		vp = append(vp, planner.FitProb(m, f))
	}
	if _, got := gate(2, true); got != planner.CalibrateFit(vp, hp[:min(len(hp), 2*len(vqs))], true) {
		t.Errorf("NoFitPass: threshold %.9f, want CalibrateFit's on the val questions and %d held-out texts", got, 2*len(vqs))
	}

	// The gate's readings are on by default and off with their ablations.
	for _, off := range []bool{false, true} {
		o := LinkingPlannerOptions{FitDraws: 1, NoFitQuotes: off, NoFitAskedSentences: off, NoFitAskedRequests: off, FitDim: 1 << 12, Train: Config{Seed: seed}}
		o.withDefaults()
		var st LinkingPlannerStats
		if err := trainFit(ws, p, qs, o, &st); err != nil {
			t.Fatal(err)
		}
		if f := p.Cfg.Anchors.Fit; f.Quotes == off || f.AskedSentences == off || f.AskedRequests == off {
			t.Errorf("ablations %v: Quotes %v, AskedSentences %v, AskedRequests %v", off, f.Quotes, f.AskedSentences, f.AskedRequests)
		}
	}
}
