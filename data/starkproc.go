package data

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/nlpodyssey/gopickle/types"
)

// Files of a STaRK processed SKB directory (what stark_qa's load_skb
// extracts from processed.zip).
var StarkProcessedFiles = []string{"node_info.pkl", "edge_index.pt", "edge_types.pt", "node_types.pt", "node_type_dict.pkl", "edge_type_dict.pkl"}

// Text fields of imported STaRK SKBs per data set, in document order.
var starkFields = map[string][]string{
	"amazon": {"title", "brand", "dimensions", "weight", "description", "features", "reviews", "qa"},
	"mag":    {"title", "abstract", "publication_date", "venue", "paper_count", "citation_count"},
	"prime":  {"type", "source", "details"},
}

// ReadStarkProcessed reads STaRK's processed SKB files from dir. dataset is
// amazon, mag or prime (empty: guessed from the node types) and decides how
// node_info becomes text fields, following STaRK's get_doc_info. Edges keep
// their stored direction; candidates are products (amazon), papers (mag) or
// every node (prime).
func ReadStarkProcessed(dir, dataset string) (*SKB, error) {
	for _, f := range StarkProcessedFiles {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			return nil, perrf(filepath.Join(dir, f), 0, "", ErrMissingFile, "STaRK processed file not found")
		}
	}
	ntd, err := readTypeDict(filepath.Join(dir, "node_type_dict.pkl"))
	if err != nil {
		return nil, err
	}
	etd, err := readTypeDict(filepath.Join(dir, "edge_type_dict.pkl"))
	if err != nil {
		return nil, err
	}
	if dataset == "" {
		dataset = guessDataset(ntd)
	}
	fields, ok := starkFields[dataset]
	if !ok {
		return nil, fmt.Errorf("stark: unknown dataset %s (want amazon, mag or prime)", quoteClip(dataset))
	}
	schema := Schema{Format: FormatSKBDir, Name: "stark-" + dataset, TextFields: fields}
	typeIDs := map[int64]TypeID{}
	for _, e := range ntd {
		typeIDs[e.key] = TypeID(len(schema.NodeTypes))
		schema.NodeTypes = append(schema.NodeTypes, e.name)
	}
	relIDs := map[int64]RelID{}
	for _, e := range etd {
		relIDs[e.key] = RelID(len(schema.RelationTypes))
		schema.RelationTypes = append(schema.RelationTypes, e.name)
	}
	switch dataset {
	case "amazon":
		schema.CandidateTypes = []string{"product"}
	case "mag":
		schema.CandidateTypes = []string{"paper"}
	default:
		schema.CandidateTypes = append([]string(nil), schema.NodeTypes...)
	}
	if err := schema.Validate(); err != nil {
		return nil, perr(filepath.Join(dir, "node_type_dict.pkl"), 0, "", err)
	}
	ntPath := filepath.Join(dir, "node_types.pt")
	nodeTypes, _, err := readLongTensor(ntPath)
	if err != nil {
		return nil, err
	}
	n := len(nodeTypes)
	skb := &SKB{Schema: schema, Nodes: make([]Node, n)}
	for i, t := range nodeTypes {
		id, ok := typeIDs[t]
		if !ok {
			return nil, perrf(ntPath, 0, fmt.Sprintf("[%d]", i), ErrUnknownType, "node type id %d is not in node_type_dict.pkl", t)
		}
		skb.Nodes[i] = Node{Type: id, Fields: make([]string, len(fields))}
	}
	eiPath := filepath.Join(dir, "edge_index.pt")
	ei, shape, err := readLongTensor(eiPath)
	if err != nil {
		return nil, err
	}
	if len(shape) != 2 || shape[0] != 2 {
		return nil, perrf(eiPath, 0, "shape", ErrSyntax, "edge_index has shape %v, want [2, E]", shape)
	}
	etPath := filepath.Join(dir, "edge_types.pt")
	et, _, err := readLongTensor(etPath)
	if err != nil {
		return nil, err
	}
	m := shape[1]
	if len(et) != m {
		return nil, perrf(etPath, 0, "shape", ErrSyntax, "%d edge types for %d edges", len(et), m)
	}
	for i := 0; i < m; i++ {
		s, d := ei[i], ei[m+i]
		if s < 0 || s >= int64(n) || d < 0 || d >= int64(n) {
			return nil, perrf(eiPath, 0, fmt.Sprintf("[:, %d]", i), ErrIDRange, "edge %d-%d with %d nodes", s, d, n)
		}
		r, ok := relIDs[et[i]]
		if !ok {
			return nil, perrf(etPath, 0, fmt.Sprintf("[%d]", i), ErrUnknownRelation, "edge type id %d is not in edge_type_dict.pkl", et[i])
		}
		skb.Edges.Add(uint32(s), r, uint32(d))
	}
	niPath := filepath.Join(dir, "node_info.pkl")
	info, err := loadPickle(niPath)
	if err != nil {
		return nil, err
	}
	entries, err := dictEntries(info)
	if err != nil {
		return nil, perr(niPath, 0, "", err)
	}
	seen := make([]bool, n)
	for _, e := range entries {
		k, ok := toInt(e.Key)
		if !ok || k < 0 || k >= int64(n) {
			return nil, perrf(niPath, 0, fmt.Sprintf("[%v]", e.Key), ErrIDRange, "node key %v with %d nodes", e.Key, n)
		}
		if seen[k] {
			return nil, perrf(niPath, 0, fmt.Sprintf("[%d]", k), ErrDuplicateID, "node %d appears twice", k)
		}
		seen[k] = true
		attrs, err := dictEntries(e.Value)
		if err != nil {
			return nil, perr(niPath, 0, fmt.Sprintf("[%d]", k), err)
		}
		nd := &skb.Nodes[k]
		fillStarkNode(dataset, schema.NodeTypes[nd.Type], attrs, nd)
	}
	return skb, nil
}

type typeEntry struct {
	key  int64
	name string
}

func readTypeDict(path string) ([]typeEntry, error) {
	v, err := loadPickle(path)
	if err != nil {
		return nil, err
	}
	entries, err := dictEntries(v)
	if err != nil {
		return nil, perr(path, 0, "", err)
	}
	var out []typeEntry
	for _, e := range entries {
		k, ok := toInt(e.Key)
		name, ok2 := e.Value.(string)
		if !ok || !ok2 {
			return nil, perrf(path, 0, fmt.Sprintf("[%v]", e.Key), ErrSyntax, "want int -> str entries, got %T -> %T", e.Key, e.Value)
		}
		out = append(out, typeEntry{k, name})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].key < out[j].key })
	return out, nil
}

func guessDataset(ntd []typeEntry) string {
	for _, e := range ntd {
		switch e.name {
		case "product":
			return "amazon"
		case "paper":
			return "mag"
		case "gene/protein", "disease":
			return "prime"
		}
	}
	return ""
}

func setField(nd *Node, fields []string, name, value string) {
	for i, f := range fields {
		if f == name {
			nd.Fields[i] = value
			return
		}
	}
}

// fillStarkNode maps one node_info record to the name and text fields the
// way STaRK's get_doc_info renders documents.
func fillStarkNode(dataset, typeName string, attrs []kv, nd *Node) {
	fields := starkFields[dataset]
	switch dataset {
	case "prime":
		nd.Name = attrStr(attrs, "name")
		setField(nd, fields, "type", attrStr(attrs, "type"))
		setField(nd, fields, "source", attrStr(attrs, "source"))
		if d, ok := attr(attrs, "details"); ok {
			setField(nd, fields, "details", primeDetails(typeName, d))
		}
	case "mag":
		switch typeName {
		case "paper":
			nd.Name = attrStr(attrs, "title")
			setField(nd, fields, "title", nd.Name)
			setField(nd, fields, "abstract", strings.TrimRight(strings.ReplaceAll(attrStr(attrs, "abstract"), "\r", ""), "\n"))
			setField(nd, fields, "publication_date", attrStr(attrs, "Date"))
			for _, k := range []string{"OriginalVenue", "JournalDisplayName", "ConferenceSeriesDisplayName", "ConferenceInstancesDisplayName"} {
				if v := attrStr(attrs, k); v != "" {
					setField(nd, fields, "venue", v)
					break
				}
			}
		default: // author, institution, field_of_study
			nd.Name = attrStr(attrs, "DisplayName")
			setField(nd, fields, "paper_count", attrStr(attrs, "PaperCount"))
			setField(nd, fields, "citation_count", attrStr(attrs, "CitationCount"))
		}
	case "amazon":
		switch typeName {
		case "brand", "category", "color":
			nd.Name = attrStr(attrs, typeName+"_name")
			return
		}
		nd.Name = attrStr(attrs, "title")
		setField(nd, fields, "title", nd.Name)
		setField(nd, fields, "brand", attrStr(attrs, "brand"))
		if det, ok := attr(attrs, "details"); ok {
			if des, err := dictEntries(det); err == nil {
				if dict, ok := attr(des, "dictionary"); ok {
					if dd, err := dictEntries(dict); err == nil {
						if parts := strings.Split(attrStr(dd, "product_dimensions"), " ; "); len(parts) == 2 {
							setField(nd, fields, "dimensions", parts[0])
							setField(nd, fields, "weight", parts[1])
						}
					}
				}
			}
		}
		if d, ok := attr(attrs, "description"); ok {
			var ds []string
			for _, x := range listOf(d) {
				ds = append(ds, pyStr(x))
			}
			setField(nd, fields, "description", strings.TrimSpace(strings.Join(ds, " ")))
		}
		if f, ok := attr(attrs, "feature"); ok {
			var fs []string
			for _, x := range listOf(f) {
				s := pyStr(x)
				if s == "" || strings.Contains(strings.ToLower(s), "asin") {
					continue
				}
				fs = append(fs, s)
			}
			setField(nd, fields, "features", strings.Join(fs, "\n"))
		}
		if r, ok := attr(attrs, "review"); ok {
			// STaRK orders reviews by helpful votes (most first) and keeps
			// max_entries+2 = 27 of them; ties keep file order here.
			type review struct {
				votes int
				text  string
			}
			var rs []review
			for _, x := range listOf(r) {
				if es, err := dictEntries(x); err == nil {
					v, _ := strconv.Atoi(strings.ReplaceAll(attrStr(es, "vote"), ",", ""))
					rs = append(rs, review{v, fmt.Sprintf("summary: %s\ntext: %q", attrStr(es, "summary"), attrStr(es, "reviewText"))})
				}
			}
			sort.SliceStable(rs, func(i, j int) bool { return rs[i].votes > rs[j].votes })
			var texts []string
			for i, rv := range rs {
				if i >= starkMaxEntries+2 {
					break
				}
				texts = append(texts, rv.text)
			}
			setField(nd, fields, "reviews", strings.Join(texts, "\n"))
		}
		if q, ok := attr(attrs, "qa"); ok {
			var qs []string
			for i, x := range listOf(q) {
				if i >= starkMaxEntries+2 {
					break
				}
				if es, err := dictEntries(x); err == nil {
					qs = append(qs, fmt.Sprintf("question: %q\nanswer: %q", attrStr(es, "question"), attrStr(es, "answer")))
				}
			}
			setField(nd, fields, "qa", strings.Join(qs, "\n"))
		}
	}
}

// starkMaxEntries is AmazonSKB's max_entries: its loops stop after index
// max_entries+1, keeping max_entries+2 reviews and Q&A pairs.
const starkMaxEntries = 25

var geneExplain = map[string]string{
	"name": "gene name", "type_of_gene": "gene types", "alias": "other gene names", "other_names": "extended other gene names",
	"genomic_pos": "genomic position", "generif": "PubMed text", "interpro": "protein family and classification information",
	"summary": "protein summary text",
}

// primeDetails renders a Prime node's details dict as STaRK's get_doc_info
// does: one "key: value" line per entry, skipping empty or nan values and
// keys starting with "_" or containing "_id"; gene/protein keys get their
// explanations, interpro lists their descriptions, generif joins its texts.
func primeDetails(typeName string, d any) string {
	es, err := dictEntries(d)
	if err != nil {
		return pyStr(d)
	}
	var lines []string
	for _, e := range es {
		key, _ := e.Key.(string)
		v := e.Value
		if s := pyStr(v); s == "" || s == "nan" || strings.HasPrefix(key, "_") || strings.Contains(key, "_id") {
			continue
		}
		if expl, ok := geneExplain[key]; ok && typeName == "gene/protein" {
			switch key {
			case "interpro":
				items := listOf(v)
				if items == nil {
					items = []any{v}
				}
				var descs []any
				for _, it := range items {
					if ies, err := dictEntries(it); err == nil {
						if dsc, ok := attr(ies, "desc"); ok {
							descs = append(descs, dsc)
						}
					}
				}
				l := types.List(descs)
				v = &l
			case "generif":
				var texts []string
				for _, it := range listOf(v) {
					if ies, err := dictEntries(it); err == nil {
						texts = append(texts, attrStr(ies, "text"))
					}
				}
				v = strings.Join(texts, "; ")
			case "genomic_pos":
				if items := listOf(v); len(items) > 0 {
					v = items[0]
				}
			}
			lines = append(lines, fmt.Sprintf("%s (%s): %s", key, expl, pyStr(v)))
			continue
		}
		lines = append(lines, key+": "+pyStr(v))
	}
	return strings.Join(lines, "\n")
}
