//go:build !unix && !windows

package boltstore

import (
	"fmt"
	"os"
	"path/filepath"
)

// lockDir opens the lock file of the data directory. On this platform it
// is not locked: do not run two Arbiter processes on one data directory.
func lockDir(dir string) (*os.File, error) {
	f, err := os.OpenFile(filepath.Join(dir, LockFile), os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, fmt.Errorf("open the lock file: %w", err)
	}
	return f, nil
}

// unlockDir closes the lock file of lockDir.
func unlockDir(f *os.File) error { return f.Close() }

// Locked reports false: this platform has no lock to look at.
func Locked(dir string) (bool, int) { return false, 0 }
