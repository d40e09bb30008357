// Package blevebench compares strata's BM25 with blevesearch/bleve's BM25
// scoring on one synthetic corpus. It holds only a benchmark; bleve is a test
// dependency. Size it with STRATA_BENCH_DOCS (default 20000); `make bench`
// runs it at 1M documents.
package blevebench

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/search"

	"github.com/strata-retrieval/strata/data/index"
	"github.com/strata-retrieval/strata/data/synth"
)

func envInt(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil && v > 0 {
		return v
	}
	return def
}

func BenchmarkVersusBleve(b *testing.B) {
	docs := envInt("STRATA_BENCH_DOCS", 20000)
	res, err := synth.Generate(synth.Config{Preset: "amazon", Nodes: docs * 100 / 86, Queries: 2000, Seed: 11})
	if err != nil {
		b.Fatal(err)
	}
	skb := res.SKB
	cands := skb.CandidateIDs()
	texts := make([]string, len(cands))
	for i, c := range cands {
		texts[i] = skb.Document(c)
	}
	queries := make([]string, len(skb.QA.Queries))
	for i, q := range skb.QA.Queries {
		queries[i] = q.Text
	}
	b.Logf("corpus: %d documents, %d queries, %d cores", len(texts), len(queries), runtime.GOMAXPROCS(0))

	t0 := time.Now()
	bl := index.NewBuilder(index.Config{})
	for _, t := range texts {
		bl.Add(t)
	}
	ix := bl.Build()
	strataBuild := time.Since(t0)

	t0 = time.Now()
	// One analysed text field, nothing stored: the leanest BM25 setup.
	fm := bleve.NewTextFieldMapping()
	fm.Analyzer = "standard"
	fm.Store, fm.IncludeInAll, fm.IncludeTermVectors, fm.DocValues = false, false, false, false
	dm := bleve.NewDocumentStaticMapping()
	dm.AddFieldMappingsAt("doc", fm)
	m := bleve.NewIndexMapping()
	m.DefaultMapping = dm
	m.ScoringModel = "bm25"
	m.DefaultAnalyzer = "standard"
	m.IndexDynamic, m.StoreDynamic, m.DocValuesDynamic = false, false, false
	// bleve's default on-disk index (scorch) in a temporary directory: its
	// in-memory index needed more than 18 GB for 1M documents.
	bi, err := bleve.New(filepath.Join(b.TempDir(), "bleve"), m)
	if err != nil {
		b.Fatal(err)
	}
	defer bi.Close()
	batch := bi.NewBatch()
	for i, t := range texts {
		if err := batch.Index(strconv.Itoa(i), map[string]string{"doc": t}); err != nil {
			b.Fatal(err)
		}
		if batch.Size() == 20000 {
			if err := bi.Batch(batch); err != nil {
				b.Fatal(err)
			}
			batch = bi.NewBatch()
		}
	}
	if err := bi.Batch(batch); err != nil {
		b.Fatal(err)
	}
	bleveBuild := time.Since(t0)

	b.ResetTimer()
	var strataQPS, bleveQPS, overlap float64
	for it := 0; it < b.N; it++ {
		t0 = time.Now()
		hits, err := ix.SearchBatch(context.Background(), queries, 10, nil)
		if err != nil {
			b.Fatal(err)
		}
		strataQPS = float64(len(queries)) / time.Since(t0).Seconds()

		t0 = time.Now()
		bhits := make([][]*search.DocumentMatch, len(queries))
		var wg sync.WaitGroup
		var next int
		var mu sync.Mutex
		for w := 0; w < runtime.GOMAXPROCS(0); w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for {
					mu.Lock()
					i := next
					next++
					mu.Unlock()
					if i >= len(queries) {
						return
					}
					q := bleve.NewMatchQuery(queries[i])
					q.SetField("doc")
					req := bleve.NewSearchRequestOptions(q, 10, 0, false)
					r, err := bi.Search(req)
					if err != nil {
						b.Error(err)
						return
					}
					bhits[i] = r.Hits
				}
			}()
		}
		wg.Wait()
		bleveQPS = float64(len(queries)) / time.Since(t0).Seconds()

		total := 0.0
		for i := range queries {
			set := map[uint32]bool{}
			for _, h := range hits[i] {
				set[h.ID] = true
			}
			common := 0
			for _, h := range bhits[i] {
				id, _ := strconv.Atoi(h.ID)
				if set[uint32(id)] {
					common++
				}
			}
			total += float64(common) / 10
		}
		overlap = total / float64(len(queries))
	}
	b.ReportMetric(strataQPS, "strata-qps")
	b.ReportMetric(bleveQPS, "bleve-qps")
	b.ReportMetric(strataQPS/bleveQPS, "speedup")
	b.ReportMetric(overlap, "top10-overlap")
	b.ReportMetric(strataBuild.Seconds(), "strata-build-s")
	b.ReportMetric(bleveBuild.Seconds(), "bleve-build-s")
}
