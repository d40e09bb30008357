// Package atomicfile writes files and directories so that a reader never
// sees a partial result: data goes to a temporary sibling, is fsynced, and
// is renamed into place.
//
// A process killed mid-write leaves its temporary sibling behind, named
// "."+name+".tmp-" and digits. The next WriteFile or WriteDir of the same
// path removes such leftovers (once per process and path), and RemoveTemps
// removes them for a family of names; nothing else is ever removed.
package atomicfile

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// TempBase reports whether name is a temporary sibling made by WriteFile
// or WriteDir ("."+base+".tmp-" followed by digits) and returns base.
func TempBase(name string) (string, bool) {
	i := strings.LastIndex(name, ".tmp-")
	if !strings.HasPrefix(name, ".") || i < 2 {
		return "", false
	}
	digits := name[i+len(".tmp-"):]
	if digits == "" || strings.Trim(digits, "0123456789") != "" {
		return "", false
	}
	return name[1:i], true
}

// RemoveTemps removes the temporary siblings left in dir by killed writes
// of the names match accepts (see TempBase). It is best effort: an entry
// that cannot be removed is left, and a missing dir is not an error.
func RemoveTemps(dir string, match func(base string) bool) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		if base, ok := TempBase(e.Name()); ok && match(base) {
			os.RemoveAll(filepath.Join(dir, e.Name()))
		}
	}
}

// cleaned holds the paths whose leftovers this process already removed.
var cleaned sync.Map

// removeStale removes the leftovers of killed writes of path, once per
// process.
func removeStale(path string) {
	if _, done := cleaned.LoadOrStore(path, true); done {
		return
	}
	base := filepath.Base(path)
	RemoveTemps(filepath.Dir(path), func(b string) bool { return b == base })
}

// WriteFile writes path through fn. On any error the previous content of
// path (if any) is left untouched and the temporary file is removed.
func WriteFile(path string, fn func(w io.Writer) error) (err error) {
	dir := filepath.Dir(path)
	removeStale(path)
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(tmp)
		}
	}()
	bw := bufio.NewWriterSize(f, 1<<20)
	if err = fn(bw); err != nil {
		return err
	}
	if err = bw.Flush(); err != nil {
		return err
	}
	// CreateTemp makes the file 0600; give it the usual 0644 (less umask
	// is not applied by chmod, so this matches os.Create's common result).
	if err = f.Chmod(0o644); err != nil {
		return err
	}
	if err = f.Sync(); err != nil {
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	if err = os.Rename(tmp, path); err != nil {
		return err
	}
	return syncDir(dir)
}

// ErrExists reports that a destination directory exists and overwriting was
// not requested.
var ErrExists = errors.New("destination exists (use --force to replace it)")

// Marker is the file WriteDir puts in every directory it makes: only a
// directory that holds it (strata made it) is ever replaced, never a
// user's own.
const Marker = ".strata-output"

// ErrNotOurs reports a directory WriteDir may not replace: it is not
// empty and strata did not make it.
var ErrNotOurs = errors.New("exists and was not made by strata, so it is never replaced (remove it yourself, or choose another directory)")

// WriteDir builds a directory through fn in a temporary sibling (with
// Marker in it) and renames it to path. An existing non-empty path is
// replaced only when overwrite is true and it holds Marker; the old
// directory is removed after the new one is in place.
func WriteDir(path string, overwrite bool, fn func(tmpDir string) error) (err error) {
	path = filepath.Clean(path)
	if st, statErr := os.Stat(path); statErr == nil {
		if !st.IsDir() {
			return fmt.Errorf("%s: exists and is not a directory", path)
		}
		if entries, _ := os.ReadDir(path); len(entries) > 0 {
			if !overwrite {
				return fmt.Errorf("%s: %w", path, ErrExists)
			}
			if _, err := os.Stat(filepath.Join(path, Marker)); err != nil {
				return fmt.Errorf("%s: %w", path, ErrNotOurs)
			}
		}
	}
	parent := filepath.Dir(path)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return err
	}
	removeStale(path)
	tmp, err := os.MkdirTemp(parent, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			os.RemoveAll(tmp)
		}
	}()
	if err = fn(tmp); err != nil {
		return err
	}
	if err = os.WriteFile(filepath.Join(tmp, Marker), []byte("written by strata; a --force may replace this directory\n"), 0o644); err != nil {
		return err
	}
	if err = os.Chmod(tmp, 0o755); err != nil { // MkdirTemp makes it 0700
		return err
	}
	if err = syncDir(tmp); err != nil {
		return err
	}
	var old string
	if _, statErr := os.Stat(path); statErr == nil {
		old = tmp + ".old"
		if err = os.Rename(path, old); err != nil {
			return err
		}
	}
	if err = os.Rename(tmp, path); err != nil {
		if old != "" {
			os.Rename(old, path)
		}
		return err
	}
	if old != "" {
		os.RemoveAll(old)
	}
	return syncDir(parent)
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, os.ErrInvalid) {
		return err
	}
	return nil
}
