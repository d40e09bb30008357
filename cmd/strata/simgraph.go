package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/strata-retrieval/strata/graphops"
	"github.com/strata-retrieval/strata/infer"
)

func newSimGraphCmd(u *ui) *cobra.Command {
	var cfg graphops.SimGraphConfig
	var asJSON bool
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
			ws, d, err := loadWithDense(args[0])
			if err != nil {
				return err
			}
			defer ws.Close()
			u.stage("comparing %d candidates pairwise", len(ws.Candidates))
			_, stats, fields, err := infer.BuildSimilarityGraph(cmd.Context(), ws, d, cfg)
			if err != nil {
				return err
			}
			if asJSON {
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
		},
	}
	cmd.Flags().Uint64Var(&cfg.Seed, "seed", 0, "seed of the pair sample")
	cmd.Flags().IntVar(&cfg.Sample, "sample", 200000, "random pairs per field for the thresholds")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON object")
	return cmd
}
