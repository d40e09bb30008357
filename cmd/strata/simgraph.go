package main

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/strata-retrieval/strata/graphops/workspace"
	"github.com/strata-retrieval/strata/infer"
	"github.com/strata-retrieval/strata/infer/sage"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/strata-retrieval/strata/graphops"
)

type simGraphOptions struct {
	WS     string
	Config graphops.SimGraphConfig
	JSON   bool
}

func newSimGraphCmd(u *ui) *cobra.Command {
	var o simGraphOptions
	cmd := &cobra.Command{
		Use:   "simgraph WORKSPACE",
		Short: "Build SAGE's similarity graph of the candidates and report its degrees per percentile",
		Long: `Build SAGE's offline similarity graph over the workspace's candidates: every
text field is encoded with the dense channel's encoder, a field's threshold
is a percentile of the cosine of randomly sampled pairs, and two candidates
are linked when any field's cosine exceeds its threshold. The degree
statistics are exact (all pairs), for percentiles 80 to 99 as SAGE's Table 5.
The sage-sim method builds the same graph at the 95th percentile.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.WS = args[0]
			return runSimGraph(cmd.Context(), u, o)
		},
	}
	cmd.Flags().Uint64Var(&o.Config.Seed, "seed", 0, "seed of the pair sample")
	cmd.Flags().IntVar(&o.Config.Sample, "sample", 200000, "random pairs per field for the thresholds")
	cmd.Flags().BoolVar(&o.JSON, "json", false, "print one JSON object")
	return cmd
}

func runSimGraph(ctx context.Context, u *ui, o simGraphOptions) error {
	ws, err := workspace.Load(o.WS)
	if err != nil {
		return err
	}
	defer ws.Close()
	d, err := optionalDense(infer.NewEnv(ctx, ws))
	if err != nil {
		return err
	}
	u.stage("comparing %d candidates pairwise", len(ws.Candidates))
	_, stats, fields, err := sage.BuildSimilarityGraph(ctx, ws, d, o.Config)
	if err != nil {
		return err
	}
	if o.JSON {
		return json.NewEncoder(u.out).Encode(map[string]any{"fields": fields, "nodes": len(ws.Candidates), "percentiles": stats})
	}
	fmt.Fprintf(u.out, "%d candidates, fields %s\n", len(ws.Candidates), strings.Join(fields, ", "))
	w := tabwriter.NewWriter(u.out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "percentile\tedges\tmean degree\tmedian\tp90\tmax\tisolated\tthresholds")
	for _, s := range stats {
		var th []string
		for _, t := range s.Thresholds {
			th = append(th, fmt.Sprintf("%.3f", t))
		}
		fmt.Fprintf(w, "%.0f\t%d\t%.1f\t%d\t%d\t%d\t%d\t%s\n", s.Percentile, s.Edges, s.Mean, s.Median, s.P90, s.Max, s.Isolated, strings.Join(th, " "))
	}
	return w.Flush()
}
