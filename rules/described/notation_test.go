package described_test

import (
	"errors"
	"strings"
	"testing"

	"arbiter/rules"
)

// TestParseMoveErrors checks each shipped game's move parser: tolerated
// variants read as the canonical move, and bad text gets the kind of
// error and a message that says what is wrong.
func TestParseMoveErrors(t *testing.T) {
	for _, tc := range []struct {
		game  string
		moves []string // played first
		text  string
		kind  error  // nil: accepted
		want  string // the canonical text, or a part of the message
	}{
		{"breakthrough", nil, "A2-A3", nil, "a2 a3"},
		{"breakthrough", nil, "a2a3", nil, "a2 a3"},
		{"breakthrough", nil, " b2 to c3 ", nil, "b2 c3"},
		{"breakthrough", nil, "a2 a4", rules.ErrIllegal, "the piece on a2 cannot go to a4; it can go to a3, b3"},
		{"breakthrough", []string{"b2 b3", "a7 a6"}, "a2 b3", rules.ErrIllegal, "b3 is taken by your own piece; the piece on a2 can go to a3"},
		{"breakthrough", nil, "a1 a2", rules.ErrIllegal, "the piece on a1 has no legal move"},
		{"breakthrough", nil, "a3 a4", rules.ErrNoPiece, "there is no piece on a3"},
		{"breakthrough", nil, "a7 a6", rules.ErrNotYourPiece, "the piece on a7 is Black's; you play White"},
		{"breakthrough", nil, "i2 i3", rules.ErrOffBoard, "i2 is off the board: columns are a to h and rows 1 to 8"},
		{"breakthrough", nil, "a2", rules.ErrUnreadable, "the square of your piece and the square it goes to"},
		{"breakthrough", nil, "pass", rules.ErrIllegal, "there is no passing in Breakthrough"},
		{"othello", nil, "D3", nil, "d3"},
		{"othello", nil, "a1", rules.ErrIllegal, "would outflank no enemy piece"},
		{"othello", nil, "d4", rules.ErrIllegal, "d4 is taken"},
		{"othello", nil, "pass", rules.ErrIllegal, "you may pass only when you have no other move"},
		{"othello", nil, "d9", rules.ErrOffBoard, "d9 is off the board"},
		{"othello", nil, "d3 d4", rules.ErrUnreadable, "a square such as"},
		{"connect4", nil, "D", nil, "d"},
		{"connect4", nil, "d1", nil, "d"},
		{"connect4", []string{"d"}, "d1", rules.ErrIllegal, "a piece dropped into column d lands on d2, not d1"},
		{"connect4", []string{"a", "a", "a", "a", "a", "a"}, "a", rules.ErrIllegal, "column a is full"},
		{"connect4", nil, "h", rules.ErrOffBoard, "h is off the board"},
		{"connect4", nil, "4", rules.ErrUnreadable, "a column letter such as c"},
		{"connect4", []string{"a", "b", "a", "b", "a", "b", "a"}, "c", rules.ErrGameOver, "the game is over: Red won (Red made 4 in a row)"},
	} {
		g := newDescribed(t, tc.game, nil)
		play(t, g, tc.moves...)
		m, err := g.ParseMove(tc.text)
		if tc.kind == nil {
			if err != nil || g.FormatMove(m) != tc.want {
				t.Errorf("%s %q: %v, %v; want %s", tc.game, tc.text, g.FormatMove(m), err, tc.want)
			}
			continue
		}
		var me *rules.MoveError
		if !errors.As(err, &me) || !errors.Is(err, tc.kind) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s %q: error %v, want %v saying %q", tc.game, tc.text, err, tc.kind, tc.want)
		}
	}
}
