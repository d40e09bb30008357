package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/data/index"
	gplan "github.com/strata-retrieval/strata/graphops/plan"
	"github.com/strata-retrieval/strata/graphops/workspace"
)

type importOptions struct {
	Format  string
	In      string
	Out     string
	QA      string
	Plans   string
	Dataset string
	KGQA    []string
	Seed    uint64
	K1, B   float64
	Force   bool
}

func newImportCmd(u *ui) *cobra.Command {
	var o importOptions
	cmd := &cobra.Command{
		Use:   "import --format skbdir|stark|triples --in PATH --out WORKSPACE",
		Short: "Build a workspace (graph, indexes, questions) from an SKB",
		Long: `Build a workspace directory from an SKB: the typed graph (CSR adjacency,
node attributes), BM25 indexes (whole document over candidates, one per text
field over all nodes) and the question set, saved as one checksummed snapshot
that later commands load in a fraction of the build time.

Formats:
  skbdir   an skbdir/1 directory (schema.json, nodes.jsonl[.zst], edges.tsv[.zst],
           stark_qa/, split/); stark_qa/plans.jsonl is imported when present.
           --plans imports plans from strata's or MoR's q_id/plan JSON lines.
  stark    STaRK's processed files (node_info.pkl, edge_index.pt, edge_types.pt,
           node_types.pt, node_type_dict.pkl, edge_type_dict.pkl); give the
           query directory (stark_qa/ and split/) with --qa. Documents are built
           from node_info the way STaRK's get_doc_info does for --dataset.
  triples  a head|relation|tail file (MetaQA's kb.txt), a head<TAB>relation<TAB>tail
           file (PathQuestion's KBs; the separator is detected), or a directory
           holding kb.txt. KGQA question files come from --kgqa FILE[:SPLIT]
           (repeatable) or, for a directory, every */qa_*.txt below it; each
           file's format is detected:
             MetaQA        question<TAB>ans1|ans2, topic entities in [brackets]
                           (and the aligned *_qtype.txt, when present)
             PathQuestion  question<TAB>answer(ans1/ans2/)<TAB>topic#rel#...#answer
                           (IRN's PQ/PQL files; the topic, the path's first
                           element, is written inline and gets marked [topic])
             WorldCup      question<TAB>answer<TAB>path[*path]<TAB>ans1/ans2/<TAB>facts[<TAB>topics]
                           (IRN's WC-P1, WC-P2, WC-C: one path per topic, each
                           topic marked [topic]; a conjunctive WC-C question's
                           two paths meet at the answers)
           FILE:SPLIT puts the file's questions in SPLIT only. A FILE without a
           split gets a split of its own (<dir>-<name>) and is also spread over
           train/val/test: MetaQA by position (60/20/20), PathQuestion and
           WorldCup at random (80/10/10 as IRN, seeded by --seed). Node types
           (up to 65,535) and relation types (up to 16,777,216) are only
           bounded by those limits: Freebase-derived KBs such as PQL's (363
           relations) import. The question types'
           and paths' relation paths are imported as plans, and the test
           questions those plans answer fully form the split test-reachable.`,
		Example: `  strata import --format skbdir --in mag-skb --out mag-ws
  strata import --format stark --in prime/processed --qa stark/data/prime --dataset prime --out prime-ws
  strata import --format triples --in MetaQA --out metaqa-ws
  strata import --format triples --in PathQuestion/2H-kb.txt --kgqa PathQuestion/PQ-2H.txt --out pq2-ws
  strata import --format triples --in WC2014/WC2014.txt --kgqa WC2014/WC-P1.txt --kgqa WC2014/WC-C.txt --out wc-ws`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if o.In == "" || o.Out == "" {
				return fmt.Errorf("--in and --out are required")
			}
			return runImport(cmd, u, o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.Format, "format", "skbdir", "input format: skbdir, stark or triples")
	f.StringVar(&o.In, "in", "", "input path")
	f.StringVar(&o.Out, "out", "", "workspace directory to create")
	f.StringVar(&o.QA, "qa", "", "stark: directory with stark_qa/ and split/")
	f.StringVar(&o.Plans, "plans", "", "plans file (strata JSONL: q_id, plan.Metapath, plan.Restriction)")
	f.StringVar(&o.Dataset, "dataset", "", "stark: amazon, mag or prime (default: guessed from node types)")
	f.StringSliceVar(&o.KGQA, "kgqa", nil, "triples: question file FILE[:SPLIT] (repeatable; with SPLIT, its questions go to that split only)")
	f.Uint64Var(&o.Seed, "seed", 1, "triples: seed of the random train/val/test split of PathQuestion and WorldCup files given without a split")
	f.Float64Var(&o.K1, "k1", 1.5, "BM25 k1")
	f.Float64Var(&o.B, "b", 0.75, "BM25 b")
	f.BoolVar(&o.Force, "force", false, "replace an existing workspace")
	return cmd
}

func runImport(cmd *cobra.Command, u *ui, o importOptions) error {
	g := inputs("")
	for _, in := range append([]string{o.In, o.QA, o.Plans}, o.KGQA...) {
		g.Input("input", in)
		if i := strings.LastIndexByte(in, ':'); i > 0 { // FILE:SPLIT
			g.Input("input", in[:i])
		}
	}
	if err := g.Check("--out", o.Out); err != nil {
		return err
	}
	if _, err := os.Stat(workspace.Path(o.Out)); err == nil {
		if !o.Force {
			return fmt.Errorf("%s already holds a workspace (use --force to replace it)", o.Out)
		}
	} else if entries, _ := os.ReadDir(o.Out); len(entries) > 0 {
		return fmt.Errorf("%s exists and is not a strata workspace: import writes into a new or empty directory, never into a user's own", o.Out)
	}
	skb, plans, err := readSKB(u, o)
	if err != nil {
		return err
	}
	cfg := workspace.Config{BM25: index.Config{K1: o.K1, B: o.B}}
	ws, err := workspace.Build(cmd.Context(), skb, plans, cfg, u.buildProgress())
	if err != nil {
		return err
	}
	defer ws.Close()
	u.stage("saving %s", o.Out)
	if err := ws.Save(o.Out); err != nil {
		return err
	}
	nq := 0
	if skb.QA != nil {
		nq = len(skb.QA.Queries)
	}
	fmt.Fprintf(u.out, "imported %s into %s: %d nodes, %d edges, %d candidates, %d queries, %d plans\n",
		o.In, o.Out, len(skb.Nodes), skb.Edges.Len(), len(ws.Candidates), nq, len(plans))
	return nil
}

// readSKB reads the SKB in o.Format and its plans (a plans file, an
// skbdir's own, or a KGQA import's).
func readSKB(u *ui, o importOptions) (*data.SKB, map[int]data.Plan, error) {
	u.stage("reading %s (%s)", o.In, o.Format)
	var skb *data.SKB
	var plans map[int]data.Plan
	var err error
	switch o.Format {
	case "skbdir":
		if skb, err = data.ReadSKBDir(o.In); err != nil {
			return nil, nil, err
		}
		if p := filepath.Join(o.In, data.PlansFile); o.Plans == "" {
			if _, statErr := os.Stat(p); statErr == nil {
				o.Plans = p
			}
		}
	case "stark":
		if skb, err = data.ReadStarkProcessed(o.In, o.Dataset); err != nil {
			return nil, nil, err
		}
		if o.QA != "" {
			if skb.QA, err = data.ReadStarkQA(o.QA, len(skb.Nodes)); err != nil {
				return nil, nil, err
			}
		}
	case "triples":
		if skb, plans, err = importTriples(u, o); err != nil {
			return nil, nil, err
		}
	default:
		return nil, nil, fmt.Errorf("--format %q: want skbdir, stark or triples", o.Format)
	}
	if o.Plans != "" {
		var st data.PlanStats
		if plans, st, err = data.ReadPlans(o.Plans); err != nil {
			return nil, nil, err
		}
		warning, err := data.CheckPlans(o.Plans, data.ScopeOf(skb), data.Lenient)
		if err != nil {
			return nil, nil, err
		}
		if warning != "" {
			fmt.Fprintln(u.err, warning)
		}
		if st.Empty+st.Invalid > 0 {
			fmt.Fprintf(u.err, "%s: %d plans, %d empty and %d unusable (those queries fall back to textual retrieval)\n", o.Plans, st.Plans, st.Empty, st.Invalid)
		}
	}
	return skb, plans, nil
}

func importTriples(u *ui, o importOptions) (*data.SKB, map[int]data.Plan, error) {
	kb := o.In
	var specs []data.KGQAFileSpec
	if st, err := os.Stat(o.In); err == nil && st.IsDir() {
		kb = filepath.Join(o.In, "kb.txt")
		if len(o.KGQA) == 0 {
			for _, f := range data.MetaQAQuestionFiles(o.In) {
				specs = append(specs, data.KGQAFileSpec{Path: f})
			}
		}
	}
	for _, spec := range o.KGQA {
		specs = append(specs, data.ParseKGQAFileSpec(spec))
	}
	skb, err := data.ReadTriples(kb, 0)
	if err != nil {
		return nil, nil, err
	}
	imp, err := data.ImportKGQA(skb, specs, o.Seed)
	if err != nil {
		return nil, nil, err
	}
	if skb.QA != nil {
		if err := skb.QA.CheckSplits(); err != nil {
			return nil, nil, err
		}
	}
	for _, f := range imp.Files {
		st := f.Stats
		fmt.Fprintf(u.err, "%s (%s) -> split %s, %s: %d questions, %d with topic entities and %d answers not in the KB, %d left without an answer\n",
			f.File, f.Format, f.Split, f.Assigned, st.Questions, st.MissingTopics, st.DroppedAnswers, st.NoAnswer)
	}
	plans := imp.Plans
	if len(plans) > 0 {
		if err := gplan.AddReachableSplit(skb, plans, imp.Incomplete); err != nil {
			return nil, nil, err
		}
		if err := skb.QA.CheckSplits(); err != nil {
			return nil, nil, err
		}
	}
	if len(plans) == 0 {
		plans = nil
	}
	return skb, plans, nil
}
