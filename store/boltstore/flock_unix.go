//go:build unix

package boltstore

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// lockDir takes an exclusive lock on the data directory, so that two
// processes never run the embedded backend on the same database. The
// lock goes with the process, however it ends.
func lockDir(dir string) (*os.File, error) {
	path := filepath.Join(dir, "arbiter-store.lock")
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, fmt.Errorf("open the lock file: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		_ = f.Close()
		return nil, fmt.Errorf("the data directory %s is in use by another Arbiter process (%v)", dir, err)
	}
	return f, nil
}

// unlockDir releases the lock of lockDir.
func unlockDir(f *os.File) error { return f.Close() }
