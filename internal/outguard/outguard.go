// Package outguard keeps a command's outputs away from its inputs: an
// output path that is an input, lies inside an input directory or
// contains an input is refused before anything is written, whatever
// --force says, so no command can destroy what it reads.
//
// Paths are compared after filepath.Abs and with symbolic links resolved
// (for a path that does not exist yet, its longest existing prefix), so a
// relative path, a "..", or a link to an input is the input.
package outguard

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// ErrInput is wrapped by every refusal.
var ErrInput = errors.New("an output may not be, contain or lie inside an input of the same command")

// Guard collects a command's inputs. The zero value is ready; it is safe
// for concurrent use (models report what they load from several
// goroutines).
type Guard struct {
	mu  sync.Mutex
	ins []input
}

type input struct {
	what, given, real string
}

// Input records an input: what it is (a flag, "workspace snapshot",
// "checkpoint") and its path. An empty path is ignored.
func (g *Guard) Input(what, path string) {
	if path == "" {
		return
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	g.ins = append(g.ins, input{what, path, resolve(path)})
}

// Check refuses the output out (named by flag, e.g. "--out") when it is,
// contains or lies inside a recorded input; the error names both paths.
func (g *Guard) Check(flag, out string) error {
	if out == "" {
		return nil
	}
	o := resolve(out)
	g.mu.Lock()
	defer g.mu.Unlock()
	for _, in := range g.ins {
		var how string
		switch {
		case o == in.real:
			how = "is"
		case within(o, in.real):
			how = "lies inside"
		case within(in.real, o):
			how = "contains"
		default:
			continue
		}
		return fmt.Errorf("%s %s %s the %s %s: %w", flag, out, how, in.what, in.given, ErrInput)
	}
	return nil
}

// within reports whether path lies strictly inside dir.
func within(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != "." && filepath.IsLocal(rel) && !strings.HasPrefix(rel, "..")
}

// resolve returns path absolute and cleaned, with the symbolic links of
// its longest existing prefix resolved.
func resolve(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return filepath.Clean(path)
	}
	rest := ""
	for p := abs; ; {
		if _, err := os.Lstat(p); err == nil {
			if r, err := filepath.EvalSymlinks(p); err == nil {
				return filepath.Join(r, rest)
			}
			return abs
		}
		parent := filepath.Dir(p)
		if parent == p {
			return abs
		}
		rest = filepath.Join(filepath.Base(p), rest)
		p = parent
	}
}
