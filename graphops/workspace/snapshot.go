package workspace

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/data/index"
	"github.com/strata-retrieval/strata/data/snapshot"
	"github.com/strata-retrieval/strata/graphops"
)

// SnapshotFile is the workspace snapshot's name inside a workspace directory.
const SnapshotFile = "workspace.snap"

// Format tags the workspace layout inside the snapshot container.
const Format = "strata-workspace/1"

type meta struct {
	Format      string      `json:"format"`
	Config      Config      `json:"config"`
	Fingerprint string      `json:"fingerprint"`
	Schema      data.Schema `json:"schema"`
	Nodes       int         `json:"nodes"`
	Edges       int         `json:"edges"`
	Fields      []string    `json:"fields"`
}

type qaJSON struct {
	Queries []data.Query     `json:"queries"`
	Human   []data.Query     `json:"human,omitempty"`
	Splits  map[string][]int `json:"splits"`
}

// Path returns the snapshot path of a workspace directory.
func Path(dir string) string { return filepath.Join(dir, SnapshotFile) }

// Save writes the workspace to dir/workspace.snap atomically.
func (ws *Workspace) Save(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	var w snapshot.Writer
	skb := ws.SKB
	m := meta{Format: Format, Config: ws.Config, Fingerprint: ws.Fingerprint, Schema: skb.Schema,
		Nodes: len(skb.Nodes), Edges: skb.Edges.Len(), Fields: ws.FieldNames()}
	mb, err := json.Marshal(m)
	if err != nil {
		return err
	}
	w.Add("meta", mb)
	names := make([]string, len(skb.Nodes))
	for i := range skb.Nodes {
		names[i] = skb.Nodes[i].Name
	}
	w.AddStrings("skb.names", names)
	col := make([]string, len(skb.Nodes))
	for fi := range skb.Schema.TextFields {
		for i := range skb.Nodes {
			col[i] = skb.Nodes[i].Fields[fi]
		}
		w.AddStrings("skb.field."+strconv.Itoa(fi), col)
		col = make([]string, len(skb.Nodes))
	}
	w.AddUint32s("skb.edges.src", skb.Edges.Src)
	w.AddUint32s("skb.edges.dst", skb.Edges.Dst)
	graphops.EncodeRels(&w, "skb.edges.rel", &skb.Edges.Rel)
	if skb.QA != nil {
		qb, err := json.Marshal(qaJSON{Queries: skb.QA.Queries, Human: skb.QA.Human, Splits: skb.QA.Splits})
		if err != nil {
			return err
		}
		w.Add("qa", qb)
	}
	if ws.Plans != nil {
		pb, err := json.Marshal(ws.Plans)
		if err != nil {
			return err
		}
		w.Add("plans", pb)
	}
	ws.Doc.Encode(&w, "index."+DocField)
	for _, f := range ws.FieldNames() {
		ws.Fields[f].Encode(&w, "index.field."+f)
	}
	if err := ws.Graph.Encode(&w); err != nil {
		return err
	}
	if err := w.WriteFile(Path(dir)); err != nil {
		return err
	}
	ws.Dir = dir
	return nil
}

// ErrNoWorkspace reports a directory without a workspace snapshot.
var ErrNoWorkspace = errors.New("not a strata workspace (no workspace.snap; create one with strata import)")

// Load reads a workspace directory written by Save.
func Load(dir string) (*Workspace, error) {
	path := Path(dir)
	if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("%s: %w", dir, ErrNoWorkspace)
	}
	r, err := snapshot.Open(path)
	if err != nil {
		return nil, err
	}
	mb, err := r.Bytes("meta")
	if err != nil {
		return nil, err
	}
	var m meta
	if err := json.Unmarshal(mb, &m); err != nil {
		return nil, fmt.Errorf("%s: meta: %w", path, err)
	}
	if m.Format != Format {
		return nil, fmt.Errorf("%s: workspace format %q, this strata reads %q (re-run strata import)", path, m.Format, Format)
	}
	if err := m.Schema.Validate(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	bad := func(what string) error {
		return fmt.Errorf("%s: %w: %s", path, snapshot.ErrCorrupt, what)
	}
	skb := &data.SKB{Schema: m.Schema}
	names, err := r.Strings("skb.names")
	if err != nil {
		return nil, err
	}
	if len(names) != m.Nodes {
		return nil, bad("node count")
	}
	nf := len(m.Schema.TextFields)
	fields := make([]string, m.Nodes*nf)
	for fi := 0; fi < nf; fi++ {
		col, err := r.Strings("skb.field." + strconv.Itoa(fi))
		if err != nil {
			return nil, err
		}
		if len(col) != m.Nodes {
			return nil, bad("field length")
		}
		for i, s := range col {
			fields[i*nf+fi] = s
		}
	}
	skb.Nodes = make([]data.Node, m.Nodes)
	for i := range skb.Nodes {
		skb.Nodes[i] = data.Node{Name: names[i], Fields: fields[i*nf : (i+1)*nf : (i+1)*nf]}
	}
	g, err := graphops.Decode(r, m.Schema, skb.Nodes)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if g.NumNodes() != m.Nodes {
		g.Close()
		return nil, bad("graph node count")
	}
	for i, t := range g.Types() {
		skb.Nodes[i].Type = t
	}
	if skb.Edges.Src, err = r.Uint32s("skb.edges.src"); err != nil {
		g.Close()
		return nil, err
	}
	if skb.Edges.Dst, err = r.Uint32s("skb.edges.dst"); err != nil {
		g.Close()
		return nil, err
	}
	if skb.Edges.Rel, err = graphops.DecodeRels(r, "skb.edges.rel", m.Edges); err != nil {
		g.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(skb.Edges.Src) != m.Edges || len(skb.Edges.Dst) != m.Edges {
		g.Close()
		return nil, bad("edge count")
	}
	if qb, err := r.Bytes("qa"); err == nil {
		var q qaJSON
		if err := json.Unmarshal(qb, &q); err != nil {
			g.Close()
			return nil, bad("qa: " + err.Error())
		}
		skb.QA = &data.QA{Queries: q.Queries, Human: q.Human, Splits: q.Splits}
		if err := skb.QA.CheckSplitNames(); err != nil {
			g.Close()
			return nil, fmt.Errorf("%s: qa: %w", path, err)
		}
		skb.QA.Index()
	}
	ws := &Workspace{Config: m.Config, SKB: skb, Graph: g, Fingerprint: m.Fingerprint, Fields: map[string]*index.BM25{}, Dir: dir}
	if pb, err := r.Bytes("plans"); err == nil {
		if err := json.Unmarshal(pb, &ws.Plans); err != nil {
			g.Close()
			return nil, bad("plans: " + err.Error())
		}
	}
	ws.Candidates = skb.CandidateIDs()
	ws.CandMask = make([]bool, len(skb.Nodes))
	for _, c := range ws.Candidates {
		ws.CandMask[c] = true
	}
	if ws.Doc, err = index.Decode(r, "index."+DocField); err != nil {
		g.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if ws.Doc.NumDocs() != len(ws.Candidates) {
		g.Close()
		return nil, bad("document index size")
	}
	for _, f := range m.Fields {
		ix, err := index.Decode(r, "index.field."+f)
		if err != nil {
			g.Close()
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		if ix.NumDocs() != m.Nodes {
			g.Close()
			return nil, bad("field index size")
		}
		ws.Fields[f] = ix
	}
	return ws, nil
}
