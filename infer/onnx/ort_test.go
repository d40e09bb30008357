package onnx

import (
	"errors"
	"testing"
)

// needORT skips when ONNX Runtime's library is absent (make test fetches
// it; a plain go test may not have it).
func needORT(t testing.TB) {
	t.Helper()
	if err := Init(); errors.Is(err, ErrNoRuntime) {
		t.Skip(err)
	} else if err != nil {
		t.Fatal(err)
	}
}
