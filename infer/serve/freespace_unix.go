//go:build linux || darwin

package serve

import "syscall"

// freeBytes is the space an unprivileged process may still write on dir's
// file system.
func freeBytes(dir string) (uint64, bool) {
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		return 0, false
	}
	return uint64(st.Bavail) * uint64(st.Bsize), true
}
