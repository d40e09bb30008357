//go:build !amd64 || purego

package models

// expNegSubVec has no vector version here: every value is left to expNegSub's
// scalar loop.
func expNegSubVec(dst, src []float32, mx float32) (int, [8]float32) { return 0, [8]float32{} }

// ExpImpl names the code behind the softmax's exponentials: always "go"
// here.
func ExpImpl() string { return "go" }
