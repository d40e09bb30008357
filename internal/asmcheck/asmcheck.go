// Package asmcheck audits strata's Go assembly for instructions a CPU may
// lack: a function that needs AVX-512 (EVEX encoding: Z registers, opmask
// K registers, X/Y registers 16-31, embedded broadcast or masking, the
// EVEX-only mnemonics) must say so in its name ("512"), so that only code
// chosen after checking cpu.X86.HasAVX512* calls it; every other function
// (the AVX2 and AVX kernels) stays within VEX: registers 0-15.
//
// Y16 in an "AVX2" kernel assembles, runs on every AVX-512 machine and
// dies with SIGILL on an AVX2-only CPU (it happened: the GEMM epilogue).
// The test of this package checks every .s file of the module; CI also
// runs the kernel packages' tests under qemu-x86_64 -cpu max (AVX2 and
// FMA, no AVX-512), which catches a missing feature check at run time.
package asmcheck

import (
	"bufio"
	"bytes"
	"fmt"
	"regexp"
	"strings"
)

// Problem is one instruction a function may not use.
type Problem struct {
	File     string
	Line     int
	Function string
	Text     string // the instruction
	Why      string
}

func (p Problem) String() string {
	return fmt.Sprintf("%s:%d: %s: %q: %s", p.File, p.Line, p.Function, p.Text, p.Why)
}

var (
	textRE = regexp.MustCompile(`^TEXT\s+[^·]*·([A-Za-z0-9_]+)`)
	// Registers that exist only with AVX-512.
	evexRegRE = regexp.MustCompile(`\b(?:[XY](?:1[6-9]|2[0-9]|3[01])|Z(?:[0-9]|[12][0-9]|3[01])|K[0-7])\b`)
	// Suffixes only EVEX encodes: embedded broadcast, zeroing, rounding,
	// suppress-all-exceptions.
	evexSuffixRE = regexp.MustCompile(`^V[A-Z0-9]+\.(?:BCST|Z|SAE|RN_SAE|RD_SAE|RU_SAE|RZ_SAE)\b`)
)

// evexOnly are mnemonics with no VEX form (AVX-512F/VL/DQ/BW).
var evexOnly = map[string]bool{}

func init() {
	for _, m := range strings.Fields(`
		VPXORD VPXORQ VPANDD VPANDQ VPANDND VPANDNQ VPORD VPORQ
		VMOVDQU8 VMOVDQU16 VMOVDQU32 VMOVDQU64 VMOVDQA32 VMOVDQA64
		VPTERNLOGD VPTERNLOGQ VPERMT2PS VPERMT2PD VPERMI2PS VPERMI2PD VPERMT2D VPERMI2D
		VRANGEPS VRANGEPD VREDUCEPS VREDUCEPD VSCALEFPS VSCALEFPD VRNDSCALEPS VRNDSCALEPD
		VGETEXPPS VGETEXPPD VGETMANTPS VGETMANTPD VCOMPRESSPS VEXPANDPS VFIXUPIMMPS
		VRCP14PS VRSQRT14PS VPABSQ VPMAXSQ VPMINSQ VPMULLQ VPROLD VPRORD VPROLVD VPRORVD
		VPSRAQ VPSRAVQ VCVTPS2UDQ VCVTUDQ2PS VCVTTPS2UDQ VBROADCASTF32X4 VBROADCASTF32X8
		VBROADCASTF64X4 VBROADCASTI32X4 VEXTRACTF32X4 VEXTRACTF32X8 VEXTRACTF64X4
		VINSERTF32X4 VINSERTF32X8 VINSERTF64X4 VSHUFF32X4 VSHUFF64X2 VALIGND VALIGNQ
		KMOVW KMOVB KMOVD KMOVQ KORTESTW KANDW KORW KXORW KNOTW VPCMPD VPCMPUD VPCMPQ
		VPCMPEQD.Z VFPCLASSPS VPBLENDMD VBLENDMPS VPCONFLICTD VPLZCNTD VPOPCNTD
	`) {
		evexOnly[m] = true
	}
}

// Check reports the instructions of file (its text src) that a function
// may not use: anything EVEX-only outside a function whose name contains
// "512".
func Check(file string, src []byte) []Problem {
	var out []Problem
	fn := ""
	sc := bufio.NewScanner(bytes.NewReader(src))
	for line := 1; sc.Scan(); line++ {
		text := sc.Text()
		if i := strings.Index(text, "//"); i >= 0 {
			text = text[:i]
		}
		text = strings.TrimSpace(text)
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		if m := textRE.FindStringSubmatch(text); m != nil {
			fn = m[1]
			continue
		}
		if fn == "" || strings.Contains(fn, "512") {
			continue
		}
		op := text
		if i := strings.IndexAny(op, " \t"); i >= 0 {
			op = op[:i]
		}
		if strings.HasSuffix(op, ":") { // a label
			continue
		}
		why := ""
		switch {
		case evexOnly[op] || evexOnly[strings.SplitN(op, ".", 2)[0]]:
			why = "an AVX-512 (EVEX-only) instruction"
		case evexSuffixRE.MatchString(op):
			why = "an EVEX-only form (broadcast, masking or rounding)"
		case evexRegRE.MatchString(text[len(op):]):
			why = "a register that exists only with AVX-512 (VEX names 0-15)"
		}
		if why != "" {
			out = append(out, Problem{File: file, Line: line, Function: fn, Text: text,
				Why: why + "; only a function with 512 in its name, chosen after checking cpu.X86.HasAVX512F, may use it"})
		}
	}
	return out
}
