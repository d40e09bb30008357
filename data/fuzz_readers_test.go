package data

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// addStarkSeeds adds every fixture file whose name ends in ext.
func addStarkSeeds(f *testing.F, ext string) {
	ms, _ := filepath.Glob(filepath.Join("testdata", "stark", "*", "*"+ext))
	for _, m := range ms {
		if b, err := os.ReadFile(m); err == nil {
			f.Add(b)
		}
	}
}

// FuzzDecodePickle: any bytes as node_info.pkl either fail to decode or
// render through STaRK's field mapping, without panicking, hanging or
// allocating beyond the input's bound.
func FuzzDecodePickle(f *testing.F) {
	addStarkSeeds(f, ".pkl")
	f.Add(nodeInfo(func(p *pk) { p.op(']').put(0).get(0).op('a') }))
	f.Add(nodeInfo(func(p *pk) { p.str("caf\xe9") }))
	f.Add([]byte{0x80, 4, 0x95, 9, 0, 0, 0, 0, 0, 0, 0, '}', 'K', 1, 'X', 1, 0, 0, 0, 'a', 's', '.'})
	f.Fuzz(func(t *testing.T, b []byte) {
		v, err := decodePickle(bytes.NewReader(b), int64(len(b)))
		if err != nil {
			return
		}
		_ = pyStr(v)
		entries, err := dictEntries(v)
		if err != nil {
			return
		}
		for _, e := range entries {
			attrs, err := dictEntries(e.Value)
			if err != nil {
				continue
			}
			for ds, fields := range starkFields {
				nd := Node{Fields: make([]string, len(fields))}
				for _, typ := range []string{"gene/protein", "paper", "author", "product", "brand"} {
					fillStarkNode(ds, typ, attrs, &nd)
				}
			}
		}
	})
}

// FuzzDecodeTorch: any bytes as a .pt either fail to decode or give an
// integer tensor or an embedding dictionary whose every value was read
// from inside its storage. With asZip the fuzzer writes data.pkl and
// storage "0" of a zip archive built here (so the archive's checksums do
// not hide the pickle from it); otherwise raw is the whole file.
func FuzzDecodeTorch(f *testing.F) {
	ms, _ := filepath.Glob(filepath.Join("testdata", "stark", "*", "*.pt"))
	for _, m := range ms {
		if b, err := os.ReadFile(m); err == nil {
			f.Add(b, []byte(nil), false)
		}
	}
	f.Add(tensorPickle("LongStorage", 4, 0, []int64{2, 2}, []int64{2, 1}, false), i64s(1, 2, 2, 1), true)
	f.Add(tensorPickle("FloatStorage", 2, 0, []int64{1, 2}, []int64{2, 1}, false), f32s(1, 2), true)
	f.Add(newPK().op('}').int(0).tensor("HalfStorage", "0", 2, 0, []int64{2}, []int64{1}, false).op('s').stop(), []byte{0, 0x3c, 0, 0x40}, true)
	f.Fuzz(func(t *testing.T, raw, storage []byte, asZip bool) {
		b := raw
		if asZip {
			b = torchZip(t, raw, map[string][]byte{"0": storage})
		}
		v, err := decodeTorch(bytes.NewReader(b), int64(len(b)))
		if err != nil {
			return
		}
		if vals, shape, err := longTensor("f.pt", v); err == nil {
			n := 1
			for _, d := range shape {
				n *= d
			}
			if n != len(vals) {
				t.Fatalf("shape %v, %d values", shape, len(vals))
			}
		}
		if e, err := torchEmbDict("f.pt", v, 0); err == nil {
			if len(e.M.Data) != e.M.Rows*e.M.Dim || len(e.Present) != e.M.Rows {
				t.Fatalf("matrix %dx%d with %d values, %d present flags", e.M.Rows, e.M.Dim, len(e.M.Data), len(e.Present))
			}
		}
	})
}

// FuzzParseNPY: any bytes as a .npy either fail or give a matrix whose
// shape matches its data, with finite, non-zero rows.
func FuzzParseNPY(f *testing.F) {
	f.Add(npyBytes("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }", f32s(1, 2, 3, 4, 5, 6)))
	f.Add(npyBytes("{'descr': '<f2', 'fortran_order': True, 'shape': (2, 2), }", []byte{0, 0x3c, 0, 0x42, 0, 0x40, 0, 0x44}))
	f.Add(npyBytes("{'descr': '<f4', 'fortran_order': False, 'shape': (4, 4611686018427387904), }", f32s(1, 2)))
	f.Fuzz(func(t *testing.T, b []byte) {
		e, err := ParseNPY(b, "f.npy")
		if err != nil {
			return
		}
		if len(e.M.Data) != e.M.Rows*e.M.Dim || e.M.Dim == 0 {
			t.Fatalf("matrix %dx%d with %d values", e.M.Rows, e.M.Dim, len(e.M.Data))
		}
		_ = checkVectors("f.npy", e)
	})
}
