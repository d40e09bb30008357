package gemm

import (
	"fmt"
	"os"
	"strings"
)

// EnvKernel is the environment variable that forces a micro-kernel
// ("avx512", "avx2" or "go"), for testing the fallbacks; unset, the best
// one the CPU runs is used. Naming one the CPU lacks panics at start-up.
const EnvKernel = "STRATA_GEMM"

// kernels lists the micro-kernels this process can run, best first; the
// portable Go kernel is always last.
var kernels = append(archKernels(), goKernel())

var active = choose(os.Getenv(EnvKernel))

func choose(name string) *kernel {
	if name == "" {
		return kernels[0]
	}
	var names []string
	for _, k := range kernels {
		if k.name == name {
			return k
		}
		names = append(names, k.name)
	}
	panic(fmt.Sprintf("gemm: %s=%s, but this CPU and build run only %s", EnvKernel, name, strings.Join(names, ", ")))
}
