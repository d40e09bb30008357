package checkpoints

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestEncodeGolden(t *testing.T) {
	var buf bytes.Buffer
	err := Encode(&buf, []Tensor{
		{Name: "w", Shape: []int{2}, Data: []float32{1, -2}},
		{Name: "b", Shape: []int{}, Data: []float32{0.5}},
	}, map[string]string{"kind": "gate"})
	if err != nil {
		t.Fatal(err)
	}
	hdr := `{"__metadata__":{"kind":"gate"},"b":{"dtype":"F32","shape":[],"data_offsets":[0,4]},"w":{"dtype":"F32","shape":[2],"data_offsets":[4,12]}}`
	for len(hdr)%8 != 0 {
		hdr += " "
	}
	var want []byte
	want = binary.LittleEndian.AppendUint64(want, uint64(len(hdr)))
	want = append(want, hdr...)
	for _, v := range []float32{0.5, 1, -2} {
		want = binary.LittleEndian.AppendUint32(want, math.Float32bits(v))
	}
	if !bytes.Equal(buf.Bytes(), want) {
		t.Fatalf("bytes:\n got %q\nwant %q", buf.Bytes(), want)
	}
	f, err := Decode(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if !cmp.Equal(f.Names, []string{"b", "w"}) || f.Metadata["kind"] != "gate" || !cmp.Equal(f.Tensors["w"].Data, []float32{1, -2}) {
		t.Errorf("decoded %+v", f)
	}
}

// handFile builds a safetensors file with the given header entries and data.
func handFile(hdr string, data []byte) []byte {
	var b []byte
	b = binary.LittleEndian.AppendUint64(b, uint64(len(hdr)))
	b = append(b, hdr...)
	return append(b, data...)
}

func TestDecodeHalfAndBFloat(t *testing.T) {
	// F16: 1.0 = 0x3c00, -2.5 = 0xc100, 65504 = 0x7bff, smallest subnormal 0x0001 = 2^-24, +inf 0x7c00.
	// BF16: 1.0 = 0x3f80, -0.15625 = 0xbe20.
	var data []byte
	for _, h := range []uint16{0x3c00, 0xc100, 0x7bff, 0x0001, 0x7c00, 0x3f80, 0xbe20} {
		data = binary.LittleEndian.AppendUint16(data, h)
	}
	hdr := `{"h":{"dtype":"F16","shape":[5],"data_offsets":[0,10]},"bf":{"dtype":"BF16","shape":[1,2],"data_offsets":[10,14]}}`
	f, err := Decode(handFile(hdr, data))
	if err != nil {
		t.Fatal(err)
	}
	wantH := []float32{1, -2.5, 65504, float32(math.Ldexp(1, -24)), float32(math.Inf(1))}
	if !cmp.Equal(f.Tensors["h"].Data, wantH) || f.Tensors["h"].DType != "F16" {
		t.Errorf("F16 = %v, want %v", f.Tensors["h"].Data, wantH)
	}
	if !cmp.Equal(f.Tensors["bf"].Data, []float32{1, -0.15625}) || !cmp.Equal(f.Tensors["bf"].Shape, []int{1, 2}) {
		t.Errorf("BF16 = %v %v", f.Tensors["bf"].Data, f.Tensors["bf"].Shape)
	}
	if v := HalfToFloat32(0x7e00); !math.IsNaN(float64(v)) {
		t.Errorf("NaN half = %v", v)
	}
	if v := HalfToFloat32(0x8000); math.Float32bits(v) != 0x80000000 {
		t.Errorf("negative zero = %v", v)
	}
}

func TestDecodeErrors(t *testing.T) {
	good := handFile(`{"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}}`, make([]byte, 8))
	cases := map[string]struct {
		b    []byte
		want string
	}{
		"short":          {good[:5], "shorter than the 8-byte header length"},
		"truncated data": {good[:len(good)-3], "outside the"},
		"header length":  {append([]byte{0xff, 0xff, 0, 0, 0, 0, 0, 0}, good[8:]...), "header length"},
		"bad json":       {handFile(`{"a":`, nil), "header JSON"},
		"dtype":          {handFile(`{"a":{"dtype":"I64","shape":[1],"data_offsets":[0,8]}}`, make([]byte, 8)), `dtype "I64" is not supported`},
		"shape mismatch": {handFile(`{"a":{"dtype":"F32","shape":[3],"data_offsets":[0,8]}}`, make([]byte, 8)), "needs 12 bytes"},
		"hole":           {handFile(`{"a":{"dtype":"F32","shape":[1],"data_offsets":[4,8]}}`, make([]byte, 8)), "hole in the data buffer"},
		"trailing":       {handFile(`{"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}}`, make([]byte, 8)), "trailing bytes"},
		"overlap": {handFile(`{"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},"b":{"dtype":"F32","shape":[1],"data_offsets":[4,8]}}`, make([]byte, 8)),
			"overlaps"},
	}
	for name, c := range cases {
		_, err := Decode(c.b)
		if !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want ErrFormat containing %q", name, err, c.want)
		}
	}
}

// TestPythonReadsOurFiles checks the written bytes with an independent
// reader in Python's standard library.
func TestPythonReadsOurFiles(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not installed")
	}
	path := filepath.Join(t.TempDir(), "m.safetensors")
	if err := WriteFile(path, []Tensor{{Name: "layer.weight", Shape: []int{2, 2}, Data: []float32{0.25, -1, 3, 1e-3}}}, map[string]string{"step": "7"}); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(py, filepath.Join("testdata", "read_safetensors.py"), path).CombinedOutput()
	if err != nil {
		t.Fatalf("python: %v\n%s", err, out)
	}
	want := "layer.weight F32 [2, 2] 0.25 -1.0 3.0 0.0010000000474974513\nmetadata {\"step\": \"7\"}\n"
	if string(out) != want {
		t.Errorf("python read:\n%s\nwant:\n%s", out, want)
	}
	if _, err := os.Stat(path); err != nil {
		t.Fatal(err)
	}
}

func FuzzDecode(f *testing.F) {
	var buf bytes.Buffer
	Encode(&buf, []Tensor{{Name: "x", Shape: []int{2}, Data: []float32{1, 2}}}, nil)
	f.Add(buf.Bytes())
	f.Fuzz(func(t *testing.T, b []byte) {
		file, err := Decode(b)
		if err != nil {
			return
		}
		for _, tt := range file.Tensors {
			if tt.NumElements() != len(tt.Data) {
				t.Fatalf("tensor %q: shape %v, %d values", tt.Name, tt.Shape, len(tt.Data))
			}
		}
	})
}
