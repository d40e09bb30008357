package onnx

import (
	"errors"
	"fmt"
	"path/filepath"
	"sync"

	ort "github.com/yalue/onnxruntime_go"

	"github.com/strata-retrieval/strata/internal/cache"
)

// LibEnv names the environment variable holding the path of ONNX
// Runtime's shared library (make ort fetches the CPU one into
// .cache/onnxruntime-1.30.0/libonnxruntime.so.1 and make test sets it).
const LibEnv = "STRATA_ORT_LIB"

// ErrNoRuntime reports that ONNX Runtime's library was not found.
var ErrNoRuntime = errors.New("ONNX Runtime library not found: run `make ort` and set " + LibEnv + " to .cache/onnxruntime-1.30.0/libonnxruntime.so.1")

var ortOnce struct {
	sync.Once
	err error
	lib string
}

// Library is the library path: $STRATA_ORT_LIB, else the make ort cache
// in the working directory or one of its parents.
func Library() (string, error) {
	p, ok := cache.Find(LibEnv, filepath.Join("onnxruntime-1.30.0", "libonnxruntime.so.1"))
	if !ok {
		if p != "" {
			return "", fmt.Errorf("%s=%s: %w", LibEnv, p, ErrNoRuntime)
		}
		return "", ErrNoRuntime
	}
	return p, nil
}

// Init initialises ONNX Runtime's process-global environment once (the
// one place that does).
func Init() error {
	ortOnce.Do(func() {
		lib, err := Library()
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

// Options sets up ONNX Runtime sessions.
type Options struct {
	Threads int  // intra-op threads; 0: ONNX Runtime's default
	CUDA    bool // use the CUDA execution provider (needs the GPU library)
}

func (o Options) session() (*ort.SessionOptions, error) {
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

// Session runs an ONNX model with dynamic shapes.
type Session struct {
	s       *ort.DynamicAdvancedSession
	Inputs  []string
	Outputs []string
}

// NewSession opens model (a file path; models over 2 GB keep their
// external data beside it) with the named inputs and outputs; nil names
// mean all of the model's.
func NewSession(model string, inputs, outputs []string, o Options) (*Session, error) {
	if err := Init(); err != nil {
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
	return &Session{s: s, Inputs: inputs, Outputs: outputs}, nil
}

// Close releases the session.
func (s *Session) Close() error { return s.s.Destroy() }

// Run runs the model on inputs (tensors built with ort.NewTensor) and
// returns the outputs, which the caller destroys.
func (s *Session) Run(inputs ...ort.Value) ([]ort.Value, error) {
	outs := make([]ort.Value, len(s.Outputs))
	if err := s.s.Run(inputs, outs); err != nil {
		return nil, err
	}
	return outs, nil
}
