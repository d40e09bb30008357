package data

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/nlpodyssey/gopickle/types"
)

// loadPickle reads a pickle file (see pickle.go), understanding numpy
// scalars.
func loadPickle(path string) (any, error) { return readPickleFile(path) }

// readLongTensor reads a .pt file holding one int64 (or int32) tensor and
// returns its values in row-major order and its shape.
func readLongTensor(path string) ([]int64, []int, error) {
	v, err := readTorchFile(path)
	if err != nil {
		return nil, nil, err
	}
	return longTensor(path, v)
}

// longTensor is readLongTensor's check and copy of the loaded value v.
func longTensor(path string, v any) ([]int64, []int, error) {
	t, ok := v.(*torchTensor)
	if !ok {
		return nil, nil, perrf(path, 0, "", ErrSyntax, "want a tensor, got %s", pyTypeName(v))
	}
	if _, ok := t.storage.int64At(0); !ok && t.storage.numel > 0 {
		return nil, nil, perrf(path, 0, "dtype", ErrSyntax, "want an integer tensor, got %s", t.storage.dtype.name)
	}
	total, err := torchView(t)
	if err != nil {
		return nil, nil, perrf(path, 0, "shape", ErrSyntax, "%v", err)
	}
	out := make([]int64, total)
	t.forEach(func(i, off int) { out[i], _ = t.storage.int64At(off) })
	return out, t.size, nil
}

// pyTypeName names the Python type of an unpickled value for errors.
func pyTypeName(v any) string {
	switch v.(type) {
	case *types.Dict, *types.OrderedDict:
		return "a dict"
	case *types.List:
		return "a list"
	case *types.Tuple:
		return "a tuple"
	case string:
		return "a str"
	case nil:
		return "None"
	case *torchTensor:
		return "a tensor"
	}
	return fmt.Sprintf("a %T", v)
}

type kv struct {
	Key   any
	Value any
}

func dictEntries(v any) ([]kv, error) {
	switch d := v.(type) {
	case *types.Dict:
		out := make([]kv, 0, d.Len())
		for _, e := range *d {
			out = append(out, kv{e.Key, e.Value})
		}
		return out, nil
	case *types.OrderedDict:
		out := make([]kv, 0, d.Len())
		for e := d.List.Front(); e != nil; e = e.Next() {
			en := e.Value.(*types.OrderedDictEntry)
			out = append(out, kv{en.Key, en.Value})
		}
		return out, nil
	}
	return nil, fmt.Errorf("%w: want a dict, got %T", ErrSyntax, v)
}

func toInt(v any) (int64, bool) {
	switch x := v.(type) {
	case int:
		return int64(x), true
	case int64:
		return x, true
	case float64:
		return int64(x), x == math.Trunc(x)
	}
	return 0, false
}

// pyStr renders a Python value the way str() would, for the values node_info
// holds.
func pyStr(v any) string {
	switch x := v.(type) {
	case nil:
		return "None"
	case string:
		return x
	case bool:
		if x {
			return "True"
		}
		return "False"
	case int:
		return strconv.Itoa(x)
	case int64:
		return strconv.FormatInt(x, 10)
	case float64:
		if math.IsNaN(x) {
			return "nan"
		}
		if x == math.Trunc(x) && math.Abs(x) < 1e16 {
			return strconv.FormatFloat(x, 'f', 1, 64)
		}
		return strconv.FormatFloat(x, 'g', -1, 64)
	case *types.List:
		parts := make([]string, 0, x.Len())
		for _, e := range *x {
			parts = append(parts, pyRepr(e))
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case *types.Tuple:
		parts := make([]string, 0, x.Len())
		for _, e := range *x {
			parts = append(parts, pyRepr(e))
		}
		return "(" + strings.Join(parts, ", ") + ")"
	case *types.Dict, *types.OrderedDict:
		es, _ := dictEntries(x)
		parts := make([]string, 0, len(es))
		for _, e := range es {
			parts = append(parts, pyRepr(e.Key)+": "+pyRepr(e.Value))
		}
		return "{" + strings.Join(parts, ", ") + "}"
	}
	return fmt.Sprint(v)
}

func pyRepr(v any) string {
	if s, ok := v.(string); ok {
		return "'" + strings.ReplaceAll(s, "'", "\\'") + "'"
	}
	return pyStr(v)
}

func attr(attrs []kv, key string) (any, bool) {
	for _, e := range attrs {
		if k, ok := e.Key.(string); ok && k == key {
			return e.Value, true
		}
	}
	return nil, false
}

func attrStr(attrs []kv, key string) string {
	v, ok := attr(attrs, key)
	if !ok || v == nil {
		return ""
	}
	s := pyStr(v)
	if s == "-1" || s == "nan" {
		return ""
	}
	return s
}

func listOf(v any) []any {
	switch x := v.(type) {
	case *types.List:
		return *x
	case *types.Tuple:
		return *x
	}
	return nil
}

// numpy scalars appear in pandas-derived node_info values.
type npDtype struct{ str string }

func (d *npDtype) PySetState(any) error { return nil }

type npDtypeClass struct{}

func (npDtypeClass) Call(args ...any) (any, error) {
	if len(args) == 0 {
		return nil, errors.New("numpy.dtype: no arguments")
	}
	s, _ := args[0].(string)
	return &npDtype{str: s}, nil
}

type npScalar struct{}

func (npScalar) Call(args ...any) (any, error) {
	if len(args) != 2 {
		return nil, fmt.Errorf("numpy scalar: %d arguments", len(args))
	}
	dt, ok := args[0].(*npDtype)
	if !ok {
		return nil, fmt.Errorf("numpy scalar: dtype %T", args[0])
	}
	var b []byte
	switch x := args[1].(type) {
	case []byte:
		b = x
	case string:
		b = []byte(x)
	default:
		return nil, fmt.Errorf("numpy scalar: payload %T", args[1])
	}
	switch dt.str {
	case "f8":
		if len(b) == 8 {
			return math.Float64frombits(binary.LittleEndian.Uint64(b)), nil
		}
	case "f4":
		if len(b) == 4 {
			return float64(math.Float32frombits(binary.LittleEndian.Uint32(b))), nil
		}
	case "i8":
		if len(b) == 8 {
			return int64(binary.LittleEndian.Uint64(b)), nil
		}
	case "i4":
		if len(b) == 4 {
			return int64(int32(binary.LittleEndian.Uint32(b))), nil
		}
	case "b1":
		if len(b) == 1 {
			return b[0] != 0, nil
		}
	}
	return nil, fmt.Errorf("numpy scalar: unsupported dtype %s with %d bytes", quoteClip(dt.str), len(b))
}

func numpyFindClass(module, name string) (any, error) {
	switch module + "." + name {
	case "numpy.dtype":
		return npDtypeClass{}, nil
	case "numpy.core.multiarray.scalar", "numpy._core.multiarray.scalar":
		return npScalar{}, nil
	}
	return nil, fmt.Errorf("class not supported in STaRK files: %s.%s", module, name)
}
