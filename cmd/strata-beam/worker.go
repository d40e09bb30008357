package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"

	"github.com/strata-retrieval/strata/graphops/workspace"
	"github.com/strata-retrieval/strata/infer"
	"github.com/strata-retrieval/strata/infer/pipeline"
	"github.com/strata-retrieval/strata/infer/serve"
)

// shared holds what one process has opened, by key, for all its DoFn
// instances: Beam makes a DoFn instance per bundle processor, and a
// workspace or a compiled bundle is too large to hold once per instance.
// An entry is opened by its first acquire and closed by its last release.
type shared[T any] struct {
	mu sync.Mutex
	m  map[string]*sharedEntry[T]
}

type sharedEntry[T any] struct {
	v     T
	close func()
	refs  int
}

// acquire returns the value under key, opening it first if no one holds
// it. A failed open is not remembered: the next acquire tries again.
func (c *shared[T]) acquire(key string, open func() (T, func(), error)) (T, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.m[key]; ok {
		e.refs++
		return e.v, nil
	}
	v, closeFn, err := open()
	if err != nil {
		return v, err
	}
	if c.m == nil {
		c.m = map[string]*sharedEntry[T]{}
	}
	c.m[key] = &sharedEntry[T]{v: v, close: closeFn, refs: 1}
	return v, nil
}

// release gives back one acquire of key, closing its value after the last.
func (c *shared[T]) release(key string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[key]
	if !ok {
		return
	}
	if e.refs--; e.refs == 0 {
		delete(c.m, key)
		e.close()
	}
}

// closeAll closes every value still held, whatever its count: the end of
// a process whose runner ran the pipeline in it (Prism, in process) and
// did not tear its DoFns down, which would leave a bundle's extracted
// directory behind.
func (c *shared[T]) closeAll() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for k, e := range c.m {
		delete(c.m, k)
		e.close()
	}
}

// closeShared closes what the process still holds, the compiled bundles
// before the workspaces they score over.
func closeShared() {
	scorers.closeAll()
	workspaces.closeAll()
}

// The process's workspaces (by directory) and compiled bundles.
var (
	workspaces shared[*workspace.Workspace]
	scorers    shared[*scorer]
)

// acquireWorkspace loads the workspace at dir once per process.
func acquireWorkspace(dir string) (*workspace.Workspace, error) {
	return workspaces.acquire(dir, func() (*workspace.Workspace, func(), error) {
		ws, err := workspace.Load(dir)
		if err != nil {
			return nil, nil, fmt.Errorf("--workspace %s: %w", dir, err)
		}
		return ws, func() { ws.Close() }, nil
	})
}

// scorer is a bundle compiled over a workspace.
type scorer struct {
	ws *workspace.Workspace
	r  *pipeline.Runner
}

// bundleSource names a bundle and the workspace it scores.
type bundleSource struct {
	Workspace         string `json:"workspace"`
	Bundle            string `json:"bundle"`
	IgnoreFingerprint bool   `json:"ignore_fingerprint,omitempty"`
}

func (b bundleSource) key() string {
	return fmt.Sprintf("%q %q %v", b.Workspace, b.Bundle, b.IgnoreFingerprint)
}

// acquireScorer opens the bundle over its workspace once per process, as
// strata score does (serve.Open). The error names the bundle and why it
// cannot be opened.
func acquireScorer(b bundleSource) (*scorer, error) {
	return scorers.acquire(b.key(), func() (*scorer, func(), error) {
		ws, err := acquireWorkspace(b.Workspace)
		if err != nil {
			return nil, nil, err
		}
		r, cleanup, err := openBundle(ws, b)
		if err != nil {
			workspaces.release(b.Workspace)
			return nil, nil, fmt.Errorf("--bundle %s: %w", b.Bundle, err)
		}
		return &scorer{ws: ws, r: r}, func() {
			cleanup()
			workspaces.release(b.Workspace)
		}, nil
	})
}

func releaseScorer(b bundleSource) { scorers.release(b.key()) }

// openBundle compiles the bundle over ws. A bundle on a remote file system
// (gs://...) is copied to a local temporary file first: bundles are
// extracted from local files.
func openBundle(ws *workspace.Workspace, b bundleSource) (*pipeline.Runner, func(), error) {
	if !strings.HasSuffix(b.Bundle, ".tar") {
		return nil, nil, fmt.Errorf("want a model bundle (.tar) written by strata bundle")
	}
	env := infer.NewEnv(context.Background(), ws) // the runner outlives any one bundle's context
	env.IgnoreFingerprint = b.IgnoreFingerprint
	path, removeCopy := b.Bundle, func() {}
	if hasScheme(b.Bundle) {
		local, err := fetch(context.Background(), b.Bundle)
		if err != nil {
			return nil, nil, err
		}
		path, removeCopy = local, func() { os.RemoveAll(filepath.Dir(local)) }
	}
	r, cleanup, err := serve.Open(env, path)
	if err != nil {
		cleanup()
		removeCopy()
		return nil, nil, err
	}
	return r, func() { cleanup(); removeCopy() }, nil
}

// hasScheme reports whether path names a file system of its own
// (gs://bucket/x, s3://...) rather than a local path.
func hasScheme(path string) bool {
	i := strings.Index(path, "://")
	return i > 0 && !strings.ContainsAny(path[:i], `/\`)
}

// fetch copies a file from any Beam file system into a new temporary
// directory and returns the local copy's path (same base name).
func fetch(ctx context.Context, path string) (string, error) {
	fs, err := filesystem.New(ctx, path)
	if err != nil {
		return "", err
	}
	defer fs.Close()
	rc, err := fs.OpenRead(ctx, path)
	if err != nil {
		return "", err
	}
	defer rc.Close()
	dir, err := os.MkdirTemp("", "strata-beam-*")
	if err != nil {
		return "", err
	}
	local := filepath.Join(dir, filepath.Base(path))
	f, err := os.Create(local)
	if err == nil {
		_, err = io.Copy(f, rc)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		os.RemoveAll(dir)
		return "", fmt.Errorf("copying %s: %w", path, err)
	}
	return local, nil
}
