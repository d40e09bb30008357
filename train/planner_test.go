package train

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/strata-retrieval/strata/checkpoints"
	"github.com/strata-retrieval/strata/graphops/mine"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/data/synth"
	"github.com/strata-retrieval/strata/graphops/workspace"
	"github.com/strata-retrieval/strata/infer"
	_ "github.com/strata-retrieval/strata/infer/all"
	"github.com/strata-retrieval/strata/infer/planner"
	"github.com/strata-retrieval/strata/infer/registry"
	"github.com/strata-retrieval/strata/internal/testws"
	"github.com/strata-retrieval/strata/models"
)

// TestTrainPlanner learns the generator's templates without a dense channel
// (types of linked entities and words only) and checks the predicted plans
// on the test split: the metapath and the anchor names are the generator's.
func TestTrainPlanner(t *testing.T) {
	ws := testws.Build(t, synth.Config{Preset: "prime", Nodes: 2000, Queries: 400, Seed: 5})
	p, r, err := Planner(context.Background(), ws, nil, PlannerOptions{Train: Config{Epochs: 15, BatchSize: 32, LR: 3e-3, Seed: 2},
		Run: Options{RunDir: t.TempDir(), Fingerprint: ws.Fingerprint}})
	if err != nil {
		t.Fatal(err)
	}
	trainQs, _ := ws.SKB.QA.Split("train")
	distinct := map[string]bool{}
	for _, q := range trainQs {
		distinct[planner.TemplateKey(ws.Plans[q.ID].Paths)] = true
	}
	if len(p.Cfg.Templates) != len(distinct) || len(distinct) < 4 {
		t.Errorf("%d templates, the training plans have %d", len(p.Cfg.Templates), len(distinct))
	}
	qs, _ := ws.SKB.QA.Split("test")
	acc, n, err := PlanAccuracy(p, ws.Plans, qs)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("best %s val %.4f, test accuracy %.4f over %d", r.Best, r.BestValue, acc, n)
	if n != len(qs) || acc < 0.9 {
		t.Errorf("test plan accuracy %.4f over %d queries, want >= 0.9 over %d", acc, n, len(qs))
	}
	anchors, right := 0, 0
	for _, q := range qs {
		pred, _ := p.Predict(context.Background(), q)
		got, ref := pred.Plan, ws.Plans[q.ID]
		if planner.TemplateKey(got.Paths) != planner.TemplateKey(ref.Paths) {
			continue
		}
		for _, path := range ref.MetapathTokens() {
			anchors++
			if len(got.Restriction[path[0]]) > 0 && len(ref.Restriction[path[0]]) > 0 && got.Restriction[path[0]][0] == ref.Restriction[path[0]][0] {
				right++
			}
		}
	}
	if float64(right) < 0.9*float64(anchors) {
		t.Errorf("anchor names right for %d of %d paths", right, anchors)
	}
}

// TestTrainMoR trains the trajectory reranker on a generated benchmark
// (ground-truth plans, no dense channel) and checks that it beats the
// traversal pool ranked by BM25 (MoR without its reranker) on test Hit@1.
func TestTrainMoR(t *testing.T) {
	ws := testws.Build(t, synth.Config{Preset: "mag", Nodes: 2000, Queries: 400, Seed: 6})
	m, r, err := MoR(context.Background(), ws, nil, nil, MoROptions{Model: models.TrajectoryConfig{UseTF: true, UseSF: true, UseTI: true},
		Negatives: 30, Train: Config{Epochs: 4, BatchSize: 16, LR: 1e-3, Seed: 3}, Run: Options{RunDir: t.TempDir(), Fingerprint: ws.Fingerprint}})
	if err != nil {
		t.Fatal(err)
	}
	mor, _ := SplitMetrics(context.Background(), ws, m, "test")
	tr, _ := registry.NewMethod(infer.NewEnv(context.Background(), ws), "mor-traversal")
	base, _ := SplitMetrics(context.Background(), ws, tr, "test")
	t.Logf("best %s; mor %v; traversal %v", r.Best, mor, base)
	if mor["test/hit@1"] < base["test/hit@1"]+0.2 {
		t.Errorf("MoR hit@1 %.4f, traversal alone %.4f", mor["test/hit@1"], base["test/hit@1"])
	}
}

// minedByQID is mined plan records by question id, as training takes
// them (LinkingPlannerOptions.Mined).
func minedByQID(recs []data.MinedPlanRecord) map[int]data.MinedPlanRecord {
	mined := map[int]data.MinedPlanRecord{}
	for _, r := range recs {
		mined[r.QID] = r
	}
	return mined
}

// minedBenchmark generates a benchmark, builds and saves its workspace
// (closed when the test ends) and mines plans from its train and val
// answers, as a real SKB's workspace gets them.
func minedBenchmark(t *testing.T, cfg synth.Config) (*workspace.Workspace, string, []data.MinedPlanRecord, *mine.Report) {
	t.Helper()
	res, err := synth.Generate(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ws, err := workspace.Build(context.Background(), res.SKB, nil, workspace.Config{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	dir := t.TempDir()
	if err := ws.Save(dir); err != nil {
		t.Fatal(err)
	}
	var qs []data.Query
	for _, s := range []string{data.SplitTrain, data.SplitVal} {
		q, _ := ws.SKB.QA.Split(s)
		qs = append(qs, q...)
	}
	recs, rep, err := mine.Plans(context.Background(), ws, qs, mine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return ws, dir, recs, rep
}

// TestLinkingPlannerFromMinedPlans takes the real-SKB path on a generated
// benchmark whose plans are withheld: plans are mined from the train and
// val answers, the planner learns from the mined train plans, and its plans
// executed (plan-exec) must beat BM25 on the test split by a wide margin;
// the mined plans must explain most questions, and a planner and its
// checkpoint reload must plan alike.
func TestLinkingPlannerFromMinedPlans(t *testing.T) {
	ws, dir, recs, rep := minedBenchmark(t, synth.Config{Preset: "mag", Nodes: 2000, Queries: 500, Seed: 3})
	t.Logf("mined %d of %d, coverage %.3f", rep.Mined, rep.Questions, rep.Coverage())
	if rep.Coverage() < 0.8 {
		t.Errorf("coverage %.3f, want >= 0.8", rep.Coverage())
	}
	mined := minedByQID(recs)
	run := filepath.Join(dir, "runs", "planner")
	p, r, st, err := LinkingPlanner(context.Background(), ws, nil, LinkingPlannerOptions{Mined: mined, FitRescue: true,
		Train: Config{Epochs: 8, BatchSize: 32, LR: 3e-3, Seed: 2}, Run: Options{RunDir: run, Fingerprint: ws.Fingerprint}})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d templates, ranker from %d questions, best %s val mrr %.4f, plan accuracy %.4f", len(p.Cfg.Templates), st.RankGroups, r.Best, r.BestValue, st.PlanAcc)
	// After the trained templates, one step along each relation of the
	// schema, either way, that no trained one-step template takes
	// (whatever its types), in schema order; the classifier scores the
	// trained ones only.
	trained := map[string]bool{}
	for _, tm := range p.Cfg.Templates[:p.Cfg.Classified()] {
		if tk := tm[0].Tokens(); len(tm) == 1 && len(tk) == 3 {
			trained[tk[1]] = true
		}
	}
	var want []string
	for _, rel := range ws.SKB.Schema.RelationTypes {
		for _, dir := range []string{"->", "<-"} {
			if !trained[dir+rel] {
				want = append(want, planner.TemplateKey(data.MustPaths([]string{"*", dir + rel, "*"})))
			}
		}
	}
	// Then two steps along the schema's relations, in the same order,
	// whose node types chain as the edges say (a type the first step's
	// edges end at is one the second's start from), that no trained
	// template is.
	ends := map[string]map[data.TypeID]bool{} // "->r" / "<-r": the types its edges end at
	starts := map[string]map[data.TypeID]bool{}
	add := func(m map[string]map[data.TypeID]bool, k string, t data.TypeID) {
		if m[k] == nil {
			m[k] = map[data.TypeID]bool{}
		}
		m[k][t] = true
	}
	e := &ws.SKB.Edges
	for i := 0; i < e.Len(); i++ {
		rel := ws.SKB.Schema.RelationTypes[e.Rel.At(i)]
		src, dst := ws.SKB.Nodes[e.Src[i]].Type, ws.SKB.Nodes[e.Dst[i]].Type
		add(starts, "->"+rel, src)
		add(ends, "->"+rel, dst)
		add(starts, "<-"+rel, dst)
		add(ends, "<-"+rel, src)
	}
	trained2 := map[string]bool{}
	for _, tm := range p.Cfg.Templates[:p.Cfg.Classified()] {
		if tk := tm[0].Tokens(); len(tm) == 1 && len(tk) == 5 {
			trained2[tk[1]+" "+tk[3]] = true
		}
	}
	var steps []string
	for _, rel := range ws.SKB.Schema.RelationTypes {
		steps = append(steps, "->"+rel, "<-"+rel)
	}
	paths := 0
	for _, a := range steps {
		for _, b := range steps {
			chain := false
			for ty := range ends[a] {
				chain = chain || starts[b][ty]
			}
			if chain && !trained2[a+" "+b] {
				want = append(want, planner.TemplateKey(data.MustPaths([]string{"*", a, "*", b, "*"})))
				paths++
			}
		}
	}
	var got []string
	for _, tm := range p.Cfg.Templates[p.Cfg.Classified():] {
		got = append(got, planner.TemplateKey(tm))
	}
	if paths == 0 || len(want) == paths || !slices.Equal(got, want) || st.SchemaSteps != len(want) || st.SchemaPaths != paths || p.Cfg.Gate.Out != len(p.Cfg.Templates)-len(want) {
		t.Errorf("schema steps %q (stats %d, %d of two steps; gate outputs %d of %d templates), want %q (%d of two steps)", got, st.SchemaSteps, st.SchemaPaths, p.Cfg.Gate.Out, len(p.Cfg.Templates), want, paths)
	}
	pe, _ := registry.NewMethod(infer.NewEnv(context.Background(), ws), "plan-exec")
	bm, _ := registry.NewMethod(infer.NewEnv(context.Background(), ws), "bm25")
	planned, err := SplitMetrics(context.Background(), ws, &planner.PlannedMethod{P: p, M: pe}, data.SplitTest)
	if err != nil {
		t.Fatal(err)
	}
	base, _ := SplitMetrics(context.Background(), ws, bm, data.SplitTest)
	t.Logf("test hit@1: planner+plan-exec %.4f, bm25 %.4f", planned["test/hit@1"], base["test/hit@1"])
	if planned["test/hit@1"] < base["test/hit@1"]+0.2 {
		t.Errorf("planner+plan-exec hit@1 %.4f, bm25 %.4f: want a gain of at least 0.2", planned["test/hit@1"], base["test/hit@1"])
	}
	// The checkpoint serves the same plans.
	m, err := registry.Load(infer.NewEnv(context.Background(), ws), run)
	if err != nil {
		t.Fatal(err)
	}
	loaded := m.(*planner.PlannedMethod).P
	// MoR and GRASP load it as an infer.Planner: the same planner.
	lp, err := registry.LoadPlanner(infer.NewEnv(context.Background(), ws), run)
	if err != nil {
		t.Fatalf("registry.LoadPlanner: %v", err)
	}
	if tq, _ := ws.SKB.QA.Split(data.SplitTest); len(tq) > 0 {
		a, _ := loaded.Predict(context.Background(), tq[0])
		b, _ := lp.Predict(context.Background(), tq[0])
		if !SamePlan(a.Plan, b.Plan) || a.Conf != b.Conf {
			t.Errorf("LoadPlanner's plan %v (%v), registry.Load's %v (%v)", b.Plan, b.Conf, a.Plan, a.Conf)
		}
	}
	// The named-answer counts travel with the checkpoint, and hold every
	// training mention the stats count.
	na := p.Cfg.Anchors.Named
	if na == nil || !cmp.Equal(na, loaded.Config().Anchors.Named) {
		t.Fatalf("named answers: trained %v, loaded %v", na, loaded.Config().Anchors.Named)
	}
	if all := na.Counts[""]; all[0] != st.NamedAnswers || all[0]+all[1] != st.Named {
		t.Errorf("named answers count %v, the stats %d of %d", all, st.NamedAnswers, st.Named)
	}
	t.Logf("named answers: %d of %d training mentions", st.NamedAnswers, st.Named)
	// The compositional features are on by default, their tables learned
	// from the training questions, and both travel with the checkpoint.
	a, la := p.Cfg.Anchors, loaded.Config().Anchors
	if !a.Compose || a.Elements == nil || a.Elements.N == 0 || len(a.FrameWords) == 0 {
		t.Errorf("compose %v, element counts over %v questions, frame words %q: want all learned", a.Compose, a.Elements, a.FrameWords)
	}
	if !la.Compose || !cmp.Equal(a.FrameWords, la.FrameWords) || !cmp.Equal(a.Elements, la.Elements) {
		t.Errorf("loaded compose %v, frame words %q (trained %q), elements equal %v", la.Compose, la.FrameWords, a.FrameWords, cmp.Equal(a.Elements, la.Elements))
	}
	t.Logf("frame words: %q", a.FrameWords)
	tqs, _ := ws.SKB.QA.Split(data.SplitTest)
	for _, q := range tqs[:50] {
		a, _ := p.Predict(context.Background(), q)
		b, _ := loaded.Predict(context.Background(), q)
		if !cmp.Equal(a, b) {
			t.Fatalf("query %d: trained %+v, loaded %+v", q.ID, a, b)
		}
	}
	// The loaded run serves the planner's plans executed: the row above.
	served, err := SplitMetrics(context.Background(), ws, m, data.SplitTest)
	if err != nil {
		t.Fatal(err)
	}
	if !cmp.Equal(served, planned) {
		t.Errorf("the run serves %v, planner+plan-exec scored %v", served, planned)
	}
	// A plan is executed once: plan-exec ranks the reach the planner carries
	// exactly as it ranks the plan executed again.
	carried := 0
	for _, q := range tqs {
		pred, err := p.Predict(context.Background(), q)
		if err != nil {
			t.Fatal(err)
		}
		if pred.Reach != nil {
			carried++
			if len(pred.Reach.Nodes) != len(pred.Reach.Scores) {
				t.Fatalf("query %d: %d reached nodes, %d scores", q.ID, len(pred.Reach.Nodes), len(pred.Reach.Scores))
			}
		}
		once, err := (&planner.PlannedMethod{P: p, M: pe}).Rank(context.Background(), q)
		if err != nil {
			t.Fatal(err)
		}
		q.Plan = &pred.Plan
		twice, err := pe.Rank(context.Background(), q)
		if err != nil {
			t.Fatal(err)
		}
		if !cmp.Equal(once, twice) {
			t.Fatalf("query %d: plan-exec of the carried reach differs from the plan executed again", q.ID)
		}
	}
	if carried < len(tqs)*8/10 {
		t.Errorf("the planner carried an executed plan for %d of %d test questions, want most", carried, len(tqs))
	}
	// Templates are structures; every restricted candidate with a
	// multi-hop path comes with its twin, the same pair with the middle
	// ranked the other way.
	for ti, tm := range p.Cfg.Templates {
		if (&data.Plan{Paths: tm}).HasRankMarks() {
			t.Errorf("template %d %v ranks a middle position", ti, tm)
		}
	}
	pairs := 0
	for _, q := range tqs {
		cs, _, err := p.Candidates(context.Background(), q)
		if err != nil {
			t.Fatal(err)
		}
		byKey := map[string]*planner.PlanCandidate{}
		for i := range cs {
			byKey[fmt.Sprint(cs[i].Plan.MetapathTokens(), cs[i].Mentions)] = &cs[i]
		}
		for i := range cs {
			c := &cs[i]
			twin, ok := c.Plan.WithRankedMiddles()
			if !ok || len(c.Plan.Restriction) == 0 {
				continue
			}
			if c.Plan.HasRankMarks() {
				twin = c.Plan.WithoutRankMarks()
			}
			o := byKey[fmt.Sprint(twin.MetapathTokens(), c.Mentions)]
			if o == nil || o.Twin == c.Twin || o.Prior != c.Prior {
				t.Fatalf("query %d: candidate %v (twin %v) has no twin among %d candidates", q.ID, c.Plan.MetapathTokens(), c.Twin, len(cs))
			}
			pairs++
		}
	}
	if pairs == 0 {
		t.Error("no test question had a restricted multi-hop candidate: the twins went untested")
	}
	t.Logf("%d candidates with their twins", pairs)
	// With FitRescue, the text-fit gate's rescue threshold is taken after
	// training, written into every checkpoint of the run, and a resumed run
	// keeps it.
	rescue := p.Cfg.Anchors.Fit.Rescue
	if rescue <= 0 || rescue != st.FitRescue {
		t.Fatalf("rescue threshold %v (stats %v), want one calibrated", rescue, st.FitRescue)
	}
	cks, err := checkpoints.List(run)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cks {
		var parts struct {
			Model planner.Config `json:"model"`
		}
		if err := json.Unmarshal(c.Manifest.Config, &parts); err != nil || parts.Model.Anchors.Fit.Rescue != rescue {
			t.Fatalf("%s: rescue %v (%v), want %v", c.Name, parts.Model.Anchors.Fit.Rescue, err, rescue)
		}
	}
	p2, _, _, err := LinkingPlanner(context.Background(), ws, nil, LinkingPlannerOptions{Mined: mined, FitRescue: true,
		Train: Config{Epochs: 8, BatchSize: 32, LR: 3e-3, Seed: 2}, Run: Options{RunDir: run, Fingerprint: ws.Fingerprint, Resume: true}})
	if err != nil {
		t.Fatalf("resuming the finished run: %v", err)
	}
	if p2.Cfg.Anchors.Fit.Rescue != rescue {
		t.Errorf("resumed run's rescue %v, want %v", p2.Cfg.Anchors.Fit.Rescue, rescue)
	}
}

// TestMinedTemplateKeepsMarks: a mined plan's template forgets anchor and
// middle types and the middle's ranking (the plan ranker's choice between
// twins) but keeps the structure's operators: a universal step stays
// universal.
func TestMinedTemplateKeepsMarks(t *testing.T) {
	p := data.Plan{Paths: data.MustPaths([][]string{
		{"person", "<-starred_actors", "movie~", "->directed_by", "person"},
		{"genre", "<-has_genre", "movie", "∀->written_by", "person"},
	}...)}
	got, order := minedTemplate(p)
	want := [][]string{
		{"*", "<-has_genre", "*", "∀->written_by", "person"},
		{"*", "<-starred_actors", "*", "->directed_by", "person"},
	}
	if !reflect.DeepEqual(data.Plan{Paths: got}.MetapathTokens(), want) || !reflect.DeepEqual(order, []int{1, 0}) {
		t.Errorf("template %v order %v, want %v [1 0]", got, order, want)
	}
}

// TestSchemaPathsKeepTrainedPlans: on the generated amazon benchmark every
// question is answered by a trained template, so the schema's two steps
// (the default; --no-schema-paths is the ablation) must leave plan-exec's val Hit@1 where it is. Anchored
// anywhere, one anchored on a product whose name is also a question's
// attribute word ("Which Chiogil Home item is realicru?"), through its
// category and back, explained the answer word "item" that the brand's
// products leave unexplained, and val Hit@1 fell from 0.99 to 0.87
// here (0.98 to 0.925 on make demo's benchmark); a schema path is now
// anchored where the ranker's choice among the ruled-out candidates is
// (LinkingPlanner.ruledOutSearch).
func TestSchemaPathsKeepTrainedPlans(t *testing.T) {
	if testing.Short() {
		t.Skip("trains two planners")
	}
	ws, dir, recs, _ := minedBenchmark(t, synth.Config{Preset: "amazon", Nodes: 2000, Queries: 500, Seed: 1})
	mined := minedByQID(recs)
	pe, _ := registry.NewMethod(infer.NewEnv(context.Background(), ws), "plan-exec")
	hit := map[bool]float64{}
	for _, paths := range []bool{false, true} {
		p, _, st, err := LinkingPlanner(context.Background(), ws, nil, LinkingPlannerOptions{Mined: mined, NoSchemaPaths: !paths,
			Train: Config{Epochs: 20, BatchSize: 64, LR: 3e-3, Seed: 1}, Run: Options{RunDir: filepath.Join(dir, "runs", fmt.Sprint(paths)), Fingerprint: ws.Fingerprint}})
		if err != nil {
			t.Fatal(err)
		}
		if paths && st.SchemaPaths == 0 {
			t.Fatal("no schema paths: the test tests nothing")
		}
		m, err := SplitMetrics(context.Background(), ws, &planner.PlannedMethod{P: p, M: pe}, data.SplitVal)
		if err != nil {
			t.Fatal(err)
		}
		hit[paths] = m["val/hit@1"]
	}
	t.Logf("val hit@1: without schema paths %.4f, with %.4f", hit[false], hit[true])
	if hit[true] < hit[false] {
		t.Errorf("val hit@1 with schema paths %.4f, without %.4f: want no loss", hit[true], hit[false])
	}
}
