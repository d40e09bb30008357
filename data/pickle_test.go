package data

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// pk assembles pickle opcodes by hand (protocol 2 and 4), for hostile
// inputs Python would never write.
type pk struct{ b []byte }

func newPK() *pk { return &pk{b: []byte{0x80, 2}} }

func (p *pk) op(b ...byte) *pk { p.b = append(p.b, b...); return p }

// str pushes a str (BINUNICODE).
func (p *pk) str(s string) *pk {
	p.b = append(p.b, 'X')
	p.b = binary.LittleEndian.AppendUint32(p.b, uint32(len(s)))
	p.b = append(p.b, s...)
	return p
}

// int pushes an int: BININT for 32 bits, LONG1 otherwise.
func (p *pk) int(n int64) *pk {
	if n == int64(int32(n)) {
		p.b = append(p.b, 'J')
		p.b = binary.LittleEndian.AppendUint32(p.b, uint32(int32(n)))
		return p
	}
	p.b = append(p.b, 0x8a, 8)
	p.b = binary.LittleEndian.AppendUint64(p.b, uint64(n))
	return p
}

// tuple pushes a tuple of ints.
func (p *pk) ints(ns ...int64) *pk {
	p.op('(')
	for _, n := range ns {
		p.int(n)
	}
	return p.op('t')
}

func (p *pk) global(module, name string) *pk {
	p.b = append(p.b, 'c')
	p.b = append(p.b, module+"\n"+name+"\n"...)
	return p
}

func (p *pk) put(i byte) *pk { return p.op('q', i) }
func (p *pk) get(i byte) *pk { return p.op('h', i) }

func (p *pk) stop() []byte { return append(p.b, '.') }

// nodeInfo wraps a value pushed by push as {0: {"name": value}}, the shape
// of a Prime node_info.pkl with one node.
func nodeInfo(push func(p *pk)) []byte {
	p := newPK().op('}').int(0).op('}').str("name")
	push(p)
	return p.op('s', 's').stop()
}

// tensorPickle is data.pkl of a torch.save'd tensor whose storage "0" has
// numel elements of class cls. legacy writes the 6-element storage id of
// the pre-zip format.
func tensorPickle(cls string, numel, offset int64, size, stride []int64, legacy bool) []byte {
	return newPK().tensor(cls, "0", numel, offset, size, stride, legacy).stop()
}

// tensor pushes a tensor over storage key.
func (p *pk) tensor(cls, key string, numel, offset int64, size, stride []int64, legacy bool) *pk {
	p.global("torch._utils", "_rebuild_tensor_v2").op('(')
	p.op('(').str("storage").global("torch", cls).str(key).str("cpu").int(numel)
	if legacy {
		p.op('N')
	}
	p.op('t', 'Q')
	p.int(offset).ints(size...).ints(stride...).op(0x89)
	p.global("collections", "OrderedDict").op(')', 'R')
	return p.op('t', 'R')
}

// torchZip is a torch.save zip archive holding data.pkl and storages.
func torchZip(t testing.TB, pkl []byte, storages map[string][]byte) []byte {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	add := func(name string, b []byte) {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: name, Method: zip.Store})
		if err != nil {
			t.Fatal(err)
		}
		w.Write(b)
	}
	add("archive/data.pkl", pkl)
	for k, b := range storages {
		add("archive/data/"+k, b)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func i64s(vs ...int64) []byte {
	var b []byte
	for _, v := range vs {
		b = binary.LittleEndian.AppendUint64(b, uint64(v))
	}
	return b
}

// within fails the test when fn runs longer than d (a hang).
func within(t *testing.T, d time.Duration, fn func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); fn() }()
	select {
	case <-done:
	case <-time.After(d):
		t.Fatalf("still running after %v", d)
	}
}

// copyDir copies the files of a fixture directory into a temporary one.
func copyDir(t *testing.T, src string) string {
	dst := t.TempDir()
	es, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range es {
		b, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, e.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dst
}

// wantParseError checks that err is a ParseError naming file (by base
// name) whose message holds every part of want.
func wantParseError(t *testing.T, err error, file string, want ...string) {
	t.Helper()
	var pe *ParseError
	if !errors.As(err, &pe) || filepath.Base(pe.File) != file {
		t.Fatalf("error %v, want a ParseError in %s", err, file)
	}
	for _, w := range want {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error %q lacks %q", err, w)
		}
	}
	if len(err.Error()) > 2000 {
		t.Errorf("error of %d bytes", len(err.Error()))
	}
}

// Hostile STaRK processed files: every one is a located error, promptly;
// before, the empty .pt spun forever, the self-referencing and deep lists
// overflowed the stack, the shared references ran out of memory and the
// short storage became edges 0 -> 0.
func TestStarkProcessedHostile(t *testing.T) {
	deep := func(n int) []byte {
		return nodeInfo(func(p *pk) {
			for i := 0; i < n; i++ {
				p.op(']')
			}
			for i := 0; i < n-1; i++ {
				p.op('a')
			}
		})
	}
	shared := nodeInfo(func(p *pk) {
		p.op(']').str(strings.Repeat("x", 1000)).op('a').put(0).op('0')
		for i := 1; i <= 40; i++ {
			p.op(']', '(').get(byte(i - 1)).get(byte(i - 1)).op('e').put(byte(i)).op('0')
		}
		p.get(40)
	})
	selfRef := nodeInfo(func(p *pk) { p.op(']').put(0).get(0).op('a') })
	badUTF8 := nodeInfo(func(p *pk) { p.str("caf\xe9") })
	shortEdges := torchZip(t, tensorPickle("LongStorage", 8, 0, []int64{2, 4}, []int64{4, 1}, false), map[string][]byte{"0": i64s(1, 2, 2, 1)})
	hugeShape := torchZip(t, tensorPickle("LongStorage", 8, 0, []int64{2, 1 << 62}, []int64{1 << 62, 1}, false), map[string][]byte{"0": i64s(1, 2, 2, 1, 3, 1, 0, 0)})
	shortStride := torchZip(t, tensorPickle("LongStorage", 8, 0, []int64{2, 4}, []int64{4}, false), map[string][]byte{"0": i64s(1, 2, 2, 1, 3, 1, 0, 0)})
	past := torchZip(t, tensorPickle("LongStorage", 8, 2, []int64{2, 4}, []int64{4, 1}, false), map[string][]byte{"0": i64s(1, 2, 2, 1, 3, 1, 0, 0)})
	hugeString := append([]byte{0x80, 2, 0x8d}, i64s(1<<60)...)
	for _, c := range []struct {
		name, file string
		content    []byte
		want       []string
	}{
		{"empty .pt", "node_types.pt", nil, []string{"empty file"}},
		{"empty .pkl", "node_info.pkl", nil, []string{"empty file"}},
		{"tar .pt", "edge_types.pt", append(make([]byte, 257), "ustar\x0000"...), []string{"tar format"}},
		{"text .pt", "edge_types.pt", []byte("hello"), []string{"not a torch.save file"}},
		{"short storage", "edge_index.pt", shortEdges, []string{"storage \"0\" holds 32 bytes", "declares 8 int64 elements"}},
		{"shape overflow", "edge_index.pt", hugeShape, []string{`field "shape"`, "overflow"}},
		{"stride shorter than size", "edge_index.pt", shortStride, []string{`field "shape"`, "differ in length"}},
		{"view past storage", "edge_index.pt", past, []string{"reach element 9 of a storage of 8"}},
		{"pickle length past end", "node_info.pkl", hugeString, []string{"declares 1152921504606846976 bytes"}},
		{"unknown opcode", "node_type_dict.pkl", []byte{0x80, 2, 0xff, '.'}, []string{"unknown opcode 0xff"}},
		{"truncated pickle", "node_type_dict.pkl", []byte{0x80, 2, '}'}, []string{"before its STOP"}},
		{"self-referencing list", "node_info.pkl", selfRef, []string{"nested more than 64 deep", "[0]['name'][0][0]"}},
		{"2,000,000-deep list", "node_info.pkl", deep(2_000_000), []string{"nested more than 64 deep"}},
		{"40 levels of shared references", "node_info.pkl", shared, []string{"expands to more than", "[0]['name']"}},
		{"invalid UTF-8", "node_info.pkl", badUTF8, []string{`field "[0]['name']"`, `"caf\xe9" is not valid UTF-8`}},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := copyDir(t, filepath.Join("testdata", "stark", "prime"))
			if err := os.WriteFile(filepath.Join(dir, c.file), c.content, 0o644); err != nil {
				t.Fatal(err)
			}
			var err error
			within(t, 20*time.Second, func() { _, err = ReadStarkProcessed(dir, "") })
			wantParseError(t, err, c.file, c.want...)
		})
	}
}

// The legacy (pre-zip) torch.save stream reads like the zip format.
func TestTorchLegacyStream(t *testing.T) {
	legacy := func(numel uint64, data []byte) []byte {
		magic := append([]byte{0x80, 2, 0x8a, 10}, 0x6c, 0xfc, 0x9c, 0x46, 0xf9, 0x20, 0x6a, 0xa8, 0x50, 0x19, '.')
		b := append(magic, newPK().op('M', 0xe9, 0x03).stop()...)
		b = append(b, newPK().op('}').stop()...)
		b = append(b, tensorPickle("LongStorage", 3, 0, []int64{3}, []int64{1}, true)...)
		b = append(b, newPK().op(']', '(').str("0").op('e').stop()...)
		b = binary.LittleEndian.AppendUint64(b, numel)
		return append(b, data...)
	}
	p := filepath.Join(t.TempDir(), "t.pt")
	os.WriteFile(p, legacy(3, i64s(7, -1, 9)), 0o644)
	vals, shape, err := readLongTensor(p)
	if err != nil || len(shape) != 1 || shape[0] != 3 || vals[0] != 7 || vals[1] != -1 || vals[2] != 9 {
		t.Fatalf("legacy tensor %v %v %v", vals, shape, err)
	}
	os.WriteFile(p, legacy(3, i64s(7, -1)), 0o644)
	_, _, err = readLongTensor(p)
	wantParseError(t, err, "t.pt", "needs 24 bytes, 16 are left")
	os.WriteFile(p, legacy(2, i64s(7, -1)), 0o644)
	_, _, err = readLongTensor(p)
	wantParseError(t, err, "t.pt", "holds 2 elements; its pickle declares 3")
}

// A strided view reads the elements it shows, in row-major order.
func TestTorchStridedView(t *testing.T) {
	// storage 0..5 viewed as the transpose of [[0,1,2],[3,4,5]]
	p := filepath.Join(t.TempDir(), "t.pt")
	os.WriteFile(p, torchZip(t, tensorPickle("LongStorage", 6, 0, []int64{3, 2}, []int64{1, 3}, false), map[string][]byte{"0": i64s(0, 1, 2, 3, 4, 5)}), 0o644)
	vals, shape, err := readLongTensor(p)
	want := []int64{0, 3, 1, 4, 2, 5}
	if err != nil || len(shape) != 2 || len(vals) != 6 {
		t.Fatalf("%v %v %v", vals, shape, err)
	}
	for i := range want {
		if vals[i] != want[i] {
			t.Fatalf("view %v, want %v", vals, want)
		}
	}
}
