package hique

import (
	"fmt"
	"strconv"

	"arbiter/rules"
)

// FormatMove writes m as the four numbers "X1 Y1 X2 Y2", e.g. "4 2 4 10".
func (g *Game) FormatMove(m Move) string { return formatMove(m) }

func formatMove(m Move) string {
	if m >= 1<<13 || !validPacked(m) {
		return fmt.Sprintf("invalid move %#x", uint32(m))
	}
	x1, y1, x2, y2 := MoveCoords(m)
	buf := make([]byte, 0, 11)
	buf = strconv.AppendInt(buf, int64(x1), 10)
	buf = append(buf, ' ')
	buf = strconv.AppendInt(buf, int64(y1), 10)
	buf = append(buf, ' ')
	buf = strconv.AppendInt(buf, int64(x2), 10)
	buf = append(buf, ' ')
	buf = strconv.AppendInt(buf, int64(y2), 10)
	return string(buf)
}

// validPacked reports whether both of m's places exist.
func validPacked(m Move) bool {
	from, to, guard := unpack(m)
	if guard {
		return pointMask>>from&1 != 0 && pointMask>>to&1 != 0
	}
	return squareMask>>from&1 != 0 && squareMask>>to&1 != 0
}

// maxNumber caps a number while reading, so a long string of digits reads
// as "off the board" without overflow.
const maxNumber = 1000

// readNumbers reads the four numbers of move text. Numbers may be separated
// (and surrounded) by spaces, tabs, commas, semicolons, brackets, "->", ">"
// and the word "to", in any case. ok is false for anything else or for
// another count of numbers.
func readNumbers(text string) (nums [4]int, ok bool) {
	n := 0
	for i := 0; i < len(text); {
		c := text[i]
		switch {
		case c >= '0' && c <= '9':
			v := 0
			for i < len(text) && text[i] >= '0' && text[i] <= '9' {
				v = min(v*10+int(text[i]-'0'), maxNumber)
				i++
			}
			if n == 4 {
				return nums, false
			}
			nums[n] = v
			n++
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ',' || c == ';' ||
			c == '(' || c == ')' || c == '[' || c == ']' || c == '>':
			i++
		case c == '-' && i+1 < len(text) && text[i+1] == '>':
			i += 2
		case (c == 't' || c == 'T') && i+1 < len(text) && (text[i+1] == 'o' || text[i+1] == 'O'):
			i += 2
		default:
			return nums, false
		}
	}
	return nums, n == 4
}

// ParseMove reads move text: the canonical "X1 Y1 X2 Y2" or a variant with
// commas or other separators ("4,2 4,10", "4,2,4,10", "(4,2)->(4,10)",
// "4 2 to 4 10"), and checks it against the current position. Its errors
// are *rules.MoveError values that say what is wrong.
func (g *Game) ParseMove(text string) (Move, error) {
	if g.Status() != rules.Ongoing {
		return rules.NoMove, rules.NewMoveError(rules.ErrGameOver, "the game is over: "+g.Outcome().Reason)
	}
	nums, ok := readNumbers(text)
	if !ok {
		return rules.NoMove, rules.NewMoveError(rules.ErrUnreadable,
			fmt.Sprintf("cannot read %q: write a move as four numbers, from x y then to x y, like 4 2 4 10", text))
	}
	x1, y1, x2, y2 := nums[0], nums[1], nums[2], nums[3]
	for _, pt := range [2][2]int{{x1, y1}, {x2, y2}} {
		x, y := pt[0], pt[1]
		if x < 1 || x > 13 || y < 1 || y > 13 {
			return rules.NoMove, rules.NewMoveError(rules.ErrOffBoard,
				fmt.Sprintf("%d %d is off the board: x and y both go from 1 to 13", x, y))
		}
		if !isSquare(x, y) && !isPoint(x, y) {
			return rules.NoMove, rules.NewMoveError(rules.ErrNotAPlace,
				fmt.Sprintf("%d %d is not a place on the board: runners stand where both numbers are odd, guards where both are even (2 to 12)", x, y))
		}
	}
	if isSquare(x1, y1) {
		return g.parseRunnerMove(x1, y1, x2, y2)
	}
	return g.parseGuardMove(x1, y1, x2, y2)
}

// illegal returns an ErrIllegal move error naming the move.
func illegal(x1, y1, x2, y2 int, why string) error {
	return rules.NewMoveError(rules.ErrIllegal, fmt.Sprintf("%d %d %d %d is not a legal move: %s", x1, y1, x2, y2, why))
}

func (g *Game) parseRunnerMove(x1, y1, x2, y2 int) (Move, error) {
	s := g.pos.side
	owner, ok := g.RunnerAt(x1, y1)
	if !ok {
		return rules.NoMove, rules.NewMoveError(rules.ErrNoPiece, fmt.Sprintf("there is no runner on %d %d", x1, y1))
	}
	if owner != s {
		return rules.NoMove, rules.NewMoveError(rules.ErrNotYourPiece,
			fmt.Sprintf("the runner on %d %d is %s's, and it is %s's turn", x1, y1, g.PlayerName(owner), g.PlayerName(s)))
	}
	forward := 2
	if s == rules.P2 {
		forward = -2
	}
	dx, dy := x2-x1, y2-y1
	switch {
	case !isSquare(x2, y2):
		return rules.NoMove, illegal(x1, y1, x2, y2,
			fmt.Sprintf("a runner stays on the light squares (both numbers odd), and %d %d is a dark point", x2, y2))
	case dx == 0 && dy == 0:
		return rules.NoMove, illegal(x1, y1, x2, y2, "the runner would stay where it is")
	case dy != 0 && dy*forward < 0:
		return rules.NoMove, illegal(x1, y1, x2, y2, "a runner never moves backward")
	case dx != 0 && dy != 0:
		return rules.NoMove, illegal(x1, y1, x2, y2, "a runner moves forward, left or right, never diagonally")
	case dx > 2 || dx < -2 || dy > 2 || dy < -2:
		return rules.NoMove, illegal(x1, y1, x2, y2, "a runner moves only one square (two coordinate steps) at a time")
	}
	if other, taken := g.RunnerAt(x2, y2); taken {
		return rules.NoMove, illegal(x1, y1, x2, y2,
			fmt.Sprintf("the landing square %d %d is taken by a %s runner", x2, y2, g.PlayerName(other)))
	}
	return g.checkListed(packRunner(squareBit(x1, y1), squareBit(x2, y2)), x1, y1, x2, y2)
}

func (g *Game) parseGuardMove(x1, y1, x2, y2 int) (Move, error) {
	s := g.pos.side
	owner, ok := g.GuardAt(x1, y1)
	if !ok {
		return rules.NoMove, rules.NewMoveError(rules.ErrNoPiece, fmt.Sprintf("there is no guard on %d %d", x1, y1))
	}
	if owner != s {
		return rules.NoMove, rules.NewMoveError(rules.ErrNotYourPiece,
			fmt.Sprintf("the guard on %d %d is %s's, and it is %s's turn", x1, y1, g.PlayerName(owner), g.PlayerName(s)))
	}
	dx, dy := x2-x1, y2-y1
	switch {
	case !isPoint(x2, y2):
		return rules.NoMove, illegal(x1, y1, x2, y2,
			fmt.Sprintf("a guard stays on the dark points (both numbers even), and %d %d is a light square", x2, y2))
	case dx == 0 && dy == 0:
		return rules.NoMove, illegal(x1, y1, x2, y2, "the guard would stay where it is")
	case dx != 0 && dy != 0:
		return rules.NoMove, illegal(x1, y1, x2, y2, "a guard moves straight up, down, left or right, never diagonally")
	}
	sx, sy := sign(dx)*2, sign(dy)*2
	for x, y := x1+sx, y1+sy; ; x, y = x+sx, y+sy {
		if other, taken := g.GuardAt(x, y); taken {
			if x == x2 && y == y2 {
				return rules.NoMove, illegal(x1, y1, x2, y2,
					fmt.Sprintf("the point %d %d is taken by a %s guard", x2, y2, g.PlayerName(other)))
			}
			return rules.NoMove, rules.NewMoveError(rules.ErrIllegal,
				fmt.Sprintf("%d %d to %d %d passes through the guard on %d %d, and a guard never jumps", x1, y1, x2, y2, x, y))
		}
		if x == x2 && y == y2 {
			break
		}
	}
	return g.checkListed(packGuard(pointBit(x1, y1), pointBit(x2, y2)), x1, y1, x2, y2)
}

// checkListed returns m if it is among the legal moves. Every rule is
// checked above with its reason, so this is a last safety net.
func (g *Game) checkListed(m Move, x1, y1, x2, y2 int) (Move, error) {
	var list rules.MoveList
	g.Moves(&list)
	if !list.Contains(m) {
		return rules.NoMove, illegal(x1, y1, x2, y2, "that move is not allowed here")
	}
	return m, nil
}

func sign(v int) int {
	switch {
	case v > 0:
		return 1
	case v < 0:
		return -1
	}
	return 0
}
