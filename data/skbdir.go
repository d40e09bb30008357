package data

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"

	"github.com/klauspost/compress/zstd"

	"github.com/strata-retrieval/strata/internal/atomicfile"
)

// File names inside an skbdir/1 directory.
const (
	SchemaFile = "schema.json"
	NodesFile  = "nodes.jsonl"
	EdgesFile  = "edges.tsv"
	PlansFile  = "stark_qa/plans.jsonl"
)

// ReadSchema reads and validates schema.json.
func ReadSchema(path string) (Schema, error) {
	var s Schema
	b, err := os.ReadFile(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return s, perrf(path, 0, "", ErrMissingFile, "schema file not found")
		}
		return s, err
	}
	if err := checkUTF8Text(path, b); err != nil {
		return s, err
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		return s, jsonErr(path, 0, b, err)
	}
	if s.Format != FormatSKBDir {
		return s, perrf(path, 0, "format", ErrSchema, "want %q, got %s", FormatSKBDir, quoteClip(s.Format))
	}
	if err := s.Validate(); err != nil {
		return s, perr(path, 0, "", err)
	}
	return s, nil
}

// ReadSKBDir reads an skbdir/1 directory: schema, nodes, edges, and the QA
// half (stark_qa/ and split/) when present.
func ReadSKBDir(dir string) (*SKB, error) {
	schema, err := ReadSchema(filepath.Join(dir, SchemaFile))
	if err != nil {
		return nil, err
	}
	skb := &SKB{Schema: schema}
	if skb.Nodes, err = readNodes(filepath.Join(dir, NodesFile), &schema); err != nil {
		return nil, err
	}
	if skb.Edges, err = readEdges(filepath.Join(dir, EdgesFile), &schema, uint32(len(skb.Nodes))); err != nil {
		return nil, err
	}
	if _, statErr := os.Stat(filepath.Join(dir, StarkQAFile)); statErr == nil {
		qa, err := ReadStarkQA(dir, len(skb.Nodes))
		if err != nil {
			return nil, err
		}
		skb.QA = qa
	}
	return skb, nil
}

type jsonNode struct {
	ID     *int64            `json:"id"`
	Type   *string           `json:"type"`
	Name   string            `json:"name"`
	Fields map[string]string `json:"fields"`
}

// readNodes parses nodes.jsonl in parallel batches; the error reported is the
// one on the earliest line, so results do not depend on scheduling.
func readNodes(path string, schema *Schema) ([]Node, error) {
	rc, name, err := openMaybeZst(path)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	type batch struct {
		seq   int
		first int // line number of lines[0]
		lines [][]byte
		nodes []Node
		err   error
	}
	const batchSize = 2048
	workers := runtime.GOMAXPROCS(0)
	in := make(chan *batch, workers*2)
	out := make(chan *batch, workers*2)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for b := range in {
				b.nodes = make([]Node, 0, len(b.lines))
				for i, line := range b.lines {
					n, err := parseNodeLine(name, b.first+i, line, schema)
					if err != nil {
						b.err = err
						break
					}
					b.nodes = append(b.nodes, n)
				}
				b.lines = nil
				out <- b
			}
		}()
	}
	var readErr error
	go func() {
		sc := newLineScanner(rc, name)
		seq := 0
		cur := &batch{seq: seq, first: 1}
		for {
			line, ok := sc.Next()
			if !ok {
				break
			}
			cur.lines = append(cur.lines, append([]byte(nil), line...))
			if len(cur.lines) == batchSize {
				in <- cur
				seq++
				cur = &batch{seq: seq, first: sc.line + 1}
			}
		}
		readErr = sc.Err()
		if len(cur.lines) > 0 {
			in <- cur
		}
		close(in)
		wg.Wait()
		close(out)
	}()
	pending := map[int]*batch{}
	next := 0
	var nodes []Node
	var firstErr error
	for b := range out {
		pending[b.seq] = b
		for {
			p, ok := pending[next]
			if !ok {
				break
			}
			delete(pending, next)
			next++
			if firstErr != nil {
				continue
			}
			if p.err != nil {
				firstErr = p.err
				continue
			}
			nodes = append(nodes, p.nodes...)
		}
	}
	if firstErr != nil {
		return nil, firstErr
	}
	if readErr != nil {
		return nil, readErr
	}
	if len(nodes) == 0 {
		return nil, perrf(name, 0, "", ErrSyntax, "no nodes: the file is empty (an SKB needs at least one node)")
	}
	return nodes, nil
}

// parseNodeLine parses one JSON line. The node's id must equal its 0-based
// line index (line-1): ids are dense and in file order.
func parseNodeLine(file string, line int, b []byte, schema *Schema) (Node, error) {
	var jn jsonNode
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&jn); err != nil {
		return Node{}, jsonErr(file, line, b, err)
	}
	if dec.More() {
		return Node{}, perrf(file, line, "", ErrSyntax, "more than one JSON value on the line")
	}
	if jn.ID == nil {
		return Node{}, perrf(file, line, "id", ErrSyntax, "missing")
	}
	want := int64(line - 1)
	if *jn.ID != want {
		if *jn.ID < want && *jn.ID >= 0 {
			return Node{}, perrf(file, line, "id", ErrDuplicateID, "id %d was already used (ids are dense 0..N-1 in file order; expected %d)", *jn.ID, want)
		}
		return Node{}, perrf(file, line, "id", ErrIDRange, "got %d, expected %d (ids are dense 0..N-1 in file order)", *jn.ID, want)
	}
	if jn.Type == nil {
		return Node{}, perrf(file, line, "type", ErrSyntax, "missing")
	}
	t, ok := schema.NodeTypeID(*jn.Type)
	if !ok {
		return Node{}, perrf(file, line, "type", ErrUnknownType, "%s is not in schema node_types", quoteClip(*jn.Type))
	}
	n := Node{Type: t, Name: jn.Name, Fields: make([]string, len(schema.TextFields))}
	for k, v := range jn.Fields {
		i, ok := schema.FieldIndex(k)
		if !ok {
			return Node{}, perrf(file, line, "fields."+k, ErrUnknownField, "%s is not in schema text_fields", quoteClip(k))
		}
		if k == NameField {
			// The name field is the node's name: it may give the name
			// (when "name" is absent or empty) or repeat it, never differ.
			switch {
			case n.Name == "":
				n.Name = v
			case v != "" && v != n.Name:
				return Node{}, perrf(file, line, "fields."+k, ErrSyntax, "%s differs from the node's name %s (the name field is the name)", quoteClip(v), quoteClip(n.Name))
			}
			continue
		}
		n.Fields[i] = v
	}
	return n, nil
}

// jsonErr converts an encoding/json error into a ParseError naming the field.
func jsonErr(file string, line int, b []byte, err error) error {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return perrf(file, line, te.Field, ErrSyntax, "expected %s, got JSON %s", te.Type, te.Value)
	}
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return perrf(file, line, "", ErrSyntax, "invalid JSON at byte %d: %v", se.Offset, err)
	}
	if errors.Is(err, io.EOF) {
		return perrf(file, line, "", ErrSyntax, "empty line")
	}
	return perrf(file, line, "", ErrSyntax, "%v", err)
}

// readEdges parses edges.tsv: src<TAB>relation<TAB>dst per line.
func readEdges(path string, schema *Schema, numNodes uint32) (Edges, error) {
	var e Edges
	rc, name, err := openMaybeZst(path)
	if err != nil {
		return e, err
	}
	defer rc.Close()
	relIDs := make(map[string]RelID, len(schema.RelationTypes))
	for i, r := range schema.RelationTypes {
		relIDs[r] = RelID(i)
	}
	sc := newLineScanner(rc, name)
	for {
		line, ok := sc.Next()
		if !ok {
			break
		}
		if len(line) == 0 {
			continue
		}
		src, rel, dst, err := parseEdgeLine(name, sc.line, line, relIDs, numNodes)
		if err != nil {
			return e, err
		}
		e.Add(src, rel, dst)
	}
	return e, sc.Err()
}

func parseEdgeLine(file string, line int, b []byte, relIDs map[string]RelID, numNodes uint32) (uint32, RelID, uint32, error) {
	t1 := bytes.IndexByte(b, '\t')
	if t1 < 0 {
		return 0, 0, 0, perrf(file, line, "", ErrSyntax, "want 3 tab-separated columns src, relation, dst")
	}
	t2 := bytes.IndexByte(b[t1+1:], '\t')
	if t2 < 0 {
		return 0, 0, 0, perrf(file, line, "", ErrSyntax, "want 3 tab-separated columns src, relation, dst")
	}
	t2 += t1 + 1
	if bytes.IndexByte(b[t2+1:], '\t') >= 0 {
		return 0, 0, 0, perrf(file, line, "", ErrSyntax, "more than 3 tab-separated columns")
	}
	src, err := parseNodeID(b[:t1], numNodes)
	if err != nil {
		return 0, 0, 0, perr(file, line, "src", err)
	}
	rel, ok := relIDs[string(b[t1+1:t2])]
	if !ok {
		return 0, 0, 0, perrf(file, line, "relation", ErrUnknownRelation, "%s is not in schema relation_types", quoteClip(string(b[t1+1:t2])))
	}
	dst, err := parseNodeID(b[t2+1:], numNodes)
	if err != nil {
		return 0, 0, 0, perr(file, line, "dst", err)
	}
	return src, rel, dst, nil
}

func parseNodeID(b []byte, numNodes uint32) (uint32, error) {
	if len(b) == 0 {
		return 0, fmt.Errorf("%w: empty node id", ErrSyntax)
	}
	var v uint64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, fmt.Errorf("%w: node id %s is not a non-negative integer", ErrSyntax, quoteClip(string(b)))
		}
		v = v*10 + uint64(c-'0')
		if v > 1<<32 {
			return 0, fmt.Errorf("%w: node id %s, the SKB has %d nodes", ErrIDRange, clip(string(b)), numNodes)
		}
	}
	if v >= uint64(numNodes) {
		return 0, fmt.Errorf("%w: node id %d, the SKB has %d nodes", ErrIDRange, v, numNodes)
	}
	return uint32(v), nil
}

// WriteOptions controls WriteSKBDir.
type WriteOptions struct {
	// Compress writes nodes.jsonl.zst and edges.tsv.zst.
	Compress bool
	// Overwrite replaces an existing non-empty directory.
	Overwrite bool
	// Plans, when non-nil, is written to stark_qa/plans.jsonl: one JSON
	// object per query id, in the order given.
	Plans []PlanRecord
}

// WriteSKBDir writes skb as an skbdir/1 directory, atomically.
func WriteSKBDir(dir string, skb *SKB, opt WriteOptions) error {
	if err := skb.Validate(); err != nil {
		return fmt.Errorf("write %s: %w", dir, err)
	}
	return atomicfile.WriteDir(dir, opt.Overwrite, func(tmp string) error {
		s := skb.Schema
		s.Format = FormatSKBDir
		if err := writeJSONFile(filepath.Join(tmp, SchemaFile), s); err != nil {
			return err
		}
		nodesName, edgesName := NodesFile, EdgesFile
		if opt.Compress {
			nodesName += ".zst"
			edgesName += ".zst"
		}
		if err := writeMaybeZst(filepath.Join(tmp, nodesName), opt.Compress, func(w io.Writer) error {
			return writeNodes(w, skb)
		}); err != nil {
			return err
		}
		if err := writeMaybeZst(filepath.Join(tmp, edgesName), opt.Compress, func(w io.Writer) error {
			return writeEdges(w, skb)
		}); err != nil {
			return err
		}
		if skb.QA != nil {
			if err := WriteStarkQA(tmp, skb.QA); err != nil {
				return err
			}
		}
		if opt.Plans != nil {
			if err := atomicfile.WriteFile(filepath.Join(tmp, PlansFile), func(w io.Writer) error {
				return WritePlans(w, opt.Plans)
			}); err != nil {
				return err
			}
		}
		return nil
	})
}

func writeJSONFile(path string, v any) error {
	return atomicfile.WriteFile(path, func(w io.Writer) error {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(v)
	})
}

func writeMaybeZst(path string, compress bool, fn func(w io.Writer) error) error {
	return atomicfile.WriteFile(path, func(w io.Writer) error {
		if !compress {
			return fn(w)
		}
		enc, err := zstd.NewWriter(w, zstd.WithEncoderConcurrency(1))
		if err != nil {
			return err
		}
		if err := fn(enc); err != nil {
			enc.Close()
			return err
		}
		return enc.Close()
	})
}

func writeNodes(w io.Writer, skb *SKB) error {
	var buf []byte
	for i := range skb.Nodes {
		n := &skb.Nodes[i]
		buf = buf[:0]
		buf = append(buf, `{"id":`...)
		buf = strconv.AppendInt(buf, int64(i), 10)
		buf = append(buf, `,"type":`...)
		buf = appendJSONString(buf, skb.Schema.NodeTypes[n.Type])
		buf = append(buf, `,"name":`...)
		buf = appendJSONString(buf, n.Name)
		buf = append(buf, `,"fields":{`...)
		first := true
		for fi, f := range skb.Schema.TextFields {
			if n.Fields[fi] == "" {
				continue
			}
			if !first {
				buf = append(buf, ',')
			}
			first = false
			buf = appendJSONString(buf, f)
			buf = append(buf, ':')
			buf = appendJSONString(buf, n.Fields[fi])
		}
		buf = append(buf, "}}\n"...)
		if _, err := w.Write(buf); err != nil {
			return err
		}
	}
	return nil
}

func appendJSONString(buf []byte, s string) []byte {
	b, _ := json.Marshal(s) // strings always marshal
	return append(buf, b...)
}

func writeEdges(w io.Writer, skb *SKB) error {
	var buf []byte
	for i := range skb.Edges.Src {
		buf = buf[:0]
		buf = strconv.AppendUint(buf, uint64(skb.Edges.Src[i]), 10)
		buf = append(buf, '\t')
		buf = append(buf, skb.Schema.RelationTypes[skb.Edges.Rel.At(i)]...)
		buf = append(buf, '\t')
		buf = strconv.AppendUint(buf, uint64(skb.Edges.Dst[i]), 10)
		buf = append(buf, '\n')
		if _, err := w.Write(buf); err != nil {
			return err
		}
	}
	return nil
}
