package upthrust

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"arbiter/rules"
)

// FormatMove writes m canonically: the colour letter then the column, "G1",
// or "pass".
func (g *Game) FormatMove(m rules.Move) string {
	if m > Pass {
		return "move(" + strconv.FormatUint(uint64(m), 10) + ")"
	}
	c, col, pass := MovePiece(m)
	if pass {
		return "pass"
	}
	return string([]byte{c.Letter(), byte('0' + col)})
}

// moveHelp ends every message about unreadable text.
const moveHelp = "write a colour letter and a column, like G1 (the green piece in column 1), or pass"

// ParseMove reads a move: the canonical "G1" or "pass", or a tolerated
// variant: either case, the column first ("1g", "1 G"), the colour's name
// ("green 1", "1 green"), extra spaces and commas. It checks the move
// against the position and says what is wrong: unreadable text, a column
// that does not exist, a colour of the opponent, a pass while a move exists,
// or which of the three move conditions the piece breaks.
func (g *Game) ParseMove(text string) (rules.Move, error) {
	if g.Status() != rules.Ongoing {
		return rules.NoMove, rules.NewMoveError(rules.ErrGameOver,
			"the game is over: "+g.Outcome().Reason)
	}
	c, col, pass, err := readMove(text)
	if err != nil {
		return rules.NoMove, err
	}
	var list rules.MoveList
	g.Moves(&list)
	me := g.pos.toMove
	if pass {
		if list.Contains(Pass) {
			return Pass, nil
		}
		return rules.NoMove, rules.NewMoveError(rules.ErrIllegal, fmt.Sprintf(
			"%s may not pass while a legal move exists, for example %s",
			g.PlayerName(me), g.FormatMove(list.Moves[0])))
	}
	if col < 1 || col > Columns {
		return rules.NoMove, rules.NewMoveError(rules.ErrOffBoard, fmt.Sprintf(
			"there is no column %d: the columns are 1 to 4, left to right", col))
	}
	if g.owner[c] != me {
		mine := g.colours[me]
		return rules.NoMove, rules.NewMoveError(rules.ErrNotYourPiece, fmt.Sprintf(
			"%s is %s's colour: %s moves %s and %s",
			c, g.PlayerName(me^1), g.PlayerName(me), mine[0], mine[1]))
	}
	m := pieceMove(c, col-1)
	if list.Contains(m) {
		return m, nil
	}
	msg := g.whyIllegal(c, col-1)
	if list.N == 1 && list.Moves[0] == Pass {
		msg += fmt.Sprintf("; %s has no legal move and must pass", g.PlayerName(me))
	}
	return rules.NoMove, rules.NewMoveError(rules.ErrIllegal, msg)
}

// whyIllegal says which move condition colour c's piece in column col
// (0-based) breaks, in the order the rules file lists them.
func (g *Game) whyIllegal(c Colour, col int) string {
	p := &g.pos
	row := p.rowOf(c, col)
	n := p.rowCount(row)
	to := row + n
	piece := fmt.Sprintf("%c%d", c.Letter(), col+1)
	moves := fmt.Sprintf("%s stands in row %d with %d pieces in that row, so it moves %d rows", piece, row+1, n, n)
	if n == 1 {
		moves = fmt.Sprintf("%s is alone in row %d, so it moves one row", piece, row+1)
	}
	switch {
	case to >= Rows:
		return fmt.Sprintf("%s: it would land off the board at row %d", moves, to+1)
	case p.occ>>square(col, to)&1 != 0:
		other, _ := g.PieceAt(col+1, to+1)
		return fmt.Sprintf("%s: the landing square %d %d (column %d, row %d) is taken by %c%d",
			moves, col+1, to+1, col+1, to+1, other.Letter(), col+1)
	case n == 1 && p.boards[c]>>(uint(row+1)*4) == 0:
		return fmt.Sprintf("%s, and it is the most advanced %s piece: a one-row move of the most advanced %s piece is not allowed",
			moves, c, c)
	case to < FirstScoringRow-1 && p.boards[c]>>(uint(to)*4)&0xF != 0:
		return fmt.Sprintf("%s: it would land in row %d, where a %s piece already stands; two pieces of one colour may not share a row below the scoring zone",
			moves, to+1, c)
	}
	return piece + " cannot move now"
}

// colourWord reads a colour as a letter or a name, in lower case.
func colourWord(w string) (Colour, bool) {
	switch w {
	case "g", "green":
		return Green, true
	case "r", "red":
		return Red, true
	case "b", "blue":
		return Blue, true
	case "y", "yellow":
		return Yellow, true
	}
	return 0, false
}

// readMove reads move text without looking at the position: a pass, or a
// colour and a column number (not yet checked against 1..4).
func readMove(text string) (c Colour, col int, pass bool, err error) {
	unreadable := func(why string) error {
		return rules.NewMoveError(rules.ErrUnreadable, fmt.Sprintf("cannot read %q: %s%s", text, why, moveHelp))
	}
	var b strings.Builder
	for _, r := range strings.ToLower(text) {
		if unicode.IsSpace(r) || r == ',' || r == ';' {
			continue
		}
		b.WriteRune(r)
	}
	s := b.String()
	if s == "" {
		return 0, 0, false, unreadable("")
	}
	if s == "pass" {
		return 0, 0, true, nil
	}
	// Split into a run of letters and a run of digits, in either order.
	split := strings.IndexFunc(s, func(r rune) bool { return r >= '0' && r <= '9' })
	var word, digits string
	switch {
	case split < 0:
		return 0, 0, false, unreadable("there is no column number; ")
	case split == 0:
		end := strings.IndexFunc(s, func(r rune) bool { return r < '0' || r > '9' })
		if end < 0 {
			return 0, 0, false, unreadable("there is no colour; ")
		}
		digits, word = s[:end], s[end:]
	default:
		word, digits = s[:split], s[split:]
	}
	if strings.IndexFunc(digits, func(r rune) bool { return r < '0' || r > '9' }) >= 0 {
		return 0, 0, false, unreadable("")
	}
	c, ok := colourWord(word)
	if !ok {
		return 0, 0, false, unreadable(fmt.Sprintf("%q is not a colour (G green, R red, B blue, Y yellow); ", word))
	}
	digits = strings.TrimLeft(digits, "0")
	if digits == "" {
		return c, 0, false, nil
	}
	if len(digits) > 6 {
		return 0, 0, false, rules.NewMoveError(rules.ErrOffBoard, fmt.Sprintf(
			"there is no column %s: the columns are 1 to 4, left to right", digits))
	}
	col, _ = strconv.Atoi(digits)
	return c, col, false, nil
}
