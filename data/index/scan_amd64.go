//go:build !purego

package index

import "golang.org/x/sys/cpu"

//go:noescape
func scanGEAVX2(row *float32, n int, thr float32) int

var hasScanAVX2 = cpu.X86.HasAVX2

// scanGEVec is scanGE over the first len(row) &^ 7 values with AVX2: the
// first index j with !(row[j] < thr), or that length; 0 without AVX2.
func scanGEVec(row []float32, thr float32) (j, n8 int) {
	n8 = len(row) &^ 7
	if !hasScanAVX2 || n8 == 0 {
		return 0, 0
	}
	return scanGEAVX2(&row[0], n8, thr), n8
}

// ScanImpl names the code behind the dense top-k threshold scan: "avx2",
// or "go" on CPUs without AVX2.
func ScanImpl() string {
	if hasScanAVX2 {
		return "avx2"
	}
	return "go"
}
