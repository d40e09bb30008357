package snapshot

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func write(t *testing.T) (string, []byte) {
	t.Helper()
	var w Writer
	w.AddUint32s("u32", []uint32{1, 2, 3, 0xffffffff})
	w.AddUint64s("u64", []uint64{7, 1 << 40})
	w.AddFloat32s("f32", []float32{0.5, -1.25})
	w.AddStrings("s", []string{"alpha", "", "γράμμα"})
	w.Add("raw", []byte("{}"))
	w.AddUint32s("empty", nil)
	path := filepath.Join(t.TempDir(), "x.snap")
	if err := w.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	return path, b
}

func TestRoundTrip(t *testing.T) {
	path, b := write(t)
	r, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	u32, _ := r.Uint32s("u32")
	u64, _ := r.Uint64s("u64")
	f32, _ := r.Float32s("f32")
	s, _ := r.Strings("s")
	raw, _ := r.Bytes("raw")
	empty, err := r.Uint32s("empty")
	if err != nil {
		t.Fatal(err)
	}
	if !cmp.Equal(u32, []uint32{1, 2, 3, 0xffffffff}) || !cmp.Equal(u64, []uint64{7, 1 << 40}) ||
		!cmp.Equal(f32, []float32{0.5, -1.25}) || !cmp.Equal(s, []string{"alpha", "", "γράμμα"}) ||
		string(raw) != "{}" || len(empty) != 0 {
		t.Errorf("got %v %v %v %q %q %v", u32, u64, f32, s, raw, empty)
	}
	if _, err := r.Uint32s("nope"); !errors.Is(err, ErrCorrupt) {
		t.Errorf("missing section: %v", err)
	}
	// Golden layout: magic, version 1, 7 sections (strings take two).
	if string(b[:8]) != "STRATASN" || b[8] != 1 || b[12] != 7 {
		t.Errorf("header bytes % x", b[:16])
	}
	if len(b)%64 != 0 {
		t.Errorf("file size %d not padded to 64", len(b))
	}
}

func TestCorruption(t *testing.T) {
	_, b := write(t)
	cases := map[string][]byte{
		"truncated":  b[:len(b)-70],
		"short":      b[:10],
		"bad magic":  append([]byte("XTRATASN"), b[8:]...),
		"header bit": flip(b, 30),
		"data bit":   flip(b, bytes.Index(b, []byte("alpha"))),
	}
	for name, bb := range cases {
		if _, err := Parse("x.snap", bb); !errors.Is(err, ErrCorrupt) {
			t.Errorf("%s: error %v, want ErrCorrupt", name, err)
		}
	}
	v2 := append([]byte(nil), b...)
	v2[8] = 2
	if _, err := Parse("x.snap", v2); err == nil || !bytes.Contains([]byte(err.Error()), []byte("version 2")) {
		t.Errorf("version: %v", err)
	}
}

func flip(b []byte, i int) []byte {
	c := append([]byte(nil), b...)
	c[i] ^= 0x10
	return c
}

func FuzzParse(f *testing.F) {
	var w Writer
	w.AddStrings("s", []string{"a", "bc"})
	var buf bytes.Buffer
	w.Write(&buf)
	f.Add(buf.Bytes())
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := Parse("f", b)
		if err != nil {
			return
		}
		for _, n := range r.Sections() {
			r.Strings(n)
			r.Uint64s(n)
		}
	})
}
