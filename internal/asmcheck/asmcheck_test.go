package asmcheck

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCheck runs the checker on hand-written functions: the line that made
// the AVX2 GEMM kernel die on AVX2-only CPUs, each kind of EVEX-only use,
// and VEX code (which must pass), inside and outside an AVX-512 function.
func TestCheck(t *testing.T) {
	src := `#include "textflag.h"

// func microAVX2(...)
TEXT ·microAVX2(SB), NOSPLIT, $0-56
	VXORPS Y0, Y0, Y0
	VBROADCASTSS 0(AX), Y14
	VFMADD231PS Y14, Y12, Y0
loop:
	VBROADCASTSS beta+44(FP), Y16 // the bug
	VMULPS 0(DI), Y16, Y17
	VPXORD X1, X1, X1
	VFMADD231PS.BCST 4(AX), Y12, Y1
	VMOVUPS X15, 0(DI)
	RET

TEXT ·microAVX512(SB), NOSPLIT, $0-56
	VPXORD Z0, Z0, Z0
	VFMADD231PS.BCST 0(AX), Z24, Z0
	VMULPS Z28, Z1, Z1
	KMOVW K1, AX
	RET

TEXT ·scanAVX2(SB), NOSPLIT, $0-32
	VCMPPS $5, Y1, Y0, Y2
	KMOVW K1, AX
	VMOVUPS Z3, 0(DI)
	RET
`
	got := Check("k.s", []byte(src))
	want := []struct {
		line int
		fn   string
		why  string
	}{
		{9, "microAVX2", "register"},
		{10, "microAVX2", "register"},
		{11, "microAVX2", "(EVEX-only) instruction"},
		{12, "microAVX2", "EVEX-only form"},
		{25, "scanAVX2", "(EVEX-only) instruction"},
		{26, "scanAVX2", "register"},
	}
	if len(got) != len(want) {
		t.Fatalf("%d problems, want %d:\n%v", len(got), len(want), got)
	}
	for i, w := range want {
		g := got[i]
		if g.Line != w.line || g.Function != w.fn || !strings.Contains(g.Why, w.why) {
			t.Errorf("problem %d: %v, want line %d in %s (%s)", i, g, w.line, w.fn, w.why)
		}
	}
}

// TestModuleAssembly checks every assembly file of the module.
func TestModuleAssembly(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("module root not found at %s: %v", root, err)
	}
	files := 0
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == ".cache" || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".s") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		files++
		rel, _ := filepath.Rel(root, path)
		for _, p := range Check(rel, src) {
			t.Error(p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// The module has six assembly files today (gemm's two micro-kernels
	// and transpose, vec, expneg, the dense scan): finding none means the
	// walk looked in the wrong place.
	if files < 6 {
		t.Errorf("checked %d assembly files under %s, want at least 6", files, root)
	}
}
