//go:build !amd64 || purego

package vec

func reluVec([]float32) int                     { return 0 }
func reluBackwardVec(_, _ []float32) int        { return 0 }
func addToVec(_, _ []float32) int               { return 0 }
func adamVec(_, _, _, _ []float32, _ *Adam) int { return 0 }

// Impl names the vector code in use: always "go" here.
func Impl() string { return "go" }
