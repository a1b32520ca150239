package hique

import (
	"fmt"
	"math/bits"
	"strings"

	"arbiter/rules"
)

// StartDiagram is the start position in Setup's diagram format.
const StartDiagram = `
. . b . b . b . b . b . .
. . . B . B . B . B . . .
. . . . . . . . . . . . .
. . . . . . . . . . . . .
. . . . . . . . . . . . .
. . . . . . . . . . . . .
. . . . . . . . . . . . .
. . . . . . . . . . . . .
. . . . . . . . . . . . .
. . . . . . . . . . . . .
. . . . . . . . . . . . .
. . . W . W . W . W . . .
. . w . w . w . w . w . .
`

// Setup builds a position from a text diagram, with toMove to move, for
// tests and for showing positions. opts are the game's options as for New.
//
// The diagram is the 13x13 coordinate grid: 13 lines, the first one y = 1
// (Black's home row) and the last y = 13, each of 13 cells for x = 1..13
// from left to right. Blank lines are skipped and spaces within a line are
// ignored, so cells may be written apart ("b . b") or together ("b.b").
// A cell is:
//
//	b  a Black runner   (only where x and y are both odd: a light square)
//	w  a White runner   (light squares only)
//	B  a Black guard    (only where x and y are both even: a dark point)
//	W  a White guard    (dark points only)
//	.  nothing (and the only thing allowed where one of x, y is odd and
//	   the other even)
//
// StartDiagram is the start position in this format, and Diagram writes
// any position in it. Each player may have at most 5 runners and 4 guards.
// The position must be one a game can reach after a move: no runner is
// touched by two enemy guards (it would have been removed), and no runner of
// the player to move stands on its far row (that player would have won
// already). The set-up position counts as the first occurrence for
// repetition, and the turn limit counts moves played after it. Runners
// score in the timing option from their home rows (row 1 for Black, 13 for
// White). If the position already ends the game (the player not to move
// has reached the far row, a player has no runners, the player to move has
// no move), Status says so.
func Setup(opts rules.Options, diagram string, toMove rules.Player) (*Game, error) {
	if toMove != rules.P1 && toMove != rules.P2 {
		return nil, fmt.Errorf("hique setup: no player %d to move", toMove)
	}
	g, err := newEmpty(opts)
	if err != nil {
		return nil, err
	}
	var rows []string
	for _, line := range strings.Split(diagram, "\n") {
		cells := strings.Join(strings.Fields(line), "")
		if cells != "" {
			rows = append(rows, cells)
		}
	}
	if len(rows) != 13 {
		return nil, fmt.Errorf("hique setup: the diagram has %d rows, want 13 (y = 1 to 13)", len(rows))
	}
	p := &g.pos
	for i, row := range rows {
		y := i + 1
		if len(row) != 13 {
			return nil, fmt.Errorf("hique setup: row y = %d has %d cells, want 13 (x = 1 to 13): %q", y, len(row), row)
		}
		for j := 0; j < 13; j++ {
			x, c := j+1, row[j]
			switch {
			case c == '.':
			case (c == 'b' || c == 'w') && isSquare(x, y):
				p.runners[boolPlayer(c == 'w')] |= 1 << squareBit(x, y)
			case (c == 'B' || c == 'W') && isPoint(x, y):
				p.guards[boolPlayer(c == 'W')] |= 1 << pointBit(x, y)
			case c == 'b' || c == 'w':
				return nil, fmt.Errorf("hique setup: runner %q at %d %d: runners stand only where x and y are both odd", c, x, y)
			case c == 'B' || c == 'W':
				return nil, fmt.Errorf("hique setup: guard %q at %d %d: guards stand only where x and y are both even (2 to 12)", c, x, y)
			default:
				return nil, fmt.Errorf("hique setup: unknown cell %q at %d %d: use b, w (runners), B, W (guards) or .", c, x, y)
			}
		}
	}
	for _, pl := range []rules.Player{rules.P1, rules.P2} {
		name := g.PlayerName(pl)
		if n := bits.OnesCount64(p.runners[pl]); n > 5 {
			return nil, fmt.Errorf("hique setup: %s has %d runners, at most 5", name, n)
		}
		if n := bits.OnesCount64(p.guards[pl]); n > 4 {
			return nil, fmt.Errorf("hique setup: %s has %d guards, at most 4", name, n)
		}
		if hit := p.runners[pl] & touchedTwice(p.guards[pl^1]); hit != 0 {
			x, y := squareXY(bits.TrailingZeros64(hit))
			return nil, fmt.Errorf("hique setup: the %s runner on %d %d is touched by two %s guards and would have been removed",
				name, x, y, g.PlayerName(pl^1))
		}
	}
	if hit := p.runners[toMove] & farRow(toMove); hit != 0 {
		x, y := squareXY(bits.TrailingZeros64(hit))
		return nil, fmt.Errorf("hique setup: the %s runner on %d %d already stands on its far row, so %s would have won before it was %s's turn",
			g.PlayerName(toMove), x, y, g.PlayerName(toMove), g.PlayerName(toMove))
	}
	p.side = toMove
	return g, nil
}

func boolPlayer(second bool) rules.Player {
	if second {
		return rules.P2
	}
	return rules.P1
}

// Diagram writes the current position in Setup's format: 13 lines of 13
// cells separated by spaces, y = 1 first.
func (g *Game) Diagram() string {
	var b strings.Builder
	b.Grow(13 * 26)
	for y := 1; y <= 13; y++ {
		for x := 1; x <= 13; x++ {
			if x > 1 {
				b.WriteByte(' ')
			}
			c := byte('.')
			if pl, ok := g.RunnerAt(x, y); ok {
				c = "bw"[pl]
			} else if pl, ok := g.GuardAt(x, y); ok {
				c = "BW"[pl]
			}
			b.WriteByte(c)
		}
		b.WriteByte('\n')
	}
	return b.String()
}
