//go:build !amd64 || purego

package index

// scanGEVec has no vector version here: scanGE's loop does all the values.
func scanGEVec(row []float32, thr float32) (j, n8 int) { return 0, 0 }

// ScanImpl names the code behind the dense top-k threshold scan: always
// "go" here.
func ScanImpl() string { return "go" }
