package main

import (
	"encoding/json"
	"fmt"
	"github.com/strata-retrieval/strata/graphops/mine"
	"io"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/graphops/workspace"
	"github.com/strata-retrieval/strata/internal/atomicfile"
)

type mineOptions struct {
	Splits []string
	Out    string
	NoText bool
	JSON   bool
	Force  bool
	Cfg    mine.Options
}

func newMinePlansCmd(u *ui) *cobra.Command {
	var o mineOptions
	cmd := &cobra.Command{
		Use:   "mine-plans WORKSPACE [--split train,val] [--out FILE]",
		Short: "Mine a plan for every question from its answers (weak supervision for the planner, MoR, GRASP, SimGRAG)",
		Long: `Mine query plans from the questions' gold answers, without an LLM: for a real
SKB that has questions and answer ids only, this is where plan-based methods
get their training labels.

Anchors come from entity linking over node names and alias-like text fields
(detected: fields whose values list the node's name among ";", "|" or ","
separated items, such as lemmas or synonyms), case-, plural- and
punctuation-normalised, names without a parenthesised qualifier included; an
ambiguous mention keeps all its nodes. From every anchor, typed paths of up to
3 hops follow relations in their stored direction ("->rel") or against it
("<-rel"); two paths from two anchors meeting at the target are an
intersection (each at most 2 hops). From a set of nodes (a path of a hop or
more), each further step is also tried as a universal step, "∀->rel": the
nodes every node of the set relates to ("the genre all films of P share"),
where the plain step reaches those any of them relates to; it is kept when it
fits the answers better (--no-universal leaves it out). Each plan is scored by the F1 of the
candidates it reaches against the answers, or, where the textual restriction
(the rest of the question) helps, by the F1 of the reached candidates ranked by
its BM25 and cut at the number of answers; on a path of two hops or more the
restriction may also rank the nodes before the last step, each target taking
the best score of the nodes it is reached from ("the cast of the 2007 films
directed by X": the films' text says 2007, the people's does not), marked
"movie~" in the plan (--no-ranked-middle leaves it out). A tied plan whose
restriction names a value every answer's text states after a key (the
answers all say "Released in 2007" or "Language: French", the question
"2007" or "French") is refined with that attribute filter when the filter's
F1 beats the ranking's, with --attributes (the plan's Attributes,
"attribute": true in its record; off by default: the planner tries an
attribute filter on every restricted candidate anyway, and mined filters
changed only a handful of training plans, within the seed spread). The best plan wins (ties: fewer
hops, then fewer anchors, then the relation structure chosen most often across
the questions, then existential before universal, then the higher structural
F1). The search is pruned to paths
that can still reach an answer and frontiers of at most 5,000 nodes.

The plans file is written once, atomically, when every question is mined: a
run stopped before (Ctrl-C, a kill) leaves no file and mines from the start
when run again (no --resume).

The plans file (default WORKSPACE/mined-plans.jsonl) holds one line per
question with a plan: q_id, query, answer_ids, the plan (MoR's shape with
strata's extensions: directed relations, "*" for untyped positions and linked
anchors) and how it was mined (f1, struct_f1, shape, reach, hits). Plans
mined from val and test answers are for model selection and for the
mined-plan oracle only: trainers learn from the train split's plans.

The coverage table gives, overall and per plan shape, the share of questions
whose mined plan reaches F1 >= 0.5.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ws, err := workspace.Load(args[0])
			if err != nil {
				return err
			}
			defer ws.Close()
			return minePlans(cmd, u, ws, o)
		},
	}
	cmd.Flags().StringSliceVar(&o.Splits, "split", []string{data.SplitTrain, data.SplitVal}, "splits whose questions are mined (comma-separated)")
	cmd.Flags().StringVar(&o.Out, "out", "", "plans file to write (default WORKSPACE/"+mine.DefaultFile+")")
	cmd.Flags().BoolVar(&o.NoText, "no-text", false, "score plans by structure alone (no textual restriction)")
	cmd.Flags().BoolVar(&o.Cfg.Attributes, "attributes", false, "refine a tied plan with an attribute filter where one fits the answers better")
	cmd.Flags().IntVar(&o.Cfg.Config.MaxHops, "max-hops", 3, "hops of a single-anchor path")
	cmd.Flags().IntVar(&o.Cfg.Config.MaxFrontier, "max-frontier", 5000, "paths reaching more nodes are not extended")
	cmd.Flags().BoolVar(&o.Cfg.Config.NoUniversal, "no-universal", false, "mine existential paths only (no universal steps)")
	cmd.Flags().BoolVar(&o.Cfg.Config.NoRankMiddle, "no-ranked-middle", false, "rank only the target by the restriction (no ranked middle positions)")
	cmd.Flags().BoolVar(&o.JSON, "json", false, "print the coverage as JSON")
	cmd.Flags().BoolVar(&o.Force, "force", false, "replace an existing plans file")
	return cmd
}

func minePlans(cmd *cobra.Command, u *ui, ws *workspace.Workspace, o mineOptions) error {
	if ws.SKB.QA == nil {
		return fmt.Errorf("the workspace has no questions to mine")
	}
	var qs []data.Query
	for _, s := range o.Splits {
		q, err := ws.SKB.QA.Split(s)
		if err != nil {
			return err
		}
		qs = append(qs, q...)
	}
	out := o.Out
	if out == "" {
		out = filepath.Join(ws.Dir, mine.DefaultFile)
	}
	if err := fileOutput(inputs(ws.Dir), "--out", out, o.Force); err != nil {
		return err
	}
	o.Cfg.NoText = o.NoText
	u.stage("linking mentions (alias fields: %v)", ws.Mentions().Config().AliasFields)
	prog, finish := u.counter(len(qs), "mining plans")
	o.Cfg.Progress = prog
	recs, rep, err := mine.Plans(cmd.Context(), ws, qs, o.Cfg)
	finish()
	if err != nil {
		return err
	}
	if err := atomicfile.WriteFile(out, func(w io.Writer) error { return data.WriteJSONL(w, recs) }); err != nil {
		return err
	}
	if o.JSON {
		enc := json.NewEncoder(u.out)
		return enc.Encode(rep.JSON())
	}
	fmt.Fprintf(u.out, "splits %v: ", o.Splits)
	rep.Print(u.out)
	fmt.Fprintf(u.out, "\nplans written to %s\n", out)
	return nil
}
