// Package onnxg writes ONNX graphs from Go: a small builder over the ONNX
// protobuf types (IR 11, ai.onnx opset 23 by default), used by the ONNX
// exports and by tests that need a model to run.
package onnxg

import (
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strconv"

	"github.com/advancedclimatesystems/gonnx/onnx"
	"google.golang.org/protobuf/proto"

	"github.com/strata-retrieval/strata/internal/atomicfile"
)

// Versions written by default.
const (
	IRVersion = 11
	Opset     = 23
)

// Graph accumulates nodes, initializers, inputs and outputs.
type Graph struct {
	g     *onnx.GraphProto
	Opset int64
	n     int
}

// New starts a graph.
func New(name string) *Graph { return &Graph{g: &onnx.GraphProto{Name: name}, Opset: Opset} }

// Dim is a dimension: an int (fixed) or a string (symbolic, e.g. "batch").
type Dim any

func valueInfo(name string, elem onnx.TensorProto_DataType, dims []Dim) *onnx.ValueInfoProto {
	sh := &onnx.TensorShapeProto{}
	for _, d := range dims {
		switch v := d.(type) {
		case int:
			sh.Dim = append(sh.Dim, &onnx.TensorShapeProto_Dimension{Value: &onnx.TensorShapeProto_Dimension_DimValue{DimValue: int64(v)}})
		case string:
			sh.Dim = append(sh.Dim, &onnx.TensorShapeProto_Dimension{Value: &onnx.TensorShapeProto_Dimension_DimParam{DimParam: v}})
		default:
			panic(fmt.Sprintf("onnxg: dimension %v", d))
		}
	}
	return &onnx.ValueInfoProto{Name: name, Type: &onnx.TypeProto{Value: &onnx.TypeProto_TensorType{
		TensorType: &onnx.TypeProto_Tensor{ElemType: int32(elem), Shape: sh}}}}
}

// Input declares a graph input.
func (g *Graph) Input(name string, elem onnx.TensorProto_DataType, dims ...Dim) string {
	g.g.Input = append(g.g.Input, valueInfo(name, elem, dims))
	return name
}

// Output declares a graph output.
func (g *Graph) Output(name string, elem onnx.TensorProto_DataType, dims ...Dim) {
	g.g.Output = append(g.g.Output, valueInfo(name, elem, dims))
}

// Float adds a float32 initializer.
func (g *Graph) Float(name string, data []float32, dims ...int64) string {
	raw := make([]byte, 4*len(data))
	for i, v := range data {
		binary.LittleEndian.PutUint32(raw[4*i:], math.Float32bits(v))
	}
	g.g.Initializer = append(g.g.Initializer, &onnx.TensorProto{Name: name, Dims: dims, DataType: int32(onnx.TensorProto_FLOAT), RawData: raw})
	return name
}

// Int64 adds an int64 initializer.
func (g *Graph) Int64(name string, data []int64, dims ...int64) string {
	raw := make([]byte, 8*len(data))
	for i, v := range data {
		binary.LittleEndian.PutUint64(raw[8*i:], uint64(v))
	}
	g.g.Initializer = append(g.g.Initializer, &onnx.TensorProto{Name: name, Dims: dims, DataType: int32(onnx.TensorProto_INT64), RawData: raw})
	return name
}

// Attr is a node attribute: int, int64, float32, []int64 or string.
type Attr struct {
	Name  string
	Value any
}

// Node adds a node and returns its output names (fresh names unless
// given by outs).
func (g *Graph) Node(op string, inputs []string, nOut int, attrs ...Attr) []string {
	g.n++
	outs := make([]string, nOut)
	for i := range outs {
		outs[i] = fmt.Sprintf("%s_%d_%d", op, g.n, i)
	}
	nd := &onnx.NodeProto{OpType: op, Name: fmt.Sprintf("%s_%d", op, g.n), Input: inputs, Output: outs}
	for _, a := range attrs {
		ap := &onnx.AttributeProto{Name: a.Name}
		switch v := a.Value.(type) {
		case int:
			ap.Type, ap.I = onnx.AttributeProto_INT, int64(v)
		case int64:
			ap.Type, ap.I = onnx.AttributeProto_INT, v
		case float32:
			ap.Type, ap.F = onnx.AttributeProto_FLOAT, v
		case float64:
			ap.Type, ap.F = onnx.AttributeProto_FLOAT, float32(v)
		case []int64:
			ap.Type, ap.Ints = onnx.AttributeProto_INTS, v
		case string:
			ap.Type, ap.S = onnx.AttributeProto_STRING, []byte(v)
		default:
			panic(fmt.Sprintf("onnxg: attribute %s of type %T", a.Name, a.Value))
		}
		nd.Attribute = append(nd.Attribute, ap)
	}
	g.g.Node = append(g.g.Node, nd)
	return outs
}

// Op adds a single-output node.
func (g *Graph) Op(op string, inputs []string, attrs ...Attr) string {
	return g.Node(op, inputs, 1, attrs...)[0]
}

// Rename makes the last node producing from also produce to (an output
// name), by an Identity node.
func (g *Graph) Rename(from, to string) {
	g.g.Node = append(g.g.Node, &onnx.NodeProto{OpType: "Identity", Name: "out_" + to, Input: []string{from}, Output: []string{to}})
}

// Marshal encodes the model.
func (g *Graph) Marshal() ([]byte, error) {
	m := &onnx.ModelProto{
		IrVersion:    IRVersion,
		ProducerName: "strata",
		OpsetImport:  []*onnx.OperatorSetIdProto{{Domain: "", Version: g.Opset}},
		Graph:        g.g,
	}
	return proto.Marshal(m)
}

// DefaultExternalThreshold is the initializer size (bytes) above which
// Save moves the weights to an external data file: protobuf cannot hold a
// model over 2 GB.
const DefaultExternalThreshold int64 = 1 << 30

// SaveOptions configures SaveWith.
type SaveOptions struct {
	// ExternalThreshold: initializers larger in total go to an external
	// data file (0: DefaultExternalThreshold; negative: always).
	ExternalThreshold int64
}

// Save writes the model atomically with the default options (SaveWith).
func (g *Graph) Save(path string) error { return g.SaveWith(path, SaveOptions{}) }

// SaveWith writes the model atomically. When its initializers exceed the
// threshold, their bytes go to PATH.data (ONNX external data, 64-byte
// aligned) and the model keeps only their locations; such a model must be
// loaded from its file path.
func (g *Graph) SaveWith(path string, o SaveOptions) error {
	if o.ExternalThreshold == 0 {
		o.ExternalThreshold = DefaultExternalThreshold
	}
	var total int64
	for _, t := range g.g.Initializer {
		total += int64(len(t.RawData))
	}
	if total > o.ExternalThreshold {
		data := path + ".data"
		loc := filepath.Base(data)
		err := atomicfile.WriteFile(data, func(w io.Writer) error {
			var off int64
			pad := make([]byte, 64)
			for _, t := range g.g.Initializer {
				if len(t.RawData) < 1024 {
					continue // small tensors stay inline
				}
				if r := off % 64; r != 0 {
					if _, err := w.Write(pad[:64-r]); err != nil {
						return err
					}
					off += 64 - r
				}
				if _, err := w.Write(t.RawData); err != nil {
					return err
				}
				t.ExternalData = []*onnx.StringStringEntryProto{
					{Key: "location", Value: loc},
					{Key: "offset", Value: strconv.FormatInt(off, 10)},
					{Key: "length", Value: strconv.Itoa(len(t.RawData))},
				}
				t.DataLocation = onnx.TensorProto_EXTERNAL
				off += int64(len(t.RawData))
				t.RawData = nil
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	b, err := g.Marshal()
	if err != nil {
		return err
	}
	return atomicfile.WriteFile(path, func(w io.Writer) error { _, err := w.Write(b); return err })
}
