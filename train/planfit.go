package train

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"

	"github.com/strata-retrieval/strata/checkpoints"
	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/graphops/workspace"
	"github.com/strata-retrieval/strata/infer/planner"
	"github.com/strata-retrieval/strata/models"
)

// trainFitGate trains the text-fit gate (planner.FitProb) by logistic
// regression with AdaGrad, epochs passes over the examples in a seeded
// order: pos are texts the planner plans, neg texts no plan fits. It
// returns the last epoch's mean loss.
func trainFitGate(m *models.SparseLinear, pos, neg [][]uint32, epochs int, lr float64, seed uint64) float64 {
	type example struct {
		f []uint32
		y float64
	}
	exs := make([]example, 0, len(pos)+len(neg))
	for _, f := range pos {
		exs = append(exs, example{f, 1})
	}
	for _, f := range neg {
		exs = append(exs, example{f, 0})
	}
	w := m.W.Data()
	acc := make([]float32, len(w))
	g := make([]float32, len(w))
	rng := rand.New(rand.NewPCG(seed, 0xf17))
	var loss float64
	for range epochs {
		rng.Shuffle(len(exs), func(i, j int) { exs[i], exs[j] = exs[j], exs[i] })
		loss = 0
		for _, e := range exs {
			p := 1 / (1 + math.Exp(-float64(m.Score(e.f))))
			loss -= e.y*math.Log(max(p, 1e-12)) + (1-e.y)*math.Log(max(1-p, 1e-12))
			for _, f := range e.f {
				g[f] += float32(p - e.y)
			}
			adagrad(w, acc, g, [][]uint32{e.f}, lr)
		}
		loss /= float64(max(len(exs), 1))
	}
	return loss
}

// fitTexts are the texts the text-fit gate learns from or is calibrated
// on: texts, and with casual each followed by its casual form
// (planner.CasualForm; FitConfig.Casual).
func fitTexts(texts []string, casual bool) []string {
	if !casual {
		return texts
	}
	out := make([]string, 0, 2*len(texts))
	for _, t := range texts {
		out = append(out, t, planner.CasualForm(t))
	}
	return out
}

// fitHeldMax bounds the held-out passages the gate's threshold is
// calibrated on (planner.FitPassShare).
const fitHeldMax = 1 << 16

// trainFit trains the planner's text-fit gate (planner.FitConfig): the
// mean of FitDraws gates, each trained on the training questions against
// as many passages of the SKB's candidates, its own draw of them; its
// threshold passes planner.FitPassShare of up to fitHeldMax passages of
// other candidates (a seeded draw, disjoint from the training's). With
// NoFitPass the threshold is calibrated as before it: on the validation
// questions against as many passages (planner.CalibrateFit).
func trainFit(ws *workspace.Workspace, p *planner.LinkingPlanner, qs []data.Query, o LinkingPlannerOptions, st *LinkingPlannerStats) error {
	vqs, err := ws.SKB.QA.Split(o.ValSplit)
	if err != nil {
		return err
	}
	cands := slices.Clone(ws.Candidates)
	rand.New(rand.NewPCG(o.Train.Seed, 0xf17)).Shuffle(len(cands), func(i, j int) { cands[i], cands[j] = cands[j], cands[i] })
	alias := p.Cfg.Anchors.Mentions.AliasFields
	draws := max(o.FitDraws, 1)
	nheld := len(vqs)
	if !o.NoFitPass {
		nheld = fitHeldMax
	}
	// The passages, in the seeded order: the training's pool first, then
	// the held-out ones. The pool holds the draws end to end where that
	// leaves nheld passages, or half of them, held out, and is cut where
	// it would not (a small SKB): the draws then overlap, spread evenly
	// over it.
	n := len(qs)
	var all []string
	for i := 0; i < len(cands) && len(all) < draws*n+nheld; i += 64 {
		all = append(all, planner.Passages(ws.SKB, alias, cands[i:min(i+64, len(cands))], 32)...)
	}
	all = all[:min(len(all), draws*n+nheld)]
	pool := min(len(all), draws*n, max(n, len(all)-min(nheld, len(all)/2)))
	train, held := all[:pool], all[pool:]
	draw := func(k int) []string {
		at := 0
		if draws > 1 {
			at = k * max(pool-n, 0) / (draws - 1)
		}
		return train[at:min(at+n, pool)]
	}
	fit, err := models.NewSparseLinear(o.FitDim, "planner.fit")
	if err != nil {
		return err
	}
	casual := !o.NoCasualFit
	p.Cfg.Anchors.Fit = &planner.FitConfig{Dim: o.FitDim, LeadVerbs: !o.NoFitLeadVerbs, LowerRequests: !o.NoFitLeadVerbs && !o.NoFitLowerRequests, LeadOf: !o.NoFitLeadVerbs && !o.NoFitLeadOf, SpeakerRequests: !o.NoFitLeadVerbs && !o.NoFitSpeakerRequests, FrontedRequests: !o.NoFitLeadVerbs && !o.NoFitFrontedRequests, QuestionMarks: !o.NoFitQuestionMarks, AskedSentences: !o.NoFitQuestionMarks && !o.NoFitAskedSentences, AskedRequests: !o.NoFitLeadVerbs && !o.NoFitAskedRequests, ReaderRequests: !o.NoFitReaderRequests, Quotes: !o.NoFitQuotes, Casual: casual}
	feats := func(texts []string) [][]uint32 {
		texts = fitTexts(texts, casual)
		out := make([][]uint32, len(texts))
		for i, t := range texts {
			out[i] = p.FitFeatures(t)
		}
		return out
	}
	texts := func(qs []data.Query) []string {
		out := make([]string, len(qs))
		for i, q := range qs {
			out[i] = q.Text
		}
		return out
	}
	// The gates of the draws are averaged weight by weight: a linear
	// model, so the mean's score is the mean of theirs. Draw k learns in
	// its own seeded order; the first is the one gate trained before
	// draws were (FitDraws 1 gives that gate, to the byte).
	pos := feats(texts(qs))
	var loss float64
	w := fit.W.Data()
	for k := range draws {
		g, err := models.NewSparseLinear(o.FitDim, "planner.fit")
		if err != nil {
			return err
		}
		neg := feats(draw(k))
		loss += trainFitGate(g, pos, neg, 5, 0.1, o.Train.Seed+uint64(k)) / float64(draws)
		for i, v := range g.W.Data() {
			w[i] += v / float32(draws)
		}
	}
	probs := func(fs [][]uint32) []float32 {
		out := make([]float32, len(fs))
		for i, f := range fs {
			out[i] = planner.FitProb(fit, f)
		}
		return out
	}
	vp, hpAll := probs(feats(texts(vqs))), probs(feats(held))
	// The held-out passages the gate rejects are read as written (their
	// first form; fitRescue plans them).
	hp := hpAll
	if casual {
		hp = make([]float32, len(held))
		for i := range held {
			hp[i] = hpAll[2*i]
		}
	}
	if o.NoFitPass {
		st.FitMin = planner.CalibrateFit(vp, hpAll, !o.NoFitLowest)
	} else {
		st.FitMin = planner.CalibrateFitShare(hpAll, planner.FitPassShare)
	}
	for _, v := range vp {
		if v >= st.FitMin {
			st.FitVal++
		}
	}
	for _, v := range hp {
		if v < st.FitMin {
			st.FitHeld++
		}
	}
	st.FitVal /= float64(max(len(vp), 1))
	st.FitHeld /= float64(max(len(hp), 1))
	p.Fit = fit
	p.Cfg.Anchors.Fit.Min = st.FitMin
	// The rescue threshold is calibrated on as many held-out passages as
	// there are val questions, however many calibrated the gate.
	st.fitHeld = make([]string, 0, len(vqs))
	for i, t := range held[:min(len(held), len(vqs))] {
		if hp[i] < st.FitMin {
			st.fitHeld = append(st.fitHeld, t)
		}
	}
	forms := ""
	if casual {
		forms = " (each as written and typed casually)"
	}
	logf(o.Log, "text-fit gate%s: %d questions against %d passages in %d draws, loss %.4f; threshold %.4f passes %.4f of %d val questions, sends %.4f of %d held-out passages to the text\n",
		forms, len(qs), len(train), draws, loss, st.FitMin, st.FitVal, len(vqs), st.FitHeld, len(hp))
	return nil
}

// fitRescue sets the text-fit gate's rescue threshold from the trained
// planner's confidence in its plans of the held-out passages the gate
// rejects (planner.CalibrateRescue), and writes the planner's config with
// it into the manifest of every checkpoint of runDir: the checkpoints were
// saved before the planner they hold was trained, and a threshold on its
// confidence can only be taken after.
func fitRescue(ctx context.Context, p *planner.LinkingPlanner, held []string, runDir string, st *LinkingPlannerStats) error {
	var confs []float32
	for _, t := range held {
		pred, err := p.PredictUngated(ctx, data.Query{Text: t, ID: -1})
		if err != nil {
			return err
		}
		if pred.Template >= 0 {
			confs = append(confs, pred.Conf)
		}
	}
	p.Cfg.Anchors.Fit.Rescue = planner.CalibrateRescue(confs)
	st.FitRescue = p.Cfg.Anchors.Fit.Rescue
	if runDir == "" {
		return nil
	}
	cfg, err := PlannerModel{P: p}.ConfigJSON()
	if err != nil {
		return err
	}
	cks, err := checkpoints.List(runDir)
	if err != nil {
		return err
	}
	for _, c := range cks {
		if err := setModelConfig(filepath.Join(runDir, c.Name), c.Manifest, cfg); err != nil {
			return err
		}
	}
	return nil
}

// setModelConfig replaces the model part of a checkpoint's configuration
// (the trainer's {"model": ..., "train": ...}).
func setModelConfig(dir string, m checkpoints.Manifest, model json.RawMessage) error {
	var parts map[string]json.RawMessage
	if err := json.Unmarshal(m.Config, &parts); err != nil {
		return fmt.Errorf("%s: manifest config: %v", dir, err)
	}
	parts["model"] = model
	raw, err := json.Marshal(parts)
	if err != nil {
		return err
	}
	return checkpoints.SetConfig(dir, raw)
}

// storedRescue is the rescue threshold a run's latest checkpoint holds (0
// for none): a resumed run adopts it, so that its configuration is the
// one its checkpoints hold once fitRescue has written it.
func storedRescue(runDir string) (float32, error) {
	cks, err := checkpoints.List(runDir)
	if err != nil || len(cks) == 0 {
		return 0, err
	}
	var parts struct {
		Model planner.Config `json:"model"`
	}
	last := cks[len(cks)-1]
	if err := json.Unmarshal(last.Manifest.Config, &parts); err != nil {
		return 0, fmt.Errorf("%s: manifest config: %v", filepath.Join(runDir, last.Name), err)
	}
	if a := parts.Model.Anchors; a != nil && a.Fit != nil {
		return a.Fit.Rescue, nil
	}
	return 0, nil
}
