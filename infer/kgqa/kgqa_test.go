package kgqa

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/data/index"
	"github.com/strata-retrieval/strata/graphops/workspace"
	"github.com/strata-retrieval/strata/infer"
	"github.com/strata-retrieval/strata/infer/infertest"
	"github.com/strata-retrieval/strata/infer/planner"
	"github.com/strata-retrieval/strata/infer/simgrag"
	"github.com/strata-retrieval/strata/internal/testws"
	"github.com/strata-retrieval/strata/models"
)

// kgqaWorkspace builds a workspace from MetaQA-style kb lines and
// questions (question<TAB>answers), all in split "test".
func kgqaWorkspace(t *testing.T, kb, questions string) *workspace.Workspace {
	t.Helper()
	skb, err := data.ParseTriples(strings.NewReader(kb), "kb.txt", '|')
	if err != nil {
		t.Fatal(err)
	}
	if questions != "" {
		qs, err := data.ParseKGQA(strings.NewReader(questions), "qa.txt")
		if err != nil {
			t.Fatal(err)
		}
		data.KGQAToQA(skb, "test", qs)
	}
	ws, err := workspace.Build(context.Background(), skb, nil, workspace.Config{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	return ws
}

// fixedKGQA is a KGQA model whose planner has one template (a one-output
// gate always picks it), so its patterns depend only on the question's
// topics; SimGRAG runs on the lexical sketch encoder.
func fixedKGQA(t *testing.T, ws *workspace.Workspace, template [][]string, sc simgrag.Config) *KGQA {
	t.Helper()
	cfg := planner.Config{Templates: [][]data.Path{data.MustPaths(template...)}, NodeTypes: ws.SKB.Schema.NodeTypes}
	cfg.Gate = models.GateConfig{In: cfg.InputDim(), Hidden: 2, Out: 1}
	g, err := models.NewGate(cfg.Gate, "planner", rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	s, err := simgrag.New(ws, infer.DenseSpace(infertest.LexicalDense(t, ws), ws.SKB), sc)
	if err != nil {
		t.Fatal(err)
	}
	p, err := planner.NewTemplatePlanner(ws, nil, cfg, g)
	if err != nil {
		t.Fatal(err)
	}
	return &KGQA{Planner: p, S: s}
}

// answers is the names of the top n hits.
func answers(ws *workspace.Workspace, hits []index.Hit, n int) []string {
	var out []string
	for _, h := range hits[:min(n, len(hits))] {
		out = append(out, ws.SKB.Nodes[h.ID].Name)
	}
	return out
}

// TestKGQAFilmNamedUnknown: MetaQA has films called "Unknown" and
// "unknown"; a topic of that name (or one starting with the word UNKNOWN)
// is the pattern's known node, not an unknown, and its question is
// answered.
func TestKGQAFilmNamedUnknown(t *testing.T) {
	ws := kgqaWorkspace(t, `Unknown|directed_by|Jaume Collet-Serra
UNKNOWN Soldier|directed_by|Lewis Milestone
Heat|directed_by|Michael Mann
Unknown|starred_actors|Liam Neeson
Heat|starred_actors|Al Pacino
UNKNOWN Soldier|starred_actors|Lew Ayres
`, "")
	k := fixedKGQA(t, ws, [][]string{{"entity", "directed_by", "entity"}}, simgrag.Config{})
	for topic, want := range map[string]string{
		"Unknown": "Jaume Collet-Serra", "UNKNOWN Soldier": "Lewis Milestone", "Heat": "Michael Mann",
	} {
		q := data.Query{ID: 1, Text: "who directed [" + topic + "]"}
		p, ok, err := k.Pattern(q)
		if err != nil || !ok {
			t.Fatalf("%s: no pattern (%v)", topic, err)
		}
		wantNodes := []data.PatternNode{{Text: topic}, {Text: "UNKNOWN entity 0", Unknown: true, Type: "entity"}}
		if d := cmp.Diff(wantNodes, p.Nodes); d != "" {
			t.Errorf("%s: pattern nodes (-want +got):\n%s", topic, d)
		}
		hits, err := k.Method().Rank(context.Background(), q)
		if err != nil {
			t.Fatal(err)
		}
		if got := answers(ws, hits, 1); len(got) != 1 || got[0] != want {
			t.Errorf("who directed [%s]: top answer %v, want %s", topic, got, want)
		}
	}
}

// TestKGQAAnswerIsTopic: a question whose answer is its own topic entity
// (PathQuestion: "who is the child of shah_shuja's parent ?" answers
// shah_shuja, reached back over a second stored triple) is answered, while
// walking one triple back still never returns the topic (MetaQA: films
// sharing an actor with [Heat]).
func TestKGQAAnswerIsTopic(t *testing.T) {
	ws := kgqaWorkspace(t, `shah_shuja|parents|mumtaz_mahal
mumtaz_mahal|children|shah_shuja
Heat|starred_actors|Al Pacino
Scarface|starred_actors|Al Pacino
`, "")
	for _, c := range []struct {
		template [][]string
		question string
		want     []string // the top answer
	}{
		{[][]string{{"entity", "parents", "entity", "children", "entity"}}, "who is the child of [shah_shuja] 's parent ?", []string{"shah_shuja"}},
		{[][]string{{"entity", "starred_actors", "entity", "starred_actors", "entity"}}, "which films share actors with [Heat]", []string{"Scarface"}},
	} {
		k := fixedKGQA(t, ws, c.template, simgrag.Config{})
		hits, err := k.Method().Rank(context.Background(), data.Query{ID: 1, Text: c.question})
		if err != nil {
			t.Fatal(err)
		}
		if got := answers(ws, hits, 1); !cmp.Equal(got, c.want) {
			t.Errorf("%s: top answer %v, want %v", c.question, got, c.want)
		}
	}
}

// TestKGQASeveralTopics: every bracketed topic is a known node. With a
// one-path plan, each topic anchors a copy of the path into the shared
// target: the film both actors starred in ranks first, then the films only
// one topic reaches (each topic's own pattern), below every joint score,
// ties by id. k(n) = k(r) = 1 binds every known node and relation to itself
// only (a node's document is its name: distance 0), so every GSD is 0.
func TestKGQASeveralTopics(t *testing.T) {
	ws := kgqaWorkspace(t, `Heat|starred_actors|Al Pacino
Heat|starred_actors|Robert De Niro
Scarface|starred_actors|Al Pacino
Ronin|starred_actors|Robert De Niro
Heat|directed_by|Michael Mann
`, "")
	k := fixedKGQA(t, ws, [][]string{{"entity", "starred_actors", "entity"}}, simgrag.Config{KNodes: 1, KRels: 1})
	q := data.Query{ID: 1, Text: "which films starred [Al Pacino] and [Robert De Niro]"}
	p, ok, err := k.Pattern(q)
	if err != nil || !ok {
		t.Fatalf("no pattern: %v", err)
	}
	want := [][3]string{{"Al Pacino", "starred_actors", "UNKNOWN entity 0"}, {"Robert De Niro", "starred_actors", "UNKNOWN entity 0"}}
	if d := cmp.Diff(want, p.Triples3()); d != "" {
		t.Errorf("joint pattern (-want +got):\n%s", d)
	}
	singles, err := k.TopicPatterns(q)
	if err != nil || len(singles) != 2 || singles[1].Nodes[0].Text != "Robert De Niro" {
		t.Fatalf("topic patterns %+v %v", singles, err)
	}
	hits, err := k.Method().Rank(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	// Heat (node 0) by the joint pattern at GSD 0: score 0. Scarface (3)
	// and Ronin (4) by one topic each at GSD 0: score 0 - 1 - 0.
	wantHits := []index.Hit{{ID: 0, Score: 0}, {ID: 3, Score: -1}, {ID: 4, Score: -1}}
	if d := cmp.Diff(wantHits, hits); d != "" {
		t.Errorf("hits (-want +got):\n%s", d)
	}
	// One topic, or one topic named twice: the single pattern, nothing more.
	for _, text := range []string{"which films starred [Al Pacino]", "[Al Pacino] and [Al Pacino]"} {
		q := data.Query{ID: 2, Text: text}
		p, _, _ := k.Pattern(q)
		if more, _ := k.TopicPatterns(q); len(more) != 0 || len(p.Triples) != 1 {
			t.Errorf("%q: pattern %v, %d more", text, p.Triples3(), len(more))
		}
		hits, _ := k.Method().Rank(context.Background(), q)
		if d := cmp.Diff([]index.Hit{{ID: 0, Score: 0}, {ID: 3, Score: 0}}, hits); d != "" {
			t.Errorf("%q: hits (-want +got):\n%s", text, d)
		}
	}
}

// relationNames is a plan's relation sequence without directions (question
// types name relations; mined plans add the stored direction).
func relationNames(mp [][]string) string {
	var out []string
	for _, path := range mp {
		for i := 1; i < len(path); i += 2 {
			out = append(out, strings.TrimPrefix(strings.TrimPrefix(path[i], "->"), "<-"))
		}
		out = append(out, "|")
	}
	return strings.Join(out, " ")
}

// TestMinePlansMetaQA mines relation paths from answers alone and checks
// them against the question types on a sample.
func TestMinePlansMetaQA(t *testing.T) {
	ws := testws.MetaQA(t)
	agree, n := 0, 0
	for _, hop := range []string{"1-hop", "2-hop"} {
		qs := testws.Sample(t, ws, hop, 101)
		mined, _, err := MinePlans(t.Context(), ws, qs, 3)
		if err != nil {
			t.Fatal(err)
		}
		for _, q := range qs {
			m, ok := mined[q.ID]
			if !ok {
				continue
			}
			n++
			if relationNames(m.MetapathTokens()) == relationNames(ws.Plans[q.ID].MetapathTokens()) {
				agree++
			}
		}
	}
	t.Logf("mined path = question type for %d of %d", agree, n)
	if n < 150 || float64(agree) < 0.8*float64(n) {
		t.Errorf("mined path = question type for %d of %d", agree, n)
	}
}

// TestMinePlansStopsWhenCancelled: Ctrl-C during `train kgqa --labels
// mined` stops the miner with context.Canceled (it mined under a context
// of its own before, so nothing stopped it).
func TestMinePlansStopsWhenCancelled(t *testing.T) {
	var kb, qs strings.Builder
	for i := range 40 {
		fmt.Fprintf(&kb, "Movie %d|directed_by|Person %d\n", i, i%7)
		fmt.Fprintf(&qs, "who directed [Movie %d]\tPerson %d\n", i, i%7)
	}
	ws := kgqaWorkspace(t, kb.String(), qs.String())
	all := ws.SKB.QA.Queries
	plans, missed, err := MinePlans(t.Context(), ws, all, 3)
	if err != nil || len(plans) != 40 || missed != 0 {
		t.Fatalf("uncancelled: %d plans, %d missed, %v", len(plans), missed, err)
	}
	plans, missed, err = MinePlans(testws.CancelAfterChecks(1), ws, all, 3)
	if !errors.Is(err, context.Canceled) || plans != nil || missed != 40 {
		t.Errorf("cancelled: %d plans, %d missed, %v; want context.Canceled", len(plans), missed, err)
	}
}
