package store

import (
	"errors"
	"fmt"
)

// The kinds of store errors. Every error a Store returns wraps at most one
// of them (or is a *DamagedError), so callers tell them apart with
// errors.Is and errors.As.
var (
	// ErrUnavailable means the backend did not answer in time or could not
	// be reached. A read changed nothing; a write was most likely not applied
	// (see Save for the cases where it may have been). The caller should
	// say so and let the person try again; the client reconnects by itself.
	ErrUnavailable = errors.New("storage is not reachable right now")
	// ErrNotFound means there is no such game, archived game or rating.
	ErrNotFound = errors.New("not found")
	// ErrConflict means the game moved on since it was loaded: another
	// change was saved first, so this one was not applied.
	ErrConflict = errors.New("the game moved on")
	// ErrBusy means a channel already has a game going on.
	ErrBusy = errors.New("a game is already going on in this channel")
	// ErrInvalid means an argument cannot be stored as given (an empty or
	// malformed id, a game without a state, a move list that does not
	// match the state...). It is a bug in the caller, not a storage fault.
	ErrInvalid = errors.New("invalid store argument")
	// ErrUnknownSchema means a record was written in a schema version this
	// build does not read (a newer Arbiter wrote it). It comes wrapped in a
	// *DamagedError.
	ErrUnknownSchema = errors.New("unknown record schema version")
	// ErrNoJob means no bot turn is waiting in the queue.
	ErrNoJob = errors.New("no bot turn is waiting")
	// ErrStaleJob means a bot turn was queued for a version of the game
	// that is no longer current, or for a game that is gone: the job must
	// do nothing.
	ErrStaleJob = errors.New("the bot turn is stale: the game moved on")
	// ErrLocked means another holder has the lock.
	ErrLocked = errors.New("the lock is held by another process")
	// ErrLockLost means the lock expired or was taken over before it was
	// renewed or released.
	ErrLockLost = errors.New("the lock was lost")
)

// DamagedError says that one stored record cannot be read: it is not a
// record at all, it does not decode, or its schema is unknown. Only that
// game is affected; every other game keeps working.
type DamagedError struct {
	Channel string // the channel of a live game, or "" for an archived one
	Guild   string // the guild of an archived game
	ID      string // the archive id of an archived game
	Err     error  // what is wrong, in words
}

// Error names the game and says what is wrong with its record.
func (e *DamagedError) Error() string {
	if e.Channel != "" {
		return fmt.Sprintf("the game in channel %s is damaged and cannot be read: %v", e.Channel, e.Err)
	}
	return fmt.Sprintf("the archived game %s of guild %s is damaged and cannot be read: %v", e.ID, e.Guild, e.Err)
}

// Unwrap returns the cause.
func (e *DamagedError) Unwrap() error { return e.Err }
