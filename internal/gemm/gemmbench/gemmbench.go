// Package gemmbench puts strata's kernel benchmarks on the machine's scale:
// it measures the float32 GEMM peak with OpenBLAS (a reference that is not
// strata's: scripts/sgemm-peak/sgemm_peak.c, built with gcc -lopenblas in a
// separate process, so strata never links OpenBLAS) and gonum's blas32
// figure at the same shape, and reports a benchmark's GFLOP/s beside both.
//
// Without gcc or Debian's libopenblas-dev the OpenBLAS figures are skipped
// with a note saying how to install them; benchmarks still report GFLOP/s
// and gonum's figure. Tests never use this package.
package gemmbench

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas32"
)

// EnvPeakBin names a prebuilt sgemm_peak binary (make bench builds one);
// unset, the source is compiled with gcc into the temporary directory.
const EnvPeakBin = "STRATA_SGEMM_PEAK_BIN"

// Install is the hint printed when OpenBLAS is missing.
const Install = "apt-get install gcc libopenblas0-pthread libopenblas-dev"

var (
	binOnce sync.Once
	binPath string
	binErr  error

	peakOnce sync.Once
	peak     float64
	peakLine string
	peakErr  error

	shapeMu    sync.Mutex
	shapeCache = map[string]float64{}
)

// source is the C program's path, found from this file's location.
func source() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "..", "scripts", "sgemm-peak", "sgemm_peak.c")
}

func peakBinary() (string, error) {
	binOnce.Do(func() {
		if p := os.Getenv(EnvPeakBin); p != "" {
			binPath = p
			return
		}
		src, err := os.ReadFile(source())
		if err != nil {
			binErr = fmt.Errorf("gemmbench: %w", err)
			return
		}
		sum := sha256.Sum256(src)
		out := filepath.Join(os.TempDir(), "strata-sgemm-peak-"+hex.EncodeToString(sum[:6]))
		if _, err := os.Stat(out); err == nil {
			binPath = out
			return
		}
		tmp := out + fmt.Sprintf(".%d", os.Getpid())
		cmd := exec.Command("gcc", "-O2", "-o", tmp, source(), "-lopenblas")
		if msg, err := cmd.CombinedOutput(); err != nil {
			binErr = fmt.Errorf("gemmbench: OpenBLAS reference not built (%v: %s); install it with: %s", err, strings.TrimSpace(string(msg)), Install)
			return
		}
		if err := os.Rename(tmp, out); err != nil {
			binErr = fmt.Errorf("gemmbench: %w", err)
			return
		}
		binPath = out
	})
	return binPath, binErr
}

// gflops reads gflops=… from the program's last line.
func gflops(out []byte) (float64, string, error) {
	var last string
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		if t := strings.TrimSpace(sc.Text()); t != "" {
			last = t
		}
	}
	for _, f := range strings.Fields(last) {
		if v, ok := strings.CutPrefix(f, "gflops="); ok {
			g, err := strconv.ParseFloat(v, 64)
			return g, last, err
		}
	}
	return 0, last, fmt.Errorf("gemmbench: no gflops= in %q", last)
}

// Peak returns OpenBLAS's best square sgemm GFLOP/s on all cores, measured
// once per process (a few seconds), and the program's summary line.
func Peak() (float64, string, error) {
	peakOnce.Do(func() {
		bin, err := peakBinary()
		if err != nil {
			peakErr = err
			return
		}
		out, err := exec.Command(bin).Output()
		if err != nil {
			peakErr = fmt.Errorf("gemmbench: %s: %w", bin, err)
			return
		}
		peak, peakLine, peakErr = gflops(out)
	})
	return peak, peakLine, peakErr
}

// OpenBLAS returns OpenBLAS's sgemm GFLOP/s at one row-major shape
// (measured once per process and shape, about a second).
func OpenBLAS(tA, tB bool, m, n, k int) (float64, error) {
	key := fmt.Sprint(tA, tB, m, n, k)
	shapeMu.Lock()
	defer shapeMu.Unlock()
	if g, ok := shapeCache[key]; ok {
		return g, nil
	}
	bin, err := peakBinary()
	if err != nil {
		return 0, err
	}
	t := func(x bool) string {
		if x {
			return "T"
		}
		return "N"
	}
	out, err := exec.Command(bin, strconv.Itoa(m), strconv.Itoa(n), strconv.Itoa(k), t(tA), t(tB)).Output()
	if err != nil {
		return 0, fmt.Errorf("gemmbench: %s: %w", bin, err)
	}
	g, _, err := gflops(out)
	if err == nil {
		shapeCache[key] = g
	}
	return g, err
}

// Gonum returns gonum blas32's GFLOP/s at one shape: the best of three
// timed runs of at least 0.2 s each.
func Gonum(tA, tB bool, m, n, k int) float64 {
	ta, tb := blas.NoTrans, blas.NoTrans
	ar, ac, br, bc := m, k, k, n
	if tA {
		ta, ar, ac = blas.Trans, k, m
	}
	if tB {
		tb, br, bc = blas.Trans, n, k
	}
	a := blas32.General{Rows: ar, Cols: ac, Stride: ac, Data: fill(ar * ac)}
	b := blas32.General{Rows: br, Cols: bc, Stride: bc, Data: fill(br * bc)}
	c := blas32.General{Rows: m, Cols: n, Stride: n, Data: make([]float32, m*n)}
	flops := 2 * float64(m) * float64(n) * float64(k)
	best := 0.0
	for range 3 {
		start, iters := time.Now(), 0
		for time.Since(start) < 200*time.Millisecond {
			blas32.Gemm(ta, tb, 1, a, b, 0, c)
			iters++
		}
		best = max(best, flops*float64(iters)/time.Since(start).Seconds()/1e9)
	}
	return best
}

func fill(n int) []float32 {
	x := make([]float32, n)
	for i := range x {
		x[i] = float32(i%13)*0.1 - 0.6
	}
	return x
}

var noteOnce sync.Once

// Report adds to b the achieved GFLOP/s (flops per iteration over the
// measured time), OpenBLAS's peak and the fraction of it ("of-peak"), and
// the given reference figures (name → GFLOP/s, e.g. gonum's at this shape).
// Call it after the timed loop.
func Report(b *testing.B, flopsPerOp float64, refs map[string]float64) float64 {
	b.Helper()
	got := flopsPerOp * float64(b.N) / b.Elapsed().Seconds() / 1e9
	b.ReportMetric(got, "GFLOP/s")
	if p, line, err := Peak(); err == nil {
		b.ReportMetric(p, "openblas-peak-GFLOP/s")
		b.ReportMetric(got/p, "of-peak")
		noteOnce.Do(func() { b.Logf("OpenBLAS peak: %s", line) })
	} else {
		noteOnce.Do(func() { b.Logf("no OpenBLAS peak (of-peak skipped): %v", err) })
	}
	for name, g := range refs {
		b.ReportMetric(g, name+"-GFLOP/s")
	}
	return got
}
