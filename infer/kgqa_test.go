package infer

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/data/index"
	"github.com/strata-retrieval/strata/graphops/workspace"
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
func fixedKGQA(t *testing.T, ws *workspace.Workspace, template [][]string) *KGQA {
	t.Helper()
	cfg := PlannerConfig{Templates: [][][]string{template}, NodeTypes: ws.SKB.Schema.NodeTypes}
	cfg.Gate = models.GateConfig{In: cfg.InputDim(), Hidden: 2, Out: 1}
	g, err := models.NewGate(cfg.Gate, "planner", rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewSimGRAG(ws, lexicalDense(t, ws), SimGRAGConfig{})
	if err != nil {
		t.Fatal(err)
	}
	return &KGQA{Planner: NewPlanner(ws, nil, cfg, g), S: s}
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
	k := fixedKGQA(t, ws, [][]string{{"entity", "directed_by", "entity"}})
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
		k := fixedKGQA(t, ws, c.template)
		hits, err := k.Method().Rank(context.Background(), data.Query{ID: 1, Text: c.question})
		if err != nil {
			t.Fatal(err)
		}
		if got := answers(ws, hits, 1); !cmp.Equal(got, c.want) {
			t.Errorf("%s: top answer %v, want %v", c.question, got, c.want)
		}
	}
}
