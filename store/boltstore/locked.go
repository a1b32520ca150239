package boltstore

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// LockFile is the data directory's lock file: it holds the id of the
// process that has the embedded store open.
const LockFile = "arbiter-store.lock"

// ErrLocked means the data directory is in use by another process.
var ErrLocked = errors.New("the data directory is in use by another Arbiter process")

// LockedError says which process holds the data directory and what to use
// while it runs. It wraps ErrLocked.
type LockedError struct {
	Dir string // the data directory
	PID int    // the process holding it; 0 when unknown
}

// Error names the directory and the process, and says what can be done
// while that process runs.
func (e *LockedError) Error() string {
	who := "another Arbiter process"
	if e.PID > 0 {
		who = fmt.Sprintf("another Arbiter process (pid %d)", e.PID)
	}
	return fmt.Sprintf("the data directory %s is in use by %s: while it runs, use /referee export in Discord for a course's games "+
		"and `arbiter store backup` for a copy of the whole store; stop it for anything else on this directory", e.Dir, who)
}

// Unwrap returns ErrLocked, so that errors.Is(err, ErrLocked) holds.
func (e *LockedError) Unwrap() error { return ErrLocked }

// lockHolder reads the process id in the lock file at path (0 if none).
func lockHolder(path string) int {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	return pid
}
