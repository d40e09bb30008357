// Package flock gives one writer at a time an output: an exclusive
// advisory lock on a lock file beside it, taken without waiting, so a
// second strata writing the same output fails at once with the first
// one's process id instead of interleaving its bytes.
package flock

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// ErrLocked reports an output another process is writing.
var ErrLocked = errors.New("another strata is writing it")

// Lock takes the lock file path (created when missing) for this process.
// what names the output in the error. unlock releases the lock and
// removes the file.
func Lock(path, what string) (unlock func(), err error) {
	for range 8 {
		f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
		if err != nil {
			return nil, err
		}
		ok, err := tryLock(f)
		if err != nil {
			f.Close()
			return nil, err
		}
		if !ok {
			b, _ := os.ReadFile(path)
			f.Close()
			holder := ""
			if pid, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil {
				holder = fmt.Sprintf(" (process %d)", pid)
			}
			return nil, fmt.Errorf("%s: %w%s; lock file %s", what, ErrLocked, holder, path)
		}
		// The file may have been removed (by the holder we waited for) and
		// made anew between the open and the lock: then retry on the new one.
		held, err1 := f.Stat()
		now, err2 := os.Stat(path)
		if err1 != nil || err2 != nil || !os.SameFile(held, now) {
			f.Close()
			continue
		}
		f.Truncate(0)
		f.WriteString(strconv.Itoa(os.Getpid()) + "\n")
		return func() {
			os.Remove(path)
			f.Close()
		}, nil
	}
	return nil, fmt.Errorf("%s: the lock file %s keeps changing", what, path)
}
