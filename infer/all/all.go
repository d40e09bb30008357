// Package all imports every method package for its registrations, so that
// infer/registry knows every model kind and named method, and infer/onnx,
// so that text spaces open ONNX sentence encoders. Commands, the
// trainers' evaluations and tests import it.
package all

import (
	_ "github.com/strata-retrieval/strata/infer/baseline"
	_ "github.com/strata-retrieval/strata/infer/cor"
	_ "github.com/strata-retrieval/strata/infer/grasp"
	_ "github.com/strata-retrieval/strata/infer/kgqa"
	_ "github.com/strata-retrieval/strata/infer/llmrerank"
	_ "github.com/strata-retrieval/strata/infer/mfar"
	_ "github.com/strata-retrieval/strata/infer/mor"
	_ "github.com/strata-retrieval/strata/infer/onnx" // ONNX sentence encoders as text spaces (the infer core links no cgo)
	_ "github.com/strata-retrieval/strata/infer/planner"
	_ "github.com/strata-retrieval/strata/infer/sage"
	_ "github.com/strata-retrieval/strata/infer/simgrag"
	_ "github.com/strata-retrieval/strata/infer/traversal"
)
