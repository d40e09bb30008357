package data

import (
	"archive/zip"
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"math/big"
	"os"
	"path"
	"strings"

	"github.com/nlpodyssey/gopickle/types"

	"github.com/strata-retrieval/strata/checkpoints"
)

// Reading torch.save files (.pt) without trusting them: the format is
// recognised by its first bytes (an empty file, a zip archive, the legacy
// stream of torch < 1.6, or the tar archive of torch < 0.4, which is
// refused), every pickle goes through scanPickle and checkPickled, and every
// storage must hold exactly the bytes its tensor's pickle declares. A tensor
// is a view into its storage; torchView checks the view before anything
// reads through it.

// torchDtype describes the element type of a storage class.
type torchDtype struct {
	name string
	size int
}

var torchStorageClasses = map[string]torchDtype{
	"FloatStorage":    {"float32", 4},
	"DoubleStorage":   {"float64", 8},
	"HalfStorage":     {"float16", 2},
	"BFloat16Storage": {"bfloat16", 2},
	"LongStorage":     {"int64", 8},
	"IntStorage":      {"int32", 4},
	"ShortStorage":    {"int16", 2},
	"CharStorage":     {"int8", 1},
	"ByteStorage":     {"uint8", 1},
	"BoolStorage":     {"bool", 1},
}

// torchStorageClass is what the pickle's torch.XStorage global resolves
// to.
type torchStorageClass struct{ dtype torchDtype }

// torchStorage is a storage: numel elements of one dtype, raw little-endian
// bytes once loaded.
type torchStorage struct {
	dtype torchDtype
	key   string
	numel int
	data  []byte
}

// torchTensor is a strided view of a storage (torch._utils.
// _rebuild_tensor_v2's arguments).
type torchTensor struct {
	storage *torchStorage
	offset  int
	size    []int
	stride  []int
}

type rebuildTensor struct{}

func (rebuildTensor) Call(args ...any) (any, error) {
	// storage, storage_offset, size, stride, requires_grad, backward_hooks
	// [, metadata]
	if len(args) != 6 && len(args) != 7 {
		return nil, fmt.Errorf("_rebuild_tensor_v2: %d arguments, want 6 or 7", len(args))
	}
	st, ok := args[0].(*torchStorage)
	if !ok {
		return nil, fmt.Errorf("_rebuild_tensor_v2: storage is a %T", args[0])
	}
	off, ok := args[1].(int)
	if !ok {
		return nil, fmt.Errorf("_rebuild_tensor_v2: storage offset is a %T", args[1])
	}
	size, err := intTuple(args[2], "size")
	if err != nil {
		return nil, err
	}
	stride, err := intTuple(args[3], "stride")
	if err != nil {
		return nil, err
	}
	return &torchTensor{storage: st, offset: off, size: size, stride: stride}, nil
}

func intTuple(v any, what string) ([]int, error) {
	t, ok := v.(*types.Tuple)
	if !ok {
		return nil, fmt.Errorf("_rebuild_tensor_v2: %s is a %T, want a tuple", what, v)
	}
	if len(*t) > 64 {
		return nil, fmt.Errorf("_rebuild_tensor_v2: %s has %d dimensions", what, len(*t))
	}
	out := make([]int, len(*t))
	for i, x := range *t {
		n, ok := x.(int)
		if !ok {
			return nil, fmt.Errorf("_rebuild_tensor_v2: %s[%d] is a %T, want an int", what, i, x)
		}
		out[i] = n
	}
	return out, nil
}

// torchFindClass resolves the classes torch.save files hold, and numpy's.
func torchFindClass(module, name string) (any, error) {
	if module == "torch" {
		if dt, ok := torchStorageClasses[name]; ok {
			return &torchStorageClass{dt}, nil
		}
	}
	switch module + "." + name {
	case "torch._utils._rebuild_tensor_v2":
		return rebuildTensor{}, nil
	case "torch.nn.backends.thnn._get_thnn_function_backend":
		return noneCallable{}, nil // historical; unused
	}
	return numpyFindClass(module, name)
}

type noneCallable struct{}

func (noneCallable) Call(...any) (any, error) { return nil, nil }

// readTorchFile reads a torch.save file.
func readTorchFile(path string) (any, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	v, err := decodeTorch(f, st.Size())
	if err != nil {
		return nil, pickleErr(path, err)
	}
	return v, nil
}

// decodeTorch reads the torch.save file held in the size bytes of ra.
func decodeTorch(ra io.ReaderAt, size int64) (any, error) {
	if size == 0 {
		return nil, errors.New("empty file: not a torch.save file")
	}
	head := make([]byte, 262)
	n, _ := ra.ReadAt(head, 0)
	head = head[:n]
	switch {
	case bytes.HasPrefix(head, []byte("PK\x03\x04")):
		return decodeTorchZip(ra, size)
	case len(head) >= 262 && string(head[257:262]) == "ustar":
		return nil, errors.New("the tar format of torch < 0.4 is not supported (load the file and torch.save it again)")
	case head[0] == 0x80:
		return decodeTorchLegacy(ra, size)
	}
	return nil, fmt.Errorf("not a torch.save file (it starts with % x, want a zip archive or a pickle)", head[:min(len(head), 4)])
}

// storageLoader collects the storages a tensor pickle refers to.
type storageLoader struct {
	byKey map[string]*torchStorage
	order []*torchStorage
}

// persistent resolves ('storage', class, key, location, numel[, view]).
func (l *storageLoader) persistent(legacy bool) func(any) (any, error) {
	return func(id any) (any, error) {
		t, ok := id.(*types.Tuple)
		if !ok || len(*t) == 0 {
			return nil, fmt.Errorf("persistent id is a %T, want a tuple", id)
		}
		if kind, _ := (*t)[0].(string); kind != "storage" {
			return nil, fmt.Errorf("persistent id of kind %v, want storage", (*t)[0])
		}
		want := 5
		if legacy {
			want = 6
		}
		if len(*t) != want {
			return nil, fmt.Errorf("storage id with %d elements, want %d", len(*t), want)
		}
		cls, ok1 := (*t)[1].(*torchStorageClass)
		key, ok2 := (*t)[2].(string)
		numel, ok3 := (*t)[4].(int)
		if !ok1 || !ok2 || !ok3 {
			return nil, fmt.Errorf("storage id (%T, %T, %T), want (storage class, key, numel)", (*t)[1], (*t)[2], (*t)[4])
		}
		if legacy && (*t)[5] != nil {
			return nil, fmt.Errorf("storage %q is a view of another storage (not supported)", clip(key))
		}
		if numel < 0 || numel > math.MaxInt/cls.dtype.size {
			return nil, fmt.Errorf("storage %q declares %d elements", clip(key), numel)
		}
		if st, ok := l.byKey[key]; ok {
			if st.dtype != cls.dtype || st.numel != numel {
				return nil, fmt.Errorf("storage %q declared twice, differently", clip(key))
			}
			return st, nil
		}
		st := &torchStorage{dtype: cls.dtype, key: key, numel: numel}
		l.byKey[key] = st
		l.order = append(l.order, st)
		return st, nil
	}
}

func decodeTorchZip(ra io.ReaderAt, size int64) (any, error) {
	zr, err := zip.NewReader(ra, size)
	if err != nil {
		return nil, fmt.Errorf("zip archive: %w", err)
	}
	var pkl *zip.File
	byName := map[string]*zip.File{}
	byBase := map[string]*zip.File{}
	for _, f := range zr.File {
		byName[f.Name] = f
		byBase[path.Base(f.Name)] = f
		switch path.Base(f.Name) {
		case "data.pkl":
			if pkl != nil {
				return nil, errors.New("zip archive holds two data.pkl")
			}
			pkl = f
		case "constants.pkl":
			return nil, errors.New("a TorchScript archive, not a torch.save file")
		}
	}
	if pkl == nil {
		return nil, errors.New("zip archive without data.pkl: not a torch.save file")
	}
	psize := int64(pkl.UncompressedSize64)
	if psize < 0 {
		return nil, errors.New("data.pkl: bad size")
	}
	open := func() (io.ReadCloser, error) {
		rc, err := pkl.Open()
		if err != nil {
			return nil, fmt.Errorf("data.pkl: %w", err)
		}
		return rc, nil
	}
	rc, err := open()
	if err != nil {
		return nil, err
	}
	_, err = scanPickle(bufio.NewReader(rc), psize, nil)
	rc.Close()
	if err != nil {
		return nil, fmt.Errorf("data.pkl: %w", err)
	}
	if rc, err = open(); err != nil {
		return nil, err
	}
	l := &storageLoader{byKey: map[string]*torchStorage{}}
	v, err := unpickle(bufio.NewReader(rc), torchFindClass, l.persistent(false))
	rc.Close()
	if err != nil {
		return nil, fmt.Errorf("data.pkl: %w", err)
	}
	if err := checkPickled(v, pickleWork(psize)); err != nil {
		return nil, err
	}
	prefix := strings.TrimSuffix(pkl.Name, "data.pkl")
	for _, st := range l.order {
		f := byName[prefix+"data/"+st.key]
		if f == nil {
			f = byBase[st.key]
		}
		if f == nil {
			return nil, fmt.Errorf("storage %q: no record %sdata/%s in the archive", clip(st.key), prefix, clip(st.key))
		}
		want := uint64(st.numel) * uint64(st.dtype.size)
		if f.UncompressedSize64 != want {
			return nil, fmt.Errorf("storage %q holds %d bytes; its pickle declares %d %s elements, %d bytes (truncated?)", clip(st.key), f.UncompressedSize64, st.numel, st.dtype.name, want)
		}
		rc, err := f.Open()
		if err != nil {
			return nil, fmt.Errorf("storage %q: %w", clip(st.key), err)
		}
		st.data, err = readExactly(rc, int64(want), f.Method == zip.Store && f.CompressedSize64 == want && want <= uint64(size))
		rc.Close()
		if err != nil {
			return nil, fmt.Errorf("storage %q: %w", clip(st.key), err)
		}
	}
	return v, nil
}

// readExactly reads exactly n bytes from r. The buffer is allocated up
// front only when n is known to be backed by input (prealloc); otherwise
// it grows as bytes arrive, so a lying size costs no memory.
func readExactly(r io.Reader, n int64, prealloc bool) ([]byte, error) {
	if prealloc {
		b := make([]byte, n)
		if got, err := io.ReadFull(r, b); err != nil {
			return nil, fmt.Errorf("%d of %d bytes readable (truncated?)", got, n)
		}
		return b, nil
	}
	var buf bytes.Buffer
	got, err := io.Copy(&buf, io.LimitReader(r, n+1))
	if err != nil {
		return nil, err
	}
	if got != n {
		return nil, fmt.Errorf("%d bytes readable, %d declared (truncated?)", got, n)
	}
	return buf.Bytes(), nil
}

// torchMagic is the first pickle of a legacy torch.save stream.
var torchMagic, _ = new(big.Int).SetString("1950a86a20f9469cfc6c", 16)

// decodeTorchLegacy reads the stream torch.save wrote before 1.6 (and with
// _use_new_zipfile_serialization=False): five pickles (magic number,
// protocol version, system info, the object, the storage keys), then
// each storage as an 8-byte element count and its bytes.
func decodeTorchLegacy(ra io.ReaderAt, size int64) (any, error) {
	r := bufio.NewReader(io.NewSectionReader(ra, 0, size))
	left := size
	next := func(what string, find func(string, string) (any, error), persistent func(any) (any, error)) (any, error) {
		var buf bytes.Buffer
		n, err := scanPickle(r, left, &buf)
		if err != nil {
			return nil, fmt.Errorf("%s pickle: %w", what, err)
		}
		left -= n
		v, err := unpickle(&buf, find, persistent)
		if err != nil {
			return nil, fmt.Errorf("%s pickle: %w", what, err)
		}
		if err := checkPickled(v, pickleWork(n)); err != nil {
			return nil, err
		}
		return v, nil
	}
	magic, err := next("magic number", nil, nil)
	if err != nil {
		return nil, err
	}
	if m, ok := magic.(*big.Int); !ok || m.Cmp(torchMagic) != 0 {
		return nil, errors.New("a pickle, but not a torch.save file (no torch magic number)")
	}
	proto, err := next("protocol version", nil, nil)
	if err != nil {
		return nil, err
	}
	if p, ok := proto.(int); !ok || p != 1001 {
		return nil, fmt.Errorf("torch protocol version %v, want 1001", proto)
	}
	if _, err := next("system info", nil, nil); err != nil {
		return nil, err
	}
	l := &storageLoader{byKey: map[string]*torchStorage{}}
	v, err := next("object", torchFindClass, l.persistent(true))
	if err != nil {
		return nil, err
	}
	keysV, err := next("storage keys", nil, nil)
	if err != nil {
		return nil, err
	}
	keys, ok := keysV.(*types.List)
	if !ok {
		return nil, fmt.Errorf("storage keys are a %T, want a list", keysV)
	}
	for i, k := range *keys {
		key, ok := k.(string)
		if !ok {
			return nil, fmt.Errorf("storage key %d is a %T", i, k)
		}
		st := l.byKey[key]
		if st == nil {
			return nil, fmt.Errorf("storage key %q: no tensor refers to it", clip(key))
		}
		if st.data != nil {
			return nil, fmt.Errorf("storage key %q listed twice", clip(key))
		}
		var nb [8]byte
		if _, err := io.ReadFull(r, nb[:]); err != nil {
			return nil, fmt.Errorf("storage %q: the file ends before its size (truncated?)", clip(key))
		}
		left -= 8
		numel := binary.LittleEndian.Uint64(nb[:])
		if numel != uint64(st.numel) {
			return nil, fmt.Errorf("storage %q holds %d elements; its pickle declares %d", clip(key), numel, st.numel)
		}
		want := int64(st.numel) * int64(st.dtype.size)
		if want > left {
			return nil, fmt.Errorf("storage %q needs %d bytes, %d are left (truncated?)", clip(key), want, left)
		}
		if st.data, err = readExactly(r, want, true); err != nil {
			return nil, fmt.Errorf("storage %q: %w", clip(key), err)
		}
		left -= want
	}
	for _, st := range l.order {
		if st.data == nil {
			return nil, fmt.Errorf("storage %q: its data is not in the file (truncated?)", clip(st.key))
		}
	}
	return v, nil
}

// torchMaxExpand bounds how many values a view may show per storage
// element (views with zero or overlapping strides show an element many
// times; saved files rarely hold any).
const torchMaxExpand = 16

// torchView checks that every element of t's view lies in its storage and
// returns the number of elements of the view.
func torchView(t *torchTensor) (int, error) {
	st := t.storage
	if st.data == nil {
		return 0, errors.New("tensor storage was not loaded")
	}
	if len(t.stride) != len(t.size) {
		return 0, fmt.Errorf("size %v and stride %v differ in length", t.size, t.stride)
	}
	if t.offset < 0 {
		return 0, fmt.Errorf("negative storage offset %d", t.offset)
	}
	total, last := 1, t.offset
	for d, n := range t.size {
		s := t.stride[d]
		if n < 0 || s < 0 {
			return 0, fmt.Errorf("size %v, stride %v: negative entries", t.size, t.stride)
		}
		if n == 0 {
			return 0, nil
		}
		if total > math.MaxInt/n {
			return 0, fmt.Errorf("size %v: the element count overflows", t.size)
		}
		total *= n
		if s > 0 && n-1 > (math.MaxInt-last)/s {
			return 0, fmt.Errorf("size %v, stride %v: offsets overflow", t.size, t.stride)
		}
		last += (n - 1) * s
	}
	if last >= st.numel {
		return 0, fmt.Errorf("size %v, stride %v, offset %d reach element %d of a storage of %d (truncated?)", t.size, t.stride, t.offset, last, st.numel)
	}
	if total > torchMaxExpand*max(st.numel, 64) {
		return 0, fmt.Errorf("size %v: %d values over a storage of %d", t.size, total, st.numel)
	}
	return total, nil
}

// forEach calls fn with the storage index of every element of the view, in
// row-major order. The view must have passed torchView.
func (t *torchTensor) forEach(fn func(i, off int)) {
	idx := make([]int, len(t.size))
	total := 1
	for _, n := range t.size {
		total *= n
	}
	off := t.offset
	for i := 0; i < total; i++ {
		fn(i, off)
		for d := len(idx) - 1; d >= 0; d-- {
			idx[d]++
			off += t.stride[d]
			if idx[d] < t.size[d] {
				break
			}
			off -= idx[d] * t.stride[d]
			idx[d] = 0
		}
	}
}

// int64At returns element i of an integer (or integral float) storage.
func (st *torchStorage) int64At(i int) (int64, bool) {
	b := st.data
	switch st.dtype.name {
	case "int64":
		return int64(binary.LittleEndian.Uint64(b[8*i:])), true
	case "int32":
		return int64(int32(binary.LittleEndian.Uint32(b[4*i:]))), true
	case "float32": // STaRK's amazon node_types are torch.zeros (float)
		return int64(math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))), true
	}
	return 0, false
}

// float32At returns element i of a floating-point storage.
func (st *torchStorage) float32At(i int) (float32, bool) {
	b := st.data
	switch st.dtype.name {
	case "float32":
		return math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:])), true
	case "float16":
		return checkpoints.HalfToFloat32(binary.LittleEndian.Uint16(b[2*i:])), true
	case "bfloat16":
		return math.Float32frombits(uint32(binary.LittleEndian.Uint16(b[2*i:])) << 16), true
	case "float64":
		return float32(math.Float64frombits(binary.LittleEndian.Uint64(b[8*i:]))), true
	}
	return 0, false
}
