package infer

import (
	"errors"
	"fmt"
	"path/filepath"
	"sync"

	ort "github.com/yalue/onnxruntime_go"

	"github.com/strata-retrieval/strata/internal/cache"
)

// ORTLibEnv names the environment variable holding the path of ONNX
// Runtime's shared library (make ort fetches the CPU one into
// .cache/onnxruntime-1.30.0/libonnxruntime.so.1 and make test sets it).
const ORTLibEnv = "STRATA_ORT_LIB"

// ErrNoORT reports that ONNX Runtime's library was not found.
var ErrNoORT = errors.New("ONNX Runtime library not found: run `make ort` and set " + ORTLibEnv + " to .cache/onnxruntime-1.30.0/libonnxruntime.so.1")

var ortOnce struct {
	sync.Once
	err error
	lib string
}

// ORTLibrary is the library path: $STRATA_ORT_LIB, else the make ort cache
// in the working directory or one of its parents.
func ORTLibrary() (string, error) {
	p, ok := cache.Find(ORTLibEnv, filepath.Join("onnxruntime-1.30.0", "libonnxruntime.so.1"))
	if !ok {
		if p != "" {
			return "", fmt.Errorf("%s=%s: %w", ORTLibEnv, p, ErrNoORT)
		}
		return "", ErrNoORT
	}
	return p, nil
}

// InitORT initialises ONNX Runtime's process-global environment once (the
// one place that does).
func InitORT() error {
	ortOnce.Do(func() {
		lib, err := ORTLibrary()
		if err != nil {
			ortOnce.err = err
			return
		}
		ortOnce.lib = lib
		ort.SetSharedLibraryPath(lib)
		if err := ort.InitializeEnvironment(); err != nil {
			ortOnce.err = fmt.Errorf("ONNX Runtime %s: %w", lib, err)
		}
	})
	return ortOnce.err
}

// ORTOptions sets up ONNX Runtime sessions.
type ORTOptions struct {
	Threads int  // intra-op threads; 0: ONNX Runtime's default
	CUDA    bool // use the CUDA execution provider (needs the GPU library)
}

func (o ORTOptions) session() (*ort.SessionOptions, error) {
	so, err := ort.NewSessionOptions()
	if err != nil {
		return nil, err
	}
	if o.Threads > 0 {
		if err := so.SetIntraOpNumThreads(o.Threads); err != nil {
			so.Destroy()
			return nil, err
		}
	}
	if o.CUDA {
		cu, err := ort.NewCUDAProviderOptions()
		if err != nil {
			so.Destroy()
			return nil, fmt.Errorf("CUDA execution provider: %w", err)
		}
		defer cu.Destroy()
		if err := so.AppendExecutionProviderCUDA(cu); err != nil {
			so.Destroy()
			return nil, fmt.Errorf("CUDA execution provider: %w", err)
		}
	}
	return so, nil
}

// ORTSession runs an ONNX model with dynamic shapes.
type ORTSession struct {
	s       *ort.DynamicAdvancedSession
	Inputs  []string
	Outputs []string
}

// NewORTSession opens model (a file path; models over 2 GB keep their
// external data beside it) with the named inputs and outputs; nil names
// mean all of the model's.
func NewORTSession(model string, inputs, outputs []string, o ORTOptions) (*ORTSession, error) {
	if err := InitORT(); err != nil {
		return nil, err
	}
	if inputs == nil || outputs == nil {
		in, out, err := ort.GetInputOutputInfo(model)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", model, err)
		}
		if inputs == nil {
			for _, i := range in {
				inputs = append(inputs, i.Name)
			}
		}
		if outputs == nil {
			for _, i := range out {
				outputs = append(outputs, i.Name)
			}
		}
	}
	so, err := o.session()
	if err != nil {
		return nil, err
	}
	defer so.Destroy()
	s, err := ort.NewDynamicAdvancedSession(model, inputs, outputs, so)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", model, err)
	}
	return &ORTSession{s: s, Inputs: inputs, Outputs: outputs}, nil
}

// Close releases the session.
func (s *ORTSession) Close() error { return s.s.Destroy() }

// Run runs the model on inputs (tensors built with ort.NewTensor) and
// returns the outputs, which the caller destroys.
func (s *ORTSession) Run(inputs ...ort.Value) ([]ort.Value, error) {
	outs := make([]ort.Value, len(s.Outputs))
	if err := s.s.Run(inputs, outs); err != nil {
		return nil, err
	}
	return outs, nil
}
