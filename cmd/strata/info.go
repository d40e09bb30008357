package main

import (
	"encoding/json"
	"fmt"
	"os"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/strata-retrieval/strata/graphops/workspace"
)

type infoJSON struct {
	Name          string         `json:"name"`
	Fingerprint   string         `json:"fingerprint"`
	Nodes         int            `json:"nodes"`
	Edges         int            `json:"edges"`
	Candidates    int            `json:"candidates"`
	NodeTypes     map[string]int `json:"node_types"`
	Relations     map[string]int `json:"relations"`
	Splits        map[string]int `json:"splits"`
	Plans         int            `json:"plans"`
	Indexes       map[string]any `json:"indexes"`
	AdjacencyByte int            `json:"adjacency_bytes"`
	SnapshotBytes int64          `json:"snapshot_bytes"`
}

type infoOptions struct {
	WS   string
	JSON bool
}

func newInfoCmd(u *ui) *cobra.Command {
	var o infoOptions
	cmd := &cobra.Command{
		Use:   "info WORKSPACE",
		Short: "Describe a workspace: node and relation counts, splits, indexes",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.WS = args[0]
			return runInfo(u, o)
		},
	}
	cmd.Flags().BoolVar(&o.JSON, "json", false, "print one JSON object")
	return cmd
}

func runInfo(u *ui, o infoOptions) error {
	ws, err := workspace.Load(o.WS)
	if err != nil {
		return err
	}
	defer ws.Close()
	info := infoOf(ws, o.WS)
	if o.JSON {
		enc := json.NewEncoder(u.out)
		enc.SetIndent("", "  ")
		return enc.Encode(info)
	}
	s := ws.SKB.Schema
	w := tabwriter.NewWriter(u.out, 0, 4, 2, ' ', 0)
	fmt.Fprintf(w, "name\t%s\nfingerprint\t%s\nnodes\t%d\nedges\t%d\ncandidates\t%d\nplans\t%d\nsnapshot\t%.1f MB\nadjacency\t%.1f MB (%.2f bytes per entry)\n",
		info.Name, info.Fingerprint, info.Nodes, info.Edges, info.Candidates, info.Plans, float64(info.SnapshotBytes)/1e6,
		float64(info.AdjacencyByte)/1e6, float64(info.AdjacencyByte)/float64(max(1, ws.Graph.NumEntries())))
	fmt.Fprintln(w, "\nnode type\tcount")
	for _, name := range s.NodeTypes {
		fmt.Fprintf(w, "%s\t%d\n", name, info.NodeTypes[name])
	}
	fmt.Fprintln(w, "\nrelation\tedges")
	for _, name := range s.RelationTypes {
		fmt.Fprintf(w, "%s\t%d\n", name, info.Relations[name])
	}
	if ws.SKB.QA != nil {
		fmt.Fprintln(w, "\nsplit\tqueries")
		for _, sp := range ws.SKB.QA.SplitNames() {
			fmt.Fprintf(w, "%s\t%d\n", sp, info.Splits[sp])
		}
	}
	fmt.Fprintln(w, "\nindex\tdocs\tterms\tpostings")
	fmt.Fprintf(w, "%s\t%d\t%d\t%d\n", workspace.DocField, ws.Doc.NumDocs(), ws.Doc.NumTerms(), ws.Doc.NumPostings())
	for _, f := range ws.FieldNames() {
		ix := ws.Fields[f]
		fmt.Fprintf(w, "%s\t%d\t%d\t%d\n", f, ix.NumDocs(), ix.NumTerms(), ix.NumPostings())
	}
	return w.Flush()
}

// infoOf collects a workspace's statistics.
func infoOf(ws *workspace.Workspace, dir string) infoJSON {
	s := ws.SKB.Schema
	info := infoJSON{Name: s.Name, Fingerprint: ws.Fingerprint, Nodes: len(ws.SKB.Nodes), Edges: ws.SKB.Edges.Len(),
		Candidates: len(ws.Candidates), NodeTypes: map[string]int{}, Relations: map[string]int{}, Splits: map[string]int{},
		Plans: len(ws.Plans), Indexes: map[string]any{}, AdjacencyByte: ws.Graph.AdjacencyBytes()}
	if st, err := os.Stat(workspace.Path(dir)); err == nil {
		info.SnapshotBytes = st.Size()
	}
	for t, c := range ws.SKB.TypeCounts() {
		info.NodeTypes[s.NodeTypes[t]] = c
	}
	for r, c := range ws.SKB.RelationCounts() {
		info.Relations[s.RelationTypes[r]] = c
	}
	if qa := ws.SKB.QA; qa != nil {
		for _, sp := range qa.SplitNames() {
			q, _ := qa.Split(sp)
			info.Splits[sp] = len(q)
		}
	}
	info.Indexes[workspace.DocField] = map[string]any{"docs": ws.Doc.NumDocs(), "terms": ws.Doc.NumTerms(), "postings": ws.Doc.NumPostings()}
	for _, f := range ws.FieldNames() {
		ix := ws.Fields[f]
		info.Indexes[f] = map[string]any{"docs": ix.NumDocs(), "terms": ix.NumTerms(), "postings": ix.NumPostings()}
	}
	return info
}
