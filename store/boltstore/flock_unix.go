//go:build unix

package boltstore

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
)

// lockDir takes an exclusive lock on the data directory, so that two
// processes never run the embedded backend on the same database, and
// writes this process's id into the lock file, so that a process refused
// can say which one holds it. The lock goes with the process, however it
// ends.
func lockDir(dir string) (*os.File, error) {
	path := filepath.Join(dir, LockFile)
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, fmt.Errorf("open the lock file: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		_ = f.Close()
		return nil, &LockedError{Dir: dir, PID: lockHolder(path)}
	}
	if err := f.Truncate(0); err == nil {
		_, _ = f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	}
	return f, nil
}

// unlockDir releases the lock of lockDir.
func unlockDir(f *os.File) error { return f.Close() }

// Locked reports whether another process holds the data directory's lock
// now, and its process id (0 when unknown). It takes no lock that lasts.
func Locked(dir string) (bool, int) {
	path := filepath.Join(dir, LockFile)
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return false, 0
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		return true, lockHolder(path)
	}
	_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
	return false, 0
}
