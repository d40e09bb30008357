//go:build !amd64 || purego

package index

// scanGEVec has no vector version here: scanGE's loop does all the values.
func scanGEVec(row []float32, thr float32) (j, n8 int) { return 0, 0 }
