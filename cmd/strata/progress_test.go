package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestStageProgressLines: off a terminal, a stage gets a line when it
// starts and one when it ends (its count, rate and time left); progress in
// between within progressEvery of the last line writes nothing.
func TestStageProgressLines(t *testing.T) {
	var out, errw bytes.Buffer
	u := newUI(&out, &errw)
	p := u.stageProgress()
	p("linking", 0, 3)
	p("linking", 1, 3)
	p("linking", 2, 3)
	p("linking", 3, 3)
	p("ranking", 0, 2)
	p("ranking", 2, 2)
	lines := strings.Split(strings.TrimSuffix(errw.String(), "\n"), "\n")
	if len(lines) != 4 || lines[0] != "linking: 3 to do" || !strings.HasPrefix(lines[1], "linking: 3 of 3 (") ||
		!strings.HasSuffix(lines[1], ", about 0s left)") || lines[2] != "ranking: 2 to do" || !strings.HasPrefix(lines[3], "ranking: 2 of 2 (") {
		t.Errorf("progress lines:\n%s", errw.String())
	}
	if out.Len() != 0 {
		t.Errorf("progress on stdout: %q", out.String())
	}
}
