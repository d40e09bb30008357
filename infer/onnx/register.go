package onnx

import "github.com/strata-retrieval/strata/infer"

// A program that links this package can open ONNX sentence encoders as
// text spaces (infer.Env.TextSpace); the infer core itself links no cgo.
func init() {
	infer.RegisterONNXEncoder(func(dir string) (infer.TextEncoder, error) {
		return LoadEncoder(dir, EncoderConfig{})
	})
}
