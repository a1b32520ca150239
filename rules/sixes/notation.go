package sixes

import (
	"fmt"
	"strings"

	"arbiter/rules"
)

// squareName writes square index sq as row letter and column digit, "c4".
func squareName(sq int) string {
	return string([]byte{byte('a' + sq/size), byte('1' + sq%size)})
}

// FormatMove writes m canonically: from square, a space, to square, as in
// "c4 d4". A value that is no move of Sixes comes out as "invalid move N".
func (g *Game) FormatMove(m rules.Move) string {
	if !shapeOK(uint32(m)) {
		return fmt.Sprintf("invalid move %d", uint32(m))
	}
	from, to := unpack(uint32(m))
	return squareName(from) + " " + squareName(to)
}

// howToWrite ends the message for text that cannot be read.
const howToWrite = "write a move like c4 d4 (the square of your piece, then the square it goes to)"

// ParseMove reads a move: the canonical "c4 d4", or "c4d4", "c4-d4",
// "C4 D4", "c4 to d4", with any upper or lower case, extra spaces and
// commas. It checks the move against the position and says what is wrong:
// unreadable text, a square off the board, no piece or the opponent's piece
// on the first square, or why the piece cannot go there.
func (g *Game) ParseMove(text string) (rules.Move, error) {
	if r := g.Status(); r != rules.Ongoing {
		o := g.Outcome()
		winner := "it is a draw"
		if p, ok := r.Winner(); ok {
			winner = g.PlayerName(p) + " won"
		}
		return rules.NoMove, rules.NewMoveError(rules.ErrGameOver,
			fmt.Sprintf("the game is over: %s (%s)", winner, o.Reason))
	}
	fromText, toText, ok := splitMove(text)
	if !ok {
		return rules.NoMove, rules.NewMoveError(rules.ErrUnreadable,
			fmt.Sprintf("cannot read %q: %s", strings.TrimSpace(text), howToWrite))
	}
	from, err := readSquare(fromText)
	if err != nil {
		return rules.NoMove, err
	}
	to, err := readSquare(toText)
	if err != nil {
		return rules.NoMove, err
	}
	p := g.toMove
	switch {
	case g.pos.pieces[p]&(1<<from) != 0:
	case g.pos.pieces[p^1]&(1<<from) != 0:
		return rules.NoMove, rules.NewMoveError(rules.ErrNotYourPiece,
			fmt.Sprintf("the piece on %s is %s's; you play %s", squareName(from), g.PlayerName(p^1), g.PlayerName(p)))
	default:
		return rules.NoMove, rules.NewMoveError(rules.ErrNoPiece,
			fmt.Sprintf("there is no piece on %s", squareName(from)))
	}
	if err := g.checkMove(from, to); err != nil {
		return rules.NoMove, err
	}
	return rules.Move(pack(from, to)), nil
}

// checkMove says why the player to move's piece on from cannot go to to,
// or returns nil if it can.
func (g *Game) checkMove(from, to int) error {
	fs, ts := squareName(from), squareName(to)
	illegal := func(format string, args ...any) error {
		return rules.NewMoveError(rules.ErrIllegal, fmt.Sprintf(format, args...))
	}
	if from == to {
		return illegal("%s to %s does not move the piece: name the square it goes to", fs, ts)
	}
	if !shapeOK(pack(from, to)) {
		return illegal("%s to %s is not a move: a piece steps one square up, down, left or right, or jumps over one neighbouring piece", fs, ts)
	}
	occ := g.pos.pieces[0] | g.pos.pieces[1]
	if occ&(1<<to) != 0 {
		return illegal("the landing square %s is taken", ts)
	}
	if d := from - to; d != 1 && d != -1 && d != size && d != -size {
		if mid := (from + to) / 2; occ&(1<<mid) == 0 {
			return illegal("%s to %s jumps over %s, which is empty: a piece jumps only over a neighbouring piece", fs, ts, squareName(mid))
		}
	}
	if rules.Move(pack(from, to)) == reverse(g.pos.last[g.toMove]) {
		return illegal("%s to %s takes the piece you moved last straight back to where it came from: move another piece first", fs, ts)
	}
	return nil
}

// splitMove finds the two square texts in move text, after case folding
// (ASCII only) and dropping spaces, commas, dashes and a "to" between them.
func splitMove(text string) (from, to string, ok bool) {
	b := []byte(text)
	for i, c := range b {
		switch {
		case c >= 'A' && c <= 'Z':
			b[i] = c + 'a' - 'A'
		case c == ',' || c == '-' || c == '\t':
			b[i] = ' '
		}
	}
	fields := strings.Fields(string(b))
	if len(fields) == 3 && fields[1] == "to" {
		fields = []string{fields[0], fields[2]}
	}
	s := strings.Join(fields, "")
	// A square is one letter and one or more digits.
	end := squareEnd(s, 0)
	if end < 0 {
		return "", "", false
	}
	if squareEnd(s, end) != len(s) {
		return "", "", false
	}
	return s[:end], s[end:], true
}

// squareEnd returns where the square text (a lower-case letter and digits)
// starting at i in s ends, or -1 if there is none.
func squareEnd(s string, i int) int {
	if i >= len(s) || s[i] < 'a' || s[i] > 'z' {
		return -1
	}
	j := i + 1
	for j < len(s) && s[j] >= '0' && s[j] <= '9' {
		j++
	}
	if j == i+1 {
		return -1
	}
	return j
}

// readSquare reads a square text (a lower-case letter and digits) into
// its index, or says it is off the board.
func readSquare(s string) (int, error) {
	if len(s) != 2 || s[0] > 'f' || s[1] < '1' || s[1] > '6' {
		return 0, rules.NewMoveError(rules.ErrOffBoard,
			fmt.Sprintf("%s is off the board: rows are a to f and columns 1 to 6, from a1 at the top left to f6 at the bottom right", s))
	}
	return int(s[0]-'a')*size + int(s[1]-'1'), nil
}

// ClassPiecePrompt is the class programs' question for the square of the
// piece to move.
const ClassPiecePrompt = "Choose piece to move:"

// ClassTargetPrompt is the class programs' question for where the piece
// on square (as "c4") goes: "Choose the new position for c4:".
func ClassTargetPrompt(square string) string {
	return "Choose the new position for " + square + ":"
}

// ParseClassLine reads a move line printed by a class program, "Computer
// moves the piece at f4 to f5" (or "Player moves ..."; any case, a final
// full stop allowed), into Arbiter's move text "f4 f5". It reports false
// for a line that is not such a move line. Whether the move is legal is
// for ParseMove to say.
func ParseClassLine(line string) (string, bool) {
	const marker = "moves the piece at "
	b := []byte(strings.TrimSpace(line))
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	s := string(b)
	i := strings.Index(s, marker)
	if i < 0 {
		return "", false
	}
	rest := strings.TrimRight(s[i+len(marker):], ".! ")
	fields := strings.Fields(rest)
	if len(fields) != 3 || fields[1] != "to" {
		return "", false
	}
	if squareEnd(fields[0], 0) != len(fields[0]) || squareEnd(fields[2], 0) != len(fields[2]) {
		return "", false
	}
	return fields[0] + " " + fields[2], true
}
