package index

import (
	"encoding/json"
	"fmt"

	"github.com/strata-retrieval/strata/data/snapshot"
)

type bm25Meta struct {
	Config Config  `json:"config"`
	N      int     `json:"n"`
	AvgDL  float64 `json:"avgdl"`
}

// Encode adds the index to a snapshot under the given section prefix.
func (ix *BM25) Encode(w *snapshot.Writer, prefix string) {
	meta, _ := json.Marshal(bm25Meta{Config: ix.cfg, N: ix.n, AvgDL: ix.avgdl})
	w.Add(prefix+".meta", meta)
	w.AddStrings(prefix+".terms", ix.terms)
	w.AddFloat32s(prefix+".idf", ix.idf)
	w.AddUint64s(prefix+".off", ix.off)
	w.AddUint32s(prefix+".docs", ix.docs)
	w.AddFloat32s(prefix+".weights", ix.weights)
	w.AddUint32s(prefix+".doclen", ix.docLen)
}

// Decode reads an index written by Encode. The arrays are views into the
// snapshot buffer.
func Decode(r *snapshot.Reader, prefix string) (*BM25, error) {
	mb, err := r.Bytes(prefix + ".meta")
	if err != nil {
		return nil, err
	}
	var meta bm25Meta
	if err := json.Unmarshal(mb, &meta); err != nil {
		return nil, fmt.Errorf("%s.meta: %w", prefix, err)
	}
	ix := &BM25{cfg: meta.Config, n: meta.N, avgdl: meta.AvgDL}
	if ix.terms, err = r.Strings(prefix + ".terms"); err != nil {
		return nil, err
	}
	if ix.idf, err = r.Float32s(prefix + ".idf"); err != nil {
		return nil, err
	}
	if ix.off, err = r.Uint64s(prefix + ".off"); err != nil {
		return nil, err
	}
	if ix.docs, err = r.Uint32s(prefix + ".docs"); err != nil {
		return nil, err
	}
	if ix.weights, err = r.Float32s(prefix + ".weights"); err != nil {
		return nil, err
	}
	if ix.docLen, err = r.Uint32s(prefix + ".doclen"); err != nil {
		return nil, err
	}
	V := len(ix.terms)
	if len(ix.idf) != V || len(ix.off) != V+1 || len(ix.docs) != len(ix.weights) || len(ix.docLen) != ix.n ||
		(V > 0 && ix.off[V] != uint64(len(ix.docs))) {
		return nil, fmt.Errorf("index %s: %w: inconsistent array lengths", prefix, snapshot.ErrCorrupt)
	}
	for t := 0; t < V; t++ {
		if ix.off[t] > ix.off[t+1] {
			return nil, fmt.Errorf("index %s: %w: postings offsets decrease", prefix, snapshot.ErrCorrupt)
		}
	}
	for _, d := range ix.docs {
		if int(d) >= ix.n {
			return nil, fmt.Errorf("index %s: %w: posting for document %d of %d", prefix, snapshot.ErrCorrupt, d, ix.n)
		}
	}
	ix.vocab = make(map[string]uint32, V)
	for i, t := range ix.terms {
		ix.vocab[t] = uint32(i)
	}
	return ix, nil
}
