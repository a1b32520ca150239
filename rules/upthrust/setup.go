package upthrust

import (
	"fmt"
	"math/bits"
	"strings"

	"arbiter/rules"
)

// Setup builds a game at the position drawn in diagram, with toMove to move
// and the options opts (as New takes them: partial is fine).
//
// The diagram is 11 lines, one a row, the top row (11) first and the bottom
// row (1) last; blank lines are skipped. In a line, spaces and tabs are
// ignored and the 4 cells that remain are, from column 1 to column 4, a
// colour letter G, R, B or Y (either case) for a piece or '.' for an empty
// square. Every column must hold exactly one piece of each colour: pieces
// never leave their column, so no other position can arise in a game. The
// start position is:
//
//	. . . .
//	. . . .
//	. . . .
//	. . . .
//	. . . .
//	. . . .
//	. . . .
//	G R B Y
//	R B Y G
//	B Y G R
//	Y G R B
//
// The game's history starts at the diagram: Ply is 0 and Undo goes no
// further back. A game is encoded (rules.Encode) as its options and moves
// from the start position, so a game built by Setup is for tests and
// pictures, not for the store.
func Setup(opts rules.Options, diagram string, toMove rules.Player) (*Game, error) {
	if toMove > rules.P2 {
		return nil, fmt.Errorf("upthrust setup: player %d to move: it must be player 1 or player 2", int(toMove)+1)
	}
	g, err := newGame(opts)
	if err != nil {
		return nil, fmt.Errorf("upthrust setup: %w", err)
	}
	p, err := readDiagram(diagram)
	if err != nil {
		return nil, fmt.Errorf("upthrust setup: %w", err)
	}
	p.finish(toMove)
	g.pos = p
	return g, nil
}

// readDiagram reads Setup's diagram into boards.
func readDiagram(diagram string) (position, error) {
	var p position
	var lines []string
	for _, line := range strings.Split(diagram, "\n") {
		cells := strings.Map(func(r rune) rune {
			if r == ' ' || r == '\t' || r == '\r' {
				return -1
			}
			return r
		}, line)
		if cells != "" {
			lines = append(lines, cells)
		}
	}
	if len(lines) != Rows {
		return p, fmt.Errorf("the diagram has %d rows: it needs %d, row 11 first", len(lines), Rows)
	}
	for i, cells := range lines {
		row := Rows - 1 - i // 0-based
		if len(cells) != Columns {
			return p, fmt.Errorf("row %d is %q: it needs 4 cells, each G, R, B, Y or .", row+1, cells)
		}
		for col := 0; col < Columns; col++ {
			if cells[col] == '.' {
				continue
			}
			c, ok := colourOfLetter(cells[col])
			if !ok {
				return p, fmt.Errorf("row %d, column %d is %q: a cell is G, R, B, Y or .", row+1, col+1, cells[col])
			}
			p.boards[c] |= 1 << square(col, row)
		}
	}
	for col := 0; col < Columns; col++ {
		for c := Green; c <= Yellow; c++ {
			if n := bits.OnesCount64(p.boards[c] & colMask(col)); n != 1 {
				return p, fmt.Errorf("column %d holds %d %s pieces: every column holds exactly one piece of each colour", col+1, n, c)
			}
		}
	}
	return p, nil
}

// Diagram draws the position in Setup's format: 11 lines, row 11 first,
// cells separated by spaces. Setup(opts, g.Diagram(), g.ToMove()) rebuilds
// the position.
func (g *Game) Diagram() string {
	var b strings.Builder
	for row := Rows; row >= 1; row-- {
		for col := 1; col <= Columns; col++ {
			if col > 1 {
				b.WriteByte(' ')
			}
			if c, ok := g.PieceAt(col, row); ok {
				b.WriteByte(c.Letter())
			} else {
				b.WriteByte('.')
			}
		}
		b.WriteByte('\n')
	}
	return b.String()
}
