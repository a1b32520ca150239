package sixes

import (
	"errors"
	"fmt"
	"strings"

	"arbiter/rules"
)

// Setup builds a game from a diagram of the board, with toMove to move, no
// move played (Ply 0, TurnsLeft the full turn limit of opts) and no
// no-return restriction (give one with SetLastMove). opts may be partial or
// nil, as for New.
//
// The diagram has six rows, row a first, each of six cells: X or x for an X
// piece, O or o for an O piece, . for an empty square. Spaces and tabs
// between cells are ignored, as are blank lines, a header line of the
// column digits ("1 2 3 4 5 6") and a row letter a..f written before a row,
// so the start position may be written
//
//	XX..OO
//	XX..OO
//	......
//	......
//	OO..XX
//	OO..XX
//
// or pasted from the rules file with its labels. Diagram writes this form.
// A diagram without any piece is an error. Surrounded pieces may stand in
// the diagram; like any surrounded piece they are removed after the next
// move.
//
// A game made by Setup is for tests, engines and pictures: its Options and
// History describe only the game since the diagram, so rules.Encode does
// not record the diagram and decoding would start from the start position.
func Setup(opts rules.Options, diagram string, toMove rules.Player) (*Game, error) {
	g, err := New(opts)
	if err != nil {
		return nil, err
	}
	if toMove != rules.P1 && toMove != rules.P2 {
		return nil, fmt.Errorf("setup: player %d does not exist; give rules.P1 (X) or rules.P2 (O)", toMove)
	}
	var pieces [2]uint64
	row := 0
	for i, line := range strings.Split(diagram, "\n") {
		cells := strings.Map(func(r rune) rune {
			if r == ' ' || r == '\t' || r == '\r' {
				return -1
			}
			return r
		}, line)
		if cells == "" || cells == "123456" {
			continue
		}
		if len(cells) == size+1 && cells[0] == byte('a'+row) {
			cells = cells[1:]
		}
		if row == size {
			return nil, fmt.Errorf("setup: line %d: the diagram has more than %d rows", i+1, size)
		}
		if len(cells) != size {
			return nil, fmt.Errorf("setup: line %d (row %c): %q has %d cells, want %d of X, O and .", i+1, 'a'+row, line, len(cells), size)
		}
		for c := range size {
			switch cells[c] {
			case 'X', 'x':
				pieces[rules.P1] |= bit(row, c)
			case 'O', 'o':
				pieces[rules.P2] |= bit(row, c)
			case '.':
			default:
				return nil, fmt.Errorf("setup: line %d (row %c): %q is not X, O or .", i+1, 'a'+row, cells[c])
			}
		}
		row++
	}
	if row != size {
		return nil, fmt.Errorf("setup: the diagram has %d rows, want %d (a to f)", row, size)
	}
	if pieces[rules.P1]|pieces[rules.P2] == 0 {
		return nil, errors.New("setup: the diagram has no pieces")
	}
	g.pos.pieces = pieces
	g.toMove = toMove
	return g, nil
}

// SetLastMove gives p's previous move for the no-return rule of a game made
// by Setup: p may not move the piece on m's to square straight back to its
// from square on p's next turn. m must be a step or a jump in shape (see
// NewMove) and p's piece must stand on its to square; if p is the player
// who moved last (not the one to move), m's from square must be empty. It
// is an error once a move has been played.
func (g *Game) SetLastMove(p rules.Player, m rules.Move) error {
	if g.ply > 0 {
		return errors.New("set last move: moves have been played; set it right after Setup")
	}
	if p != rules.P1 && p != rules.P2 {
		return fmt.Errorf("set last move: player %d does not exist", p)
	}
	if m == rules.NoMove {
		g.pos.last[p] = rules.NoMove
		return nil
	}
	if !shapeOK(uint32(m)) {
		return fmt.Errorf("set last move: %d is not a step or a jump on the board", m)
	}
	from, to := unpack(uint32(m))
	if g.pos.pieces[p]&(1<<to) == 0 {
		return fmt.Errorf("set last move %s: %s has no %s piece on %s", g.FormatMove(m), g.PlayerName(p), g.PlayerName(p), squareName(to))
	}
	if p != g.toMove && (g.pos.pieces[0]|g.pos.pieces[1])&(1<<from) != 0 {
		return fmt.Errorf("set last move %s: %s moved last, so %s must be empty", g.FormatMove(m), g.PlayerName(p), squareName(from))
	}
	g.pos.last[p] = m
	return nil
}

// Diagram writes the board in the form Setup reads: six lines of six cells
// (X, O or .), row a first, each line ending in a newline.
func (g *Game) Diagram() string {
	var b strings.Builder
	b.Grow(squares + size)
	for r := range size {
		for c := range size {
			switch p, ok := g.PieceAt(r+1, c+1); {
			case !ok:
				b.WriteByte('.')
			case p == rules.P1:
				b.WriteByte('X')
			default:
				b.WriteByte('O')
			}
		}
		b.WriteByte('\n')
	}
	return b.String()
}
