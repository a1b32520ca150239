package described

import (
	"math/bits"

	"arbiter/rules"
)

// Size returns the board's columns and rows.
func (g *Game) Size() (cols, rows int) { return g.c.w, g.c.h }

// At returns the piece on the square at column col and row row (both from
// 0, row 0 at the top as drawn): its owner and kind (an index into
// PieceNames), and false for an empty square or one off the board.
func (g *Game) At(col, row int) (owner rules.Player, kind int, ok bool) {
	if col < 0 || col >= g.c.w || row < 0 || row >= g.c.h {
		return rules.P1, 0, false
	}
	return cellPiece(g.cells[row*g.c.w+col])
}

// AtBefore is At in the position before the last move (the current one
// when no move was played), read from the game's log of the cells the move
// changed: what a board needs to show what the last move removed or
// turned, without a copy of the game.
func (g *Game) AtBefore(col, row int) (owner rules.Player, kind int, ok bool) {
	if col < 0 || col >= g.c.w || row < 0 || row >= g.c.h {
		return rules.P1, 0, false
	}
	sq := row*g.c.w + col
	v := g.cells[sq]
	if n := len(g.saved); n > 0 {
		for _, e := range g.undo[g.saved[n-1].undoLen:] {
			if int(e>>4) == sq {
				v = uint8(e & 15) // the first change logged holds the cell before the move
				break
			}
		}
	}
	return cellPiece(v)
}

// cellPiece reads a cell's value: its piece's owner and kind, and false
// for an empty cell.
func cellPiece(v uint8) (owner rules.Player, kind int, ok bool) {
	if v == 0 || v == blocker {
		return rules.P1, 0, false
	}
	return rules.Player((v - 1) & 1), int((v - 1) >> 1), true
}

// Pieces returns how many pieces p has on the board.
func (g *Game) Pieces(p rules.Player) int { return int(g.total[p&1]) }

// OnlyPlaces reports whether the game's moves only add pieces: each rule
// places or drops a new piece and none ever leaves the board or changes
// hands (tic-tac-toe, Gomoku), so a player's count is the pieces placed.
func (g *Game) OnlyPlaces() bool {
	for _, gens := range g.c.gens {
		for _, gn := range gens {
			if gn.kind != kindPlace && gn.kind != kindDrop || gn.outflank != outflankNone {
				return false
			}
		}
	}
	return true
}

// PieceNames returns the kinds of piece, as the description names them.
func (g *Game) PieceNames() []string { return pieceNames(g.spec) }

// PieceText returns the one-character text of p's piece of kind k.
func (g *Game) PieceText(k int, p rules.Player) string { return g.spec.pieces[k].Text[p&1] }

// PieceLetter returns the letter drawn on kind k's pieces in images, "" for
// none.
func (g *Game) PieceLetter(k int) string { return g.spec.pieces[k].Letter }

// PlayerColour returns p's colour from the description, and false when it
// gives none.
func (g *Game) PlayerColour(p rules.Player) ([3]uint8, bool) {
	c, err := parseColour(g.spec.players[p&1].Colour)
	return c, err == nil
}

// PlayerEmoji returns p's emoji from the description, "" when it gives none.
func (g *Game) PlayerEmoji(p rules.Player) string { return g.spec.players[p&1].Emoji }

// MoveSquares returns the columns and rows (from 0, row 0 at the top) a
// move left and reached; hasFrom is false for a move that puts a new
// piece on the board, and ok false for a pass or a value that is no move.
func (g *Game) MoveSquares(m rules.Move) (fromCol, fromRow, toCol, toRow int, hasFrom, ok bool) {
	if m == movePass {
		return 0, 0, 0, 0, false, false
	}
	from, to, rule := unpack(m)
	if isRoute(m) {
		var over, land [maxRoute]int
		n := g.c.routeSquares(m, &over, &land)
		if n == 0 {
			return 0, 0, 0, 0, false, false
		}
		return from % g.c.w, from / g.c.w, land[n-1] % g.c.w, land[n-1] / g.c.w, true, true
	}
	if g.c.strayBits(m, rule) || rule >= len(g.c.gens[0]) || to >= g.c.n || from >= g.c.n {
		return 0, 0, 0, 0, false, false
	}
	if g.c.gens[0][rule].kind == kindSwap {
		from = -1
	}
	if from >= 0 {
		fromCol, fromRow, hasFrom = from%g.c.w, from/g.c.w, true
	}
	return fromCol, fromRow, to % g.c.w, to / g.c.w, hasFrom, true
}

// Seated reports whether the game has sides that face each other (pieces
// that move forward, and no drops), and which player sits at the bottom
// of the board as drawn: the one whose forward is up.
func (g *Game) Seated() (bottom rules.Player, ok bool) {
	if g.c.hasDrop || !g.c.moveOK || g.spec.players[0].forward == g.spec.players[1].forward {
		return rules.P1, false
	}
	if g.spec.players[1].forward == dirNorth {
		return rules.P2, true
	}
	return rules.P1, true
}

// Title returns the game's title.
func (g *Game) Title() string { return g.spec.Title }

// BoardLook returns the description's colours of the squares and the
// emoji of an empty square. colours has none when the description gives
// none, one for a plain board, two for a checkered one: the first on the
// top-left square as drawn and every second square from it, the second on
// the others. The emoji is "" when the description gives none.
func (g *Game) BoardLook() (colours [][3]uint8, emoji string) {
	for _, text := range []string{g.spec.boardColour, g.spec.boardDark} {
		if c, err := parseColour(text); err == nil {
			colours = append(colours, c)
		}
	}
	return colours, g.spec.boardEmoji
}

// QuietMoves returns the moves in a row played without progress (no
// capture, no move of the no-progress ending's kind of piece); 0 when the
// description has no no-progress ending.
func (g *Game) QuietMoves() int { return int(g.quiet) }

// emptySquares returns the set of the board's empty squares.
func (g *Game) emptySquares() [maxWords]uint64 {
	var empty [maxWords]uint64
	for w := range g.c.words {
		empty[w] = g.c.mask[w] &^ (g.occ[0][w] | g.occ[1][w] | g.blocked[w])
	}
	return empty
}

// step returns the squares one step in direction d from the squares of s:
// a shift of the words on a board of rows, each square's neighbour on a
// graph.
func (c *compiled) step(s *[maxWords]uint64, d dir) [maxWords]uint64 {
	out := *s
	c.stepIn(&out, d)
	return out
}

// stepIn replaces the squares of s by those one step in direction d from
// them, as step does.
func (c *compiled) stepIn(s *[maxWords]uint64, d dir) {
	if c.graph {
		var out [maxWords]uint64
		for w := range c.words {
			for b := s[w]; b != 0; b &= b - 1 {
				if t := c.nb[d][w<<6|bits.TrailingZeros64(b)]; t >= 0 {
					out[t>>6] |= 1 << (t & 63)
				}
			}
		}
		*s = out
		return
	}
	from := &c.stepFrom[d]
	var carry uint64
	if by := c.shiftBy[d]; by > 0 {
		for w := range c.words {
			x := s[w] & from[w]
			s[w] = x<<by | carry
			carry = x >> (64 - by)
		}
	} else {
		by = -by
		for w := c.words - 1; w >= 0; w-- {
			x := s[w] & from[w]
			s[w] = x>>by | carry
			carry = x << (64 - by)
		}
	}
}
