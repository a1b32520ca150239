package hiya

import (
	"fmt"
	"strings"

	"arbiter/rules"
)

// FormatMove writes m canonically: from square then to square, e.g. "E2B5".
func (g *Game) FormatMove(m rules.Move) string { return formatMove(m) }

func formatMove(m rules.Move) string {
	from, to := int(m&squareMask), int(m>>toShift&squareMask)
	if from&7 == 7 || to&7 == 7 || m>>16 != 0 {
		return fmt.Sprintf("?%#x", uint32(m))
	}
	var b [4]byte
	return string(appendSquare(appendSquare(b[:0], from), to))
}

// moveText is move text read without a position: two squares (as column and
// row numbers, possibly off the board) and whether "Hi-YA!" followed.
type moveText struct {
	fromCol, fromRow, toCol, toRow int
	announced                      bool
}

const moveHint = "write a move as from square then to square, like E2B5 (or E2 B5, E2-B5, E2B5 Hi-YA!)"

// readMove reads move text: two squares, each a column letter A..G and a
// row 1..8, separated by nothing, spaces, commas or a dash, in any case,
// optionally followed by the announcement "Hi-YA!" (any case; the dash, a
// space between "hi" and "ya" and any number of "!" are optional).
func readMove(text string) (moveText, error) {
	var mt moveText
	i := skipSeparators(text, 0)
	var err error
	if mt.fromCol, mt.fromRow, i, err = readSquare(text, i); err != nil {
		return mt, err
	}
	i = skipSeparators(text, i)
	if mt.toCol, mt.toRow, i, err = readSquare(text, i); err != nil {
		return mt, err
	}
	rest := strings.Map(func(r rune) rune {
		if r == '!' || isSeparator(r) {
			return -1
		}
		return r
	}, text[i:])
	switch {
	case rest == "":
	case strings.EqualFold(rest, "hiya"):
		mt.announced = true
	default:
		return mt, unreadable(text, "only the announcement Hi-YA! may follow the two squares")
	}
	for _, sq := range [2][2]int{{mt.fromCol, mt.fromRow}, {mt.toCol, mt.toRow}} {
		if sq[0] < 1 || sq[0] > cols || sq[1] < 1 || sq[1] > rows {
			return mt, rules.NewMoveError(rules.ErrOffBoard, fmt.Sprintf(
				"%s is off the board: columns run from A to G and rows from 1 to 8", squareText(sq[0], sq[1])))
		}
	}
	return mt, nil
}

// squareText writes a square read from text, on the board or not.
func squareText(col, row int) string {
	return fmt.Sprintf("%c%d", 'A'+col-1, row)
}

func unreadable(text, why string) error {
	return rules.NewMoveError(rules.ErrUnreadable, fmt.Sprintf("cannot read %q: %s; %s", text, why, moveHint))
}

// isSeparator reports whether r may stand between or around the parts of
// move text: white space, a comma or a dash.
func isSeparator(r rune) bool {
	switch r {
	case ' ', '\t', '\n', '\r', ',', '-':
		return true
	}
	return false
}

func skipSeparators(text string, i int) int {
	for i < len(text) && isSeparator(rune(text[i])) {
		i++
	}
	return i
}

// readSquare reads a column letter (any ASCII letter, so that H2 is read as
// off the board rather than unreadable) and one or two row digits at i.
func readSquare(text string, i int) (col, row, next int, err error) {
	if i >= len(text) {
		return 0, 0, i, unreadable(text, "it needs two squares")
	}
	c := text[i] | 0x20 // lower case for letters
	if c < 'a' || c > 'z' {
		return 0, 0, i, unreadable(text, fmt.Sprintf("a square starts with a column letter A to G, not %q", text[i]))
	}
	col = int(c-'a') + 1
	i++
	start := i
	for i < len(text) && text[i] >= '0' && text[i] <= '9' && i-start < 2 {
		row = row*10 + int(text[i]-'0')
		i++
	}
	if i == start {
		return 0, 0, i, unreadable(text, "a square is a column letter then a row number, like E2")
	}
	if i < len(text) && text[i] >= '0' && text[i] <= '9' {
		return 0, 0, i, unreadable(text, "a row number has one digit, 1 to 8")
	}
	return col, row, i, nil
}

// ParseMove reads move text and checks it against the position. It accepts
// the canonical "E2B5" and its variants: any case, the squares separated by
// spaces, commas or a dash ("e2b5", "E2 B5", "E2-B5", "E2, B5"), and the
// announcement after the move ("E2B5 Hi-YA!", in any case, with or without
// the dash or a space in it, with any number of "!": "e2b5 hiya", "E2B5
// HiYa!!"). The announcement is optional on an attack and refused on a move
// that attacks nothing: a player must not claim an attack that is not there.
//
// Errors are *rules.MoveError of kind ErrUnreadable, ErrOffBoard (a column
// past G or a row past 8), ErrGameOver, ErrNoPiece, ErrNotYourPiece or
// ErrIllegal (with the reason: the King never moves, the landing square is
// taken, the piece would pass another, a backward or sideways move that
// attacks nothing...). Every square of the board is a place, so ErrNotAPlace
// never comes.
func (g *Game) ParseMove(text string) (rules.Move, error) {
	mt, err := readMove(text)
	if err != nil {
		return rules.NoMove, err
	}
	p := &g.pos
	if over, winner := p.state(); over != notOver {
		return rules.NoMove, rules.NewMoveError(rules.ErrGameOver, fmt.Sprintf(
			"the game is over: %s won (%s)", winner, g.Outcome().Reason))
	}
	from, to := square(mt.fromCol, mt.fromRow), square(mt.toCol, mt.toRow)
	var list rules.MoveList
	p.generate(&list)
	for _, m := range list.Slice() {
		if int(m&squareMask) == from && int(m>>toShift&squareMask) == to {
			if mt.announced && m&attackFlag == 0 {
				return rules.NoMove, rules.NewMoveError(rules.ErrIllegal, fmt.Sprintf(
					"%s attacks nothing, so it is not announced with Hi-YA!: a move attacks only when it lands directly in front of an opposing piece",
					formatMove(m)))
			}
			return m, nil
		}
	}
	return rules.NoMove, p.whyIllegal(from, to)
}

// whyIllegal explains why the move from from to to, which is not among the
// legal moves, is not one.
func (p *position) whyIllegal(from, to int) error {
	name := squareName(from) + squareName(to)
	k, s, ok := p.pieceOn(from)
	if !ok {
		return rules.NewMoveError(rules.ErrNoPiece, fmt.Sprintf("there is no piece on %s to move", squareName(from)))
	}
	if s != p.toMove {
		return rules.NewMoveError(rules.ErrNotYourPiece, fmt.Sprintf(
			"%s holds %s's %s; it is %s's turn", squareName(from), s, k, p.toMove))
	}
	illegal := func(format string, args ...any) error {
		return rules.NewMoveError(rules.ErrIllegal, name+" is not a legal move: "+fmt.Sprintf(format, args...))
	}
	if k == King {
		return illegal("the King never moves")
	}
	if from == to {
		return illegal("a move must go to another square")
	}
	if tk, ts, taken := p.pieceOn(to); taken {
		return illegal("the landing square %s is taken by %s's %s; pieces move only onto empty squares", squareName(to), ts, tk)
	}
	dc := to&7 - from&7
	dr := to>>3 - from>>3
	if p.toMove == North {
		dr = -dr // dr counts rows forward for the mover
	}
	diagonal, straight := abs(dc) == abs(dr), dc == 0 || dr == 0
	switch {
	case (k == Ninja || k == MiniNinja) && !diagonal:
		return illegal("a %s moves diagonally", k)
	case (k == Samurai || k == MiniSamurai) && dr < 0:
		return illegal("a %s never moves backward", k)
	case (k == Samurai || k == MiniSamurai) && !straight:
		return illegal("a %s moves straight forward or sideways", k)
	case (k == MiniNinja || k == MiniSamurai) && max(abs(dc), abs(dr)) > 1:
		return illegal("a %s moves only one square", k)
	}
	d := sign(dc) + 8*sign(to>>3-from>>3)
	for sq := from + d; sq != to; sq += d {
		if bk, bs, blocked := p.pieceOn(sq); blocked {
			return illegal("it would pass %s's %s on %s; pieces never jump", bs, bk, squareName(sq))
		}
	}
	if dr <= 0 {
		way := "backward"
		if dr == 0 {
			way = "sideways"
		}
		return illegal("a %s moves %s only to attack, and %s is not directly in front of an opposing piece",
			k, way, squareName(to))
	}
	return illegal("that is not how a %s moves", k)
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func sign(x int) int {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}

// Turn translates move text between Arbiter's coordinates and the turned
// coordinates of a class program that sees itself at the top: column c
// becomes G-(c-A) and row r becomes 9-r, so "E2B5" is "C7F4". It reads the
// forms ParseMove reads, answers in canonical form (keeping an announcement
// as " Hi-YA!"), and is its own inverse. It does not look at any position.
func Turn(text string) (string, error) {
	mt, err := readMove(text)
	if err != nil {
		return "", err
	}
	turn := func(col, row int) int { return square(cols+1-col, rows+1-row) }
	out := squareName(turn(mt.fromCol, mt.fromRow)) + squareName(turn(mt.toCol, mt.toRow))
	if mt.announced {
		out += " " + Announcement
	}
	return out, nil
}
