package mfar

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/strata-retrieval/strata/data/index"
	"github.com/strata-retrieval/strata/infer"
	"github.com/strata-retrieval/strata/infer/infertest"
	"github.com/strata-retrieval/strata/internal/testws"
	"github.com/strata-retrieval/strata/models"
)

// TestFieldsRoundTrip: the cache layout keeps every value bit for bit,
// zero rows included, and rejects truncated, reshaped or padded files.
func TestFieldsRoundTrip(t *testing.T) {
	a, b := index.NewMatrix(5, 3), index.NewMatrix(4, 3)
	copy(a.Row(1), []float32{1, -2, 3.5})
	copy(a.Row(4), []float32{0, 0, 1e-30})
	copy(b.Row(0), []float32{-0.25, 7, 0})
	var buf bytes.Buffer
	if err := writeFields(&buf, []*index.Matrix{a, b}); err != nil {
		t.Fatal(err)
	}
	// magic, then per field 3 header words, the rows and their values.
	if want := len(cacheMagic) + (12 + 2*4 + 2*12) + (12 + 4 + 12); buf.Len() != want {
		t.Errorf("%d bytes, want %d", buf.Len(), want)
	}
	ga, gb := index.NewMatrix(5, 3), index.NewMatrix(4, 3)
	if err := readFields(bytes.NewReader(buf.Bytes()), []*index.Matrix{ga, gb}); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(ga.Data, a.Data) || !slices.Equal(gb.Data, b.Data) {
		t.Errorf("read %v %v, want %v %v", ga.Data, gb.Data, a.Data, b.Data)
	}
	bad := map[string][]byte{
		"truncated": buf.Bytes()[:buf.Len()-1],
		"trailing":  append(slices.Clone(buf.Bytes()), 0),
		"magic":     append([]byte("strata-mfar-fields/0\n"), buf.Bytes()[len(cacheMagic):]...),
	}
	for name, data := range bad {
		if err := readFields(bytes.NewReader(data), []*index.Matrix{index.NewMatrix(5, 3), index.NewMatrix(4, 3)}); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	if err := readFields(bytes.NewReader(buf.Bytes()), []*index.Matrix{index.NewMatrix(5, 4), index.NewMatrix(4, 3)}); !errors.Is(err, errCacheLayout) {
		t.Errorf("reshaped: %v", err)
	}
}

// countingEncoder counts the texts it encodes.
type countingEncoder struct {
	infer.TextEncoder
	n *int
}

func (c countingEncoder) EncodeTexts(texts []string) ([]float32, error) {
	*c.n += len(texts)
	return c.TextEncoder.EncodeTexts(texts)
}

// TestFieldCache: the first load of a saved workspace encodes the fields
// and writes them under CacheDir; the second encodes nothing, has the
// same vectors and ranks identically; a damaged file is re-encoded.
func TestFieldCache(t *testing.T) {
	ws := testws.Preset(t, "amazon", 600, 30)
	ws.Dir = t.TempDir()
	d := infertest.LexicalDense(t, ws)
	base, _ := infer.DenseTextEncoder(d)
	cfg := DefaultConfig(&ws.SKB.Schema, base.Dim())
	cfg.Dense = "vectors-hash"
	fw, _ := models.NewFieldWeights(cfg.Weights)
	load := func() (*Method, int) {
		n := 0
		var enc infer.TextEncoder = countingEncoder{base, &n}
		m, err := New(context.Background(), ws, enc, cfg, fw)
		if err != nil {
			t.Fatal(err)
		}
		return m, n
	}
	first, n1 := load()
	files, _ := filepath.Glob(filepath.Join(ws.Dir, CacheDir, "*.fields"))
	if n1 == 0 || len(files) != 1 {
		t.Fatalf("first load encoded %d texts, wrote %v", n1, files)
	}
	second, n2 := load()
	if n2 != 0 {
		t.Errorf("second load encoded %d texts", n2)
	}
	for f := range first.emb {
		if !slices.Equal(first.emb[f].Data, second.emb[f].Data) {
			t.Fatalf("field %d differs after the cache", f)
		}
	}
	q := ws.SKB.QA.Queries[0]
	h1, _ := first.Rank(context.Background(), q)
	h2, _ := second.Rank(context.Background(), q)
	if !slices.Equal(h1, h2) {
		t.Error("rankings differ after the cache")
	}
	if err := os.WriteFile(files[0], []byte(cacheMagic+"x"), 0o644); err != nil {
		t.Fatal(err)
	}
	third, n3 := load()
	if n3 != n1 || !slices.Equal(third.emb[0].Data, first.emb[0].Data) {
		t.Errorf("a damaged cache: %d texts encoded, want %d", n3, n1)
	}
	cfg.Dense = "other-vectors"
	if _, n4 := load(); n4 != n1 {
		t.Errorf("another encoder's vectors: %d texts encoded, want %d", n4, n1)
	}
	// Fields read another way are other vectors: neighbours by an alias
	// field, the reading field with fewer neighbours.
	cfg.Dense = "vectors-hash"
	for i, change := range []func(){
		func() { cfg.Aliases = []string{"brand"} },
		func() { cfg.ReadingNeighbours = 2 },
	} {
		change()
		if _, n := load(); n == 0 {
			t.Errorf("change %d: the cached vectors of other field texts were used", i)
		}
		if _, n := load(); n != 0 {
			t.Errorf("change %d: its own vectors were not cached (%d texts encoded)", i, n)
		}
	}
}

// FuzzReadFields: any bytes read as a field-vector cache give an error or
// vectors of the expected shapes; never a panic, a hang or a huge
// allocation (counts are bounded by the expected shapes).
func FuzzReadFields(f *testing.F) {
	a := index.NewMatrix(3, 2)
	copy(a.Row(1), []float32{1, 2})
	var buf bytes.Buffer
	if err := writeFields(&buf, []*index.Matrix{a, index.NewMatrix(3, 2)}); err != nil {
		f.Fatal(err)
	}
	f.Add(buf.Bytes())
	f.Add([]byte(cacheMagic))
	f.Fuzz(func(t *testing.T, data []byte) {
		emb := []*index.Matrix{index.NewMatrix(3, 2), index.NewMatrix(3, 2)}
		if err := readFields(bytes.NewReader(data), emb); err == nil {
			for _, x := range emb {
				if len(x.Data) != 6 {
					t.Fatalf("matrix resized to %d values", len(x.Data))
				}
			}
		}
	})
}
