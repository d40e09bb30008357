package outguard

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestCheck(t *testing.T) {
	dir := t.TempDir()
	ws := filepath.Join(dir, "ws")
	run := filepath.Join(ws, "runs", "planner")
	os.MkdirAll(filepath.Join(run, "best"), 0o755)
	os.WriteFile(filepath.Join(ws, "workspace.snap"), []byte("x"), 0o644)
	os.WriteFile(filepath.Join(dir, "q.csv"), []byte("x"), 0o644)
	os.Symlink(ws, filepath.Join(dir, "link"))
	var g Guard
	g.Input("workspace snapshot", filepath.Join(ws, "workspace.snap"))
	g.Input("--pipeline", run)
	g.Input("--queries", filepath.Join(dir, "q.csv"))
	g.Input("nothing", "")
	wd, _ := os.Getwd()
	defer os.Chdir(wd)
	os.Chdir(dir)
	for _, c := range []struct {
		out, want string // want: "" when allowed, else the error's text
	}{
		{filepath.Join(ws, "workspace.snap"), "--out " + filepath.Join(ws, "workspace.snap") + " is the workspace snapshot " + filepath.Join(ws, "workspace.snap")},
		{"ws/./runs/../workspace.snap", "--out ws/./runs/../workspace.snap is the workspace snapshot " + filepath.Join(ws, "workspace.snap")},
		{"link/workspace.snap", "--out link/workspace.snap is the workspace snapshot " + filepath.Join(ws, "workspace.snap")},
		{ws, "--out " + ws + " contains the workspace snapshot " + filepath.Join(ws, "workspace.snap")},
		{"link", "--out link contains the workspace snapshot " + filepath.Join(ws, "workspace.snap")},
		{filepath.Join(run, "best", "model.safetensors"), "--out " + filepath.Join(run, "best", "model.safetensors") + " lies inside the --pipeline " + run},
		{filepath.Join(run, "new", "deeper", "file"), "--out " + filepath.Join(run, "new", "deeper", "file") + " lies inside the --pipeline " + run},
		{"q.csv", "--out q.csv is the --queries " + filepath.Join(dir, "q.csv")},
		{filepath.Join(ws, "runs", "mor"), ""},
		{filepath.Join(ws, "mined-plans.jsonl"), ""},
		{filepath.Join(dir, "q.csv.out"), ""},
		{filepath.Join(ws, "runs", "planner2"), ""},
		{"", ""},
	} {
		err := g.Check("--out", c.out)
		if c.want == "" {
			if err != nil {
				t.Errorf("%q: %v", c.out, err)
			}
			continue
		}
		if err == nil || !errors.Is(err, ErrInput) || err.Error() != c.want+": "+ErrInput.Error() {
			t.Errorf("%q: got %v\nwant %s", c.out, err, c.want)
		}
	}
}
