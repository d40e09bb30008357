//go:build !amd64 || purego

package gemm

// archKernels: no assembly kernels on this architecture or with -tags purego.
func archKernels() []*kernel { return nil }
