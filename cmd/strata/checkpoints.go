package main

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/strata-retrieval/strata/checkpoints"
)

type checkpointsListOptions struct {
	Run  string
	JSON bool
}

func newCheckpointsCmd(u *ui) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "checkpoints",
		Short: "Inspect training checkpoints",
	}
	var o checkpointsListOptions
	list := &cobra.Command{
		Use:   "list RUNDIR",
		Short: "List a run's checkpoints with their step, metrics and the best marker",
		Long: `List the checkpoints of a run directory (its step-NNNNNNNN subdirectories) in
step order, with the epoch, the metrics recorded in each manifest.json and a
"*" on the one RUNDIR/best points at.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Run = args[0]
			return runCheckpointsList(u, o)
		},
	}
	list.Flags().BoolVar(&o.JSON, "json", false, "print a JSON array")
	cmd.AddCommand(list)
	return cmd
}

func runCheckpointsList(u *ui, o checkpointsListOptions) error {
	es, err := checkpoints.List(o.Run)
	if err != nil {
		return err
	}
	if o.JSON {
		type row struct {
			Name    string             `json:"name"`
			Kind    string             `json:"kind"`
			Step    int                `json:"step"`
			Epoch   int                `json:"epoch"`
			Best    bool               `json:"best"`
			Metrics map[string]float64 `json:"metrics"`
		}
		rows := make([]row, len(es))
		for i, e := range es {
			rows[i] = row{e.Name, e.Manifest.Kind, e.Manifest.Step, e.Manifest.Epoch, e.Best, e.Manifest.Metrics}
		}
		return json.NewEncoder(u.out).Encode(rows)
	}
	if len(es) == 0 {
		fmt.Fprintf(u.out, "%s has no checkpoints\n", o.Run)
		return nil
	}
	keys := map[string]bool{}
	for _, e := range es {
		for k := range e.Manifest.Metrics {
			keys[k] = true
		}
	}
	var cols []string
	for k := range keys {
		cols = append(cols, k)
	}
	sort.Strings(cols)
	w := tabwriter.NewWriter(u.out, 0, 4, 2, ' ', 0)
	fmt.Fprintf(w, "best\tcheckpoint\tkind\tstep\tepoch\t%s\n", strings.Join(cols, "\t"))
	for _, e := range es {
		mark := ""
		if e.Best {
			mark = "*"
		}
		fmt.Fprintf(w, "%s\t%s\t%s\t%d\t%d", mark, e.Name, e.Manifest.Kind, e.Manifest.Step, e.Manifest.Epoch)
		for _, c := range cols {
			if v, ok := e.Manifest.Metrics[c]; ok {
				fmt.Fprintf(w, "\t%.4f", v)
			} else {
				fmt.Fprint(w, "\t-")
			}
		}
		fmt.Fprintln(w)
	}
	return w.Flush()
}
