package rules

import "errors"

// The kinds of bad move text. A *MoveError unwraps to one of them, so
// callers and tests can tell the kinds apart with errors.Is.
var (
	ErrUnreadable   = errors.New("unreadable move")
	ErrOffBoard     = errors.New("off the board")
	ErrNotAPlace    = errors.New("not a place on the board")
	ErrNoPiece      = errors.New("no piece there")
	ErrNotYourPiece = errors.New("not your piece")
	ErrIllegal      = errors.New("illegal move")
	ErrGameOver     = errors.New("game is over")
)

// MoveError says what is wrong with move text, in words meant for the
// player, and which kind of wrong it is.
type MoveError struct {
	Kind error  // one of the Err* kinds above
	Text string // the whole message, e.g. "3 2 is not a place on the board: ..."
}

// Error returns the message for the player.
func (e *MoveError) Error() string { return e.Text }

// Unwrap returns the kind.
func (e *MoveError) Unwrap() error { return e.Kind }

// NewMoveError returns a *MoveError of the given kind with the given text.
func NewMoveError(kind error, text string) *MoveError {
	return &MoveError{Kind: kind, Text: text}
}
