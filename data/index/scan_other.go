//go:build !amd64 || purego

package index

// scanGEVec and scanGTVec have no vector version here: scanGE's and
// scanGT's loops do all the values.
func scanGEVec(row []float32, thr float32) (j, n8 int) { return 0, 0 }
func scanGTVec(row []float32, thr float32) (j, n8 int) { return 0, 0 }
