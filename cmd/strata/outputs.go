package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/strata-retrieval/strata/graphops/workspace"
	"github.com/strata-retrieval/strata/infer"
	"github.com/strata-retrieval/strata/internal/outguard"
)

// inputs starts a command's output guard: every command that writes
// records what it reads (the workspace's snapshot here; files, run
// directories and every model it loads as it goes) and checks each output
// against them before writing it (internal/outguard).
func inputs(wsDir string) *outguard.Guard {
	g := &outguard.Guard{}
	if wsDir != "" {
		g.Input("workspace snapshot", filepath.Join(wsDir, workspace.SnapshotFile))
	}
	return g
}

// watched makes env record in g every checkpoint or model directory and
// every other file its models load, and returns env.
func watched(g *outguard.Guard, env *infer.Env) *infer.Env {
	load, file := env.OnLoad, env.OnFile
	env.OnLoad = func(given, dir string) {
		g.Input("model", dir)
		if load != nil {
			load(given, dir)
		}
	}
	env.OnFile = func(given, path string) {
		g.Input("file", path)
		if file != nil {
			file(given, path)
		}
	}
	return env
}

// fileOutput checks a file output before it is written: never one of the
// command's inputs (g), and an existing file only with --force (it is then
// replaced atomically: the writers write a temporary file and rename it).
func fileOutput(g *outguard.Guard, flag, path string, force bool) error {
	if err := g.Check(flag, path); err != nil {
		return err
	}
	st, err := os.Stat(path)
	switch {
	case os.IsNotExist(err):
		return nil
	case err != nil:
		return err
	case st.IsDir():
		return fmt.Errorf("%s %s is a directory", flag, path)
	case !force:
		return fmt.Errorf("%s %s exists (use --force to replace it)", flag, path)
	}
	return nil
}
