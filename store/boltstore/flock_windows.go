//go:build windows

package boltstore

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"golang.org/x/sys/windows"
)

// lockRange is the byte the lock takes in the lock file: far past the
// process id written at its start, which Windows' mandatory locks would
// otherwise keep others from reading.
func lockRange() *windows.Overlapped { return &windows.Overlapped{OffsetHigh: 1} }

// lockDir takes an exclusive lock on the data directory (LockFileEx), so
// that two processes never run the embedded backend on the same database,
// and writes this process's id into the lock file. The lock goes with the
// process, however it ends.
func lockDir(dir string) (*os.File, error) {
	path := filepath.Join(dir, LockFile)
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, fmt.Errorf("open the lock file: %w", err)
	}
	err = windows.LockFileEx(windows.Handle(f.Fd()), windows.LOCKFILE_EXCLUSIVE_LOCK|windows.LOCKFILE_FAIL_IMMEDIATELY, 0, 1, 0, lockRange())
	if err != nil {
		_ = f.Close()
		return nil, &LockedError{Dir: dir, PID: lockHolder(path)}
	}
	if err := f.Truncate(0); err == nil {
		_, _ = f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\r\n"), 0)
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
	h := windows.Handle(f.Fd())
	if err := windows.LockFileEx(h, windows.LOCKFILE_EXCLUSIVE_LOCK|windows.LOCKFILE_FAIL_IMMEDIATELY, 0, 1, 0, lockRange()); err != nil {
		return true, lockHolder(path)
	}
	_ = windows.UnlockFileEx(h, 0, 1, 0, lockRange())
	return false, 0
}
