package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"
	"golang.org/x/sys/cpu"

	"github.com/strata-retrieval/strata/data/index"
	"github.com/strata-retrieval/strata/internal/gemm"
	"github.com/strata-retrieval/strata/internal/vec"
	"github.com/strata-retrieval/strata/models"
)

const versionLong = `Print strata's version, the CPU it runs on and the numeric kernels it chose
for that CPU: the matrix product (gemm: avx512 on CPUs with AVX-512F and
AVX-512VL enabled by the OS, avx2 with AVX2 and FMA, go otherwise) and the
AVX2 vector loops (training's elementwise steps, the softmax's exponentials,
the dense top-k scan; go without AVX2). The AVX-512 and AVX2 GEMM kernels
agree bit for bit, so a model trained on an AVX-512 machine and one trained
on an AVX2 machine are identical; the pure-Go kernel rounds without fused
multiply-adds, so its models can differ in the last bits. STRATA_GEMM=avx2|go
forces a slower GEMM kernel.`

func newVersionCmd(u *ui) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the version, the CPU and the kernels in use",
		Long:  versionLong,
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return printVersion(u.out)
		},
	}
}

func printVersion(w io.Writer) error {
	version, rev := "(devel)", ""
	if bi, ok := debug.ReadBuildInfo(); ok {
		if bi.Main.Version != "" {
			version = bi.Main.Version
		}
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" {
				rev = " " + s.Value[:min(12, len(s.Value))]
			}
		}
	}
	fmt.Fprintf(w, "strata %s%s %s %s/%s\n", version, rev, runtime.Version(), runtime.GOOS, runtime.GOARCH)
	fmt.Fprintf(w, "cpu: %s (%s)\n", cpuModel(), cpuFeatures())
	forced := ""
	if v := os.Getenv(gemm.EnvKernel); v != "" {
		forced = fmt.Sprintf(" (forced by %s)", gemm.EnvKernel)
	}
	_, err := fmt.Fprintf(w, "kernels: gemm %s%s, vector ops %s, softmax exp %s, dense scan %s\n",
		gemm.Impl(), forced, vec.Impl(), models.ExpImpl(), index.ScanImpl())
	return err
}

// cpuFeatures lists the features the kernels are chosen by, as the
// process sees them (CPU and OS support).
func cpuFeatures() string {
	if runtime.GOARCH != "amd64" {
		return "no x86 kernels on " + runtime.GOARCH
	}
	var have, lack []string
	for _, f := range []struct {
		name string
		ok   bool
	}{{"AVX2", cpu.X86.HasAVX2}, {"FMA", cpu.X86.HasFMA}, {"AVX-512F", cpu.X86.HasAVX512F}, {"AVX-512VL", cpu.X86.HasAVX512VL}} {
		if f.ok {
			have = append(have, f.name)
		} else {
			lack = append(lack, f.name)
		}
	}
	s := strings.Join(have, ", ")
	if len(lack) > 0 {
		s = strings.TrimPrefix(s+"; no "+strings.Join(lack, ", no "), "; ")
	}
	return s
}

// cpuModel is /proc/cpuinfo's model name, or "unknown CPU".
func cpuModel() string {
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return "unknown CPU"
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if k, v, ok := strings.Cut(sc.Text(), ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return "unknown CPU"
}
